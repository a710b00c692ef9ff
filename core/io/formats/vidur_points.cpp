#include "core/io/formats/vidur_points.h"

#include "core/calibrate/measured.h"
#include "core/io/sniff.h"

#include <map>
#include <set>

namespace ridgepoint {
namespace {

// An operator whose rows cannot be placed: how many, the first one's line, and why.
struct Unplaced {
    int rows = 0;
    int line = 0;
    std::string why;
};

KernelPoint pointOf(const MeasuredRow &row)
{
    KernelPoint point;
    point.name = row.op + " " + std::to_string(row.tokens) + " tok tp " + std::to_string(row.tp);
    point.group = row.op;
    point.flops = row.flops;
    point.bytes = { { std::nullopt, row.bytes } };
    point.seconds = row.seconds;
    point.precision = row.dtype;
    point.source = { row.file, row.line };
    return point;
}

} // namespace

bool looksLikeVidurOperators(const Sniff &sniff)
{
    const std::string &header = sniff.firstLineLower();
    return header.starts_with("time_stats.") && header.find(",num_tokens") != std::string::npos
        && header.find(",num_tensor_parallel_workers") != std::string::npos;
}

PointsReadResult readVidurOperatorPoints(std::string_view text, const std::string &fileName)
{
    MeasuredReadResult measured = readVidurOperatorCsv(text, fileName);
    PointsReadResult out;
    // The reader's errors as they are; its warnings speak of the fit ("listed, not fitted"), so
    // each operator without a model is said again below in the points' words.
    for (Diagnostic &d : measured.diagnostics) {
        if (d.severity == Severity::Error)
            out.diagnostics.push_back(std::move(d));
    }
    std::set<int> lines;
    std::set<int> skippedLines;
    std::map<std::string, Unplaced> unplaced;
    for (MeasuredRow &row : measured.rows) {
        lines.insert(row.line);
        if (!row.excluded.empty()) {
            Unplaced &u = unplaced[row.op];
            if (u.rows++ == 0) {
                u.line = row.line;
                u.why = row.excluded;
            }
            continue;
        }
        KernelPoint point = pointOf(row);
        if (auto problem = pointProblem(point)) {
            out.diagnostics.push_back({ Severity::Error, fileName, row.line, 0, *problem });
            skippedLines.insert(row.line);
            continue;
        }
        out.points.push_back(std::move(point));
    }
    for (const auto &[op, u] : unplaced) {
        out.diagnostics.push_back({ Severity::Warning, fileName, u.line, 0,
            op + ": " + std::to_string(u.rows) + (u.rows == 1 ? " row" : " rows")
                + " not placed: " + u.why });
    }
    out.rowsRead = static_cast<int>(lines.size());
    out.rowsSkipped = static_cast<int>(skippedLines.size());
    return out;
}

} // namespace ridgepoint
