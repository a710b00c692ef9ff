// The bytes a collective (NCCL or RCCL: all-reduce, all-gather, reduce-scatter, broadcast,
// send/recv, all-to-all) moves over the link, from what its event records: the collective's name,
// its message in elements, the group size and the element type. Each rank's share of a ring
// algorithm (docs/MODEL.md §11.6): all-reduce 2(n−1)/n of the message, all-gather and
// reduce-scatter (n−1)/n, broadcast and send/recv the message once. The bytes sit on the link
// between the node's chips (the caller's choice, see kineto_trace.cpp) and on DCN beyond it.
#pragma once

#include "core/io/formats/kineto_events.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint::kineto {

struct CollectiveCost {
    double flops = 0.0; // the reduction's additions; one per element received where none
    double bytes = 0.0; // sent by one rank over the link
    MemoryLevel level = MemoryLevel::NVLink;
    std::optional<Precision> precision;
    std::string label; // "allreduce(Float[6637568], 2 ranks)"
};

// The GPUs of a node, an HGX/DGX board's NVLink domain; a trace that lists more devices in
// deviceProperties has nodes of that many.
inline constexpr std::size_t kNodeGpus = 8;

// The cost of one call of the collective, or why there is none. `nodeGpus` ranks or fewer share
// a node, whose bytes go on `nodeLink` (NVLink, ICI for AMD's Infinity Fabric, PCIe).
Expected<CollectiveCost, std::string> collectiveCost(
    const CollectiveArgs &args, std::size_t nodeGpus, MemoryLevel nodeLink);

} // namespace ridgepoint::kineto
