// The sequence of runs behind measureMachine(): the memory sweep (load, copy, triad over
// working sets from minWorkingSet to well past the last-level cache, on one thread then on all)
// and the compute kernels (per precision the widest ISA with and without FMA, scalar, and AVX2
// beside AVX-512), each calibrated then repeated within its share of the time budget. A quick
// run (budget under 30 s) takes 2 points per octave and a smaller largest working set.
#include "measure/measure.h"

#include "measure/measure_detail.h"
#include "measure/measure_kernels.h"
#include "measure/plateau_labels.h"
#include "measure/rapl.h"
#include "measure/thread_team.h"
#include "measure/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace ridgepoint {
namespace {

using detail::Isa;
using detail::kMiB;
using detail::MeasureClock;
using detail::medianOf;
using detail::secondsSince;
using detail::threadsText;
using detail::ThreadTeam;

constexpr MemoryKernel kMemoryKernels[]
    = { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad };

// Budgets under this are quick runs: fewer points per octave, a smaller largest working set.
constexpr double kQuickBudgetSeconds = 30.0;

struct FreeDeleter {
    void operator()(double *p) const { std::free(p); }
};

// The working sets of the memory sweep, ascending, and the largest.
struct SweepPlan {
    std::vector<std::uint64_t> sizes;
    std::uint64_t maxSet = 0;
};

SweepPlan planSweep(const MeasureOptions &options, const Measurement &m)
{
    const bool quick = options.budgetSeconds < kQuickBudgetSeconds;
    const std::uint64_t reported = cacheSizesFor(m.reportedCaches, m.threads).lastLevel();
    const std::uint64_t largest = reported == 0 ? 32 * kMiB : reported;
    SweepPlan plan;
    plan.maxSet = options.maxWorkingSet;
    if (plan.maxSet == 0) {
        // Some hosts cache far more than their VM reports: go well past the reported LLC, and
        // in any run to 4 × the LLC, so that the sets from 2 × (those named DRAM) are several.
        plan.maxSet = quick ? std::clamp(16 * largest, 256 * kMiB, 512 * kMiB)
                            : std::clamp(32 * largest, 512 * kMiB, 1024 * kMiB);
        plan.maxSet = std::max(plan.maxSet, 4 * largest);
        if (const auto available = detail::availableMemory(); available > 0)
            plan.maxSet = std::min(
                plan.maxSet, std::max(available / 4, std::min(4 * largest, available / 2)));
    }
    const std::uint64_t minSet = std::max<std::uint64_t>(options.minWorkingSet, 1024);
    plan.maxSet = std::max(plan.maxSet, 2 * minSet);
    const int perOctave = options.pointsPerOctave > 0 ? options.pointsPerOctave : (quick ? 2 : 3);
    const double octaves
        = std::log2(static_cast<double>(plan.maxSet) / static_cast<double>(minSet));
    const int steps = static_cast<int>(std::ceil(octaves * perOctave - 1e-9));
    for (int i = 0; i <= steps; ++i) {
        const double size
            = static_cast<double>(minSet) * std::exp2(static_cast<double>(i) / perOctave);
        plan.sizes.push_back(std::min(plan.maxSet, static_cast<std::uint64_t>(size)));
    }
    return plan;
}

// One buffer for every memory kernel: the load uses it whole, copy in two arrays, triad in
// three. Page aligned; `elements` doubles.
struct SweepBuffer {
    std::unique_ptr<double, FreeDeleter> data;
    std::size_t elements = 0;
};

SweepBuffer allocateSweepBuffer(std::uint64_t maxSet)
{
    SweepBuffer buffer;
    buffer.elements = static_cast<std::size_t>(maxSet / 8 / 64 * 64 + 512);
    buffer.data.reset(static_cast<double *>(
        std::aligned_alloc(4096, (buffer.elements * 8 + 4095) / 4096 * 4096)));
    return buffer;
}

// 1 thread, and all of them when there are more.
std::vector<int> teamSizes(int threads)
{
    std::vector<int> teams { 1 };
    if (threads > 1)
        teams.push_back(threads);
    return teams;
}

// The compute kernels, per precision: the widest ISA with FMA (when it has one) and mul+add,
// the next narrower FMA ISA too (AVX2 beside AVX-512, to compare with other tools), and the
// ISA's scalar instructions with and without FMA.
std::vector<detail::FlopKernel> computeKernels(Isa widest)
{
    std::vector<detail::FlopKernel> kernels;
    for (bool fp64 : { true, false }) {
        if (detail::isaHasFma(widest))
            kernels.push_back({ widest, fp64, true, true });
        kernels.push_back({ widest, fp64, true, false });
        if (widest == Isa::AVX512)
            kernels.push_back({ Isa::AVX2, fp64, true, true });
        kernels.push_back({ widest, fp64, false, true });
        kernels.push_back({ widest, fp64, false, false });
    }
    std::erase_if(
        kernels, [](const detail::FlopKernel &k) { return detail::flopsPerIteration(k) <= 0.0; });
    return kernels;
}

// The sample a compute kernel fills, named by the instructions it runs.
ComputeSample computeSampleFor(const detail::FlopKernel &kernel, int threads)
{
    ComputeSample sample;
    sample.precision = kernel.fp64 ? Precision::FP64 : Precision::FP32;
    sample.isa = std::string(
        detail::isaName(kernel.simd ? kernel.isa : (kernel.fma ? Isa::AVX2 : Isa::SSE2)));
    if (kernel.isa == Isa::Portable)
        sample.isa = "portable";
    sample.simd = kernel.simd;
    sample.fma = kernel.fma;
    sample.threads = threads;
    return sample;
}

// The plateaus of each kernel's curve, per team size, named by the caches that team holds; the
// sizes used and the labelling's warnings are kept in the measurement.
void addPlateaus(Measurement &m)
{
    for (int teamSize : teamSizes(m.threads)) {
        const CacheSizes caches = cacheSizesFor(m.reportedCaches, teamSize);
        m.labelling.push_back({ teamSize, caches });
        for (MemoryKernel kernel : kMemoryKernels) {
            std::vector<BandwidthSample> curve;
            for (const auto &s : m.sweep) {
                if (s.kernel == kernel && s.threads == teamSize)
                    curve.push_back(s);
            }
            if (curve.empty())
                continue;
            const LabelledPlateaus labelled = labelPlateaus(curve, caches);
            for (const auto &plateau : labelled.levels)
                m.plateaus.push_back({ kernel, teamSize, plateau });
            for (const auto &warning : labelled.warnings)
                m.warnings.push_back(std::string(memoryKernelName(kernel)) + ", "
                    + threadsText(teamSize) + ": " + warning);
        }
    }
}

// What a run of measureMachine() knows before it measures anything.
Measurement describeRun(const MeasureOptions &options, int hardwareThreads)
{
    Measurement m;
    m.tool = std::string("ridgepoint measure ") + RIDGEPOINT_VERSION;
    m.date = detail::utcNow();
    m.host = detail::hostName();
    m.cpuModel = detectCpuModel();
    m.cpuVendor = detail::cpuInfoField("vendor_id");
    m.hardwareThreads = hardwareThreads;
    m.threads = options.threads > 0 ? options.threads : m.hardwareThreads;
    m.budgetSeconds = options.budgetSeconds;
    m.writeAllocateCounted = false;
    m.byteCounting = "bytes the kernel reads plus bytes it writes: load 8 B, copy 16 B, triad "
                     "24 B per element; write-allocate traffic (the line a store miss reads "
                     "first) is not counted";
    m.reportedCaches = options.caches ? *options.caches : detectCaches();
    m.spec = options.spec;
    return m;
}

// The ISAs this processor runs, up to `maxIsa` when given; an error for an unknown name.
Expected<std::vector<Isa>, std::string> usableIsas(const std::string &maxIsa)
{
    auto isas = detail::supportedIsas();
    if (!maxIsa.empty()) {
        Isa limit {};
        if (!detail::isaFromName(maxIsa, limit))
            return Unexpected(std::string("unknown instruction set \"") + maxIsa
                + "\" (expected portable, sse2, avx2 or avx512)");
        std::erase_if(isas, [&](Isa isa) { return isa > limit; });
    }
    return isas;
}

class Measurer
{
public:
    Measurer(const MeasureOptions &options, const MeasureCallback &callback,
        const std::atomic<bool> *cancel)
        : m_options(options)
        , m_callback(callback)
        , m_cancel(cancel)
        , m_start(MeasureClock::now())
        , m_lastCall(m_start)
    { }

    Expected<MeasureResult, std::string> run();

private:
    bool checkpoint(const std::string &stage, const BandwidthSample *sample = nullptr,
        const ComputeSample *compute = nullptr);
    std::vector<double> trials(const std::string &stage, double slotSeconds,
        const std::function<std::pair<double, double>()> &trial);
    bool calibrate(ThreadTeam &team, const std::function<void(int)> &job, double target,
        const std::string &stage, std::uint64_t &count, std::uint64_t limit);
    double slot(double phaseEnd, int remaining) const;
    double &sink(int t) { return m_sinks[static_cast<std::size_t>(t) * 8 % m_sinks.size()]; }

    bool measureMemory(Measurement &m, Isa isa);
    bool firstTouch(ThreadTeam &team, const SweepBuffer &buffer, std::uint64_t maxSet);
    enum class Step { Measured, Skipped, Cancelled };
    Step measureBandwidth(Measurement &m, ThreadTeam &team, Isa isa, MemoryKernel kernel,
        std::uint64_t size, const SweepBuffer &buffer, double slotSeconds);
    bool measureCompute(Measurement &m, Isa widest);
    bool warmUp(ThreadTeam &team, const detail::FlopKernel &kernel);
    bool measureFlops(
        Measurement &m, ThreadTeam &team, const detail::FlopKernel &kernel, double slotSeconds);
    void findEnergyCounters(Measurement &m);
    std::optional<std::vector<std::uint64_t>> energyNow() const;
    void recordEnergy(Measurement &m, EnergySample sample,
        const std::optional<std::vector<std::uint64_t>> &before, MeasureClock::time_point begin);

    const MeasureOptions &m_options;
    const MeasureCallback &m_callback;
    const std::atomic<bool> *m_cancel;
    MeasureClock::time_point m_start;
    MeasureClock::time_point m_lastCall;
    std::string m_lastStage;
    double m_lastFraction = 0.0;
    bool m_cancelled = false;
    std::vector<int> m_cpus = detail::allowedCpus();
    std::vector<double> m_sinks = std::vector<double>(1024, 0.0);
    std::optional<detail::RaplCounters> m_rapl; // none: no energy is read
    Isa m_widest = Isa::Portable; // of the compute runs
};

void Measurer::findEnergyCounters(Measurement &m)
{
    auto counters = detail::findRaplCounters(m_options.powercapRoot);
    if (!counters) {
        m.energy.unavailable = counters.error();
        return;
    }
    m.energy.counters = counters->description;
    m.energy.powerLimitWatts = counters->powerLimitWatts;
    m_rapl = std::move(*counters);
}

// The counters now (read outside the timed trials: a read is a few system calls).
std::optional<std::vector<std::uint64_t>> Measurer::energyNow() const
{
    return m_rapl ? detail::readRaplEnergy(*m_rapl) : std::nullopt;
}

// A run's energy sample: the joules since `before`, over the wall time since `begin`.
void Measurer::recordEnergy(Measurement &m, EnergySample sample,
    const std::optional<std::vector<std::uint64_t>> &before, MeasureClock::time_point begin)
{
    const auto after = energyNow();
    if (!before || !after)
        return;
    bool valid = true;
    sample.seconds = secondsSince(begin);
    sample.joules = detail::raplJoulesBetween(*m_rapl, *before, *after, valid);
    if (valid)
        m.energy.samples.push_back(sample);
}

// False once cancelled. Calls the callback when there is news or 40 ms have passed.
bool Measurer::checkpoint(
    const std::string &stage, const BandwidthSample *sample, const ComputeSample *compute)
{
    if (m_cancel && m_cancel->load())
        m_cancelled = true;
    const auto now = MeasureClock::now();
    if (m_callback && !m_cancelled
        && (sample || compute || stage != m_lastStage
            || now - m_lastCall >= std::chrono::milliseconds(40))) {
        MeasureProgress progress;
        progress.fraction = std::clamp(secondsSince(m_start) / m_options.budgetSeconds, 0.0, 0.99);
        progress.fraction = std::max(progress.fraction, m_lastFraction);
        m_lastFraction = progress.fraction;
        progress.stage = stage;
        progress.sample = sample;
        progress.compute = compute;
        m_lastCall = now;
        m_lastStage = stage;
        if (!m_callback(progress))
            m_cancelled = true;
    }
    return !m_cancelled;
}

// Trials of `trial` (returns seconds and work done) until the slot is used, at least three;
// returns the rates (work per second), empty when cancelled.
std::vector<double> Measurer::trials(const std::string &stage, double slotSeconds,
    const std::function<std::pair<double, double>()> &trial)
{
    std::vector<double> rates;
    const auto begin = MeasureClock::now();
    while (rates.size() < 3 || (secondsSince(begin) < slotSeconds && rates.size() < 25)) {
        if (!checkpoint(stage))
            return {};
        const auto [seconds, work] = trial();
        if (seconds > 0.0)
            rates.push_back(work / seconds);
    }
    return rates;
}

// Warm-up and calibration: grows `count` (passes or iterations the job reads) until a run
// takes about `target` seconds (one pass of a small set is mostly the wake-up of the team).
// False when cancelled.
bool Measurer::calibrate(ThreadTeam &team, const std::function<void(int)> &job, double target,
    const std::string &stage, std::uint64_t &count, std::uint64_t limit)
{
    for (;;) {
        const double seconds = team.run(job);
        if (seconds >= target / 2 || count >= limit || !checkpoint(stage))
            break;
        count = static_cast<std::uint64_t>(
            static_cast<double>(count) * std::clamp(target / std::max(seconds, 1e-7), 2.0, 100.0));
    }
    return !m_cancelled;
}

// The seconds each of the `remaining` measurements may take to end the phase at `phaseEnd`.
double Measurer::slot(double phaseEnd, int remaining) const
{
    const double left = std::max(0.0, phaseEnd - secondsSince(m_start));
    return left / std::max(remaining, 1);
}

bool Measurer::measureMemory(Measurement &m, Isa isa)
{
    const double phaseEnd = m_options.budgetSeconds * (m_options.compute ? 0.75 : 1.0);
    const SweepPlan plan = planSweep(m_options, m);
    const SweepBuffer buffer = allocateSweepBuffer(plan.maxSet);
    if (!buffer.data)
        return false;
    const std::vector<int> teams = teamSizes(m.threads);
    int remaining = static_cast<int>(teams.size() * std::size(kMemoryKernels) * plan.sizes.size());
    for (int teamSize : teams) {
        ThreadTeam team(teamSize, m_cpus);
        if (!firstTouch(team, buffer, plan.maxSet))
            return false;
        for (MemoryKernel kernel : kMemoryKernels) {
            for (std::uint64_t size : plan.sizes) {
                --remaining;
                const Step step = measureBandwidth(
                    m, team, isa, kernel, size, buffer, slot(phaseEnd, remaining + 1));
                if (step == Step::Cancelled)
                    return false;
            }
        }
    }
    addPlateaus(m);
    return true;
}

// First touch by the team that will use the pages, in slices so Cancel stays quick.
bool Measurer::firstTouch(ThreadTeam &team, const SweepBuffer &buffer, std::uint64_t maxSet)
{
    double *data = buffer.data.get();
    const auto members = static_cast<std::size_t>(team.size());
    const std::size_t slice = 4 * kMiB;
    for (std::size_t from = 0; from < buffer.elements; from += slice) {
        if (!checkpoint("preparing " + std::to_string(maxSet / kMiB) + " MiB"))
            return false;
        const std::size_t to = std::min(buffer.elements, from + slice);
        team.run([&](int t) {
            const std::size_t part = (to - from) / members + 1;
            const std::size_t a = from + part * static_cast<std::size_t>(t);
            const std::size_t b = std::min(to, a + part);
            for (std::size_t i = a; i < b; ++i)
                data[i] = 1.0;
        });
    }
    return true;
}

// One point of the curve: `kernel` over a working set of `size` bytes shared by the team.
// Skipped when the set does not divide into the team's arrays or does not fit the buffer.
Measurer::Step Measurer::measureBandwidth(Measurement &m, ThreadTeam &team, Isa isa,
    MemoryKernel kernel, std::uint64_t size, const SweepBuffer &buffer, double slotSeconds)
{
    const int teamSize = team.size();
    const int arrays = memoryKernelArrays(kernel);
    const std::size_t stride = (buffer.elements - 512) / static_cast<std::size_t>(arrays) / 64 * 64;
    const std::size_t perThread = static_cast<std::size_t>(
        size / 8 / static_cast<std::uint64_t>(arrays * teamSize) / 64 * 64);
    if (perThread == 0 || perThread * static_cast<std::size_t>(teamSize) > stride)
        return Step::Skipped;
    const std::string stage = std::string(memoryKernelName(kernel)) + ", " + threadsText(teamSize);
    // Arrays 512 B apart beyond the stride so a[i], b[i], c[i] do not alias in 4 KiB.
    double *a = buffer.data.get();
    double *b = a + stride + 64;
    double *c = a + 2 * stride + 128;
    std::uint64_t passes = 1;
    const auto job = [&](int t) {
        const std::size_t offset = perThread * static_cast<std::size_t>(t);
        const auto n = static_cast<std::size_t>(passes);
        double result = 0.0;
        switch (kernel) {
        case MemoryKernel::Load:
            result = detail::loadKernel(isa, a + offset, perThread, n);
            break;
        case MemoryKernel::Copy:
            detail::copyKernel(isa, a + offset, b + offset, perThread, n);
            break;
        case MemoryKernel::Triad:
            detail::triadKernel(isa, a + offset, b + offset, c + offset, 0.5, perThread, n);
            break;
        }
        sink(t) += result;
    };
    const double bytesPerPass
        = memoryKernelBytesPerElement(kernel) * static_cast<double>(perThread) * teamSize;
    const double target = std::clamp(slotSeconds / 6.0, 0.001, 0.02);
    if (!checkpoint(stage) || !calibrate(team, job, target, stage, passes, 10000000))
        return Step::Cancelled;
    const auto energyBefore = energyNow();
    const auto begin = MeasureClock::now();
    const auto rates = trials(stage, slotSeconds, [&] {
        return std::pair { team.run(job), bytesPerPass * static_cast<double>(passes) };
    });
    if (rates.empty())
        return Step::Cancelled;
    BandwidthSample sample;
    sample.kernel = kernel;
    sample.threads = teamSize;
    sample.workingSet
        = static_cast<std::uint64_t>(perThread) * static_cast<std::uint64_t>(arrays * teamSize) * 8;
    sample.best = *std::max_element(rates.begin(), rates.end());
    sample.median = medianOf(rates);
    sample.trials = static_cast<int>(rates.size());
    recordEnergy(m,
        EnergySample { false, Precision::FP64, kernel, sample.workingSet, teamSize,
            bytesPerPass * static_cast<double>(passes) * static_cast<double>(rates.size()) },
        energyBefore, begin);
    m.sweep.push_back(sample);
    return checkpoint(stage, &m.sweep.back()) ? Step::Measured : Step::Cancelled;
}

bool Measurer::measureCompute(Measurement &m, Isa widest)
{
    const double phaseEnd = m_options.budgetSeconds;
    const std::vector<detail::FlopKernel> kernels = computeKernels(widest);
    m_widest = widest;
    const std::vector<int> teams = teamSizes(m.threads);
    int remaining = static_cast<int>(kernels.size() * teams.size());
    for (int teamSize : teams) {
        ThreadTeam team(teamSize, m_cpus);
        if (!warmUp(team, kernels.front()))
            return false;
        for (const auto &kernel : kernels) {
            if (!measureFlops(m, team, kernel, slot(phaseEnd, remaining--)))
                return false;
        }
    }
    return true;
}

// Lets the clock ramp up before the first timing; false when cancelled.
bool Measurer::warmUp(ThreadTeam &team, const detail::FlopKernel &kernel)
{
    const auto begin = MeasureClock::now();
    while (secondsSince(begin) < 0.05) {
        if (!checkpoint("warming up"))
            return false;
        team.run([&](int t) { sink(t) += detail::runFlopKernel(kernel, 20000, 0.1); });
    }
    return true;
}

// One compute figure: `kernel` on every member of the team; false when cancelled.
bool Measurer::measureFlops(
    Measurement &m, ThreadTeam &team, const detail::FlopKernel &kernel, double slotSeconds)
{
    const int teamSize = team.size();
    ComputeSample sample = computeSampleFor(kernel, teamSize);
    const std::string stage
        = detail::computeCeilingName(sample, teamSize) + ", " + threadsText(teamSize);
    const double target = std::clamp(slotSeconds / 6.0, 0.002, 0.02);
    std::uint64_t iterations = 4096;
    const auto job
        = [&](int t) { sink(t) += detail::runFlopKernel(kernel, iterations, 0.1 + 0.01 * t); };
    if (!checkpoint(stage) || !calibrate(team, job, target, stage, iterations, 10000000000ULL))
        return false;
    const double flops
        = detail::flopsPerIteration(kernel) * static_cast<double>(iterations) * teamSize;
    const auto energyBefore = energyNow();
    const auto begin = MeasureClock::now();
    const auto rates = trials(stage, slotSeconds, [&] {
        return std::pair { team.run(job), flops };
    });
    if (rates.empty())
        return false;
    // The energy of a FLOP is the roof kernel's (the widest ISA's vectors, with FMA when it has
    // one): a scalar or a narrower vector FLOP costs more, and one figure per precision is fitted.
    if (kernel.isa == m_widest && kernel.simd && (kernel.fma || !detail::isaHasFma(kernel.isa)))
        recordEnergy(m,
            EnergySample { true, sample.precision, MemoryKernel::Load, 0, teamSize,
                flops * static_cast<double>(rates.size()) },
            energyBefore, begin);
    sample.best = *std::max_element(rates.begin(), rates.end());
    sample.median = medianOf(rates);
    sample.trials = static_cast<int>(rates.size());
    m.compute.push_back(sample);
    return checkpoint(stage, nullptr, &m.compute.back());
}

Expected<MeasureResult, std::string> Measurer::run()
{
    Measurement m = describeRun(m_options, static_cast<int>(m_cpus.size()));
    const auto isas = usableIsas(m_options.maxIsa);
    if (!isas)
        return Unexpected(isas.error());
    for (Isa isa : *isas)
        m.isas.emplace_back(detail::isaName(isa));
    m.isa = m.isas.back();
    findEnergyCounters(m);

    if (m_options.memory && !measureMemory(m, isas->back()))
        return Unexpected(std::string(m_cancelled ? "cancelled" : "cannot allocate the buffer"));
    if (m_options.compute && !measureCompute(m, isas->back()))
        return Unexpected(std::string("cancelled"));
    m.elapsedSeconds = secondsSince(m_start);
    std::string name = m_options.name;
    if (name.empty())
        name = "Measured: " + m.cpuModel + " on " + m.host;
    auto hardware = hardwareFromMeasurement(m, name);
    if (!hardware)
        return Unexpected(hardware.error());
    if (auto energy = fitEnergyModel(m))
        hardware->limits.energy = std::move(*energy);
    else
        m.energy.unavailable = energy.error();
    if (m_callback) {
        MeasureProgress done;
        done.fraction = 1.0;
        done.stage = "done";
        m_callback(done);
    }
    return MeasureResult { std::move(*hardware), std::move(m) };
}

} // namespace

Expected<MeasureResult, std::string> measureMachine(
    const MeasureOptions &options, const MeasureCallback &progress, const std::atomic<bool> *cancel)
{
    MeasureOptions checked = options;
    if (!(checked.budgetSeconds > 0.0))
        return Unexpected(std::string("the time budget must be positive"));
    if (checked.threads < 0 || checked.threads > 1024)
        return Unexpected(std::string("threads must be between 1 and 1024"));
    if (!checked.memory && !checked.compute)
        return Unexpected(std::string("nothing to measure"));
    Measurer measurer(checked, progress, cancel);
    return measurer.run();
}

} // namespace ridgepoint
