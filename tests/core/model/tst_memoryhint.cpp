// releasePages (core/model/memory_hint.h) gives back exactly the whole pages inside the range it
// is given: those read as zeros afterwards, and every byte of a page partly outside the range
// (which may belong to a neighbouring piece of text still to be read) keeps its value.
#include "core/model/memory_hint.h"

#include <QTest>

#include <cstddef>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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
    int zeroPages = 0;
    int firstZero = 0;
    for (std::size_t p = 0; p < 8; ++p) {
        int zeros = 0;
        for (std::size_t i = p * page; i < (p + 1) * page; ++i)
            zeros += block[i] == 0 ? 1 : 0;
        QVERIFY2(zeros == 0 || zeros == static_cast<int>(page), "a page given back in part");
        if (zeros > 0 && zeroPages++ == 0)
            firstZero = static_cast<int>(p);
    }
    munmap(mapped, blockBytes);
    QCOMPARE(zeroPages, released);
    QCOMPARE(firstZero, firstReleased);
#else
    QSKIP("pages are given back on Linux only");
#endif
}

QTEST_APPLESS_MAIN(TestMemoryHint)
#include "tst_memoryhint.moc"
