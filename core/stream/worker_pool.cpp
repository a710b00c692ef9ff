#include "core/stream/worker_pool.h"

#include <algorithm>
#include <new>
#include <system_error>
#include <utility>

namespace ridgepoint {

std::size_t defaultThreadCount()
{
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
}

WorkerPool::WorkerPool(std::size_t threads)
{
    try {
        m_workers.reserve(threads > 0 ? threads - 1 : 0);
        for (std::size_t member = 1; member < threads; ++member)
            m_workers.emplace_back([this, member] { work(member); });
    } catch (const std::system_error &) {
        // No more threads to be had: on with those that started.
    } catch (const std::bad_alloc &) { }
}

WorkerPool::~WorkerPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_start.notify_all();
    for (std::thread &worker : m_workers)
        worker.join();
}

void WorkerPool::run(const Job &job)
{
    {
        const std::lock_guard lock(m_mutex);
        m_job = &job;
        ++m_jobs;
        m_running = m_workers.size();
        m_failure = nullptr;
        m_failed = false;
    }
    m_start.notify_all();
    guarded(job, 0);
    std::exception_ptr failure;
    {
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_running == 0; });
        m_job = nullptr;
        failure = std::exchange(m_failure, nullptr);
    }
    if (failure)
        std::rethrow_exception(failure);
}

void WorkerPool::fail(std::exception_ptr failure)
{
    const std::lock_guard lock(m_mutex);
    if (!m_failure)
        m_failure = std::move(failure);
    m_failed = true;
}

void WorkerPool::guarded(const Job &job, std::size_t member)
{
    try {
        job(member);
    } catch (...) {
        fail(std::current_exception());
    }
}

void WorkerPool::work(std::size_t member)
{
    std::uint64_t done = 0; // the jobs this member has run
    std::unique_lock lock(m_mutex);
    while (true) {
        m_start.wait(lock, [&] { return m_stop || m_jobs != done; });
        if (m_stop)
            return;
        done = m_jobs;
        const Job &job = *m_job;
        lock.unlock();
        guarded(job, member);
        lock.lock();
        if (--m_running == 0)
            m_done.notify_one();
    }
}

} // namespace ridgepoint
