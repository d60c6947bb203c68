#include "seeded_policy.h"

#include <QObject>

namespace rematlens {

std::optional<SeededPolicy> SeededPolicy::parse(const QString &text, QString &error)
{
    static const QString marker = QStringLiteral(":seed=");
    const qsizetype at = text.lastIndexOf(marker, -1, Qt::CaseInsensitive);
    if (at < 0)
        return SeededPolicy{text, 0, false};
    const QString number = text.mid(at + marker.size());
    bool ok = false;
    const qulonglong seed = number.toULongLong(&ok);
    if (!ok || number.startsWith(QLatin1Char('+'))) {
        error = QObject::tr("%1: a seed is a whole number from 0, as in RandomStorage:seed=1, not \"%2\"")
                    .arg(text, number);
        return std::nullopt;
    }
    return SeededPolicy{text.left(at), seed, true};
}

} // namespace rematlens
