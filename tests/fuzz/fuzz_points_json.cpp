// Ridgepoint's points JSON: whatever is read is written and read back to the same points.
#include "core/io/formats/points_json.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto result = ridgepoint::readPointsJson(fuzz::text(data, size), "points.json");
    fuzz::checkPoints(result);
    if (!result.points.empty()) {
        const auto again
            = ridgepoint::readPointsJson(ridgepoint::writePointsJson(result.points), "again");
        fuzz::require(again.points.size() == result.points.size());
        for (std::size_t i = 0; i < again.points.size(); ++i) {
            fuzz::require(again.points[i].name == result.points[i].name);
            fuzz::require(again.points[i].flops == result.points[i].flops);
            fuzz::require(again.points[i].bytes.size() == result.points[i].bytes.size());
        }
    }
    return 0;
}
