// The plain measured-operator CSV (docs/FORMATS.md "Measured runs"), the class names, and the
// reader that tells the measured-runs formats apart.
#include "core/calibrate/measured.h"
#include "core/calibrate/measured_text.h"

#include "core/io/text.h"
#include "core/workloads/workloads.h"

#include <algorithm>
#include <array>

namespace ridgepoint {
namespace {

using namespace measured_text;

constexpr std::array<std::string_view, 4> kClassNames { "gemm", "attention", "elementwise",
    "collective" };

struct PlainColumns {
    std::size_t op = 0, kind = 0, dtype = 0, seconds = 0;
    std::optional<std::size_t> m, n, k, flops, bytes, tokens, tp, messageBytes, ranks, perNode;
};

std::optional<PlainColumns> plainColumns(const std::vector<Field> &header, Reporter &report)
{
    PlainColumns at;
    const std::array<std::pair<std::string_view, std::size_t *>, 4> required { {
        { "operator", &at.op },
        { "kind", &at.kind },
        { "dtype", &at.dtype },
        { "seconds", &at.seconds },
    } };
    for (const auto &[name, target] : required) {
        const auto column = columnOf(header, name);
        if (!column) {
            report.error(1, 0,
                "missing column \"" + std::string(name)
                    + "\" (expected operator, kind, dtype, seconds and the kind's dimensions)");
            return std::nullopt;
        }
        *target = *column;
    }
    at.m = columnOf(header, "m");
    at.n = columnOf(header, "n");
    at.k = columnOf(header, "k");
    at.flops = columnOf(header, "flops");
    at.bytes = columnOf(header, "bytes");
    at.tokens = columnOf(header, "tokens");
    at.tp = columnOf(header, "tp");
    at.messageBytes = columnOf(header, "message_bytes");
    at.ranks = columnOf(header, "ranks");
    at.perNode = columnOf(header, "ranks_per_node");
    return at;
}

// A cell that may be empty: nullopt when it is, or the column is absent; `ok` false on an error.
std::optional<double> optionalNumber(const std::vector<Field> &fields,
    std::optional<std::size_t> column, int line, Reporter &report, std::string_view what, bool &ok)
{
    if (!column || fields[*column].text.empty())
        return std::nullopt;
    auto value = number(fields[*column], line, report, what, false);
    ok = ok && value.has_value();
    return value;
}

// The FLOPs and bytes a row's kind needs; an error when its dimensions are missing.
bool fillWork(MeasuredRow &row, const std::vector<Field> &fields, const PlainColumns &at, int line,
    Reporter &report)
{
    bool ok = true;
    const auto m = optionalNumber(fields, at.m, line, report, "m", ok);
    const auto n = optionalNumber(fields, at.n, line, report, "n", ok);
    const auto k = optionalNumber(fields, at.k, line, report, "k", ok);
    const auto flops = optionalNumber(fields, at.flops, line, report, "flops", ok);
    const auto bytes = optionalNumber(fields, at.bytes, line, report, "bytes", ok);
    const auto message = optionalNumber(fields, at.messageBytes, line, report, "message_bytes", ok);
    const auto ranks = optionalNumber(fields, at.ranks, line, report, "ranks", ok);
    const auto perNode = optionalNumber(fields, at.perNode, line, report, "ranks_per_node", ok);
    const auto tokens = optionalNumber(fields, at.tokens, line, report, "tokens", ok);
    const auto tp = optionalNumber(fields, at.tp, line, report, "tp", ok);
    if (!ok)
        return false;
    row.tokens = static_cast<std::int64_t>(tokens.value_or(0.0));
    row.tp = static_cast<std::int64_t>(tp.value_or(0.0));
    if (row.kind == OperatorClass::Collective) {
        if (!message || !ranks || *message <= 0.0 || *ranks < 1.0) {
            report.error(line, 0, "a collective needs message_bytes and ranks (positive)");
            return false;
        }
        row.messageBytes = *message;
        row.ranks = static_cast<std::int64_t>(*ranks);
        row.ranksPerNode = static_cast<std::int64_t>(perNode.value_or(*ranks));
        return true;
    }
    const double size = bytesPerElement(row.dtype);
    if (row.kind == OperatorClass::Gemm) {
        if (!m || !n || !k || *m < 1.0 || *n < 1.0 || *k < 1.0) {
            report.error(line, 0, "a gemm needs m, n and k (positive whole numbers)");
            return false;
        }
        row.m = static_cast<std::int64_t>(*m);
        row.n = static_cast<std::int64_t>(*n);
        row.k = static_cast<std::int64_t>(*k);
        row.flops = flops.value_or(2.0 * *m * *n * *k);
        row.bytes = bytes.value_or((*m * *k + *k * *n + *m * *n) * size);
        return true;
    }
    if (!flops || !bytes || *bytes <= 0.0) {
        report.error(line, 0,
            "an " + std::string(operatorClassName(row.kind))
                + " row needs flops and bytes (bytes positive)");
        return false;
    }
    row.flops = *flops;
    row.bytes = *bytes;
    return true;
}

} // namespace

std::string_view operatorClassName(OperatorClass kind)
{
    return kClassNames[static_cast<std::size_t>(kind)];
}

std::optional<OperatorClass> operatorClassFromName(std::string_view name)
{
    const std::string lower = asciiLower(name);
    for (std::size_t i = 0; i < kClassNames.size(); ++i) {
        if (lower == kClassNames[i])
            return static_cast<OperatorClass>(i);
    }
    return std::nullopt;
}

double busBytesFactor(std::string_view collective, std::int64_t ranks)
{
    const double n = static_cast<double>(std::max<std::int64_t>(ranks, 1));
    if (collective == "all_reduce")
        return 2.0 * (n - 1.0) / n;
    if (collective == "all_gather" || collective == "reduce_scatter" || collective == "all_to_all")
        return (n - 1.0) / n;
    return 1.0;
}

MeasuredReadResult readMeasuredCsv(std::string_view text, const std::string &path)
{
    MeasuredReadResult result;
    Reporter report(path, result);
    const auto all = lines(text);
    std::size_t first = 0;
    while (
        first < all.size() && (trim(all[first].text).empty() || all[first].text.starts_with('#')))
        ++first;
    if (first == all.size()) {
        report.error(0, 0, "no header (expected operator, kind, dtype, seconds, ...)");
        return result;
    }
    const auto header = splitCsv(all[first].text);
    const auto at = plainColumns(header, report);
    if (!at)
        return result;
    for (std::size_t i = first + 1; i < all.size(); ++i) {
        const Line &line = all[i];
        if (trim(line.text).empty() || line.text.starts_with('#'))
            continue;
        const auto fields = splitCsv(line.text);
        if (fields.size() != header.size()) {
            report.error(line.number, 0,
                "expected " + std::to_string(header.size()) + " fields as the header has, found "
                    + std::to_string(fields.size()));
            continue;
        }
        MeasuredRow row;
        row.file = path;
        row.line = line.number;
        row.op = std::string(fields[at->op].text);
        const auto kind = operatorClassFromName(fields[at->kind].text);
        const auto dtype = precisionFromName(fields[at->dtype].text);
        if (!kind)
            report.error(line.number, fields[at->kind].column,
                "kind: expected gemm, attention, elementwise or collective, found \""
                    + std::string(fields[at->kind].text) + "\"");
        if (!dtype)
            report.error(line.number, fields[at->dtype].column,
                "dtype: expected fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8 or int4, found "
                "\"" + std::string(fields[at->dtype].text)
                    + "\"");
        const auto seconds = number(fields[at->seconds], line.number, report, "seconds", true);
        if (row.op.empty())
            report.error(line.number, fields[at->op].column, "operator: expected a name");
        if (!kind || !dtype || !seconds || row.op.empty())
            continue;
        row.kind = *kind;
        row.dtype = *dtype;
        row.seconds = *seconds;
        if (fillWork(row, fields, *at, line.number, report))
            result.rows.push_back(std::move(row));
    }
    return result;
}

std::optional<MeasuredFormat> measuredFormatOf(std::string_view text)
{
    text = withoutBom(text);
    if (text.find("#wrong") != std::string_view::npos)
        return MeasuredFormat::NcclTests;
    std::string_view head;
    for (const auto &line : measured_text::lines(text)) {
        head = trim(line.text);
        if (!head.empty() && !head.starts_with('#'))
            break;
    }
    if (head.find("time_stats.") != std::string_view::npos)
        return head.find("num_tokens") != std::string_view::npos ? MeasuredFormat::VidurOperators
                                                                 : MeasuredFormat::VidurCollectives;
    if (head.find("operator") != std::string_view::npos)
        return MeasuredFormat::MeasuredCsv;
    return std::nullopt;
}

MeasuredReadResult readMeasuredRuns(std::string_view text, const std::string &path)
{
    text = withoutBom(text);
    if (const auto format = measuredFormatOf(text)) {
        switch (*format) {
        case MeasuredFormat::NcclTests:
            return readNcclTests(text, path);
        case MeasuredFormat::VidurOperators:
            return readVidurOperatorCsv(text, path);
        case MeasuredFormat::VidurCollectives:
            return readVidurCollectiveCsv(text, path);
        case MeasuredFormat::MeasuredCsv:
            return readMeasuredCsv(text, path);
        }
    }
    MeasuredReadResult result;
    result.diagnostics.push_back({ Severity::Error, path, 1, 0,
        "not a measured-runs file (expected Vidur's operator or collective CSV, nccl-tests "
        "output or the measured-operator CSV: docs/FORMATS.md \"Measured runs\")" });
    return result;
}

} // namespace ridgepoint
