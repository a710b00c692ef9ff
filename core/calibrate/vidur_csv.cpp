// Vidur's profiling CSVs (docs/FORMATS.md "Measured runs"): per-operator times of a transformer
// layer (mlp.csv) and collective times by message size (all_reduce.csv, send_recv.csv).
#include "core/calibrate/measured.h"
#include "core/calibrate/measured_text.h"
#include "core/calibrate/operator_work.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ridgepoint {
namespace {

using namespace measured_text;

constexpr std::string_view kPrefix = "time_stats.";
constexpr std::string_view kMedian = ".median";

// The operators of a header: <name> of each time_stats.<name>.median column, with its index.
std::vector<std::pair<std::string, std::size_t>> timedOperators(const std::vector<Field> &header)
{
    std::vector<std::pair<std::string, std::size_t>> out;
    for (std::size_t i = 0; i < header.size(); ++i) {
        const std::string_view name = header[i].text;
        if (name.size() > kPrefix.size() + kMedian.size() && name.starts_with(kPrefix)
            && name.ends_with(kMedian))
            out.emplace_back(std::string(name.substr(
                                 kPrefix.size(), name.size() - kPrefix.size() - kMedian.size())),
                i);
    }
    return out;
}

// The indices of `names` in the header; an error naming the first one missing.
std::optional<std::vector<std::size_t>> requiredColumns(const std::vector<Field> &header,
    const std::vector<std::string_view> &names, std::string_view layout, Reporter &report)
{
    std::vector<std::size_t> out;
    for (const auto name : names) {
        const auto column = columnOf(header, name);
        if (!column) {
            report.error(1, 0,
                "missing column \"" + std::string(name) + "\" (expected " + std::string(layout)
                    + ")");
            return std::nullopt;
        }
        out.push_back(*column);
    }
    return out;
}

// A Vidur CSV opened: its lines, its header, the indices of the columns `names` and the
// time_stats.<name>.median columns; nullopt after an error saying what is missing.
struct VidurTable {
    std::vector<Line> lines;
    std::vector<Field> header;
    std::vector<std::size_t> at;
    std::vector<std::pair<std::string, std::size_t>> timed;
};

std::optional<VidurTable> openVidurCsv(std::string_view text, std::string_view kind,
    const std::vector<std::string_view> &names, std::string_view layout, Reporter &report)
{
    VidurTable table { lines(text), {}, {}, {} };
    if (table.lines.empty()) {
        report.error(0, 0, "the file is empty (expected " + std::string(kind) + ")");
        return std::nullopt;
    }
    table.header = splitCsv(table.lines.front().text);
    auto at = requiredColumns(table.header, names, layout, report);
    if (!at)
        return std::nullopt;
    table.at = std::move(*at);
    table.timed = timedOperators(table.header);
    return table;
}

bool fieldCountMatches(
    const std::vector<Field> &fields, const std::vector<Field> &header, int line, Reporter &report)
{
    if (fields.size() == header.size())
        return true;
    report.error(line, 0,
        "expected " + std::to_string(header.size()) + " fields as the header has, found "
            + std::to_string(fields.size()));
    return false;
}

// row(line, fields) for each data row that is not empty and has as many fields as the header.
template<typename Row> void forEachRow(const VidurTable &table, Reporter &report, Row row)
{
    for (std::size_t i = 1; i < table.lines.size(); ++i) {
        const Line &line = table.lines[i];
        if (line.text.empty())
            continue;
        const auto fields = splitCsv(line.text);
        if (fieldCountMatches(fields, table.header, line.number, report))
            row(line, fields);
    }
}

std::optional<LayerDims> layerDims(const std::vector<Field> &fields,
    const std::vector<std::size_t> &at, const std::vector<std::string_view> &names, int line,
    Reporter &report)
{
    LayerDims dims;
    std::int64_t *targets[] = { &dims.heads, &dims.kvHeads, &dims.hidden, &dims.ffn, &dims.vocab,
        nullptr, &dims.tokens, &dims.tp };
    bool ok = true;
    for (std::size_t i = 0; i < at.size(); ++i) {
        const Field &field = fields[at[i]];
        if (!targets[i]) {
            if (field.text == "True" || field.text == "true" || field.text == "1")
                dims.gated = true;
            else if (field.text == "False" || field.text == "false" || field.text == "0")
                dims.gated = false;
            else {
                report.error(line, field.column,
                    std::string(names[i]) + ": expected True or False, found \""
                        + std::string(field.text) + "\"");
                ok = false;
            }
            continue;
        }
        if (auto value = integer(field, line, report, names[i]))
            *targets[i] = *value;
        else
            ok = false;
    }
    return ok ? std::optional<LayerDims>(dims) : std::nullopt;
}

} // namespace

MeasuredReadResult readVidurOperatorCsv(std::string_view text, const std::string &path)
{
    MeasuredReadResult result;
    Reporter report(path, result);
    const std::vector<std::string_view> names { "n_head", "n_kv_head", "n_embd", "n_expanded_embd",
        "vocab_size", "use_gated_mlp", "num_tokens", "num_tensor_parallel_workers" };
    const auto table = openVidurCsv(text, "Vidur's per-operator CSV", names,
        "Vidur's per-operator CSV: time_stats.<operator>.median columns and the model's "
        "dimensions",
        report);
    if (!table)
        return result;
    const auto &at = table->at;
    const auto &ops = table->timed;
    if (ops.empty()) {
        report.error(1, 0, "no time_stats.<operator>.median column");
        return result;
    }
    std::map<std::string, bool> reported;
    forEachRow(*table, report, [&](const Line &line, const std::vector<Field> &fields) {
        const auto dims = layerDims(fields, at, names, line.number, report);
        if (!dims)
            return;
        for (const auto &[op, column] : ops) {
            const auto ms = number(
                fields[column], line.number, report, "time_stats." + op + ".median (ms)", true);
            if (!ms)
                continue;
            MeasuredRow row;
            row.file = path;
            row.line = line.number;
            row.op = op;
            row.seconds = *ms * 1e-3;
            row.tokens = dims->tokens;
            row.tp = dims->tp;
            if (auto work = vidurOperatorWork(*dims, op)) {
                row.kind = work->kind;
                row.flops = work->flops;
                row.bytes = work->bytes;
                row.m = work->m;
                row.n = work->n;
                row.k = work->k;
            } else {
                row.excluded = work.error();
                if (!reported[op])
                    report.warning(line.number, fields[column].column,
                        row.excluded + "; its rows are listed, not fitted");
                reported[op] = true;
            }
            result.rows.push_back(std::move(row));
        }
    });
    return result;
}

MeasuredReadResult readVidurCollectiveCsv(std::string_view text, const std::string &path)
{
    MeasuredReadResult result;
    Reporter report(path, result);
    const auto table
        = openVidurCsv(text, "Vidur's collective CSV", { "num_workers", "size", "collective" },
            "Vidur's collective CSV: time_stats.<collective>.median, num_workers, size, collective",
            report);
    if (!table)
        return result;
    const auto &at = table->at;
    const auto &timed = table->timed;
    if (timed.size() != 1) {
        report.error(1, 0, "expected one time_stats.<collective>.median column");
        return result;
    }
    const auto perNode = columnOf(table->header, "devices_per_node");
    std::map<std::tuple<std::string, std::int64_t, std::int64_t>, double> lastSize;
    forEachRow(*table, report, [&](const Line &line, const std::vector<Field> &fields) {
        const auto ms = number(fields[timed.front().second], line.number, report,
            "time_stats." + timed.front().first + ".median (ms)", true);
        const auto ranks = integer(fields[at[0]], line.number, report, "num_workers");
        const auto size = number(fields[at[1]], line.number, report, "size (bytes)", true);
        const auto node = perNode
            ? integer(fields[*perNode], line.number, report, "devices_per_node")
            : std::optional<std::int64_t>(0);
        if (!ms || !ranks || !size || !node)
            return;
        MeasuredRow row;
        row.file = path;
        row.line = line.number;
        row.op = std::string(fields[at[2]].text);
        row.kind = OperatorClass::Collective;
        row.seconds = *ms * 1e-3;
        row.messageBytes = *size;
        row.ranks = *ranks;
        row.ranksPerNode = std::min(*node, *ranks);
        const auto group = std::make_tuple(row.op, row.ranks, row.ranksPerNode);
        if (const auto it = lastSize.find(group); it != lastSize.end() && *size <= it->second)
            report.warning(line.number, fields[at[1]].column,
                std::string(*size == it->second ? "size repeats" : "size decreases") + " within "
                    + row.op + " on " + std::to_string(row.ranks)
                    + " ranks; kept as another measurement");
        lastSize[group] = *size;
        result.rows.push_back(std::move(row));
    });
    return result;
}

} // namespace ridgepoint
