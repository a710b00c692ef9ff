// The pipelines' threads (core/stream/worker_pool.h, pipeline.h): every piece worked on once,
// the outputs strictly in the pieces' order whatever the number of threads and buffers, at most
// buffers.size() pieces between work and output, a pool of one running on the calling thread,
// and a member's exception brought home with the rest stopping; the same for the fed pipeline
// (runFedInOrder), whose source sends batches one after another.
#include "core/stream/pipeline.h"
#include "core/stream/worker_pool.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using ridgepoint::WorkerPool;

class TestWorkerPool : public QObject
{
    Q_OBJECT

private slots:
    void outputsInOrder_data();
    void outputsInOrder();
    void poolOfOneStaysOnThisThread();
    void everyMemberRunsEachJob();
    void failureComesHome_data();
    void failureComesHome();
    void fedOutputsInOrder_data();
    void fedOutputsInOrder();
    void fedFailureStopsTheOtherSide_data();
    void fedFailureStopsTheOtherSide();
};

void TestWorkerPool::outputsInOrder_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("bufferCount");
    QTest::addColumn<int>("count");
    QTest::newRow("one thread, one buffer") << 1 << 1 << 50;
    QTest::newRow("two threads, four buffers") << 2 << 4 << 200;
    QTest::newRow("four threads, one buffer") << 4 << 1 << 100;
    QTest::newRow("four threads, eight buffers") << 4 << 8 << 500;
    QTest::newRow("more threads than pieces") << 8 << 16 << 3;
    QTest::newRow("no pieces") << 3 << 6 << 0;
}

// Work that takes longer for some pieces than others, so that they finish out of order: the
// outputs still come 0, 1, 2, ..., each with the value its own work put in its buffer.
void TestWorkerPool::outputsInOrder()
{
    QFETCH(int, threads);
    QFETCH(int, bufferCount);
    QFETCH(int, count);
    WorkerPool pool(static_cast<std::size_t>(threads));
    QCOMPARE(pool.size(), static_cast<std::size_t>(threads));
    std::vector<std::size_t> buffers(static_cast<std::size_t>(bufferCount));
    std::vector<std::size_t> order;
    std::atomic<int> between = 0; // pieces worked on and not yet output
    std::atomic<int> mostBetween = 0;
    std::mutex seenMutex;
    std::multiset<std::size_t> worked;
    bool mixedUp = false; // an output saw another piece's buffer (QCOMPARE only on this thread)
    ridgepoint::runInOrder(
        pool, static_cast<std::size_t>(count), buffers,
        [&](std::size_t k, std::size_t &slot) {
            const int now = ++between;
            for (int most = mostBetween;
                 now > most && !mostBetween.compare_exchange_weak(most, now);)
                ;
            if (k % 7 == 0)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            slot = 1000 + k;
            const std::lock_guard lock(seenMutex);
            worked.insert(k);
        },
        [&](std::size_t k, std::size_t &slot) {
            mixedUp = mixedUp || slot != 1000 + k;
            order.push_back(k);
            --between;
        });
    QVERIFY(!mixedUp);
    QCOMPARE(order.size(), static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < order.size(); ++k)
        QCOMPARE(order[k], k);
    QCOMPARE(worked.size(), static_cast<std::size_t>(count));
    QCOMPARE(std::set<std::size_t>(worked.begin(), worked.end()).size(), worked.size());
    QVERIFY(mostBetween <= bufferCount);
}

void TestWorkerPool::poolOfOneStaysOnThisThread()
{
    WorkerPool pool(1);
    QCOMPARE(pool.size(), std::size_t { 1 });
    std::set<std::thread::id> seen;
    ridgepoint::forEachInParallel(
        pool, 20, [&](std::size_t) { seen.insert(std::this_thread::get_id()); });
    QCOMPARE(seen.size(), std::size_t { 1 });
    QVERIFY(*seen.begin() == std::this_thread::get_id());
}

// The members are the same threads from one job to the next, each running every job once.
void TestWorkerPool::everyMemberRunsEachJob()
{
    WorkerPool pool(3);
    for (int job = 0; job < 5; ++job) {
        std::vector<int> ran(pool.size(), 0);
        pool.run([&](std::size_t member) { ++ran[member]; });
        QCOMPARE(ran, std::vector<int>(pool.size(), 1));
    }
}

void TestWorkerPool::failureComesHome_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("inOutput"); // the output throws, else the work
    QTest::newRow("one thread, work") << 1 << false;
    QTest::newRow("four threads, work") << 4 << false;
    QTest::newRow("four threads, output") << 4 << true;
}

void TestWorkerPool::failureComesHome()
{
    QFETCH(int, threads);
    QFETCH(bool, inOutput);
    WorkerPool pool(static_cast<std::size_t>(threads));
    std::vector<int> buffers(8);
    std::atomic<std::size_t> worked = 0;
    bool caught = false;
    try {
        ridgepoint::runInOrder(
            pool, 10000, buffers,
            [&](std::size_t k, int &) {
                ++worked;
                if (!inOutput && k == 30)
                    throw std::runtime_error("piece 30");
            },
            [&](std::size_t k, int &) {
                if (inOutput && k == 30)
                    throw std::runtime_error("piece 30");
            });
    } catch (const std::runtime_error &error) {
        caught = QByteArray(error.what()) == "piece 30";
    }
    QVERIFY(caught);
    QVERIFY(worked < 10000); // the others stopped
    // The pool is usable again, its failure forgotten.
    std::atomic<int> ran = 0;
    pool.run([&](std::size_t) { ++ran; });
    QCOMPARE(ran.load(), threads);
}

void TestWorkerPool::fedOutputsInOrder_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("bufferCount");
    QTest::addColumn<int>("count");
    QTest::newRow("one thread") << 1 << 3 << 50;
    QTest::newRow("two threads, one buffer") << 2 << 1 << 50;
    QTest::newRow("two threads, three buffers") << 2 << 3 << 500;
    QTest::newRow("four threads, two buffers") << 4 << 2 << 300;
    QTest::newRow("nothing sent") << 2 << 3 << 0;
}

// A source that sends batches numbered 0, 1, 2, ... (some slowly, some while the sink is slow):
// the sink sees each in the order sent, with what the source put in it, and at most
// bufferCount are sent and not yet written. A pool of one, or a single buffer, writes each batch
// on this thread as it is sent.
void TestWorkerPool::fedOutputsInOrder()
{
    QFETCH(int, threads);
    QFETCH(int, bufferCount);
    QFETCH(int, count);
    WorkerPool pool(static_cast<std::size_t>(threads));
    std::vector<std::size_t> buffers(static_cast<std::size_t>(bufferCount));
    std::vector<std::size_t> order;
    std::set<std::thread::id> writers;
    std::atomic<int> between = 0; // sent and not yet written
    int mostBetween = 0; // read by the source only
    ridgepoint::runFedInOrder(
        pool, buffers,
        [&](ridgepoint::Feeder<std::size_t> &feeder) {
            for (int k = 0; k < count; ++k) {
                if (k % 11 == 0)
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
                feeder.slot() = 1000 + static_cast<std::size_t>(k);
                mostBetween = std::max(mostBetween, ++between);
                feeder.send();
            }
        },
        [&](std::size_t &slot) {
            if (slot % 13 == 0)
                std::this_thread::sleep_for(std::chrono::microseconds(300));
            order.push_back(slot);
            writers.insert(std::this_thread::get_id());
            --between;
        });
    QCOMPARE(order.size(), static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < order.size(); ++k)
        QCOMPARE(order[k], 1000 + k);
    QVERIFY(mostBetween <= bufferCount);
    if (count > 0) {
        QCOMPARE(writers.size(), std::size_t { 1 });
        const bool here = *writers.begin() == std::this_thread::get_id();
        QCOMPARE(here, threads == 1 || bufferCount == 1);
    }
}

void TestWorkerPool::fedFailureStopsTheOtherSide_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("inOutput"); // the sink throws, else the source
    QTest::newRow("one thread, source") << 1 << false;
    QTest::newRow("one thread, sink") << 1 << true;
    QTest::newRow("two threads, source") << 2 << false;
    QTest::newRow("two threads, sink") << 2 << true;
}

// The source throws at batch 30: nothing after it is written (on two threads the sink may stop
// before the batches already sent). The sink throws at batch 30: the source stops within the
// buffers' reach (no waiting forever for room). Either way that exception is the one rethrown.
void TestWorkerPool::fedFailureStopsTheOtherSide()
{
    QFETCH(int, threads);
    QFETCH(bool, inOutput);
    WorkerPool pool(static_cast<std::size_t>(threads));
    std::vector<int> buffers(3);
    int sent = 0;
    int written = 0;
    bool caught = false;
    try {
        ridgepoint::runFedInOrder(
            pool, buffers,
            [&](ridgepoint::Feeder<int> &feeder) {
                for (int k = 0; k < 10000; ++k) {
                    if (!inOutput && k == 30)
                        throw std::runtime_error("batch 30");
                    feeder.slot() = k;
                    ++sent;
                    feeder.send();
                }
            },
            [&](int &k) {
                if (inOutput && k == 30)
                    throw std::runtime_error("batch 30");
                ++written;
            });
    } catch (const std::runtime_error &error) {
        caught = QByteArray(error.what()) == "batch 30";
    }
    QVERIFY(caught);
    if (inOutput || threads == 1)
        QCOMPARE(written, 30);
    else
        QVERIFY(written <= 30);
    QVERIFY(sent <= 31 + static_cast<int>(buffers.size()));
    std::atomic<int> ran = 0;
    pool.run([&](std::size_t) { ++ran; });
    QCOMPARE(ran.load(), threads);
}

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
