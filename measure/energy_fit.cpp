// Choi, Bedard, Fowler and Vuduc's energy model (IPDPS 2013) fitted to the energy a measurement
// read around its timed runs (docs/MEASURE.md, "Energy"): every run's joules are
// E = Σ F·e_flop(precision) + Σ B·e_byte(level) + P0·T, one unknown per precision and level the
// runs used plus the static power P0, solved by non-negative least squares.
#include "measure/measure.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ridgepoint {
namespace {

// One unknown of the fit: the energy of a FLOP of a precision or a byte at a level, or P0.
struct Unknown {
    bool flop = true;
    Precision precision = Precision::FP64;
    MemoryLevel level = MemoryLevel::DRAM;
    bool operator==(const Unknown &) const = default;
};

struct System {
    std::vector<Unknown> unknowns; // the energies; P0 is the last column, not listed here
    std::vector<std::vector<double>> rows; // per run: work per unknown, then seconds
    std::vector<double> joules;
};

// The level the plateau of a memory run's kernel, team and working set names; none between
// plateaus.
std::optional<MemoryLevel> levelOf(const Measurement &m, const EnergySample &s)
{
    for (const auto &p : m.plateaus) {
        if (p.kernel == s.kernel && p.threads == s.threads
            && s.workingSet >= p.plateau.firstWorkingSet
            && s.workingSet <= p.plateau.lastWorkingSet)
            return p.plateau.level;
    }
    return std::nullopt;
}

System systemOf(const Measurement &m)
{
    System system;
    std::vector<std::pair<std::size_t, double>> work; // per run: its unknown and work
    for (const auto &s : m.energy.samples) {
        Unknown unknown { s.compute, s.precision, MemoryLevel::DRAM };
        if (!s.compute) {
            const auto level = levelOf(m, s);
            if (!level)
                continue;
            unknown.level = *level;
        }
        if (!(s.seconds > 0.0) || !(s.work > 0.0) || !std::isfinite(s.joules))
            continue;
        auto it = std::find(system.unknowns.begin(), system.unknowns.end(), unknown);
        if (it == system.unknowns.end())
            it = system.unknowns.insert(system.unknowns.end(), unknown);
        work.emplace_back(static_cast<std::size_t>(it - system.unknowns.begin()), s.work);
        system.rows.push_back({ s.seconds });
        system.joules.push_back(s.joules);
    }
    for (std::size_t r = 0; r < system.rows.size(); ++r) {
        std::vector<double> row(system.unknowns.size() + 1, 0.0);
        row[work[r].first] = work[r].second;
        row.back() = system.rows[r].front();
        system.rows[r] = std::move(row);
    }
    return system;
}

// Least squares over the columns `used` (each scaled to unit root mean square first, so FLOPs,
// bytes and seconds meet as equals), by Cholesky on the normal equations. Empty when the used
// columns cannot be told apart.
std::vector<double> leastSquares(const System &s, const std::vector<std::size_t> &used)
{
    const std::size_t k = used.size();
    std::vector<double> scale(k, 0.0);
    for (std::size_t j = 0; j < k; ++j) {
        for (const auto &row : s.rows)
            scale[j] += row[used[j]] * row[used[j]];
        scale[j] = std::sqrt(scale[j] / static_cast<double>(s.rows.size()));
        if (!(scale[j] > 0.0))
            return {};
    }
    std::vector<double> a(k * k, 0.0);
    std::vector<double> b(k, 0.0);
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        for (std::size_t i = 0; i < k; ++i) {
            const double xi = s.rows[r][used[i]] / scale[i];
            b[i] += xi * s.joules[r];
            for (std::size_t j = 0; j < k; ++j)
                a[i * k + j] += xi * s.rows[r][used[j]] / scale[j];
        }
    }
    // a = L·Lᵀ in place; a pivot far below the diagonal's size means two columns say the same.
    const double largest = *std::max_element(a.begin(), a.end());
    for (std::size_t j = 0; j < k; ++j) {
        double d = a[j * k + j];
        for (std::size_t p = 0; p < j; ++p)
            d -= a[j * k + p] * a[j * k + p];
        if (!(d > 1e-9 * largest))
            return {};
        a[j * k + j] = std::sqrt(d);
        for (std::size_t i = j + 1; i < k; ++i) {
            double v = a[i * k + j];
            for (std::size_t p = 0; p < j; ++p)
                v -= a[i * k + p] * a[j * k + p];
            a[i * k + j] = v / a[j * k + j];
        }
    }
    std::vector<double> x(b);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t p = 0; p < i; ++p)
            x[i] -= a[i * k + p] * x[p];
        x[i] /= a[i * k + i];
    }
    for (std::size_t i = k; i-- > 0;) {
        for (std::size_t p = i + 1; p < k; ++p)
            x[i] -= a[p * k + i] * x[p];
        x[i] /= a[i * k + i];
    }
    for (std::size_t j = 0; j < k; ++j)
        x[j] /= scale[j];
    return x;
}

// The energy the model predicts for run r.
double predicted(const System &s, std::size_t r, const std::vector<double> &coefficients)
{
    return std::inner_product(s.rows[r].begin(), s.rows[r].end(), coefficients.begin(), 0.0);
}

double residualSquares(const System &s, const std::vector<double> &coefficients)
{
    double sum = 0.0;
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        const double error = predicted(s, r, coefficients) - s.joules[r];
        sum += error * error;
    }
    return sum;
}

// Non-negative least squares: of every subset of the energies (P0 always in), the solution with
// no negative figure and the least residual is the constrained optimum; an energy left out is
// 0. At most 7 energies (2 precisions, 5 levels): 128 small solves.
std::optional<std::vector<double>> nonNegativeFit(const System &s)
{
    const std::size_t n = s.unknowns.size();
    std::optional<std::vector<double>> best;
    double bestResidual = 0.0;
    for (std::size_t mask = 0; mask < (std::size_t { 1 } << n); ++mask) {
        std::vector<std::size_t> used;
        for (std::size_t j = 0; j < n; ++j) {
            if (mask & (std::size_t { 1 } << j))
                used.push_back(j);
        }
        used.push_back(n);
        const auto x = leastSquares(s, used);
        if (x.empty() || std::any_of(x.begin(), x.end(), [](double v) { return v < 0.0; }))
            continue;
        std::vector<double> full(n + 1, 0.0);
        for (std::size_t j = 0; j < used.size(); ++j)
            full[used[j]] = x[j];
        const double residual = residualSquares(s, full);
        if (!best || residual < bestResidual) {
            best = std::move(full);
            bestResidual = residual;
        }
    }
    return best;
}

std::string unknownText(const Unknown &u)
{
    return u.flop ? std::string(precisionName(u.precision)) + " FLOP"
                  : std::string(memoryLevelName(u.level)) + " byte";
}

// The median of |predicted − measured| / measured over the runs.
double medianRelativeError(const System &s, const std::vector<double> &coefficients)
{
    std::vector<double> errors;
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        if (s.joules[r] > 0.0)
            errors.push_back(std::abs(predicted(s, r, coefficients) - s.joules[r]) / s.joules[r]);
    }
    if (errors.empty())
        return 0.0;
    std::sort(errors.begin(), errors.end());
    return errors[errors.size() / 2];
}

EnergyModel modelOf(const Measurement &m, const System &s, const std::vector<double> &x)
{
    EnergyModel model;
    model.staticWatts = x.back();
    if (m.energy.powerLimitWatts && *m.energy.powerLimitWatts > x.back())
        model.powerCapWatts = m.energy.powerLimitWatts;
    std::string omitted;
    for (std::size_t j = 0; j < s.unknowns.size(); ++j) {
        const Unknown &u = s.unknowns[j];
        if (!(x[j] > 0.0)) {
            omitted += (omitted.empty() ? "" : ", ") + unknownText(u);
        } else if (u.flop) {
            model.perFlop.emplace_back(u.precision, x[j]);
        } else {
            model.perByte.emplace_back(u.level, x[j]);
        }
    }
    Provenance &p = model.provenance;
    p.basis = Basis::Measured;
    p.tool = m.tool.empty() ? std::string("ridgepoint measure") : m.tool;
    p.date = m.date;
    p.host = m.host;
    p.source = m.energy.counters;
    p.formula = "E = F·e_flop + B·e_byte + P0·T (Choi et al., IPDPS 2013), non-negative least "
                "squares over "
        + std::to_string(s.rows.size()) + " runs; median error "
        + formatSignificant(100.0 * medianRelativeError(s, x), 2) + " %";
    if (!omitted.empty())
        p.notes = "fitted to 0, so left out: " + omitted;
    if (model.powerCapWatts)
        p.notes += std::string(p.notes.empty() ? "" : "; ")
            + "power cap: the packages' long-term RAPL limit";
    return model;
}

} // namespace

Expected<EnergyModel, std::string> fitEnergyModel(const Measurement &m)
{
    if (!m.energy.unavailable.empty())
        return Unexpected(m.energy.unavailable);
    if (m.energy.samples.empty())
        return Unexpected(std::string("no run was timed with the energy counters"));
    if (std::all_of(m.energy.samples.begin(), m.energy.samples.end(),
            [](const EnergySample &s) { return !(s.joules > 0.0); }))
        return Unexpected(std::string("the RAPL counters did not advance during the runs (a "
                                      "virtual machine may show them frozen): no energy figures"));
    const System s = systemOf(m);
    if (s.rows.size() < s.unknowns.size() + 2)
        return Unexpected("too few runs for an energy fit: " + std::to_string(s.rows.size())
            + " for " + std::to_string(s.unknowns.size() + 1) + " figures");
    std::vector<std::size_t> all(s.unknowns.size() + 1);
    std::iota(all.begin(), all.end(), std::size_t { 0 });
    // With every figure in, the runs must tell them apart: else a fit that leaves one out would
    // give its energy to P0 and look fine.
    const auto x = leastSquares(s, all).empty() ? std::nullopt : nonNegativeFit(s);
    if (!x || !(x->back() > 0.0))
        return Unexpected(std::string("the runs cannot tell the static power from the energy per "
                                      "FLOP and per byte (each kind ran at one rate only)"));
    EnergyModel model = modelOf(m, s, *x);
    MachineLimits limits;
    limits.energy = model;
    if (const auto problems = validateLimits(limits); !problems.empty())
        return Unexpected("the energy fit gives figures out of range: " + problems.front());
    return model;
}

} // namespace ridgepoint
