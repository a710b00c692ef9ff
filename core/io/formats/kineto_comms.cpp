#include "core/io/formats/kineto_comms.h"

#include "core/io/formats/kineto_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ridgepoint::kineto {
namespace {

// How a ring algorithm moves a message of M bytes and E elements among n ranks, per rank.
struct Algorithm {
    double linkShare = 0.0; // bytes = linkShare · M
    double addShare = 0.0; // additions = addShare · E (0: no reduction)
    double receivedShare = 0.0; // elements received = receivedShare · E
};

std::optional<Algorithm> algorithmOf(std::string_view name, double n)
{
    const double ring = (n - 1.0) / n;
    if (name == "allreduce" || name == "allreduce_coalesced" || name == "all_reduce")
        return Algorithm { 2.0 * ring, ring, ring };
    if (name == "reduce_scatter" || name == "_reduce_scatter_base"
        || name == "reduce_scatter_tensor_coalesced" || name == "reduce_scatter_tensor")
        return Algorithm { ring, ring, ring };
    if (name == "allgather" || name == "_allgather_base" || name == "all_gather"
        || name == "allgather_into_tensor_coalesced" || name == "allgather_coalesced"
        || name == "all_gather_into_tensor")
        return Algorithm { ring, 0.0, ring };
    if (name == "all_to_all" || name == "alltoall" || name == "alltoall_base"
        || name == "all_to_allv")
        return Algorithm { ring, 0.0, ring };
    if (name == "broadcast" || name == "send" || name == "recv")
        return Algorithm { 1.0, 0.0, 1.0 };
    return std::nullopt;
}

std::string labelOf(const CollectiveArgs &args, double elements, std::int64_t n)
{
    char text[96];
    std::snprintf(text, sizeof text, "[%.0f], %lld ranks)", elements, static_cast<long long>(n));
    return args.name + "(" + args.dtype + text;
}

} // namespace

Expected<CollectiveCost, std::string> collectiveCost(
    const CollectiveArgs &args, std::size_t nodeGpus, MemoryLevel nodeLink)
{
    const std::string what = "collective " + (args.name.empty() ? "?" : args.name);
    if (!args.wrong.empty())
        return Unexpected(what + ": " + args.wrong);
    if (args.name.empty() || !args.groupSize || (!args.inElements && !args.outElements)
        || args.dtype.empty())
        return Unexpected(what
            + ": its message is not recorded in full (expected \"Collective name\", \"In msg "
              "nelems\", \"Out msg nelems\", \"Group size\" and \"dtype\")");
    const std::optional<double> width = elementBytes(args.dtype);
    if (!width)
        return Unexpected(what + ": dtype \"" + args.dtype
            + "\" has no known element size (expected Float, Half, BFloat16, Double, Long, "
              "Int, Byte, ...)");
    const std::int64_t ranks = *args.groupSize;
    if (ranks < 1)
        return Unexpected(
            what + ": a group of " + std::to_string(ranks) + " ranks (expected at least 1)");
    const double n = static_cast<double>(ranks);
    const auto algorithm = algorithmOf(args.name, n);
    if (!algorithm)
        return Unexpected(what + " has no model yet");
    // The message is the larger side: all-gather's output, reduce-scatter's input.
    const double elements
        = static_cast<double>(std::max(args.inElements.value_or(0), args.outElements.value_or(0)));
    CollectiveCost cost;
    cost.bytes = algorithm->linkShare * elements * *width;
    cost.flops
        = (algorithm->addShare > 0.0 ? algorithm->addShare : algorithm->receivedShare) * elements;
    if (!(cost.bytes > 0.0))
        return Unexpected(what + ": no bytes cross a link ("
            + (ranks == 1 ? std::string("a group of one rank") : std::string("an empty message"))
            + ")");
    if (!std::isfinite(cost.bytes) || !std::isfinite(cost.flops))
        return Unexpected(what + ": message too large to count");
    const bool withinNode = static_cast<std::size_t>(ranks) <= nodeGpus;
    cost.level = withinNode ? nodeLink : MemoryLevel::DCN;
    cost.precision = precisionOfType(args.dtype);
    cost.label = labelOf(args, elements, ranks);
    return cost;
}

} // namespace ridgepoint::kineto
