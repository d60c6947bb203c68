#include "views/common/text_wrap.h"

#include <QFontMetricsF>

namespace rematlens {

QStringList TextWrap::lines(const QString &text, const QFontMetricsF &metrics, qreal width)
{
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n')))
        join(out, line.split(QLatin1Char(' ')), QStringLiteral(" "), metrics, width);
    return out;
}

QStringList TextWrap::clauses(const QStringList &clauses, const QString &separator, const QFontMetricsF &metrics,
                              qreal width)
{
    QStringList out;
    QString current;
    const QString end = separator.trimmed(); // what a line ends with when a clause follows on the next
    for (qsizetype i = 0; i < clauses.size(); ++i) {
        const QString &clause = clauses[i];
        const QString longer = current.isEmpty() ? clause : current + separator + clause;
        if (metrics.horizontalAdvance(longer + (i + 1 < clauses.size() ? end : QString())) <= width) {
            current = longer;
            continue;
        }
        if (!current.isEmpty())
            out << current + end;
        current = clause;
        if (metrics.horizontalAdvance(clause) > width) { // a clause of its own lines, the last one open
            QStringList broken = lines(clause, metrics, width);
            current = broken.takeLast();
            out << broken;
        }
    }
    if (!current.isEmpty())
        out << current;
    return out;
}

// Words onto lines: a line takes words while it is no wider than `width`.
void TextWrap::join(QStringList &lines, const QStringList &parts, const QString &separator,
                    const QFontMetricsF &metrics, qreal width)
{
    QString current;
    for (const QString &part : parts) {
        for (const QString &piece : pieces(part, metrics, width)) {
            const QString longer = current.isEmpty() ? piece : current + separator + piece;
            if (current.isEmpty() || metrics.horizontalAdvance(longer) <= width) {
                current = longer;
                continue;
            }
            lines << current;
            current = piece;
        }
    }
    lines << current;
}

// A word no wider than a line as it is; a wider one in runs of characters that are.
QStringList TextWrap::pieces(const QString &word, const QFontMetricsF &metrics, qreal width)
{
    if (metrics.horizontalAdvance(word) <= width)
        return {word};
    QStringList out;
    QString current;
    for (const QChar c : word) {
        if (!current.isEmpty() && metrics.horizontalAdvance(current + c) > width) {
            out << current;
            current.clear();
        }
        current += c;
    }
    out << current;
    return out;
}

} // namespace rematlens
