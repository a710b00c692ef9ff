// Format detection and every reader behind it, as the CLI and the window call them.
#include "core/io/readers.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto text = fuzz::text(data, size);
    const auto points = ridgepoint::readPointsFile(text, "input");
    fuzz::checkPoints(points.points);
    // Nothing read means one message saying why.
    if (!points.format)
        fuzz::require(!points.points.diagnostics.empty());
    fuzz::checkMachines(ridgepoint::readHardwareFile(text, "input").hardware);
    return 0;
}
