// Unit strings: never crash, and whatever parses must print and parse back to a close value.
#include "core/model/units.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    using ridgepoint::Dimension;
    const auto dimension = static_cast<Dimension>(data[0] % 6);
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    const auto value = ridgepoint::parseQuantity(text, dimension);
    if (!value)
        return 0;
    if (!std::isfinite(*value))
        std::abort(); // parseQuantity promises finite values
    const auto back
        = ridgepoint::parseQuantity(ridgepoint::formatQuantity(*value, dimension, 17), dimension);
    if (!back || std::fabs(*back - *value) > 1e-12 * std::fabs(*value) + 1e-300)
        std::abort();
    return 0;
}
