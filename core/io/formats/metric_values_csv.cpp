#include "core/io/formats/metric_values_csv.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>
#include <map>

namespace ridgepoint {
namespace {

struct Header {
    std::size_t index = 0; // its row
    std::optional<std::size_t> id;
    std::size_t kernel = 0;
    std::size_t metric = 0;
    std::size_t value = 0;
};

// The header is the row naming Host Name (the plotting script looks for it too); lines before
// it are the program's own output.
std::optional<Header> findHeader(const CsvTable &table)
{
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        bool host = false;
        std::optional<std::size_t> id;
        std::optional<std::size_t> kernel;
        std::optional<std::size_t> metric;
        std::optional<std::size_t> value;
        for (std::size_t i = 0; i < row.fields.size(); ++i) {
            const std::string name = asciiLower(trim(row.text(i)));
            host = host || name == "host name";
            if (name == "id")
                id = i;
            else if (name == "kernel name")
                kernel = i;
            else if (name == "metric name")
                metric = i;
            else if (name == "metric value")
                value = i;
        }
        if (host && kernel && metric && value)
            return Header { r, id, *kernel, *metric, *value };
    }
    return std::nullopt;
}

struct Launch {
    std::string kernel;
    int line = 0;
    std::optional<double> rate;
    std::optional<double> intensity;
    std::string error;
    int errorLine = 0;
    int errorColumn = 0;
};

// The rows after the header, grouped by ID (or kernel name without an ID column), in file order.
struct Launches {
    std::vector<std::string> order;
    std::map<std::string, Launch> byKey;
    std::vector<std::string> unknownMetrics;

    void add(const CsvRow &row, const Header &header)
    {
        const std::string key = std::string(trim(row.text(header.id.value_or(header.kernel))));
        auto [it, added] = byKey.emplace(key, Launch {});
        Launch &launch = it->second;
        if (added) {
            order.push_back(key);
            launch.kernel = std::string(trim(row.text(header.kernel)));
            launch.line = row.line;
        }
        const std::string name(trim(row.text(header.metric)));
        const bool isRate = name == "FLOPS";
        if (!isRate && name != "AI") {
            if (name != "Ranks" && name != "API"
                && std::find(unknownMetrics.begin(), unknownMetrics.end(), name)
                    == unknownMetrics.end())
                unknownMetrics.push_back(name);
            return;
        }
        const std::string_view cell = trim(row.text(header.value));
        const auto number = plainNumber(cell);
        if (number && positiveFinite(*number)) {
            (isRate ? launch.rate : launch.intensity) = *number;
        } else if (launch.error.empty()) {
            launch.error = "metric \"" + name + "\": \"" + std::string(cell)
                + "\" is not a positive number (expected " + (isRate ? "FLOP/s" : "FLOP/B") + ")";
            launch.errorLine = row.line;
            launch.errorColumn = row.column(header.value);
        }
    }
};

// The point of one launch; its error in `launch` otherwise.
KernelPoint pointOf(const std::string &key, Launch &launch, bool named, const std::string &fileName)
{
    if (launch.error.empty() && (!launch.rate || !launch.intensity)) {
        launch.error = "ID " + key + ": no " + (!launch.rate ? "FLOPS" : "AI")
            + " metric (expected FLOPS in FLOP/s and AI in FLOP/B for each ID)";
        launch.errorLine = launch.line;
    }
    KernelPoint point;
    point.name = launch.kernel;
    if (named)
        point.name += " (ID " + key + ")";
    point.measuredRate = launch.rate;
    point.intensity = launch.intensity;
    point.source = { fileName, launch.line };
    if (launch.error.empty()) {
        if (auto problem = pointProblem(point)) {
            launch.error = *problem;
            launch.errorLine = launch.line;
        }
    }
    return point;
}

} // namespace

bool looksLikeMetricValuesCsv(const Sniff &sniff)
{
    for (const std::string_view line : sniff.contentLines()) {
        const auto cells = cellsLower(line);
        if (containsCell(cells, "kernel name") && containsCell(cells, "host name")
            && containsCell(cells, "metric name") && containsCell(cells, "metric value")
            && !containsCell(cells, "metric unit"))
            return true;
    }
    return false;
}

PointsReadResult readMetricValuesCsv(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    const auto header = findHeader(table);
    if (!header) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no header row (expected ID,Kernel Name,Host Name,Metric Name,Metric Value)" });
        return result;
    }
    Launches launches;
    for (std::size_t r = header->index + 1; r < table.rows.size(); ++r)
        launches.add(table.rows[r], *header);
    std::map<std::string, int> perKernel;
    for (const auto &key : launches.order)
        ++perKernel[launches.byKey[key].kernel];
    for (const auto &key : launches.order) {
        ++result.rowsRead;
        Launch &launch = launches.byKey[key];
        KernelPoint point
            = pointOf(key, launch, header->id && perKernel[launch.kernel] > 1, fileName);
        if (!launch.error.empty()) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, launch.errorLine, launch.errorColumn, launch.error });
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    const int headerLine = table.rows[header->index].line;
    if (!launches.unknownMetrics.empty())
        result.diagnostics.push_back({ Severity::Warning, fileName, headerLine, 0,
            "metrics not used: " + joinedList(launches.unknownMetrics, "\"") });
    if (result.rowsRead == 0)
        result.diagnostics.push_back(
            { Severity::Error, fileName, headerLine, 0, "the header has no data rows after it" });
    return result;
}

} // namespace ridgepoint
