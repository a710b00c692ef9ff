// What `ridgepoint calibrate` found on measured runs (docs/MODEL.md "Calibration"): per operator
// and per operator class the achievable fractions of the compute and memory roofs and a
// per-kernel floor; per collective and rank layout a latency and a bus bandwidth for each
// message-size regime. Every figure has basis "calibrated"; the provenance says which files and
// rows it came from and how well it fits them. Plain data (no other Ridgepoint header), so a
// machine (core/model/hardware.h) can carry one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// The operator classes a calibration fits.
enum class OperatorClass { Gemm, Attention, Elementwise, Collective };
std::string_view operatorClassName(OperatorClass kind); // "gemm", "attention", ...
std::optional<OperatorClass> operatorClassFromName(std::string_view name); // case-insensitive

// How well a fit matches the rows it was fitted on: |predicted − measured| / measured.
struct FitError {
    std::size_t rows = 0;
    double median = 0.0;
    double p90 = 0.0;

    bool operator==(const FitError &) const = default;
};

// T = max(F' / (computeFraction·π), B / (memoryFraction·β)) + floor, where F' is the FLOPs a
// GEMM's tiles and waves make it do, each tile's weighed by its operand cost (F for other
// operators; docs/MODEL.md §15.2). A GEMM on the tile set adds overlapLoss times the shorter of
// the two times, and its B counts the weight's re-reads the L2 cannot hold, per tile.
struct KernelFit {
    std::string name; // the operator's name in its file, or the class name for a class's fit
    OperatorClass kind = OperatorClass::Elementwise;
    double computeFraction = 1.0; // of π
    double memoryFraction = 1.0; // of β
    double floorSeconds = 0.0; // per kernel
    // r (FLOP/B): a GEMM tile of intensity I = tm·tn/(tm+tn) costs 1 + r/I times its FLOPs, the
    // time its SM spends loading the operands; 0 for other operators and a single fixed tile.
    double operandCost = 0.0;
    // κ: the part of the shorter of the compute and memory times a GEMM tile does not hide
    // behind the longer; 0 for other operators and a single fixed tile.
    double overlapLoss = 0.0;
    FitError error;

    bool operator==(const KernelFit &) const = default;
};

// T = latency + busFactor·bytes / busBandwidth for messages from `fromBytes` to `toBytes`
// (a regime's protocol); no bus bandwidth when time does not grow with size there.
struct CollectiveRegime {
    double fromBytes = 0.0;
    double toBytes = 0.0;
    double latencySeconds = 0.0;
    std::optional<double> busBandwidth; // B/s

    bool operator==(const CollectiveRegime &) const = default;
};

struct CollectiveFit {
    std::string collective; // "all_reduce", "send_recv", ...
    std::int64_t ranks = 0;
    std::int64_t ranksPerNode = 0;
    std::vector<CollectiveRegime> regimes; // by increasing size
    FitError error;

    bool operator==(const CollectiveFit &) const = default;
};

struct Calibration {
    // Provenance: the files fitted, rows used and left out, the fit's error on them.
    std::vector<std::string> files;
    std::size_t rowsUsed = 0;
    std::size_t rowsLeftOut = 0;
    FitError error;
    // The roofs the fractions are of (names of the machine's ceilings, and their figures).
    std::string computeCeiling;
    double peak = 0.0; // FLOP/s
    std::string memoryCeiling;
    double bandwidth = 0.0; // B/s
    // GEMM tiles and the SMs (CUs) they are spread over; 0 SMs: no tile or wave quantization.
    // A tile of 0×0: per shape, the cheapest of the library tile set (kGemmTiles, fit.h).
    std::int64_t sms = 0;
    std::int64_t tileM = 64;
    std::int64_t tileN = 128;
    // The machine's L2 (bytes) a GEMM's weight re-reads may hit, on the tile set; 0: not known,
    // the weight is read once (docs/MODEL.md §15.2).
    double l2Bytes = 0.0;
    std::vector<KernelFit> operators; // by operator name
    std::vector<KernelFit> classes; // by class, for operators without a fit of their own
    std::vector<CollectiveFit> collectives;

    bool operator==(const Calibration &) const = default;
};

} // namespace ridgepoint
