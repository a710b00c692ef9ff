// The general path's stage and sink (pipeline.h, runFedInOrder): points from any reader, session
// or list, pushed in the inputs' order by the caller's source; each analysed as it comes, put in a
// batch, and the batches written by one report writer in the same order. Memory holds a few
// batches and the writer's look-ahead, whatever the number of points.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/report/report_stream.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

class WorkerPool;

// What the source pushes into: `point` of input number `input` (an index into
// FedReport::inputNames), analysed on `machine` when it brings its own (a session's point saved
// on another machine), else on the report's. The point is taken: what is left in it is the
// buffers of a point already written, for the reader to fill again.
class PointFeed
{
public:
    virtual ~PointFeed() = default;
    virtual void add(KernelPoint &&point, std::size_t input, const Hardware *machine = nullptr) = 0;
};

// What analyzeFed writes and where.
struct FedReport {
    ReportFormat format = ReportFormat::Table;
    ReportWriterOptions options;
    // Each point's speed-up over a baseline (CSV and Markdown columns); called by the sink, so
    // what it reads must not change until analyzeFed returns.
    std::function<std::optional<Speedup>(const KernelPoint &)> speedup;
    std::size_t problemsShown = 0; // the messages kept in FedOutcome::problems
    // The inputs' names, for the messages about points that carry no file of their own.
    std::vector<std::string> inputNames;
    ReportSink sink; // the report's text, in order, one call at a time
};

struct FedOutcome {
    std::size_t placed = 0;
    int inconsistent = 0;
    // The first messages about points that could not be placed, as many as are shown, and the
    // count of all, in input order.
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
    std::vector<bool> readAny; // per input: a point was pushed
    std::vector<bool> placedAny; // per input: a point was placed
};

// Runs `source` (which pushes every point into the feed, in order) on the calling thread, the
// analysis with it, and the report's writing on the pool's second member; a pool of one writes
// each batch when it is full, on the calling thread. The bytes handed to report.sink do not
// depend on the pool's size; nothing at all when no point could be placed. Throws what the
// source or the writer threw.
FedOutcome analyzeFed(const std::function<void(PointFeed &)> &source, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, FedReport report, WorkerPool &pool);

} // namespace ridgepoint
