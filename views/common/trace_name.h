#pragma once

#include <QString>

namespace rematlens {

// "…/unet-6-8000000000.0-2020-10-1-10-57-18-default.log" -> "unet": the public traces are named
// model-batch-budget-date-..., and the model is what a figure's reader wants; ":demo" -> "demo".
inline QString shortTraceName(QString name)
{
    name = name.mid(name.lastIndexOf(QLatin1Char('/')) + 1);
    if (name.startsWith(QLatin1Char(':')))
        name = name.mid(1);
    for (const QString &suffix : {QStringLiteral(".log"), QStringLiteral(".jsonl"), QStringLiteral(".json")})
        if (name.size() > suffix.size() && name.endsWith(suffix))
            name.chop(suffix.size());
    for (qsizetype i = 1; i + 1 < name.size(); ++i)
        if (name[i] == QLatin1Char('-') && name[i + 1].isDigit())
            return name.left(i);
    return name;
}

} // namespace rematlens
