#pragma once

#include <QString>

namespace rematlens {

// Where the window looks for the bundled maps of the public traces: $REMATLENS_ATLAS_DIR when
// set (even to a folder that does not exist: then there are none), else the installed
// <prefix>/share/rematlens/atlas beside the program, else, for a program run from its build
// tree, the source tree's atlas/maps. Empty when none of them exists.
QString atlasDirectory();

} // namespace rematlens
