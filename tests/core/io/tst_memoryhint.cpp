// releasePages (core/io/memory_hint.h) gives back exactly the whole pages inside the range it
// is given: those read as zeros afterwards (are poisoned, under AddressSanitizer), and every byte
// of a page partly outside the range (which may belong to a neighbouring piece of text still to
// be read) keeps its value.
#include "core/io/memory_hint.h"

#include <QTest>

#include <cstddef>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#if defined(TEST_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace {

// Whether page `p` of `block` reads as given back: all zeros, or (under AddressSanitizer, where
// reading it would be reported) poisoned; false when untouched. Fails on a page given back in
// part.
bool givenBack(const unsigned char *block, std::size_t p, std::size_t page, bool &partly)
{
    std::size_t back = 0;
    for (std::size_t i = p * page; i < (p + 1) * page; ++i) {
#if defined(TEST_ASAN)
        back += __asan_address_is_poisoned(block + i) ? 1 : 0;
#else
        back += block[i] == 0 ? 1 : 0;
#endif
    }
    partly = back != 0 && back != page;
    return back == page;
}

} // namespace

using namespace ridgepoint;

class TestMemoryHint : public QObject
{
    Q_OBJECT

private slots:
    void releasesTheWholePagesInside_data();
    void releasesTheWholePagesInside();
};

void TestMemoryHint::releasesTheWholePagesInside_data()
{
    // The range in pages (begin, size) of an 8-page block, and the pages given back.
    QTest::addColumn<double>("begin");
    QTest::addColumn<double>("size");
    QTest::addColumn<int>("firstReleased");
    QTest::addColumn<int>("released");
    QTest::newRow("one page, exactly") << 1.0 << 1.0 << 1 << 1;
    QTest::newRow("one page less a byte") << 1.0 << 0.999 << 0 << 0;
    QTest::newRow("from a page's middle") << 0.5 << 2.0 << 1 << 1;
    QTest::newRow("a byte into a page, four pages") << 1.001 << 4.0 << 2 << 3;
    QTest::newRow("the whole block") << 0.0 << 8.0 << 0 << 8;
    QTest::newRow("nothing") << 3.0 << 0.0 << 0 << 0;
}

void TestMemoryHint::releasesTheWholePagesInside()
{
#if defined(__linux__)
    QFETCH(double, begin);
    QFETCH(double, size);
    QFETCH(int, firstReleased);
    QFETCH(int, released);
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t blockBytes = 8 * page;
    void *mapped
        = mmap(nullptr, blockBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QVERIFY(mapped != MAP_FAILED);
    auto *block = static_cast<unsigned char *>(mapped);
    for (std::size_t i = 0; i < blockBytes; ++i)
        block[i] = 'x';
    const auto from = static_cast<std::size_t>(begin * static_cast<double>(page));
    releasePages(block + from, static_cast<std::size_t>(size * static_cast<double>(page)));
    int backPages = 0;
    int firstBack = 0;
    bool partly = false;
    for (std::size_t p = 0; p < 8 && !partly; ++p) {
        if (givenBack(block, p, page, partly) && backPages++ == 0)
            firstBack = static_cast<int>(p);
    }
#if defined(TEST_ASAN)
    ASAN_UNPOISON_MEMORY_REGION(block, blockBytes); // the addresses may be mapped again
#endif
    munmap(mapped, blockBytes);
    QVERIFY2(!partly, "a page given back in part");
    QCOMPARE(backPages, released);
    QCOMPARE(firstBack, firstReleased);
#else
    QSKIP("pages are given back on Linux only");
#endif
}

QTEST_APPLESS_MAIN(TestMemoryHint)
#include "tst_memoryhint.moc"
