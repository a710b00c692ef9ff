// What the system says about itself: the caches (/sys, else sysconf), the CPU model and vendor
// (/proc/cpuinfo), the CPUs this process may use (its affinity mask), the host, the date and
// the free memory. The instruction sets (cpuid) are supportedIsas() in measure_kernels.cpp.
#include "measure/topology.h"

#include "measure/measure_detail.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif
#include <unistd.h>

namespace ridgepoint {
namespace {

using detail::kMiB;

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

} // namespace

namespace detail {

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

} // namespace detail

std::vector<CacheInfo> readCaches(const CacheFileReader &read)
{
    std::vector<CacheInfo> caches;
    for (int index = 0; index < 16; ++index) {
        const std::string dir = "index" + std::to_string(index) + "/";
        const std::string levelText = trim(read(dir + "level"));
        if (levelText.empty())
            break;
        CacheInfo cache;
        cache.type = trim(read(dir + "type"));
        if (cache.type == "Instruction")
            continue;
        try {
            cache.level = std::stoi(levelText);
        } catch (...) {
            continue;
        }
        cache.size = parseCacheSize(trim(read(dir + "size")));
        cache.sharedBy = countCpuList(trim(read(dir + "shared_cpu_list")));
        if (cache.size > 0 && cache.level > 0)
            caches.push_back(cache);
    }
    return caches;
}

// Capacities seen by `threads` threads on distinct CPUs: a private cache counts once per
// thread, a shared one once per group of CPUs sharing it.
CacheSizes cacheSizesFor(const std::vector<CacheInfo> &caches, int threads)
{
    CacheSizes sizes;
    std::uint64_t *levels[] = { &sizes.l1, &sizes.l2, &sizes.l3, &sizes.l4 };
    for (const auto &cache : caches) {
        if (cache.level < 1 || cache.level > 4)
            continue;
        const int sharers = std::max(cache.sharedBy, 1);
        const auto instances
            = static_cast<std::uint64_t>((std::max(threads, 1) + sharers - 1) / sharers);
        std::uint64_t &capacity = *levels[cache.level - 1];
        capacity = std::max(capacity, cache.size * instances);
    }
    return sizes;
}

std::vector<CacheInfo> detectCaches()
{
    const std::string root = "/sys/devices/system/cpu/cpu0/cache/";
    std::vector<CacheInfo> caches
        = readCaches([&](const std::string &path) { return readSmallFile(root + path); });
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
                cache.sharedBy = static_cast<int>(detail::allowedCpus().size());
        }
    }
#endif
    return caches;
}

std::string detectCpuModel()
{
    const std::string model = detail::cpuInfoField("model name");
    return model.empty() ? "unknown CPU" : model;
}

int usableCpus()
{
    return static_cast<int>(detail::allowedCpus().size());
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

} // namespace ridgepoint
