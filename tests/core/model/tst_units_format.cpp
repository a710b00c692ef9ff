// formatSignificant and formatQuantity against a plain reference written here: printf's exact
// "%.*e" / "%.*f" rounding, zeros trimmed, a prefix from the magnitude and one more when the
// rounding carries to 1000. The library's versions write into stack buffers and round most
// values with products in doubles (issue 17); their text must stay the reference's, byte for
// byte, because it ends up in every note of `analyze`'s output.
#include "core/model/units.h"

#include <QTest>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::Dimension)

namespace {

// Drops zeros after the decimal point, then the point when nothing follows.
std::string trimmed(std::string text)
{
    if (text.find('.') == std::string::npos)
        return text;
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.')
        text.pop_back();
    return text;
}

std::string referenceSignificant(double value, int digits)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0.0)
        return "0";
    digits = std::max(1, digits);
    const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    std::array<char, 512> printed {};
    if (exponent < -4 || exponent >= 15) {
        std::snprintf(printed.data(), printed.size(), "%.*e", digits - 1, value);
        const std::string text(printed.data());
        const auto e = text.find('e');
        return trimmed(text.substr(0, e)) + text.substr(e);
    }
    const int decimals = std::max(0, digits - 1 - exponent);
    std::snprintf(printed.data(), printed.size(), "%.*f", decimals, value);
    return trimmed(printed.data());
}

std::string referenceQuantity(double value, Dimension dimension, int digits)
{
    const std::string unit(dimensionUnit(dimension));
    if (!std::isfinite(value) || value == 0.0 || dimension == Dimension::Intensity)
        return referenceSignificant(value, digits) + " " + unit;
    static constexpr std::array<double, 11> kFactors { 1e-12, 1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9,
        1e12, 1e15, 1e18 };
    static constexpr std::array<const char *, 11> kSymbols { "p", "n", "u", "m", "", "k", "M", "G",
        "T", "P", "E" };
    const double magnitude = std::fabs(value);
    std::size_t index = 4;
    for (std::size_t i = 0; i < kFactors.size(); ++i) {
        if ((dimension == Dimension::Time || i >= 4) && magnitude >= kFactors[i])
            index = i;
    }
    if (dimension != Dimension::Time && magnitude < 1.0)
        index = 4;
    std::string text = referenceSignificant(value / kFactors[index], digits);
    if (std::fabs(std::strtod(text.c_str(), nullptr)) >= 1000.0 && index + 1 < kFactors.size()) {
        ++index;
        text = referenceSignificant(value / kFactors[index], digits);
    }
    return text + " " + kSymbols[index] + unit;
}

// A fixed generator (64-bit LCG, top bits), so every run checks the same values.
class Values
{
public:
    std::uint64_t next()
    {
        m_state = m_state * 6364136223846793005U + 1442695040888963407U;
        return m_state >> 11U;
    }

    // A value of many magnitudes (1e-20 to 1e25): random mantissas, decimal ties shifted by a
    // power of ten, values just below a power of ten, integers.
    double value()
    {
        const double power = std::pow(10.0, static_cast<double>(next() % 46) - 20.0);
        const double sign = next() % 4 == 0 ? -1.0 : 1.0;
        switch (next() % 4) {
        case 0:
            return sign * static_cast<double>(next() % 100000000) / 1e7 * power;
        case 1: // k + 0.5 at the 1..6th decimal
            return sign * (static_cast<double>(next() % 100000) + 0.5)
                / std::pow(10.0, static_cast<double>(1 + next() % 6)) * power;
        case 2: // just below a power of ten: 9.9995, 0.00099995, 999.96
            return sign * (1.0 - std::pow(10.0, -static_cast<double>(2 + next() % 14))) * power;
        default:
            return sign * static_cast<double>(next() % 1000000);
        }
    }

private:
    std::uint64_t m_state = 17;
};

constexpr std::array<Dimension, 6> kDimensions { Dimension::FlopRate, Dimension::ByteRate,
    Dimension::Flops, Dimension::Bytes, Dimension::Time, Dimension::Intensity };

} // namespace

class TestUnitsFormat : public QObject
{
    Q_OBJECT

private slots:
    void significantMatchesReference_data();
    void significantMatchesReference();
    void quantityMatchesReference_data();
    void quantityMatchesReference();
    void manyValuesMatchReference();
};

void TestUnitsFormat::significantMatchesReference_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("expected");
    // Expected by hand: round to `digits` significant digits, drop trailing zeros.
    QTest::newRow("9.9995 stored below the tie") << 9.9995 << 4 << "9.999"; // 9.99949999...
    QTest::newRow("9.9996 carries") << 9.9996 << 4 << "10";
    // 0.00099995 is stored as 9.9995000000000000500e-4, above the tie: 0.0010000.
    QTest::newRow("0.00099995 stored above the tie") << 0.00099995 << 4 << "0.001";
    QTest::newRow("0.00099994 stays below") << 0.00099994 << 4 << "0.0009999";
    QTest::newRow("negative") << -674.066 << 4 << "-674.1";
    QTest::newRow("huge uses exponent") << 1.5e20 << 4 << "1.5e+20";
    QTest::newRow("1e15 uses exponent") << 1e15 << 4 << "1e+15";
    // log10(999999999999999) = 15 - 4.3e-16 rounds to 15.0: the exponent form, as printf's
    // reference gives it.
    QTest::newRow("just below 1e15") << 999999999999999.0 << 4 << "1e+15";
    QTest::newRow("1e14 and a bit") << 100000000000001.0 << 4 << "100000000000001";
    QTest::newRow("tiny uses exponent") << 1.2345e-300 << 3 << "1.23e-300";
    QTest::newRow("1e-4 is fixed") << 1e-4 << 4 << "0.0001";
    QTest::newRow("below 1e-4 is scientific") << 9.9e-5 << 4 << "9.9e-05";
    QTest::newRow("zero") << 0.0 << 4 << "0";
    QTest::newRow("negative zero") << -0.0 << 4 << "0";
    QTest::newRow("exact half rounds to even") << 0.125 << 2 << "0.12"; // 0.125 is exact
    QTest::newRow("exact half up to even") << 0.375 << 2 << "0.38";
    QTest::newRow("2.5 to even") << 2.5 << 1 << "2";
    QTest::newRow("one digit keeps the integer part") << 674.066 << 1 << "674";
    QTest::newRow("seventeen digits") << 0.1 << 17 << "0.10000000000000001";
    QTest::newRow("twenty digits") << 0.1 << 20 << "0.10000000000000000555";
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 4 << "inf";
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << 4 << "nan";
}

void TestUnitsFormat::significantMatchesReference()
{
    QFETCH(double, value);
    QFETCH(int, digits);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(referenceSignificant(value, digits)), expected);
    QCOMPARE(QString::fromStdString(formatSignificant(value, digits)), expected);
}

void TestUnitsFormat::quantityMatchesReference_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<Dimension>("dimension");
    QTest::addColumn<QString>("expected");
    QTest::newRow("note's measured time") << 0.000674066 << Dimension::Time << "674.1 us";
    QTest::newRow("note's T_max") << 1.040160158897122e-05 << Dimension::Time << "10.4 us";
    QTest::newRow("999.96 carries to the next prefix") << 999.96e-6 << Dimension::Time << "1 ms";
    QTest::newRow("negative carry") << -999.96e12 << Dimension::FlopRate << "-1 PFLOP/s";
    QTest::newRow("no sub-unit prefix for bytes") << 0.5 << Dimension::Bytes << "0.5 B";
    QTest::newRow("beyond exa") << 2.5e22 << Dimension::FlopRate << "25000 EFLOP/s";
    QTest::newRow("below pico") << 2e-15 << Dimension::Time << "2e-15 s";
    QTest::newRow("intensity has no prefix")
        << 295.2238805970149 << Dimension::Intensity << "295.2 FLOP/B";
    QTest::newRow("zero") << 0.0 << Dimension::ByteRate << "0 B/s";
}

void TestUnitsFormat::quantityMatchesReference()
{
    QFETCH(double, value);
    QFETCH(Dimension, dimension);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(referenceQuantity(value, dimension, 4)), expected);
    QCOMPARE(QString::fromStdString(formatQuantity(value, dimension)), expected);
    QuantityText buffer {};
    QCOMPARE(QString::fromUtf8(formatQuantity(buffer, value, dimension).data(),
                 static_cast<qsizetype>(formatQuantity(buffer, value, dimension).size())),
        expected);
}

void TestUnitsFormat::manyValuesMatchReference()
{
    // 200k values of the generator above, each with 1 to 8 (sometimes 17) digits, through both
    // functions and every dimension; the first difference fails with the value in the message.
    Values values;
    int checked = 0;
    for (int i = 0; i < 200000; ++i) {
        const double value = values.value();
        const int digits = i % 50 == 0 ? 17 : 1 + static_cast<int>(values.next() % 8);
        const Dimension dimension = kDimensions[values.next() % kDimensions.size()];
        const std::string significant = formatSignificant(value, digits);
        const std::string quantity = formatQuantity(value, dimension, digits);
        QuantityText buffer {};
        const std::string_view quick = formatQuantity(buffer, value, dimension, digits);
        if (significant != referenceSignificant(value, digits) || quantity != quick
            || quantity != referenceQuantity(value, dimension, digits)) {
            std::array<char, 64> shown {};
            std::snprintf(shown.data(), shown.size(), "%.17g, %d digits", value, digits);
            QFAIL(shown.data());
        }
        ++checked;
    }
    QCOMPARE(checked, 200000);
}

QTEST_GUILESS_MAIN(TestUnitsFormat)
#include "tst_units_format.moc"
