#pragma once

#include <QChar>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QXmlStreamReader>

// What an SVG file says in words: the text of every <text> element, in document order (one
// entry saying why, when the file is not well formed).
inline QStringList svgTexts(const QString &path)
{
    QFile file(path);
    QStringList texts;
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("(cannot read %1)").arg(path)};
    QXmlStreamReader xml(&file);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text")
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    return xml.hasError() ? QStringList{QStringLiteral("(not well formed: %1)").arg(xml.errorString())} : texts;
}

// Texts elided to an ellipsis (Qt's "…", Qt Charts' "...") or left empty, quoted.
inline QStringList cutTexts(const QStringList &texts)
{
    QStringList cut;
    for (const QString &text : texts)
        if (text.trimmed().isEmpty() || text.contains(QChar(0x2026)) || text.contains(QStringLiteral("...")))
            cut << QStringLiteral("\"%1\"").arg(text);
    return cut;
}
