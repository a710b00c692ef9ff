// The ad-hoc formats of roofline scripts (NERSC text, ERT sum, peaks.csv, hw_db.csv, apps.csv,
// the Metric Value CSV): every reader on every input, since each must refuse the others' files
// cleanly, and the detection that picks between them.
#include "core/io/formats/adhoc_reader.h"
#include "core/io/readers.h"
#include "fuzz_checks.h"

namespace {

// NERSC points are FP64 (as the file's roofs are taken): checkPoints' machine has an FP32 roof
// only, so they are analysed again on one whose roof is FP64, or their analysis goes unchecked.
void checkNerscPoints(const ridgepoint::PointsReadResult &result)
{
    using namespace ridgepoint;
    fuzz::checkPoints(result);
    Hardware machine = makeSimpleMachine(1e14, 1e12);
    machine.compute.front().precision = Precision::FP64;
    for (const auto &point : result.points) {
        fuzz::require(point.precision == Precision::FP64);
        const auto analysis = analyzePoint(point, machine);
        if (analysis) {
            fuzz::require(fuzz::positiveFinite(analysis->attainable));
            fuzz::require(analysis->attainable <= 1e14 * (1 + 1e-12));
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ridgepoint;
    const std::string_view text = fuzz::text(data, size);
    static_cast<void>(detectFileFormat(text));
    checkNerscPoints(readNerscPoints(text, "data_hierarchical.txt"));
    fuzz::checkMachines(readNerscCeilings(text, "data_hierarchical.txt"));
    fuzz::checkMachines(readErtSum(text, "Run.001/FLOPS.001/MPI.0001/OpenMP.0001/sum"));
    fuzz::checkMachines(readProfilerPeaks(text, "peaks.csv"));
    fuzz::checkMachines(readHwDb(text, "hw_db.csv"));
    fuzz::checkPoints(readAppsCsv(text, "apps.csv"));
    fuzz::checkPoints(readMetricValuesCsv(text, "metric_values.csv"));
    return 0;
}
