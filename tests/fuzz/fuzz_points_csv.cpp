// The generic points CSV reader.
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::checkPoints(ridgepoint::readPointsCsv(fuzz::text(data, size), "fuzz.csv"));
    return 0;
}
