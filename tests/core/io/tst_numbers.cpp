// plainNumber, the cell parser of every table reader: a quick exact path for short decimals
// (issue 17) in front of std::from_chars. Whatever the path, the double must be from_chars'
// (the nearest to the decimal), and the refusals the same.
#include "core/io/numbers.h"

#include <QTest>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

using namespace ridgepoint;

namespace {

// The reference: the whole text (blanks and one leading '+' dropped) through from_chars, finite.
std::optional<double> referenceNumber(std::string text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.erase(0, 1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.pop_back();
    if (!text.empty() && text.front() == '+')
        text.erase(0, 1);
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()
        || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// Same double, bit for bit (so -0 and 0 differ), or both refused.
bool sameResult(const std::optional<double> &a, const std::optional<double> &b)
{
    if (!a || !b)
        return !a && !b;
    return std::bit_cast<std::uint64_t>(*a) == std::bit_cast<std::uint64_t>(*b);
}

} // namespace

class TestNumbers : public QObject
{
    Q_OBJECT

private slots:
    void parsesLikeFromChars_data();
    void parsesLikeFromChars();
    void generatedTextParsesLikeFromChars();
};

void TestNumbers::parsesLikeFromChars_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("expected"); // the literal itself: the compiler's nearest double
    QTest::newRow("points file flops") << "5.27427e+06" << true << 5.27427e+06;
    QTest::newRow("points file seconds") << "0.000674066" << true << 0.000674066;
    QTest::newRow("integer") << "34827500" << true << 34827500.0;
    QTest::newRow("plus sign") << "+4" << true << 4.0;
    QTest::newRow("blanks") << "  2085.756683 " << true << 2085.756683;
    QTest::newRow("negative") << "-1.5" << true << -1.5;
    QTest::newRow("negative zero") << "-0" << true << -0.0;
    QTest::newRow("2^53 exactly") << "9007199254740992" << true << 9007199254740992.0;
    QTest::newRow("2^53 + 1 rounds to even") << "9007199254740993" << true << 9007199254740992.0;
    QTest::newRow("19 digits") << "1234567890123456789" << true << 1234567890123456789.0;
    QTest::newRow("20 digits") << "12345678901234567890" << true << 12345678901234567890.0;
    QTest::newRow("power 22") << "1e22" << true << 1e22;
    QTest::newRow("power 23") << "1e23" << true << 1e23;
    QTest::newRow("power -22") << "3e-22" << true << 3e-22;
    QTest::newRow("tiny") << "4.9e-324" << true << 4.9e-324;
    QTest::newRow("huge") << "1.7976931348623157e308" << true << 1.7976931348623157e308;
    QTest::newRow("0.1") << "0.1" << true << 0.1;
    QTest::newRow("leading point") << ".5" << true << 0.5;
    QTest::newRow("trailing point") << "5." << true << 5.0;
    QTest::newRow("capital E") << "2.5E3" << true << 2500.0;
    QTest::newRow("overflow") << "1e400" << false << 0.0;
    QTest::newRow("inf") << "inf" << false << 0.0;
    QTest::newRow("nan") << "nan" << false << 0.0;
    QTest::newRow("empty") << "" << false << 0.0;
    QTest::newRow("sign only") << "-" << false << 0.0;
    QTest::newRow("two signs") << "+-5" << true << -5.0; // '+' dropped, then from_chars("-5")
    QTest::newRow("exponent without digits") << "1e" << false << 0.0;
    QTest::newRow("unit after") << "5 GB" << false << 0.0;
    QTest::newRow("comma") << "1,5" << false << 0.0;
}

void TestNumbers::parsesLikeFromChars()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, expected);
    const std::string cell = text.toStdString();
    const auto parsed = plainNumber(cell);
    QVERIFY(sameResult(parsed, referenceNumber(cell)));
    QCOMPARE(parsed.has_value(), valid);
    if (valid)
        QCOMPARE(std::bit_cast<std::uint64_t>(*parsed), std::bit_cast<std::uint64_t>(expected));
}

void TestNumbers::generatedTextParsesLikeFromChars()
{
    // 200k texts from a fixed generator: random doubles of every magnitude printed with 1 to 17
    // significant digits (%g and %e), and random digit strings with a point and an exponent.
    std::uint64_t state = 23;
    const auto next = [&] {
        state = state * 6364136223846793005U + 1442695040888963407U;
        return state >> 11U;
    };
    std::array<char, 64> text {};
    for (int i = 0; i < 200000; ++i) {
        if (i % 2 == 0) {
            const double value = static_cast<double>(next() % 1000000007)
                * std::pow(10.0, static_cast<double>(next() % 60) - 30.0)
                * (next() % 3 == 0 ? -1.0 : 1.0);
            std::snprintf(text.data(), text.size(), i % 4 == 0 ? "%.*g" : "%.*e",
                static_cast<int>(1 + next() % 17), value);
        } else {
            const auto whole = next() % 100000000;
            const auto fraction = next() % 10000000000;
            const int exponent = static_cast<int>(next() % 60) - 30;
            std::snprintf(text.data(), text.size(), "%llu.%0*llue%d",
                static_cast<unsigned long long>(whole), static_cast<int>(1 + next() % 10),
                static_cast<unsigned long long>(fraction), exponent);
        }
        if (!sameResult(plainNumber(text.data()), referenceNumber(text.data())))
            QFAIL(text.data());
    }
}

QTEST_GUILESS_MAIN(TestNumbers)
#include "tst_numbers.moc"
