#include "core/io/formats/apps_csv.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint {
namespace {

// name,number[,text,number]...
bool isAppRow(const std::vector<std::string_view> &cells)
{
    const bool named = !cells[0].empty() && !plainNumber(cells[0]);
    bool appRow = named && cells.size() >= 2 && cells.size() % 2 == 0 && plainNumber(cells[1]);
    for (std::size_t i = 2; appRow && i + 1 < cells.size(); i += 2)
        appRow = !cells[i].empty() && !plainNumber(cells[i]) && plainNumber(cells[i + 1]);
    return appRow;
}

// The row's points, one per implementation; the first bad cell's error in `errors` otherwise.
std::vector<KernelPoint> implementationPoints(const CsvRow &row, const std::string &app,
    double intensity, const std::string &fileName, std::vector<Diagnostic> &errors)
{
    std::vector<KernelPoint> points;
    for (std::size_t i = 2; i + 1 < row.fields.size(); i += 2) {
        const std::string implementation(trim(row.text(i)));
        if (implementation.empty()) {
            errors.push_back({ Severity::Error, fileName, row.line, row.column(i),
                "empty implementation name (expected a name before each performance)" });
            break;
        }
        const auto rate = positiveCell(row, i + 1, "performance", "GFLOP/s", fileName, errors);
        if (!rate)
            break;
        KernelPoint point;
        point.name = app + " (" + implementation + ")";
        point.group = app;
        point.intensity = intensity;
        point.measuredRate = *rate * kGiga;
        point.source = { fileName, row.line };
        if (auto problem = pointProblem(point)) {
            errors.push_back({ Severity::Error, fileName, row.line, 0, *problem });
            break;
        }
        points.push_back(std::move(point));
    }
    return points;
}

// Applications with an intensity but no implementation: nothing to place, said once.
struct WithoutImplementations {
    std::vector<std::string> names;
    int firstLine = 0;

    void add(const std::string &app, int line)
    {
        if (names.empty())
            firstLine = line;
        names.push_back(app);
    }
    void report(const std::string &fileName, std::vector<Diagnostic> &diagnostics) const
    {
        if (names.empty())
            return;
        diagnostics.push_back({ Severity::Warning, fileName, firstLine, 0,
            std::to_string(names.size())
                + (names.size() == 1 ? " application has" : " applications have")
                + " an intensity but no implementation's performance, so nothing to place: "
                + joinedList(names, "\"") });
    }
};

} // namespace

bool looksLikeAppsCsv(const Sniff &sniff)
{
    const auto &lines = sniff.contentLines();
    if (lines.empty())
        return false;
    std::string compact = asciiLower(lines.front());
    compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
    if (compact.starts_with("#name,intensity"))
        return true;
    bool anyRow = false;
    bool implementations = false;
    for (const std::string_view line : lines) {
        if (line.front() == '#')
            continue;
        anyRow = true;
        const auto cells = splitCells(line);
        if (!isAppRow(cells))
            return false;
        implementations = implementations || cells.size() >= 4;
    }
    return anyRow && implementations;
}

PointsReadResult readAppsCsv(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    WithoutImplementations without;
    for (const CsvRow &row : table.rows) {
        ++result.rowsRead;
        const std::string app(trim(row.text(0)));
        const auto fail = [&](int column, std::string message) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, column, std::move(message) });
            ++result.rowsSkipped;
        };
        if (app.empty()) {
            fail(row.column(0), "empty name (expected the application's name)");
            continue;
        }
        if (row.fields.size() < 2 || row.fields.size() % 2 != 0) {
            fail(row.fields.size() < 2 ? 0 : row.column(row.fields.size() - 1),
                "expected a name, an intensity, then pairs of implementation name and "
                "performance (GFLOP/s), found "
                    + std::to_string(row.fields.size()) + " fields");
            continue;
        }
        std::vector<Diagnostic> errors;
        const auto intensity = positiveCell(row, 1, "intensity", "FLOP/B", fileName, errors);
        if (intensity && row.fields.size() == 2) {
            without.add(app, row.line);
            continue;
        }
        auto points = intensity ? implementationPoints(row, app, *intensity, fileName, errors)
                                : std::vector<KernelPoint>();
        if (!errors.empty()) {
            result.diagnostics.insert(result.diagnostics.end(), errors.begin(), errors.end());
            ++result.rowsSkipped;
            continue;
        }
        for (auto &point : points)
            result.points.push_back(std::move(point));
    }
    without.report(fileName, result.diagnostics);
    if (result.rowsRead == 0)
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no applications (expected rows of name, intensity, implementation, GFLOP/s, ...)" });
    return result;
}

} // namespace ridgepoint
