#pragma once

#include <QString>
#include <QStringList>

namespace rematlens {

// Where the intervals of one exact map came from: the bundled maps that come with the program
// (the atlas, by file name), the maps this computer made in earlier sessions (the user's map
// cache), and walks made in this window. A map built from several sources names them all.
struct MapProvenance {
    QStringList atlasFiles;
    bool cache = false;
    bool walked = false;

    void add(const MapProvenance &other);
    // "the atlas (inceptionv4.jsonl.gz)", "earlier sessions and this window", …
    QString describe() const;
    bool operator==(const MapProvenance &) const = default;
};

} // namespace rematlens
