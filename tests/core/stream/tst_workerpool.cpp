// The pipeline's threads (core/stream/worker_pool.h, pipeline.h): every piece worked on once,
// the outputs strictly in the pieces' order whatever the number of threads and buffers, at most
// buffers.size() pieces between work and output, a pool of one running on the calling thread,
// and a member's exception brought home with the rest stopping.
#include "core/stream/pipeline.h"
#include "core/stream/worker_pool.h"

#include <QTest>

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

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
