#include "views/tables/map_provenance.h"

#include <QCoreApplication>

namespace rematlens {

void MapProvenance::add(const MapProvenance &other)
{
    for (const QString &file : other.atlasFiles)
        if (!atlasFiles.contains(file))
            atlasFiles << file;
    cache = cache || other.cache;
    walked = walked || other.walked;
}

QString MapProvenance::describe() const
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("MapProvenance", text); };
    QStringList parts;
    if (!atlasFiles.isEmpty())
        parts << tr("the atlas (%1)").arg(atlasFiles.join(QStringLiteral(", ")));
    if (cache)
        parts << tr("earlier sessions");
    if (walked)
        parts << tr("this window");
    if (parts.isEmpty())
        return tr("nowhere yet");
    if (parts.size() == 1)
        return parts.front();
    const QString last = parts.takeLast();
    return tr("%1 and %2").arg(parts.join(QStringLiteral(", ")), last);
}

} // namespace rematlens
