// likwid-perfctr -O output.
#include "core/io/formats/likwid_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::checkPoints(ridgepoint::readLikwidCsv(fuzz::text(data, size), "likwid.csv"));
    return 0;
}
