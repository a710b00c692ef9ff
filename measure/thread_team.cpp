#include "measure/thread_team.h"

#include <algorithm>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace ridgepoint::detail {

ThreadTeam::ThreadTeam(int threads, const std::vector<int> &cpus)
    : m_pool(static_cast<std::size_t>(std::max(threads, 1)))
    , m_begin(m_pool.size())
    , m_end(m_pool.size())
{
#if defined(__linux__)
    m_restore = pthread_getaffinity_np(pthread_self(), sizeof(m_saved), &m_saved) == 0;
#endif
    m_pool.run([&cpus](std::size_t member) { pin(cpus, static_cast<int>(member)); });
}

ThreadTeam::~ThreadTeam()
{
#if defined(__linux__)
    if (m_restore)
        pthread_setaffinity_np(pthread_self(), sizeof(m_saved), &m_saved);
#endif
}

double ThreadTeam::run(const std::function<void(int)> &job)
{
    m_pool.run([&](std::size_t member) {
        m_begin[member] = MeasureClock::now();
        job(static_cast<int>(member));
        m_end[member] = MeasureClock::now();
    });
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

} // namespace ridgepoint::detail
