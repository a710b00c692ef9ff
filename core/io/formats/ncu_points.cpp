// Nsight Compute points: a launch's metrics -> FLOPs per precision, bytes per level and time
// (docs/FORMATS.md §1.9, §1.10), or a section's achieved values -> points known by intensity
// and rate.
#include "core/io/formats/ncu_numbers.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/ncu_table.h"
#include "core/io/text.h"

#include <algorithm>
#include <array>
#include <map>
#include <span>

namespace ridgepoint {
namespace {

using namespace ncu;

std::optional<Precision> precisionOfTensorPath(const std::string &metric)
{
    // sm__ops_path_tensor_src_<type>_dst_<type>.sum: the source type is the math precision.
    const auto src = metric.find("_src_");
    if (src == std::string::npos)
        return std::nullopt;
    const std::string rest = metric.substr(src + 5);
    const std::string type = rest.substr(0, rest.find('_'));
    if (type == "bf16")
        return Precision::BF16;
    if (type == "fp16")
        return Precision::FP16;
    if (type == "tf32")
        return Precision::TF32;
    if (type == "fp64")
        return Precision::FP64;
    if (type == "fp8" || type == "e4m3" || type == "e5m2")
        return Precision::FP8;
    if (type == "int8" || type == "s8" || type == "u8")
        return Precision::INT8;
    if (type == "int4" || type == "s4" || type == "u4")
        return Precision::INT4;
    return std::nullopt;
}

struct Family {
    char letter; // d, f, h
    Precision precision;
};
constexpr std::array<Family, 3> kFamilies { { { 'd', Precision::FP64 }, { 'f', Precision::FP32 },
    { 'h', Precision::FP16 } } };

// The kernel's time in seconds, and the metric it came from (for the spread of a summary).
struct Duration {
    std::optional<double> seconds;
    std::string metric;
};

Duration durationOf(const Metrics &m, MetricReader &reader)
{
    for (const char *name : { "gpu__time_duration.sum", "gpu__time_duration.avg", "Duration" }) {
        if (auto v = reader.value(m, name); v && *v > 0.0)
            return { v, name };
    }
    auto cycles = reader.value(m, "sm__cycles_elapsed.avg");
    auto rate = reader.value(m, "sm__cycles_elapsed.avg.per_second");
    if (cycles && rate && *cycles > 0.0 && *rate > 0.0)
        return { *cycles / *rate, {} };
    return {};
}

// Method 1 (docs/FORMATS.md §1.9, NERSC's): FLOPs per precision as 2·fma + add + mul over the
// SASS thread-instruction counters, plus tensor work (the ops-path metrics count operations;
// else pipe instructions × factor), the tensor part also in `tensor`. False when the launch has
// none of these counters.
bool countedFlops(const Metrics &m, MetricReader &reader, const NcuOptions &options,
    std::map<Precision, double> &perPrecision, std::map<Precision, double> &tensor)
{
    bool anyCounter = false;
    for (const Family family : kFamilies) {
        const double fmaWeight = family.letter == 'h' ? options.halfFlopsPerFma : 2.0;
        double flops = 0.0;
        bool found = false;
        for (const auto &[op, weight] : { std::pair<std::string, double> { "add", 1.0 },
                 std::pair<std::string, double> { "mul", 1.0 },
                 std::pair<std::string, double> { "fma", fmaWeight } }) {
            if (auto v = reader.first(m,
                    { sassMetric("sm__", family.letter, op),
                        sassMetric("smsp__", family.letter, op) })) {
                flops += weight * *v;
                found = true;
            }
        }
        if (found) {
            anyCounter = true;
            perPrecision[family.precision] += flops;
        }
    }
    bool opsPath = false;
    for (const auto &[name, raw] : m) {
        if (!name.starts_with("sm__ops_path_tensor_") || !name.ends_with(".sum"))
            continue;
        if (auto v = reader.value(m, name)) {
            opsPath = true;
            anyCounter = true;
            if (*v > 0.0) {
                const Precision precision = precisionOfTensorPath(name).value_or(Precision::FP16);
                perPrecision[precision] += *v;
                tensor[precision] += *v;
            }
        }
    }
    if (!opsPath) {
        if (auto v = reader.value(m, "sm__inst_executed_pipe_tensor.sum")) {
            anyCounter = true;
            if (*v > 0.0) {
                perPrecision[Precision::FP16] += *v * options.tensorFlopsPerInstruction;
                tensor[Precision::FP16] += *v * options.tensorFlopsPerInstruction;
            }
        }
    }
    return anyCounter;
}

// Method 2 (ncu's roofline metrics, rates): (add + mul + 2·fma) per cycle elapsed × SM cycles
// per second gives FLOP/s, per precision; empty when the launch has none.
std::map<Precision, double> flopRates(
    const Metrics &m, MetricReader &reader, const NcuOptions &options)
{
    std::map<Precision, double> ratePerPrecision;
    const auto get = [&](const std::string &name) { return reader.value(m, name); };
    const auto smRate = reader.first(
        m, { "smsp__cycles_elapsed.avg.per_second", "sm__cycles_elapsed.avg.per_second" });
    for (const Family family : kFamilies) {
        const std::string letter(1, family.letter);
        const double fmaWeight = family.letter == 'h' ? options.halfFlopsPerFma : 2.0;
        const auto perCycle = [&](const std::string &op) {
            return get(sassMetric("smsp__", family.letter, op) + ".per_cycle_elapsed");
        };
        std::optional<double> fma
            = get("derived__smsp__sass_thread_inst_executed_op_" + letter + "fma_pred_on_x2");
        if (!fma && family.letter == 'h')
            fma = get("derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4");
        if (!fma) {
            if (auto v = perCycle("fma"))
                fma = fmaWeight * *v;
        }
        const auto add = perCycle("add");
        const auto mul = perCycle("mul");
        if ((!fma && !add && !mul) || !smRate)
            continue;
        ratePerPrecision[family.precision]
            = (fma.value_or(0.0) + add.value_or(0.0) + mul.value_or(0.0)) * *smRate;
    }
    return ratePerPrecision;
}

// Bytes at main memory (ncu's "dram" is HBM on data-centre parts), L2 and L1; from their rates
// × the time when the launch has no totals (method 2), the DRAM rate kept for a point known by
// intensity.
struct Traffic {
    std::optional<double> dram;
    std::optional<double> l2;
    std::optional<double> l1;
    std::optional<double> dramRate;
};

Traffic trafficOf(const Metrics &m, MetricReader &reader, const Duration &duration)
{
    const auto get = [&](const std::string &name) { return reader.value(m, name); };
    const auto sum = [&](const std::string &a, const std::string &b) -> std::optional<double> {
        auto x = get(a);
        auto y = get(b);
        if (!x && !y)
            return std::nullopt;
        return x.value_or(0.0) + y.value_or(0.0);
    };
    const auto sectors = [&](const std::string &name) -> std::optional<double> {
        auto v = get(name);
        return v ? std::optional<double>(*v * 32.0) : std::nullopt;
    };
    Traffic t;
    t.dram = get("dram__bytes.sum");
    if (!t.dram)
        t.dram = sum("dram__bytes_read.sum", "dram__bytes_write.sum");
    if (!t.dram)
        t.dram = sum("dram__bytes_op_read.sum", "dram__bytes_op_write.sum");
    t.l2 = get("lts__t_bytes.sum");
    if (!t.l2)
        t.l2 = sectors("lts__t_sectors.sum");
    t.l1 = get("l1tex__t_bytes.sum");
    if (!t.l1)
        t.l1 = sectors("l1tex__t_sectors.sum");
    if (t.dram || t.l2 || t.l1)
        return t;
    t.dramRate = reader.first(m, { "dram__bytes.sum.per_second" });
    if (!t.dramRate)
        t.dramRate = sum("dram__bytes_read.sum.per_second", "dram__bytes_write.sum.per_second");
    const auto l2Rate = reader.first(
        m, { "lts__t_bytes.sum.per_second", "l1tex__m_xbar2l1tex_read_bytes.sum.per_second" });
    const auto l1Rate = reader.first(m,
        { "l1tex__t_bytes.sum.per_second",
            "derived__l1tex__lsu_writeback_bytes_mem_lg.sum.per_second",
            "derived__l1tex__lsu_writeback_bytes.sum.per_second" });
    if (duration.seconds) {
        const auto times = [&](std::optional<double> rate) -> std::optional<double> {
            return rate ? std::optional<double>(*rate * *duration.seconds) : std::nullopt;
        };
        t.dram = times(t.dramRate);
        t.l2 = times(l2Rate);
        t.l1 = times(l1Rate);
    }
    return t;
}

// The precision with the most FLOPs becomes the point's; `best` is that count.
void addFlops(KernelPoint &point, const std::map<Precision, double> &perPrecision, double &best)
{
    for (const auto &[precision, flops] : perPrecision) {
        point.flops += flops;
        if (flops > best) {
            best = flops;
            point.precision = precision;
        }
    }
}

// One launch's metrics -> one hierarchical point (or nullopt, said why).
std::optional<KernelPoint> pointOfLaunch(
    const Launch &launch, MetricReader &reader, const NcuOptions &options, bool &noFlopCounters)
{
    const auto &m = launch.metrics;
    KernelPoint point;
    point.name = launch.kernel;
    point.source = { reader.fileName, launch.line };
    const Duration duration = durationOf(m, reader);

    std::map<Precision, double> perPrecision;
    std::map<Precision, double> tensor; // the part counted on the tensor pipes
    std::map<Precision, double> ratePerPrecision;
    bool anyCounter = countedFlops(m, reader, options, perPrecision, tensor);
    if (!anyCounter) {
        ratePerPrecision = flopRates(m, reader, options);
        anyCounter = !ratePerPrecision.empty();
        if (duration.seconds) {
            for (const auto &[precision, rate] : ratePerPrecision)
                perPrecision[precision] += rate * *duration.seconds;
        }
    }
    double best = 0.0;
    addFlops(point, perPrecision, best);
    noFlopCounters = !anyCounter;
    // The units of the point's precision: tensor when most of its FLOPs came from the tensor
    // pipes, else CUDA cores (the SASS counters and the roofline rates count those).
    if (point.precision && best > 0.0)
        point.unit
            = tensor[*point.precision] > best / 2.0 ? ComputeUnit::Tensor : ComputeUnit::Core;

    const Traffic traffic = trafficOf(m, reader, duration);
    if (traffic.dram && *traffic.dram > 0.0)
        point.bytes.push_back({ std::nullopt, *traffic.dram });
    if (traffic.l2 && *traffic.l2 > 0.0)
        point.bytes.push_back({ MemoryLevel::L2, *traffic.l2 });
    if (traffic.l1 && *traffic.l1 > 0.0)
        point.bytes.push_back({ MemoryLevel::L1, *traffic.l1 });
    if (duration.seconds)
        point.seconds = duration.seconds;

    // Rates and no time: a point known by intensity (against DRAM) and rate.
    if (point.bytes.empty() && !duration.seconds && traffic.dramRate && *traffic.dramRate > 0.0
        && !ratePerPrecision.empty()) {
        double rate = 0.0;
        for (const auto &[precision, r] : ratePerPrecision) {
            rate += r;
            if (r > best) {
                best = r;
                point.precision = precision;
            }
        }
        if (rate > 0.0) {
            point.measuredRate = rate;
            point.intensity = rate / *traffic.dramRate;
            return point;
        }
    }
    if (point.bytes.empty()) {
        reader.diagnostics.push_back({ Severity::Error, reader.fileName, launch.line, 0,
            launchWho(launch)
                + ": no byte counters (expected dram__bytes.sum, dram__bytes_read.sum + "
                  "dram__bytes_write.sum, lts__t_bytes.sum or l1tex__t_bytes.sum)" });
        return std::nullopt;
    }
    return point;
}

// A summary row's averages describe one launch; the kernel's point is the total over its
// launches (docs/FORMATS.md §1.9, §7.5: sum FLOPs, bytes and time), and the fastest and slowest
// launch give the spread of that total.
void scaleToInvocations(KernelPoint &point, const Launch &launch, MetricReader &reader)
{
    const double n = launch.invocations.value_or(1.0);
    point.flops *= n;
    for (auto &level : point.bytes)
        level.bytes *= n;
    if (point.seconds)
        *point.seconds *= n;
    if (n <= 1.0)
        return;
    const Duration duration = durationOf(launch.metrics, reader);
    if (duration.metric.empty())
        return;
    auto fastest = reader.value(launch.minimum, duration.metric);
    auto slowest = reader.value(launch.maximum, duration.metric);
    if (fastest && *fastest > 0.0)
        point.timeStatistics.min = *fastest * n;
    if (slowest && *slowest > 0.0)
        point.timeStatistics.max = *slowest * n;
}

// Achieved values of a roofline section: FLOP/s and DRAM bandwidth per precision -> a point
// known by intensity and rate.
void achievedPoints(const Launch &launch, MetricReader &reader, std::vector<KernelPoint> &points)
{
    struct Kind {
        std::string_view label;
        std::string_view fma; // "FFMA"
        std::string_view add;
        std::string_view mul;
        Precision precision;
    };
    static constexpr std::array<Kind, 3> kKinds { {
        { "Single Precision Achieved Value", "FFMA", "FADD", "FMUL", Precision::FP32 },
        { "Double Precision Achieved Value", "DFMA", "DADD", "DMUL", Precision::FP64 },
        { "Half Precision Achieved Value", "HFMA", "HADD", "HMUL", Precision::FP16 },
    } };
    for (const Kind &kind : kKinds) {
        auto it = launch.labelled.find(std::string(kind.label));
        if (it == launch.labelled.end())
            continue;
        const auto &m = it->second;
        const auto get = [&](const std::string &name) { return reader.value(m, name); };
        // "Operations Per Cycle" already counts an FMA as two (43,520 = 2 × 21,760 FFMA).
        auto fma = get("Predicated-On " + std::string(kind.fma) + " Operations Per Cycle");
        auto add = get(
            "Predicated-On " + std::string(kind.add) + " Thread Instructions Executed Per Cycle");
        auto mul = get(
            "Predicated-On " + std::string(kind.mul) + " Thread Instructions Executed Per Cycle");
        auto frequency = get("SM Frequency");
        auto bandwidth = get("DRAM Bandwidth");
        if ((!fma && !add && !mul) || !frequency || !bandwidth)
            continue;
        const double rate
            = (fma.value_or(0.0) + add.value_or(0.0) + mul.value_or(0.0)) * *frequency;
        if (!(rate > 0.0) || !(*bandwidth > 0.0))
            continue; // no work at this precision: nothing to place
        KernelPoint point;
        point.name
            = launch.kernel + " (" + std::string(precisionName(kind.precision)) + " achieved)";
        point.precision = kind.precision;
        point.measuredRate = rate;
        point.intensity = rate / *bandwidth;
        point.source = { reader.fileName, m.begin()->second.line };
        if (auto problem = pointProblem(point)) {
            reader.diagnostics.push_back({ Severity::Error, reader.fileName, point.source.line, 0,
                launchWho(launch) + ", " + std::string(precisionName(kind.precision))
                    + " achieved: " + *problem });
            continue;
        }
        points.push_back(std::move(point));
    }
}

// The columns each page needs, or the error naming the first missing one; the raw page's
// units row.
bool hasItsColumns(const Table &table, const std::string &fileName, std::vector<Diagnostic> &out)
{
    const bool summary = table.kind == HeaderKind::Summary;
    const bool details = !summary && table.columns.contains("Metric Name");
    if (!summary && !details) {
        if (isRawUnitsRow(table))
            return true;
        out.push_back({ Severity::Error, fileName, table.headerLine + 1, 1,
            "the line after the Nsight Compute raw-page header is not its units row (expected "
            "empty units under \"ID\", \"Kernel Name\", ...)" });
        return false;
    }
    static constexpr std::array<const char *, 5> kSummary { "Kernel Name", "Invocations",
        "Metric Name", "Metric Unit", "Average" };
    static constexpr std::array<const char *, 4> kDetails { "ID", "Kernel Name", "Metric Unit",
        "Metric Value" };
    const auto needed
        = summary ? std::span<const char *const>(kSummary) : std::span<const char *const>(kDetails);
    for (const char *column : needed) {
        if (table.columns.contains(column))
            continue;
        out.push_back({ Severity::Error, fileName, table.headerLine, 0,
            "no \"" + std::string(column)
                + (summary ? "\" column in the Nsight Compute summary header (expected ncu --csv "
                             "--print-summary per-kernel)"
                           : "\" column in the Nsight Compute header (expected the details page "
                             "of ncu --csv)") });
        return false;
    }
    return true;
}

// The points of the launches, in order, and what readNcuCsv reports about them.
class LaunchPoints
{
public:
    LaunchPoints(const std::vector<Launch> &launches, MetricReader &reader,
        const NcuOptions &options, PointsReadResult &result)
        : m_reader(reader)
        , m_options(options)
        , m_result(result)
    {
        // A name shared by several launches gets the launch ID (in a summary, the launch
        // shape), so each point stays traceable.
        for (const auto &launch : launches)
            ++m_nameCount[launch.kernel];
    }

    void add(const Launch &launch)
    {
        ++m_result.rowsRead;
        if (launch.kernel.empty()) {
            skip(launch.line,
                (launch.summary ? "kernel with block " + launch.block + ", grid " + launch.grid
                                : "launch " + launch.id)
                    + ": empty kernel name (expected the Kernel Name column)");
            return;
        }
        if (launch.summary && launch.invocations.value_or(0.0) < 1.0) {
            ++m_result.rowsSkipped; // its Invocations cell was reported
            return;
        }
        if (!launch.labelled.empty())
            addAchieved(launch);
        else
            addCounted(launch);
    }

    // Sums per kernel when asked, and warns of the launches without FLOP counters.
    void finish(bool summary)
    {
        if (m_options.sumLaunchesOfAKernel)
            m_result.points = sumLaunches(std::move(m_result.points), m_kernelOfPoint);
        if (m_withoutFlops.empty())
            return;
        m_result.diagnostics.push_back({ Severity::Warning, m_reader.fileName, m_firstWithoutFlops,
            0,
            "no FLOP counters for " + std::string(summary ? "kernel " : "launch ")
                + joinedList(m_withoutFlops)
                + " (expected sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum "
                  "or tensor metrics): bytes and time kept, FLOPs 0" });
    }

private:
    void skip(int line, std::string message)
    {
        m_result.diagnostics.push_back(
            { Severity::Error, m_reader.fileName, line, 0, std::move(message) });
        ++m_result.rowsSkipped;
    }

    std::ptrdiff_t errors() const
    {
        return std::count_if(m_result.diagnostics.begin(), m_result.diagnostics.end(),
            [](const Diagnostic &d) { return d.severity == Severity::Error; });
    }

    // A section export's achieved values: points known by intensity and rate.
    void addAchieved(const Launch &launch)
    {
        const std::size_t before = m_result.points.size();
        achievedPoints(launch, m_reader, m_result.points);
        for (std::size_t i = before; i < m_result.points.size(); ++i)
            m_kernelOfPoint.push_back(m_result.points[i].name);
        if (m_result.points.size() == before)
            skip(launch.line,
                launchWho(launch)
                    + ": no achieved FLOP rate and DRAM bandwidth in this section (expected the "
                      "Achieved Value rows of the roofline chart)");
    }

    void addCounted(const Launch &launch)
    {
        // A metric of this launch that is not a usable number makes its point wrong (a FLOP
        // or byte count left out): the launch is skipped, the metric's error says why.
        const auto errorsBefore = errors();
        bool noFlopCounters = false;
        auto point = pointOfLaunch(launch, m_reader, m_options, noFlopCounters);
        if (point && launch.summary)
            scaleToInvocations(*point, launch, m_reader);
        if (!point || errors() > errorsBefore) {
            ++m_result.rowsSkipped;
            return;
        }
        if (auto problem = pointProblem(*point)) {
            skip(launch.line, launchWho(launch) + ": " + *problem);
            return;
        }
        if (m_nameCount[launch.kernel] > 1) {
            point->name += launch.summary
                ? " (block " + launch.block + ", grid " + launch.grid + ")"
                : " (ID " + launch.id + ")";
        }
        if (noFlopCounters) {
            if (m_withoutFlops.empty())
                m_firstWithoutFlops = launch.line;
            m_withoutFlops.push_back(launch.summary ? "\"" + launch.kernel + "\"" : launch.id);
        }
        m_result.points.push_back(std::move(*point));
        m_kernelOfPoint.push_back(launch.kernel);
    }

    MetricReader &m_reader;
    const NcuOptions &m_options;
    PointsReadResult &m_result;
    std::map<std::string, int> m_nameCount;
    std::vector<std::string> m_withoutFlops;
    int m_firstWithoutFlops = 0;
    std::vector<std::string> m_kernelOfPoint; // for sumLaunchesOfAKernel
};

} // namespace

PointsReadResult readNcuCsv(
    std::string_view text, const std::string &fileName, const NcuOptions &options)
{
    PointsReadResult result;
    auto table = tokenize(text, fileName);
    if (!table) {
        if (auto log = ncuLogWithoutTable(text, fileName)) {
            result.diagnostics.push_back(*log);
            return result;
        }
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Nsight Compute CSV (expected a header line starting \"ID\",... with a "
            "\"Kernel Name\" column)" });
        return result;
    }
    result.diagnostics = table->csv.diagnostics;
    if (hasErrors(table->csv.diagnostics))
        return result;
    result.diagnostics.insert(
        result.diagnostics.end(), table->messages.begin(), table->messages.end());
    if (!hasItsColumns(*table, fileName, result.diagnostics))
        return result;
    MetricReader reader { fileName, result.diagnostics };
    reader.decimalComma = readsDecimalComma(*table, options, fileName, &result.diagnostics);
    const bool summary = table->kind == HeaderKind::Summary;
    int ruleRows = 0;
    const std::vector<Launch> launches = summary
        ? launchesOfSummary(*table, fileName, result.diagnostics, ruleRows)
        : table->columns.contains("Metric Name") ? launchesOfDetails(*table, ruleRows)
                                                 : launchesOfRaw(*table);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            ruleRows > 0 ? "only rule rows (advice text) and no metric values after the header "
                           "(expected rows with a Metric Name)"
                         : "no kernel launches after the header" });
        return result;
    }
    LaunchPoints points(launches, reader, options, result);
    for (const auto &launch : launches)
        points.add(launch);
    points.finish(summary);
    return result;
}

} // namespace ridgepoint
