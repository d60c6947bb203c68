#pragma once

#include <QString>
#include <QStringList>

class QChart;
class QValueAxis;

namespace rematlens {

// The timeline's three axes: the model step or the clock along the bottom, memory on the left,
// nesting on the right. Their ticks and titles fit the room Qt Charts gives them, which elides
// any text that needs more: fewer ticks where labels would crowd, a shorter wording or none
// where a title would not fit, and no labels on a chart too small even for them.
class TimelineAxes {
public:
    // Creates the axes in `chart`, which owns them.
    explicit TimelineAxes(QChart *chart);

    QValueAxis *x() const { return m_x; }
    QValueAxis *y() const { return m_y; }
    QValueAxis *depth() const { return m_depth; }

    // The x axis's title, longest wording first, and which of its texts it may show.
    void setXTitles(QStringList wordings);
    void setXText(bool labels, bool title);
    // Memory from 0 to `yMax` in `unit`, nesting from 0 to `depthTop`; nothing to fit once cleared.
    void setValueRanges(double yMax, const QString &unit, double depthTop);
    void clearValues() { m_yMax = 0; }
    // The x axis over [min, max] (in its own units), ticks as far apart as their labels need.
    void showX(double min, double max);
    // Everything again for the chart's current layout (its plot moved or changed size).
    void fit();
    // Whether the x axis shows its title or its labels (for a caller that lays out around it).
    void fitXText();

private:
    void fitValues();
    void fitValueText(QValueAxis *axis, const QStringList &wordings, int decimals, double height);
    void fitXTicks();
    double xTickInterval(double min, double max) const;
    qreal plotHeight() const;
    qreal contentHeight() const;
    qreal contentBottom() const;

    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QValueAxis *m_depth;
    double m_yMax = 0; // 0: no run, nothing to fit
    double m_depthTop = 2.5;
    QString m_unit;
    QStringList m_xTitles;
    bool m_xLabels = true;
    bool m_xTitled = true;
};

} // namespace rematlens
