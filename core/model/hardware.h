// A machine: its compute ceilings (flat roofs) and memory ceilings (slanted roofs).
#pragma once

#include "core/model/boxed.h"
#include "core/model/expected.h"
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgepoint {

struct Calibration; // core/calibrate/calibration.h

// FP6 and FP4 are the OCP microscaling element types (MXFP6/MXFP4, NVFP4): 0.75 and 0.5 bytes.
enum class Precision { FP64, FP32, TF32, BF16, FP16, FP8, FP6, FP4, INT8, INT4 };

// Levels are spelled exactly so in files and output: L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN,
// LDS. LDS is the on-chip scratchpad beside L1 that kernels address directly: AMD's Local Data
// Share, NVIDIA's shared memory, Intel's Shared Local Memory (SLM).
enum class MemoryLevel { L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN, LDS };

std::string_view precisionName(Precision precision); // "fp64", "bf16", ...
std::optional<Precision> precisionFromName(std::string_view name); // case-insensitive
std::string_view memoryLevelName(MemoryLevel level); // "HBM", "PCIe", ...
std::optional<MemoryLevel> memoryLevelFromName(std::string_view name); // case-insensitive
// Main memory (DRAM, HBM) as opposed to caches and links between chips.
bool isMainMemory(MemoryLevel level);
// Links between chips or hosts (PCIe, NVLink, ICI, DCN).
bool isNetwork(MemoryLevel level);

// What a ceiling's figure rests on (docs/FILES.md, "Provenance"). Unstated is what a file from
// before provenance existed (hardware version 1) says when it names no basis.
enum class Basis { Unstated, Spec, Derived, Measured };
std::string_view basisName(Basis basis); // "unstated", "spec", "derived", "measured"
std::optional<Basis> basisFromName(std::string_view name); // case-insensitive

// Where one figure comes from. Every built-in preset ceiling has a basis other than Unstated and
// a source; derived figures give their formula, measured ones their tool, date and host.
struct Provenance {
    Basis basis = Basis::Unstated;
    std::string source; // document and table/section: "NVIDIA H100 datasheet, table 1"
    std::string url; // a public address of that document
    std::string accessed; // the date the source was read, "2026-11-26"
    std::string formula; // derived: "108 SM × 4 × 32 B/clk × 1.41 GHz"
    std::string tool; // measured: "ridgepoint measure 0.4", "likwid-bench 5.3"
    std::string date; // measured: when
    std::string host; // measured: where
    std::string clock; // the clock the figure assumes: "base", "boost", "sustained", or empty
    std::optional<double> clockMHz; // that clock, when stated
    std::string scope; // "die", "package", "node", "chip", "core" ... or empty
    std::string notes; // disagreements between sources, caveats

    bool operator==(const Provenance &) const = default;
};

// A second figure for the same ceiling: a measured value beside a spec one (or the reverse).
// The chart draws both; Hardware::figures picks the one the analysis uses.
struct AlternateFigure {
    double value = 0.0; // FLOP/s or B/s, as the ceiling's own figure
    Provenance provenance;

    bool operator==(const AlternateFigure &) const = default;
};

// Which figure the analysis uses when a ceiling holds two.
enum class FigureChoice { Measured, Spec };
std::string_view figureChoiceName(FigureChoice choice); // "measured", "spec"
std::optional<FigureChoice> figureChoiceFromName(std::string_view name); // case-insensitive

struct ComputeCeiling {
    std::string name; // "BF16 tensor"
    Precision precision = Precision::FP32;
    std::string unit; // "tensor", "vector", "scalar", "matrix", ...
    double peak = 0.0; // FLOP/s (OP/s for integer precisions), dense
    bool sparse = false; // a 2:4-sparsity figure: drawn and labelled, never the default roof
    std::optional<double> sustainedFraction; // overrides Hardware::sustainedFraction
    bool visible = true;
    Provenance provenance {}; // of `peak`
    std::optional<AlternateFigure> alternate {}; // the other figure, when both are known
};

// A tensor or matrix unit (NVIDIA's tensor cores, AMD's matrix cores, a TPU's MXU): its unit
// names one ("tensor", "matrix"), as opposed to vector and scalar units. Case-insensitive.
bool isMatrixUnit(const ComputeCeiling &ceiling);

struct MemoryCeiling {
    std::string name; // "HBM3"
    MemoryLevel level = MemoryLevel::DRAM;
    double bandwidth = 0.0; // B/s
    std::optional<double> sustainedFraction;
    bool visible = true;
    Provenance provenance {}; // of `bandwidth`
    std::optional<AlternateFigure> alternate {}; // the other figure, when both are known
};

// ---- Limits beyond the two roofs (docs/MODEL.md §12-§14): on-chip capacities for the I/O lower
// bound, the launch latency and per-level latencies for the latency floor, and the energy model.
// Each figure carries its provenance like a ceiling's. core/model/machine_limits.cpp.

// How many bytes of an on-chip level (L1, LDS, L2, L3) a kernel can keep its data in.
struct MemoryCapacity {
    MemoryLevel level = MemoryLevel::L2;
    std::string name; // "shared memory", "L2"
    double bytes = 0.0;
    std::string per; // what one such memory serves: "sm", "cu", "core", "xcd", "die" or "chip"
    Provenance provenance {};

    bool operator==(const MemoryCapacity &) const = default;
};

// A time with its provenance: the launch latency, or the latency of one memory level.
struct LatencyFigure {
    MemoryLevel level = MemoryLevel::HBM; // unused for the launch latency
    double seconds = 0.0;
    Provenance provenance {};

    bool operator==(const LatencyFigure &) const = default;
};

// How many SMs (NVIDIA), CUs (AMD) or cores the chip spreads a kernel's blocks over: a GEMM's
// tiles fill them in waves (docs/MODEL.md §15.2), so a calibration counts its waves over them.
struct ComputeUnits {
    std::int64_t count = 0;
    std::string kind; // "sm", "cu" or "core"
    Provenance provenance {};

    bool operator==(const ComputeUnits &) const = default;
};

// Choi, Bedard, Fowler and Vuduc's energy roofline (IPDPS 2013): a FLOP of a precision costs
// perFlop J, a byte moved at a level perByte J, and the chip draws staticWatts all the time;
// powerCapWatts bounds the power it may draw. Missing entries mean "not known", never 0.
struct EnergyModel {
    std::optional<double> staticWatts; // P0, W
    std::optional<double> powerCapWatts; // W
    std::vector<std::pair<Precision, double>> perFlop; // J per FLOP
    std::vector<std::pair<MemoryLevel, double>> perByte; // J per byte
    Provenance provenance {};

    std::optional<double> flopEnergy(Precision precision) const;
    std::optional<double> byteEnergy(MemoryLevel level) const;
    bool operator==(const EnergyModel &) const = default;
};

struct MachineLimits {
    std::vector<MemoryCapacity> capacities; // empty: no I/O bound (no tiling wall)
    std::optional<LatencyFigure> launchLatency; // none: no latency floor
    std::vector<LatencyFigure> levelLatencies; // per memory level, where known
    std::optional<EnergyModel> energy; // none: no energy figures
    std::optional<ComputeUnits> computeUnits; // none: `calibrate` quantizes waves only with --sms

    bool empty() const;
    bool operator==(const MachineLimits &) const = default;
};

// Levels a capacity may be given for: the on-chip ones (L1, LDS, L2, L3).
bool isOnChip(MemoryLevel level);
// Why the limits cannot be used (zero, negative or absurd values, a capacity of a level not on
// chip, a level given twice, a power cap not above the static power), each with the reason and
// the accepted range. Empty when they can. Ranges: core/model/machine_limits.cpp.
std::vector<std::string> validateLimits(const MachineLimits &limits);

struct Hardware {
    std::string name; // "NVIDIA H100 SXM5 80GB"
    std::vector<std::string> aliases; // "H100", matched like the name
    std::string vendor;
    std::string kind; // "gpu", "tpu", "cpu"
    std::string source; // citation of where the numbers come from
    std::string notes; // conventions and caveats worth showing to a user
    std::optional<double> sustainedFraction; // fraction of peak reached in practice (MODEL.md §4.5)
    std::string defaultCompute; // name of the compute ceiling used by default
    std::vector<ComputeCeiling> compute;
    std::vector<MemoryCeiling> memory;
    // Achievable fractions, floors and collective regimes fitted on measured runs (`ridgepoint
    // calibrate`, docs/MODEL.md "Calibration"), when the machine has been calibrated.
    // Declared only: include core/calibrate/calibration.h to make or read one.
    Boxed<Calibration> calibration;
    MachineLimits limits; // beyond the two roofs (docs/MODEL.md §12-§14)

    const ComputeCeiling *findCompute(std::string_view name) const; // case-insensitive
    const MemoryCeiling *findMemory(std::string_view name) const; // case-insensitive
    // The ceiling used for a point when nothing else is said: `defaultCompute` unless it names a
    // 2:4-sparse ceiling, else the fastest dense ceiling; nullptr when there is no dense one.
    const ComputeCeiling *defaultComputeCeiling() const;
    // The fastest dense visible ceiling of a precision, or nullptr.
    const ComputeCeiling *computeFor(Precision precision) const;
    // The first visible memory ceiling of a level (files list the primary one first), or nullptr.
    const MemoryCeiling *memoryFor(MemoryLevel level) const;
    // The main-memory ceiling (HBM or DRAM) that plain "bytes" are counted against.
    const MemoryCeiling *mainMemory() const;
};

// The copy the analysis uses: where a ceiling holds a spec and a measured figure, `choice` says
// which one becomes its peak/bandwidth (and provenance); the other stays as the alternate.
Hardware withFigures(const Hardware &hardware, FigureChoice choice);

// Ridge (knee) intensity of a pair: π/β in FLOP/B.
double ridgeIntensity(const ComputeCeiling &compute, const MemoryCeiling &memory);

// Sustained values: the ceiling's own fraction, else the machine's, else 1 (the peak).
double sustainedPeak(const Hardware &hardware, const ComputeCeiling &ceiling);
double sustainedBandwidth(const Hardware &hardware, const MemoryCeiling &ceiling);
// A copy whose peaks and bandwidths are the sustained values (fractions folded in).
Hardware withSustainedPeaks(const Hardware &hardware);

// The source of a figure typed on the command line (basis unstated).
inline constexpr std::string_view kGivenOnCommandLine
    = "given on the command line (--peak/--bandwidth)";

// A machine of one compute and one memory ceiling, for `--peak` and `--bandwidth` alone.
Hardware makeSimpleMachine(double peak, double bandwidth);
// The machine with one compute ceiling's peak (named, else the default) and/or the main
// memory's bandwidth replaced, renamed "Custom (from NAME)" so nobody mistakes it for the preset.
ridgepoint::Expected<Hardware, std::string> withOverrides(const Hardware &hardware,
    std::optional<double> peak, std::optional<double> bandwidth, std::string_view computeName = {});

// Checks that a machine can be analysed: a name, at least one compute and one memory ceiling,
// positive finite peaks and bandwidths inside the accepted range (core/model/value_ranges.h:
// [1, 1e21] per second, sustained values included), unique ceiling names, fractions in (0, 1],
// a known default.
std::vector<std::string> validateHardware(const Hardware &hardware);

} // namespace ridgepoint
