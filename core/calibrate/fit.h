// Fitting a calibration to measured runs, and the times it predicts (docs/MODEL.md
// "Calibration"). Deterministic: the same rows give the same figures, bit for bit.
#pragma once

#include "core/calibrate/calibration.h"
#include "core/calibrate/measured.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ridgepoint {

// The tiles (M×N) GEMM libraries choose among per shape (CUTLASS's and cuBLAS's common
// thread-block tiles): a calibration with a 0×0 tile models each GEMM with the cheapest.
inline constexpr std::array<std::pair<std::int64_t, std::int64_t>, 6> kGemmTiles { { { 64, 64 },
    { 64, 128 }, { 128, 64 }, { 128, 128 }, { 128, 256 }, { 256, 128 } } };

struct CalibrateOptions {
    std::int64_t sms = 0; // SMs (CUs) of the machine; 0: no tile or wave quantization
    std::int64_t tileM = 0; // 0×0: per shape, the cheapest of kGemmTiles (--tile sets one)
    std::int64_t tileN = 0;
    Precision precision = Precision::BF16; // the compute roof the fractions are of
};

// The compute and memory roofs a calibration's fractions are of: the machine's fastest dense
// ceiling of `precision` (else its default) and its main memory.
ridgepoint::Expected<Calibration, std::string> calibrationRoofs(
    const Hardware &hardware, const CalibrateOptions &options);

// Fits every operator with at least 3 usable rows, every class likewise, and every collective
// layout (collective, ranks, ranks per node) with at least 3 sizes. Rows with `excluded` set
// are left out and counted. An error when nothing can be fitted or a fit does not converge.
ridgepoint::Expected<Calibration, std::string> calibrate(const std::vector<MeasuredRow> &rows,
    const Hardware &hardware, const CalibrateOptions &options);

// The FLOPs a GEMM's tiles and waves make the machine do: 2·K·tm·tn·SMs·waves, waves =
// ⌈⌈M/tm⌉·⌈N/tn⌉ / SMs⌉, times 1 + r/I for a tile of intensity I = tm·tn/(tm+tn) and operand
// cost r; with a 0×0 tile the least of kGemmTiles'. The row's own FLOPs for other operators or
// without SMs.
double effectiveFlops(
    const MeasuredRow &row, const Calibration &calibration, double operandCost = 0.0);

// The fraction of the compute roof a large GEMM reaches: c/(1 + r/I) with the largest tile
// intensity the calibration's tiles give; c for other fits.
double sustainedComputeFraction(const KernelFit &fit, const Calibration &calibration);

// A kernel fit's time for a row (seconds). A GEMM on the tile set: the least over the tiles of
// max(T_c, T_m) + κ·min(T_c, T_m), T_m with the weight re-reads the L2 cannot hold, plus f.
double kernelSeconds(const KernelFit &fit, const MeasuredRow &row, const Calibration &calibration);

// A collective fit's time for a message of `bytes` (seconds): the line of the regime whose sizes
// hold it; between two regimes the faster of the two; outside them all the nearest's
// (docs/MODEL.md §15.3).
double collectiveSeconds(const CollectiveFit &fit, double bytes);

// The fit that predicts a row: a GEMM its class's, else its operator's; other operators their own,
// else their class's (collectives: the layout's); nullptr, with why in `why`, when there is none.
const KernelFit *kernelFitFor(
    const Calibration &calibration, const MeasuredRow &row, std::string &why);
const CollectiveFit *collectiveFitFor(
    const Calibration &calibration, const MeasuredRow &row, std::string &why);

// The predicted time of a row, or why there is none.
ridgepoint::Expected<double, std::string> predictedSeconds(
    const Calibration &calibration, const MeasuredRow &row);

// Median and p90 (nearest rank: the ⌈0.9·n⌉-th smallest) of absolute relative errors.
FitError errorSummary(std::vector<double> errors);

} // namespace ridgepoint
