#include "core/io/formats/ncu_table.h"

#include "core/io/formats/ncu_reader.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::ncu {
namespace {

// The line starts with the cell `name`, quoted or not: `"ID",` or `ID,`.
bool startsWithCell(std::string_view line, std::string_view name)
{
    if (line.starts_with("\"")) {
        line.remove_prefix(1);
        return line.starts_with(name) && line.substr(name.size()).starts_with("\",");
    }
    return line.starts_with(name) && line.substr(name.size()).starts_with(",");
}

// ncu's own messages: ==PROF==, ==ERROR==, ==WARNING== (docs/FORMATS.md §1.2).
bool isProfilerMessage(std::string_view line)
{
    return line.starts_with("==PROF==") || line.starts_with("==ERROR==")
        || line.starts_with("==WARNING==");
}

std::string_view withoutCr(std::string_view line)
{
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    return line;
}

std::vector<Diagnostic> profilerErrors(
    std::string_view text, std::size_t until, const std::string &fileName)
{
    std::vector<Diagnostic> out;
    std::size_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    int line = 1;
    while (start < until && start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = withoutCr(text.substr(start, end - start));
        if (content.starts_with("==ERROR==") || content.starts_with("==WARNING==")) {
            out.push_back({ Severity::Warning, fileName, line, 0,
                "ncu reported: \"" + std::string(content) + "\"" });
        }
        start = end + 1;
        ++line;
    }
    return out;
}

// A field of a ragged row: rows may stop early (metric rows end after "Rule Name").
const CsvField *fieldAt(const CsvRow &row, std::optional<std::size_t> index)
{
    return index ? row.field(*index) : nullptr;
}

std::string textAt(const CsvRow &row, std::optional<std::size_t> index)
{
    const CsvField *field = fieldAt(row, index);
    return field ? field->text : std::string();
}

std::optional<std::size_t> columnOf(const Table &table, const std::string &name)
{
    auto it = table.columns.find(name);
    return it == table.columns.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

struct HeaderLine {
    std::size_t offset = 0; // byte offset of the header line
    int line = 1; // 1-based
    HeaderKind kind = HeaderKind::Launches;
};

// The ncu header: the first line that starts with "ID" (quoted or not) and names the kernel, or,
// for the per-kernel summary, one that starts with "Process ID" and has an Invocations column.
// ==PROF== lines and the application's own output may come before it.
// Only the lines that name the kernel are looked at, found by one search of the text: every
// other format is sniffed for this header too, and a million-line CSV has none (walking it line
// by line took 12 ms of each `analyze`).
std::optional<HeaderLine> findHeader(std::string_view text)
{
    const std::size_t first = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    constexpr std::string_view kKernel = "Kernel Name";
    std::size_t counted = first; // line ends before here are in `line`
    int line = 1;
    for (std::size_t at = text.find(kKernel, first); at != std::string_view::npos;) {
        const std::size_t lineEnd = text.rfind('\n', at);
        const std::size_t start = lineEnd == std::string_view::npos ? first : lineEnd + 1;
        const std::size_t end = std::min(text.find('\n', at), text.size());
        line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
            text.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
        counted = start;
        const std::string_view content = text.substr(start, end - start);
        if (startsWithCell(content, "ID"))
            return HeaderLine { start, line, HeaderKind::Launches };
        if (startsWithCell(content, "Process ID")
            && content.find("Invocations") != std::string_view::npos)
            return HeaderLine { start, line, HeaderKind::Summary };
        at = end < text.size() ? text.find(kKernel, end + 1) : std::string_view::npos;
    }
    return std::nullopt;
}

} // namespace

std::optional<Table> tokenize(std::string_view text, const std::string &fileName)
{
    auto header = findHeader(text);
    if (!header)
        return std::nullopt;
    Table table;
    table.kind = header->kind;
    table.messages = profilerErrors(text, header->offset, fileName);
    table.csv = tokenizeCsv(text.substr(header->offset), fileName, ',');
    shiftLines(table.csv, header->line - 1);
    if (table.csv.rows.empty())
        return std::nullopt;
    // ncu's messages after the table (a disconnect, an error) are not rows.
    auto &rows = table.csv.rows;
    for (auto it = rows.begin() + 1; it != rows.end();) {
        const std::string &first = it->text(0);
        if (isProfilerMessage(first)) {
            if (!first.starts_with("==PROF=="))
                table.messages.push_back({ Severity::Warning, fileName, it->line, 0,
                    "ncu reported: \"" + first + "\"" });
            it = rows.erase(it);
        } else {
            ++it;
        }
    }
    table.headerLine = rows.front().line;
    const auto &fields = rows.front().fields;
    for (std::size_t i = 0; i < fields.size(); ++i)
        table.columns.emplace(fields[i].text, i);
    return table;
}

std::string launchWho(const Launch &launch)
{
    if (launch.summary)
        return "kernel \"" + launch.kernel + "\" (block " + launch.block + ", grid " + launch.grid
            + ")";
    return "launch " + launch.id + " (\"" + launch.kernel + "\")";
}

std::string sassMetric(const std::string &prefix, char letter, const std::string &op)
{
    return prefix + "sass_thread_inst_executed_op_" + letter + op + "_pred_on.sum";
}

// The columns that say which kernel launch a row belongs to, on the details and summary pages.
struct LaunchColumns {
    std::optional<std::size_t> kernel, device, cc, block, grid;

    explicit LaunchColumns(const Table &table)
        : kernel(columnOf(table, "Kernel Name"))
        , device(columnOf(table, "Device"))
        , cc(columnOf(table, "CC"))
        , block(columnOf(table, "Block Size"))
        , grid(columnOf(table, "Grid Size"))
    { }

    // A launch named by this row, with no metrics yet.
    Launch launchOf(const CsvRow &row) const
    {
        Launch launch;
        launch.kernel = textAt(row, kernel);
        launch.device = textAt(row, device);
        launch.cc = textAt(row, cc);
        launch.block = textAt(row, block);
        launch.grid = textAt(row, grid);
        launch.line = row.line;
        return launch;
    }
};

// The rows of a page with one metric a row, grouped into launches by keyOf(row): a launch starts
// with the first row of its key (begin(launch, row)), and add(launch, metric, row) takes each
// row that names a metric. A row that names none is a rule row (advice text) and only counted.
template<typename KeyOf, typename Begin, typename Add>
std::vector<Launch> launchesOfMetricRows(
    const Table &table, int &ruleRows, KeyOf keyOf, Begin begin, Add add)
{
    const LaunchColumns columns(table);
    const auto name = columnOf(table, "Metric Name");
    std::vector<Launch> launches;
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 1; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        const std::string metric = textAt(row, name);
        if (metric.empty()) {
            ++ruleRows;
            continue;
        }
        const auto [it, added] = index.emplace(keyOf(row, columns), launches.size());
        if (added) {
            launches.push_back(columns.launchOf(row));
            begin(launches.back(), row);
        }
        add(launches[it->second], metric, row);
    }
    return launches;
}

std::vector<Launch> launchesOfDetails(const Table &table, int &ruleRows)
{
    const auto id = columnOf(table, "ID");
    const auto label = columnOf(table, "Body Item Label");
    const auto unit = columnOf(table, "Metric Unit");
    const auto value = columnOf(table, "Metric Value");
    return launchesOfMetricRows(
        table, ruleRows, [&](const CsvRow &row, const LaunchColumns &) { return textAt(row, id); },
        [&](Launch &launch, const CsvRow &row) { launch.id = textAt(row, id); },
        [&](Launch &launch, const std::string &metric, const CsvRow &row) {
            const CsvField *valueField = fieldAt(row, value);
            RawValue raw { valueField ? valueField->text : std::string(), textAt(row, unit),
                row.line, valueField ? valueField->column : 0 };
            const std::string bodyLabel = textAt(row, label);
            if (bodyLabel.empty())
                launch.metrics.emplace(metric, std::move(raw));
            else
                launch.labelled[bodyLabel].emplace(metric, std::move(raw));
        });
}

// The per-kernel summary: one group per kernel name and launch shape (and process and device).
std::vector<Launch> launchesOfSummary(const Table &table, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, int &ruleRows)
{
    const auto process = columnOf(table, "Process ID");
    const auto invocations = columnOf(table, "Invocations");
    const auto unit = columnOf(table, "Metric Unit");
    const auto minimum = columnOf(table, "Minimum");
    const auto maximum = columnOf(table, "Maximum");
    const auto average = columnOf(table, "Average");
    const auto keyOf = [&](const CsvRow &row, const LaunchColumns &columns) {
        return textAt(row, process) + '\x1f' + textAt(row, columns.device) + '\x1f'
            + textAt(row, columns.kernel) + '\x1f' + textAt(row, columns.block) + '\x1f'
            + textAt(row, columns.grid);
    };
    const auto begin = [](Launch &launch, const CsvRow &) { launch.summary = true; };
    return launchesOfMetricRows(table, ruleRows, keyOf, begin,
        [&](Launch &launch, const std::string &metric, const CsvRow &row) {
            if (!launch.invocations) {
                const CsvField *field = fieldAt(row, invocations);
                const std::string text = field ? field->text : std::string();
                auto count = parseReportNumber(text);
                if (count && *count && **count >= 1.0 && std::floor(**count) == **count) {
                    launch.invocations = **count;
                } else {
                    diagnostics.push_back(
                        { Severity::Error, fileName, row.line, field ? field->column : 0,
                            "column \"Invocations\": \"" + text
                                + "\" is not a number of launches (expected a whole number, 1 "
                                  "or more)" });
                    launch.invocations = 0.0; // reported once; the kernel is skipped
                }
            }
            const std::string unitOf = textAt(row, unit);
            const auto put = [&](Metrics &into, std::optional<std::size_t> column) {
                const CsvField *field = fieldAt(row, column);
                into.emplace(metric,
                    RawValue { field ? field->text : std::string(), unitOf, row.line,
                        field ? field->column : 0 });
            };
            put(launch.metrics, average);
            put(launch.minimum, minimum);
            put(launch.maximum, maximum);
        });
}

std::vector<Launch> launchesOfRaw(const Table &table)
{
    const auto id = columnOf(table, "ID");
    const auto kernel = columnOf(table, "Kernel Name");
    const auto device = columnOf(table, "Device");
    const auto cc = columnOf(table, "CC");
    const auto block = columnOf(table, "Block Size");
    const auto grid = columnOf(table, "Grid Size");
    const CsvRow &header = table.csv.rows[0];
    const CsvRow &units = table.csv.rows[1];
    std::vector<Launch> launches;
    for (std::size_t r = 2; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        Launch launch;
        launch.id = textAt(row, id);
        launch.kernel = textAt(row, kernel);
        launch.device = textAt(row, device);
        launch.cc = textAt(row, cc);
        launch.block = textAt(row, block);
        launch.grid = textAt(row, grid);
        launch.line = row.line;
        for (std::size_t i = 0; i < header.fields.size() && i < row.fields.size(); ++i) {
            const std::string &metric = header.fields[i].text;
            if (metric.find("__") == std::string::npos)
                continue; // identity columns and strings
            launch.metrics.emplace(metric,
                RawValue { row.fields[i].text, textAt(units, i), row.line, row.fields[i].column });
        }
        launches.push_back(std::move(launch));
    }
    return launches;
}

bool isRawUnitsRow(const Table &table)
{
    // Under the 11 identity columns ("ID" ... "CC") the units row is empty.
    if (table.csv.rows.size() < 2)
        return false;
    const CsvRow &second = table.csv.rows[1];
    return !second.fields.empty() && second.fields.front().text.empty();
}

// Which columns hold metric values: Metric Value (details), Minimum/Maximum/Average (summary), or
// each metric column of the raw page.
std::vector<bool> valueColumns(const Table &table)
{
    const CsvRow &header = table.csv.rows.front();
    const bool longFormat = table.columns.contains("Metric Name");
    std::vector<bool> out(header.fields.size());
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string &name = header.fields[i].text;
        out[i] = longFormat ? (name == "Metric Value" || name == "Minimum" || name == "Maximum"
                     || name == "Average")
                            : name.find("__") != std::string::npos;
    }
    return out;
}

} // namespace ridgepoint::ncu

namespace ridgepoint {

using namespace ncu;

NcuShape detectNcuShape(std::string_view text)
{
    auto header = findHeader(text);
    if (!header)
        return NcuShape::None;
    if (header->kind == HeaderKind::Summary)
        return NcuShape::Summary;
    const std::size_t end = std::min(text.find('\n', header->offset), text.size());
    const std::string_view line = text.substr(header->offset, end - header->offset);
    if (line.find("Metric Name") != std::string_view::npos) {
        // A roofline section export carries the theoretical per-cycle peaks.
        if (line.find("Body Item Label") != std::string_view::npos
            && text.find("Precision Roofline") != std::string_view::npos)
            return NcuShape::RooflineSection;
        return NcuShape::Details;
    }
    return NcuShape::Raw;
}

namespace {

int ncuShapeOf(std::string_view text)
{
    return static_cast<int>(detectNcuShape(text));
}

NcuShape shapeOf(const Sniff &sniff)
{
    return static_cast<NcuShape>(sniff.shared(ncuShapeOf));
}

} // namespace

bool looksLikeNcuDetails(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Details;
}

bool looksLikeNcuRaw(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Raw;
}

bool looksLikeNcuSummary(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::Summary;
}

bool looksLikeNcuRooflineSection(const Sniff &sniff)
{
    return shapeOf(sniff) == NcuShape::RooflineSection;
}

std::optional<Diagnostic> ncuLogWithoutTable(std::string_view text, const std::string &fileName)
{
    if (findHeader(text))
        return std::nullopt;
    std::size_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    int line = 1;
    int firstLine = 0;
    std::string firstError;
    bool any = false;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view content = withoutCr(text.substr(start, end - start));
        if (!content.empty()) {
            if (!isProfilerMessage(content))
                return std::nullopt; // something else: not ncu's log
            any = true;
            if (firstError.empty() && content.starts_with("==ERROR==")) {
                firstError = std::string(content);
                firstLine = line;
            }
        }
        start = end + 1;
        ++line;
    }
    if (!any)
        return std::nullopt;
    return Diagnostic { Severity::Error, fileName, firstError.empty() ? 1 : firstLine, 0,
        "ncu wrote no table, only its own messages"
            + (firstError.empty() ? std::string() : ": \"" + firstError + "\"")
            + " (expected a header line starting \"ID\",... or \"Process ID\",... after them)" };
}

} // namespace ridgepoint
