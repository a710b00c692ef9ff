// The ad-hoc formats of roofline scripts (NERSC text, ERT sum, peaks.csv, hw_db.csv, apps.csv,
// the Metric Value CSV): every reader on every input, since each must refuse the others' files
// cleanly, and the shape detection that picks between them.
#include "core/adhoc_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ridgepoint;
    const std::string_view text = fuzz::text(data, size);
    static_cast<void>(detectAdhocShape(text));
    fuzz::checkPoints(readNerscPoints(text, "data_hierarchical.txt"));
    fuzz::checkMachines(readNerscCeilings(text, "data_hierarchical.txt"));
    fuzz::checkMachines(readErtSum(text, "Run.001/FLOPS.001/MPI.0001/OpenMP.0001/sum"));
    fuzz::checkMachines(readProfilerPeaks(text, "peaks.csv"));
    fuzz::checkMachines(readHwDb(text, "hw_db.csv"));
    fuzz::checkPoints(readAppsCsv(text, "apps.csv"));
    fuzz::checkPoints(readMetricValuesCsv(text, "metric_values.csv"));
    return 0;
}
