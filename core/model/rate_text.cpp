#include "core/model/rate_text.h"

#include "core/model/units.h"

namespace ridgepoint {

bool isIntegerPrecision(Precision precision)
{
    return precision == Precision::INT8 || precision == Precision::INT4;
}

std::string computeRateText(double rate, Precision precision, int significantDigits)
{
    std::string text = formatQuantity(rate, Dimension::FlopRate, significantDigits);
    if (!isIntegerPrecision(precision))
        return text;
    constexpr std::string_view kFlop = "FLOP/s";
    if (const auto at = text.rfind(kFlop); at != std::string::npos)
        text.replace(at, kFlop.size(), "OP/s");
    return text;
}

std::string figureText(const MemoryCeiling &, double value, int significantDigits)
{
    return formatQuantity(value, Dimension::ByteRate, significantDigits);
}

std::string figureText(const ComputeCeiling &ceiling, double value, int significantDigits)
{
    return computeRateText(value, ceiling.precision, significantDigits);
}

} // namespace ridgepoint
