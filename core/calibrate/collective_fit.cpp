// Piecewise α–β fits of collective times: within a regime T = α + s·bytes, fitted by weighted
// least squares (weights 1/T², so relative errors count), the regimes' bounds chosen by
// exhaustive search over the sorted sizes.
#include "core/calibrate/collective_fit.h"

#include "core/calibrate/fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace ridgepoint {
namespace {

constexpr std::size_t kMinPerRegime = 3;
constexpr int kMaxRegimes = 3;
// A floor under the mean squared relative error (a relative error of 1e-6): below it the sums'
// rounding, not the data, would decide the number of regimes.
constexpr double kNoise = 1e-12;

// Prefix sums of the weighted moments, for any run of points in O(1).
struct Moments {
    std::vector<double> w, wx, wxx, wy, wxy, wyy;

    explicit Moments(const std::vector<std::pair<double, double>> &points)
    {
        const std::size_t n = points.size();
        for (auto *v : { &w, &wx, &wxx, &wy, &wxy, &wyy })
            v->assign(n + 1, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto [x, y] = points[i];
            const double weight = 1.0 / (y * y);
            w[i + 1] = w[i] + weight;
            wx[i + 1] = wx[i] + weight * x;
            wxx[i + 1] = wxx[i] + weight * x * x;
            wy[i + 1] = wy[i] + weight * y;
            wxy[i + 1] = wxy[i] + weight * x * y;
            wyy[i + 1] = wyy[i] + weight * y * y;
        }
    }
};

struct Line {
    double alpha = 0.0;
    double slope = 0.0;
    double sse = 0.0;
};

// The weighted least-squares line of points [from, to); α ≥ 0 and slope ≥ 0 when `constrained`.
Line fitLine(const Moments &m, std::size_t from, std::size_t to, bool constrained)
{
    const double w = m.w[to] - m.w[from];
    const double wx = m.wx[to] - m.wx[from];
    const double wxx = m.wxx[to] - m.wxx[from];
    const double wy = m.wy[to] - m.wy[from];
    const double wxy = m.wxy[to] - m.wxy[from];
    const double wyy = m.wyy[to] - m.wyy[from];
    Line line;
    const double det = w * wxx - wx * wx;
    if (det > 1e-12 * w * wxx) {
        line.slope = (w * wxy - wx * wy) / det;
        line.alpha = (wy - line.slope * wx) / w;
    } else {
        line.alpha = wy / w;
    }
    if (constrained && line.alpha < 0.0) {
        line.alpha = 0.0;
        line.slope = wxx > 0.0 ? wxy / wxx : 0.0;
    }
    if (constrained && line.slope < 0.0) {
        line.slope = 0.0;
        line.alpha = wy / w;
    }
    // Σw(α + s·x − y)², expanded.
    const double a = line.alpha;
    const double s = line.slope;
    line.sse = std::max(
        0.0, a * a * w + s * s * wxx + wyy + 2.0 * a * s * wx - 2.0 * a * wy - 2.0 * s * wxy);
    return line;
}

// The best split of [0, n) into `regimes` runs of at least kMinPerRegime points: the cut
// positions and the total squared error. Dynamic programming over the run ends: best[r][j] is the
// least error of [0, j) in r + 1 runs; among equal errors the earliest last cut is kept, then
// the earliest before it. Fewer than `regimes` · kMinPerRegime points: no split (an infinite
// error).
std::pair<std::vector<std::size_t>, double> bestSplit(const Moments &m, std::size_t n, int regimes)
{
    const std::size_t k = kMinPerRegime;
    const auto count = static_cast<std::size_t>(regimes);
    const double none = std::numeric_limits<double>::infinity();
    if (regimes < 1 || n < count * k)
        return { {}, none };
    std::vector<std::vector<double>> best(count, std::vector<double>(n + 1, none));
    std::vector<std::vector<std::size_t>> from(count, std::vector<std::size_t>(n + 1, 0));
    for (std::size_t j = k; j <= n; ++j)
        best[0][j] = fitLine(m, 0, j, false).sse;
    for (std::size_t r = 1; r < count; ++r) {
        for (std::size_t j = (r + 1) * k; j <= n; ++j) {
            // i ≥ r·k: [0, i) holds r runs of k, so best[r − 1][i] is finite.
            for (std::size_t i = r * k; i + k <= j; ++i) {
                const double sse = best[r - 1][i] + fitLine(m, i, j, false).sse;
                if (sse < best[r][j]) {
                    best[r][j] = sse;
                    from[r][j] = i;
                }
            }
        }
    }
    std::vector<std::size_t> cuts(count + 1, 0);
    cuts[count] = n;
    for (std::size_t r = count - 1; r > 0; --r)
        cuts[r] = from[r][cuts[r + 1]];
    return { cuts, best[count - 1][n] };
}

ridgepoint::Expected<CollectiveFit, std::string> fitLayout(
    const std::vector<const MeasuredRow *> &rows)
{
    std::vector<std::pair<double, double>> points;
    points.reserve(rows.size());
    for (const MeasuredRow *row : rows)
        points.emplace_back(row->messageBytes, row->seconds);
    std::stable_sort(points.begin(), points.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    const Moments moments(points);
    const std::size_t n = points.size();
    const double factor = busBytesFactor(rows.front()->op, rows.front()->ranks);
    std::vector<std::size_t> cuts;
    double bestScore = std::numeric_limits<double>::infinity();
    for (int regimes = 1; regimes <= kMaxRegimes; ++regimes) {
        if (static_cast<std::size_t>(regimes) * kMinPerRegime > n)
            break;
        const auto [split, sse] = bestSplit(moments, n, regimes);
        const double nd = static_cast<double>(n);
        const double score
            = nd * std::log(sse / nd + kNoise) + (3.0 * regimes - 1.0) * std::log(nd);
        if (score < bestScore - 1e-9) {
            bestScore = score;
            cuts = split;
        }
    }
    CollectiveFit fit;
    fit.collective = rows.front()->op;
    fit.ranks = rows.front()->ranks;
    fit.ranksPerNode = rows.front()->ranksPerNode;
    for (std::size_t r = 0; r + 1 < cuts.size(); ++r) {
        const Line line = fitLine(moments, cuts[r], cuts[r + 1], true);
        CollectiveRegime regime;
        regime.fromBytes = points[cuts[r]].first;
        regime.toBytes = points[cuts[r + 1] - 1].first;
        regime.latencySeconds = line.alpha;
        if (line.slope > 0.0)
            regime.busBandwidth = factor / line.slope;
        if (!std::isfinite(regime.latencySeconds)
            || (regime.busBandwidth && !std::isfinite(*regime.busBandwidth)))
            return ridgepoint::Unexpected("the fit of " + fit.collective + " on "
                + std::to_string(fit.ranks) + " ranks gave a number that is not finite");
        fit.regimes.push_back(regime);
    }
    std::vector<double> errors;
    errors.reserve(points.size());
    for (const auto &[x, y] : points)
        errors.push_back(std::abs(collectiveSeconds(fit, x) / y - 1.0));
    fit.error = errorSummary(std::move(errors));
    return fit;
}

} // namespace

double collectiveSeconds(const CollectiveFit &fit, double bytes)
{
    if (fit.regimes.empty())
        return 0.0;
    const double factor = busBytesFactor(fit.collective, fit.ranks);
    const auto seconds = [&](const CollectiveRegime &regime) {
        const double transfer = regime.busBandwidth ? factor * bytes / *regime.busBandwidth : 0.0;
        return regime.latencySeconds + transfer;
    };
    for (std::size_t r = 0; r < fit.regimes.size(); ++r) {
        if (bytes <= fit.regimes[r].toBytes)
            return seconds(fit.regimes[r]);
        // Between two regimes' sizes: NCCL picks the protocol it expects to be fastest, so the
        // faster of the two.
        if (r + 1 < fit.regimes.size() && bytes < fit.regimes[r + 1].fromBytes)
            return std::min(seconds(fit.regimes[r]), seconds(fit.regimes[r + 1]));
    }
    return seconds(fit.regimes.back());
}

ridgepoint::Expected<std::vector<CollectiveFit>, std::string> fitCollectives(
    const std::vector<const MeasuredRow *> &rows)
{
    std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::vector<const MeasuredRow *>>
        layouts;
    for (const MeasuredRow *row : rows)
        layouts[{ row->op, row->ranks, row->ranksPerNode }].push_back(row);
    std::vector<CollectiveFit> out;
    for (const auto &[key, list] : layouts) {
        if (list.size() < kMinPerRegime)
            continue;
        auto fit = fitLayout(list);
        if (!fit)
            return ridgepoint::Unexpected(fit.error());
        out.push_back(std::move(*fit));
    }
    return out;
}

} // namespace ridgepoint
