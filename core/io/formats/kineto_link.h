// Which CPU operator launched each kernel of a Kineto trace: the kernel's args.correlation names
// its runtime launch (cudaLaunchKernel, hipLaunchKernel, ...), and the launch lies inside the
// innermost CPU operator (cat "cpu_op") that encloses it in time on the same (pid, tid). The
// events may come in any order. docs/FORMATS.md §10.2.
#pragma once

#include "core/io/formats/kineto_events.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ridgepoint::kineto {

enum class LinkProblem {
    None,
    NoLaunch, // no runtime call with the kernel's correlation id (or the kernel has none)
    RepeatedCorrelation, // several runtime calls share the id
    GraphLaunch, // launched by cudaGraphLaunch / hipGraphLaunch: the graph's operators are unknown
    NoOperator, // the launch lies in no CPU operator
};

struct KernelLink {
    // Into Events::operators; also set for a GraphLaunch, whose operator may be a compiled
    // region.
    std::optional<std::size_t> op;
    LinkProblem problem = LinkProblem::None;
    std::int64_t correlation = 0;
};

// One link per kernel, in Events::kernels' order.
std::vector<KernelLink> linkKernels(const Events &events);

} // namespace ridgepoint::kineto
