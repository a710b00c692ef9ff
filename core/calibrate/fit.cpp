// The kernel fits (three numbers per operator and class, five for a GEMM on the tile set; least
// squares on log time: coordinate sweeps, then Nelder–Mead) and the predictions they give
// (docs/MODEL.md "Calibration").
#include "core/calibrate/fit.h"

#include "core/calibrate/collective_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace ridgepoint {
namespace {

// 0 × 0: per shape, the cheapest tile of the library set (kGemmTiles), not one fixed tile.
bool onTileSet(const Calibration &calibration)
{
    return calibration.tileM == 0 && calibration.tileN == 0;
}

constexpr int kGoldenSteps = 60;
constexpr int kSweeps = 10; // coordinate sweeps before the simplex search
constexpr int kMaxIterations = 20000; // of one simplex search
constexpr int kRestarts = 10;
constexpr double kConverged = 1e-10; // simplex size, in ln of each parameter
constexpr std::size_t kMinRows = 3;

// ln computeFraction, ln memoryFraction, ln floor and, for GEMMs on the tile set, ln operandCost
// and ln overlapLoss.
using Point = std::array<double, 5>;

struct Bounds {
    double low;
    double high;
};
// Fractions in [1e-4, 1], floor in [1 ns, 1 s], operand cost in [1e-3, 1e4] FLOP/B, overlap
// loss in [1e-9, 1] (its least is the roofline's max to a part in 10⁹).
constexpr Bounds kBounds[5]
    = { { -9.210340371976182, 0.0 }, { -9.210340371976182, 0.0 }, { -20.72326583694641, 0.0 },
          { -6.907755278982137, 9.210340371976184 }, { -20.72326583694641, 0.0 } };

Point clamped(Point x)
{
    for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = std::clamp(x[i], kBounds[i].low, kBounds[i].high);
    return x;
}

// `dims` 3: no operand cost (r = 0) nor overlap loss (κ = 0); 5: r and κ fitted too.
KernelFit fromLogs(const Point &logs, std::size_t dims)
{
    const Point x = clamped(logs);
    KernelFit fit;
    fit.computeFraction = std::exp(x[0]);
    fit.memoryFraction = std::exp(x[1]);
    fit.floorSeconds = std::exp(x[2]);
    fit.operandCost = dims > 3 ? std::exp(x[3]) : 0.0;
    fit.overlapLoss = dims > 4 ? std::exp(x[4]) : 0.0;
    return fit;
}

// Σ (ln T − ln T_measured)² at the (clamped) point.
struct Loss {
    const std::vector<const MeasuredRow *> &rows;
    const Calibration &calibration;
    std::size_t dims = 3;

    double operator()(const Point &x) const
    {
        const KernelFit fit = fromLogs(x, dims);
        double sum = 0.0;
        for (const MeasuredRow *row : rows) {
            const double r = std::log(kernelSeconds(fit, *row, calibration) / row->seconds);
            sum += r * r;
        }
        return sum;
    }
};

// Minimises the loss along parameter `i` by golden-section search within its bounds.
double golden(const Loss &loss, const Point &x, std::size_t i)
{
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = kBounds[i].low;
    double b = kBounds[i].high;
    auto at = [&](double v) {
        Point y = x;
        y[i] = v;
        return loss(y);
    };
    double c = b - ratio * (b - a);
    double d = a + ratio * (b - a);
    double fc = at(c);
    double fd = at(d);
    for (int step = 0; step < kGoldenSteps; ++step) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = at(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = at(d);
        }
    }
    return (a + b) / 2.0;
}

struct Simplex {
    std::size_t dims = 3; // dims + 1 points in use
    std::array<Point, 6> p;
    std::array<double, 6> v;

    void sort()
    {
        for (std::size_t i = 1; i <= dims; ++i) {
            for (std::size_t j = i; j > 0 && v[j] < v[j - 1]; --j) {
                std::swap(v[j], v[j - 1]);
                std::swap(p[j], p[j - 1]);
            }
        }
    }
    double size() const
    {
        double out = 0.0;
        for (std::size_t i = 1; i <= dims; ++i) {
            for (std::size_t k = 0; k < dims; ++k)
                out = std::max(out, std::abs(p[i][k] - p[0][k]));
        }
        return out;
    }
};

Point along(const Point &from, const Point &to, double t)
{
    Point out = from;
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = from[k] + t * (to[k] - from[k]);
    return out;
}

// The centroid of all points but the worst (the three-parameter form as it always was, so
// those fits give the figures they gave).
Point centroid(const Simplex &s)
{
    if (s.dims == 3)
        return along(s.p[0], along(s.p[1], s.p[2], 0.5), 2.0 / 3.0);
    if (s.dims == 4)
        return along(along(s.p[0], s.p[1], 0.5), along(s.p[2], s.p[3], 0.5), 0.5);
    Point out {};
    for (std::size_t i = 0; i < s.dims; ++i) {
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] += s.p[i][k] / static_cast<double>(s.dims);
    }
    return out;
}

// One Nelder–Mead search from `start` (reflection 1, expansion 2, contraction and shrink ½);
// nullopt when the simplex has not shrunk below kConverged in kMaxIterations.
std::optional<Point> nelderMead(const Loss &loss, const Point &start)
{
    Simplex s;
    s.dims = loss.dims;
    const std::size_t w = s.dims; // the worst point after sorting
    s.p.fill(start);
    for (std::size_t i = 0; i < s.dims; ++i)
        s.p[i + 1][i] += start[i] - 0.5 >= kBounds[i].low ? -0.5 : 0.5;
    for (std::size_t i = 0; i <= s.dims; ++i)
        s.v[i] = loss(s.p[i]);
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        s.sort();
        if (s.size() < kConverged)
            return s.p[0];
        const Point middle = centroid(s);
        const Point reflected = along(s.p[w], middle, 2.0);
        const double fr = loss(reflected);
        if (fr < s.v[0]) {
            const Point expanded = along(s.p[w], middle, 3.0);
            const double fe = loss(expanded);
            s.p[w] = fe < fr ? expanded : reflected;
            s.v[w] = std::min(fe, fr);
        } else if (fr < s.v[w - 1]) {
            s.p[w] = reflected;
            s.v[w] = fr;
        } else {
            const Point contracted
                = fr < s.v[w] ? along(middle, reflected, 0.5) : along(middle, s.p[w], 0.5);
            const double fc = loss(contracted);
            if (fc < std::min(fr, s.v[w])) {
                s.p[w] = contracted;
                s.v[w] = fc;
            } else {
                for (std::size_t i = 1; i <= w; ++i) {
                    s.p[i] = along(s.p[0], s.p[i], 0.5);
                    s.v[i] = loss(s.p[i]);
                }
            }
        }
    }
    return std::nullopt;
}

// Coordinate sweeps by golden section for a start, then Nelder–Mead restarted from its own
// result until it stays put.
ridgepoint::Expected<KernelFit, std::string> fitKernel(const std::vector<const MeasuredRow *> &rows,
    const Calibration &calibration, const std::string &name)
{
    // A GEMM fit on the tile set has the tiles' operand cost r and overlap loss κ as a fourth
    // and fifth parameter (with one fixed tile r would only rescale c).
    const bool tileSet = rows.front()->kind == OperatorClass::Gemm && calibration.sms > 0
        && onTileSet(calibration);
    const Loss loss { rows, calibration, tileSet ? 5u : 3u };
    double fastest = rows.front()->seconds;
    for (const MeasuredRow *row : rows)
        fastest = std::min(fastest, row->seconds);
    Point x = clamped(
        { std::log(0.5), std::log(0.5), std::log(fastest / 2.0), std::log(10.0), std::log(0.1) });
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
        for (std::size_t i = 0; i < loss.dims; ++i)
            x[i] = golden(loss, x, i);
    }
    bool settled = false;
    for (int restart = 0; restart < kRestarts && !settled; ++restart) {
        const auto found = nelderMead(loss, x);
        if (!found)
            return ridgepoint::Unexpected("the fit of " + name + " did not converge in "
                + std::to_string(kMaxIterations) + " simplex steps");
        settled = loss(*found) >= loss(x) - 1e-15 * (1.0 + loss(x));
        if (loss(*found) <= loss(x))
            x = *found;
    }
    KernelFit fit = fromLogs(x, loss.dims);
    fit.name = name;
    fit.kind = rows.front()->kind;
    std::vector<double> errors;
    errors.reserve(rows.size());
    for (const MeasuredRow *row : rows)
        errors.push_back(std::abs(kernelSeconds(fit, *row, calibration) / row->seconds - 1.0));
    fit.error = errorSummary(std::move(errors));
    if (!std::isfinite(fit.computeFraction) || !std::isfinite(fit.memoryFraction)
        || !std::isfinite(fit.floorSeconds) || !std::isfinite(fit.operandCost)
        || !std::isfinite(fit.overlapLoss) || !std::isfinite(fit.error.median)
        || !std::isfinite(fit.error.p90))
        return ridgepoint::Unexpected("the fit of " + name + " gave a number that is not finite");
    return fit;
}

bool usable(const MeasuredRow &row)
{
    if (!row.excluded.empty() || !(row.seconds > 0.0) || !std::isfinite(row.seconds))
        return false;
    if (row.isCollective())
        return row.messageBytes > 0.0 && row.ranks > 0;
    return row.bytes > 0.0 && row.flops >= 0.0;
}

bool belowBound(const MeasuredRow &row, const Calibration &calibration)
{
    const double bound = std::max(row.flops / calibration.peak, row.bytes / calibration.bandwidth);
    return row.seconds < bound;
}

bool tiledGemm(const MeasuredRow &row, const Calibration &calibration)
{
    return row.kind == OperatorClass::Gemm && calibration.sms > 0 && row.m > 0 && row.n > 0
        && row.k > 0;
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

// A tile tm×tn's FLOPs over the machine: 2·K·tm·tn·SMs·waves·(1 + r/I), I = tm·tn/(tm + tn).
double tileWork(const MeasuredRow &row, const Calibration &calibration, std::int64_t tm,
    std::int64_t tn, double operandCost)
{
    const std::int64_t waves = ceilDiv(ceilDiv(row.m, tm) * ceilDiv(row.n, tn), calibration.sms);
    const double m = static_cast<double>(tm);
    const double n = static_cast<double>(tn);
    return 2.0 * static_cast<double>(row.k) * m * n * static_cast<double>(calibration.sms)
        * static_cast<double>(waves) * (1.0 + operandCost * (m + n) / (m * n));
}

// The bytes from main memory with tiles tm high: the row's, and the K×N weight (16-bit) read again
// for each further row of tiles, of which the part the L2 cannot hold, 1 − L2/W, misses.
double tileBytes(const MeasuredRow &row, const Calibration &calibration, std::int64_t tm)
{
    const double weight = 2.0 * static_cast<double>(row.k) * static_cast<double>(row.n);
    if (!(calibration.l2Bytes > 0.0) || weight <= calibration.l2Bytes)
        return row.bytes;
    const auto rereads = static_cast<double>(ceilDiv(row.m, tm) - 1);
    return row.bytes + weight * rereads * (1.0 - calibration.l2Bytes / weight);
}

// On the tile set: the least over the tiles of max(T_c, T_m) + κ·min(T_c, T_m), plus the floor.
double tileSetSeconds(const KernelFit &fit, const MeasuredRow &row, const Calibration &calibration)
{
    double least = std::numeric_limits<double>::infinity();
    for (const auto &[tm, tn] : kGemmTiles) {
        const double compute = tileWork(row, calibration, tm, tn, fit.operandCost)
            / (fit.computeFraction * calibration.peak);
        const double memory
            = tileBytes(row, calibration, tm) / (fit.memoryFraction * calibration.bandwidth);
        least = std::min(
            least, std::max(compute, memory) + fit.overlapLoss * std::min(compute, memory));
    }
    return least + fit.floorSeconds;
}

} // namespace

FitError errorSummary(std::vector<double> errors)
{
    FitError out;
    out.rows = errors.size();
    if (errors.empty())
        return out;
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    out.median = n % 2 == 1 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2.0;
    const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n)));
    out.p90 = errors[std::clamp<std::size_t>(rank, 1, n) - 1];
    return out;
}

ridgepoint::Expected<Calibration, std::string> calibrationRoofs(
    const Hardware &hardware, const CalibrateOptions &options)
{
    const ComputeCeiling *compute = hardware.computeFor(options.precision);
    if (!compute)
        compute = hardware.defaultComputeCeiling();
    const MemoryCeiling *memory = hardware.mainMemory();
    if (!compute || !memory)
        return ridgepoint::Unexpected(
            hardware.name + ": needs a compute ceiling and a main-memory (HBM or DRAM) ceiling");
    Calibration calibration;
    calibration.computeCeiling = compute->name;
    calibration.peak = compute->peak;
    calibration.memoryCeiling = memory->name;
    calibration.bandwidth = memory->bandwidth;
    // --sms, else the SMs or CUs the machine file gives (a CPU's cores do not fill in waves).
    const auto &units = hardware.limits.computeUnits;
    calibration.sms = options.sms > 0                           ? options.sms
        : units && (units->kind == "sm" || units->kind == "cu") ? units->count
                                                                : 0;
    calibration.tileM = options.tileM;
    calibration.tileN = options.tileN;
    // The chip's L2, which the tile set's weight re-reads may hit (§15.2).
    for (const MemoryCapacity &capacity : hardware.limits.capacities) {
        if (capacity.level == MemoryLevel::L2 && calibration.tileM == 0 && calibration.tileN == 0)
            calibration.l2Bytes = capacity.bytes;
    }
    return calibration;
}

double effectiveFlops(const MeasuredRow &row, const Calibration &calibration, double operandCost)
{
    const bool tileSet = onTileSet(calibration);
    if (row.kind != OperatorClass::Gemm || calibration.sms < 1 || row.m < 1 || row.n < 1
        || row.k < 1 || (!tileSet && (calibration.tileM < 1 || calibration.tileN < 1)))
        return row.flops;
    const auto work = [&](std::int64_t tm, std::int64_t tn) {
        return tileWork(row, calibration, tm, tn, operandCost);
    };
    if (!tileSet)
        return work(calibration.tileM, calibration.tileN);
    double least = work(kGemmTiles[0].first, kGemmTiles[0].second);
    for (const auto &[tm, tn] : kGemmTiles)
        least = std::min(least, work(tm, tn));
    return least;
}

double sustainedComputeFraction(const KernelFit &fit, const Calibration &calibration)
{
    if (fit.kind != OperatorClass::Gemm || !(fit.operandCost > 0.0))
        return fit.computeFraction;
    const auto intensity = [](double m, double n) { return m * n / (m + n); };
    double best = 0.0;
    if (onTileSet(calibration)) {
        for (const auto &[tm, tn] : kGemmTiles)
            best = std::max(best, intensity(static_cast<double>(tm), static_cast<double>(tn)));
    } else {
        best = intensity(
            static_cast<double>(calibration.tileM), static_cast<double>(calibration.tileN));
    }
    return best > 0.0 ? fit.computeFraction / (1.0 + fit.operandCost / best) : fit.computeFraction;
}

double kernelSeconds(const KernelFit &fit, const MeasuredRow &row, const Calibration &calibration)
{
    if (tiledGemm(row, calibration) && onTileSet(calibration))
        return tileSetSeconds(fit, row, calibration);
    const double compute = effectiveFlops(row, calibration, fit.operandCost)
        / (fit.computeFraction * calibration.peak);
    const double memory = row.bytes / (fit.memoryFraction * calibration.bandwidth);
    return std::max(compute, memory) + fit.floorSeconds;
}

ridgepoint::Expected<Calibration, std::string> calibrate(
    const std::vector<MeasuredRow> &rows, const Hardware &hardware, const CalibrateOptions &options)
{
    auto calibration = calibrationRoofs(hardware, options);
    if (!calibration)
        return calibration;
    std::map<std::string, std::vector<const MeasuredRow *>> byOperator;
    std::map<OperatorClass, std::vector<const MeasuredRow *>> byClass;
    std::vector<const MeasuredRow *> collectives;
    for (const MeasuredRow &row : rows) {
        if (std::find(calibration->files.begin(), calibration->files.end(), row.file)
            == calibration->files.end())
            calibration->files.push_back(row.file);
        // A time under the spec roofline's bound is a measurement (or a model of the work)
        // that is wrong: not fitted (docs/MODEL.md §15.2).
        if (!usable(row) || (!row.isCollective() && belowBound(row, *calibration))) {
            ++calibration->rowsLeftOut;
            continue;
        }
        ++calibration->rowsUsed;
        if (row.isCollective()) {
            collectives.push_back(&row);
            continue;
        }
        byOperator[std::string(operatorClassName(row.kind)) + ":" + row.op].push_back(&row);
        byClass[row.kind].push_back(&row);
    }
    for (const auto &[key, list] : byOperator) {
        if (list.size() < kMinRows)
            continue;
        auto fit = fitKernel(list, *calibration, list.front()->op);
        if (!fit)
            return ridgepoint::Unexpected(fit.error());
        calibration->operators.push_back(std::move(*fit));
    }
    for (const auto &[kind, list] : byClass) {
        if (list.size() < kMinRows)
            continue;
        auto fit = fitKernel(list, *calibration, std::string(operatorClassName(kind)));
        if (!fit)
            return ridgepoint::Unexpected(fit.error());
        calibration->classes.push_back(std::move(*fit));
    }
    auto fitted = fitCollectives(collectives);
    if (!fitted)
        return ridgepoint::Unexpected(fitted.error());
    calibration->collectives = std::move(*fitted);
    if (calibration->operators.empty() && calibration->classes.empty()
        && calibration->collectives.empty())
        return ridgepoint::Unexpected(std::string(
            "nothing to fit: every operator and collective needs at least 3 usable rows"));
    std::vector<double> errors;
    for (const MeasuredRow &row : rows) {
        if (!usable(row) || (!row.isCollective() && belowBound(row, *calibration)))
            continue;
        if (auto seconds = predictedSeconds(*calibration, row))
            errors.push_back(std::abs(*seconds / row.seconds - 1.0));
    }
    calibration->error = errorSummary(std::move(errors));
    return calibration;
}

const KernelFit *kernelFitFor(
    const Calibration &calibration, const MeasuredRow &row, std::string &why)
{
    // GEMMs are one family of library kernels whose differences are their shapes, which the
    // tiles and waves model: the class's fit carries over to new shapes better than one fitted
    // on a single operator's (docs/MODEL.md §15.2). Other operators are kernels of their own.
    const auto byClass = [&]() -> const KernelFit * {
        for (const KernelFit &fit : calibration.classes) {
            if (fit.kind == row.kind)
                return &fit;
        }
        return nullptr;
    };
    if (row.kind == OperatorClass::Gemm) {
        if (const KernelFit *fit = byClass())
            return fit;
    }
    for (const KernelFit &fit : calibration.operators) {
        if (fit.name == row.op && fit.kind == row.kind)
            return &fit;
    }
    if (const KernelFit *fit = byClass())
        return fit;
    why = "the calibration has no fit for operator \"" + row.op + "\" nor for its class ("
        + std::string(operatorClassName(row.kind)) + ")";
    return nullptr;
}

const CollectiveFit *collectiveFitFor(
    const Calibration &calibration, const MeasuredRow &row, std::string &why)
{
    for (const CollectiveFit &fit : calibration.collectives) {
        if (fit.collective == row.op && fit.ranks == row.ranks
            && fit.ranksPerNode == row.ranksPerNode)
            return &fit;
    }
    why = "the calibration has no " + row.op + " on " + std::to_string(row.ranks) + " ranks ("
        + std::to_string(row.ranksPerNode) + " per node)";
    return nullptr;
}

ridgepoint::Expected<double, std::string> predictedSeconds(
    const Calibration &calibration, const MeasuredRow &row)
{
    if (!row.excluded.empty())
        return ridgepoint::Unexpected(row.excluded);
    std::string why;
    if (row.isCollective()) {
        if (const CollectiveFit *fit = collectiveFitFor(calibration, row, why))
            return collectiveSeconds(*fit, row.messageBytes);
        return ridgepoint::Unexpected(why);
    }
    if (!(row.bytes > 0.0))
        return ridgepoint::Unexpected(std::string("no bytes to predict from"));
    if (const KernelFit *fit = kernelFitFor(calibration, row, why))
        return kernelSeconds(*fit, row, calibration);
    return ridgepoint::Unexpected(why);
}

} // namespace ridgepoint
