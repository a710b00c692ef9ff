// Nsight Compute ceilings: the SpeedOfLight_RooflineChart section export (peak operations per
// cycle × SM frequency, bytes per cycle × DRAM frequency), or the peak metrics of ncu's roofline
// as columns of a raw page or rows of a details page (docs/FORMATS.md §1.6, §1.9).
#include "core/io/formats/ncu_numbers.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/ncu_table.h"

#include <array>

namespace ridgepoint {
namespace {

using namespace ncu;

// The machine's peaks from ncu's roofline metrics when they are a raw page's columns or a
// details page's rows (docs/FORMATS.md §1.9, method 2; pyroofline).
Hardware peaksOfMetrics(const Launch &launch, MetricReader &reader, const NcuOptions &options)
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

// The first launch whose metrics give a compute and a memory roof (a failed launch has nan
// everywhere).
void machineOfPeakMetrics(const std::vector<Launch> &launches, const Table &table,
    MetricReader &reader, const NcuOptions &options, HardwareReadResult &result)
{
    const std::string &fileName = reader.fileName;
    for (const Launch &launch : launches) {
        Hardware hardware = peaksOfMetrics(launch, reader, options);
        if (hardware.compute.empty() || hardware.memory.empty())
            continue;
        if (hasErrors(result.diagnostics))
            return;
        hardware.name = "Nsight Compute peaks (device " + launch.device + ", CC " + launch.cc + ")";
        hardware.vendor = "NVIDIA";
        hardware.kind = "gpu";
        hardware.source = fileName + ":" + std::to_string(launch.line)
            + ": ncu roofline metrics (peak per cycle × cycles per second: "
              "…peak_sustained × …cycles_elapsed.avg.per_second)";
        stateBasis(hardware,
            derivedBy(hardware.source, "peak per cycle × cycles per second, as ncu reports them"));
        keepValidMachine(std::move(hardware), fileName, result);
        return;
    }
    if (!hasErrors(result.diagnostics)) {
        result.diagnostics.push_back({ Severity::Error, fileName, table.headerLine, 0,
            "no peak metrics in this Nsight Compute file: it gives points, not ceilings "
            "(expected sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained "
            "with sm__cycles_elapsed.avg.per_second and dram__bytes.sum.peak_sustained with "
            "dram__cycles_elapsed.avg.per_second, or the SpeedOfLight_RooflineChart section "
            "export)" });
    }
}

// The section's roofs under each "... Precision Roofline" label.
void addSectionRoofs(const Launch &launch, MetricReader &reader, Hardware &hardware)
{
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
}

void machineOfSection(
    const std::vector<Launch> &launches, MetricReader &reader, HardwareReadResult &result)
{
    const std::string &fileName = reader.fileName;
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
    addSectionRoofs(launch, reader, hardware);
    if (hardware.compute.empty() || hardware.memory.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, launch.line, 0,
            std::string("no ") + (hardware.compute.empty() ? "compute" : "memory")
                + " ceiling in this section (expected \"Theoretical Predicated-On FFMA "
                  "Operations\" with \"SM Frequency\" and \"Theoretical DRAM Bytes Accessible\" "
                  "with \"DRAM Frequency\" under a \"... Precision Roofline\" label)" });
        return;
    }
    stateBasis(hardware,
        derivedBy(hardware.source,
            "peak operations per cycle × SM frequency; bytes per cycle × DRAM "
            "frequency, as the section reports them"));
    keepValidMachine(std::move(hardware), fileName, result);
}

} // namespace

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
    result.diagnostics = table->csv.diagnostics;
    if (hasErrors(table->csv.diagnostics))
        return result;
    MetricReader reader { fileName, result.diagnostics };
    reader.decimalComma = readsDecimalComma(*table, options, fileName, nullptr);
    int ruleRows = 0;
    const auto launches = raw ? launchesOfRaw(*table)
        : table->kind == HeaderKind::Summary
        ? launchesOfSummary(*table, fileName, result.diagnostics, ruleRows)
        : launchesOfDetails(*table, ruleRows);
    if (launches.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table->headerLine, 0,
            "no metric rows after the header (expected the roofline chart's rows)" });
        return result;
    }
    if (section)
        machineOfSection(launches, reader, result);
    else
        machineOfPeakMetrics(launches, *table, reader, options, result);
    return result;
}

} // namespace ridgepoint
