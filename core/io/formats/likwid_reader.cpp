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

// The TABLE blocks of likwid-perfctr -O, row by row, into regions and their groups' metrics.
class TableReader
{
public:
    std::vector<Region> regions;

    void row(const CsvRow &row)
    {
        const auto &f = row.fields;
        const std::string first = f.empty() ? std::string() : f.front().text;
        if (first == "TABLE") {
            table(f, row.line);
            return;
        }
        if (first == "STRUCT" || !m_metricTable || !m_inRegion)
            return;
        if (m_expectHeader) {
            // Metric,HWThread 0,... or Metric,Sum,Min,Max,Avg
            m_valueColumns.clear();
            for (std::size_t i = 1; i < f.size(); ++i) {
                if (!f[i].text.empty())
                    m_valueColumns.push_back(i);
            }
            m_expectHeader = false;
            return;
        }
        metric(f, first, row.line);
    }

private:
    // TABLE,[Region <tag>,]Group <n> <kind>,<GROUP>,<count>
    void table(const std::vector<CsvField> &f, int line)
    {
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
        m_metricTable = kind.ends_with("Metric") || kind.ends_with("Metric STAT");
        m_statTable = kind.ends_with("STAT");
        m_expectHeader = m_metricTable;
        if (!m_metricTable)
            return;
        auto [it, added] = m_regionIndex.emplace(regionName, regions.size());
        if (added)
            regions.push_back({ regionName, line, {} });
        m_region = it->second;
        m_inRegion = true;
        // "Group 2 Metric" and "Group 2 Metric STAT" are one group.
        std::string key = kind.substr(0, kind.find(" Metric"));
        if (kindAt + 1 < f.size())
            key += " " + f[kindAt + 1].text;
        auto &groups = regions[m_region].groups;
        const auto group = std::find_if(
            groups.begin(), groups.end(), [&](const Group &g) { return g.key == key; });
        m_group = static_cast<std::size_t>(group - groups.begin());
        if (group == groups.end())
            groups.push_back({ key, {} });
    }

    void metric(const std::vector<CsvField> &f, const std::string &first, int line)
    {
        std::string name = asciiLower(first);
        if (m_statTable && name.ends_with(" stat"))
            name.erase(name.size() - 5);
        Metric metric;
        metric.line = line;
        bool any = false;
        for (std::size_t k = 0; k < m_valueColumns.size(); ++k) {
            const std::size_t i = m_valueColumns[k];
            if (i >= f.size())
                continue;
            auto number = parseReportNumber(f[i].text);
            if (!number || !*number)
                continue;
            // STAT columns are Sum, Min, Max, Avg.
            if (m_statTable) {
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
            regions[m_region].groups[m_group].metrics[name] = metric;
    }

    std::map<std::string, std::size_t> m_regionIndex;
    std::size_t m_region = 0;
    std::size_t m_group = 0;
    bool m_inRegion = false;
    bool m_metricTable = false;
    bool m_statTable = false;
    bool m_expectHeader = false;
    std::vector<std::size_t> m_valueColumns; // thread columns, or Sum / Max of a STAT table
};

// A group with both the FLOP rate and memory metrics (MEM_DP has DP [MFLOP/s]) gives the whole
// point from one measurement; otherwise the rate and runtime come from one group (FLOPS_DP) and
// the memory metrics from another (MEM).
std::pair<const Group *, const Group *> rateAndMemoryGroups(const Region &region)
{
    bool unused = false;
    for (const Group &group : region.groups) {
        if (rateOf(&group, unused) && hasMemory(&group))
            return { &group, &group };
    }
    const Group *rateGroup = nullptr;
    const Group *memoryGroup = nullptr;
    for (const Group &group : region.groups) {
        if (!rateGroup && rateOf(&group, unused))
            rateGroup = &group;
        if (!memoryGroup && hasMemory(&group))
            memoryGroup = &group;
    }
    return { rateGroup, memoryGroup };
}

// The region's point, or the error saying what it lacks.
std::optional<KernelPoint> pointOfRegion(
    const Region &region, const std::string &fileName, std::string &error)
{
    KernelPoint point;
    point.name = region.name;
    point.source = { fileName, region.line };
    const auto [rateGroup, memoryGroup] = rateAndMemoryGroups(region);
    bool doublePrecision = false;
    const Metric *rate = rateOf(rateGroup, doublePrecision);
    const Metric *runtime = find(rateGroup, { "runtime (rdtsc) [s]" });
    const Metric *volume = find(memoryGroup, { "memory data volume [gbytes]" });
    const Metric *bandwidth = find(memoryGroup, { "memory bandwidth [mbytes/s]" });
    const Metric *oi = find(memoryGroup, { "operational intensity" });
    if (!rate || !(rate->sum > 0.0)) {
        error = "no FLOP rate (expected a FLOPS or MEM group with \"DP [MFLOP/s]\" or \"SP "
                "[MFLOP/s]\")";
        return std::nullopt;
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
    else if (oi && oi->sum > 0.0 && point.flops > 0.0)
        point.bytes.push_back({ std::nullopt, point.flops / oi->sum });
    else if (oi && oi->sum > 0.0)
        point.intensity = oi->sum;
    if (point.bytes.empty() && !point.intensity) {
        error = "no memory metrics (expected a MEM or MEM_DP group with \"Memory data volume "
                "[GBytes]\" or \"Operational intensity\")";
        return std::nullopt;
    }
    if (auto problem = pointProblem(point)) {
        error = *problem;
        return std::nullopt;
    }
    return point;
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
    TableReader tables;
    for (const CsvRow &row : table.rows)
        tables.row(row);
    for (const Region &region : tables.regions) {
        ++result.rowsRead;
        std::string error;
        if (auto point = pointOfRegion(region, fileName, error)) {
            result.points.push_back(std::move(*point));
            continue;
        }
        result.diagnostics.push_back({ Severity::Error, fileName, region.line, 0,
            "region \"" + region.name + "\": " + error });
        ++result.rowsSkipped;
    }
    if (tables.regions.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no Metric tables (expected TABLE,...,Group <n> Metric,... blocks)" });
    }
    return result;
}

} // namespace ridgepoint
