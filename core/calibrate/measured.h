// Measured runs: one row per timed operator or collective, read from Vidur's profiling CSVs,
// nccl-tests output or the plain measured-operator CSV (docs/FORMATS.md "Measured runs"), each
// with the FLOPs and bytes its shape implies (core/calibrate/operator_work.h).
#pragma once

#include "core/calibrate/calibration.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct MeasuredRow {
    std::string file;
    int line = 0; // 1-based line of the row in its file
    std::string op; // the file's own name: "mlp_up_proj", "all_reduce"
    OperatorClass kind = OperatorClass::Elementwise;
    double seconds = 0.0; // the measured time (a median where the file gives statistics)

    // Operator rows: tokens and tensor-parallel degree (0 when the file does not say), the
    // model FLOPs and main-memory bytes, and a GEMM's shape (M×K by K×N; 0 when not a GEMM).
    std::int64_t tokens = 0;
    std::int64_t tp = 0;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t m = 0, n = 0, k = 0;
    Precision dtype = Precision::BF16;

    // Collective rows: the message size in bytes, the ranks taking part and how many of them
    // share a node (0 when the file does not say).
    double messageBytes = 0.0;
    std::int64_t ranks = 0;
    std::int64_t ranksPerNode = 0;

    // Why the row cannot be fitted or predicted (empty when it can): "#wrong = 3", "no model
    // of operator X's FLOPs and bytes". Such rows stay in the list, never dropped.
    std::string excluded;

    bool isCollective() const { return kind == OperatorClass::Collective; }
};

struct [[nodiscard]] MeasuredReadResult {
    std::vector<MeasuredRow> rows;
    std::vector<Diagnostic> diagnostics;
};

// The measured-runs formats below, told apart by content.
enum class MeasuredFormat { NcclTests, VidurOperators, VidurCollectives, MeasuredCsv };
// Which one `text` is: a `#wrong` anywhere is nccl-tests output; otherwise its first line that is
// not a `#` comment decides. Nullopt when none; the readers' opening (core/io/readers.cpp) asks
// it too, to name a file of measured collectives that is opened as points.
std::optional<MeasuredFormat> measuredFormatOf(std::string_view text);

// Any of the formats below, told apart by measuredFormatOf.
MeasuredReadResult readMeasuredRuns(std::string_view text, const std::string &path);

// Vidur's per-operator CSV (mlp.csv): time_stats.<operator>.<statistic> columns in ms, the
// model's dimensions, num_tokens and num_tensor_parallel_workers. One row per operator and
// line, timed by its median.
MeasuredReadResult readVidurOperatorCsv(std::string_view text, const std::string &path);
// Vidur's collective CSV (all_reduce.csv, send_recv.csv): time_stats.<collective>.* in ms,
// num_workers, size (bytes), collective, devices_per_node.
MeasuredReadResult readVidurCollectiveCsv(std::string_view text, const std::string &path);
// nccl-tests output as all_reduce_perf, all_gather_perf, reduce_scatter_perf, sendrecv_perf
// and alltoall_perf print it; the collective comes from the file's name or its command line.
MeasuredReadResult readNcclTests(std::string_view text, const std::string &path);
// The plain measured-operator CSV (docs/FORMATS.md "Measured runs").
MeasuredReadResult readMeasuredCsv(std::string_view text, const std::string &path);

// busbw / algbw of a collective over `ranks` ranks (NVIDIA nccl-tests, doc/PERFORMANCE.md):
// all_reduce 2(n−1)/n; all_gather, reduce_scatter and alltoall (n−1)/n; others 1.
double busBytesFactor(std::string_view collective, std::int64_t ranks);

} // namespace ridgepoint
