#include "app/cli/cli_llm_trajectory.h"

#include "app/cli/cli.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_options.h"
#include "app/cli/cli_workload_options.h"
#include "core/model/checked_int.h"
#include "core/model/units.h"
#include "core/report/report.h"
#include "core/report/workload_report.h"
#include "core/workloads/llm_parallel.h"
#include "core/workloads/llm_trajectory.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"

#include <QFileInfo>

#include <cmath>

namespace ridgepoint::cli {
namespace {

std::string jsonString(const std::string &text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// "memory -> compute at seq 1024…2048" or "memory throughout".
std::string crossingText(const SweepResult &sweep)
{
    if (sweep.samples.empty())
        return "-";
    if (sweep.crossings.empty())
        return std::string(boundName(sweep.samples.front().point.analysis.bound))
            + "-bound throughout";
    std::string out;
    for (const auto &c : sweep.crossings) {
        out += (out.empty() ? "" : "; ") + std::string(boundName(c.from)) + " -> "
            + std::string(boundName(c.to)) + " between " + formatNumber(c.before) + " and "
            + formatNumber(c.after);
    }
    return out;
}

} // namespace

std::optional<std::vector<std::int64_t>> integerSweepValues(const SweepRange &range)
{
    auto values = sweepValues(range);
    if (!values) {
        err() << "--sweep: " << QString::fromStdString(values.error()) << Qt::endl;
        return std::nullopt;
    }
    std::vector<std::int64_t> out;
    for (double v : *values) {
        const auto r = toCount(std::round(v));
        if (!r) {
            err() << "--sweep: " << QString::fromStdString(range.parameter)
                  << " does not fit a 64-bit count" << Qt::endl;
            return std::nullopt;
        }
        if (out.empty() || out.back() != *r)
            out.push_back(*r);
    }
    return out;
}

int printLlmTrajectories(const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options, const SweepRange &range, bool json)
{
    const auto values = integerSweepValues(range);
    if (!values)
        return kExitBadInput;
    auto paths = llmTrajectories(model, spec, hardware, options, range.parameter, *values);
    if (!paths) {
        err() << QString::fromStdString(paths.error()) << Qt::endl;
        return kExitBadInput;
    }
    if (json) {
        std::string out
            = "{\n\"parameter\": " + jsonString(range.parameter) + ",\n\"trajectories\": [\n";
        for (std::size_t i = 0; i < paths->size(); ++i) {
            const auto &t = (*paths)[i];
            out += "{\"operator\": " + jsonString(t.kind) + ", \"sweep\": "
                + sweepJson(hardware, t.sweep) + "}" + (i + 1 < paths->size() ? ",\n" : "\n");
        }
        printText(out + "]\n}\n");
        return kExitOk;
    }
    std::vector<std::vector<std::string>> rows { { "operator", "intensity (first)",
        "intensity (last)", "T_min (first)", "T_min (last)", "ridge crossing" } };
    for (const auto &t : *paths) {
        const auto &first = t.sweep.samples.front().point.analysis;
        const auto &last = t.sweep.samples.back().point.analysis;
        rows.push_back({ t.kind, formatSignificant(first.levels.front().intensity, 4),
            formatSignificant(last.levels.front().intensity, 4),
            formatQuantity(first.tMin, Dimension::Time, 4),
            formatQuantity(last.tMin, Dimension::Time, 4), crossingText(t.sweep) });
    }
    printText(model.name + " " + std::string(llmPhaseName(spec.phase)) + ", one path per operator, "
        + range.parameter + " " + std::to_string(values->front()) + " … "
        + std::to_string(values->back()) + " (" + std::to_string(values->size()) + " values) on "
        + hardware.name + "\n\n" + alignedTable(rows, { false, true, true, true, true, false }));
    return kExitOk;
}

int renderLlm(const QString &output, const ModelConfig &model, const LlmSpec &spec,
    const Hardware &hardware, const std::optional<SweepRange> &range, const LlmPicture &picture)
{
    Document document;
    document.resetHardware(hardware);
    std::string group = model.name + " " + std::string(llmPhaseName(spec.phase));
    if (llmIsParallel(spec))
        group += " tp " + std::to_string(spec.tp) + " ep " + std::to_string(spec.ep) + " pp "
            + std::to_string(spec.pp);
    ridgepoint::Expected<std::vector<Workload>, std::string> workloads = std::vector<Workload> {};
    if (range) {
        const auto values = integerSweepValues(*range);
        if (!values)
            return kExitBadInput;
        group += ", " + range->parameter + " " + std::to_string(values->front()) + "…"
            + std::to_string(values->back());
        workloads = llmSweepWorkloads(model, spec, hardware, group, true, range->parameter, *values,
            [&] { return document.newSweepId(); });
    } else {
        group += " seq " + std::to_string(spec.seq) + " batch " + std::to_string(spec.batch);
        workloads = llmWorkloads(model, spec, hardware, group, true);
    }
    if (!workloads) {
        err() << QString::fromStdString(workloads.error()) << Qt::endl;
        return kExitBadInput;
    }
    const bool swept = range.has_value();
    if (auto added = document.addWorkloads(std::move(*workloads), "llm"); !added) {
        err() << QString::fromStdString(added.error()) << Qt::endl;
        return kExitBadInput;
    }
    if (swept)
        document.setSelection({});
    RooflinePlot plot;
    ExportOptions options;
    options.title = picture.title;
    plot.resize(options.width, options.height);
    plot.setDocument(&document);
    plot.fitToData();
    plot.replot();
    // The model's workloads, so the picture reopens (File ▸ Open, analyze, render --session)
    // as the workloads they are, recomputed on the machine as the window's Workloads dock does.
    if (picture.embedSession)
        options.session = sessionToEmbed(document, plot, output);
    const QString error = ChartExporter(plot).exportTo(output, options);
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    out() << "wrote " << QFileInfo(output).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

} // namespace ridgepoint::cli
