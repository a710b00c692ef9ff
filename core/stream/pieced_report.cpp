#include "core/stream/pieced_report.h"

#include "core/io/formats/points_csv_pieces.h"
#include "core/report/level_columns.h"
#include "core/stream/pieced_file.h"
#include "core/stream/pipeline.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace ridgepoint {

namespace {

// What analyzePieced's pieces share.
struct Context {
    const PiecedFile &file;
    const Hardware &hardware;
    const AnalysisOptions &analysisOptions;
    ReportFormat format;
    const ReportWriterOptions &options;
    std::size_t problemsShown;
};

// One piece's report rows and what analysing its points gave.
struct Slot {
    ReportText text; // the rows, and room kept for the next piece's
    bool rowsBefore = false; // what its writer was told
    std::size_t placed = 0;
    int inconsistent = 0;
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
};

// Calls `place` with each point of piece `k` that can be analysed, counting the others in
// `slot`.
template<typename Place>
void analysePiece(const Context &context, std::size_t k, Slot &slot, Place place)
{
    const PiecedFile &file = context.file;
    const PiecedFile::Piece &piece = file.pieces[k];
    const PointSink sink = [&](KernelPoint &&point) {
        auto analysis = analyzePoint(point, context.hardware, context.analysisOptions);
        if (!analysis) {
            if (++slot.problemCount <= context.problemsShown)
                slot.problems.push_back(
                    { Severity::Error, point.source.file, point.source.line, 0, analysis.error() });
            return;
        }
        place(point, *analysis);
    };
    if (piece.tape)
        piece.tape->replay(piece.firstLine, file.name, sink);
    else
        readPointsCsvPiece(file.layout,
            std::string_view(file.text).substr(piece.begin, piece.end - piece.begin),
            piece.firstLine, file.name, sink);
}

// The report rows of piece `k` into `slot` (its buffers reused).
void formatPiece(const Context &context, std::size_t k, bool rowsBefore, Slot &slot)
{
    slot.text.size = 0;
    slot.rowsBefore = rowsBefore;
    slot.placed = 0;
    slot.inconsistent = 0;
    slot.problems.clear();
    slot.problemCount = 0;
    ReportWriterOptions options = context.options;
    options.part = ReportPart::Rows;
    options.rowsBefore = rowsBefore;
    options.into = &slot.text; // CSV and JSON write straight into the slot
    const auto writer = makeReportWriter(
        context.format, context.hardware,
        [&slot](std::string_view text) { // a format without `into` (none comes here yet)
            slot.text.bytes.resize(slot.text.size);
            slot.text.bytes.append(text);
            slot.text.size = slot.text.bytes.size();
        },
        options);
    analysePiece(context, k, slot, [&](const KernelPoint &point, const PointAnalysis &analysis) {
        ++slot.placed;
        slot.inconsistent += analysis.consistent ? 0 : 1;
        writer->add(point, analysis);
    });
    writer->finish();
}

// The levels the CSV's columns are for: those of the first points placed, as many as the
// sequential writer looks ahead.
std::vector<MemoryLevel> lookAheadLevels(const Context &context)
{
    const std::size_t lookAhead = std::max<std::size_t>(context.options.lookAhead, 1);
    LevelColumns columns;
    std::size_t seen = 0;
    Slot ignored;
    for (std::size_t k = 0; k < context.file.pieces.size() && seen < lookAhead; ++k) {
        analysePiece(context, k, ignored, [&](const KernelPoint &, const PointAnalysis &analysis) {
            if (seen++ < lookAhead)
                columns.see(analysis);
        });
    }
    return columns.levels();
}

// One part of the report written alone (the start or the end).
std::string reportPart(const Context &context, ReportPart part)
{
    std::string text;
    ReportWriterOptions options = context.options;
    options.part = part;
    options.rowsBefore = true;
    makeReportWriter(
        context.format, context.hardware, [&text](std::string_view piece) { text += piece; },
        options)
        ->finish();
    return text;
}

} // namespace

PiecedOutcome analyzePieced(const PiecedFile &file, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, PiecedReport report, WorkerPool &pool)
{
    const Context context { file, hardware, analysisOptions, report.format, report.options,
        report.problemsShown };
    if (report.format == ReportFormat::Csv)
        report.options.levels = lookAheadLevels(context);
    const std::string start = reportPart(context, ReportPart::Start);
    const ReportSink &write = report.sink;
    PiecedOutcome outcome;
    std::vector<Slot> buffers(2 * pool.size());
    runInOrder(
        pool, file.pieces.size(), buffers,
        // A piece's writer is told that rows came before it unless it is the first: wrong only
        // when every piece before it placed no point, and then it is formatted again.
        [&](std::size_t k, Slot &slot) { formatPiece(context, k, k > 0, slot); },
        [&](std::size_t k, Slot &slot) {
            if (slot.placed > 0) {
                const bool rowsBefore = outcome.placed > 0;
                if (slot.rowsBefore != rowsBefore)
                    formatPiece(context, k, rowsBefore, slot);
                if (!rowsBefore)
                    write(start);
                write(slot.text.text());
            }
            outcome.placed += slot.placed;
            outcome.inconsistent += slot.inconsistent;
            for (Diagnostic &problem : slot.problems) {
                if (outcome.problems.size() < report.problemsShown)
                    outcome.problems.push_back(std::move(problem));
            }
            outcome.problemCount += slot.problemCount;
        });
    if (outcome.placed > 0)
        write(reportPart(context, ReportPart::End));
    return outcome;
}

} // namespace ridgepoint
