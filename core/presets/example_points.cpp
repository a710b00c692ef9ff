#include "core/presets/example_points.h"

#include "core/io/formats/csv.h"
#include "core/presets/resources.h"

namespace ridgepoint {

std::vector<KernelPoint> examplePoints()
{
    const EmbeddedFile *file = embeddedFile("examples/h100-transformer-kernels.csv");
    if (!file)
        return {};
    return readPointsCsv(file->content, "example:h100-transformer-kernels.csv").points;
}

} // namespace ridgepoint
