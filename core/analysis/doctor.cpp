#include "core/analysis/doctor.h"

#include "core/analysis/analysis.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>

namespace ridgepoint {
namespace {

// The thresholds of docs/MODEL.md §2.1, "The doctor".
constexpr double kFactorSlack = 0.15; // "≈ 2": within 15 % of the factor
constexpr double kBoostOverBase = 1.35; // the most a boost clock gives over base
constexpr double kFitSlack = 1e-6; // "fits under a roof": rounding only
constexpr double kGenericScore = 0.1;
// The launch latency's explanation of a point that is faster than its roofs too: after theirs.
constexpr double kLatencyAfterRoofsScore = 0.3;

// The fixed order that breaks ties between equal scores.
enum class Check { Sparse, Dies, LowerPrecision, TensorRoof, Fma, Cache, Clock, Latency, Generic };
// A point this far under its roof is "far under both roofs" (docs/MODEL.md §13).
constexpr double kFarUnder = 0.5;

struct Candidate {
    Check check;
    Diagnosis diagnosis;
};

std::string fixed(double value, int decimals)
{
    std::array<char, 64> buffer {};
    const auto [end, error] = std::to_chars(
        buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed, decimals);
    return error == std::errc() ? std::string(buffer.data(), end) : std::string("?");
}

std::string times(double ratio)
{
    return "×" + fixed(ratio, 2);
}

std::string percent(double fraction)
{
    return fixed(fraction * 100.0, 0) + " %";
}

std::string rate(double flops)
{
    return formatQuantity(flops, Dimension::FlopRate);
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// 1 when `ratio` is exactly `factor`, falling linearly to 0 at 15 % off; negative beyond.
double closeness(double ratio, double factor)
{
    return 1.0 - std::fabs(ratio / factor - 1.0) / kFactorSlack;
}

bool fitsUnder(double performance, double roof)
{
    return performance <= roof * (1.0 + kFitSlack);
}

// "die" or "dies" as a word in free text (not "studied").
bool mentionsDies(std::string_view text)
{
    const std::string low = lower(text);
    for (std::size_t at = low.find("die"); at != std::string::npos; at = low.find("die", at + 1)) {
        const bool startsWord = at == 0 || !std::isalpha(static_cast<unsigned char>(low[at - 1]));
        std::size_t end = at + 3;
        if (end < low.size() && low[end] == 's')
            ++end;
        const bool endsWord
            = end == low.size() || !std::isalpha(static_cast<unsigned char>(low[end]));
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

// What the checks look at, gathered once.
struct Facts {
    const KernelPoint &point;
    const Hardware &hardware;
    const PointAnalysis &analysis;
    double performance = 0.0;
    double ratio = 0.0; // performance / attainable, > 1
    const ComputeCeiling *compute = nullptr; // the point's compute ceiling
    const Provenance *limitProvenance = nullptr; // of the limiting ceiling
};

// The dense ceiling that the point fits best (highest utilisation) among those `accept` takes.
template<typename Accept> const ComputeCeiling *tightestFit(const Facts &facts, Accept accept)
{
    const ComputeCeiling *best = nullptr;
    for (const auto &ceiling : facts.hardware.compute) {
        if (!ceiling.visible || !accept(ceiling) || !fitsUnder(facts.performance, ceiling.peak))
            continue;
        if (!best || ceiling.peak < best->peak)
            best = &ceiling;
    }
    return best;
}

std::string fitsText(const Facts &facts, const ComputeCeiling &ceiling)
{
    return "fits " + ceiling.name + " (" + rate(ceiling.peak) + ") at "
        + percent(facts.performance / ceiling.peak);
}

std::string overRoof(const Facts &facts)
{
    return times(facts.ratio) + " the " + facts.analysis.limitingCeiling + " roof ("
        + rate(facts.performance) + " against " + rate(facts.analysis.attainable) + ")";
}

std::string computeFlag(const ComputeCeiling &ceiling)
{
    return "--compute '" + ceiling.name + "'";
}

bool computeBound(const Facts &facts)
{
    return facts.analysis.bound == Bound::Compute && facts.compute != nullptr;
}

void checkSparse(const Facts &facts, std::vector<Candidate> &out)
{
    if (!computeBound(facts) || facts.compute->sparse)
        return;
    const Precision precision = facts.compute->precision;
    const ComputeCeiling *sparse = nullptr;
    for (const auto &ceiling : facts.hardware.compute) {
        if (ceiling.sparse && ceiling.precision == precision
            && closeness(ceiling.peak / facts.compute->peak, 2.0) >= 0.0
            && fitsUnder(facts.performance, ceiling.peak)
            && (!sparse || ceiling.peak < sparse->peak))
            sparse = &ceiling;
    }
    if (!sparse)
        return;
    const double use = facts.performance / sparse->peak;
    out.push_back({ Check::Sparse,
        { "the 2:4-sparse peak applies",
            overRoof(facts) + "; " + fitsText(facts, *sparse) + ", the "
                + std::string(precisionName(precision)) + " 2:4-sparse ceiling at "
                + times(sparse->peak / facts.compute->peak) + " the dense one",
            "if the kernel runs 2:4 structured-sparse instructions, choose the sparse roof: "
                + computeFlag(*sparse),
            0.55 + 0.45 * use } });
}

void checkDies(const Facts &facts, std::vector<Candidate> &out)
{
    const double near = closeness(facts.ratio, 2.0);
    if (near < 0.0 || !facts.limitProvenance)
        return;
    const bool scoped = lower(facts.limitProvenance->scope) == "die";
    const bool noted
        = mentionsDies(facts.limitProvenance->notes) || mentionsDies(facts.hardware.notes);
    if (!scoped && !noted)
        return;
    const std::string why = scoped ? "its figure is for one die (provenance scope \"die\")"
                                   : "the machine's notes speak of dies";
    out.push_back({ Check::Dies,
        { "two dies counted against one", overRoof(facts) + " ≈ ×2; " + why,
            "if the kernel ran on both dies, use the package figure (2 × "
                + facts.analysis.limitingCeiling + ") or restrict the run to one die",
            (scoped ? 0.5 : 0.4) + 0.45 * near } });
}

void checkLowerPrecision(const Facts &facts, std::vector<Candidate> &out)
{
    if (!computeBound(facts) || !facts.point.precision)
        return;
    const ComputeCeiling &own = *facts.compute;
    const ComputeCeiling *fit = tightestFit(facts, [&](const ComputeCeiling &ceiling) {
        const double step = ceiling.peak / own.peak;
        return !ceiling.sparse && ceiling.precision != own.precision
            && (closeness(step, 2.0) >= 0.0 || closeness(step, 4.0) >= 0.0);
    });
    if (!fit)
        return;
    const double use = facts.performance / fit->peak;
    out.push_back({ Check::LowerPrecision,
        { std::string(precisionName(fit->precision)) + " work counted as "
                + std::string(precisionName(own.precision)),
            overRoof(facts) + "; " + fitsText(facts, *fit) + ", " + times(fit->peak / own.peak)
                + " the " + own.name + " roof",
            "check the precision the kernel computes in; choose the " + fit->name
                + " roof: " + computeFlag(*fit),
            0.5 + 0.45 * use } });
}

void checkTensorRoof(const Facts &facts, std::vector<Candidate> &out)
{
    if (!computeBound(facts) || facts.point.precision || isMatrixUnit(*facts.compute))
        return;
    const ComputeCeiling *fit = tightestFit(facts,
        [](const ComputeCeiling &ceiling) { return !ceiling.sparse && isMatrixUnit(ceiling); });
    if (!fit)
        return;
    const double use = facts.performance / fit->peak;
    out.push_back({ Check::TensorRoof,
        { "tensor work measured against the " + facts.compute->name + " roof",
            overRoof(facts) + "; the point has no precision; " + fitsText(facts, *fit),
            "give the point its precision, or choose the " + fit->name
                + " roof: " + computeFlag(*fit)
                + "; check tensor-pipe instructions are counted (ncu: "
                  "sm__inst_executed_pipe_tensor)",
            0.5 + 0.45 * use } });
}

void checkFma(const Facts &facts, std::vector<Candidate> &out)
{
    const double near = closeness(facts.ratio, 2.0);
    if (!computeBound(facts) || near < 0.0)
        return;
    out.push_back({ Check::Fma,
        { "FLOPs counted twice", overRoof(facts) + " ≈ ×2, the FMA factor",
            "count each FMA as 2 FLOPs, as the peak does, and only once (ncu: "
            "sm__sass_thread_inst_executed_op_ffma_pred_on × 2 + fadd + fmul)",
            0.5 + 0.4 * near } });
}

void checkCache(const Facts &facts, std::vector<Candidate> &out)
{
    const PointAnalysis &a = facts.analysis;
    if (a.bound != Bound::Memory)
        return;
    const auto main = std::find_if(a.levels.begin(), a.levels.end(), [&](const LevelAnalysis &l) {
        return l.memory == a.limitingCeiling && isMainMemory(l.level);
    });
    if (main == a.levels.end())
        return;
    const MemoryCeiling *fit = nullptr;
    double fitRoof = 0.0;
    for (const auto &ceiling : facts.hardware.memory) {
        const bool cache = ceiling.level == MemoryLevel::L1 || ceiling.level == MemoryLevel::L2
            || ceiling.level == MemoryLevel::L3;
        const bool counted = std::any_of(a.levels.begin(), a.levels.end(),
            [&](const LevelAnalysis &l) { return l.level == ceiling.level; });
        if (!ceiling.visible || !cache || counted)
            continue;
        const double roof = attainablePerformance(a.peak, ceiling.bandwidth, main->intensity);
        if (fitsUnder(facts.performance, roof) && (!fit || roof < fitRoof)) {
            fit = &ceiling;
            fitRoof = roof;
        }
    }
    if (!fit)
        return;
    const std::string level(memoryLevelName(fit->level));
    const double use = facts.performance / fitRoof;
    out.push_back({ Check::Cache,
        { level + " bytes taken for " + std::string(memoryLevelName(main->level)) + " bytes",
            overRoof(facts) + "; at " + formatSignificant(main->intensity, 4) + " FLOP/B the "
                + fit->name + " roof is " + rate(fitRoof) + ": fits it at " + percent(use),
            "count main-memory traffic (ncu: dram__bytes_read.sum + dram__bytes_write.sum), or "
            "give these bytes at the "
                + level + " level (bytes_" + lower(level) + ")",
            0.45 + 0.45 * use } });
}

void checkClock(const Facts &facts, std::vector<Candidate> &out)
{
    const Provenance *p = facts.limitProvenance;
    if (!p || facts.ratio > kBoostOverBase)
        return;
    const std::string clock = lower(p->clock);
    if (clock != "base" && (!p->clockMHz || clock == "boost"))
        return;
    std::string basis = clock.empty() ? std::string("a stated clock") : "the " + clock + " clock";
    std::string needed;
    if (p->clockMHz) {
        basis += " (" + fixed(*p->clockMHz, 0) + " MHz)";
        needed = ", as if it ran at ≈ " + fixed(*p->clockMHz * facts.ratio, 0) + " MHz";
    }
    out.push_back({ Check::Clock,
        { "a clock above the roof's basis",
            overRoof(facts) + "; the " + facts.analysis.limitingCeiling + " figure assumes " + basis
                + needed + ", within the " + times(kBoostOverBase)
                + " a boost clock gives over base",
            "pin the clock to the roof's (nvidia-smi --lock-gpu-clocks) or use the boost roof",
            0.35 + 0.3 * (1.0 - (facts.ratio - 1.0) / (kBoostOverBase - 1.0)) } });
}

// Faster than the launch latency: the latency floor set the roof (docs/MODEL.md §13).
void checkLatency(const Facts &facts, std::vector<Candidate> &out)
{
    const auto &launch = facts.hardware.limits.launchLatency;
    if (facts.analysis.bound != Bound::Latency || !launch || !facts.point.seconds)
        return;
    double roofs = facts.analysis.tMath; // T_min without the latency floor
    for (const auto &level : facts.analysis.levels)
        roofs = std::max(roofs, level.tMem);
    // Two floors go by this name: a host's time per launch, longer than any profiler's kernel
    // time, and (the presets') the device time of the shortest kernels measured on the GPU.
    out.push_back({ Check::Latency,
        { "a time under the launch latency",
            "measured " + formatQuantity(*facts.point.seconds, Dimension::Time)
                + " is below the machine's launch latency of "
                + formatQuantity(launch->seconds, Dimension::Time)
                + "; both roofs alone would allow " + formatQuantity(roofs, Dimension::Time),
            "if the floor is a host's time per launch, a profiler's kernel time leaves the "
            "launch out: compare with the time per launch of a stream of launches; if it is a "
            "device floor (the presets'), the kernel ran shorter than any measured there: "
            "check its time and counts",
            0.6 } });
}

void addGeneric(const Facts &facts, std::vector<Candidate> &out)
{
    out.push_back({ Check::Generic,
        { "counts or peaks are off",
            overRoof(facts)
                + "; no sparse, lower-precision, tensor or cache roof, factor of 2 "
                  "or clock basis explains it alone",
            "compare the FLOP and byte counts with the profiler's metrics and the peaks with "
            "the datasheet",
            kGenericScore } });
}

const Provenance *limitingProvenance(const Hardware &hardware, const PointAnalysis &a)
{
    if (a.bound == Bound::Compute) {
        const ComputeCeiling *c = hardware.findCompute(a.limitingCeiling);
        return c ? &c->provenance : nullptr;
    }
    if (a.bound == Bound::Latency)
        return hardware.limits.launchLatency ? &hardware.limits.launchLatency->provenance : nullptr;
    const MemoryCeiling *m = hardware.findMemory(a.limitingCeiling);
    return m ? &m->provenance : nullptr;
}

// A latency-bound point as the two roofs alone place it: its bound, limiting ceiling, T_min and
// attainable without the launch latency, found as analysis.cpp finds them (a level binds when
// its time is longer than every earlier term).
PointAnalysis withoutTheFloor(const KernelPoint &point, const PointAnalysis &a)
{
    PointAnalysis roofs = a;
    roofs.tMin = a.tMath;
    roofs.bound = Bound::Compute;
    roofs.limitingCeiling = a.computeCeiling;
    for (const auto &level : a.levels) {
        if (level.tMem > roofs.tMin) {
            roofs.tMin = level.tMem;
            roofs.bound = Bound::Memory;
            roofs.limitingCeiling = level.memory;
        }
    }
    roofs.attainable = point.flops / roofs.tMin;
    return roofs;
}

// Under its roofs' time as well as under the launch latency: the roofs are the stronger
// evidence, so the point is diagnosed as without the floor, and the floor's explanation comes
// after theirs, before the generic one.
std::vector<Diagnosis> diagnoseUnderBoth(
    const KernelPoint &point, const Hardware &hardware, const PointAnalysis &analysis)
{
    std::vector<Diagnosis> out = diagnose(point, hardware, withoutTheFloor(point, analysis));
    Facts facts { point, hardware, analysis };
    facts.performance = *analysis.performance;
    facts.ratio = facts.performance / analysis.attainable;
    std::vector<Candidate> latency;
    checkLatency(facts, latency);
    if (!latency.empty()) {
        latency.front().diagnosis.score = kLatencyAfterRoofsScore;
        out.insert(
            out.empty() ? out.end() : std::prev(out.end()), std::move(latency.front().diagnosis));
    }
    return out;
}

} // namespace

std::vector<Diagnosis> diagnose(
    const KernelPoint &point, const Hardware &hardware, const PointAnalysis &analysis)
{
    if (!analysis.performance || !(analysis.attainable > 0.0)
        || !(*analysis.performance > analysis.attainable) || !std::isfinite(*analysis.performance))
        return {};
    if (analysis.bound == Bound::Latency && analysis.tMin > 0.0
        && *analysis.performance > point.flops / withoutTheFloor(point, analysis).tMin)
        return diagnoseUnderBoth(point, hardware, analysis);
    Facts facts { point, hardware, analysis };
    facts.performance = *analysis.performance;
    facts.ratio = facts.performance / analysis.attainable;
    facts.compute = hardware.findCompute(analysis.computeCeiling);
    facts.limitProvenance = limitingProvenance(hardware, analysis);

    std::vector<Candidate> candidates;
    checkSparse(facts, candidates);
    checkDies(facts, candidates);
    checkLowerPrecision(facts, candidates);
    checkTensorRoof(facts, candidates);
    checkFma(facts, candidates);
    checkCache(facts, candidates);
    checkClock(facts, candidates);
    checkLatency(facts, candidates);
    addGeneric(facts, candidates);
    std::stable_sort(
        candidates.begin(), candidates.end(), [](const Candidate &x, const Candidate &y) {
            if (x.diagnosis.score != y.diagnosis.score)
                return x.diagnosis.score > y.diagnosis.score;
            return x.check < y.check;
        });
    std::vector<Diagnosis> out;
    out.reserve(candidates.size());
    for (auto &candidate : candidates)
        out.push_back(std::move(candidate.diagnosis));
    return out;
}

std::optional<Diagnosis> diagnoseFewBytesInFlight(
    const KernelPoint &point, const Hardware &hardware, const PointAnalysis &analysis)
{
    if (!point.seconds || !analysis.consistent || !analysis.utilization
        || !(*analysis.utilization < kFarUnder))
        return std::nullopt;
    const LevelAnalysis *starved = nullptr;
    const LatencyFigure *starvedLatency = nullptr;
    double worst = 1.0; // β·λ / B: how many times the kernel's bytes fit in the pipe
    for (const auto &level : analysis.levels) {
        const auto latency = std::find_if(hardware.limits.levelLatencies.begin(),
            hardware.limits.levelLatencies.end(),
            [&](const LatencyFigure &l) { return l.level == level.level; });
        if (latency == hardware.limits.levelLatencies.end() || !(level.bytes > 0.0))
            continue;
        const double ratio = level.bandwidth * latency->seconds / level.bytes;
        if (ratio > worst) {
            worst = ratio;
            starved = &level;
            starvedLatency = &*latency;
        }
    }
    if (!starved)
        return std::nullopt;
    const double lambda = starvedLatency->seconds;
    const double inPipe = starved->bandwidth * lambda;
    const std::string name(memoryLevelName(starved->level));
    Diagnosis d;
    d.cause = "few bytes in flight for " + name + "'s latency";
    d.evidence = "all its " + formatQuantity(starved->bytes, Dimension::Bytes)
        + " are fewer than the " + formatQuantity(inPipe, Dimension::Bytes)
        + " Little's law needs in flight to reach " + starved->memory + " ("
        + formatQuantity(starved->bandwidth, Dimension::ByteRate) + " × "
        + formatQuantity(lambda, Dimension::Time) + " latency), so one round trip moves at most "
        + formatQuantity(starved->bytes / lambda, Dimension::ByteRate) + ", "
        + percent(starved->bytes / inPipe) + " of the roof's bandwidth";
    d.fix = "give each launch more independent work (batch or fuse kernels) so more bytes are in "
            "flight, or count this kernel's time as latency, not bandwidth";
    d.score = std::min(1.0, 0.5 + 0.1 * std::log10(worst));
    return d;
}

std::string diagnosisVerdict(const Diagnosis &diagnosis)
{
    return diagnosis.score <= kGenericScore ? diagnosis.cause : diagnosis.cause + "?";
}

std::string overshootText(const PointAnalysis &analysis)
{
    if (!analysis.performance || !(analysis.attainable > 0.0))
        return {};
    return times(*analysis.performance / analysis.attainable);
}

} // namespace ridgepoint
