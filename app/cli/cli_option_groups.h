// Option groups: the options several subcommands share, each declared once as a type that adds
// its QCommandLineOptions to a parser and reads them back into a typed request with checked
// values. A subcommand declares the groups it takes (cli_<command>.cpp, its `...Options` struct)
// and never looks an option up by its name: a new shared option is added to its group here, a
// subcommand's own option to that subcommand's struct.
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/readers.h"
#include "core/model/hardware.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace ridgepoint::cli {

// An option for tests and benchmarks, left out of --help.
QCommandLineOption hiddenOption(
    const QString &name, const QString &description, const QString &valueName = {});

// The option as the user types it, "--output" for { "o", "output" }: the name messages use.
QString dashed(const QCommandLineOption &option);

// The option's value when it is given.
std::optional<QString> givenValue(
    const QCommandLineParser &parser, const QCommandLineOption &option);

// A machine by preset name (case-insensitive, unique prefix) or hardware file (any ceiling
// format); nullopt after saying why, the message starting with `option` ("--hardware").
std::optional<Hardware> machineNamed(
    const QString &wanted, const QString &option, const ReadOptions &readOptions);

// Whether a --hardware (or `presets`) argument names a file rather than a preset: it ends in
// .json or a file (or folder) of that name exists. One rule for both, so `presets X` shows the
// machine `--hardware X` uses.
bool namesAFile(const QString &wanted);

// Every machine a machine file gives (any ceiling format), its problems said; empty after saying
// why (a session or a picture is not a machine file). machineNamed takes the first, and says
// so when there are several.
std::vector<Hardware> machinesInFile(const QString &path, const ReadOptions &readOptions);

// What the machine options say, as given: checked when the machine is made (machine()), after
// the inputs that may bring their own machine (a session, a trace) are read.
struct MachineRequest {
    std::optional<QString> hardware; // --hardware NAME|FILE
    std::optional<QString> peak; // --peak FLOP/s
    std::optional<QString> bandwidth; // --bandwidth B/s
    std::optional<QString> compute; // --compute NAME
    std::optional<QString> figures; // --figures measured|spec
    bool sustained = false; // --sustained

    // --hardware names the machine (else a session's, a trace's or --peak with --bandwidth).
    [[nodiscard]] bool namesMachine() const { return hardware.has_value(); }
    // --peak with --bandwidth describe a machine of their own.
    [[nodiscard]] bool describesMachine() const { return peak && bandwidth; }
    // --compute, or empty: the ceiling every point is held to.
    [[nodiscard]] std::string computeName() const;

    // The machine the options describe, with overrides applied; prints the reason and returns
    // nullopt when they do not describe one. Without --hardware the machine is `fallback` (a
    // session's) when there is one, else --peak with --bandwidth; failing all three is an
    // error. A --hardware file is read with `readOptions` (an ncu page's tensor and FP16 roofs
    // depend on them). Where a ceiling holds a spec and a measured figure, --figures (else
    // `figures`, a session's choice) picks the one the analysis uses (withFigures) before
    // --peak/--bandwidth replace any.
    [[nodiscard]] std::optional<Hardware> machine(const Hardware *fallback = nullptr,
        const ReadOptions &readOptions = {}, FigureChoice figures = FigureChoice::Measured) const;

    // Which compute ceiling the points use: --compute when given; the ceiling --peak replaced
    // (so a given peak is the one every point is held to); the single ceiling of a
    // --peak/--bandwidth machine; otherwise each point's own precision decides (empty name), as
    // it does on a session's machine (`sessionMachine`: the window opens sessions that way).
    [[nodiscard]] AnalysisOptions analysisOptions(
        const Hardware &hardware, bool sessionMachine = false) const;

    // Without --hardware the machine is one ceiling from --peak and --bandwidth: let it stand
    // for the precision the workload computes in.
    void adoptPrecision(Hardware &hardware, Precision precision) const;

    // Without --hardware or --peak with --bandwidth, the one of `files` that gives a machine and
    // no points (a hardware JSON, rocprof-compute's roofline.csv, ERT's output, Advisor's roofs,
    // a NERSC roofs file: told by content) is taken as --hardware and out of `files`, as the
    // window opens such a file as the machine; said on stderr. `ridgepoint analyze roofline.csv
    // pmc_perf.csv` then needs no option. False, after saying why, when two such files are given,
    // or one beside --hardware or --peak with --bandwidth: one machine at a time.
    [[nodiscard]] bool takeMachineFile(QStringList &files);
};

// --hardware NAME|FILE, --peak, --bandwidth, --compute, --sustained, --figures.
class MachineOptions
{
public:
    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] MachineRequest read(const QCommandLineParser &parser) const;

private:
    QCommandLineOption m_hardware { "hardware",
        "Machine: a preset name (case-insensitive, unique prefix) or a machine file (hardware "
        "JSON, ERT, rocprof-compute roofline.csv, Advisor roofs, ncu roofline section, ...).",
        "name|file" };
    QCommandLineOption m_peak { "peak",
        "Peak compute, e.g. \"989 TFLOP/s\" or 1.97e14. Replaces the chosen compute ceiling; "
        "alone, makes a one-ceiling machine.",
        "FLOP/s" };
    QCommandLineOption m_bandwidth { "bandwidth",
        "Memory bandwidth, e.g. \"3.35 TB/s\". Replaces the main-memory ceiling; alone, makes a "
        "one-ceiling machine.",
        "B/s" };
    QCommandLineOption m_compute { "compute", "Compute ceiling to use for every point, by name.",
        "name" };
    QCommandLineOption m_sustained { "sustained",
        "Use sustained peaks (the machine's sustained fraction, docs/MODEL.md section 4.5) "
        "instead of vendor peaks." };
    QCommandLineOption m_figures { "figures",
        "Where a ceiling holds two figures, which one the analysis uses: measured (the default, "
        "when the file has one) or spec (the datasheet's or derived figure).",
        "measured|spec" };
};

// What the profilers' files do not say themselves (core/io/readers.h ReadOptions): --per-kernel,
// --tensor-flops-per-inst, --half-fma-flops, --decimal-comma, --decimal-point, --lds-banks.
class ReadOptionGroup
{
public:
    void addTo(QCommandLineParser &parser) const;
    // The ReadOptions those options give (the readers' defaults where none is set); prints the
    // reason and returns nullopt on a bad value or a contradiction.
    [[nodiscard]] std::optional<ReadOptions> read(const QCommandLineParser &parser) const;
    // Any of them given (analyze's fast path leaves their warnings to the sequential one).
    [[nodiscard]] bool anyGiven(const QCommandLineParser &parser) const;

private:
    QCommandLineOption m_perKernel { "per-kernel",
        "One point per kernel name instead of one per launch (Nsight Compute) or per dispatch "
        "(rocprof-compute pmc_perf.csv): FLOPs, bytes and time summed over them, so intensity "
        "= sum(FLOP)/sum(bytes) and performance = sum(FLOP)/sum(time)." };
    QCommandLineOption m_tensorFlops { "tensor-flops-per-inst",
        "Nsight Compute: FLOP per sm__inst_executed_pipe_tensor instruction, 512 (default, "
        "V100) or e.g. 1024 (A100). Used when a file has no sm__ops_path_tensor_* operation "
        "counts, and for the tensor roof of an ncu page given as --hardware.",
        "N" };
    QCommandLineOption m_halfFma { "half-fma-flops",
        "Nsight Compute: FLOP per half-precision FMA thread instruction (..._hfma_pred_on): 2 "
        "(default; NERSC: 2*hfma + hadd + hmul) or 4 (ncu's own roofline, a packed HFMA2).",
        "2|4" };
    QCommandLineOption m_decimalComma { "decimal-comma",
        "Nsight Compute: numbers are written with a decimal comma (\"65,77\" = 65.77, "
        "\"27.595.520\" = 27595520). Default: told from each file." };
    QCommandLineOption m_decimalPoint { "decimal-point",
        "Nsight Compute: numbers are written with a decimal point, a comma only groups "
        "thousands (\"53,261,312\"). Default: told from each file." };
    QCommandLineOption m_ldsBanks { "lds-banks",
        "rocprof-compute pmc_perf.csv: LDS banks per compute unit, 32 (default, MI200 and "
        "MI300; lds_banks_per_cu in sysinfo.csv). LDS bytes = (SQ_LDS_IDX_ACTIVE - "
        "SQ_LDS_BANK_CONFLICT) * 4 B * N.",
        "N" };
};

} // namespace ridgepoint::cli
