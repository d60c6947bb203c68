#pragma once

namespace rematlens {

// The visible x range of a chart over data spanning [0, extent]: zooming keeps the point
// under the cursor still, panning moves by a fraction of the view, and the window never
// leaves the data nor shrinks below `minimumWidth`.
struct ZoomWindow {
    double extent = 1;
    double from = 0;
    double to = 1;
    double minimumWidth = 1e-9;

    static ZoomWindow whole(double extent, double minimumWidth);
    double width() const { return to - from; }
    bool zoomed() const { return from > 0 || to < extent; }
    // factor < 1 zooms in; anchor is an x inside the window.
    void zoom(double factor, double anchor);
    void pan(double fractionOfWidth);
    void show(double newFrom, double newTo);
    void reset();

private:
    void clamp();
};

} // namespace rematlens
