#include "core/report/trace_report.h"

#include "core/model/units.h"

#include <algorithm>
#include <cstdio>

namespace ridgepoint {

double placedShare(const TraceSummary &trace)
{
    return trace.gpuSeconds > 0.0 ? trace.placedSeconds / trace.gpuSeconds : 0.0;
}

std::string traceSummaryLine(const TraceSummary &trace)
{
    const double share = placedShare(trace);
    char head[160];
    std::snprintf(head, sizeof head, "placed %.1f %% of %s of GPU time (%zu kernels)",
        100.0 * share, formatQuantity(trace.gpuSeconds, Dimension::Time).c_str(), trace.kernels);
    std::string line = head;
    if (trace.unplaced.empty())
        return line + "; every kernel placed";
    line += "; not placed: ";
    const std::size_t named = std::min(trace.unplaced.size(), kUnplacedNamed);
    for (std::size_t i = 0; i < named; ++i) {
        const UnplacedKernels &u = trace.unplaced[i];
        line.append(i == 0 ? "" : ", ")
            .append(u.name)
            .append(" ")
            .append(formatQuantity(u.seconds, Dimension::Time))
            .append(" (")
            .append(u.reason)
            .append(")");
    }
    if (trace.unplaced.size() > named)
        line += ", and " + std::to_string(trace.unplaced.size() - named) + " more";
    return line;
}

std::string traceMarkdownIntro(const TraceSummary &trace)
{
    char head[160];
    std::snprintf(head, sizeof head, "Placed **%.1f %%** of %s of GPU time (%zu kernels)",
        100.0 * placedShare(trace), formatQuantity(trace.gpuSeconds, Dimension::Time).c_str(),
        trace.kernels);
    std::string out = head;
    if (trace.unplaced.empty())
        return out + "; every kernel placed.\n\n";
    double unplaced = 0.0;
    for (const UnplacedKernels &u : trace.unplaced)
        unplaced += u.seconds;
    return out + "; " + formatQuantity(unplaced, Dimension::Time) + " in "
        + std::to_string(trace.unplaced.size())
        + (trace.unplaced.size() == 1 ? " kind of kernel" : " kinds of kernels")
        + " not placed (listed after the points).\n\n";
}

std::string traceMarkdownUnplaced(
    const TraceSummary &trace, std::string (*cell)(const std::string &))
{
    if (trace.unplaced.empty())
        return {};
    std::string out = "\nNot placed, largest first:\n\n"
                      "| Kernel | Time | Share of GPU time | Launches | Reason |\n"
                      "|:---|---:|---:|---:|:---|\n";
    for (const UnplacedKernels &u : trace.unplaced) {
        char share[32];
        std::snprintf(share, sizeof share, "%.1f %%",
            trace.gpuSeconds > 0.0 ? 100.0 * u.seconds / trace.gpuSeconds : 0.0);
        out.append("| ")
            .append(cell(u.name))
            .append(" | ")
            .append(formatQuantity(u.seconds, Dimension::Time))
            .append(" | ")
            .append(share)
            .append(" | ")
            .append(std::to_string(u.launches))
            .append(" | ")
            .append(cell(u.reason))
            .append(" |\n");
    }
    return out;
}

} // namespace ridgepoint
