// The shortest-digits writer (core/model/shortest_number.h) against the standard library's
// std::to_chars, the reference for every double: named cases with their expected text, then
// every power of two and ten with its neighbours, the smallest subnormals, and millions of
// doubles from a fixed generator (every bit pattern, whole numbers, short decimals and the
// values a report writes). The JSON form: read back, the same digits, nlohmann's layout.
#include "core/model/shortest_number.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

using namespace ridgepoint;

namespace {

std::string ours(double value)
{
    std::array<char, kShortestRoom> text {};
    return { text.data(), writeShortest(text.data(), value) };
}

std::string standard(double value)
{
    std::array<char, 64> text {};
    return { text.data(), std::to_chars(text.data(), text.data() + text.size(), value).ptr };
}

// The shortest digits in exponent form (the plain form writes a whole number of 2^53 or more
// with its exact digits instead).
std::string standardScientific(double value)
{
    std::array<char, 64> text {};
    return { text.data(),
        std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::scientific)
            .ptr };
}

std::string json(double value)
{
    std::array<char, kShortestRoom> text {};
    return { text.data(), writeJsonNumber(text.data(), value) };
}

std::string nlohmannText(double value)
{
    std::array<char, 64> text {};
    return { text.data(), nlohmann::detail::to_chars(text.data(), text.data() + 64, value) };
}

// A decimal text's significant digits and the power of ten of the first (0.5: "5", -1), what
// stays of a number when its layout is taken away.
struct Decimal {
    std::string digits;
    int exponent = 0;
    bool operator==(const Decimal &) const = default;
};

Decimal decimalOf(std::string_view text)
{
    if (text.starts_with('-'))
        text.remove_prefix(1);
    int exponent = 0;
    if (const auto e = text.find('e'); e != std::string_view::npos) {
        exponent = std::stoi(std::string(text.substr(e + 1)));
        text = text.substr(0, e);
    }
    const auto point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    std::string all(whole);
    if (point != std::string_view::npos)
        all += text.substr(point + 1);
    exponent += static_cast<int>(whole.size()) - 1;
    const auto first = all.find_first_not_of('0');
    if (first == std::string::npos)
        return {};
    exponent -= static_cast<int>(first);
    all = all.substr(first);
    all.erase(all.find_last_not_of('0') + 1);
    return { all, exponent };
}

// A fixed 64-bit generator (PCG's multiplier), so every run checks the same doubles.
class Numbers
{
public:
    std::uint64_t next()
    {
        m_state = m_state * 6364136223846793005U + 1442695040888963407U;
        return m_state ^ (m_state >> 29U);
    }

private:
    std::uint64_t m_state = 2026;
};

// The first double whose two texts differ, as "value: ours vs std", or empty.
template<typename Make> std::string firstDifference(int count, Make make)
{
    for (int i = 0; i < count; ++i) {
        const double value = make(i);
        if (ours(value) != standard(value))
            return standard(value) + ": ours " + ours(value);
    }
    return {};
}

} // namespace

class TestShortestNumber : public QObject
{
    Q_OBJECT

private slots:
    void namedCases_data();
    void namedCases();
    void powersAndNeighbours();
    void subnormals();
    void randomBitPatterns();
    void wholeNumbersAndShortDecimals();
    void jsonLayout_data();
    void jsonLayout();
    void jsonHasTheStandardDigitsInNlohmannsLayout();
};

void TestShortestNumber::namedCases_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected"); // what std::to_chars writes, checked too
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("negative zero") << -0.0 << "-0";
    QTest::newRow("one") << 1.0 << "1";
    QTest::newRow("a tenth") << 0.1 << "0.1";
    QTest::newRow("a third, 17 digits") << 1.0 / 3.0 << "0.3333333333333333";
    QTest::newRow("FLOP count, whole") << 5274270.0 << "5274270";
    QTest::newRow("1e9 is shorter in exponent form") << 1e9 << "1e+09";
    QTest::newRow("1.2e9 too") << 1.2e9 << "1.2e+09";
    QTest::newRow("12300000 is as long as 1.23e+07: fixed") << 12300000.0 << "12300000";
    QTest::newRow("1e-4 in exponent form") << 1e-4 << "1e-04";
    QTest::newRow("0.00012345 ties: fixed") << 0.00012345 << "0.00012345";
    QTest::newRow("measured seconds") << 0.000674066 << "0.000674066";
    QTest::newRow("intensity") << 0.15143981049458044 << "0.15143981049458044";
    QTest::newRow("2^53") << 0x1p53 << "9007199254740992";
    QTest::newRow("2^60: exact digits, not padded") << 0x1p60 << "1152921504606846976";
    QTest::newRow("above 1e20: exact digits") << 123456789012345683968.0 << "123456789012345683968";
    QTest::newRow("1e21") << 1e21 << "1e+21";
    QTest::newRow("1e22") << 1e22 << "1e+22";
    QTest::newRow("1e23 (shortest of 9.999999999999999e+22)") << 1e23 << "1e+23";
    QTest::newRow("tie to even, 2^-25") << 0x1p-25 << "2.9802322387695312e-08";
    QTest::newRow("tie to even, 2^50 + 1/4") << 1125899906842624.25 << "1125899906842624.2";
    QTest::newRow("largest") << std::numeric_limits<double>::max() << "1.7976931348623157e+308";
    QTest::newRow("smallest normal")
        << std::numeric_limits<double>::min() << "2.2250738585072014e-308";
    QTest::newRow("smallest subnormal") << std::numeric_limits<double>::denorm_min() << "5e-324";
    QTest::newRow("negative") << -2.5e-7 << "-2.5e-07";
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << "inf";
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "nan";
}

void TestShortestNumber::namedCases()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(standard(value)), expected);
    QCOMPARE(QString::fromStdString(ours(value)), expected);
}

void TestShortestNumber::powersAndNeighbours()
{
    // Each power of two (the irregular intervals) and of ten (where digits get shorter), and the
    // doubles either side of it, both signs.
    for (int e = -1074; e <= 1023; ++e) {
        const double power = std::ldexp(1.0, e);
        for (const double value : { power, std::nextafter(power, 0.0),
                 std::nextafter(power, std::numeric_limits<double>::infinity()) }) {
            QCOMPARE(ours(value), standard(value));
            QCOMPARE(ours(-value), standard(-value));
        }
    }
    for (int e = -323; e <= 308; ++e) {
        const std::string text = "1e" + std::to_string(e);
        const double power = std::strtod(text.c_str(), nullptr);
        for (const double value : { power, std::nextafter(power, 0.0),
                 std::nextafter(power, std::numeric_limits<double>::infinity()) })
            QCOMPARE(ours(value), standard(value));
    }
}

void TestShortestNumber::subnormals()
{
    const std::string first = firstDifference(
        200000, [](int i) { return std::bit_cast<double>(static_cast<std::uint64_t>(i) + 1); });
    QVERIFY2(first.empty(), first.c_str());
}

void TestShortestNumber::randomBitPatterns()
{
    Numbers numbers;
    const std::string first = firstDifference(2000000, [&](int) {
        double value = std::numeric_limits<double>::infinity();
        while (!std::isfinite(value))
            value = std::bit_cast<double>(numbers.next());
        return value;
    });
    QVERIFY2(first.empty(), first.c_str());
}

void TestShortestNumber::wholeNumbersAndShortDecimals()
{
    Numbers numbers;
    // Whole numbers of every size (below and above 2^53), scaled by powers of two.
    std::string first = firstDifference(500000, [&](int i) {
        const auto whole = static_cast<double>(numbers.next() >> (numbers.next() % 64));
        return i % 2 == 0 ? whole : std::ldexp(whole, static_cast<int>(numbers.next() % 40));
    });
    QVERIFY2(first.empty(), first.c_str());
    // Decimals of 1 to 17 digits as a file would hold them, read with strtod: their shortest
    // digits are theirs, and ties between two 17-digit neighbours come up.
    first = firstDifference(500000, [&](int) {
        const auto digits = static_cast<int>(numbers.next() % 17) + 1;
        const auto exponent = static_cast<int>(numbers.next() % 61) - 30;
        std::string text = std::to_string(numbers.next() % 100000000000000000U);
        text = text.substr(0, static_cast<std::size_t>(digits)) + "e" + std::to_string(exponent);
        return std::strtod(text.c_str(), nullptr);
    });
    QVERIFY2(first.empty(), first.c_str());
}

void TestShortestNumber::jsonLayout_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected"); // nlohmann's layout: ".0" on whole numbers and so on
    QTest::newRow("zero") << 0.0 << "0.0";
    QTest::newRow("negative zero") << -0.0 << "-0.0";
    QTest::newRow("one") << 1.0 << "1.0";
    QTest::newRow("FLOP count") << 5274270.0 << "5274270.0";
    QTest::newRow("1e9 stays fixed") << 1e9 << "1000000000.0";
    QTest::newRow("H100 peak, 15 digits") << 989e12 << "989000000000000.0";
    QTest::newRow("1e15 is exponent form") << 1e15 << "1e+15";
    QTest::newRow("fraction") << 0.000674066 << "0.000674066";
    QTest::newRow("1e-4 fixed") << 1e-4 << "0.0001";
    QTest::newRow("1e-5 exponent form") << 1e-5 << "1e-05";
    QTest::newRow("16 digits before the point") << 1125899906842624.25 << "1.1258999068426242e+15";
    QTest::newRow("shortest where Grisu2 is longer") << 1e23 << "1e+23";
    QTest::newRow("closest where Grisu2 is not")
        << 2.9545531576914354e-126 << "2.9545531576914354e-126";
    QTest::newRow("three digit exponent") << 5e-324 << "5e-324";
    QTest::newRow("negative") << -0.5 << "-0.5";
}

void TestShortestNumber::jsonLayout()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(json(value)), expected);
}

void TestShortestNumber::jsonHasTheStandardDigitsInNlohmannsLayout()
{
    // On any double: it reads back; its digits and exponent are those of std::to_chars in
    // exponent form (the shortest, closest digits); and where nlohmann's Grisu2 found the same
    // digits, the text is nlohmann's byte for byte (the layout).
    Numbers numbers;
    int sameDigits = 0;
    for (int i = 0; i < 300000; ++i) {
        double value = std::numeric_limits<double>::infinity();
        while (!std::isfinite(value))
            value = std::bit_cast<double>(numbers.next());
        const std::string text = json(value);
        const double back = std::strtod(text.c_str(), nullptr);
        if (std::bit_cast<std::uint64_t>(back) != std::bit_cast<std::uint64_t>(value))
            QFAIL((text + " does not read back as " + standard(value)).c_str());
        const Decimal digits = decimalOf(text);
        if (digits != decimalOf(standardScientific(value)))
            QFAIL((text + ": not the digits of " + standardScientific(value)).c_str());
        const std::string theirs = nlohmannText(value);
        if (decimalOf(theirs) == digits) {
            ++sameDigits;
            if (text != theirs)
                QFAIL((text + ": not laid out as nlohmann's " + theirs).c_str());
        }
    }
    QVERIFY(sameDigits > 290000); // they part in about 1 % of random doubles
}

QTEST_GUILESS_MAIN(TestShortestNumber)
#include "tst_shortestnumber.moc"
