// The pipeline's stage and sink (pipeline.h): each piece of a PiecedFile analysed and formatted
// into its own buffer on any thread, the buffers written in file order between the report's
// start and end, written once.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/report/report_stream.h"

#include <cstddef>
#include <vector>

namespace ridgepoint {

class WorkerPool;
struct PiecedFile;

struct PiecedOutcome {
    std::size_t placed = 0;
    int inconsistent = 0;
    // The first messages about points that could not be placed, as many as are shown, and the
    // count of all, in file order.
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
};

// What analyzePieced writes and where.
struct PiecedReport {
    ReportFormat format = ReportFormat::Csv; // Csv or Json: their widths need no look-ahead
    ReportWriterOptions options; // as the sequential path has them
    std::size_t problemsShown = 0; // the messages kept in PiecedOutcome::problems
    ReportSink sink; // the report's text, in order, one call at a time
};

// Analyses the file's points on the members of `pool` and hands their report to `report.sink`:
// the bytes the sequential path writes, whatever the pool's size; nothing when no point could be
// placed. Throws what a member threw.
PiecedOutcome analyzePieced(const PiecedFile &file, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, PiecedReport report, WorkerPool &pool);

} // namespace ridgepoint
