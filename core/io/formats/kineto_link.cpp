#include "core/io/formats/kineto_link.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace ridgepoint::kineto {
namespace {

constexpr std::size_t kRepeated = static_cast<std::size_t>(-1);

// Launch index by correlation id; kRepeated where several launches share one.
std::unordered_map<std::int64_t, std::size_t> launchesById(const Events &events)
{
    std::unordered_map<std::int64_t, std::size_t> out;
    out.reserve(events.launches.size());
    for (std::size_t i = 0; i < events.launches.size(); ++i) {
        const auto [at, added] = out.try_emplace(events.launches[i].correlation, i);
        if (!added)
            at->second = kRepeated;
    }
    return out;
}

using Thread = std::pair<std::int64_t, std::int64_t>;

// The innermost operator around each launch of one thread: operators and launches taken in time
// order (an operator before a launch that starts with it, a longer operator before a shorter
// one), the operators still open kept on a stack.
void innermostOnThread(const Events &events, std::vector<std::size_t> &ops,
    std::vector<std::size_t> &launches, std::vector<std::optional<std::size_t>> &innermost)
{
    const auto &o = events.operators;
    std::sort(ops.begin(), ops.end(), [&](std::size_t a, std::size_t b) {
        return o[a].ts != o[b].ts ? o[a].ts < o[b].ts : o[a].dur > o[b].dur;
    });
    const auto &l = events.launches;
    std::sort(launches.begin(), launches.end(),
        [&](std::size_t a, std::size_t b) { return l[a].ts < l[b].ts; });
    std::vector<std::size_t> open;
    std::size_t next = 0;
    for (const std::size_t launch : launches) {
        const double start = l[launch].ts;
        const double end = start + l[launch].dur;
        for (; next < ops.size() && o[ops[next]].ts <= start; ++next) {
            while (!open.empty() && o[open.back()].ts + o[open.back()].dur < o[ops[next]].ts)
                open.pop_back();
            open.push_back(ops[next]);
        }
        while (!open.empty() && o[open.back()].ts + o[open.back()].dur < start)
            open.pop_back();
        // Operators that overlap without nesting (rare) leave a wider one above: search down.
        for (auto it = open.rbegin(); it != open.rend(); ++it) {
            if (o[*it].ts <= start && o[*it].ts + o[*it].dur >= end) {
                innermost[launch] = *it;
                break;
            }
        }
    }
}

bool isGraphLaunch(const Events &events, const RuntimeLaunch &launch)
{
    return events.names[launch.name].find("GraphLaunch") != std::string::npos;
}

} // namespace

std::vector<KernelLink> linkKernels(const Events &events)
{
    const auto byId = launchesById(events);
    std::vector<KernelLink> links(events.kernels.size());
    std::vector<bool> wanted(events.launches.size(), false);
    for (std::size_t k = 0; k < events.kernels.size(); ++k) {
        KernelLink &link = links[k];
        const auto &correlation = events.kernels[k].correlation;
        link.correlation = correlation.value_or(0);
        std::optional<std::size_t> launch; // the launch's index, or kRepeated
        if (correlation) {
            if (const auto found = byId.find(*correlation); found != byId.end())
                launch = found->second;
        }
        if (!launch)
            link.problem = LinkProblem::NoLaunch;
        else if (*launch == kRepeated)
            link.problem = LinkProblem::RepeatedCorrelation;
        else {
            // A graph launch keeps its operator too: a compiled region's is the reason to give.
            wanted[*launch] = true;
            if (isGraphLaunch(events, events.launches[*launch]))
                link.problem = LinkProblem::GraphLaunch;
        }
    }
    std::map<Thread, std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> threads;
    for (std::size_t i = 0; i < events.launches.size(); ++i) {
        if (wanted[i])
            threads[{ events.launches[i].pid, events.launches[i].tid }].second.push_back(i);
    }
    for (std::size_t i = 0; i < events.operators.size(); ++i) {
        const auto at = threads.find({ events.operators[i].pid, events.operators[i].tid });
        if (at != threads.end())
            at->second.first.push_back(i);
    }
    std::vector<std::optional<std::size_t>> innermost(events.launches.size());
    for (auto &[thread, lists] : threads)
        innermostOnThread(events, lists.first, lists.second, innermost);
    for (std::size_t k = 0; k < events.kernels.size(); ++k) {
        KernelLink &link = links[k];
        if (link.problem != LinkProblem::None && link.problem != LinkProblem::GraphLaunch)
            continue;
        const std::size_t launch = byId.at(*events.kernels[k].correlation);
        link.op = innermost[launch];
        if (!link.op && link.problem == LinkProblem::None)
            link.problem = LinkProblem::NoOperator;
    }
    return links;
}

} // namespace ridgepoint::kineto
