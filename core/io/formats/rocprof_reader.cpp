#include "core/io/formats/rocprof_reader.h"

#include "core/io/formats/csv.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>
#include <array>
#include <map>

namespace ridgepoint {
namespace {

// Header name (lower case) -> column index; the first of repeated names wins.
std::map<std::string, std::size_t> columnsOf(const CsvRow &header)
{
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < header.fields.size(); ++i)
        columns.emplace(asciiLower(header.fields[i].text), i);
    return columns;
}

// The roofline.csv columns Ridgepoint reads (lower case): bandwidths in GB/s, peaks in
// GFLOP/s (GOP/s).
struct Known {
    std::string_view column; // lower case
    bool memory;
    MemoryLevel level;
    Precision precision;
    std::string_view name;
    std::string_view unit;
};
constexpr std::array<Known, 12> kKnown { {
    { "hbmbw", true, MemoryLevel::HBM, Precision::FP32, "HBM", "" },
    { "l2bw", true, MemoryLevel::L2, Precision::FP32, "L2", "" },
    { "l1bw", true, MemoryLevel::L1, Precision::FP32, "L1", "" },
    { "ldsbw", true, MemoryLevel::LDS, Precision::FP32, "LDS", "" },
    { "fp32flops", false, MemoryLevel::DRAM, Precision::FP32, "FP32 vector", "vector" },
    { "fp64flops", false, MemoryLevel::DRAM, Precision::FP64, "FP64 vector", "vector" },
    { "mfmabf16flops", false, MemoryLevel::DRAM, Precision::BF16, "BF16 MFMA", "matrix" },
    { "mfmaf16flops", false, MemoryLevel::DRAM, Precision::FP16, "FP16 MFMA", "matrix" },
    { "mfmaf32flops", false, MemoryLevel::DRAM, Precision::FP32, "FP32 MFMA", "matrix" },
    { "mfmaf64flops", false, MemoryLevel::DRAM, Precision::FP64, "FP64 MFMA", "matrix" },
    { "mfmai8ops", false, MemoryLevel::DRAM, Precision::INT8, "INT8 MFMA", "matrix" },
    { "mfmaf8flops", false, MemoryLevel::DRAM, Precision::FP8, "FP8 MFMA", "matrix" },
} };

// FP6/FP4 MFMA columns of newer builds have no Ridgepoint precision: listed as not used, with
// any other column but the Low/High spread.
void warnOfUnusedColumns(
    const CsvRow &header, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    std::vector<std::string> unused;
    for (std::size_t i = 1; i < header.fields.size(); ++i) {
        const std::string name = asciiLower(header.fields[i].text);
        const bool spread = name.ends_with("low") || name.ends_with("high");
        const bool known = std::any_of(
            kKnown.begin(), kKnown.end(), [&](const Known &k) { return k.column == name; });
        if (!spread && !known && !name.empty())
            unused.push_back(header.fields[i].text);
    }
    if (!unused.empty())
        diagnostics.push_back({ Severity::Warning, fileName, header.line, 0,
            "columns not used: " + joinedList(unused, "\"") });
}

} // namespace

bool looksLikeRocprofPmcPerf(const Sniff &sniff)
{
    const std::string &first = sniff.firstLineLower();
    return first.starts_with("dispatch_id,") && first.find("kernel_name") != std::string::npos;
}

bool looksLikeRocprofRoofline(const Sniff &sniff)
{
    const std::string &first = sniff.firstLineLower();
    return first.starts_with("device,") && first.find("hbmbw") != std::string::npos;
}

HardwareReadResult readRocprofRoofline(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (table.rows.empty() || table.rows.front().fields.empty()
        || asciiLower(table.rows.front().fields.front().text) != "device") {
        result.diagnostics.push_back({ Severity::Error, fileName, 1, 1,
            "not a rocprof-compute roofline.csv (expected a header starting "
            "device,HBMBw,...)" });
        return result;
    }
    const CsvRow &header = table.rows.front();
    warnOfUnusedColumns(header, fileName, result.diagnostics);
    const auto columns = columnsOf(header);
    for (std::size_t r = 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        Hardware hardware;
        const std::string device = row.text(0);
        hardware.name = "rocprof-compute roofline (GPU " + device + ")";
        hardware.vendor = "AMD";
        hardware.kind = "gpu";
        hardware.source = fileName + ":" + std::to_string(row.line)
            + ": rocprof-compute empirical roofline benchmark (GB/s, GFLOP/s)";
        bool rowOk = true;
        for (const Known &k : kKnown) {
            auto it = columns.find(std::string(k.column));
            const CsvField *field = it == columns.end() ? nullptr : row.field(it->second);
            if (!field)
                continue;
            auto number = parseReportNumber(field->text);
            if (!number) {
                result.diagnostics.push_back({ Severity::Error, fileName, row.line, field->column,
                    "column \"" + header.text(it->second) + "\": " + number.error() });
                rowOk = false;
                continue;
            }
            if (!*number || !(**number > 0.0))
                continue; // not measured on this GPU
            if (k.memory)
                hardware.memory.push_back(
                    { std::string(k.name), k.level, **number * 1e9, std::nullopt, true });
            else
                hardware.compute.push_back({ std::string(k.name), k.precision, std::string(k.unit),
                    **number * 1e9, false, std::nullopt, true });
        }
        if (!rowOk)
            continue;
        auto problems = validateHardware(hardware);
        if (!problems.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line, 0,
                "GPU " + device + ": " + problems.front() });
            continue;
        }
        stateBasis(
            hardware, measuredBy(hardware.source, "rocprof-compute roofline micro-benchmark"));
        result.machines.push_back(std::move(hardware));
    }
    if (result.machines.empty() && !hasErrors(result.diagnostics)) {
        result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
            "no GPU rows after the header (expected one row per device)" });
    }
    return result;
}

namespace {

// One dispatch's counters: a row of pmc_perf.csv, read by column name (any case). The first bad
// value is the row's error.
class Counters
{
public:
    Counters(
        const CsvRow &row, const CsvRow &header, const std::map<std::string, std::size_t> &columns)
        : m_row(row)
        , m_header(header)
        , m_columns(columns)
    { }

    // A counter's value; absent columns are nullopt.
    std::optional<double> get(const std::string &name)
    {
        auto it = m_columns.find(asciiLower(name));
        const CsvField *field = it == m_columns.end() ? nullptr : m_row.field(it->second);
        if (!field)
            return std::nullopt;
        auto number = parseReportNumber(field->text);
        if (number && *number && **number < 0.0)
            number = ridgepoint::Unexpected("\"" + field->text
                + "\" is negative (expected a counter or timestamp of zero or more)");
        if (!number) {
            if (error.empty()) {
                error = "column \"" + m_header.text(it->second) + "\": " + number.error();
                errorColumn = field->column;
            }
            return std::nullopt;
        }
        return *number;
    }
    double v(const std::string &name) { return get(name).value_or(0.0); }
    bool has(const std::string &lowerName) const { return m_columns.contains(lowerName); }

    std::string error;
    int errorColumn = 0;

private:
    const CsvRow &m_row;
    const CsvRow &m_header;
    const std::map<std::string, std::size_t> &m_columns;
};

// FLOP (rocprof-compute roofline_calc.py): 64 lanes per wavefront instruction, 512 per MFMA
// MOP; the precision with the most FLOPs is the point's.
void addFlops(KernelPoint &point, Counters &c)
{
    std::map<Precision, double> perPrecision;
    for (const auto &[suffix, precision] : { std::pair { "F16", Precision::FP16 },
             std::pair { "F32", Precision::FP32 }, std::pair { "F64", Precision::FP64 } }) {
        const std::string s = suffix;
        perPrecision[precision] += 64.0
            * (c.v("SQ_INSTS_VALU_ADD_" + s) + c.v("SQ_INSTS_VALU_MUL_" + s)
                + 2.0 * c.v("SQ_INSTS_VALU_FMA_" + s) + c.v("SQ_INSTS_VALU_TRANS_" + s));
    }
    for (const auto &[suffix, precision] :
        { std::pair { "F16", Precision::FP16 }, std::pair { "BF16", Precision::BF16 },
            std::pair { "F32", Precision::FP32 }, std::pair { "F64", Precision::FP64 } }) {
        perPrecision[precision] += 512.0 * c.v(std::string("SQ_INSTS_VALU_MFMA_MOPS_") + suffix);
    }
    double best = 0.0;
    for (const auto &[precision, flops] : perPrecision) {
        point.flops += flops;
        if (flops > best) {
            best = flops;
            point.precision = precision;
        }
    }
}

// Bytes at L1, L2, HBM and LDS.
void addBytes(KernelPoint &point, Counters &c, const RocprofOptions &options)
{
    if (auto accesses = c.get("TCP_TOTAL_CACHE_ACCESSES_sum"); accesses && *accesses > 0.0)
        point.bytes.push_back({ MemoryLevel::L1, *accesses * 64.0 });
    const double l2 = 64.0
        * (c.v("TCP_TCC_READ_REQ_sum") + c.v("TCP_TCC_WRITE_REQ_sum")
            + c.v("TCP_TCC_ATOMIC_WITH_RET_REQ_sum") + c.v("TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum"));
    if (l2 > 0.0)
        point.bytes.push_back({ MemoryLevel::L2, l2 });
    // HBM (rocprof-compute roofline_calc.py): read requests are 32 or 64 bytes on MI200
    // (TCC_EA_*); MI300 counts one EA channel per XCD (TCC_EA0_*) and its 128-byte reads in
    // TCC_BUBBLE_sum. Writes are 64 or 32 bytes on both.
    const bool mi300 = c.has("tcc_ea0_rdreq_sum");
    const std::string ea = mi300 ? "TCC_EA0_" : "TCC_EA_";
    const double rd32 = c.v(ea + "RDREQ_32B_sum");
    const double rd = c.v(ea + "RDREQ_sum");
    const double wr64 = c.v(ea + "WRREQ_64B_sum");
    const double wr = c.v(ea + "WRREQ_sum");
    const double rd128 = mi300 ? c.v("TCC_BUBBLE_sum") : 0.0;
    const double hbm = rd128 * 128.0 + rd32 * 32.0 + (rd - rd128 - rd32) * 64.0 + wr64 * 64.0
        + (wr - wr64) * 32.0;
    if (hbm > 0.0)
        point.bytes.push_back({ MemoryLevel::HBM, hbm });
    // LDS: active LDS cycles less bank-conflict cycles, each moving one 4-byte word per bank.
    const double lds
        = (c.v("SQ_LDS_IDX_ACTIVE") - c.v("SQ_LDS_BANK_CONFLICT")) * 4.0 * options.ldsBanksPerCu;
    if (lds > 0.0)
        point.bytes.push_back({ MemoryLevel::LDS, lds });
}

// One dispatch's point; its error in `c` otherwise.
KernelPoint pointOfDispatch(Counters &c, const RocprofOptions &options)
{
    KernelPoint point;
    addFlops(point, c);
    addBytes(point, c, options);
    const auto start = c.get("Start_Timestamp");
    const auto end = c.get("End_Timestamp");
    if (c.error.empty() && start && end && *end > *start)
        point.seconds = (*end - *start) * 1e-9;
    if (c.error.empty() && point.bytes.empty())
        c.error = "no memory traffic in the TCP/TCC/LDS counters (expected "
                  "TCP_TOTAL_CACHE_ACCESSES_sum, TCP_TCC_READ_REQ_sum, TCC_EA_RDREQ_sum, "
                  "TCC_EA0_RDREQ_sum or SQ_LDS_IDX_ACTIVE)";
    return point;
}

} // namespace

PointsReadResult readRocprofPmcPerf(
    std::string_view text, const std::string &fileName, const RocprofOptions &options)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (table.rows.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, "the file is empty" });
        return result;
    }
    const CsvRow &header = table.rows.front();
    const auto columns = columnsOf(header);
    for (const char *needed :
        { "dispatch_id", "kernel_name", "start_timestamp", "end_timestamp" }) {
        if (!columns.contains(needed)) {
            result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
                "not a rocprof-compute pmc_perf.csv: no \"" + std::string(needed)
                    + "\" column (expected Dispatch_ID,Kernel_Name,...,Start_Timestamp,"
                      "End_Timestamp)" });
            return result;
        }
    }
    const std::size_t kernelColumn = columns.at("kernel_name");
    std::map<std::string, int> nameCount;
    for (std::size_t r = 1; r < table.rows.size(); ++r) {
        if (const CsvField *kernel = table.rows[r].field(kernelColumn))
            ++nameCount[kernel->text];
    }
    std::vector<std::string> kernelOfPoint; // for sumDispatchesOfAKernel
    for (std::size_t r = 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        ++result.rowsRead;
        Counters counters(row, header, columns);
        KernelPoint point = pointOfDispatch(counters, options);
        const std::string dispatch = row.text(0);
        point.name = row.text(kernelColumn);
        if (nameCount[point.name] > 1)
            point.name += " (dispatch " + dispatch + ")";
        point.source = { fileName, row.line };
        if (counters.error.empty()) {
            if (auto problem = pointProblem(point))
                counters.error = *problem;
        }
        if (!counters.error.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line,
                counters.errorColumn, "dispatch " + dispatch + ": " + counters.error });
            ++result.rowsSkipped;
            continue;
        }
        kernelOfPoint.push_back(row.text(kernelColumn));
        result.points.push_back(std::move(point));
    }
    if (options.sumDispatchesOfAKernel)
        result.points = sumLaunches(std::move(result.points), kernelOfPoint);
    int zero = 0;
    for (const auto &p : result.points)
        zero += p.flops == 0.0 ? 1 : 0;
    if (zero > 0) {
        result.diagnostics.push_back({ Severity::Warning, fileName, header.line, 0,
            std::to_string(zero) + " of " + std::to_string(result.points.size())
                + " dispatches count 0 FLOPs (all SQ_INSTS_VALU counters are 0): kept, but an "
                  "intensity of 0 has no place on a log-log roofline" });
    }
    return result;
}

} // namespace ridgepoint
