#pragma once

#include <QString>

#include <vector>

namespace rematlens {

// A key or mouse gesture a view handles itself, as the help's shortcut table lists it.
struct KeyBinding {
    QString keys;   // "Shift+Left / Shift+Right", "Wheel", "Double click"
    QString action; // what it does
};

using KeyBindings = std::vector<KeyBinding>;

} // namespace rematlens
