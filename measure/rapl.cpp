// The RAPL counters of /sys/class/powercap: which zones a run counts, and their readings.
#include "measure/rapl.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ridgepoint::detail {
namespace {

namespace fs = std::filesystem;

// A small sysfs file's first line (at most 64 bytes: a name or a number), nullopt when it
// cannot be opened or read.
std::optional<std::string> readSmallFile(const fs::path &path)
{
    std::error_code error;
    if (!fs::is_regular_file(path, error))
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string text(64, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad())
        return std::nullopt;
    text.resize(static_cast<std::size_t>(in.gcount()));
    text.erase(std::find(text.begin(), text.end(), '\n'), text.end());
    return text;
}

std::optional<std::uint64_t> readCounter(const fs::path &path)
{
    const auto text = readSmallFile(path);
    if (!text || text->empty())
        return std::nullopt;
    std::uint64_t value = 0;
    const char *end = text->data() + text->size();
    const auto [at, error] = std::from_chars(text->data(), end, value);
    if (error != std::errc() || at != end)
        return std::nullopt;
    return value;
}

// "intel-rapl:0" is a zone (one colon), "intel-rapl:0:2" a part of one (two); the control type
// itself ("intel-rapl") has none.
int colons(const std::string &entry)
{
    return static_cast<int>(std::count(entry.begin(), entry.end(), ':'));
}

bool isRaplEntry(const std::string &entry)
{
    const auto colon = entry.find(':');
    return colon != std::string::npos && entry.compare(0, colon, "intel-rapl") == 0;
}

// The package's long-term limit ("long_term" is constraint 0 on Intel and AMD), in W.
std::optional<double> longTermLimit(const fs::path &zone)
{
    for (int i = 0; i < 4; ++i) {
        const std::string prefix = "constraint_" + std::to_string(i) + "_";
        if (readSmallFile(zone / (prefix + "name")) != "long_term")
            continue;
        if (const auto microwatts = readCounter(zone / (prefix + "power_limit_uw"));
            microwatts && *microwatts > 0)
            return static_cast<double>(*microwatts) * 1e-6;
    }
    return std::nullopt;
}

} // namespace

Expected<RaplCounters, std::string> findRaplCounters(const std::string &root)
{
    std::error_code error;
    if (!fs::is_directory(root, error))
        return Unexpected(
            "no RAPL energy counters on this machine (" + root + " is absent): no energy figures");
    std::vector<std::string> entries;
    for (const auto &entry : fs::directory_iterator(root, error)) {
        const std::string name = entry.path().filename().string();
        if (isRaplEntry(name))
            entries.push_back(name);
    }
    std::sort(entries.begin(), entries.end());
    RaplCounters counters;
    std::vector<RaplZone> drams;
    for (const auto &entry : entries) {
        const fs::path zone = fs::path(root) / entry;
        const auto name = readSmallFile(zone / "name");
        if (!name)
            continue;
        const bool package = colons(entry) == 1 && name->rfind("package", 0) == 0;
        if (!package && *name != "dram")
            continue;
        RaplZone found { *name, zone.string(),
            readCounter(zone / "max_energy_range_uj").value_or(0) };
        if (!readCounter(zone / "energy_uj"))
            return Unexpected("the RAPL energy counter " + (zone / "energy_uj").string()
                + " cannot be read (since Linux 5.10 only root may read it): no energy figures");
        if (package) {
            if (const auto limit = longTermLimit(zone))
                counters.powerLimitWatts = counters.powerLimitWatts.value_or(0.0) + *limit;
            counters.zones.push_back(std::move(found));
        } else {
            drams.push_back(std::move(found));
        }
    }
    if (counters.zones.empty())
        return Unexpected("no RAPL package zone in " + root + ": no energy figures");
    counters.zones.insert(counters.zones.end(), drams.begin(), drams.end());
    counters.description = "RAPL";
    for (std::size_t i = 0; i < counters.zones.size(); ++i)
        counters.description += (i ? " + " : " ") + counters.zones[i].name;
    counters.description += " (" + root + ")";
    return counters;
}

std::optional<std::vector<std::uint64_t>> readRaplEnergy(const RaplCounters &counters)
{
    std::vector<std::uint64_t> readings;
    readings.reserve(counters.zones.size());
    for (const auto &zone : counters.zones) {
        const auto value = readCounter(fs::path(zone.directory) / "energy_uj");
        if (!value)
            return std::nullopt;
        readings.push_back(*value);
    }
    return readings;
}

double raplJoulesBetween(const RaplCounters &counters, const std::vector<std::uint64_t> &before,
    const std::vector<std::uint64_t> &after, bool &valid)
{
    double microjoules = 0.0;
    const std::size_t n = std::min({ counters.zones.size(), before.size(), after.size() });
    valid = n == counters.zones.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (after[i] >= before[i]) {
            microjoules += static_cast<double>(after[i] - before[i]);
        } else if (counters.zones[i].maxRange >= before[i]) {
            microjoules += static_cast<double>(counters.zones[i].maxRange - before[i])
                + static_cast<double>(after[i]);
        } else {
            valid = false;
        }
    }
    return microjoules * 1e-6;
}

} // namespace ridgepoint::detail
