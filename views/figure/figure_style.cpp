#include "views/figure/figure_style.h"

#include "views/strip/outcome_palette.h"

#include <QFontInfo>

namespace rematlens {

FigureStyle FigureStyle::screen(const QFont &widgetFont)
{
    FigureStyle style;
    const int pixels = QFontInfo(widgetFont).pixelSize();
    style.fontSize = pixels > 0 ? pixels : 12;
    style.lineWidth = 1.6;
    style.axisWidth = 1.0;
    return style;
}

QFont FigureStyle::font(qreal scale) const
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(qMax(1, qRound(fontSize * scale))); // painter units are points
    // Unhinted glyph advances scale with the painter, so PNG, SVG and PDF lay text out alike.
    f.setHintingPreference(QFont::PreferNoHinting);
    return f;
}

QFont FigureStyle::boldFont() const
{
    QFont f = font();
    f.setBold(true);
    return f;
}

Qt::PenStyle FigureStyle::policyLine(int index) const
{
    if (palette != Palette::GreyscaleSafe)
        return Qt::SolidLine;
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    return styles[index % 3];
}

QColor FigureStyle::hole() const
{
    return OutcomePalette::hole();
}

QColor FigureStyle::selection() const
{
    return OutcomePalette::selection();
}

// Greyscale-safe colours differ in lightness, so they survive printing in black and white.
QColor FigureStyle::outcome(Outcome o) const
{
    if (palette == Palette::GreyscaleSafe) {
        switch (o) {
        case Outcome::Pass:
            return QColor(0xD9, 0xD9, 0xD9);
        case Outcome::OutOfMemory:
            return QColor(0x25, 0x25, 0x25);
        case Outcome::Thrash:
            return QColor(0x73, 0x73, 0x73);
        case Outcome::Timeout:
            return QColor(0xA6, 0xA6, 0xA6);
        case Outcome::Cancelled:
            return QColor(0xF4, 0xF4, 0xF4);
        case Outcome::Impossible:
            return QColor(0x00, 0x00, 0x00);
        }
    }
    if (palette == Palette::ColourBlindSafe) { // Paul Tol's "bright" scheme
        switch (o) {
        case Outcome::Pass:
            return QColor(0x44, 0x77, 0xAA);
        case Outcome::OutOfMemory:
            return QColor(0xEE, 0x66, 0x77);
        case Outcome::Thrash:
            return QColor(0xCC, 0xBB, 0x44);
        case Outcome::Timeout:
            return QColor(0xAA, 0x33, 0x77);
        case Outcome::Cancelled:
            return QColor(0xDD, 0xDD, 0xDD);
        case Outcome::Impossible:
            return QColor(0x33, 0x22, 0x88);
        }
    }
    return OutcomePalette::outcome(o);
}

QColor FigureStyle::policy(int index) const
{
    if (palette == Palette::GreyscaleSafe) {
        static const QColor greys[] = {QColor(0x00, 0x00, 0x00), QColor(0x5A, 0x5A, 0x5A), QColor(0x96, 0x96, 0x96)};
        return greys[index % 3];
    }
    if (palette == Palette::ColourBlindSafe) {
        // Near-black first and none of the outcome colours, so a curve never reads as an outcome.
        static const QColor tol[] = {QColor(0x22, 0x22, 0x22), QColor(0x22, 0x88, 0x33), QColor(0x66, 0xCC, 0xEE),
                                     QColor(0xEE, 0x77, 0x33), QColor(0xBB, 0xBB, 0xBB)};
        return tol[index % 5];
    }
    return OutcomePalette::policy(index);
}

QColor FigureStyle::budgetLine() const
{
    return palette == Palette::Default ? QColor(0xD5, 0x5E, 0x00) : ink();
}

QColor FigureStyle::lockedFill() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0xBD, 0xBD, 0xBD) : QColor(0x56, 0xB4, 0xE9, 0x90);
}

QColor FigureStyle::rematShade() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x00, 0x00, 0x00, 0x22) : QColor(0xE6, 0x9F, 0x00, 0x40);
}

QColor FigureStyle::eviction() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x40, 0x40, 0x40) : QColor(0xCC, 0x79, 0xA7);
}

QColor FigureStyle::nesting() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x70, 0x70, 0x70) : QColor(0x00, 0x9E, 0x73);
}

QColor FigureStyle::divergence() const
{
    return palette == Palette::GreyscaleSafe ? ink() : QColor(0x00, 0x00, 0x00);
}

QColor FigureStyle::failure() const
{
    return palette == Palette::GreyscaleSafe ? ink() : QColor(0xD5, 0x5E, 0x00);
}

QColor FigureStyle::reserved() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x50, 0x50, 0x50) : QColor(0x00, 0x72, 0xB2);
}

QColor FigureStyle::allocated() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x90, 0x90, 0x90) : QColor(0x7A, 0x3E, 0x9D);
}

QColor FigureStyle::fragmentationFill() const
{
    return palette == Palette::GreyscaleSafe ? QColor(0x00, 0x00, 0x00, 0x30) : QColor(0x00, 0x72, 0xB2, 0x38);
}

QColor FigureStyle::ink() const
{
    return QColor(0x20, 0x20, 0x20);
}

QColor FigureStyle::grid() const
{
    return QColor(0xE4, 0xE4, 0xE4);
}

} // namespace rematlens
