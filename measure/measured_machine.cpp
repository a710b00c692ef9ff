// The machine a measurement describes: its ceilings from the compute samples and the bandwidth
// plateaus (the all-thread figures visible, the one-thread ones hidden), the spec's ceilings
// beside them, and the names of kernels and ceilings they share with the runner.
#include "measure/measure.h"

#include "measure/measure_detail.h"

#include <algorithm>

namespace ridgepoint {

namespace detail {

std::string threadsText(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string isaLabel(std::string_view isa)
{
    if (isa == "avx512")
        return "AVX-512";
    if (isa == "avx2")
        return "AVX2";
    if (isa == "sse2")
        return "SSE2";
    return "portable";
}

std::string computeCeilingName(const ComputeSample &sample, int allThreads)
{
    std::string name = sample.precision == Precision::FP64 ? "FP64 " : "FP32 ";
    if (sample.simd)
        name += isaLabel(sample.isa) + (sample.fma ? " FMA" : " mul+add");
    else
        name += sample.fma ? "scalar FMA" : "scalar";
    if (sample.threads != allThreads)
        name += sample.threads == 1 ? " (1 thread)"
                                    : " (" + std::to_string(sample.threads) + " threads)";
    return name;
}

} // namespace detail

std::string_view memoryKernelName(MemoryKernel kernel)
{
    switch (kernel) {
    case MemoryKernel::Load:
        return "load";
    case MemoryKernel::Copy:
        return "copy";
    case MemoryKernel::Triad:
        return "triad";
    }
    return "load";
}

std::optional<MemoryKernel> memoryKernelFromName(std::string_view name)
{
    for (auto kernel : { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad }) {
        if (name == memoryKernelName(kernel))
            return kernel;
    }
    return std::nullopt;
}

int memoryKernelArrays(MemoryKernel kernel)
{
    switch (kernel) {
    case MemoryKernel::Load:
        return 1;
    case MemoryKernel::Copy:
        return 2;
    case MemoryKernel::Triad:
        return 3;
    }
    return 1;
}

double memoryKernelBytesPerElement(MemoryKernel kernel)
{
    return 8.0 * memoryKernelArrays(kernel);
}

namespace {

using detail::computeCeilingName;
using detail::threadsText;

// A figure this measurement gave: basis measured, the tool, when and where, and `notes` (what
// the figure is made of).
Provenance measuredProvenance(const Measurement &m, std::string notes)
{
    Provenance p;
    p.basis = Basis::Measured;
    p.tool = m.tool.empty() ? std::string("ridgepoint measure") : m.tool;
    p.date = m.date;
    p.host = m.host;
    p.notes = std::move(notes);
    return p;
}

// "load kernel, 2 threads: plateau over working sets 64 MiB–512 MiB, 7 samples (their median)".
std::string plateauNotes(const PlateauRecord &p)
{
    return std::string(memoryKernelName(p.kernel)) + " kernel, " + threadsText(p.threads)
        + ": plateau over working sets " + formatBinarySize(p.plateau.firstWorkingSet) + "–"
        + formatBinarySize(p.plateau.lastWorkingSet) + ", " + std::to_string(p.plateau.points)
        + (p.plateau.points == 1 ? " sample" : " samples") + " (the median of their best trials)";
}

MemoryCeiling memoryCeiling(const Measurement &m, const PlateauRecord &p, std::string name)
{
    MemoryCeiling c;
    c.name = std::move(name);
    c.level = p.plateau.level;
    c.bandwidth = p.plateau.bandwidth;
    c.provenance = measuredProvenance(m, plateauNotes(p));
    return c;
}

// The name, vendor, source and notes of a measured machine, without ceilings.
Hardware describedMachine(const Measurement &m, const std::string &name)
{
    Hardware hardware;
    hardware.name = name;
    hardware.vendor = m.cpuVendor == "AuthenticAMD" ? "AMD"
        : m.cpuVendor == "GenuineIntel"             ? "Intel"
                                                    : m.cpuVendor;
    hardware.kind = "cpu";
    hardware.source = "Measured by ridgepoint measure on " + m.date + " (" + m.cpuModel + ", "
        + threadsText(m.threads) + ", " + detail::isaLabel(m.isa) + "): best of repeated trials";
    hardware.notes = "Bandwidths count " + m.byteCounting + ". Ceilings are for "
        + threadsText(m.threads)
        + "; the one-thread figures are hidden ceilings marked (1 thread). Other work on the "
          "machine while measuring lowers the figures.";
    return hardware;
}

void addComputeCeiling(
    Hardware &hardware, const Measurement &m, const ComputeSample &s, bool visible)
{
    const int allThreads = m.threads;
    ComputeCeiling c;
    c.name = computeCeilingName(s, allThreads);
    if (hardware.findCompute(c.name))
        return;
    c.precision = s.precision;
    c.unit = s.simd ? "vector" : "scalar";
    c.peak = s.best;
    c.visible = visible;
    c.provenance = measuredProvenance(m,
        computeCeilingName(s, s.threads) + ", " + threadsText(s.threads) + ": best of "
            + std::to_string(s.trials) + (s.trials == 1 ? " trial" : " trials"));
    hardware.compute.push_back(c);
}

// The all-thread figures first; visible: the widest FMA (else mul+add) per precision and scalar
// FP64. Then the widest ISA's other thread counts, hidden. The default: the first visible FP64
// vector ceiling.
void addComputeCeilings(Hardware &hardware, const Measurement &m)
{
    const bool widestHasFma = std::any_of(m.compute.begin(), m.compute.end(),
        [&](const ComputeSample &s) { return s.simd && s.isa == m.isa && s.fma; });
    for (const auto &s : m.compute) {
        if (s.threads != m.threads || !(s.best > 0.0))
            continue;
        const bool widestFma = s.simd && s.isa == m.isa && (s.fma || !widestHasFma);
        const bool scalarFp64 = !s.simd && !s.fma && s.precision == Precision::FP64;
        addComputeCeiling(hardware, m, s, widestFma || scalarFp64);
    }
    for (const auto &s : m.compute) {
        if (s.threads != m.threads && s.best > 0.0 && s.simd && s.isa == m.isa)
            addComputeCeiling(hardware, m, s, false);
    }
    for (const auto &c : hardware.compute) {
        if (c.precision == Precision::FP64 && c.unit == "vector" && c.visible) {
            hardware.defaultCompute = c.name;
            break;
        }
    }
}

// Per kernel the all-thread plateaus ("DRAM load", visible for the load), then the load
// plateaus of the other thread counts, hidden ("L1 load (1 thread)").
void addMemoryCeilings(Hardware &hardware, const Measurement &m)
{
    for (MemoryKernel kernel : { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad }) {
        for (const auto &p : m.plateaus) {
            if (p.kernel != kernel || p.threads != m.threads || !(p.plateau.bandwidth > 0.0))
                continue;
            MemoryCeiling c = memoryCeiling(m, p,
                std::string(memoryLevelName(p.plateau.level)) + " "
                    + std::string(memoryKernelName(kernel)));
            if (hardware.findMemory(c.name))
                continue;
            c.visible = kernel == MemoryKernel::Load;
            hardware.memory.push_back(c);
        }
    }
    for (const auto &p : m.plateaus) {
        if (p.kernel != MemoryKernel::Load || p.threads == m.threads
            || !(p.plateau.bandwidth > 0.0))
            continue;
        MemoryCeiling c = memoryCeiling(m, p,
            std::string(memoryLevelName(p.plateau.level)) + " load (" + threadsText(p.threads)
                + ")");
        if (hardware.findMemory(c.name))
            continue;
        c.visible = false;
        hardware.memory.push_back(c);
    }
}

// The spec's ceilings, marked " (spec)", and where they come from.
void addSpecCeilings(Hardware &hardware, const Hardware &spec)
{
    for (auto c : spec.compute) {
        c.name += " (spec)";
        if (!hardware.findCompute(c.name))
            hardware.compute.push_back(c);
    }
    for (auto c : spec.memory) {
        c.name += " (spec)";
        if (!hardware.findMemory(c.name))
            hardware.memory.push_back(c);
    }
    hardware.source += "; spec ceilings (spec) from " + spec.name + ": " + spec.source;
}

} // namespace

Expected<Hardware, std::string> hardwareFromMeasurement(
    const Measurement &m, const std::string &name)
{
    Hardware hardware = describedMachine(m, name);
    addComputeCeilings(hardware, m);
    addMemoryCeilings(hardware, m);
    if (m.spec)
        addSpecCeilings(hardware, *m.spec);
    if (hardware.compute.empty() && hardware.memory.empty())
        return Unexpected(std::string("nothing was measured"));
    // A machine needs both kinds of roof; a run of one kind borrows nothing, it says so.
    if (hardware.compute.empty())
        return Unexpected(std::string("no compute ceiling was measured"));
    if (hardware.memory.empty())
        return Unexpected(std::string("no bandwidth plateau was found in the sweep"));
    if (const auto problems = validateHardware(hardware); !problems.empty())
        return Unexpected(problems.front());
    return hardware;
}

} // namespace ridgepoint
