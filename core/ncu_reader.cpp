#include "core/ncu_reader.h"

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

struct HeaderLine {
    std::size_t offset = 0; // byte offset of the header line
    int line = 1; // 1-based
};

// The ncu header: the first line that starts with "ID" (quoted or not) and names the kernel;
// ==PROF== lines and the application's own output may come before it.
std::optional<HeaderLine> findHeader(std::string_view text)
{
    std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    int line = 1;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = text.substr(start, end - start);
        if ((content.starts_with("\"ID\",") || content.starts_with("ID,"))
            && content.find("Kernel Name") != std::string_view::npos)
            return HeaderLine { start, line };
        start = end + 1;
        ++line;
    }
    return std::nullopt;
}

struct Table {
    CsvTable csv;
    std::map<std::string, std::size_t> columns; // header name -> index
    int headerLine = 0;
};

std::optional<Table> tokenize(std::string_view text, const std::string &fileName)
{
    auto header = findHeader(text);
    if (!header)
        return std::nullopt;
    Table table;
    table.csv = tokenizeCsv(text.substr(header->offset), fileName, ',');
    shiftLines(table.csv, header->line - 1);
    if (table.csv.rows.empty())
        return std::nullopt;
    table.headerLine = table.csv.rows.front().line;
    const auto &fields = table.csv.rows.front().fields;
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

// A metric value as written, with where it was, converted on use.
struct RawValue {
    std::string text;
    std::string unit;
    int line = 0;
    int column = 0;
};

struct Launch {
    std::string id;
    std::string kernel;
    std::string device;
    std::string cc;
    int line = 0;
    std::map<std::string, RawValue> metrics; // metric name -> value (first one wins)
    std::map<std::string, std::map<std::string, RawValue>> labelled; // Body Item Label -> ...
};

struct Reader {
    const std::string &fileName;
    std::vector<Diagnostic> &diagnostics;

    // The value of a metric in SI base units; nullopt when absent or missing (n/a); a bad
    // number or unit is reported once, with its line and column.
    std::optional<double> value(
        const std::map<std::string, RawValue> &metrics, const std::string &name)
    {
        auto it = metrics.find(name);
        if (it == metrics.end())
            return std::nullopt;
        const RawValue &raw = it->second;
        auto number = parseReportNumber(raw.text);
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

std::string launchWho(const Launch &launch)
{
    return "launch " + launch.id + " (\"" + launch.kernel + "\")";
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

    // FLOPs per precision: 2·fma + add + mul (reference 004; FORMATS.md §1.9).
    struct Family {
        char letter;
        Precision precision;
    };
    std::map<Precision, double> perPrecision;
    bool anyCounter = false;
    for (const Family family : { Family { 'd', Precision::FP64 }, Family { 'f', Precision::FP32 },
             Family { 'h', Precision::FP16 } }) {
        double flops = 0.0;
        bool found = false;
        for (const auto &[op, weight] : { std::pair<std::string, double> { "add", 1.0 },
                 std::pair<std::string, double> { "mul", 1.0 },
                 std::pair<std::string, double> { "fma", 2.0 } }) {
            for (const std::string prefix : { "sm__", "smsp__" }) {
                if (auto v = get(prefix + "sass_thread_inst_executed_op_" + family.letter + op
                        + "_pred_on.sum")) {
                    flops += weight * *v;
                    found = true;
                    break;
                }
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
    if (dram && *dram > 0.0)
        point.bytes.push_back({ std::nullopt, *dram });
    if (l2 && *l2 > 0.0)
        point.bytes.push_back({ MemoryLevel::L2, *l2 });
    if (l1 && *l1 > 0.0)
        point.bytes.push_back({ MemoryLevel::L1, *l1 });

    // Time.
    std::optional<double> seconds = get("gpu__time_duration.sum");
    if (!seconds)
        seconds = get("Duration");
    if (!seconds) {
        auto cycles = get("sm__cycles_elapsed.avg");
        auto rate = get("sm__cycles_elapsed.avg.per_second");
        if (cycles && rate && *rate > 0.0)
            seconds = *cycles / *rate;
    }
    if (seconds && *seconds > 0.0)
        point.seconds = seconds;

    if (point.bytes.empty()) {
        reader.diagnostics.push_back({ Severity::Error, reader.fileName, launch.line, 0,
            launchWho(launch)
                + ": no byte counters (expected dram__bytes.sum, dram__bytes_read.sum + "
                  "dram__bytes_write.sum, lts__t_bytes.sum or l1tex__t_bytes.sum)" });
        return std::nullopt;
    }
    return point;
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

std::vector<Launch> launchesOfDetails(const Table &table, Reader &reader, int &ruleRows)
{
    const auto id = columnOf(table, "ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
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
    (void)reader;
    return launches;
}

std::vector<Launch> launchesOfRaw(const Table &table)
{
    const auto id = columnOf(table, "ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
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

} // namespace

std::optional<double> ncuUnitScale(std::string_view unit)
{
    if (unit.empty() || unit == "%")
        return 1.0;
    const auto part = [](std::string_view text) -> std::optional<double> {
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

PointsReadResult readNcuCsv(
    std::string_view text, const std::string &fileName, const NcuOptions &options)
{
    PointsReadResult result;
    auto table = tokenize(text, fileName);
    if (!table) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Nsight Compute CSV (expected a header line starting \"ID\",... with a "
            "\"Kernel Name\" column)" });
        return result;
    }
    for (auto &d : table->csv.diagnostics)
        result.diagnostics.push_back(d);
    if (hasErrors(table->csv.diagnostics))
        return result;
    Reader reader { fileName, result.diagnostics };
    const bool details = table->columns.contains("Metric Name");
    if (details) {
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
    int ruleRows = 0;
    const std::vector<Launch> launches
        = details ? launchesOfDetails(*table, reader, ruleRows) : launchesOfRaw(*table);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            ruleRows > 0 ? "only rule rows (advice text) and no metric values after the header "
                           "(expected rows with a Metric Name)"
                         : "no kernel launches after the header" });
        return result;
    }

    // A name shared by several launches gets the launch ID, so each point stays traceable.
    std::map<std::string, int> nameCount;
    for (const auto &launch : launches)
        ++nameCount[launch.kernel];
    std::vector<std::string> withoutFlops;
    int firstWithoutFlops = 0;
    for (const auto &launch : launches) {
        ++result.rowsRead;
        if (launch.kernel.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, launch.line, 0,
                "launch " + launch.id + ": empty kernel name (expected the Kernel Name column)" });
            ++result.rowsSkipped;
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
        if (nameCount[launch.kernel] > 1)
            point->name += " (ID " + launch.id + ")";
        if (noFlopCounters) {
            if (withoutFlops.empty())
                firstWithoutFlops = launch.line;
            withoutFlops.push_back(launch.id);
        }
        result.points.push_back(std::move(*point));
    }
    if (!withoutFlops.empty()) {
        std::string ids;
        for (const auto &id : withoutFlops)
            ids += (ids.empty() ? "" : ", ") + id;
        result.diagnostics.push_back({ Severity::Warning, fileName, firstWithoutFlops, 0,
            "no FLOP counters for launch " + ids
                + " (expected sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum "
                  "or tensor metrics): bytes and time kept, FLOPs 0" });
    }
    return result;
}

HardwareReadResult readNcuRooflineSection(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    auto table = tokenize(text, fileName);
    if (!table || !table->columns.contains("Body Item Label")
        || !table->columns.contains("Metric Name")) {
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
    int ruleRows = 0;
    const auto launches = launchesOfDetails(*table, reader, ruleRows);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            "no metric rows after the header (expected the roofline chart's rows)" });
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
        // "Operations" rows carry the unit "inst" but are per cycle (FORMATS.md §1.6).
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
