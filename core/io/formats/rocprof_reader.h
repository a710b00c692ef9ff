// AMD rocprof-compute (Omniperf) workload files: roofline.csv (empirical ceilings, one row per
// GPU) and pmc_perf.csv (per-dispatch counters). Formulas: docs/FORMATS.md §4.
#pragma once

#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"

#include <string>
#include <string_view>

namespace ridgepoint {

struct RocprofOptions {
    // LDS banks per compute unit, each 4 bytes wide: 32 on MI200 and MI300 (rocprof-compute's
    // lds_banks_per_cu, from sysinfo.csv), which is not in pmc_perf.csv itself.
    double ldsBanksPerCu = 32.0;
    // One point per Kernel_Name instead of one per dispatch: FLOPs, bytes and time summed over
    // the dispatches (sumLaunches; rocprof-compute's per-kernel roofline divides the same sums
    // by the number of calls, which moves no point).
    bool sumDispatchesOfAKernel = false;
};

// One machine per `device` row: *Bw columns in GB/s (HBM, L2, L1, LDS), *Flops/*Ops columns in
// GFLOP/s (GOP/s). Columns are keyed by name, ignoring case (real headers have typos such as
// hbmBwHigh); the Low/High spread columns and unknown columns are left out.
HardwareReadResult readRocprofRoofline(std::string_view text, const std::string &fileName);

// One point per dispatch: FLOP = 64·(ADD + MUL + 2·FMA + TRANS) over F16/F32/F64 plus
// 512·MFMA_MOPS; L1, L2, HBM and LDS bytes from the TCP/TCC/SQ_LDS counters (the MI200 HBM
// formula from TCC_EA_*, the MI300 one from TCC_EA0_* and TCC_BUBBLE_sum);
// time = End_Timestamp − Start_Timestamp (ns).
PointsReadResult readRocprofPmcPerf(
    std::string_view text, const std::string &fileName, const RocprofOptions &options = {});

} // namespace ridgepoint
