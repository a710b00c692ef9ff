#include "core/point.h"

namespace ridgepoint {

std::optional<double> KernelPoint::performance() const
{
    if (seconds && *seconds > 0.0)
        return flops / *seconds;
    return measuredRate;
}

} // namespace ridgepoint
