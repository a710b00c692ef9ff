// The chart's log-log axes: tick labels in a prefixed unit, the decade-snapped frames the view
// resets to (around a machine's ridges, or around the points), and their theme.
#pragma once

#include <qcustomplot.h>

#include <QString>

#include <optional>
#include <utility>

namespace ridgepoint {

class Document;
struct ChartTheme;
struct Hardware;
struct ComputeCeiling;

namespace chart {

// Log ticks labelled as quantities, one format per axis: performance with an SI prefix chosen
// per tick ("100 GFLOP/s", "1 TFLOP/s"), intensity as a plain decimal ("0.1 FLOP/B",
// "10 FLOP/B"), energy efficiency as performance is ("10 GFLOP/J"). Never an exponent, never two
// notations on one axis.
class QuantityLogTicker : public QCPAxisTickerLog
{
public:
    enum class Style { Rate, Intensity, Efficiency };
    explicit QuantityLogTicker(Style style)
        : m_style(style)
    { }
    QString label(double tick) const { return tickLabel(tick, m_style); }
    static QString tickLabel(double tick, Style style);

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return label(tick); }

private:
    Style m_style;
};

// The unit prefix for an axis whose top is `high`: the one that makes the top readable
// ({1e12, "T"} for 3e15 FLOP/s), {1, ""} below ten thousand.
std::pair<double, QString> ratePrefix(double high);

// The decade at or below (above) `value`: 1000 for 999.9 and for 1000.
double decadeFloor(double value);
double decadeCeil(double value);

// The highest visible compute peak and memory bandwidth of a machine (0 when none is visible).
double topPeak(const Hardware &hardware);
double topBandwidth(const Hardware &hardware);

// A view of the log-log chart (intensity in FLOP/B, performance in FLOP/s).
struct AxisFrame {
    double xLower = 0.0, xUpper = 0.0;
    double yLower = 0.0, yUpper = 0.0;
    friend bool operator==(const AxisFrame &, const AxisFrame &) = default;
};
// Decades around the visible ceilings' ridges (at least 0.01 to 1000 FLOP/B), so two sessions
// on one machine look the same; 0.01–1e4 FLOP/B × 1e9–1e15 FLOP/s without a ridge.
AxisFrame hardwareFrame(const Hardware &hardware);
// Decades around the analysed points and the roofs that bound them, nullopt without any: every
// level's point (its intensity, the point's performance), the roof above each (the level's
// attainable), and the ridge of `emphasised` over the main memory when it lies within a decade
// of the points' intensities. Each side is snapped out to a decade after a factor-2 margin, so
// it lies at most 20× beyond what it encloses.
std::optional<AxisFrame> dataFrame(
    const Document &document, const ComputeCeiling *emphasised = nullptr);
// True when every analysed point (each of its memory levels) lies inside `view`, or there is
// none.
bool dataInView(const Document &document, const AxisFrame &view);

// Grid, axis pens, tick and label colours and fonts of `plot`'s axes for `theme` in `base`.
void styleAxes(QCustomPlot *plot, const ChartTheme &theme, const QFont &base);

} // namespace chart

} // namespace ridgepoint
