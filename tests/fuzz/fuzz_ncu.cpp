// Nsight Compute CSV: details and raw pages as points, the roofline section as ceilings.
#include "core/ncu_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto text = fuzz::text(data, size);
    fuzz::checkPoints(ridgepoint::readNcuCsv(text, "fuzz.ncu.csv"));
    fuzz::checkMachines(ridgepoint::readNcuRooflineSection(text, "fuzz.ncu.csv"));
    return 0;
}
