#include "measure/measure.h"

#include "core/io/formats/hardware_json.h"
#include "core/report/json_detail.h"
#include "measure/measure_kernels.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <thread>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif
#include <unistd.h>

namespace ridgepoint {
namespace {

using Clock = std::chrono::steady_clock;
using detail::Isa;

constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double medianOf(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string trim(std::string text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string readSmallFile(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return trim(text.str());
}

// "48K", "1024K", "32M", "65536" -> bytes.
std::uint64_t parseCacheSize(const std::string &text)
{
    if (text.empty())
        return 0;
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (...) {
        return 0;
    }
    const char unit = used < text.size() ? text[used] : '\0';
    if (unit == 'K' || unit == 'k')
        return value * 1024ULL;
    if (unit == 'M' || unit == 'm')
        return value * kMiB;
    if (unit == 'G' || unit == 'g')
        return value * kMiB * 1024ULL;
    return value;
}

// "0-1,4,6-7" -> 5.
int countCpuList(const std::string &text)
{
    int count = 0;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto dash = part.find('-');
        try {
            if (dash == std::string::npos)
                count += part.empty() ? 0 : 1;
            else
                count += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
        } catch (...) { }
    }
    return std::max(count, 1);
}

// ---- threads -------------------------------------------------------------------------------

std::vector<int> allowedCpus()
{
    std::vector<int> cpus;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
            if (CPU_ISSET(cpu, &set))
                cpus.push_back(cpu);
        }
    }
#endif
    if (cpus.empty()) {
        const int n = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
        for (int cpu = 0; cpu < n; ++cpu)
            cpus.push_back(cpu);
    }
    return cpus;
}

// A fixed team of threads, each pinned to its own CPU, that run one job together. The calling
// thread is member 0; its affinity is restored when the team ends.
class Team
{
public:
    Team(int threads, const std::vector<int> &cpus)
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
    Team(const Team &) = delete;
    Team &operator=(const Team &) = delete;
    ~Team()
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

    int size() const
    {
        return m_size;
    }

    // Runs job(t) on every member at once; returns the seconds from the first member's start
    // to the last member's end.
    double run(const std::function<void(int)> &job)
    {
        m_job = &job;
        if (m_size > 1)
            m_start.arrive_and_wait();
        m_begin[0] = Clock::now();
        job(0);
        m_end[0] = Clock::now();
        if (m_size > 1)
            m_done.arrive_and_wait();
        const auto first = *std::min_element(m_begin.begin(), m_begin.end());
        const auto last = *std::max_element(m_end.begin(), m_end.end());
        return std::chrono::duration<double>(last - first).count();
    }

private:
    static void pin([[maybe_unused]] const std::vector<int> &cpus, [[maybe_unused]] int t)
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

    void work(int t)
    {
        const auto index = static_cast<std::size_t>(t);
        for (;;) {
            m_start.arrive_and_wait();
            if (m_stop)
                return;
            m_begin[index] = Clock::now();
            (*m_job)(t);
            m_end[index] = Clock::now();
            m_done.arrive_and_wait();
        }
    }

    int m_size;
    std::barrier<> m_start;
    std::barrier<> m_done;
    std::vector<Clock::time_point> m_begin;
    std::vector<Clock::time_point> m_end;
    const std::function<void(int)> *m_job = nullptr;
    std::atomic<bool> m_stop { false };
    std::vector<std::jthread> m_workers;
#if defined(__linux__)
    cpu_set_t m_saved {};
    bool m_restore = false;
#endif
};

struct FreeDeleter {
    void operator()(double *p) const { std::free(p); }
};

// ---- system facts --------------------------------------------------------------------------

std::string cpuInfoField(const std::string &field)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon != std::string::npos && trim(line.substr(0, colon)) == field)
            return trim(line.substr(colon + 1));
    }
    return {};
}

std::string hostName()
{
    char buffer[256] = {};
    if (gethostname(buffer, sizeof(buffer) - 1) != 0)
        return "unknown host";
    return buffer;
}

std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char buffer[32] = {};
    std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

std::uint64_t availableMemory()
{
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0)
        return 0;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

// Capacities seen by `threads` threads on distinct CPUs: a private cache counts once per
// thread, a shared one once per group of CPUs sharing it. One entry per level, ascending.
std::vector<std::uint64_t> capacitiesFor(const std::vector<CacheInfo> &caches, int threads)
{
    std::vector<std::uint64_t> capacities;
    for (int level = 1; level <= 4; ++level) {
        std::uint64_t capacity = 0;
        for (const auto &cache : caches) {
            if (cache.level != level)
                continue;
            const int sharers = std::max(cache.sharedBy, 1);
            const auto instances = static_cast<std::uint64_t>((threads + sharers - 1) / sharers);
            capacity = std::max(capacity, cache.size * instances);
        }
        if (capacity > 0)
            capacities.push_back(capacity);
    }
    std::sort(capacities.begin(), capacities.end());
    return capacities;
}

std::string isaLabel(std::string_view isa)
{
    if (isa == "avx512")
        return "AVX-512";
    if (isa == "avx2")
        return "AVX2";
    if (isa == "sse2")
        return "SSE2";
    return "portable";
}

std::string computeCeilingName(const ComputeSample &sample, int allThreads)
{
    std::string name = sample.precision == Precision::FP64 ? "FP64 " : "FP32 ";
    if (sample.simd)
        name += isaLabel(sample.isa) + (sample.fma ? " FMA" : " mul+add");
    else
        name += sample.fma ? "scalar FMA" : "scalar";
    if (sample.threads != allThreads)
        name += sample.threads == 1 ? " (1 thread)"
                                    : " (" + std::to_string(sample.threads) + " threads)";
    return name;
}

// ---- plateau detection ---------------------------------------------------------------------

struct Segment {
    std::size_t first = 0;
    std::size_t last = 0; // inclusive
};

double medianRange(const std::vector<double> &y, std::size_t first, std::size_t last)
{
    return medianOf(std::vector<double>(y.begin() + static_cast<std::ptrdiff_t>(first),
        y.begin() + static_cast<std::ptrdiff_t>(last) + 1));
}

double absDeviation(const std::vector<double> &y, std::size_t first, std::size_t last, double m)
{
    double cost = 0.0;
    for (std::size_t i = first; i <= last; ++i)
        cost += std::abs(y[i] - m);
    return cost;
}

// Optimal piecewise-constant fit of y (least absolute deviations, `penalty` per segment).
std::vector<Segment> segment(const std::vector<double> &y, double penalty)
{
    const std::size_t n = y.size();
    std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> start(n + 1, 0);
    best[0] = 0.0;
    for (std::size_t end = 1; end <= n; ++end) {
        for (std::size_t begin = 0; begin < end; ++begin) {
            const double m = medianRange(y, begin, end - 1);
            const double cost = best[begin] + absDeviation(y, begin, end - 1, m) + penalty;
            if (cost < best[end]) {
                best[end] = cost;
                start[end] = begin;
            }
        }
    }
    std::vector<Segment> segments;
    for (std::size_t end = n; end > 0; end = start[end])
        segments.push_back({ start[end], end - 1 });
    std::reverse(segments.begin(), segments.end());
    return segments;
}

struct Group {
    std::vector<std::size_t> indices;
    double level = 0.0; // median of log bandwidth
};

double groupLevel(const Group &group, const std::vector<double> &y)
{
    std::vector<double> values;
    for (auto i : group.indices)
        values.push_back(y[i]);
    return medianOf(values);
}

} // namespace

// ---- names ---------------------------------------------------------------------------------

std::string_view memoryKernelName(MemoryKernel kernel)
{
    switch (kernel) {
    case MemoryKernel::Load:
        return "load";
    case MemoryKernel::Copy:
        return "copy";
    case MemoryKernel::Triad:
        return "triad";
    }
    return "load";
}

std::optional<MemoryKernel> memoryKernelFromName(std::string_view name)
{
    for (auto kernel : { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad }) {
        if (name == memoryKernelName(kernel))
            return kernel;
    }
    return std::nullopt;
}

int memoryKernelArrays(MemoryKernel kernel)
{
    switch (kernel) {
    case MemoryKernel::Load:
        return 1;
    case MemoryKernel::Copy:
        return 2;
    case MemoryKernel::Triad:
        return 3;
    }
    return 1;
}

double memoryKernelBytesPerElement(MemoryKernel kernel)
{
    return 8.0 * memoryKernelArrays(kernel);
}

std::vector<CacheInfo> detectCaches()
{
    std::vector<CacheInfo> caches;
    for (int index = 0; index < 16; ++index) {
        const std::string dir
            = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string levelText = readSmallFile(dir + "level");
        if (levelText.empty())
            break;
        CacheInfo cache;
        cache.type = readSmallFile(dir + "type");
        if (cache.type == "Instruction")
            continue;
        try {
            cache.level = std::stoi(levelText);
        } catch (...) {
            continue;
        }
        cache.size = parseCacheSize(readSmallFile(dir + "size"));
        cache.sharedBy = countCpuList(readSmallFile(dir + "shared_cpu_list"));
        if (cache.size > 0)
            caches.push_back(cache);
    }
#if defined(_SC_LEVEL1_DCACHE_SIZE)
    if (caches.empty()) {
        const std::pair<int, int> names[] = { { 1, _SC_LEVEL1_DCACHE_SIZE },
            { 2, _SC_LEVEL2_CACHE_SIZE }, { 3, _SC_LEVEL3_CACHE_SIZE } };
        for (const auto &[level, name] : names) {
            const long size = sysconf(name);
            if (size > 0)
                caches.push_back({ level, level == 1 ? "Data" : "Unified",
                    static_cast<std::uint64_t>(size), level == 3 ? 0 : 1 });
        }
        // sysconf does not say who shares a cache: call L3 shared by every CPU.
        for (auto &cache : caches) {
            if (cache.sharedBy == 0)
                cache.sharedBy = static_cast<int>(allowedCpus().size());
        }
    }
#endif
    return caches;
}

std::string detectCpuModel()
{
    const std::string model = cpuInfoField("model name");
    return model.empty() ? "unknown CPU" : model;
}

int usableCpus()
{
    return static_cast<int>(allowedCpus().size());
}

std::string formatBinarySize(std::uint64_t bytes)
{
    const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(
        text, sizeof(text), value < 10.0 && unit > 0 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    std::string result = text;
    if (const auto point = result.find(".0 "); point != std::string::npos)
        result.erase(point, 2); // "1.0 MiB" -> "1 MiB"
    return result;
}

std::string describeCaches(const std::vector<CacheInfo> &caches)
{
    std::string text;
    for (const auto &c : caches) {
        text += (text.empty() ? "L" : ", L") + std::to_string(c.level) + " "
            + formatBinarySize(c.size)
            + (c.sharedBy > 1 ? " shared by " + std::to_string(c.sharedBy) + " CPUs"
                              : std::string(" per CPU"));
    }
    return text.empty() ? "none" : text;
}

std::vector<Plateau> findPlateaus(
    const std::vector<BandwidthSample> &curve, const PlateauOptions &options)
{
    std::vector<BandwidthSample> points;
    for (const auto &sample : curve) {
        if (std::isfinite(sample.best) && sample.best > 0.0 && sample.workingSet > 0)
            points.push_back(sample);
    }
    std::sort(points.begin(), points.end(), [](const BandwidthSample &a, const BandwidthSample &b) {
        return a.workingSet < b.workingSet;
    });
    if (points.empty())
        return {};
    std::vector<double> raw;
    raw.reserve(points.size());
    for (const auto &p : points)
        raw.push_back(std::log(p.best));
    const std::size_t n = raw.size();
    // A running median of three removes single outliers (a trial slowed by other work) and
    // keeps steps where they are.
    std::vector<double> y = raw;
    for (std::size_t i = 1; i + 1 < n; ++i)
        y[i] = medianOf({ raw[i - 1], raw[i], raw[i + 1] });

    // Noise from the point-to-point differences: robust to the few steps (median, not mean).
    double sigma = 0.0;
    if (n >= 3) {
        std::vector<double> diffs;
        for (std::size_t i = 1; i < n; ++i)
            diffs.push_back(std::abs(y[i] - y[i - 1]));
        sigma = 1.4826 * medianOf(diffs) / std::sqrt(2.0);
    }
    const double penalty = 0.15 + 3.0 * sigma;
    const double flatTolerance = std::max(0.05, 2.5 * sigma);
    const int minPoints = std::max(options.minPoints, 1);

    // Flat segments are plateaus; the rest are the slopes between levels.
    std::vector<Group> groups;
    for (const auto &s : segment(y, penalty)) {
        const int count = static_cast<int>(s.last - s.first + 1);
        if (count < minPoints)
            continue;
        const double m = medianRange(y, s.first, s.last);
        std::vector<double> deviations;
        for (std::size_t i = s.first; i <= s.last; ++i)
            deviations.push_back(std::abs(y[i] - m));
        const double spread = count == 2 ? deviations[0] : medianOf(deviations);
        if (spread > flatTolerance)
            continue;
        Group group;
        for (std::size_t i = s.first; i <= s.last; ++i)
            group.indices.push_back(i);
        group.level = m;
        groups.push_back(std::move(group));
    }

    // Neighbours that do not drop by minStep are one level. A first plateau well below the next
    // is start-up overhead at the smallest sizes, not a level: dropped.
    const double step = std::log(std::max(options.minStep, 1.0));
    while (groups.size() >= 2 && groups[1].level - groups[0].level > step)
        groups.erase(groups.begin());
    for (std::size_t i = 1; i < groups.size();) {
        if (groups[i - 1].level - groups[i].level < step) {
            groups[i - 1].indices.insert(
                groups[i - 1].indices.end(), groups[i].indices.begin(), groups[i].indices.end());
            groups[i - 1].level = groupLevel(groups[i - 1], y);
            groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i));
            if (i > 1)
                --i; // the merged group may now merge with the one before
        } else {
            ++i;
        }
    }
    // More cache plateaus than L1-L3: merge the closest neighbours among the caches.
    while (groups.size() > 4) {
        std::size_t closest = 1;
        for (std::size_t i = 1; i + 1 < groups.size(); ++i) {
            if (groups[i - 1].level - groups[i].level
                < groups[closest - 1].level - groups[closest].level)
                closest = i;
        }
        auto &into = groups[closest - 1];
        into.indices.insert(
            into.indices.end(), groups[closest].indices.begin(), groups[closest].indices.end());
        into.level = groupLevel(into, y);
        groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(closest));
    }

    std::vector<Plateau> plateaus;
    for (const auto &group : groups) {
        Plateau plateau;
        std::vector<double> values;
        for (auto i : group.indices)
            values.push_back(points[i].best);
        plateau.bandwidth = medianOf(values);
        plateau.firstWorkingSet = points[group.indices.front()].workingSet;
        plateau.lastWorkingSet = points[group.indices.back()].workingSet;
        plateau.points = static_cast<int>(group.indices.size());
        for (auto i : group.indices)
            plateau.maxBandwidth = std::max(plateau.maxBandwidth, points[i].best);
        plateaus.push_back(plateau);
    }
    if (plateaus.empty())
        return plateaus;

    // Names.
    const auto &capacities = options.cacheCapacities;
    constexpr MemoryLevel kCaches[] = { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3 };
    if (plateaus.size() == 1) {
        const std::uint64_t beyond = capacities.empty() ? 64 * kMiB : 2 * capacities.back();
        plateaus[0].level
            = plateaus[0].lastWorkingSet >= beyond ? MemoryLevel::DRAM : MemoryLevel::L1;
        return plateaus;
    }
    plateaus.back().level = MemoryLevel::DRAM;
    const std::size_t caches = plateaus.size() - 1;
    const std::size_t levels = std::min<std::size_t>(capacities.size(), 3);
    if (caches >= levels) {
        for (std::size_t i = 0; i < caches; ++i)
            plateaus[i].level = kCaches[i];
        return plateaus;
    }
    // Fewer plateaus than reported levels: a level is missing. Match each drop (between a
    // plateau's last point and the next plateau's first) to the nearest reported capacity,
    // keeping the order, over every increasing assignment.
    std::vector<double> drops;
    for (std::size_t i = 0; i < caches; ++i) {
        drops.push_back(0.5
            * (std::log(static_cast<double>(plateaus[i].lastWorkingSet))
                + std::log(static_cast<double>(plateaus[i + 1].firstWorkingSet))));
    }
    std::vector<std::size_t> choice(caches), bestChoice;
    double bestCost = std::numeric_limits<double>::infinity();
    const std::function<void(std::size_t, std::size_t, double)> search
        = [&](std::size_t i, std::size_t from, double cost) {
              if (i == caches) {
                  if (cost < bestCost) {
                      bestCost = cost;
                      bestChoice = choice;
                  }
                  return;
              }
              for (std::size_t j = from; j + (caches - i) <= levels; ++j) {
                  choice[i] = j;
                  search(i + 1, j + 1,
                      cost + std::abs(drops[i] - std::log(static_cast<double>(capacities[j]))));
              }
          };
    search(0, 0, 0.0);
    for (std::size_t i = 0; i < caches; ++i)
        plateaus[i].level = kCaches[bestChoice[i]];
    return plateaus;
}

// ---- measuring -----------------------------------------------------------------------------

namespace {

class Measurer
{
public:
    Measurer(const MeasureOptions &options, const MeasureCallback &callback,
        const std::atomic<bool> *cancel)
        : m_options(options)
        , m_callback(callback)
        , m_cancel(cancel)
        , m_start(Clock::now())
        , m_lastCall(m_start)
    { }

    Expected<MeasureResult, std::string> run();

private:
    // False once cancelled. Calls the callback when there is news or 40 ms have passed.
    bool checkpoint(const std::string &stage, const BandwidthSample *sample = nullptr,
        const ComputeSample *compute = nullptr)
    {
        if (m_cancel && m_cancel->load())
            m_cancelled = true;
        const auto now = Clock::now();
        if (m_callback && !m_cancelled
            && (sample || compute || stage != m_lastStage
                || now - m_lastCall >= std::chrono::milliseconds(40))) {
            MeasureProgress progress;
            progress.fraction
                = std::clamp(secondsSince(m_start) / m_options.budgetSeconds, 0.0, 0.99);
            progress.fraction = std::max(progress.fraction, m_lastFraction);
            m_lastFraction = progress.fraction;
            progress.stage = stage;
            progress.sample = sample;
            progress.compute = compute;
            m_lastCall = now;
            m_lastStage = stage;
            if (!m_callback(progress))
                m_cancelled = true;
        }
        return !m_cancelled;
    }

    // Trials of `trial` (returns seconds and work done) until the slot is used, at least
    // three; returns the rates (work per second), empty when cancelled.
    std::vector<double> trials(const std::string &stage, double slotSeconds,
        const std::function<std::pair<double, double>()> &trial)
    {
        std::vector<double> rates;
        const auto begin = Clock::now();
        while (rates.size() < 3 || (secondsSince(begin) < slotSeconds && rates.size() < 25)) {
            if (!checkpoint(stage))
                return {};
            const auto [seconds, work] = trial();
            if (seconds > 0.0)
                rates.push_back(work / seconds);
        }
        return rates;
    }

    double slot(double phaseEnd, int remaining) const
    {
        const double left = std::max(0.0, phaseEnd - secondsSince(m_start));
        return left / std::max(remaining, 1);
    }

    bool measureMemory(Measurement &m, Isa isa);
    bool measureCompute(Measurement &m, const std::vector<Isa> &isas);

    const MeasureOptions &m_options;
    const MeasureCallback &m_callback;
    const std::atomic<bool> *m_cancel;
    Clock::time_point m_start;
    Clock::time_point m_lastCall;
    std::string m_lastStage;
    double m_lastFraction = 0.0;
    bool m_cancelled = false;
    std::vector<int> m_cpus = allowedCpus();
    std::vector<double> m_sinks = std::vector<double>(1024, 0.0);
};

std::string threadsText(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

bool Measurer::measureMemory(Measurement &m, Isa isa)
{
    const double phaseEnd = m_options.budgetSeconds * (m_options.compute ? 0.75 : 1.0);
    const bool quick = m_options.budgetSeconds < 30.0;
    const int threads = m.threads;
    const auto capacities = capacitiesFor(m.reportedCaches, threads);
    const std::uint64_t largest = capacities.empty() ? 32 * kMiB : capacities.back();
    std::uint64_t maxSet = m_options.maxWorkingSet;
    if (maxSet == 0) {
        // Some hosts cache far more than their VM reports: go well past the reported LLC.
        maxSet = quick ? std::clamp(16 * largest, 256 * kMiB, 512 * kMiB)
                       : std::clamp(32 * largest, 512 * kMiB, 1024 * kMiB);
        if (const auto available = availableMemory(); available > 0)
            maxSet = std::min(maxSet, available / 4);
    }
    const std::uint64_t minSet = std::max<std::uint64_t>(m_options.minWorkingSet, 1024);
    maxSet = std::max(maxSet, 2 * minSet);
    const int perOctave
        = m_options.pointsPerOctave > 0 ? m_options.pointsPerOctave : (quick ? 2 : 3);

    std::vector<std::uint64_t> sizes;
    const double octaves = std::log2(static_cast<double>(maxSet) / static_cast<double>(minSet));
    const int steps = static_cast<int>(std::ceil(octaves * perOctave - 1e-9));
    for (int i = 0; i <= steps; ++i) {
        const double size
            = static_cast<double>(minSet) * std::exp2(static_cast<double>(i) / perOctave);
        sizes.push_back(std::min(maxSet, static_cast<std::uint64_t>(size)));
    }

    // One buffer for every kernel: the load uses it whole, copy in two arrays, triad in three.
    const std::size_t elements = static_cast<std::size_t>(maxSet / 8 / 64 * 64 + 512);
    std::unique_ptr<double, FreeDeleter> buffer(
        static_cast<double *>(std::aligned_alloc(4096, (elements * 8 + 4095) / 4096 * 4096)));
    if (!buffer)
        return false;
    double *data = buffer.get();

    std::vector<int> teams { 1 };
    if (threads > 1)
        teams.push_back(threads);
    const MemoryKernel kernels[] = { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad };
    int remaining = static_cast<int>(teams.size() * std::size(kernels) * sizes.size());

    for (int teamSize : teams) {
        Team team(teamSize, m_cpus);
        // First touch by the team that will use the pages, in slices so Cancel stays quick.
        const std::size_t slice = 4 * kMiB;
        for (std::size_t from = 0; from < elements; from += slice) {
            if (!checkpoint("preparing " + std::to_string(maxSet / kMiB) + " MiB"))
                return false;
            const std::size_t to = std::min(elements, from + slice);
            team.run([&](int t) {
                const std::size_t part = (to - from) / static_cast<std::size_t>(teamSize) + 1;
                const std::size_t a = from + part * static_cast<std::size_t>(t);
                const std::size_t b = std::min(to, a + part);
                for (std::size_t i = a; i < b; ++i)
                    data[i] = 1.0;
            });
        }
        for (MemoryKernel kernel : kernels) {
            const int arrays = memoryKernelArrays(kernel);
            const std::size_t stride
                = (elements - 512) / static_cast<std::size_t>(arrays) / 64 * 64;
            const std::string stage
                = std::string(memoryKernelName(kernel)) + ", " + threadsText(teamSize);
            for (std::uint64_t size : sizes) {
                const std::size_t perThread = static_cast<std::size_t>(
                    size / 8 / static_cast<std::uint64_t>(arrays * teamSize) / 64 * 64);
                --remaining;
                if (perThread == 0 || perThread * static_cast<std::size_t>(teamSize) > stride)
                    continue;
                // Arrays 512 B apart beyond the stride so a[i], b[i], c[i] do not alias in 4 KiB.
                double *a = data;
                double *b = data + stride + 64;
                double *c = data + 2 * stride + 128;
                std::size_t passes = 1;
                const auto job = [&](int t) {
                    const std::size_t offset = perThread * static_cast<std::size_t>(t);
                    double sink = 0.0;
                    switch (kernel) {
                    case MemoryKernel::Load:
                        sink = detail::loadKernel(isa, a + offset, perThread, passes);
                        break;
                    case MemoryKernel::Copy:
                        detail::copyKernel(isa, a + offset, b + offset, perThread, passes);
                        break;
                    case MemoryKernel::Triad:
                        detail::triadKernel(
                            isa, a + offset, b + offset, c + offset, 0.5, perThread, passes);
                        break;
                    }
                    m_sinks[static_cast<std::size_t>(t) * 8 % m_sinks.size()] += sink;
                };
                const double bytesPerPass = memoryKernelBytesPerElement(kernel)
                    * static_cast<double>(perThread) * teamSize;
                const double slotSeconds = slot(phaseEnd, remaining + 1);
                const double target = std::clamp(slotSeconds / 6.0, 0.001, 0.02);
                if (!checkpoint(stage))
                    return false;
                // Warm-up and calibration: grow the passes until a trial takes about `target`
                // (one pass of a small set is mostly the wake-up of the team).
                for (;;) {
                    const double seconds = team.run(job);
                    if (seconds >= target / 2 || passes >= 10000000 || !checkpoint(stage))
                        break;
                    passes = static_cast<std::size_t>(static_cast<double>(passes)
                        * std::clamp(target / std::max(seconds, 1e-7), 2.0, 100.0));
                }
                if (m_cancelled)
                    return false;
                const auto rates = trials(stage, slotSeconds, [&] {
                    return std::pair { team.run(job), bytesPerPass * static_cast<double>(passes) };
                });
                if (rates.empty())
                    return false;
                BandwidthSample sample;
                sample.kernel = kernel;
                sample.threads = teamSize;
                sample.workingSet = static_cast<std::uint64_t>(perThread)
                    * static_cast<std::uint64_t>(arrays * teamSize) * 8;
                sample.best = *std::max_element(rates.begin(), rates.end());
                sample.median = medianOf(rates);
                sample.trials = static_cast<int>(rates.size());
                m.sweep.push_back(sample);
                if (!checkpoint(stage, &m.sweep.back()))
                    return false;
            }
        }
    }
    for (int teamSize : teams) {
        PlateauOptions plateauOptions;
        plateauOptions.cacheCapacities = capacitiesFor(m.reportedCaches, teamSize);
        for (MemoryKernel kernel : kernels) {
            std::vector<BandwidthSample> curve;
            for (const auto &s : m.sweep) {
                if (s.kernel == kernel && s.threads == teamSize)
                    curve.push_back(s);
            }
            for (const auto &plateau : findPlateaus(curve, plateauOptions))
                m.plateaus.push_back({ kernel, teamSize, plateau });
        }
    }
    return true;
}

bool Measurer::measureCompute(Measurement &m, const std::vector<Isa> &isas)
{
    const double phaseEnd = m_options.budgetSeconds;
    const Isa widest = isas.back();
    std::vector<detail::FlopKernel> kernels;
    for (bool fp64 : { true, false }) {
        if (detail::isaHasFma(widest))
            kernels.push_back({ widest, fp64, true, true });
        kernels.push_back({ widest, fp64, true, false });
        // The next narrower FMA ISA too (AVX2 beside AVX-512), to compare with other tools.
        if (widest == Isa::AVX512)
            kernels.push_back({ Isa::AVX2, fp64, true, true });
        kernels.push_back({ widest, fp64, false, true });
        kernels.push_back({ widest, fp64, false, false });
    }
    std::erase_if(
        kernels, [](const detail::FlopKernel &k) { return detail::flopsPerIteration(k) <= 0.0; });
    std::vector<int> teams { 1 };
    if (m.threads > 1)
        teams.push_back(m.threads);
    int remaining = static_cast<int>(kernels.size() * teams.size());
    for (int teamSize : teams) {
        Team team(teamSize, m_cpus);
        // Let the clock ramp up before the first timing.
        {
            const detail::FlopKernel warm = kernels.front();
            const auto begin = Clock::now();
            while (secondsSince(begin) < 0.05) {
                if (!checkpoint("warming up"))
                    return false;
                team.run([&](int t) {
                    m_sinks[static_cast<std::size_t>(t) * 8 % m_sinks.size()]
                        += detail::runFlopKernel(warm, 20000, 0.1);
                });
            }
        }
        for (const auto &kernel : kernels) {
            ComputeSample sample;
            sample.precision = kernel.fp64 ? Precision::FP64 : Precision::FP32;
            sample.isa = std::string(
                detail::isaName(kernel.simd ? kernel.isa : (kernel.fma ? Isa::AVX2 : Isa::SSE2)));
            if (kernel.isa == Isa::Portable)
                sample.isa = "portable";
            sample.simd = kernel.simd;
            sample.fma = kernel.fma;
            sample.threads = teamSize;
            const std::string stage
                = computeCeilingName(sample, teamSize) + ", " + threadsText(teamSize);
            const double slotSeconds = slot(phaseEnd, remaining--);
            const double target = std::clamp(slotSeconds / 6.0, 0.002, 0.02);
            std::uint64_t iterations = 4096;
            const auto job = [&](int t) {
                m_sinks[static_cast<std::size_t>(t) * 8 % m_sinks.size()]
                    += detail::runFlopKernel(kernel, iterations, 0.1 + 0.01 * t);
            };
            if (!checkpoint(stage))
                return false;
            for (;;) {
                const double seconds = team.run(job);
                if (seconds >= target / 2 || iterations >= 10000000000ULL || !checkpoint(stage))
                    break;
                iterations = static_cast<std::uint64_t>(static_cast<double>(iterations)
                    * std::clamp(target / std::max(seconds, 1e-7), 2.0, 100.0));
            }
            if (m_cancelled)
                return false;
            const double flops
                = detail::flopsPerIteration(kernel) * static_cast<double>(iterations) * teamSize;
            const auto rates = trials(stage, slotSeconds, [&] {
                return std::pair { team.run(job), flops };
            });
            if (rates.empty())
                return false;
            sample.best = *std::max_element(rates.begin(), rates.end());
            sample.median = medianOf(rates);
            sample.trials = static_cast<int>(rates.size());
            m.compute.push_back(sample);
            if (!checkpoint(stage, nullptr, &m.compute.back()))
                return false;
        }
    }
    return true;
}

Expected<MeasureResult, std::string> Measurer::run()
{
    Measurement m;
    m.date = utcNow();
    m.host = hostName();
    m.cpuModel = detectCpuModel();
    m.cpuVendor = cpuInfoField("vendor_id");
    m.hardwareThreads = static_cast<int>(m_cpus.size());
    m.threads = m_options.threads > 0 ? m_options.threads : m.hardwareThreads;
    m.budgetSeconds = m_options.budgetSeconds;
    m.writeAllocateCounted = false;
    m.byteCounting = "bytes the kernel reads plus bytes it writes: load 8 B, copy 16 B, triad "
                     "24 B per element; write-allocate traffic (the line a store miss reads "
                     "first) is not counted";
    m.reportedCaches = detectCaches();
    m.spec = m_options.spec;

    auto isas = detail::supportedIsas();
    if (!m_options.maxIsa.empty()) {
        Isa limit {};
        if (!detail::isaFromName(m_options.maxIsa, limit))
            return Unexpected(std::string("unknown instruction set \"") + m_options.maxIsa
                + "\" (expected portable, sse2, avx2 or avx512)");
        std::erase_if(isas, [&](Isa isa) { return isa > limit; });
    }
    for (Isa isa : isas)
        m.isas.emplace_back(detail::isaName(isa));
    m.isa = m.isas.back();

    if (m_options.memory && !measureMemory(m, isas.back()))
        return Unexpected(std::string(m_cancelled ? "cancelled" : "cannot allocate the buffer"));
    if (m_options.compute && !measureCompute(m, isas))
        return Unexpected(std::string("cancelled"));
    m.elapsedSeconds = secondsSince(m_start);
    std::string name = m_options.name;
    if (name.empty())
        name = "Measured: " + m.cpuModel + " on " + m.host;
    auto hardware = hardwareFromMeasurement(m, name);
    if (!hardware)
        return Unexpected(hardware.error());
    if (m_callback) {
        MeasureProgress done;
        done.fraction = 1.0;
        done.stage = "done";
        m_callback(done);
    }
    return MeasureResult { std::move(*hardware), std::move(m) };
}

} // namespace

Expected<MeasureResult, std::string> measureMachine(
    const MeasureOptions &options, const MeasureCallback &progress, const std::atomic<bool> *cancel)
{
    MeasureOptions checked = options;
    if (!(checked.budgetSeconds > 0.0))
        return Unexpected(std::string("the time budget must be positive"));
    if (checked.threads < 0 || checked.threads > 1024)
        return Unexpected(std::string("threads must be between 1 and 1024"));
    if (!checked.memory && !checked.compute)
        return Unexpected(std::string("nothing to measure"));
    Measurer measurer(checked, progress, cancel);
    return measurer.run();
}

Expected<Hardware, std::string> hardwareFromMeasurement(
    const Measurement &m, const std::string &name)
{
    Hardware hardware;
    hardware.name = name;
    hardware.vendor = m.cpuVendor == "AuthenticAMD" ? "AMD"
        : m.cpuVendor == "GenuineIntel"             ? "Intel"
                                                    : m.cpuVendor;
    hardware.kind = "cpu";
    hardware.source = "Measured by ridgepoint measure on " + m.date + " (" + m.cpuModel + ", "
        + threadsText(m.threads) + ", " + isaLabel(m.isa) + "): best of repeated trials";
    hardware.notes = "Bandwidths count " + m.byteCounting + ". Ceilings are for "
        + threadsText(m.threads)
        + "; the one-thread figures are hidden ceilings marked (1 thread). Other work on the "
          "machine while measuring lowers the figures.";

    auto addCompute = [&](const ComputeSample &s, bool visible) {
        ComputeCeiling c;
        c.name = computeCeilingName(s, m.threads);
        if (hardware.findCompute(c.name))
            return;
        c.precision = s.precision;
        c.unit = s.simd ? "vector" : "scalar";
        c.peak = s.best;
        c.visible = visible;
        hardware.compute.push_back(c);
    };
    // The all-thread figures first; visible: the widest FMA (else mul+add) per precision and
    // scalar FP64.
    const bool widestHasFma = std::any_of(m.compute.begin(), m.compute.end(),
        [&](const ComputeSample &s) { return s.simd && s.isa == m.isa && s.fma; });
    for (const auto &s : m.compute) {
        if (s.threads != m.threads || !(s.best > 0.0))
            continue;
        const bool widestFma = s.simd && s.isa == m.isa && (s.fma || !widestHasFma);
        const bool scalarFp64 = !s.simd && !s.fma && s.precision == Precision::FP64;
        addCompute(s, widestFma || scalarFp64);
    }
    for (const auto &s : m.compute) {
        if (s.threads != m.threads && s.best > 0.0 && s.simd && s.isa == m.isa)
            addCompute(s, false);
    }
    for (const auto &c : hardware.compute) {
        if (c.precision == Precision::FP64 && c.unit == "vector" && c.visible) {
            hardware.defaultCompute = c.name;
            break;
        }
    }

    const MemoryKernel kernels[] = { MemoryKernel::Load, MemoryKernel::Copy, MemoryKernel::Triad };
    for (MemoryKernel kernel : kernels) {
        for (const auto &p : m.plateaus) {
            if (p.kernel != kernel || p.threads != m.threads || !(p.plateau.bandwidth > 0.0))
                continue;
            MemoryCeiling c;
            c.name = std::string(memoryLevelName(p.plateau.level)) + " "
                + std::string(memoryKernelName(kernel));
            if (hardware.findMemory(c.name))
                continue;
            c.level = p.plateau.level;
            c.bandwidth = p.plateau.bandwidth;
            c.visible = kernel == MemoryKernel::Load;
            hardware.memory.push_back(c);
        }
    }
    for (const auto &p : m.plateaus) {
        if (p.kernel != MemoryKernel::Load || p.threads == m.threads
            || !(p.plateau.bandwidth > 0.0))
            continue;
        MemoryCeiling c;
        c.name = std::string(memoryLevelName(p.plateau.level)) + " load (" + threadsText(p.threads)
            + ")";
        if (hardware.findMemory(c.name))
            continue;
        c.level = p.plateau.level;
        c.bandwidth = p.plateau.bandwidth;
        c.visible = false;
        hardware.memory.push_back(c);
    }

    if (m.spec) {
        for (auto c : m.spec->compute) {
            c.name += " (spec)";
            if (!hardware.findCompute(c.name))
                hardware.compute.push_back(c);
        }
        for (auto c : m.spec->memory) {
            c.name += " (spec)";
            if (!hardware.findMemory(c.name))
                hardware.memory.push_back(c);
        }
        hardware.source += "; spec ceilings (spec) from " + m.spec->name + ": " + m.spec->source;
    }
    if (hardware.compute.empty() && hardware.memory.empty())
        return Unexpected(std::string("nothing was measured"));
    // A machine needs both kinds of roof; a run of one kind borrows nothing, it says so.
    if (hardware.compute.empty())
        return Unexpected(std::string("no compute ceiling was measured"));
    if (hardware.memory.empty())
        return Unexpected(std::string("no bandwidth plateau was found in the sweep"));
    if (const auto problems = validateHardware(hardware); !problems.empty())
        return Unexpected(problems.front());
    return hardware;
}

std::vector<SpecComparison> compareWithSpec(const Measurement &m)
{
    // Per precision the roof the machine draws: the widest ISA's FMA figure (else its
    // mul+add, else the fastest). Not simply the fastest: on a busy machine a mul+add trial
    // can beat the FMA ones by luck.
    const auto rank = [&](const ComputeSample &s) {
        if (s.simd && s.isa == m.isa)
            return s.fma ? 3 : 2;
        return s.simd ? 1 : 0;
    };
    std::vector<SpecComparison> rows;
    std::vector<int> ranks;
    for (const auto &sample : m.compute) {
        if (sample.threads != m.threads || !(sample.best > 0.0))
            continue;
        const auto row = static_cast<std::size_t>(
            std::find_if(rows.begin(), rows.end(),
                [&](const SpecComparison &r) { return r.precision == sample.precision; })
            - rows.begin());
        if (row == rows.size()) {
            rows.emplace_back();
            rows.back().precision = sample.precision;
            ranks.push_back(-1);
        }
        const int r = rank(sample);
        if (r > ranks[row] || (r == ranks[row] && sample.best > rows[row].measured)) {
            ranks[row] = r;
            rows[row].measured = sample.best;
            rows[row].measuredName = computeCeilingName(sample, m.threads);
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
        [](const SpecComparison &a, const SpecComparison &b) { return a.precision < b.precision; });
    std::vector<PlateauRecord> loads;
    for (const auto &p : m.plateaus) {
        if (p.kernel == MemoryKernel::Load && p.threads == m.threads && p.plateau.bandwidth > 0.0)
            loads.push_back(p);
    }
    std::stable_sort(
        loads.begin(), loads.end(), [](const PlateauRecord &a, const PlateauRecord &b) {
            return a.plateau.level < b.plateau.level;
        });
    for (const auto &p : loads) {
        if (!rows.empty() && !rows.back().compute && rows.back().level == p.plateau.level)
            continue; // one row per level (findPlateaus names each level once)
        SpecComparison row;
        row.compute = false;
        row.level = p.plateau.level;
        row.measuredName = std::string(memoryLevelName(p.plateau.level)) + " load";
        row.measured = p.plateau.bandwidth;
        rows.push_back(row);
    }
    if (!m.spec)
        return rows;
    for (auto &row : rows) {
        if (row.compute) {
            for (const auto &c : m.spec->compute) {
                if (c.precision == row.precision && c.peak > row.spec) {
                    row.spec = c.peak;
                    row.specName = c.name;
                }
            }
        } else {
            for (const auto &c : m.spec->memory) {
                if (c.level == row.level && c.bandwidth > row.spec) {
                    row.spec = c.bandwidth;
                    row.specName = c.name;
                }
            }
        }
    }
    return rows;
}

std::optional<Hardware> findSpecForCpu(
    const std::vector<Hardware> &presets, const std::string &cpuModel)
{
    auto lower = [](std::string text) {
        for (auto &ch : text)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return text;
    };
    const std::string model = lower(cpuModel);
    auto containsWords = [&](const std::string &needle) {
        if (needle.empty())
            return false;
        for (auto at = model.find(needle); at != std::string::npos;
             at = model.find(needle, at + 1)) {
            const auto end = at + needle.size();
            const bool startOk
                = at == 0 || !std::isalnum(static_cast<unsigned char>(model[at - 1]));
            const bool endOk
                = end == model.size() || !std::isalnum(static_cast<unsigned char>(model[end]));
            if (startOk && endOk)
                return true;
        }
        return false;
    };
    for (const auto &preset : presets) {
        if (preset.kind != "cpu")
            continue;
        if (containsWords(lower(preset.name)))
            return preset;
        for (const auto &alias : preset.aliases) {
            // Aliases like "Genoa" are too loose alone; they must carry a model number.
            if (std::any_of(alias.begin(), alias.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })
                && containsWords(lower(alias)))
                return preset;
        }
    }
    return std::nullopt;
}

// ---- JSON ----------------------------------------------------------------------------------

std::string writeMeasuredHardwareJson(const Hardware &hardware, const Measurement &m)
{
    using Json = nlohmann::ordered_json;
    Json out = detail::hardwareJson(hardware, false);
    Json meas;
    meas["tool"] = "ridgepoint measure";
    meas["date"] = m.date;
    meas["host"] = m.host;
    meas["cpu_model"] = m.cpuModel;
    meas["cpu_vendor"] = m.cpuVendor;
    meas["threads"] = m.threads;
    meas["hardware_threads"] = m.hardwareThreads;
    meas["isa"] = m.isa;
    meas["isas"] = m.isas;
    meas["budget_seconds"] = m.budgetSeconds;
    meas["elapsed_seconds"] = m.elapsedSeconds;
    meas["byte_counting"] = m.byteCounting;
    meas["write_allocate_counted"] = m.writeAllocateCounted;
    auto caches = Json::array();
    for (const auto &c : m.reportedCaches)
        caches.push_back({ { "level", c.level }, { "type", c.type }, { "size", c.size },
            { "shared_by", c.sharedBy } });
    meas["reported_caches"] = std::move(caches);
    auto compute = Json::array();
    for (const auto &c : m.compute) {
        compute.push_back({ { "precision", precisionName(c.precision) }, { "isa", c.isa },
            { "simd", c.simd }, { "fma", c.fma }, { "threads", c.threads }, { "best", c.best },
            { "median", c.median }, { "trials", c.trials } });
    }
    meas["compute"] = std::move(compute);
    auto plateaus = Json::array();
    for (const auto &p : m.plateaus) {
        plateaus.push_back({ { "kernel", memoryKernelName(p.kernel) }, { "threads", p.threads },
            { "level", memoryLevelName(p.plateau.level) }, { "bandwidth", p.plateau.bandwidth },
            { "max_bandwidth", p.plateau.maxBandwidth },
            { "first_working_set", p.plateau.firstWorkingSet },
            { "last_working_set", p.plateau.lastWorkingSet }, { "points", p.plateau.points } });
    }
    meas["plateaus"] = std::move(plateaus);
    auto sweep = Json::array();
    for (const auto &s : m.sweep) {
        sweep.push_back({ { "kernel", memoryKernelName(s.kernel) }, { "threads", s.threads },
            { "working_set", s.workingSet }, { "best", s.best }, { "median", s.median },
            { "trials", s.trials } });
    }
    meas["sweep"] = std::move(sweep);
    if (m.spec)
        meas["spec"] = detail::hardwareJson(*m.spec, false);
    out["measurement"] = std::move(meas);
    return out.dump(2) + "\n";
}

Expected<Measurement, std::string> readMeasurementJson(const std::string &text)
{
    using Json = nlohmann::json;
    Json root = Json::parse(text, nullptr, false);
    if (root.is_discarded())
        return Unexpected(std::string("not valid JSON"));
    if (!root.is_object() || !root.contains("measurement") || !root["measurement"].is_object())
        return Unexpected(std::string("no \"measurement\" object"));
    const Json &j = root["measurement"];
    Measurement m;
    try {
        m.date = j.at("date").get<std::string>();
        m.host = j.at("host").get<std::string>();
        m.cpuModel = j.at("cpu_model").get<std::string>();
        m.cpuVendor = j.value("cpu_vendor", std::string());
        m.threads = j.at("threads").get<int>();
        m.hardwareThreads = j.value("hardware_threads", m.threads);
        m.isa = j.at("isa").get<std::string>();
        m.isas = j.value("isas", std::vector<std::string>());
        m.budgetSeconds = j.value("budget_seconds", 0.0);
        m.elapsedSeconds = j.value("elapsed_seconds", 0.0);
        m.byteCounting = j.value("byte_counting", std::string());
        m.writeAllocateCounted = j.at("write_allocate_counted").get<bool>();
        for (const auto &c : j.value("reported_caches", Json::array())) {
            m.reportedCaches.push_back({ c.at("level").get<int>(), c.at("type").get<std::string>(),
                c.at("size").get<std::uint64_t>(), c.at("shared_by").get<int>() });
        }
        for (const auto &c : j.value("compute", Json::array())) {
            ComputeSample s;
            const auto precision = precisionFromName(c.at("precision").get<std::string>());
            if (!precision)
                return Unexpected(
                    "measurement.compute: unknown precision " + c.at("precision").dump());
            s.precision = *precision;
            s.isa = c.at("isa").get<std::string>();
            s.simd = c.at("simd").get<bool>();
            s.fma = c.at("fma").get<bool>();
            s.threads = c.at("threads").get<int>();
            s.best = c.at("best").get<double>();
            s.median = c.at("median").get<double>();
            s.trials = c.at("trials").get<int>();
            m.compute.push_back(s);
        }
        for (const auto &p : j.value("plateaus", Json::array())) {
            PlateauRecord r;
            const auto kernel = memoryKernelFromName(p.at("kernel").get<std::string>());
            const auto level = memoryLevelFromName(p.at("level").get<std::string>());
            if (!kernel || !level)
                return Unexpected("measurement.plateaus: unknown kernel or level in " + p.dump());
            r.kernel = *kernel;
            r.threads = p.at("threads").get<int>();
            r.plateau.level = *level;
            r.plateau.bandwidth = p.at("bandwidth").get<double>();
            r.plateau.maxBandwidth = p.at("max_bandwidth").get<double>();
            r.plateau.firstWorkingSet = p.at("first_working_set").get<std::uint64_t>();
            r.plateau.lastWorkingSet = p.at("last_working_set").get<std::uint64_t>();
            r.plateau.points = p.at("points").get<int>();
            m.plateaus.push_back(r);
        }
        for (const auto &s : j.value("sweep", Json::array())) {
            BandwidthSample sample;
            const auto kernel = memoryKernelFromName(s.at("kernel").get<std::string>());
            if (!kernel)
                return Unexpected("measurement.sweep: unknown kernel " + s.at("kernel").dump());
            sample.kernel = *kernel;
            sample.threads = s.at("threads").get<int>();
            sample.workingSet = s.at("working_set").get<std::uint64_t>();
            sample.best = s.at("best").get<double>();
            sample.median = s.at("median").get<double>();
            sample.trials = s.at("trials").get<int>();
            m.sweep.push_back(sample);
        }
        if (const auto spec = j.find("spec"); spec != j.end()) {
            auto read = readHardwareJson(spec->dump(), "measurement.spec");
            if (read.machines.size() != 1)
                return Unexpected(std::string("measurement.spec: not a machine"));
            m.spec = std::move(read.machines.front());
        }
    } catch (const Json::exception &error) {
        return Unexpected(std::string("measurement: ") + error.what());
    }
    return m;
}

} // namespace ridgepoint
