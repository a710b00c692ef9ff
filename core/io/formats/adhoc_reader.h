// The small formats roofline plotting scripts write (docs/FORMATS.md §2, §6): NERSC's hierarchical
// text, ERT's per-experiment `sum`, GPU-Roofline-Profiler's peaks.csv, mohamed/roofline's
// hw_db.csv and apps.csv, and the ncu-like Metric Name / Metric Value CSV of
// Techercise/roofline-model-multiple-kernels. Format: docs/FORMATS.md §6.
#pragma once

#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"

#include <string>
#include <string_view>

namespace ridgepoint {

enum class AdhocShape {
    None,
    NerscHierarchical, // memroofs / comproofs / AI_HBM / FLOPS / labels lines
    ErtSum, // "<number> GFLOPs" first, then "<number> <level>" lines
    ProfilerPeaks, // label,peak_flops,peak_bandwidth
    HwDb, // name,GFLOP/s,GB/s,price rows without a header
    Apps, // # name, intensity, [implementation name, performance (gflops/s)]...
    MetricValues, // ID,Kernel Name,Host Name,Metric Name,Metric Value
};

// The shape of a text from its content; None when it is none of these.
AdhocShape detectAdhocShape(std::string_view text);

// NERSC hierarchical text (cyanguwa/nersc-roofline data_hierarchical.txt). Ceilings: memroofs
// (GB/s) named by mem_roof_names, comproofs (GFLOP/s) named by comp_roof_names, as one machine.
PointsReadResult readNerscPoints(std::string_view text, const std::string &fileName);
// Points: one per label, known by its intensities (AI_HBM is main memory, AI_L2, AI_L1, ...)
// and its FLOPS (GFLOP/s); no FLOP or byte counts, so no times. The file gives no precision: the
// points are FP64, as its roofs are taken (one warning says so).
HardwareReadResult readNerscCeilings(std::string_view text, const std::string &fileName);

// ERT's per-experiment text `sum` file: GFLOP/s and GB/s per level, as one machine, with a
// warning that it is one experiment's result, not the maxima roofline.json holds.
HardwareReadResult readErtSum(std::string_view text, const std::string &fileName);

// GPU-Roofline-Profiler peaks.csv (FLOP/s, B/s): one machine, a compute and a memory ceiling per
// row, named after the row's label, in file order (the first row's are the ones used).
HardwareReadResult readProfilerPeaks(std::string_view text, const std::string &fileName);

// mohamed/roofline hw_db.csv: one machine per row (GFLOP/s, GB/s; the price is a note).
HardwareReadResult readHwDb(std::string_view text, const std::string &fileName);

// mohamed/roofline apps.csv: one point per implementation, known by the application's intensity
// (main memory) and the implementation's GFLOP/s; grouped by application.
PointsReadResult readAppsCsv(std::string_view text, const std::string &fileName);

// The long Metric Name / Metric Value CSV of Techercise/roofline-model-multiple-kernels: one
// point per ID, known by its AI (main memory) and its FLOPS (FLOP/s).
PointsReadResult readMetricValuesCsv(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
