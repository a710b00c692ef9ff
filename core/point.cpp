#include "core/point.h"

namespace ridgepoint {

std::optional<double> KernelPoint::performance() const
{
    // A point known only by intensity and rate has no FLOP count to divide.
    if (seconds && *seconds > 0.0 && (flops > 0.0 || !measuredRate))
        return flops / *seconds;
    return measuredRate;
}

} // namespace ridgepoint
