// Measuring the machine Ridgepoint runs on: memory bandwidth per cache level from a sweep of
// working sets, and peak FLOP/s per precision and instruction set, turned into an ordinary
// Hardware entry plus the measurement behind it (docs/MEASURE.md).
//
// The one header callers include. Behind it, in measure/: topology.cpp (caches, CPU model,
// usable CPUs), thread_team.cpp (pinned, timed teams on core/stream's WorkerPool),
// measure_kernels.cpp (the timed loops per ISA, cpuid), plateaus.cpp and plateau_labels.cpp
// (labelPlateaus), runner.cpp (measureMachine: the sequence of runs, quick or thorough),
// measured_machine.cpp (hardwareFromMeasurement and the names), spec_match.cpp (compareWithSpec,
// findSpecForCpu), measurement_json.cpp (the hardware file), rapl.cpp (the RAPL energy counters)
// and energy_fit.cpp (fitEnergyModel).
#pragma once

#include "core/model/expected.h"
#include "core/model/hardware.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// The memory kernels. Bytes counted per element: load 8 (read), copy 16 (8 read + 8 written),
// triad 24 (16 read + 8 written). Write-allocate traffic (the line a store miss reads before
// writing it) is not counted, as in STREAM and likwid-bench.
enum class MemoryKernel { Load, Copy, Triad };
std::string_view memoryKernelName(MemoryKernel kernel); // "load", "copy", "triad"
std::optional<MemoryKernel> memoryKernelFromName(std::string_view name);
int memoryKernelArrays(MemoryKernel kernel); // 1, 2, 3
double memoryKernelBytesPerElement(MemoryKernel kernel); // 8, 16, 24

// A cache as the system reports it (sysfs, else sysconf). Reported, not trusted: a virtual
// machine may report sizes it does not have.
struct CacheInfo {
    int level = 0; // 1, 2, 3
    std::string type; // "Data", "Unified" (instruction caches are left out)
    std::uint64_t size = 0; // bytes, one instance
    int sharedBy = 1; // logical CPUs sharing one instance
    bool operator==(const CacheInfo &) const = default;
};
// Reads one file of a sysfs cache directory by its path relative to that directory
// ("index0/level", "index2/size"); "" when it is absent. The seam tests inject caches through.
using CacheFileReader = std::function<std::string(const std::string &relativePath)>;
// The data and unified caches a sysfs cache directory (/sys/devices/system/cpu/cpu0/cache)
// describes: index*/level, type, size and shared_cpu_list, instruction caches left out.
std::vector<CacheInfo> readCaches(const CacheFileReader &read);
// readCaches over /sys/devices/system/cpu/cpu0/cache, else sysconf.
std::vector<CacheInfo> detectCaches();

// The capacities the working sets of one run are named against (plateau_labels.h): the bytes
// the run's threads hold at each level (a private cache once per thread, a shared one once per
// group of CPUs sharing it); 0 where the system reports no such level.
struct CacheSizes {
    std::uint64_t l1 = 0;
    std::uint64_t l2 = 0;
    std::uint64_t l3 = 0;
    std::uint64_t l4 = 0; // a level past L3 (eDRAM): no ceiling of its own, DRAM starts past it
    std::uint64_t lastLevel() const; // the largest of them; 0 when none is reported
    bool operator==(const CacheSizes &) const = default;
};
CacheSizes cacheSizesFor(const std::vector<CacheInfo> &caches, int threads);
// The processor's model name (/proc/cpuinfo "model name"), or "unknown CPU".
std::string detectCpuModel();
// The CPUs this process may run on (its affinity mask): what "all threads" means.
int usableCpus();
// "512 B", "48 KiB", "1.5 MiB", "32 MiB": binary prefixes, as caches are sized.
std::string formatBinarySize(std::uint64_t bytes);
// "L1 48 KiB per CPU, L2 1 MiB per CPU, L3 32 MiB shared by 2 CPUs", or "none".
std::string describeCaches(const std::vector<CacheInfo> &caches);

// One point of the bandwidth-vs-working-set curve.
struct BandwidthSample {
    MemoryKernel kernel = MemoryKernel::Load;
    int threads = 1;
    std::uint64_t workingSet = 0; // bytes of all arrays of all threads
    double best = 0.0; // B/s, the fastest trial
    double median = 0.0; // B/s
    int trials = 0;
    bool operator==(const BandwidthSample &) const = default;
};

// A flat stretch of the curve, named after the memory level that serves it.
struct Plateau {
    MemoryLevel level = MemoryLevel::DRAM;
    double bandwidth = 0.0; // B/s: the median of the plateau's points (each a best of trials)
    double maxBandwidth = 0.0; // B/s: its fastest point
    std::uint64_t firstWorkingSet = 0;
    std::uint64_t lastWorkingSet = 0;
    int points = 0;
    bool operator==(const Plateau &) const = default;
};

struct ComputeSample {
    Precision precision = Precision::FP64;
    std::string isa; // "avx512", "avx2", "sse2", "portable"
    bool simd = true; // the ISA's full vector width, else scalar instructions
    bool fma = true; // fused multiply-add, else a multiply then an add
    int threads = 1;
    double best = 0.0; // FLOP/s
    double median = 0.0;
    int trials = 0;
    bool operator==(const ComputeSample &) const = default;
};

// The cache sizes one team size's curves were named against.
struct LabelBasis {
    int threads = 1;
    CacheSizes caches;
    bool operator==(const LabelBasis &) const = default;
};

struct PlateauRecord {
    MemoryKernel kernel = MemoryKernel::Load;
    int threads = 1;
    Plateau plateau;
    bool operator==(const PlateauRecord &) const = default;
};

// One timed run's energy, read from the RAPL counters around its trials (docs/MEASURE.md,
// "Energy"): the work the run did, the wall time between the two readings and the joules the
// counted domains used in it. A compute run's work is FLOPs of `precision`; a memory run's is
// bytes, at the level the plateau of its kernel, team size and working set names (runs between
// plateaus are not fitted).
struct EnergySample {
    bool compute = true;
    Precision precision = Precision::FP64; // of a compute run
    MemoryKernel kernel = MemoryKernel::Load; // of a memory run
    std::uint64_t workingSet = 0; // of a memory run, bytes of all arrays of all threads
    int threads = 1;
    double work = 0.0; // FLOPs or bytes
    double seconds = 0.0;
    double joules = 0.0;
    bool operator==(const EnergySample &) const = default;
};

// What a run learnt about energy: the counters it read and a sample per timed run, or why there
// are none ("no RAPL energy counters on this machine ...").
struct EnergyMeasurement {
    std::string counters; // "RAPL package-0 + dram (/sys/class/powercap)"; empty: none read
    std::optional<double> powerLimitWatts; // the packages' long-term RAPL limits, summed
    std::string unavailable; // why there is no energy model; empty when there is one
    std::vector<EnergySample> samples;
    bool operator==(const EnergyMeasurement &) const = default;
};

// Everything behind a measured machine; stored as "measurement" in its hardware file.
struct Measurement {
    std::string tool; // "ridgepoint measure 0.1.0"
    std::string date; // ISO 8601, UTC
    std::string host;
    std::string cpuModel; // /proc/cpuinfo "model name"
    std::string cpuVendor;
    int threads = 1; // the all-threads runs
    int hardwareThreads = 1;
    std::string isa; // the widest used
    std::vector<std::string> isas; // all the processor runs
    double budgetSeconds = 0.0;
    double elapsedSeconds = 0.0;
    std::string byteCounting; // a sentence for people
    bool writeAllocateCounted = false;
    std::vector<CacheInfo> reportedCaches;
    std::vector<BandwidthSample> sweep;
    std::vector<ComputeSample> compute;
    std::vector<PlateauRecord> plateaus;
    std::vector<LabelBasis> labelling; // per team size, the capacities the levels are named by
    std::vector<std::string> warnings; // of the labelling: "load, 2 threads: no DRAM level ..."
    std::optional<Hardware> spec; // the vendor figures, when a preset matches the CPU
    EnergyMeasurement energy;
};

struct MeasureOptions {
    double budgetSeconds = 60.0; // about 10 for a quick run
    int threads = 0; // the all-threads runs; 0: every CPU this process may use
    std::string maxIsa; // "", "portable", "sse2", "avx2", "avx512": the widest to use
    std::uint64_t minWorkingSet = 4096;
    std::uint64_t maxWorkingSet = 0; // 0: from the largest reported cache, within bounds
    int pointsPerOctave = 0; // 0: 2 for budgets under 30 s, else 3
    bool memory = true;
    bool compute = true;
    std::string name; // "" : "Measured: <CPU> on <host>"
    std::optional<Hardware> spec;
    // The caches to name the levels by, instead of detectCaches() (tests, other machines).
    std::optional<std::vector<CacheInfo>> caches;
    // Where the RAPL energy counters are (tests point it at a folder of their own).
    std::string powercapRoot = "/sys/class/powercap";
};

// What the measuring thread says while it works.
struct MeasureProgress {
    double fraction = 0.0; // 0..1 of the planned work
    std::string stage; // "load, 2 threads", "FP64 avx512 FMA, 1 thread", ...
    const BandwidthSample *sample = nullptr; // a new point of the curve, if any
    const ComputeSample *compute = nullptr; // a new compute figure, if any
};
// Return false to cancel. Called at least every 50 ms while measuring, on the measuring thread.
using MeasureCallback = std::function<bool(const MeasureProgress &)>;

struct MeasureResult {
    Hardware hardware;
    Measurement measurement;
};

// Measures this machine. Fails with "cancelled" when the callback returns false or `cancel`
// becomes true (within about 50 ms), or when nothing usable could be measured.
Expected<MeasureResult, std::string> measureMachine(const MeasureOptions &options,
    const MeasureCallback &progress = {}, const std::atomic<bool> *cancel = nullptr);

// The machine (ceilings from the plateaus and compute samples) a measurement describes.
Expected<Hardware, std::string> hardwareFromMeasurement(
    const Measurement &measurement, const std::string &name);

// Choi et al.'s energy model fitted to a measurement's energy samples (docs/MEASURE.md,
// "Energy"): E = Σ F·e_flop(precision) + Σ B·e_byte(level) + P0·T by non-negative least squares
// over every sample a plateau names; the power cap is the RAPL limit when there is one. Fails
// with the reason (no samples, the counters did not advance, the runs cannot tell the static
// power from the per-FLOP or per-byte energy).
Expected<EnergyModel, std::string> fitEnergyModel(const Measurement &measurement);

// A measured figure beside the spec's figure of the same kind, for "measured vs spec": per
// precision the all-thread roof of the widest ISA (its FMA figure, else its mul+add), per memory
// level the all-thread load plateau.
struct SpecComparison {
    bool compute = true; // FLOP/s, else B/s
    Precision precision = Precision::FP64; // of a compute row
    MemoryLevel level = MemoryLevel::DRAM; // of a memory row
    std::string measuredName; // the measured ceiling: "FP64 AVX-512 FMA", "DRAM load"
    double measured = 0.0;
    std::string specName; // the spec's fastest ceiling of the kind; "" when it has none
    double spec = 0.0;
    bool operator==(const SpecComparison &) const = default;
};
// Compute rows (FP64, FP32, ...) then memory rows (L1 ... DRAM); without a spec every specName is
// empty. The spec usually describes the whole chip: compare with `measurement.threads` in mind.
std::vector<SpecComparison> compareWithSpec(const Measurement &measurement);

// A preset of kind "cpu" whose name (or an alias) the CPU model contains as whole words.
std::optional<Hardware> findSpecForCpu(
    const std::vector<Hardware> &presets, const std::string &cpuModel);

// The hardware file of a measured machine: writeHardwareJson's object plus "measurement".
std::string writeMeasuredHardwareJson(const Hardware &hardware, const Measurement &measurement);
// The "measurement" object of a hardware file (readHardwareJson reads the machine itself).
Expected<Measurement, std::string> readMeasurementJson(const std::string &text);

} // namespace ridgepoint
