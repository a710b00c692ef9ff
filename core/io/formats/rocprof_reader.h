// AMD rocprof-compute (Omniperf) workload files: roofline.csv (empirical ceilings, one row per
// GPU) and pmc_perf.csv (per-dispatch counters). Formulas: docs/FORMATS.md §4.
#pragma once

#include "core/io/read_options.h"
#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A first line starting Dispatch_ID, with a Kernel_Name column.
bool looksLikeRocprofPmcPerf(const Sniff &sniff);
// A first line starting device, with an HBMBw column.
bool looksLikeRocprofRoofline(const Sniff &sniff);

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
