// A small team of threads that run one job together, as often as asked: analyze's pieces
// (core/stream/pipeline.h) and measure's timed kernels (measure/thread_team.h) both run on it,
// so the project has one way of starting threads, sharing work out and bringing a thread's
// exception home.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ridgepoint {

// This thread and as many more as the machine has cores, up to four in all: beyond that the
// pieces' formatting no longer outruns writing the report.
std::size_t defaultThreadCount();

// `threads` members, the calling thread being member 0: it runs its share inside run(), so a
// pool of one starts no thread at all and runs every job right there. The others wait between
// jobs and end with the pool.
class WorkerPool
{
public:
    using Job = std::function<void(std::size_t member)>;

    // Fewer members when the system refuses a thread (a process limit): size() says how many
    // there are, and a job that shares its work out through a counter (forEachInParallel,
    // runInOrder) gets all of it done by those.
    explicit WorkerPool(std::size_t threads);
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;
    ~WorkerPool();

    std::size_t size() const { return m_workers.size() + 1; }

    // Runs job(member) on every member at once and returns once all have ended; then rethrows
    // the first exception a member threw (or gave to fail()). One job at a time.
    void run(const Job &job);
    // Whether a member of the running job failed: the others should stop soon after.
    bool failed() const { return m_failed.load(); }
    // Records a member's exception for run() to rethrow: failed() is true from now on.
    void fail(std::exception_ptr failure);

private:
    void work(std::size_t member);
    void guarded(const Job &job, std::size_t member);

    std::mutex m_mutex;
    std::condition_variable m_start; // a job, or the end
    std::condition_variable m_done; // a member ended its share
    const Job *m_job = nullptr;
    std::uint64_t m_jobs = 0; // jobs started: a member runs each once
    std::size_t m_running = 0; // members other than 0 still in the job
    bool m_stop = false;
    std::exception_ptr m_failure;
    std::atomic<bool> m_failed = false;
    std::vector<std::thread> m_workers; // members 1.., started once the members above exist
};

// work(k) for every k in [0, count), in any order, on every member of `pool`; stops early when
// one fails, and rethrows its exception.
template<typename Work> void forEachInParallel(WorkerPool &pool, std::size_t count, Work work)
{
    std::atomic<std::size_t> next = 0;
    pool.run([&](std::size_t) {
        for (std::size_t k = next++; k < count && !pool.failed(); k = next++)
            work(k);
    });
}

} // namespace ridgepoint
