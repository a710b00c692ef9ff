// Ridgepoint's hardware JSON.
#include "fuzz_checks.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::checkMachines(
        ridgepoint::readHardwareJson(std::string(fuzz::text(data, size)), "fuzz.json"));
    return 0;
}
