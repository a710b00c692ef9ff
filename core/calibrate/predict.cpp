#include "core/calibrate/predict.h"

#include "core/calibrate/fit.h"
#include "core/model/chip_link.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace ridgepoint {
namespace {

nlohmann::ordered_json summaryJson(const FitError &error)
{
    nlohmann::ordered_json out;
    out["rows"] = error.rows;
    out["median"] = error.median;
    out["p90"] = error.p90;
    return out;
}

nlohmann::ordered_json optionalSeconds(const std::optional<double> &seconds)
{
    return seconds ? nlohmann::ordered_json(*seconds) : nlohmann::ordered_json(nullptr);
}

std::string percent(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", value * 100.0);
    return buffer;
}

std::string microseconds(const std::optional<double> &seconds)
{
    if (!seconds)
        return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", *seconds * 1e6);
    return buffer;
}

} // namespace

std::optional<double> rooflineSeconds(
    const MeasuredRow &row, const Hardware &hardware, std::string &why)
{
    if (row.isCollective()) {
        if (row.ranksPerNode > 0 && row.ranksPerNode < row.ranks) {
            why = "the ranks span nodes: no link ceiling between nodes to compare with";
            return std::nullopt;
        }
        const MemoryCeiling *link = chipLink(hardware);
        if (!link) {
            why = hardware.name + " has no NVLink, ICI or PCIe ceiling";
            return std::nullopt;
        }
        return busBytesFactor(row.op, row.ranks) * row.messageBytes / link->bandwidth;
    }
    const ComputeCeiling *compute = hardware.computeFor(row.dtype);
    if (!compute)
        compute = hardware.defaultComputeCeiling();
    const MemoryCeiling *memory = hardware.mainMemory();
    if (!compute || !memory) {
        why = hardware.name + " has no compute or main-memory ceiling";
        return std::nullopt;
    }
    if (!(row.bytes > 0.0)) {
        why = row.excluded.empty() ? "no bytes to place" : row.excluded;
        return std::nullopt;
    }
    return std::max(row.flops / compute->peak, row.bytes / memory->bandwidth);
}

Predictions predictRows(const std::vector<MeasuredRow> &rows, const Hardware &hardware)
{
    Predictions out;
    std::vector<double> calibrated;
    std::vector<double> roofline;
    std::map<OperatorClass, std::pair<std::vector<double>, std::vector<double>>> byClass;
    for (const MeasuredRow &row : rows) {
        PredictedRow p;
        p.row = row;
        if (!hardware.calibration) {
            p.why = hardware.name
                + " is not calibrated (ridgepoint calibrate writes a machine "
                  "that is)";
        } else if (auto seconds = predictedSeconds(*hardware.calibration, row)) {
            p.predicted = *seconds;
        } else {
            p.why = seconds.error();
        }
        p.roofline = rooflineSeconds(row, hardware, p.rooflineWhy);
        auto &[classCalibrated, classRoofline] = byClass[row.kind];
        if (p.predicted) {
            const double error = std::abs(*p.predicted / row.seconds - 1.0);
            calibrated.push_back(error);
            classCalibrated.push_back(error);
        }
        if (p.roofline) {
            const double error = std::abs(*p.roofline / row.seconds - 1.0);
            roofline.push_back(error);
            classRoofline.push_back(error);
        }
        out.rows.push_back(std::move(p));
    }
    out.calibrated = errorSummary(std::move(calibrated));
    out.roofline = errorSummary(std::move(roofline));
    for (auto &[kind, errors] : byClass)
        out.classes.push_back({ kind, errorSummary(std::move(errors.first)),
            errorSummary(std::move(errors.second)) });
    return out;
}

std::string predictionsJson(const Predictions &predictions)
{
    nlohmann::ordered_json out;
    auto rows = nlohmann::ordered_json::array();
    for (const PredictedRow &p : predictions.rows) {
        nlohmann::ordered_json r;
        r["operator"] = p.row.op;
        r["class"] = std::string(operatorClassName(p.row.kind));
        if (p.row.isCollective()) {
            r["bytes"] = p.row.messageBytes;
            r["ranks"] = p.row.ranks;
        } else {
            r["tokens"] = p.row.tokens;
            r["tp"] = p.row.tp;
        }
        r["measured"] = p.row.seconds;
        r["predicted"] = optionalSeconds(p.predicted);
        r["roofline"] = optionalSeconds(p.roofline);
        if (!p.why.empty())
            r["why"] = p.why;
        if (!p.rooflineWhy.empty())
            r["roofline_why"] = p.rooflineWhy;
        // Faster than the spec roofs allow (an operator row is then not fitted, docs/MODEL.md
        // §15.2) or, for a collective, faster than the machine's link: flagged here.
        if (p.roofline && p.row.seconds < *p.roofline)
            r["below_roofline"] = true;
        r["file"] = p.row.file;
        r["line"] = p.row.line;
        rows.push_back(std::move(r));
    }
    out["rows"] = std::move(rows);
    nlohmann::ordered_json summary;
    summary["calibrated"] = summaryJson(predictions.calibrated);
    summary["roofline"] = summaryJson(predictions.roofline);
    nlohmann::ordered_json classes;
    for (const ClassSummary &c : predictions.classes)
        classes[std::string(operatorClassName(c.kind))]
            = { { "calibrated", summaryJson(c.calibrated) },
                  { "roofline", summaryJson(c.roofline) } };
    summary["classes"] = std::move(classes);
    out["summary"] = std::move(summary);
    return out.dump(2) + "\n";
}

std::string predictionsTable(const Predictions &predictions)
{
    std::string out = "operator                   tokens/bytes  tp/ranks  measured us  "
                      "predicted us  roofline us\n";
    for (const PredictedRow &p : predictions.rows) {
        char line[256];
        const double size
            = p.row.isCollective() ? p.row.messageBytes : static_cast<double>(p.row.tokens);
        const auto ranks = p.row.isCollective() ? p.row.ranks : p.row.tp;
        std::snprintf(line, sizeof line, "%-26s %12.0f  %8lld  %11.2f  %12s  %11s",
            p.row.op.c_str(), size, static_cast<long long>(ranks), p.row.seconds * 1e6,
            microseconds(p.predicted).c_str(), microseconds(p.roofline).c_str());
        out += line;
        if (!p.why.empty())
            out += "  (" + p.why + ")";
        if (p.roofline && p.row.seconds < *p.roofline)
            out += p.row.isCollective()
                ? "  (faster than the machine's link allows: is its link figure right?)"
                : "  (faster than the roofline allows: not fitted)";
        out += "\n";
    }
    out += "\nabsolute relative error    rows   median      p90\n";
    auto add = [&out](const std::string &name, const FitError &e) {
        char line[160];
        std::snprintf(line, sizeof line, "%-26s %5zu  %8s  %8s\n", name.c_str(), e.rows,
            percent(e.median).c_str(), percent(e.p90).c_str());
        out += line;
    };
    add("calibrated", predictions.calibrated);
    add("plain roofline", predictions.roofline);
    for (const ClassSummary &c : predictions.classes) {
        add(std::string(operatorClassName(c.kind)) + " calibrated", c.calibrated);
        add(std::string(operatorClassName(c.kind)) + " roofline", c.roofline);
    }
    return out;
}

} // namespace ridgepoint
