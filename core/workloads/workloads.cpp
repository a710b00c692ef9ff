#include "core/workloads/workloads.h"

#include "core/model/chip_link.h"
#include "core/workloads/quant_modes.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ridgepoint {
namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

// T_math >= T_mem, the rule analyzePoint uses to call a point compute-bound.
bool computeBoundAt(std::int64_t b, double d, double f, const MatmulDtypes &t, double ridge)
{
    const double bb = toDouble(b);
    const double flops = 2.0 * bb * d * f;
    const double bytes = bytesPerElement(t.x) * bb * d + bytesPerElement(t.y) * d * f
        + bytesPerElement(t.z) * bb * f;
    return flops / ridge >= bytes;
}

std::optional<std::int64_t> exactCriticalBatchD(
    double d, double f, const MatmulDtypes &t, double ridge)
{
    const double bx = bytesPerElement(t.x);
    const double by = bytesPerElement(t.y);
    const double bz = bytesPerElement(t.z);
    const double coefficient = 2.0 * d * f - ridge * (bx * d + bz * f);
    if (!(coefficient > 0.0))
        return std::nullopt;
    const double bound = ridge * by * d * f / coefficient;
    if (!std::isfinite(bound) || bound > 9.0e15)
        return std::nullopt;
    auto b = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(bound)));
    // The closed form is exact in real numbers; step over rounding so the answer agrees with
    // the comparison the analysis makes.
    while (b > 1 && computeBoundAt(b - 1, d, f, t, ridge))
        --b;
    while (!computeBoundAt(b, d, f, t, ridge))
        ++b;
    return b;
}

std::string positiveError(std::string_view what, std::int64_t value)
{
    return std::string(what) + " must be a positive integer (got " + std::to_string(value) + ")";
}

} // namespace

double bytesPerElement(Precision precision)
{
    switch (precision) {
    case Precision::FP64:
        return 8.0;
    case Precision::FP32:
    case Precision::TF32:
        return 4.0;
    case Precision::BF16:
    case Precision::FP16:
        return 2.0;
    case Precision::FP8:
    case Precision::INT8:
        return 1.0;
    case Precision::FP6:
        return 0.75;
    case Precision::FP4:
    case Precision::INT4:
        return 0.5;
    }
    return 4.0;
}

MatmulDtypes matmulDtypes(Precision dtype, QuantMode mode)
{
    // X and Z are activations, Y the weights; the compute follows the activations (int8
    // activations: the int8 ceiling; weight-only modes keep the dtype's).
    const QuantModeInfo &info = quantModeInfo(mode);
    const Precision activations = info.activations.value_or(dtype);
    return { activations, info.weights.value_or(dtype), activations, activations };
}

ridgepoint::Expected<ResolvedCeilings, std::string> resolveCeilings(const Hardware &hardware,
    Precision computePrecision, const CeilingChoice &choice, std::string_view neededBy)
{
    ResolvedCeilings out;
    if (!choice.computeName.empty()) {
        out.compute = hardware.findCompute(choice.computeName);
        if (!out.compute)
            return ridgepoint::Unexpected(
                "no compute ceiling named \"" + choice.computeName + "\" on " + hardware.name);
    } else {
        out.compute = hardware.computeFor(computePrecision);
        if (!out.compute)
            return ridgepoint::Unexpected(hardware.name + " has no "
                + std::string(precisionName(computePrecision)) + " compute ceiling (needed by "
                + std::string(neededBy) + ")");
    }
    if (!choice.memoryName.empty()) {
        out.memory = hardware.findMemory(choice.memoryName);
        if (!out.memory)
            return ridgepoint::Unexpected(
                "no memory ceiling named \"" + choice.memoryName + "\" on " + hardware.name);
    } else {
        out.memory = hardware.mainMemory();
        if (!out.memory)
            return ridgepoint::Unexpected(
                hardware.name + " has no main-memory (HBM or DRAM) ceiling");
    }
    return out;
}

std::optional<std::int64_t> exactCriticalBatch(
    std::int64_t d, std::int64_t f, const MatmulDtypes &dtypes, double ridge)
{
    return exactCriticalBatchD(toDouble(d), toDouble(f), dtypes, ridge);
}

double approxCriticalBatch(const MatmulDtypes &dtypes, double ridge)
{
    return ridge * bytesPerElement(dtypes.y) / 2.0;
}

double matmulIntensityLimit(std::int64_t d, std::int64_t f, const MatmulDtypes &dtypes)
{
    const double dd = toDouble(d);
    const double ff = toDouble(f);
    return 2.0 * dd * ff / (bytesPerElement(dtypes.x) * dd + bytesPerElement(dtypes.z) * ff);
}

namespace {

// The link the partial sums of a sharded matmul cross: the named ceiling (or the first of the
// named level), else the link between the machine's chips (chipLink: NVLink, ICI, PCIe), else
// its first network ceiling (DCN); given a bandwidth, a missing link is added and a present one
// takes that bandwidth. It is moved in front of the other ceilings of its level, since
// analyzePoint takes the first of a level.
ridgepoint::Expected<MemoryCeiling, std::string> chooseNetworkCeiling(
    Hardware &machine, const Hardware &hardware, const ShardSpec &shards)
{
    auto network = machine.memory.end();
    if (shards.network.empty()) {
        if (const MemoryCeiling *link = chipLink(machine))
            network = machine.memory.begin() + (link - machine.memory.data());
        else
            network = std::find_if(machine.memory.begin(), machine.memory.end(),
                [](const MemoryCeiling &m) { return isNetwork(m.level); });
    } else {
        network = std::find_if(machine.memory.begin(), machine.memory.end(),
            [&](const MemoryCeiling &m) { return equalsIgnoringCase(m.name, shards.network); });
        if (network == machine.memory.end()) {
            const auto level = memoryLevelFromName(shards.network);
            if (!level)
                return ridgepoint::Unexpected("no network ceiling or level named \""
                    + shards.network + "\" on " + hardware.name);
            network = std::find_if(machine.memory.begin(), machine.memory.end(),
                [&](const MemoryCeiling &m) { return m.level == *level; });
            if (network == machine.memory.end() && shards.networkBandwidth) {
                machine.memory.push_back(
                    { std::string(memoryLevelName(*level)), *level, 0.0, {}, true });
                network = machine.memory.end() - 1;
            }
        }
    }
    if (network == machine.memory.end()) {
        if (!shards.networkBandwidth)
            return ridgepoint::Unexpected(hardware.name + " has no network ceiling"
                + (shards.network.empty() ? std::string() : " of level " + shards.network)
                + " for the partial sums (add a network ceiling to the machine, or give its "
                  "bandwidth)");
        machine.memory.push_back({ "Network", MemoryLevel::ICI, 0.0, {}, true });
        network = machine.memory.end() - 1;
    }
    if (!isNetwork(network->level))
        return ridgepoint::Unexpected(
            "\"" + network->name + "\" is not a link between chips (PCIe, NVLink, ICI, DCN)");
    if (shards.networkBandwidth) {
        if (!(*shards.networkBandwidth > 0.0) || !std::isfinite(*shards.networkBandwidth))
            return ridgepoint::Unexpected("the network bandwidth must be positive");
        network->bandwidth = *shards.networkBandwidth;
        network->sustainedFraction.reset();
    }
    MemoryCeiling chosen = *network;
    machine.memory.erase(network);
    const auto firstOfLevel = std::find_if(machine.memory.begin(), machine.memory.end(),
        [&](const MemoryCeiling &m) { return m.level == chosen.level; });
    machine.memory.insert(firstOfLevel, chosen);
    return chosen;
}

// FLOPs and the bytes of X, Y and Z on one chip (D is the chip's share), untiled or tiled.
ridgepoint::Expected<void, std::string> countMatmulTraffic(MatmulResult &r, const MatmulSpec &spec,
    std::int64_t localD, const std::optional<TileSpec> &tile)
{
    const double b = toDouble(spec.b);
    const double d = toDouble(localD);
    const double f = toDouble(spec.f);
    const double bx = bytesPerElement(r.dtypes.x);
    const double by = bytesPerElement(r.dtypes.y);
    const double bz = bytesPerElement(r.dtypes.z);
    r.flops = 2.0 * b * d * f;
    if (tile) {
        if (tile->bm < 1 || tile->bk < 1 || tile->bn < 1)
            return ridgepoint::Unexpected(std::string("tile sizes must be positive integers"));
        r.tile = tile;
        r.tilesM = ceilDiv(spec.b, tile->bm);
        r.tilesK = ceilDiv(localD, tile->bk);
        r.tilesN = ceilDiv(spec.f, tile->bn);
        const double bm = toDouble(tile->bm);
        const double bn = toDouble(tile->bn);
        // Every X element is read once per column of tiles, every Y element once per row of
        // tiles, Z written once: docs/MODEL.md §5.4's 2·t_m t_n t_k (b_m b_k + b_k b_n) +
        // 2 b_m b_n when the tiles divide the matrix, and exact for ragged edge tiles too
        // (padding moves no bytes and does no useful FLOPs, so tiling can only lower the
        // intensity).
        r.bytesX = bx * b * d * toDouble(r.tilesN);
        r.bytesY = by * d * f * toDouble(r.tilesM);
        r.tileIntensityApprox = 2.0 * bm * bn / (bx * bm + by * bn);
    } else {
        r.bytesX = bx * b * d;
        r.bytesY = by * d * f;
    }
    r.bytesZ = bz * b * f;
    r.bytes = r.bytesX + r.bytesY + r.bytesZ;
    r.intensity = r.flops / r.bytes;
    r.tMath = r.flops / r.peak;
    r.tMem = r.bytes / r.bandwidth;
    r.criticalBatch = exactCriticalBatchD(d, f, r.dtypes, r.ridge);
    r.criticalBatchApprox = approxCriticalBatch(r.dtypes, r.ridge);
    r.intensityLimit = 2.0 * d * f / (bx * d + bz * f);
    return {};
}

// The tiling walls of the machine's on-chip capacities, and whether the point's bytes at its
// memory level are fewer than the bound of the capacity above that level (docs/MODEL.md §12).
void placeIoBounds(MatmulResult &r, const MatmulSpec &spec, std::int64_t localD,
    const Hardware &machine, MemoryLevel bytesLevel)
{
    r.ioWordBytes = std::min(
        { bytesPerElement(r.dtypes.x), bytesPerElement(r.dtypes.y), bytesPerElement(r.dtypes.z) });
    r.ioBounds = matmulIoBounds(machine, r.ioWordBytes);
    const MatmulShape shape { toDouble(spec.b), toDouble(spec.f), toDouble(localD), r.ioWordBytes };
    r.beyondIoBound = beyondIoBound(shape, r.ioBounds, bytesLevel, r.bytes);
}

std::string matmulPointName(const MatmulSpec &spec, const std::optional<TileSpec> &tile)
{
    std::string name = "matmul B=" + std::to_string(spec.b) + " D=" + std::to_string(spec.d)
        + " F=" + std::to_string(spec.f);
    if (spec.quant != QuantMode::None)
        name += " " + std::string(quantModeName(spec.quant));
    else
        name += " " + std::string(precisionName(spec.dtype));
    if (tile)
        name += " tile " + std::to_string(tile->bm) + "x" + std::to_string(tile->bk) + "x"
            + std::to_string(tile->bn);
    return name;
}

} // namespace

ridgepoint::Expected<Hardware, std::string> shardedMachine(
    const Hardware &hardware, const ShardSpec &shards)
{
    Hardware machine = hardware;
    auto chosen = chooseNetworkCeiling(machine, hardware, shards);
    if (!chosen)
        return ridgepoint::Unexpected(chosen.error());
    return machine;
}

ridgepoint::Expected<MatmulResult, std::string> modelMatmul(const MatmulSpec &spec,
    const Hardware &hardware, const CeilingChoice &choice, const std::optional<TileSpec> &tile,
    const std::optional<ShardSpec> &shards)
{
    if (spec.b < 1)
        return ridgepoint::Unexpected(positiveError("B", spec.b));
    if (spec.d < 1)
        return ridgepoint::Unexpected(positiveError("D", spec.d));
    if (spec.f < 1)
        return ridgepoint::Unexpected(positiveError("F", spec.f));

    MatmulResult r;
    r.dtypes = matmulDtypes(spec.dtype, spec.quant);
    const std::string neededBy = spec.quant == QuantMode::None
        ? "a " + std::string(precisionName(spec.dtype)) + " matmul"
        : "quantization mode " + std::string(quantModeName(spec.quant));

    // The machine the point is analysed on: a copy whose chosen network ceiling comes first.
    Hardware machine = hardware;
    std::int64_t localD = spec.d;
    if (shards) {
        if (shards->chips < 1)
            return ridgepoint::Unexpected(positiveError("the number of shards", shards->chips));
        if (spec.d % shards->chips != 0)
            return ridgepoint::Unexpected("D = " + std::to_string(spec.d)
                + " does not split evenly over " + std::to_string(shards->chips) + " chips");
        localD = spec.d / shards->chips;
        r.chips = shards->chips;
        auto chosen = chooseNetworkCeiling(machine, hardware, *shards);
        if (!chosen)
            return ridgepoint::Unexpected(chosen.error());
        r.networkCeiling = chosen->name;
        r.networkBandwidth = chosen->bandwidth;
    }

    auto ceilings = resolveCeilings(machine, r.dtypes.compute, choice, neededBy);
    if (!ceilings)
        return ridgepoint::Unexpected(ceilings.error());
    r.computeCeiling = ceilings->compute->name;
    r.memoryCeiling = ceilings->memory->name;
    r.peak = ceilings->compute->peak;
    r.bandwidth = ceilings->memory->bandwidth;
    r.ridge = ceilings->ridge();
    if (auto counted = countMatmulTraffic(r, spec, localD, tile); !counted)
        return ridgepoint::Unexpected(counted.error());

    KernelPoint &p = r.point;
    p.name = matmulPointName(spec, tile);
    p.group = "matmul";
    p.flops = r.flops;
    p.precision = r.dtypes.compute;
    p.bytes.push_back({ ceilings->memory->level, r.bytes });

    if (shards) {
        p.name += " /" + std::to_string(r.chips) + " chips";
        // Ring all-reduce of the B×F partial sums: each chip sends and receives
        // 2(N−1)/N·B·F elements; for 2 chips in bf16 that is 2BF bytes (docs/MODEL.md §5.3).
        const double n = toDouble(r.chips);
        r.networkBytes = 2.0 * (n - 1.0) / n * toDouble(spec.b) * toDouble(spec.f)
            * bytesPerElement(r.dtypes.z);
        r.tNetwork = r.networkBytes / r.networkBandwidth;
        r.criticalD = (n - 1.0) * bytesPerElement(r.dtypes.z) * r.peak / r.networkBandwidth;
        if (r.networkBytes > 0.0) {
            const MemoryCeiling *net = machine.findMemory(r.networkCeiling);
            p.bytes.push_back({ net->level, r.networkBytes });
        }
    }

    AnalysisOptions options;
    options.computeCeiling = r.computeCeiling;
    auto analysis = analyzePoint(p, machine, options);
    if (!analysis)
        return ridgepoint::Unexpected(analysis.error());
    r.analysis = std::move(*analysis);
    placeIoBounds(r, spec, localD, machine, ceilings->memory->level);
    return r;
}

KernelPoint dotProductPoint(std::int64_t n, Precision dtype)
{
    const double nn = toDouble(n);
    KernelPoint p;
    p.name = "dot N=" + std::to_string(n);
    p.group = "dot product";
    p.flops = 2.0 * nn - 1.0;
    p.bytes.push_back({ std::nullopt, (2.0 * nn + 1.0) * bytesPerElement(dtype) });
    p.precision = dtype;
    return p;
}

KernelPoint perExampleWeightsPoint(std::int64_t b, std::int64_t d, std::int64_t f, Precision dtype)
{
    const double bb = toDouble(b);
    const double dd = toDouble(d);
    const double ff = toDouble(f);
    KernelPoint p;
    p.name = "per-example weights B=" + std::to_string(b) + " D=" + std::to_string(d)
        + " F=" + std::to_string(f);
    p.group = "per-example weights";
    p.flops = 2.0 * bb * dd * ff;
    p.bytes.push_back(
        { std::nullopt, bytesPerElement(dtype) * (bb * dd + bb * dd * ff + bb * ff) });
    p.precision = dtype;
    return p;
}

ridgepoint::Expected<KernelPoint, std::string> q8_0MatVecPoint(const Q8_0Spec &spec)
{
    if (spec.rows < 1)
        return ridgepoint::Unexpected(positiveError("rows", spec.rows));
    if (spec.cols < 1 || spec.cols % kQ8_0BlockWeights != 0)
        return ridgepoint::Unexpected(
            "Q8_0 needs a column count that is a positive multiple of 32 (got "
            + std::to_string(spec.cols) + ")");
    if (spec.flopsPerFma != 1 && spec.flopsPerFma != 2)
        return ridgepoint::Unexpected("an FMA counts as 1 or 2 FLOPs");
    const double rows = toDouble(spec.rows);
    const double cols = toDouble(spec.cols);
    const double blocks = rows * cols / kQ8_0BlockWeights;
    const double s = bytesPerElement(spec.activations);
    KernelPoint p;
    p.name = "Q8_0 matvec " + std::to_string(spec.rows) + "x" + std::to_string(spec.cols);
    p.group = "Q8_0";
    p.flops = static_cast<double>(spec.flopsPerFma) * rows * cols;
    p.bytes.push_back({ std::nullopt, blocks * kQ8_0BlockBytes + s * cols + s * rows });
    p.precision = spec.activations;
    return p;
}

} // namespace ridgepoint
