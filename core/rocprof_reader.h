// AMD rocprof-compute (Omniperf) workload files: roofline.csv (empirical ceilings, one row per
// GPU) and pmc_perf.csv (per-dispatch counters). Formulas: docs/FILES.md, FORMATS.md §4.
#pragma once

#include "core/csv.h"
#include "core/hardware_json.h"

#include <string>
#include <string_view>

namespace ridgepoint {

// One machine per `device` row: *Bw columns in GB/s, *Flops/*Ops columns in GFLOP/s (GOP/s).
// Columns are keyed by name, ignoring case (real headers have typos such as hbmBwHigh); the
// Low/High spread columns and unknown columns are left out.
HardwareReadResult readRocprofRoofline(std::string_view text, const std::string &fileName);

// One point per dispatch: FLOP = 64·(ADD + MUL + 2·FMA + TRANS) over F16/F32/F64 plus
// 512·MFMA_MOPS; L1, L2 and HBM bytes from the TCP/TCC request counters (MI200 formula);
// time = End_Timestamp − Start_Timestamp (ns).
PointsReadResult readRocprofPmcPerf(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
