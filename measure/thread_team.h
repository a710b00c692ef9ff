// Internal to ridgepoint_measure: a fixed team of threads, each pinned to its own CPU, that run
// one job together and are timed from the first start to the last end. The threads are a
// WorkerPool (core/stream/worker_pool.h), the one pool analyze's pieces run on too.
#pragma once

#include "core/stream/worker_pool.h"
#include "measure/measure_detail.h"

#include <functional>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace ridgepoint::detail {

// The calling thread is member 0; its affinity is restored when the team ends. Member t runs
// on cpus[t % cpus.size()] (no pinning when `cpus` is empty or off Linux).
class ThreadTeam
{
public:
    ThreadTeam(int threads, const std::vector<int> &cpus);
    ThreadTeam(const ThreadTeam &) = delete;
    ThreadTeam &operator=(const ThreadTeam &) = delete;
    ~ThreadTeam();

    // Fewer than asked when the system refused a thread.
    int size() const { return static_cast<int>(m_pool.size()); }

    // Runs job(t) on every member at once; returns the seconds from the first member's start
    // to the last member's end.
    double run(const std::function<void(int)> &job);

private:
    static void pin(const std::vector<int> &cpus, int t);

#if defined(__linux__)
    cpu_set_t m_saved {};
    bool m_restore = false;
#endif
    WorkerPool m_pool;
    std::vector<MeasureClock::time_point> m_begin;
    std::vector<MeasureClock::time_point> m_end;
};

} // namespace ridgepoint::detail
