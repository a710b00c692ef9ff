// What a reader cannot know from the file itself: the choices a user makes for ncu and
// rocprof-compute files. The format registry says which formats take which (ReadOptionSet).
#pragma once

#include <cstddef>
#include <optional>

namespace ridgepoint {

struct NcuOptions {
    // FLOP per sm__inst_executed_pipe_tensor instruction: 512 on V100 (NERSC's method), 1024 in
    // a variant for A100; architecture dependent, so a caller may change it. Ops-path metrics
    // (sm__ops_path_tensor_*), when present, count operations and win over this estimate.
    double tensorFlopsPerInstruction = 512.0;
    // FLOP per half-precision FMA thread instruction (…_hfma_pred_on): 2 in the NERSC method
    // (NERSC: 2·hfma + hmul + hadd); ncu's own roofline counts a packed HFMA2 as 4
    // (its …hfma_pred_on_x4 metric). docs/FORMATS.md §1.10.
    double halfFlopsPerFma = 2.0;
    // Numbers written with a decimal comma and '.' between thousands ("27.595.520", "65,77"):
    // nullopt detects it from the file (a value with two or more '.' groups, or '.' groups
    // before a ','), true or false forces it.
    std::optional<bool> decimalComma;
    // One point per kernel name instead of one per launch (or per launch shape in a summary):
    // FLOPs, bytes and time summed over the launches (sumLaunches, docs/FORMATS.md §1.9).
    bool sumLaunchesOfAKernel = false;
};

struct RocprofOptions {
    // LDS banks per compute unit, each 4 bytes wide: 32 on MI200 and MI300 (rocprof-compute's
    // lds_banks_per_cu, from sysinfo.csv), which is not in pmc_perf.csv itself.
    double ldsBanksPerCu = 32.0;
    // One point per Kernel_Name instead of one per dispatch: FLOPs, bytes and time summed over
    // the dispatches (sumLaunches; rocprof-compute's per-kernel roofline divides the same sums
    // by the number of calls, which moves no point).
    bool sumDispatchesOfAKernel = false;
};

// The options of every reader that takes some (FLOP per tensor instruction or per half FMA,
// decimal comma, one point per kernel instead of one per launch, LDS banks). The other readers
// take none.
struct ReadOptions {
    NcuOptions ncu;
    RocprofOptions rocprof;
    // Not a choice: how many bytes past the text's end a reader may read (kTextPadding,
    // core/io/text.h). readPointsFile sets it from the string that holds the text, whatever the
    // caller gave; the profiler-trace reader copies a text without it.
    std::size_t textPadding = 0;
};

// The ranges File ▸ Import options… and the command line accept (from 1): wide enough for any
// architecture, narrow enough that no product overflows.
inline constexpr int kMaxTensorFlopsPerInstruction = 1 << 20;
inline constexpr int kMaxLdsBanksPerCu = 1024;

} // namespace ridgepoint
