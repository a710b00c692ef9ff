#include "measure/thread_team.h"

#include <algorithm>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace ridgepoint::detail {

ThreadTeam::ThreadTeam(int threads, const std::vector<int> &cpus)
    : m_size(std::max(threads, 1))
    , m_start(m_size)
    , m_done(m_size)
    , m_begin(static_cast<std::size_t>(m_size))
    , m_end(static_cast<std::size_t>(m_size))
{
#if defined(__linux__)
    m_restore = pthread_getaffinity_np(pthread_self(), sizeof(m_saved), &m_saved) == 0;
#endif
    pin(cpus, 0);
    for (int t = 1; t < m_size; ++t) {
        m_workers.emplace_back([this, t, cpus] {
            pin(cpus, t);
            work(t);
        });
    }
}

ThreadTeam::~ThreadTeam()
{
    m_stop = true;
    if (m_size > 1)
        m_start.arrive_and_wait();
    m_workers.clear(); // joins
#if defined(__linux__)
    if (m_restore)
        pthread_setaffinity_np(pthread_self(), sizeof(m_saved), &m_saved);
#endif
}

double ThreadTeam::run(const std::function<void(int)> &job)
{
    m_job = &job;
    if (m_size > 1)
        m_start.arrive_and_wait();
    m_begin[0] = MeasureClock::now();
    job(0);
    m_end[0] = MeasureClock::now();
    if (m_size > 1)
        m_done.arrive_and_wait();
    const auto first = *std::min_element(m_begin.begin(), m_begin.end());
    const auto last = *std::max_element(m_end.begin(), m_end.end());
    return std::chrono::duration<double>(last - first).count();
}

void ThreadTeam::pin([[maybe_unused]] const std::vector<int> &cpus, [[maybe_unused]] int t)
{
#if defined(__linux__)
    if (cpus.empty())
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[static_cast<std::size_t>(t) % cpus.size()], &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#endif
}

void ThreadTeam::work(int t)
{
    const auto index = static_cast<std::size_t>(t);
    for (;;) {
        m_start.arrive_and_wait();
        if (m_stop)
            return;
        m_begin[index] = MeasureClock::now();
        (*m_job)(t);
        m_end[index] = MeasureClock::now();
        m_done.arrive_and_wait();
    }
}

} // namespace ridgepoint::detail
