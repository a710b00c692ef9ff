#include "core/stream/fed_report.h"

#include "core/stream/pipeline.h"

#include <memory>
#include <utility>

namespace ridgepoint {

namespace {

constexpr std::size_t kBatchPoints = 4096; // about 3 MB of points
constexpr std::size_t kBatchesInFlight = 3;

// Points [0, size) are this batch's; the rest are kept only for their buffers.
struct Batch {
    std::vector<AnalyzedPoint> points;
    std::size_t size = 0;
};

// The stage: each point analysed as the source pushes it, into the feeder's current batch.
class Stage final : public PointFeed
{
public:
    Stage(Feeder<Batch> &feeder, const Hardware &hardware, const AnalysisOptions &options,
        const FedReport &report, FedOutcome &outcome)
        : m_feeder(feeder)
        , m_hardware(hardware)
        , m_options(options)
        , m_report(report)
        , m_outcome(outcome)
    { }

    void add(KernelPoint &&point, std::size_t input, const Hardware *machine) override
    {
        m_outcome.readAny[input] = true;
        auto analysis = analyzePoint(point, machine ? *machine : m_hardware, m_options);
        if (!analysis) {
            if (++m_outcome.problemCount <= m_report.problemsShown) {
                std::string where = point.source.file;
                if (where.empty())
                    where = m_report.inputNames[input];
                m_outcome.problems.push_back(
                    { Severity::Error, std::move(where), point.source.line, 0, analysis.error() });
            }
            return;
        }
        m_outcome.placedAny[input] = true;
        ++m_outcome.placed;
        m_outcome.inconsistent += analysis->consistent ? 0 : 1;
        Batch &batch = m_feeder.slot();
        // A slot keeps the points it held, so after the first batches a point costs no
        // allocation: the reader gets the old buffers back.
        if (batch.size < batch.points.size()) {
            AnalyzedPoint &slot = batch.points[batch.size];
            std::swap(slot.point, point);
            std::swap(slot.analysis, *analysis);
        } else {
            batch.points.push_back({ std::move(point), std::move(*analysis) });
        }
        if (++batch.size == kBatchPoints)
            send();
    }

    // Hands the current batch to the sink unless it is empty.
    void send()
    {
        if (m_feeder.slot().size > 0)
            m_feeder.send();
        m_feeder.slot().size = 0;
    }

private:
    Feeder<Batch> &m_feeder;
    const Hardware &m_hardware;
    const AnalysisOptions &m_options;
    const FedReport &m_report;
    FedOutcome &m_outcome;
};

} // namespace

FedOutcome analyzeFed(const std::function<void(PointFeed &)> &source, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, FedReport report, WorkerPool &pool)
{
    FedOutcome outcome;
    outcome.readAny.assign(report.inputNames.size(), false);
    outcome.placedAny.assign(report.inputNames.size(), false);
    // The writer is made with the first batch: a run that places no point writes nothing.
    std::unique_ptr<ReportWriter> writer;
    std::vector<Batch> buffers(kBatchesInFlight);
    runFedInOrder(
        pool, buffers,
        [&](Feeder<Batch> &feeder) {
            Stage stage(feeder, hardware, analysisOptions, report, outcome);
            source(stage);
            stage.send();
        },
        [&](Batch &batch) {
            if (!writer)
                writer = makeReportWriter(report.format, hardware, report.sink, report.options);
            for (std::size_t i = 0; i < batch.size; ++i) {
                const AnalyzedPoint &written = batch.points[i];
                writer->add(written.point, written.analysis,
                    report.speedup ? report.speedup(written.point) : std::nullopt);
            }
        });
    if (writer)
        writer->finish();
    return outcome;
}

} // namespace ridgepoint
