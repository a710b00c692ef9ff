#include "core/report/trace_report.h"

#include "core/model/units.h"

#include <algorithm>
#include <cstdio>

namespace ridgepoint {

std::string traceSummaryLine(const TraceSummary &trace)
{
    const double share = trace.gpuSeconds > 0.0 ? trace.placedSeconds / trace.gpuSeconds : 0.0;
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

} // namespace ridgepoint
