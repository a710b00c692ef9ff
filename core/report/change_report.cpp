#include "core/report/change_report.h"

#include "core/model/units.h"
#include "core/report/report.h"

#include <cstdio>

namespace ridgepoint {
namespace {

std::string seconds(double value)
{
    return formatQuantity(value, Dimension::Time);
}

std::string times(const std::optional<double> &speedup)
{
    if (!speedup)
        return "–";
    char text[32];
    std::snprintf(text, sizeof text, "×%.2f", *speedup);
    return text;
}

std::string matchedBy(MatchBy by)
{
    return by == MatchBy::Operator ? "matched by operator and shapes" : "matched by name";
}

// The cells of one row: key, baseline time, this run's time, speed-up, kernels (baseline/here).
std::vector<std::string> rowCells(const OperatorChange &row)
{
    return { row.key, row.baselinePoints > 0 ? seconds(row.baselineSeconds) : "–",
        row.currentPoints > 0 ? seconds(row.currentSeconds) : "–", times(row.speedup()),
        std::to_string(row.baselinePoints) + " / " + std::to_string(row.currentPoints),
        changeStatus(row) };
}

const std::vector<std::string> kHeader { "operator and shapes", "baseline", "this run", "speed-up",
    "kernels (baseline / here)", "" };

} // namespace

const char *changeStatus(const OperatorChange &row)
{
    return row.matched()          ? "matched"
        : row.baselinePoints == 0 ? "only in this run"
                                  : "only in the baseline";
}

std::string changesSentence(const OperatorChanges &changes, const std::string &baselineFile)
{
    char share[32];
    std::snprintf(share, sizeof share, "%.1f %%", 100.0 * changes.matchedShare());
    const std::string unit = changes.by == MatchBy::Operator ? " operators" : " kernels";
    return "Against " + baselineFile + " (" + matchedBy(changes.by)
        + "; speed-up = baseline time ÷ this run's time): " + std::to_string(changes.matched) + unit
        + " in both runs (" + share + " of this run's time), " + std::to_string(changes.onlyCurrent)
        + " only here, " + std::to_string(changes.onlyBaseline) + " only in the baseline; matched "
        + seconds(changes.matchedBaselineSeconds) + " → " + seconds(changes.matchedCurrentSeconds)
        + ", " + times(changes.matchedSpeedup()) + "; every point "
        + seconds(changes.baselineSeconds) + " → " + seconds(changes.currentSeconds) + ", "
        + times(changes.totalSpeedup()) + ".";
}

std::string changesTable(const OperatorChanges &changes, const std::string &baselineFile)
{
    std::vector<std::vector<std::string>> rows { kHeader };
    for (const OperatorChange &row : changes.rows)
        rows.push_back(rowCells(row));
    return "\n" + changesSentence(changes, baselineFile) + "\n\n"
        + alignedTable(rows, { false, true, true, true, true, false });
}

std::string changesMarkdown(const OperatorChanges &changes, const std::string &baselineFile,
    std::string (*cell)(const std::string &))
{
    std::string out = "\n" + cell(changesSentence(changes, baselineFile)) + "\n\n";
    out += "| Operator and shapes | Baseline | This run | Speed-up | Kernels (baseline / here) | "
           "Status |\n|:---|---:|---:|---:|---:|:---|\n";
    for (const OperatorChange &row : changes.rows) {
        out += "|";
        for (const std::string &text : rowCells(row))
            out.append(" ").append(cell(text)).append(" |");
        out += "\n";
    }
    return out;
}

nlohmann::ordered_json changesJson(const OperatorChanges &changes, const std::string &baselineFile)
{
    const auto number = [](const std::optional<double> &value) {
        return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
    };
    nlohmann::ordered_json out;
    out["file"] = baselineFile;
    out["match"] = matchByText(changes.by);
    out["baseline_seconds"] = changes.baselineSeconds;
    out["current_seconds"] = changes.currentSeconds;
    out["matched_baseline_seconds"] = changes.matchedBaselineSeconds;
    out["matched_current_seconds"] = changes.matchedCurrentSeconds;
    out["matched_share"] = changes.matchedShare();
    out["speedup"] = number(changes.totalSpeedup());
    out["matched_speedup"] = number(changes.matchedSpeedup());
    out["operators"] = nlohmann::ordered_json::array();
    for (const OperatorChange &row : changes.rows)
        out["operators"].push_back({ { "key", row.key }, { "status", changeStatus(row) },
            { "baseline_seconds", row.baselineSeconds }, { "current_seconds", row.currentSeconds },
            { "baseline_points", row.baselinePoints }, { "current_points", row.currentPoints },
            { "speedup", number(row.speedup()) } });
    return out;
}

} // namespace ridgepoint
