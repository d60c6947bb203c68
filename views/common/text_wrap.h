#pragma once

#include <QString>
#include <QStringList>

class QFontMetricsF;

namespace rematlens {

// Text laid onto lines no wider than a width, whole: broken between clauses, then between
// words, and a word wider than a line between its characters. Figures wrap with it where a long
// title or label would otherwise be elided to "…" and lose what it says.
class TextWrap {
public:
    // The text broken at its spaces (its newlines kept).
    static QStringList lines(const QString &text, const QFontMetricsF &metrics, qreal width);
    // The clauses joined by `separator` as long as a line holds them; a clause wider than a line
    // is broken at its spaces.
    static QStringList clauses(const QStringList &clauses, const QString &separator, const QFontMetricsF &metrics,
                               qreal width);

private:
    static QStringList pieces(const QString &word, const QFontMetricsF &metrics, qreal width);
    static void join(QStringList &lines, const QStringList &parts, const QString &separator,
                     const QFontMetricsF &metrics, qreal width);
};

} // namespace rematlens
