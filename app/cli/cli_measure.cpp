#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"

#include "core/io/file_write.h"
#include "core/model/units.h"
#include "core/presets/presets.h"
#include "core/report/report.h"
#include "measure/measure.h"

#include <QFile>
#include <QFileInfo>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace ridgepoint::cli {
namespace {

std::atomic<bool> g_interrupted { false };

extern "C" void onInterrupt(int)
{
    g_interrupted = true;
}

std::string threadsWord(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string picojoules(double joules)
{
    return formatSignificant(joules * 1e12, 3) + " pJ";
}

// "Energy (RAPL package-0): static power 21.5 W, FP64 FLOP 41.2 pJ, ..." (docs/MEASURE.md,
// "Energy"), or why there is no energy model.
std::string energyText(const Hardware &hardware, const Measurement &m)
{
    const auto &energy = hardware.limits.energy;
    if (!energy || !energy->staticWatts)
        return "Energy: not measured: "
            + (m.energy.unavailable.empty() ? std::string("no energy fit") : m.energy.unavailable)
            + "\n\n";
    std::string text = "Energy (" + m.energy.counters + "; " + energy->provenance.formula
        + "):\n  static power " + formatSignificant(*energy->staticWatts, 3) + " W";
    for (const auto &[precision, joules] : energy->perFlop)
        text += ", " + std::string(precisionName(precision)) + " FLOP " + picojoules(joules);
    for (const auto &[level, joules] : energy->perByte)
        text += ", " + std::string(memoryLevelName(level)) + " byte " + picojoules(joules);
    if (energy->powerCapWatts)
        text += ", power cap " + formatSignificant(*energy->powerCapWatts, 3) + " W";
    text += "\n";
    if (!energy->provenance.notes.empty())
        text += "  (" + energy->provenance.notes + ")\n";
    return text + "\n";
}

std::string measurementTable(const Hardware &hardware, const Measurement &m, const QString &file)
{
    std::string text = hardware.name + "\n";
    text += "CPU " + m.cpuModel + ", " + std::to_string(m.hardwareThreads)
        + " hardware threads, widest ISA " + m.isa + ", measured in "
        + formatQuantity(m.elapsedSeconds, Dimension::Time, 3) + " on " + m.date + "\n";
    text += "Reported caches (the levels are named by these sizes): "
        + describeCaches(m.reportedCaches) + "\n";
    text += "Bytes counted: " + m.byteCounting + ".\n\n";

    std::vector<std::vector<std::string>> rows { { "Compute", "1 thread", threadsWord(m.threads),
        "median (" + threadsWord(m.threads) + ")" } };
    auto findCompute = [&](const ComputeSample &like, int threads) -> const ComputeSample * {
        for (const auto &c : m.compute) {
            if (c.precision == like.precision && c.isa == like.isa && c.simd == like.simd
                && c.fma == like.fma && c.threads == threads)
                return &c;
        }
        return nullptr;
    };
    for (const auto &c : m.compute) {
        if (c.threads != 1)
            continue;
        const auto *all = findCompute(c, m.threads);
        std::string name = std::string(c.precision == Precision::FP64 ? "FP64 " : "FP32 ")
            + (c.simd ? c.isa + (c.fma ? " FMA" : " mul+add")
                      : std::string(c.fma ? "scalar FMA" : "scalar"));
        rows.push_back({ name, formatQuantity(c.best, Dimension::FlopRate),
            all ? formatQuantity(all->best, Dimension::FlopRate) : "",
            all ? formatQuantity(all->median, Dimension::FlopRate) : "" });
    }
    if (rows.size() > 1)
        text += alignedTable(rows, { false, true, true, true }) + "\n";

    rows = { { "Memory", "1 thread", threadsWord(m.threads),
        "working sets (" + threadsWord(m.threads) + ")" } };
    for (auto kernel : { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad }) {
        for (const auto &p : m.plateaus) {
            if (p.kernel != kernel || p.threads != m.threads)
                continue;
            std::string one;
            for (const auto &q : m.plateaus) {
                if (q.kernel == kernel && q.threads == 1 && q.plateau.level == p.plateau.level)
                    one = formatQuantity(q.plateau.bandwidth, Dimension::ByteRate);
            }
            rows.push_back({ std::string(memoryLevelName(p.plateau.level)) + " "
                    + std::string(memoryKernelName(kernel)),
                m.threads == 1 ? formatQuantity(p.plateau.bandwidth, Dimension::ByteRate) : one,
                formatQuantity(p.plateau.bandwidth, Dimension::ByteRate),
                formatBinarySize(p.plateau.firstWorkingSet) + " - "
                    + formatBinarySize(p.plateau.lastWorkingSet) });
        }
    }
    if (rows.size() > 1)
        text += alignedTable(rows, { false, true, true, false }) + "\n";
    for (const auto &warning : m.warnings)
        text += "Warning: " + warning + "\n";
    if (!m.warnings.empty())
        text += "\n";
    text += energyText(hardware, m);
    if (m.spec) {
        rows = { { "Measured vs spec", threadsWord(m.threads), "spec (" + m.spec->name + ")",
            "measured / spec" } };
        for (const auto &row : compareWithSpec(m)) {
            if (row.specName.empty())
                continue;
            const Dimension unit = row.compute ? Dimension::FlopRate : Dimension::ByteRate;
            rows.push_back({ row.measuredName, formatQuantity(row.measured, unit),
                formatQuantity(row.spec, unit) + " " + row.specName,
                formatSignificant(100.0 * row.measured / row.spec, 3) + " %" });
        }
        if (rows.size() > 1)
            text += alignedTable(rows, { false, true, false, true }) + "\n";
        text += "Spec ceilings from the preset \"" + m.spec->name
            + "\" are in the file as (spec); the spec is for the whole chip.\n";
    }
    if (!file.isEmpty())
        text += "Wrote " + QFileInfo(file).absoluteFilePath().toStdString()
            + " (use it with: ridgepoint analyze --hardware FILE.json)\n";
    return text;
}

// What measure's options ask for, checked.
struct MeasureRequest {
    MeasureOptions options;
    QString output; // empty: none
    bool json = false;
};

// measure's options, in the order --help lists them (the hidden ones last).
struct MeasureCommandOptions {
    QCommandLineOption quick { "quick", "Spend about 10 seconds instead of about 60." };
    QCommandLineOption threads { "threads",
        "Threads for the all-threads runs (default: every CPU).", "N" };
    QCommandLineOption output { { "o", "output" },
        "Write the hardware file (with the measurement).", "FILE.json" };
    QCommandLineOption json { "json", "Print the hardware file instead of a table." };
    QCommandLineOption budget
        = hiddenOption("budget", "Time budget in seconds (tests use a small one).", "SECONDS");
    QCommandLineOption maxIsa = hiddenOption(
        "max-isa", "Widest instruction set to use: portable, sse2, avx2, avx512.", "ISA");
    // The working sets of the sweep (bench/compare_likwid.sh times the same sizes as
    // likwid-bench). Byte units: "1GB" is 1e9 B, "1GiB" 2^30 B.
    QCommandLineOption sweepFrom
        = hiddenOption("sweep-from", "Smallest working set of the sweep (default 4 KiB).", "SIZE");
    QCommandLineOption sweepTo = hiddenOption(
        "sweep-to", "Largest working set of the sweep (default: from the caches).", "SIZE");

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<MeasureRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<MeasureOptions> readMeasure(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readSweep(const QCommandLineParser &parser, MeasureOptions &options) const;
};

void MeasureCommandOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Measure this machine's ceilings: bandwidth per memory level (load, copy, triad over "
        "working sets from 4 KiB to several times the last-level cache) and peak FLOP/s (FP64 and "
        "FP32, scalar and SIMD, with and without FMA), on 1 thread and on all of them. The result "
        "is a hardware file like the presets'. Byte counts leave out write-allocate traffic. "
        "Where the machine has RAPL energy counters (/sys/class/powercap, readable by root), the "
        "energy of the runs gives the static power and the energy of a FLOP and of a byte.");
    parser.addOptions({ quick, threads, output, json, budget, maxIsa, sweepFrom, sweepTo });
}

// --sweep-from and --sweep-to into `options`; false after saying why.
bool MeasureCommandOptions::readSweep(
    const QCommandLineParser &parser, MeasureOptions &options) const
{
    for (const auto &[option, field] : { std::pair { &sweepFrom, &options.minWorkingSet },
             std::pair { &sweepTo, &options.maxWorkingSet } }) {
        const auto given = givenValue(parser, *option);
        if (!given)
            continue;
        const auto size = parsePositiveQuantity(given->toStdString(), Dimension::Bytes);
        if (!size || *size < 1024.0 || *size > 1e12) {
            err() << dashed(*option) << ": expected a size from 1 KiB to 1 TB, got \"" << *given
                  << "\"" << Qt::endl;
            return false;
        }
        *field = static_cast<std::uint64_t>(*size);
    }
    if (options.maxWorkingSet != 0 && options.maxWorkingSet < options.minWorkingSet) {
        err() << "--sweep-to is smaller than --sweep-from" << Qt::endl;
        return false;
    }
    return true;
}

// What the options ask to measure, with the spec of a preset naming this CPU; nullopt (after
// saying why) on a bad value.
std::optional<MeasureOptions> MeasureCommandOptions::readMeasure(
    const QCommandLineParser &parser) const
{
    MeasureOptions options;
    options.budgetSeconds = parser.isSet(quick) ? 10.0 : 60.0;
    if (const auto given = givenValue(parser, budget)) {
        bool ok = false;
        options.budgetSeconds = given->toDouble(&ok);
        if (!ok || !(options.budgetSeconds > 0.0) || options.budgetSeconds > 3600.0) {
            err() << "--budget: expected seconds between 0 and 3600, got \"" << *given << "\""
                  << Qt::endl;
            return std::nullopt;
        }
    }
    if (const auto given = givenValue(parser, threads)) {
        bool ok = false;
        options.threads = given->toInt(&ok);
        if (!ok || options.threads < 1 || options.threads > 1024) {
            err() << "--threads: expected a number from 1 to 1024, got \"" << *given << "\""
                  << Qt::endl;
            return std::nullopt;
        }
    }
    if (!readSweep(parser, options))
        return std::nullopt;
    options.maxIsa = parser.value(maxIsa).toStdString();
    options.spec = findSpecForCpu(PresetDatabase::builtin().machines(), detectCpuModel());
    return options;
}

std::optional<MeasureRequest> MeasureCommandOptions::read(const QCommandLineParser &parser) const
{
    if (!parser.positionalArguments().isEmpty()) {
        err() << "measure takes no file arguments" << Qt::endl;
        return std::nullopt;
    }
    auto options = readMeasure(parser);
    if (!options)
        return std::nullopt;
    return MeasureRequest { std::move(*options), parser.value(output), parser.isSet(json) };
}

// Measures with each new stage on stderr; Ctrl+C cancels.
Expected<MeasureResult, std::string> measureWithProgress(const MeasureOptions &options)
{
    g_interrupted = false;
    const auto previous = std::signal(SIGINT, onInterrupt);
    std::string lastStage;
    auto result = measureMachine(
        options,
        [&](const MeasureProgress &progress) {
            if (progress.stage != lastStage) {
                lastStage = progress.stage;
                err() << QString("[%1%] ").arg(static_cast<int>(progress.fraction * 100.0), 3)
                      << QString::fromStdString(progress.stage) << Qt::endl;
            }
            return true;
        },
        &g_interrupted);
    std::signal(SIGINT, previous);
    return result;
}

// Writes `json` to `output` with the core writer (a failed write leaves an old file as it was;
// a device or FIFO is written through); an empty string, else why it failed.
QString writeHardwareFile(const QString &output, const std::string &json)
{
    const auto written = writeOutputFile(output.toStdString(), json);
    return written ? QString() : QString::fromStdString(written.error());
}

} // namespace

int runMeasure(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(MeasureCommandOptions(), arguments, status);
    if (!request)
        return status;
    const MeasureOptions &options = request->options;

    // The output is checked before the 10-60 s run, not found unwritable after it.
    const QString &output = request->output;
    if (!output.isEmpty()) {
        if (const QString problem = outputProblem(output); !problem.isEmpty()) {
            err() << "measure: " << problem << Qt::endl;
            return kExitBadInput;
        }
    }
    const auto result = measureWithProgress(options);
    if (!result) {
        err() << "measure: " << QString::fromStdString(result.error()) << Qt::endl;
        return result.error().starts_with("unknown instruction") ? kExitBadInput : kExitFailure;
    }
    const std::string json = writeMeasuredHardwareJson(result->hardware, result->measurement);
    const QString writeError = output.isEmpty() ? QString() : writeHardwareFile(output, json);
    // The results are printed even when the file could not be written: the run is not lost.
    out() << QString::fromStdString(request->json
            ? json
            : measurementTable(
                result->hardware, result->measurement, writeError.isEmpty() ? output : QString()));
    out().flush();
    if (!writeError.isEmpty()) {
        err() << "measure: " << writeError << " (the results are printed above; nothing was "
              << "written, any older file there is unchanged)" << Qt::endl;
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace ridgepoint::cli
