// The word-at-a-time byte tests of the text scanners (core/model/byte_words.h) against a byte
// loop: every byte value at every position of a word whose other bytes are a background that
// does not match, plus a background that does.
#include "core/model/byte_words.h"

#include <QTest>

#include <array>
#include <bit>
#include <cstdint>

using namespace ridgepoint;

namespace {

// The word whose byte `at` is `value` and whose other bytes are `background`.
std::uint64_t wordWith(int at, unsigned value, unsigned char background)
{
    std::array<char, 8> bytes {};
    bytes.fill(static_cast<char>(background));
    bytes[static_cast<std::size_t>(at)] = static_cast<char>(value);
    return bytewise::load(bytes.data());
}

} // namespace

class TestByteWords : public QObject
{
    Q_OBJECT

private slots:
    void matchesAByteLoop_data();
    void matchesAByteLoop();
};

void TestByteWords::matchesAByteLoop_data()
{
    QTest::addColumn<int>("background");
    QTest::newRow("letters") << int { 'a' };
    QTest::newRow("spaces") << int { ' ' };
    QTest::newRow("zeros") << 0;
    QTest::newRow("high bytes") << 0xE2;
    QTest::newRow("commas") << int { ',' };
}

void TestByteWords::matchesAByteLoop()
{
    QFETCH(int, background);
    const auto fill = static_cast<unsigned char>(background);
    for (int at = 0; at < 8; ++at) {
        for (unsigned value = 0; value < 256; ++value) {
            const std::uint64_t word = wordWith(at, value, fill);
            const auto has = [&](auto test) { return test(value) || test(unsigned { fill }); };
            const auto below = [](unsigned n) { return [n](unsigned b) { return b < n; }; };
            QCOMPARE(bytewise::anyEqual(word, ','), has([](unsigned b) { return b == ','; }));
            QCOMPARE(bytewise::zeroBytes(word) != 0, has(below(1)));
            QCOMPARE(bytewise::bytesBelow(word, 0x20) != 0, has(below(0x20)));
            QCOMPARE(bytewise::anyHigh(word), has([](unsigned b) { return b >= 0x80; }));
            // The lowest flag is the first matching byte (little-endian: the lowest address).
            const std::uint64_t commas = bytewise::zeroBytes(word ^ bytewise::repeated(','));
            if (fill != ',' && value == ',') {
                QCOMPARE(std::countr_zero(commas) / 8, at);
            }
        }
    }
}

QTEST_APPLESS_MAIN(TestByteWords)
#include "tst_bytewords.moc"
