// rocprof-compute: roofline.csv (ceilings) and pmc_perf.csv (points).
#include "core/io/formats/rocprof_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto text = fuzz::text(data, size);
    fuzz::checkMachines(ridgepoint::readRocprofRoofline(text, "roofline.csv"));
    fuzz::checkPoints(ridgepoint::readRocprofPmcPerf(text, "pmc_perf.csv"));
    return 0;
}
