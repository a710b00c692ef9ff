#include "core/io/formats/ncu_reader.h"

#include "core/io/formats/csv.h"
#include "core/io/sniff.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace ridgepoint {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The line starts with the cell `name`, quoted or not: `"ID",` or `ID,`.
bool startsWithCell(std::string_view line, std::string_view name)
{
    if (line.starts_with("\"")) {
        line.remove_prefix(1);
        return line.starts_with(name) && line.substr(name.size()).starts_with("\",");
    }
    return line.starts_with(name) && line.substr(name.size()).starts_with(",");
}

// ncu's own messages: ==PROF==, ==ERROR==, ==WARNING== (docs/FORMATS.md §1.2).
bool isProfilerMessage(std::string_view line)
{
    return line.starts_with("==PROF==") || line.starts_with("==ERROR==")
        || line.starts_with("==WARNING==");
}

std::string_view withoutCr(std::string_view line)
{
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    return line;
}

enum class HeaderKind { Launches, Summary };

struct HeaderLine {
    std::size_t offset = 0; // byte offset of the header line
    int line = 1; // 1-based
    HeaderKind kind = HeaderKind::Launches;
};

// The ncu header: the first line that starts with "ID" (quoted or not) and names the kernel, or,
// for the per-kernel summary, one that starts with "Process ID" and has an Invocations column.
// ==PROF== lines and the application's own output may come before it.
std::optional<HeaderLine> findHeader(std::string_view text)
{
    std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    int line = 1;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = text.substr(start, end - start);
        const bool kernel = content.find("Kernel Name") != std::string_view::npos;
        if (kernel && startsWithCell(content, "ID"))
            return HeaderLine { start, line, HeaderKind::Launches };
        if (kernel && startsWithCell(content, "Process ID")
            && content.find("Invocations") != std::string_view::npos)
            return HeaderLine { start, line, HeaderKind::Summary };
        start = end + 1;
        ++line;
    }
    return std::nullopt;
}

struct Table {
    CsvTable csv;
    std::map<std::string, std::size_t> columns; // header name -> index
    int headerLine = 0;
    HeaderKind kind = HeaderKind::Launches;
    std::vector<Diagnostic> messages; // ==ERROR== and ==WARNING== lines, as warnings
};

std::vector<Diagnostic> profilerErrors(
    std::string_view text, std::size_t until, const std::string &fileName)
{
    std::vector<Diagnostic> out;
    std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    int line = 1;
    while (start < until && start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = withoutCr(text.substr(start, end - start));
        if (content.starts_with("==ERROR==") || content.starts_with("==WARNING==")) {
            out.push_back({ Severity::Warning, fileName, line, 0,
                "ncu reported: \"" + std::string(content) + "\"" });
        }
        start = end + 1;
        ++line;
    }
    return out;
}

std::optional<Table> tokenize(std::string_view text, const std::string &fileName)
{
    auto header = findHeader(text);
    if (!header)
        return std::nullopt;
    Table table;
    table.kind = header->kind;
    table.messages = profilerErrors(text, header->offset, fileName);
    table.csv = tokenizeCsv(text.substr(header->offset), fileName, ',');
    shiftLines(table.csv, header->line - 1);
    if (table.csv.rows.empty())
        return std::nullopt;
    // ncu's messages after the table (a disconnect, an error) are not rows.
    auto &rows = table.csv.rows;
    for (auto it = rows.begin() + 1; it != rows.end();) {
        const std::string &first = it->text(0);
        if (isProfilerMessage(first)) {
            if (!first.starts_with("==PROF=="))
                table.messages.push_back({ Severity::Warning, fileName, it->line, 0,
                    "ncu reported: \"" + first + "\"" });
            it = rows.erase(it);
        } else {
            ++it;
        }
    }
    table.headerLine = rows.front().line;
    const auto &fields = rows.front().fields;
    for (std::size_t i = 0; i < fields.size(); ++i)
        table.columns.emplace(fields[i].text, i);
    return table;
}

// A field of a ragged row: rows may stop early (metric rows end after "Rule Name").
const CsvField *fieldAt(const CsvRow &row, std::optional<std::size_t> index)
{
    return index ? row.field(*index) : nullptr;
}

std::string textAt(const CsvRow &row, std::optional<std::size_t> index)
{
    const CsvField *field = fieldAt(row, index);
    return field ? field->text : std::string();
}

std::optional<std::size_t> columnOf(const Table &table, const std::string &name)
{
    auto it = table.columns.find(name);
    return it == table.columns.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

// --- Numbers written with a decimal comma (docs/FORMATS.md §1.8) ---------------------------------

// "[sign]d{1,3}" then groups of exactly three digits after `separator`, from the start of
// `text`: how many groups, and where the scan stopped. Not valid when a group is not three digits.
struct GroupedDigits {
    bool valid = false;
    int groups = 0;
    std::size_t end = 0;
};

GroupedDigits scanGroupedDigits(std::string_view text, char separator)
{
    const auto digitsFrom = [text](std::size_t i) {
        while (i < text.size() && isDigit(text[i]))
            ++i;
        return i;
    };
    GroupedDigits scan;
    std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    const std::size_t leadingEnd = digitsFrom(i);
    if (leadingEnd == i || leadingEnd - i > 3)
        return scan;
    i = leadingEnd;
    while (i < text.size() && text[i] == separator) {
        const std::size_t groupEnd = digitsFrom(i + 1);
        if (groupEnd - (i + 1) != 3)
            return scan;
        i = groupEnd;
        ++scan.groups;
    }
    scan.valid = true;
    scan.end = i;
    return scan;
}

// "27.595.520", "2.508.800", "1.234,5": '.' groups thousands and ',' is the decimal mark. One
// '.' group alone ("1.500") is not evidence: it reads as 1.5 in the usual convention too.
bool isDotGrouped(std::string_view text, bool needEvidence)
{
    const GroupedDigits scan = scanGroupedDigits(text, '.');
    if (!scan.valid)
        return false;
    std::size_t i = scan.end;
    bool fraction = false;
    if (i < text.size() && text[i] == ',') {
        const std::size_t start = ++i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == start)
            return false;
        fraction = true;
    }
    if (i != text.size())
        return false;
    return needEvidence ? (scan.groups >= 2 || (scan.groups >= 1 && fraction))
                        : (scan.groups > 0 || fraction);
}

// "53,261,312.5" or "55,150,962,625": ',' groups thousands, '.' is the decimal mark.
bool isCommaGrouped(std::string_view text)
{
    const GroupedDigits scan = scanGroupedDigits(text, ',');
    if (!scan.valid)
        return false;
    const bool fraction = scan.end < text.size() && text[scan.end] == '.';
    return scan.groups >= 2 || (scan.groups >= 1 && fraction);
}

// The same number in the usual convention: "27.595.520" -> "27595520", "65,77" -> "65.77".
std::string fromDecimalComma(std::string_view text)
{
    std::string cell(text);
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    if (first == std::string::npos)
        return cell;
    cell = cell.substr(first, last - first + 1);
    if (!isDotGrouped(cell, false))
        return std::string(text);
    std::string out;
    for (char c : cell) {
        if (c == ',')
            out.push_back('.');
        else if (c != '.')
            out.push_back(c);
    }
    return out;
}

// --- Metric values -----------------------------------------------------------------------

// A metric value as written, with where it was, converted on use.
struct RawValue {
    std::string text;
    std::string unit;
    int line = 0;
    int column = 0;
};

using Metrics = std::map<std::string, RawValue>; // metric name -> value (first one wins)

struct Launch {
    std::string id; // the launch ID; empty in a per-kernel summary
    std::string kernel;
    std::string device;
    std::string cc;
    std::string block;
    std::string grid;
    int line = 0;
    Metrics metrics;
    std::map<std::string, Metrics> labelled; // Body Item Label -> ...
    // Per-kernel summary: the averages are `metrics`; the launches they cover and the spread.
    bool summary = false;
    std::optional<double> invocations;
    Metrics minimum;
    Metrics maximum;
};

std::string launchWho(const Launch &launch)
{
    if (launch.summary)
        return "kernel \"" + launch.kernel + "\" (block " + launch.block + ", grid " + launch.grid
            + ")";
    return "launch " + launch.id + " (\"" + launch.kernel + "\")";
}

struct Reader {
    const std::string &fileName;
    std::vector<Diagnostic> &diagnostics;
    bool decimalComma = false;

    // The value of a metric in SI base units; nullopt when absent or missing (n/a); a bad
    // number or unit is reported once, with its line and column.
    std::optional<double> value(const Metrics &metrics, const std::string &name)
    {
        auto it = metrics.find(name);
        if (it == metrics.end())
            return std::nullopt;
        const RawValue &raw = it->second;
        auto number = parseReportNumber(decimalComma ? fromDecimalComma(raw.text) : raw.text);
        if (!number) {
            diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
                "metric \"" + name + "\": " + number.error() });
            return std::nullopt;
        }
        if (!*number)
            return std::nullopt;
        auto scale = ncuUnitScale(raw.unit);
        if (!scale) {
            diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
                "metric \"" + name + "\": unknown unit \"" + raw.unit
                    + "\" (expected an ncu unit such as byte, Mbyte, ns, usecond, Ghz)" });
            return std::nullopt;
        }
        const double value = **number * *scale;
        // Counters, bytes, times and clocks are never negative; a huge value in a large unit
        // ("1e300 Tbyte") overflows to infinity. Either would make a point the chart cannot
        // place, so it is an error on the metric, with its position.
        if (!std::isfinite(value) || value < 0.0) {
            diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
                "metric \"" + name + "\": \"" + raw.text + "\" " + raw.unit
                    + (value < 0.0 ? " is negative (expected zero or more)"
                                   : " is out of range (expected a finite value)") });
            return std::nullopt;
        }
        return value;
    }

    // The first of `names` that has a value.
    std::optional<double> first(const Metrics &metrics, std::initializer_list<std::string> names)
    {
        for (const auto &name : names) {
            if (auto v = value(metrics, name))
                return v;
        }
        return std::nullopt;
    }
};

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

std::string sassMetric(const std::string &prefix, char letter, const std::string &op)
{
    return prefix + "sass_thread_inst_executed_op_" + letter + op + "_pred_on.sum";
}

// The kernel's time in seconds, and the metric it came from (for the spread of a summary).
struct Duration {
    std::optional<double> seconds;
    std::string metric;
};

Duration durationOf(const Metrics &m, Reader &reader)
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

// One launch's metrics -> one hierarchical point (or nullopt, said why).
std::optional<KernelPoint> pointOfLaunch(
    const Launch &launch, Reader &reader, const NcuOptions &options, bool &noFlopCounters)
{
    const auto &m = launch.metrics;
    const auto get = [&](const std::string &name) { return reader.value(m, name); };

    KernelPoint point;
    point.name = launch.kernel;
    point.source = { reader.fileName, launch.line };
    const Duration duration = durationOf(m, reader);

    // FLOPs per precision: 2·fma + add + mul over the counters (docs/FORMATS.md §1.9,
    // method 1: NERSC's).
    std::map<Precision, double> perPrecision;
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
    // Tensor work: the ops-path metrics count operations; else pipe instructions × factor.
    bool opsPath = false;
    for (const auto &[name, raw] : m) {
        if (!name.starts_with("sm__ops_path_tensor_") || !name.ends_with(".sum"))
            continue;
        if (auto v = get(name)) {
            opsPath = true;
            anyCounter = true;
            if (*v > 0.0) {
                const auto precision = precisionOfTensorPath(name);
                perPrecision[precision.value_or(Precision::FP16)] += *v;
            }
        }
    }
    if (!opsPath) {
        if (auto v = get("sm__inst_executed_pipe_tensor.sum")) {
            anyCounter = true;
            if (*v > 0.0)
                perPrecision[Precision::FP16] += *v * options.tensorFlopsPerInstruction;
        }
    }
    // Method 2 (ncu's roofline metrics, rates): (add + mul + 2·fma) per cycle elapsed × SM
    // cycles per second gives FLOP/s; × the time gives FLOPs.
    std::map<Precision, double> ratePerPrecision;
    if (!anyCounter) {
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
            anyCounter = true;
            ratePerPrecision[family.precision]
                = (fma.value_or(0.0) + add.value_or(0.0) + mul.value_or(0.0)) * *smRate;
        }
        if (duration.seconds) {
            for (const auto &[precision, rate] : ratePerPrecision)
                perPrecision[precision] += rate * *duration.seconds;
        }
    }
    double best = 0.0;
    for (const auto &[precision, flops] : perPrecision) {
        point.flops += flops;
        if (flops > best) {
            best = flops;
            point.precision = precision;
        }
    }
    noFlopCounters = !anyCounter;

    // Bytes: main memory (ncu's "dram" is HBM on data-centre parts), L2, L1.
    const auto sum = [&](const std::string &a, const std::string &b) -> std::optional<double> {
        auto x = get(a);
        auto y = get(b);
        if (!x && !y)
            return std::nullopt;
        return x.value_or(0.0) + y.value_or(0.0);
    };
    std::optional<double> dram = get("dram__bytes.sum");
    if (!dram)
        dram = sum("dram__bytes_read.sum", "dram__bytes_write.sum");
    if (!dram)
        dram = sum("dram__bytes_op_read.sum", "dram__bytes_op_write.sum");
    std::optional<double> l2 = get("lts__t_bytes.sum");
    if (!l2) {
        if (auto sectors = get("lts__t_sectors.sum"))
            l2 = *sectors * 32.0;
    }
    std::optional<double> l1 = get("l1tex__t_bytes.sum");
    if (!l1) {
        if (auto sectors = get("l1tex__t_sectors.sum"))
            l1 = *sectors * 32.0;
    }
    // Method 2: bandwidths (bytes per second) × time.
    std::optional<double> dramRate;
    if (!dram && !l2 && !l1) {
        dramRate = reader.first(m, { "dram__bytes.sum.per_second" });
        if (!dramRate)
            dramRate = sum("dram__bytes_read.sum.per_second", "dram__bytes_write.sum.per_second");
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
            dram = times(dramRate);
            l2 = times(l2Rate);
            l1 = times(l1Rate);
        }
    }
    if (dram && *dram > 0.0)
        point.bytes.push_back({ std::nullopt, *dram });
    if (l2 && *l2 > 0.0)
        point.bytes.push_back({ MemoryLevel::L2, *l2 });
    if (l1 && *l1 > 0.0)
        point.bytes.push_back({ MemoryLevel::L1, *l1 });

    if (duration.seconds)
        point.seconds = duration.seconds;

    // Rates and no time: a point known by intensity (against DRAM) and rate.
    if (point.bytes.empty() && !duration.seconds && dramRate && *dramRate > 0.0
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
            point.intensity = rate / *dramRate;
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
void scaleToInvocations(KernelPoint &point, const Launch &launch, Reader &reader)
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
void achievedPoints(const Launch &launch, Reader &reader, std::vector<KernelPoint> &points)
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

std::vector<Launch> launchesOfDetails(const Table &table, int &ruleRows)
{
    const auto id = columnOf(table, "ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
    const auto block = columnOf(table, "Block Size");
    const auto grid = columnOf(table, "Grid Size");
    const auto label = columnOf(table, "Body Item Label");
    const auto name = columnOf(table, "Metric Name");
    const auto unit = columnOf(table, "Metric Unit");
    const auto value = columnOf(table, "Metric Value");
    std::vector<Launch> launches;
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 1; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        const std::string metric = textAt(row, name);
        if (metric.empty()) {
            ++ruleRows; // a rule row: advice text, no metric
            continue;
        }
        const std::string launchId = textAt(row, id);
        auto [it, added] = index.emplace(launchId, launches.size());
        if (added) {
            Launch launch;
            launch.id = launchId;
            launch.kernel = textAt(row, kernel);
            launch.device = textAt(row, device);
            launch.cc = textAt(row, cc);
            launch.block = textAt(row, block);
            launch.grid = textAt(row, grid);
            launch.line = row.line;
            launches.push_back(std::move(launch));
        }
        Launch &launch = launches[it->second];
        const CsvField *valueField = fieldAt(row, value);
        RawValue raw { valueField ? valueField->text : std::string(), textAt(row, unit), row.line,
            valueField ? valueField->column : 0 };
        const std::string bodyLabel = textAt(row, label);
        if (bodyLabel.empty())
            launch.metrics.emplace(metric, std::move(raw));
        else
            launch.labelled[bodyLabel].emplace(metric, std::move(raw));
    }
    return launches;
}

// The per-kernel summary: one group per kernel name and launch shape (and process and device).
std::vector<Launch> launchesOfSummary(const Table &table, Reader &reader, int &ruleRows)
{
    const auto process = columnOf(table, "Process ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
    const auto block = columnOf(table, "Block Size");
    const auto grid = columnOf(table, "Grid Size");
    const auto invocations = columnOf(table, "Invocations");
    const auto name = columnOf(table, "Metric Name");
    const auto unit = columnOf(table, "Metric Unit");
    const auto minimum = columnOf(table, "Minimum");
    const auto maximum = columnOf(table, "Maximum");
    const auto average = columnOf(table, "Average");
    std::vector<Launch> launches;
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 1; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        const std::string metric = textAt(row, name);
        if (metric.empty()) {
            ++ruleRows;
            continue;
        }
        const std::string key = textAt(row, process) + '\x1f' + textAt(row, device) + '\x1f'
            + textAt(row, kernel) + '\x1f' + textAt(row, block) + '\x1f' + textAt(row, grid);
        auto [it, added] = index.emplace(key, launches.size());
        if (added) {
            Launch launch;
            launch.summary = true;
            launch.kernel = textAt(row, kernel);
            launch.device = textAt(row, device);
            launch.cc = textAt(row, cc);
            launch.block = textAt(row, block);
            launch.grid = textAt(row, grid);
            launch.line = row.line;
            launches.push_back(std::move(launch));
        }
        Launch &launch = launches[it->second];
        if (!launch.invocations) {
            const CsvField *field = fieldAt(row, invocations);
            const std::string text = field ? field->text : std::string();
            auto count = parseReportNumber(text);
            if (count && *count && **count >= 1.0 && std::floor(**count) == **count) {
                launch.invocations = **count;
            } else {
                reader.diagnostics.push_back(
                    { Severity::Error, reader.fileName, row.line, field ? field->column : 0,
                        "column \"Invocations\": \"" + text
                            + "\" is not a number of launches (expected a whole number, 1 or "
                              "more)" });
                launch.invocations = 0.0; // reported once; the kernel is skipped
            }
        }
        const std::string unitOf = textAt(row, unit);
        const auto add = [&](Metrics &into, std::optional<std::size_t> column) {
            const CsvField *field = fieldAt(row, column);
            into.emplace(metric,
                RawValue { field ? field->text : std::string(), unitOf, row.line,
                    field ? field->column : 0 });
        };
        add(launch.metrics, average);
        add(launch.minimum, minimum);
        add(launch.maximum, maximum);
    }
    return launches;
}

std::vector<Launch> launchesOfRaw(const Table &table)
{
    const auto id = columnOf(table, "ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
    const auto block = columnOf(table, "Block Size");
    const auto grid = columnOf(table, "Grid Size");
    const CsvRow &header = table.csv.rows[0];
    const CsvRow &units = table.csv.rows[1];
    std::vector<Launch> launches;
    for (std::size_t r = 2; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        Launch launch;
        launch.id = textAt(row, id);
        launch.kernel = textAt(row, kernel);
        launch.device = textAt(row, device);
        launch.cc = textAt(row, cc);
        launch.block = textAt(row, block);
        launch.grid = textAt(row, grid);
        launch.line = row.line;
        for (std::size_t i = 0; i < header.fields.size() && i < row.fields.size(); ++i) {
            const std::string &metric = header.fields[i].text;
            if (metric.find("__") == std::string::npos)
                continue; // identity columns and strings
            launch.metrics.emplace(metric,
                RawValue { row.fields[i].text, textAt(units, i), row.line, row.fields[i].column });
        }
        launches.push_back(std::move(launch));
    }
    return launches;
}

bool isRawUnitsRow(const Table &table)
{
    // Under the 11 identity columns ("ID" ... "CC") the units row is empty.
    if (table.csv.rows.size() < 2)
        return false;
    const CsvRow &second = table.csv.rows[1];
    return !second.fields.empty() && second.fields.front().text.empty();
}

// Which columns hold metric values: Metric Value (details), Minimum/Maximum/Average (summary), or
// each metric column of the raw page.
std::vector<bool> valueColumns(const Table &table)
{
    const CsvRow &header = table.csv.rows.front();
    const bool longFormat = table.columns.contains("Metric Name");
    std::vector<bool> out(header.fields.size());
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string &name = header.fields[i].text;
        out[i] = longFormat ? (name == "Metric Value" || name == "Minimum" || name == "Maximum"
                     || name == "Average")
                            : name.find("__") != std::string::npos;
    }
    return out;
}

// Whether the file writes numbers with a decimal comma: a value only that convention can read
// ("27.595.520", "1.234,5") and none only the usual one can ("53,261,312", "1,234.5").
std::optional<Diagnostic> decimalCommaEvidence(const Table &table, const std::string &fileName)
{
    const std::vector<bool> isValue = valueColumns(table);
    std::optional<Diagnostic> evidence;
    for (std::size_t r = 1; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        for (std::size_t i = 0; i < row.fields.size() && i < isValue.size(); ++i) {
            const std::string &text = row.fields[i].text;
            if (text.size() < 4 || !isValue[i])
                continue;
            if (isCommaGrouped(text))
                return std::nullopt;
            if (!evidence && isDotGrouped(text, true)) {
                evidence = Diagnostic { Severity::Warning, fileName, row.line, row.fields[i].column,
                    "numbers are read with a decimal comma and '.' between thousands, as \"" + text
                        + "\" is written" };
            }
        }
    }
    return evidence;
}

// The machine's peaks from ncu's roofline metrics when they are a raw page's columns or a
// details page's rows (docs/FORMATS.md §1.9, method 2; pyroofline).
Hardware peaksOfMetrics(const Launch &launch, Reader &reader, const NcuOptions &options)
{
    const auto &m = launch.metrics;
    const auto get = [&](const std::string &name) { return reader.value(m, name); };
    Hardware hardware;
    const auto smFrequency = get("sm__cycles_elapsed.avg.per_second");
    if (smFrequency && *smFrequency > 0.0) {
        struct Peak {
            char letter;
            Precision precision;
            std::string_view op;
        };
        for (const Peak peak : { Peak { 'f', Precision::FP32, "FFMA" },
                 Peak { 'd', Precision::FP64, "DFMA" }, Peak { 'h', Precision::FP16, "HFMA" } }) {
            const std::string letter(1, peak.letter);
            std::optional<double> perCycle
                = get("derived__sm__sass_thread_inst_executed_op_" + letter + "fma_pred_on_x2");
            if (!perCycle && peak.letter == 'h')
                perCycle = get("derived__sm__sass_thread_inst_executed_op_hfma_pred_on_x4");
            if (!perCycle) {
                const double weight = peak.letter == 'h' ? options.halfFlopsPerFma : 2.0;
                if (auto v = get(sassMetric("sm__", peak.letter, "fma") + ".peak_sustained"))
                    perCycle = weight * *v;
            }
            if (perCycle && *perCycle > 0.0) {
                hardware.compute.push_back({ std::string(precisionName(peak.precision)) + " ("
                        + std::string(peak.op) + ")",
                    peak.precision, "vector", *perCycle * *smFrequency, false, std::nullopt,
                    true });
            }
        }
        if (auto tensor = get("sm__inst_executed_pipe_tensor.sum.peak_sustained");
            tensor && *tensor > 0.0) {
            hardware.compute.push_back({ "fp16 (tensor pipe)", Precision::FP16, "tensor",
                *tensor * options.tensorFlopsPerInstruction * *smFrequency, false, std::nullopt,
                true });
        }
    }
    struct Level {
        MemoryLevel level;
        std::string_view name;
        std::array<std::string_view, 3> perCycle; // the first with a value; "" ends the list
        std::string_view clock;
    };
    static constexpr std::array<Level, 3> kLevels { {
        { MemoryLevel::DRAM, "DRAM", { "dram__bytes.sum.peak_sustained", "", "" },
            "dram__cycles_elapsed.avg.per_second" },
        { MemoryLevel::L2, "L2",
            { "lts__t_bytes.sum.peak_sustained",
                "l1tex__m_xbar2l1tex_read_bytes.sum.peak_sustained", "" },
            "lts__cycles_elapsed.avg.per_second" },
        { MemoryLevel::L1, "L1",
            { "l1tex__t_bytes.sum.peak_sustained",
                "derived__l1tex__lsu_writeback_bytes_mem_lg.sum.peak_sustained",
                "derived__l1tex__lsu_writeback_bytes.sum.peak_sustained" },
            "l1tex__cycles_elapsed.avg.per_second" },
    } };
    for (const Level &level : kLevels) {
        std::optional<double> bytes;
        for (std::string_view name : level.perCycle) {
            if (name.empty() || bytes)
                break;
            bytes = get(std::string(name));
        }
        const auto clock = get(std::string(level.clock));
        if (bytes && clock && *bytes > 0.0 && *clock > 0.0)
            hardware.memory.push_back(
                { std::string(level.name), level.level, *bytes * *clock, std::nullopt, true });
    }
    return hardware;
}

} // namespace

std::optional<double> ncuUnitScale(std::string_view unit)
{
    if (unit.empty() || unit == "%")
        return 1.0;
    const auto part = [](std::string_view text) -> std::optional<double> {
        if (text == "%")
            return 1.0; // "%/register", "%/byte"
        // Longest base first, so "sectors" is not read as "sector" + "s".
        static constexpr std::array<std::string_view, 21> kBases { "branches", "register",
            "request", "sectors", "cluster", "nsecond", "usecond", "msecond", "second", "sector",
            "sample", "thread", "block", "cycle", "byte", "inst", "warp", "pass", "hz", "SM", "s" };
        for (std::string_view base : kBases) {
            if (text.size() < base.size())
                continue;
            const std::string_view tail = text.substr(text.size() - base.size());
            if (lower(tail) != lower(base))
                continue;
            const std::string_view prefix = text.substr(0, text.size() - base.size());
            double baseScale = 1.0;
            if (base == "nsecond")
                baseScale = 1e-9;
            else if (base == "usecond")
                baseScale = 1e-6;
            else if (base == "msecond")
                baseScale = 1e-3;
            static constexpr std::array<std::pair<std::string_view, double>, 12> kPrefixes {
                { { "", 1.0 }, { "n", 1e-9 }, { "u", 1e-6 }, { "\xC2\xB5", 1e-6 }, { "m", 1e-3 },
                    { "K", 1e3 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "g", 1e9 },
                    { "T", 1e12 }, { "P", 1e15 } }
            };
            for (const auto &[symbol, factor] : kPrefixes) {
                if (prefix == symbol)
                    return factor * baseScale;
            }
        }
        return std::nullopt;
    };
    const auto slash = unit.find('/');
    if (slash == std::string_view::npos)
        return part(unit);
    auto numerator = part(unit.substr(0, slash));
    auto denominator = part(unit.substr(slash + 1));
    if (!numerator || !denominator)
        return std::nullopt;
    return *numerator / *denominator;
}

NcuShape detectNcuShape(std::string_view text)
{
    auto header = findHeader(text);
    if (!header)
        return NcuShape::None;
    if (header->kind == HeaderKind::Summary)
        return NcuShape::Summary;
    const std::size_t end = std::min(text.find('\n', header->offset), text.size());
    const std::string_view line = text.substr(header->offset, end - header->offset);
    if (line.find("Metric Name") != std::string_view::npos) {
        // A roofline section export carries the theoretical per-cycle peaks.
        if (line.find("Body Item Label") != std::string_view::npos
            && text.find("Precision Roofline") != std::string_view::npos)
            return NcuShape::RooflineSection;
        return NcuShape::Details;
    }
    return NcuShape::Raw;
}

namespace {

int ncuShapeOf(std::string_view text)
{
    return static_cast<int>(detectNcuShape(text));
}

NcuShape shapeOf(const Sniff &sniff)
{
    return static_cast<NcuShape>(sniff.shared(ncuShapeOf));
}

} // namespace

bool looksLikeNcuDetails(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Details;
}

bool looksLikeNcuRaw(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Raw;
}

bool looksLikeNcuSummary(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Summary;
}

bool looksLikeNcuRooflineSection(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::RooflineSection;
}

std::optional<Diagnostic> ncuLogWithoutTable(std::string_view text, const std::string &fileName)
{
    if (findHeader(text))
        return std::nullopt;
    std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    int line = 1;
    int firstLine = 0;
    std::string firstError;
    bool any = false;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = withoutCr(text.substr(start, end - start));
        if (!content.empty()) {
            if (!isProfilerMessage(content))
                return std::nullopt; // something else: not ncu's log
            any = true;
            if (firstError.empty() && content.starts_with("==ERROR==")) {
                firstError = std::string(content);
                firstLine = line;
            }
        }
        start = end + 1;
        ++line;
    }
    if (!any)
        return std::nullopt;
    return Diagnostic { Severity::Error, fileName, firstError.empty() ? 1 : firstLine, 0,
        "ncu wrote no table, only its own messages"
            + (firstError.empty() ? std::string() : ": \"" + firstError + "\"")
            + " (expected a header line starting \"ID\",... or \"Process ID\",... after them)" };
}

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
    for (auto &d : table->csv.diagnostics)
        result.diagnostics.push_back(d);
    if (hasErrors(table->csv.diagnostics))
        return result;
    for (auto &d : table->messages)
        result.diagnostics.push_back(d);
    Reader reader { fileName, result.diagnostics };
    const bool summary = table->kind == HeaderKind::Summary;
    const bool details = !summary && table->columns.contains("Metric Name");
    if (summary) {
        for (const char *needed :
            { "Kernel Name", "Invocations", "Metric Name", "Metric Unit", "Average" }) {
            if (!table->columns.contains(needed)) {
                result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
                    "no \"" + std::string(needed)
                        + "\" column in the Nsight Compute summary header (expected ncu --csv "
                          "--print-summary per-kernel)" });
                return result;
            }
        }
    } else if (details) {
        for (const char *needed : { "ID", "Kernel Name", "Metric Unit", "Metric Value" }) {
            if (!table->columns.contains(needed)) {
                result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
                    "no \"" + std::string(needed)
                        + "\" column in the Nsight Compute header (expected the details page of "
                          "ncu --csv)" });
                return result;
            }
        }
    } else if (!isRawUnitsRow(*table)) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine + 1, 1,
            "the line after the Nsight Compute raw-page header is not its units row (expected "
            "empty units under \"ID\", \"Kernel Name\", ...)" });
        return result;
    }
    if (options.decimalComma) {
        reader.decimalComma = *options.decimalComma;
    } else if (auto evidence = decimalCommaEvidence(*table, fileName)) {
        reader.decimalComma = true;
        result.diagnostics.push_back(*evidence);
    }
    int ruleRows = 0;
    const std::vector<Launch> launches = summary ? launchesOfSummary(*table, reader, ruleRows)
        : details                                ? launchesOfDetails(*table, ruleRows)
                                                 : launchesOfRaw(*table);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            ruleRows > 0 ? "only rule rows (advice text) and no metric values after the header "
                           "(expected rows with a Metric Name)"
                         : "no kernel launches after the header" });
        return result;
    }

    // A name shared by several launches gets the launch ID (in a summary, the launch shape), so
    // each point stays traceable.
    std::map<std::string, int> nameCount;
    for (const auto &launch : launches)
        ++nameCount[launch.kernel];
    std::vector<std::string> withoutFlops;
    int firstWithoutFlops = 0;
    std::vector<std::string> kernelOfPoint; // for sumLaunchesOfAKernel
    for (const auto &launch : launches) {
        ++result.rowsRead;
        if (launch.kernel.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, launch.line, 0,
                (launch.summary ? "kernel with block " + launch.block + ", grid " + launch.grid
                                : "launch " + launch.id)
                    + ": empty kernel name (expected the Kernel Name column)" });
            ++result.rowsSkipped;
            continue;
        }
        if (launch.summary && launch.invocations.value_or(0.0) < 1.0) {
            ++result.rowsSkipped; // its Invocations cell was reported
            continue;
        }
        // A metric of this launch that is not a usable number makes its point wrong (a FLOP
        // or byte count left out): the launch is skipped, the metric's error says why.
        const auto errorsSoFar = [&] {
            return std::count_if(result.diagnostics.begin(), result.diagnostics.end(),
                [](const Diagnostic &d) { return d.severity == Severity::Error; });
        };
        const auto errorsBefore = errorsSoFar();
        if (!launch.labelled.empty()) {
            const std::size_t before = result.points.size();
            achievedPoints(launch, reader, result.points);
            for (std::size_t i = before; i < result.points.size(); ++i)
                kernelOfPoint.push_back(result.points[i].name);
            if (result.points.size() == before) {
                result.diagnostics.push_back({ Severity::Error, fileName, launch.line, 0,
                    launchWho(launch)
                        + ": no achieved FLOP rate and DRAM bandwidth in this section "
                          "(expected the Achieved Value rows of the roofline chart)" });
                ++result.rowsSkipped;
            }
            continue;
        }
        bool noFlopCounters = false;
        auto point = pointOfLaunch(launch, reader, options, noFlopCounters);
        if (point && launch.summary)
            scaleToInvocations(*point, launch, reader);
        if (!point || errorsSoFar() > errorsBefore) {
            ++result.rowsSkipped;
            continue;
        }
        if (auto problem = pointProblem(*point)) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, launch.line, 0, launchWho(launch) + ": " + *problem });
            ++result.rowsSkipped;
            continue;
        }
        if (nameCount[launch.kernel] > 1) {
            point->name += launch.summary
                ? " (block " + launch.block + ", grid " + launch.grid + ")"
                : " (ID " + launch.id + ")";
        }
        if (noFlopCounters) {
            if (withoutFlops.empty())
                firstWithoutFlops = launch.line;
            withoutFlops.push_back(launch.summary ? "\"" + launch.kernel + "\"" : launch.id);
        }
        result.points.push_back(std::move(*point));
        kernelOfPoint.push_back(launch.kernel);
    }
    if (options.sumLaunchesOfAKernel)
        result.points = sumLaunches(std::move(result.points), kernelOfPoint);
    if (!withoutFlops.empty()) {
        std::string ids;
        for (const auto &id : withoutFlops)
            ids += (ids.empty() ? "" : ", ") + id;
        result.diagnostics.push_back({ Severity::Warning, fileName, firstWithoutFlops, 0,
            "no FLOP counters for " + std::string(summary ? "kernel " : "launch ") + ids
                + " (expected sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum "
                  "or tensor metrics): bytes and time kept, FLOPs 0" });
    }
    return result;
}

HardwareReadResult readNcuRooflineSection(
    std::string_view text, const std::string &fileName, const NcuOptions &options)
{
    HardwareReadResult result;
    auto table = tokenize(text, fileName);
    if (!table) {
        if (auto log = ncuLogWithoutTable(text, fileName)) {
            result.diagnostics.push_back(*log);
            return result;
        }
    }
    const bool section = table && table->columns.contains("Body Item Label")
        && table->columns.contains("Metric Name");
    const bool raw = table && table->kind == HeaderKind::Launches
        && !table->columns.contains("Metric Name") && isRawUnitsRow(*table);
    const bool details = table && !section && !raw && table->columns.contains("Metric Name");
    if (!section && !raw && !details) {
        result.diagnostics.push_back({ Severity::Error, fileName, table ? table->headerLine : 0, 0,
            "not an Nsight Compute roofline section export (expected a header with \"Body "
            "Item Label\" and \"Metric Name\": ncu --csv --section SpeedOfLight_RooflineChart "
            "--print-details all)" });
        return result;
    }
    for (auto &d : table->csv.diagnostics)
        result.diagnostics.push_back(d);
    if (hasErrors(table->csv.diagnostics))
        return result;
    Reader reader { fileName, result.diagnostics };
    if (options.decimalComma)
        reader.decimalComma = *options.decimalComma;
    else if (decimalCommaEvidence(*table, fileName))
        reader.decimalComma = true;
    int ruleRows = 0;
    const auto launches = raw                ? launchesOfRaw(*table)
        : table->kind == HeaderKind::Summary ? launchesOfSummary(*table, reader, ruleRows)
                                             : launchesOfDetails(*table, ruleRows);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            "no metric rows after the header (expected the roofline chart's rows)" });
        return result;
    }

    if (!section) {
        // The first launch whose metrics give a compute and a memory roof (a failed launch has
        // nan everywhere).
        for (const Launch &launch : launches) {
            Hardware hardware = peaksOfMetrics(launch, reader, options);
            if (hardware.compute.empty() || hardware.memory.empty())
                continue;
            if (hasErrors(result.diagnostics))
                return result;
            hardware.name
                = "Nsight Compute peaks (device " + launch.device + ", CC " + launch.cc + ")";
            hardware.vendor = "NVIDIA";
            hardware.kind = "gpu";
            hardware.source = fileName + ":" + std::to_string(launch.line)
                + ": ncu roofline metrics (peak per cycle × cycles per second: "
                  "…peak_sustained × …cycles_elapsed.avg.per_second)";
            for (const auto &problem : validateHardware(hardware))
                result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, problem });
            if (!hasErrors(result.diagnostics))
                result.machines.push_back(std::move(hardware));
            return result;
        }
        if (!hasErrors(result.diagnostics)) {
            result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
                "no peak metrics in this Nsight Compute file: it gives points, not ceilings "
                "(expected sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained "
                "with sm__cycles_elapsed.avg.per_second and dram__bytes.sum.peak_sustained with "
                "dram__cycles_elapsed.avg.per_second, or the SpeedOfLight_RooflineChart section "
                "export)" });
        }
        return result;
    }
    if (launches.size() > 1) {
        result.diagnostics.push_back({ Severity::Warning, fileName, launches[1].line, 0,
            "ceilings taken from launch " + launches.front().id + "; the other "
                + std::to_string(launches.size() - 1) + " launch(es) are not used" });
    }
    const Launch &launch = launches.front();

    Hardware hardware;
    hardware.name = "Nsight Compute roofline (device " + launch.device + ", CC " + launch.cc + ")";
    hardware.vendor = "NVIDIA";
    hardware.kind = "gpu";
    hardware.source = fileName
        + ": ncu SpeedOfLight_RooflineChart section (peak operations per cycle × SM frequency, "
          "bytes per cycle × DRAM frequency)";
    struct Kind {
        std::string_view label;
        std::string_view op;
        Precision precision;
    };
    static constexpr std::array<Kind, 3> kKinds { {
        { "Single Precision Roofline", "FFMA", Precision::FP32 },
        { "Double Precision Roofline", "DFMA", Precision::FP64 },
        { "Half Precision Roofline", "HFMA", Precision::FP16 },
    } };
    for (const Kind &kind : kKinds) {
        auto it = launch.labelled.find(std::string(kind.label));
        if (it == launch.labelled.end())
            continue;
        const auto &m = it->second;
        // "Operations" rows carry the unit "inst" but are per cycle (docs/FORMATS.md §1.6).
        auto ops
            = reader.value(m, "Theoretical Predicated-On " + std::string(kind.op) + " Operations");
        auto frequency = reader.value(m, "SM Frequency");
        if (ops && frequency && *ops > 0.0 && *frequency > 0.0) {
            hardware.compute.push_back(
                { std::string(precisionName(kind.precision)) + " (" + std::string(kind.op) + ")",
                    kind.precision, "vector", *ops * *frequency, false, std::nullopt, true });
        }
        for (const auto &[level, levelName] :
            { std::pair { MemoryLevel::DRAM, std::string("DRAM") },
                std::pair { MemoryLevel::L2, std::string("L2") },
                std::pair { MemoryLevel::L1, std::string("L1") } }) {
            auto perCycle = reader.value(m, "Theoretical " + levelName + " Bytes Accessible");
            auto clock = reader.value(m, levelName + " Frequency");
            if (!clock && level != MemoryLevel::DRAM)
                clock = frequency;
            if (!perCycle || !clock || !(*perCycle > 0.0) || !(*clock > 0.0))
                continue;
            if (hardware.memoryFor(level))
                continue; // the same roof under each precision
            hardware.memory.push_back({ levelName, level, *perCycle * *clock, std::nullopt, true });
        }
    }
    if (hardware.compute.empty() || hardware.memory.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, launch.line, 0,
            std::string("no ") + (hardware.compute.empty() ? "compute" : "memory")
                + " ceiling in this section (expected \"Theoretical Predicated-On FFMA "
                  "Operations\" with \"SM Frequency\" and \"Theoretical DRAM Bytes Accessible\" "
                  "with \"DRAM Frequency\" under a \"... Precision Roofline\" label)" });
        return result;
    }
    for (const auto &problem : validateHardware(hardware))
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, problem });
    if (!hasErrors(result.diagnostics))
        result.machines.push_back(std::move(hardware));
    return result;
}

} // namespace ridgepoint
