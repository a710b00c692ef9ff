// ERT roofline.json.
#include "core/io/formats/ert_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::checkMachines(ridgepoint::readErtJson(fuzz::text(data, size), "roofline.json"));
    return 0;
}
