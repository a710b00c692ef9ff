#include "core/io/formats/likwid_reader.h"

#include "core/io/formats/csv.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>
#include <map>

namespace ridgepoint {
namespace {

struct Metric {
    double sum = 0.0;
    double max = 0.0;
    int line = 0;
};

// One performance group's metrics in one region ("Group 2 MEM_DP").
struct Group {
    std::string key;
    std::map<std::string, Metric> metrics; // lower-case metric name
};

struct Region {
    std::string name;
    int line = 0;
    std::vector<Group> groups;
};

const Metric *find(const Group *group, std::initializer_list<std::string_view> stems)
{
    if (!group)
        return nullptr;
    for (std::string_view stem : stems) {
        for (const auto &[name, metric] : group->metrics) {
            if (name.starts_with(stem))
                return &metric;
        }
    }
    return nullptr;
}

// The group's FLOP rate: DP, else SP; nullptr when it has none above 0.
const Metric *rateOf(const Group *group, bool &doublePrecision)
{
    doublePrecision = true;
    if (const Metric *dp = find(group, { "dp [mflop/s]", "dp mflop/s" }); dp && dp->sum > 0.0)
        return dp;
    doublePrecision = false;
    const Metric *sp = find(group, { "sp [mflop/s]", "sp mflop/s" });
    return sp && sp->sum > 0.0 ? sp : nullptr;
}

bool hasMemory(const Group *group)
{
    return find(group,
        { "memory data volume [gbytes]", "memory bandwidth [mbytes/s]", "operational intensity" });
}

} // namespace

bool looksLikeLikwid(const Sniff &sniff)
{
    return sniff.mentions("STRUCT,Info") || sniff.mentions("\nTABLE,");
}

PointsReadResult readLikwidCsv(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    // Only the CSV part: lines from the first STRUCT/TABLE on (the banner before it is text).
    const std::size_t start = std::min(text.find("STRUCT,"), text.find("TABLE,"));
    if (start == std::string_view::npos) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not likwid-perfctr CSV output (expected STRUCT,Info and TABLE,... lines from "
            "likwid-perfctr -O)" });
        return result;
    }
    const int skipped = static_cast<int>(std::count(text.begin(), text.begin() + start, '\n'));
    CsvTable table = tokenizeCsv(text.substr(start), fileName, ',');
    shiftLines(table, skipped);
    result.diagnostics = table.diagnostics;

    std::vector<Region> regions;
    std::map<std::string, std::size_t> regionIndex;
    std::size_t currentRegion = 0;
    std::size_t currentGroup = 0;
    bool inRegion = false;
    bool metricTable = false;
    bool statTable = false;
    bool expectHeader = false;
    std::vector<std::size_t> valueColumns; // thread columns, or Sum / Max of a STAT table
    for (const CsvRow &row : table.rows) {
        const auto &f = row.fields;
        const std::string first = f.empty() ? std::string() : f.front().text;
        if (first == "TABLE") {
            // TABLE,[Region <tag>,]Group <n> <kind>,<GROUP>,<count>
            std::string regionName;
            std::size_t kindAt = 1;
            if (f.size() > 1 && f[1].text.starts_with("Region ")) {
                regionName = f[1].text.substr(7);
                kindAt = 2;
            }
            const std::string kind = kindAt < f.size() ? f[kindAt].text : std::string();
            // Without markers every group measured the same run: one point for all of them.
            if (regionName.empty())
                regionName = "whole run";
            metricTable = kind.ends_with("Metric") || kind.ends_with("Metric STAT");
            statTable = kind.ends_with("STAT");
            expectHeader = metricTable;
            if (metricTable) {
                auto [it, added] = regionIndex.emplace(regionName, regions.size());
                if (added)
                    regions.push_back({ regionName, row.line, {} });
                currentRegion = it->second;
                inRegion = true;
                // "Group 2 Metric" and "Group 2 Metric STAT" are one group.
                std::string key = kind.substr(0, kind.find(" Metric"));
                if (kindAt + 1 < f.size())
                    key += " " + f[kindAt + 1].text;
                auto &groups = regions[currentRegion].groups;
                const auto group = std::find_if(
                    groups.begin(), groups.end(), [&](const Group &g) { return g.key == key; });
                currentGroup = static_cast<std::size_t>(group - groups.begin());
                if (group == groups.end())
                    groups.push_back({ key, {} });
            }
            continue;
        }
        if (first == "STRUCT" || !metricTable || !inRegion)
            continue;
        if (expectHeader) {
            // Metric,HWThread 0,... or Metric,Sum,Min,Max,Avg
            valueColumns.clear();
            for (std::size_t i = 1; i < f.size(); ++i) {
                if (!f[i].text.empty())
                    valueColumns.push_back(i);
            }
            expectHeader = false;
            continue;
        }
        std::string name = asciiLower(first);
        if (statTable && name.ends_with(" stat"))
            name.erase(name.size() - 5);
        Metric metric;
        metric.line = row.line;
        bool any = false;
        for (std::size_t k = 0; k < valueColumns.size(); ++k) {
            const std::size_t i = valueColumns[k];
            if (i >= f.size())
                continue;
            auto number = parseReportNumber(f[i].text);
            if (!number || !*number)
                continue;
            // STAT columns are Sum, Min, Max, Avg.
            if (statTable) {
                if (k == 0)
                    metric.sum = **number;
                else if (k == 2)
                    metric.max = **number;
            } else {
                metric.sum += **number;
                metric.max = std::max(metric.max, **number);
            }
            any = true;
        }
        // A STAT table (Sum, Max over threads) comes after the per-thread one and replaces it.
        if (any)
            regions[currentRegion].groups[currentGroup].metrics[name] = metric;
    }

    for (const Region &region : regions) {
        ++result.rowsRead;
        KernelPoint point;
        point.name = region.name;
        point.source = { fileName, region.line };
        // A group with both the FLOP rate and memory metrics (MEM_DP has DP [MFLOP/s]) gives the
        // whole point from one measurement; otherwise the rate and runtime come from one group
        // (FLOPS_DP) and the memory metrics from another (MEM).
        const Group *rateGroup = nullptr;
        const Group *memoryGroup = nullptr;
        bool unused = false;
        for (const Group &group : region.groups) {
            if (rateOf(&group, unused) && hasMemory(&group)) {
                rateGroup = memoryGroup = &group;
                break;
            }
        }
        for (const Group &group : region.groups) {
            if (!rateGroup && rateOf(&group, unused))
                rateGroup = &group;
            if (!memoryGroup && hasMemory(&group))
                memoryGroup = &group;
        }
        bool doublePrecision = false;
        const Metric *rate = rateOf(rateGroup, doublePrecision);
        const Metric *runtime = find(rateGroup, { "runtime (rdtsc) [s]" });
        const Metric *volume = find(memoryGroup, { "memory data volume [gbytes]" });
        const Metric *bandwidth = find(memoryGroup, { "memory bandwidth [mbytes/s]" });
        const Metric *oi = find(memoryGroup, { "operational intensity" });
        if (!rate || !(rate->sum > 0.0)) {
            result.diagnostics.push_back({ Severity::Error, fileName, region.line, 0,
                "region \"" + region.name
                    + "\": no FLOP rate (expected a FLOPS or MEM group with \"DP [MFLOP/s]\" or "
                      "\"SP [MFLOP/s]\")" });
            ++result.rowsSkipped;
            continue;
        }
        point.precision = doublePrecision ? Precision::FP64 : Precision::FP32;
        point.measuredRate = rate->sum * 1e6;
        if (runtime && runtime->max > 0.0) {
            point.seconds = runtime->max;
            point.flops = *point.measuredRate * runtime->max;
            point.measuredRate.reset();
        }
        if (point.flops > 0.0 && volume && volume->sum > 0.0)
            point.bytes.push_back({ std::nullopt, volume->sum * 1e9 });
        else if (point.flops > 0.0 && bandwidth && bandwidth->sum > 0.0)
            point.bytes.push_back({ std::nullopt, bandwidth->sum * 1e6 * *point.seconds });
        else if (oi && oi->sum > 0.0) {
            if (point.flops > 0.0) {
                point.bytes.push_back({ std::nullopt, point.flops / oi->sum });
            } else {
                point.intensity = oi->sum;
            }
        }
        if (point.bytes.empty() && !point.intensity) {
            result.diagnostics.push_back({ Severity::Error, fileName, region.line, 0,
                "region \"" + region.name
                    + "\": no memory metrics (expected a MEM or MEM_DP group with \"Memory data "
                      "volume [GBytes]\" or \"Operational intensity\")" });
            ++result.rowsSkipped;
            continue;
        }
        if (auto problem = pointProblem(point)) {
            result.diagnostics.push_back({ Severity::Error, fileName, region.line, 0,
                "region \"" + region.name + "\": " + *problem });
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    if (regions.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no Metric tables (expected TABLE,...,Group <n> Metric,... blocks)" });
    }
    return result;
}

} // namespace ridgepoint
