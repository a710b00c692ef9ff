// The built-in example data set: the kernels of one transformer layer on an H100 (prefill and
// decode GEMMs, attention, elementwise operators), embedded from resources/examples. What the
// window opens on at a first start, `render --example` and `analyze --example` draw.
#pragma once

#include "core/model/point.h"

#include <vector>

namespace ridgepoint {

std::vector<KernelPoint> examplePoints();

} // namespace ridgepoint
