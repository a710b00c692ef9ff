// Nsight Compute CSV: details, raw and summary pages as points, the roofline section and the
// pages' peak metrics as ceilings, with each number convention forced as well as detected.
#include "core/io/formats/ncu_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto text = fuzz::text(data, size);
    fuzz::checkPoints(ridgepoint::readNcuCsv(text, "fuzz.ncu.csv"));
    fuzz::checkMachines(ridgepoint::readNcuRooflineSection(text, "fuzz.ncu.csv"));
    ridgepoint::NcuOptions options;
    options.decimalComma = true;
    options.halfFlopsPerFma = 4.0;
    fuzz::checkPoints(ridgepoint::readNcuCsv(text, "fuzz.ncu.csv", options));
    fuzz::checkMachines(ridgepoint::readNcuRooflineSection(text, "fuzz.ncu.csv", options));
    if (const auto log = ridgepoint::ncuLogWithoutTable(text, "fuzz.ncu.csv"))
        fuzz::require(!log->message.empty() && log->line >= 1);
    return 0;
}
