#pragma once

class QValueAxis;

namespace rematlens {

// Sets a dynamic-tick axis to [min, max] with ticks every `interval`, never passing through a
// state where an old interval meets a new range: Qt Charts builds one item per tick, so the
// empty chart's 0.2 applied to a 30,000-step range would build 150,000 of them and freeze the
// window. The interval is also widened so that no axis ever has more than kMaxTicks ticks.
void setAxisTicks(QValueAxis *axis, double min, double max, double interval);

constexpr int kMaxTicks = 100;

} // namespace rematlens
