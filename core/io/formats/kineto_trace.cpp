#include "core/io/formats/kineto_trace.h"

#include "core/io/formats/kineto_comms.h"
#include "core/io/formats/kineto_events.h"
#include "core/io/formats/kineto_link.h"
#include "core/io/formats/kineto_ops.h"
#include "core/io/sniff.h"
#include "core/model/chip_link.h"
#include "core/model/units.h"
#include "core/presets/presets.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

namespace ridgepoint {

using namespace kineto;

namespace {

constexpr double kMicrosecond = 1e-6;

// One point being summed: launches of one kernel name under one operator and shapes.
struct Sum {
    std::string name;
    std::string group;
    double seconds = 0.0;
    double flops = 0.0;
    double bytes = 0.0;
    std::size_t launches = 0;
    std::optional<Precision> precision;
    int line = 0;
    std::optional<MemoryLevel> level; // a collective's link; none: main memory
};

// What a kernel's operator costs, with where its bytes go and its label when it is not the
// operator's own (a collective's).
struct Placed {
    OperatorCost cost;
    std::optional<MemoryLevel> level;
    std::string label;
};
using PlacedOr = Expected<Placed, std::string>;

// The operator with its tensor inputs, as the point's group: "aten::mm(float[1024, 100], ...)".
std::string operatorLabel(const Events &events, const CpuOperator &op)
{
    std::string out = events.names[op.name] + "(";
    bool first = true;
    for (const OperatorInput &input : op.inputs) {
        if (!elementBytes(input.type) || !input.listed)
            continue;
        out.append(first ? "" : ", ").append(input.type).append("[");
        for (std::size_t i = 0; i < input.dims.size(); ++i)
            out.append(i == 0 ? "" : ", ").append(std::to_string(input.dims[i]));
        out.append("]");
        first = false;
    }
    return out + ")";
}

bool isCollective(std::string_view op, std::string_view kernel)
{
    return op == "record_param_comms" || op.starts_with("c10d::") || op.starts_with("nccl:")
        || kernel.starts_with("ncclKernel") || kernel.starts_with("ncclDevKernel")
        || kernel.find("rccl") != std::string_view::npos;
}

std::string linkReason(const KernelLink &link)
{
    switch (link.problem) {
    case LinkProblem::NoLaunch:
        return "no launch in the trace (a CUDA graph replay or a thread the profiler did not "
               "trace)";
    case LinkProblem::RepeatedCorrelation:
        return "its correlation id " + std::to_string(link.correlation)
            + " is given to several launches";
    case LinkProblem::GraphLaunch:
        return "launched by a CUDA graph: the operators inside are not recorded";
    case LinkProblem::NoOperator:
        return "its launch lies inside no CPU operator";
    case LinkProblem::None:
        break;
    }
    return {};
}

constexpr std::string_view kCompiledRegion = "inside a compiled region";

// torch.compile's regions record their inputs, not what the Triton kernels inside compute.
bool compiledRegion(std::string_view op)
{
    return op == "CompiledFunction" || op == "CompiledFunctionBackward";
}

// The link a collective inside a node crosses (docs/MODEL.md §11.6): the link between the chips
// of the trace's own machine (traceMachine's preset; chipLink: NVLink, else ICI, else PCIe), so an
// L40S node's all-reduce meets PCIe; else NVLink, or ICI (AMD's Infinity Fabric) for an RCCL
// kernel or an AMD device. The machine is looked up once, at the first collective.
class NodeLink
{
public:
    explicit NodeLink(const Events &events)
        : m_events(events)
    { }

    MemoryLevel of(std::string_view kernel)
    {
        if (!m_looked) {
            m_looked = true;
            TraceSummary trace;
            trace.device = m_events.device;
            const auto machine = traceMachine(trace);
            if (const MemoryCeiling *link = machine ? chipLink(*machine) : nullptr)
                m_device = link->level;
        }
        if (m_device)
            return *m_device;
        const bool rccl = kernel.find("rccl") != std::string_view::npos
            || (m_events.device && m_events.device->find("AMD") != std::string::npos);
        return rccl ? MemoryLevel::ICI : MemoryLevel::NVLink;
    }

private:
    const Events &m_events;
    bool m_looked = false;
    std::optional<MemoryLevel> m_device;
};

// A collective's bytes on its link (kineto_comms.h), from the args of its kernel or operator.
PlacedOr collectiveOf(
    const Events &events, const CollectiveArgs &args, std::string_view kernel, NodeLink &link)
{
    const std::size_t nodeGpus = std::max(events.devices, kNodeGpus);
    auto cost = collectiveCost(args, nodeGpus, link.of(kernel));
    if (!cost)
        return Unexpected(cost.error());
    return Placed { { cost->flops, cost->bytes, cost->precision }, cost->level,
        std::move(cost->label) };
}

// Why the kernel's operator gives it no FLOPs and bytes, or its cost (for the whole call).
PlacedOr costOf(
    const Events &events, const CpuOperator &op, std::string_view kernel, NodeLink &link)
{
    const std::string &name = events.names[op.name];
    if (compiledRegion(name))
        return Unexpected(std::string(kCompiledRegion));
    if (op.collective != kNoCollective)
        return collectiveOf(events, events.collectives[op.collective], kernel, link);
    if (isCollective(name, kernel))
        return Unexpected(std::string("collective (") + name
            + "): its message is not recorded (no \"Collective name\", \"In msg nelems\", "
              "\"Group size\" or \"dtype\" in its args)");
    if (!op.shapesRecorded)
        return Unexpected(std::string("no shapes recorded: profile with record_shapes=True"));
    auto cost = operatorCost(name, op.inputs);
    if (!cost)
        return Unexpected(cost.error());
    return Placed { *cost, std::nullopt, {} };
}

class TraceAssembler
{
public:
    TraceAssembler(const Events &events, const std::string &fileName)
        : m_events(events)
        , m_fileName(fileName)
        , m_link(events)
    { }

    void run();
    PointsReadResult result();

private:
    void place(std::size_t kernel, const std::string &group, const Placed &placed, double share);
    void refuse(std::size_t kernel, std::string reason);

    const Events &m_events;
    const std::string &m_fileName;
    NodeLink m_link;
    std::vector<Sum> m_sums;
    std::unordered_map<std::string, std::size_t> m_sumOf;
    std::map<std::pair<std::string, std::string>, UnplacedKernels> m_unplaced;
    TraceSummary m_summary;
};

void TraceAssembler::run()
{
    const std::vector<KernelLink> links = linkKernels(m_events);
    // An operator's FLOPs and bytes are shared among the kernels it launched in proportion to
    // their time (docs/MODEL.md §11.1): first the time of each operator's kernels.
    std::unordered_map<std::size_t, double> opSeconds;
    std::unordered_map<std::size_t, std::size_t> opKernels;
    std::vector<std::optional<PlacedOr>> costs(m_events.operators.size());
    for (std::size_t k = 0; k < m_events.kernels.size(); ++k) {
        const Kernel &kernel = m_events.kernels[k];
        m_summary.gpuSeconds += kernel.dur * kMicrosecond;
        if (kernel.collective != kNoCollective || !links[k].op
            || links[k].problem != LinkProblem::None)
            continue;
        auto &cost = costs[*links[k].op];
        if (!cost)
            cost = costOf(
                m_events, m_events.operators[*links[k].op], m_events.names[kernel.name], m_link);
        if (*cost) {
            opSeconds[*links[k].op] += kernel.dur;
            ++opKernels[*links[k].op];
        }
    }
    m_summary.kernels = m_events.kernels.size();
    for (std::size_t k = 0; k < m_events.kernels.size(); ++k) {
        const Kernel &kernel = m_events.kernels[k];
        const std::optional<std::size_t> op = links[k].op;
        // A collective kernel that records its own message is placed whatever its link.
        if (kernel.collective != kNoCollective) {
            const auto placed = collectiveOf(m_events, m_events.collectives[kernel.collective],
                m_events.names[kernel.name], m_link);
            if (!placed)
                refuse(k, placed.error());
            else
                place(k, op ? m_events.names[m_events.operators[*op].name] : "", *placed, 1.0);
            continue;
        }
        if (!op || links[k].problem != LinkProblem::None) {
            const bool compiled
                = op && compiledRegion(m_events.names[m_events.operators[*op].name]);
            refuse(k, compiled ? std::string(kCompiledRegion) : linkReason(links[k]));
            continue;
        }
        const auto &cost = *costs[*op];
        if (!cost) {
            refuse(k, cost.error());
            continue;
        }
        const double total = opSeconds[*op];
        const double share
            = total > 0.0 ? kernel.dur / total : 1.0 / static_cast<double>(opKernels[*op]);
        const CpuOperator &cpu = m_events.operators[*op];
        place(k, cost->label.empty() ? operatorLabel(m_events, cpu) : m_events.names[cpu.name],
            *cost, share);
    }
}

// fp32 data multiplied on tensor cores (PyTorch's allow_tf32, the default for matmuls until
// 1.12) runs at the TF32 roof: cuBLAS and CUTLASS name those kernels "tensorop" or "tf32".
std::optional<Precision> kernelPrecision(std::optional<Precision> data, std::string_view kernel)
{
    if (data == Precision::FP32
        && (kernel.find("tensorop") != std::string_view::npos
            || kernel.find("tf32") != std::string_view::npos))
        return Precision::TF32;
    return data;
}

// `group` is the operator with its shapes; a collective's is its operator's name (when it has
// one) and its message.
void TraceAssembler::place(
    std::size_t kernel, const std::string &group, const Placed &placed, double share)
{
    const Kernel &k = m_events.kernels[kernel];
    const OperatorCost &cost = placed.cost;
    if (cost.flops <= 0.0) {
        refuse(kernel, "moves data only (0 FLOPs): no place on a log-log roofline");
        return;
    }
    std::string label = placed.label.empty() ? group
        : group.empty()                      ? placed.label
                                             : group + ": " + placed.label;
    std::string key = label + '\n' + m_events.names[k.name];
    const auto [at, added] = m_sumOf.try_emplace(std::move(key), m_sums.size());
    if (added)
        m_sums.push_back({ m_events.names[k.name], std::move(label), 0.0, 0.0, 0.0, 0,
            placed.level ? cost.precision : kernelPrecision(cost.precision, m_events.names[k.name]),
            k.place.line, placed.level });
    Sum &sum = m_sums[at->second];
    sum.seconds += k.dur * kMicrosecond;
    sum.flops += cost.flops * share;
    sum.bytes += cost.bytes * share;
    ++sum.launches;
}

void TraceAssembler::refuse(std::size_t kernel, std::string reason)
{
    const Kernel &k = m_events.kernels[kernel];
    const std::string &name = m_events.names[k.name];
    auto [at, added] = m_unplaced.try_emplace({ name, reason });
    UnplacedKernels &u = at->second;
    if (added) {
        u.name = name;
        u.reason = std::move(reason);
    }
    u.seconds += k.dur * kMicrosecond;
    ++u.launches;
}

PointsReadResult TraceAssembler::result()
{
    PointsReadResult out;
    out.rowsRead = static_cast<int>(std::min<std::size_t>(m_summary.kernels, INT32_MAX));
    for (Sum &sum : m_sums) {
        KernelPoint point;
        point.name = std::move(sum.name);
        point.group = std::move(sum.group);
        point.flops = sum.flops;
        point.bytes = { { sum.level, sum.bytes } };
        point.seconds = sum.seconds;
        point.precision = sum.precision;
        point.source = { m_fileName, sum.line };
        // A point the chart cannot place (0 bytes of an empty tensor, 0 µs) is listed as unplaced.
        if (auto problem = pointProblem(point)) {
            UnplacedKernels &u = m_unplaced[{ point.name, *problem }];
            u.name = point.name;
            u.reason = *problem;
            u.seconds += sum.seconds;
            u.launches += sum.launches;
            continue;
        }
        m_summary.placedSeconds += sum.seconds;
        m_summary.points.push_back({ point.name, point.group, sum.launches });
        out.points.push_back(std::move(point));
    }
    for (auto &[key, unplaced] : m_unplaced)
        m_summary.unplaced.push_back(std::move(unplaced));
    std::stable_sort(m_summary.unplaced.begin(), m_summary.unplaced.end(),
        [](const UnplacedKernels &a, const UnplacedKernels &b) { return a.seconds > b.seconds; });
    m_summary.device = m_events.device;
    m_summary.multiprocessors = m_events.multiprocessors;
    m_summary.memoryBytes = m_events.memoryBytes;
    if (out.points.empty() && m_summary.kernels > 0) {
        const UnplacedKernels &top = m_summary.unplaced.front();
        out.diagnostics.push_back({ Severity::Error, m_fileName, 0, 0,
            "none of the " + std::to_string(m_summary.kernels)
                + " kernels could be placed; the most time went to " + top.name + " (" + top.reason
                + ")" });
    }
    out.trace = std::move(m_summary);
    return out;
}

} // namespace

bool looksLikeKinetoTrace(const Sniff &sniff)
{
    return sniff.json() && sniff.mentions("\"traceEvents\"")
        && (sniff.mentions("\"deviceProperties\"") || sniff.mentions("\"schemaVersion\""));
}

PointsReadResult readKinetoTrace(
    std::string_view text, const std::string &fileName, std::size_t padding)
{
    PointsReadResult out;
    auto events = readEvents(text, fileName, out.diagnostics, false, padding);
    if (!events)
        return out;
    if (!events->traceEvents) {
        out.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no \"traceEvents\" array (expected a PyTorch profiler trace)" });
        return out;
    }
    if (events->kernels.empty()) {
        out.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no GPU kernels in this trace (" + std::to_string(events->operators.size())
                + " CPU operators: a CPU-only profile; record with ProfilerActivity.CUDA to see "
                  "the GPU's work)" });
        return out;
    }
    TraceAssembler assembler(*events, fileName);
    assembler.run();
    PointsReadResult read = assembler.result();
    read.diagnostics.insert(
        read.diagnostics.begin(), out.diagnostics.begin(), out.diagnostics.end());
    return read;
}

namespace {

// The one GPU preset of the device's vendor (its name's first word, "AMD" or "NVIDIA") with as
// many compute units as the trace's device has multiprocessors, if exactly one has: ROCm names
// an MI250's die "AMD Radeon Graphics", and its 104 CUs are the MI250 GCD's.
const Hardware *byComputeUnits(const PresetDatabase &presets, const TraceSummary &trace)
{
    if (!trace.multiprocessors)
        return nullptr;
    const std::string_view device = *trace.device;
    const std::string_view vendor = device.substr(0, device.find(' '));
    const Hardware *match = nullptr;
    for (const Hardware &machine : presets.machines()) {
        const auto &units = machine.limits.computeUnits;
        if (machine.kind != "gpu" || machine.vendor != vendor || !units
            || units->count != *trace.multiprocessors)
            continue;
        if (match)
            return nullptr; // two of that count: the count does not tell them apart
        match = &machine;
    }
    return match;
}

} // namespace

Expected<Hardware, std::string> traceMachine(const TraceSummary &trace)
{
    if (!trace.device)
        return Unexpected(std::string("the trace names no device (no deviceProperties)"));
    const PresetDatabase presets = PresetDatabase::builtin();
    auto found = presets.find(*trace.device);
    const Hardware *named = found ? *found : nullptr;
    const Hardware *counted = byComputeUnits(presets, trace);
    // The name's preset unless its count is not the device's and another preset's is: ROCm
    // names an MI250X's die "AMD Instinct MI250X", the package's name, with the die's 110 CUs.
    const std::optional<ComputeUnits> namedUnits
        = named ? named->limits.computeUnits : std::nullopt;
    const bool disagrees
        = namedUnits && trace.multiprocessors && namedUnits->count != *trace.multiprocessors;
    const Hardware *preset = named && !(disagrees && counted) ? named : counted;
    if (!preset)
        return Unexpected(
            "the trace's device \"" + *trace.device + "\" is not a preset Ridgepoint knows");
    Hardware machine = *preset;
    std::string stated = "The trace's device: " + *trace.device;
    const auto &units = machine.limits.computeUnits;
    const std::string unitName = units && units->kind == "cu" ? " CUs" : " SMs";
    if (trace.multiprocessors)
        stated += ", " + std::to_string(*trace.multiprocessors) + unitName;
    if (trace.memoryBytes)
        stated += ", " + formatQuantity(*trace.memoryBytes, Dimension::Bytes) + " of memory";
    if (preset == counted && !named)
        stated += " (no preset has its name; the one with its" + unitName + ")";
    else if (preset == counted && preset != named)
        stated += " (its name is the " + named->name + " preset's, which counts "
            + std::to_string(namedUnits->count) + unitName + "; the preset with its" + unitName
            + ")";
    else if (disagrees)
        stated += " (the preset counts " + std::to_string(namedUnits->count) + unitName
            + ": a partition, or one die of the package? The roofs are the preset's)";
    machine.notes = stated + (machine.notes.empty() ? "." : ". " + machine.notes);
    return machine;
}

HardwareReadResult readKinetoMachines(std::string_view text, const std::string &fileName)
{
    HardwareReadResult out;
    // The events' own problems are the points' to tell; only an unreadable file is said here.
    std::vector<Diagnostic> problems;
    auto events = readEvents(text, fileName, problems, true);
    if (!events) {
        out.diagnostics = std::move(problems);
        return out;
    }
    TraceSummary trace;
    trace.device = events->device;
    trace.multiprocessors = events->multiprocessors;
    trace.memoryBytes = events->memoryBytes;
    auto machine = traceMachine(trace);
    if (!machine) {
        out.diagnostics.push_back({ Severity::Error, fileName, 0, 0, machine.error() });
        return out;
    }
    keepValidMachine(std::move(*machine), fileName, out);
    return out;
}

} // namespace ridgepoint
