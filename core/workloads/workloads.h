// Planned workloads (docs/MODEL.md §5 and §6, Q8_0 in §5.6) as ordinary
// kernel points, plus the numbers each workload derives (critical batch, critical D, T_network).
// Formulas and conventions: docs/WORKLOADS.md.
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/io_bounds.h"
#include "core/model/hardware.h"
#include "core/model/point.h"

#include "core/model/expected.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

// Bytes one element of a precision occupies: fp64 8, fp32/tf32 4, bf16/fp16 2, fp8/int8 1,
// int4 0.5 (two per byte).
double bytesPerElement(Precision precision);

// Quantization as a property of a workload (docs/MODEL.md §6).
//   none   every tensor and the compute in the workload's dtype
//   int8   activations, weights and output int8, int8 compute ceiling (docs/MODEL.md §6.1)
//   w8a16  int8 weights, activations/output and compute in the workload's dtype (§6.2)
//   w4a16  like w8a16 with int4 weights
enum class QuantMode { None, Int8, W8A16, W4A16 };
std::string_view quantModeName(QuantMode mode); // "none", "int8", "w8a16", "w4a16"
std::optional<QuantMode> quantModeFromName(std::string_view name); // case-insensitive

// The dtypes of X (activations), Y (weights), Z (output) and of the compute of a matmul.
struct MatmulDtypes {
    Precision x = Precision::BF16;
    Precision y = Precision::BF16;
    Precision z = Precision::BF16;
    Precision compute = Precision::BF16;
};
MatmulDtypes matmulDtypes(Precision dtype, QuantMode mode);

// The pair of ceilings a planned workload is measured against.
struct CeilingChoice {
    std::string computeName; // empty: the ceiling of the workload's compute precision
    std::string memoryName; // empty: main memory (HBM or DRAM)
};

struct ResolvedCeilings {
    const ComputeCeiling *compute = nullptr;
    const MemoryCeiling *memory = nullptr;
    double ridge() const { return compute->peak / memory->bandwidth; }
};

// Finds the ceilings; the error names the one that is missing ("Google TPU v5e has no int8
// compute ceiling (needed by quantization mode int8)").
ridgepoint::Expected<ResolvedCeilings, std::string> resolveCeilings(const Hardware &hardware,
    Precision computePrecision, const CeilingChoice &choice, std::string_view neededBy);

// ---- Matmul X[B,D] · Y[D,F] -> Z[B,F] (docs/MODEL.md §5.2, §6) ----

struct MatmulSpec {
    std::int64_t b = 1;
    std::int64_t d = 1;
    std::int64_t f = 1;
    Precision dtype = Precision::BF16;
    QuantMode quant = QuantMode::None;

    friend bool operator==(const MatmulSpec &, const MatmulSpec &) = default;
};

// Smallest integer batch B at which the kernel is compute-bound (T_math >= T_mem) with D and F
// fixed, from the full expression 2BDF / (bx·B·D + by·D·F + bz·B·F) >= π/β, which is linear in
// B: B·(2DF − R·(bx·D + bz·F)) >= R·by·D·F. nullopt when the coefficient is not positive: the
// intensity's limit 2DF / (bx·D + bz·F) as B grows never reaches the ridge.
std::optional<std::int64_t> exactCriticalBatch(
    std::int64_t d, std::int64_t f, const MatmulDtypes &dtypes, double ridge);
// The large-D, F approximation the reference quotes: I ≈ 2B/by, so B ≈ R·by/2
// (240 for bf16 on TPU v5e, 120 with int8 weights, 243 for full int8 at 8.1e11 B/s).
double approxCriticalBatch(const MatmulDtypes &dtypes, double ridge);
// lim_{B→∞} I(B) = 2DF / (bx·D + bz·F).
double matmulIntensityLimit(std::int64_t d, std::int64_t f, const MatmulDtypes &dtypes);

// Sharding over N chips along D (docs/MODEL.md §5.3), tiling (§5.4).
struct ShardSpec {
    std::int64_t chips = 2;
    // Ceiling of the link the partial sums cross, by name or level ("ICI", "NVLink 4");
    // empty: the machine's first network ceiling.
    std::string network;
    std::optional<double> networkBandwidth; // B/s; replaces the named ceiling's bandwidth

    friend bool operator==(const ShardSpec &, const ShardSpec &) = default;
};

struct TileSpec {
    std::int64_t bm = 128;
    std::int64_t bk = 128;
    std::int64_t bn = 128;

    friend bool operator==(const TileSpec &, const TileSpec &) = default;
};

struct MatmulResult {
    KernelPoint point; // per chip when sharded
    PointAnalysis analysis;
    MatmulDtypes dtypes;
    std::string computeCeiling;
    std::string memoryCeiling;
    double peak = 0.0; // π
    double bandwidth = 0.0; // β of main memory
    double ridge = 0.0; // π/β
    double flops = 0.0; // per chip
    double bytesX = 0.0, bytesY = 0.0, bytesZ = 0.0; // main-memory bytes per tensor (per chip)
    double bytes = 0.0; // their sum
    double intensity = 0.0; // flops / bytes
    double tMath = 0.0, tMem = 0.0;
    std::optional<std::int64_t> criticalBatch; // exact; nullopt: never compute-bound
    double criticalBatchApprox = 0.0;
    double intensityLimit = 0.0; // as B grows
    // Tiled (docs/MODEL.md §5.4)
    std::optional<TileSpec> tile;
    std::int64_t tilesM = 0, tilesK = 0, tilesN = 0;
    double tileIntensityApprox = 0.0; // 2·bm·bn / (bx·bm + by·bn), bf16: bm·bn/(bm+bn)
    // Sharded (docs/MODEL.md §5.3)
    std::int64_t chips = 1;
    std::string networkCeiling;
    double networkBandwidth = 0.0;
    double networkBytes = 0.0; // per chip, ring all-reduce of the partial sums
    double tNetwork = 0.0;
    double criticalD = 0.0; // D above which T_math > T_network: (N−1)·bz·π/β_net
    // I/O lower bounds (docs/MODEL.md §12): one per on-chip capacity of the machine, for words
    // of the narrowest operand (ioWordBytes); the excess when the point's bytes break one.
    double ioWordBytes = 0.0;
    std::vector<IoBound> ioBounds;
    std::optional<IoBoundExcess> beyondIoBound;
};

// The point and its numbers on a machine. `tile` switches to the tiled byte count, `shards`
// to the per-chip counts with a network level.
ridgepoint::Expected<MatmulResult, std::string> modelMatmul(const MatmulSpec &spec,
    const Hardware &hardware, const CeilingChoice &choice = {},
    const std::optional<TileSpec> &tile = std::nullopt,
    const std::optional<ShardSpec> &shards = std::nullopt);

// The machine a sharded matmul's point is analysed on: `hardware` with the chosen network
// ceiling first of its level and, when the shards give one, their own networkBandwidth. The
// error says why no link can be chosen (an unknown network name).
ridgepoint::Expected<Hardware, std::string> shardedMachine(
    const Hardware &hardware, const ShardSpec &shards);

// ---- Smaller workloads (docs/MODEL.md §5.1, §5.5, §5.6) ----

// x·y for x, y of N elements: 2N−1 FLOPs, (2N + 1)·s bytes (4N + 2 in bf16).
KernelPoint dotProductPoint(std::int64_t n, Precision dtype = Precision::BF16);

// X[B,D] · Y[B,D,F] -> Z[B,F] with a weight matrix per example: 2BDF FLOPs,
// s·(BD + BDF + BF) bytes; the intensity tends to 2/s (1 in bf16) whatever B is.
KernelPoint perExampleWeightsPoint(
    std::int64_t b, std::int64_t d, std::int64_t f, Precision dtype = Precision::BF16);

// Q8_0 matrix-vector product W[rows, cols] · x (docs/MODEL.md §5.6): W in blocks of 32 int8 weights
// plus one fp16 scale (34 bytes), x and y in `activations` (fp32 in llama.cpp's CPU path).
struct Q8_0Spec {
    std::int64_t rows = 4096;
    std::int64_t cols = 4096; // a multiple of 32
    Precision activations = Precision::FP32;
    // FLOPs per multiply-add: 2 (this program's convention) or 1 (32 FLOPs per 34-byte
    // block, ≈ 0.94 FLOP/B; docs/MODEL.md §7).
    int flopsPerFma = 2;
};
inline constexpr int kQ8_0BlockWeights = 32;
inline constexpr int kQ8_0BlockBytes = 34;
ridgepoint::Expected<KernelPoint, std::string> q8_0MatVecPoint(const Q8_0Spec &spec);

} // namespace ridgepoint
