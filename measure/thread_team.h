// Internal to ridgepoint_measure: a fixed team of std::jthread workers, each pinned to its own
// CPU, that run one job together and are timed from the first start to the last end.
#pragma once

#include "measure/measure_detail.h"

#include <atomic>
#include <barrier>
#include <functional>
#include <thread>
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

    int size() const { return m_size; }

    // Runs job(t) on every member at once; returns the seconds from the first member's start
    // to the last member's end.
    double run(const std::function<void(int)> &job);

private:
    static void pin(const std::vector<int> &cpus, int t);
    void work(int t);

    int m_size;
    std::barrier<> m_start;
    std::barrier<> m_done;
    std::vector<MeasureClock::time_point> m_begin;
    std::vector<MeasureClock::time_point> m_end;
    const std::function<void(int)> *m_job = nullptr;
    std::atomic<bool> m_stop { false };
    std::vector<std::jthread> m_workers;
#if defined(__linux__)
    cpu_set_t m_saved {};
    bool m_restore = false;
#endif
};

} // namespace ridgepoint::detail
