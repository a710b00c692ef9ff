// nccl-tests output (docs/FORMATS.md "Measured runs"): the comment header with the ranks, the
// column header, one row per message size with out-of-place and in-place time, algbw, busbw and
// #wrong.
#include "core/calibrate/measured.h"
#include "core/calibrate/measured_text.h"

#include "core/io/text.h"

#include <algorithm>
#include <array>
#include <set>

namespace ridgepoint {
namespace {

using namespace measured_text;

// The collective a file's name or command line names: "all_reduce_perf" -> "all_reduce".
std::string collectiveNamed(std::string_view text)
{
    static constexpr std::array<std::array<std::string_view, 2>, 5> kNames { {
        { "all_reduce", "all_reduce" },
        { "all_gather", "all_gather" },
        { "reduce_scatter", "reduce_scatter" },
        { "sendrecv", "send_recv" },
        { "alltoall", "all_to_all" },
    } };
    for (const auto &[binary, name] : kNames) {
        if (text.find(std::string(binary) + "_perf") != std::string_view::npos)
            return std::string(name);
    }
    return {};
}

struct Columns {
    std::size_t size = 0, time = 0, wrong = 0, inPlaceWrong = 0, count = 0;
};

// Where size, the first time and both #wrong sit in a data row (the header less its '#').
std::optional<Columns> columnsOf(const std::vector<Field> &header)
{
    Columns at;
    std::vector<std::size_t> times;
    std::vector<std::size_t> wrongs;
    bool haveSize = false;
    for (std::size_t i = 1; i < header.size(); ++i) {
        const std::string_view name = header[i].text;
        if (name == "size") {
            at.size = i - 1;
            haveSize = true;
        } else if (name == "time") {
            times.push_back(i - 1);
        } else if (name == "#wrong") {
            wrongs.push_back(i - 1);
        }
    }
    if (!haveSize || times.empty() || wrongs.empty())
        return std::nullopt;
    at.time = times.front();
    at.wrong = wrongs.front();
    at.inPlaceWrong = wrongs.back();
    at.count = header.size() - 1;
    return at;
}

// Ranks from the "#  Rank  n Group ... on HOST device ..." lines; ranks per node from the hosts.
void countRanks(std::string_view line, std::int64_t &ranks, std::set<std::string> &hosts)
{
    const auto fields = splitBlanks(line);
    if (fields.size() < 3 || fields[0].text != "#" || fields[1].text != "Rank")
        return;
    ++ranks;
    for (std::size_t i = 2; i + 1 < fields.size(); ++i) {
        if (fields[i].text == "on") {
            hosts.insert(std::string(fields[i + 1].text));
            break;
        }
    }
}

// "0" and "N/A" (validation off) are fine; anything else is the count of wrong elements.
std::string wrongProblem(const Field &field)
{
    if (field.text == "0" || field.text == "N/A")
        return {};
    return "#wrong = " + std::string(field.text)
        + " (nccl-tests found wrong results): left out of the fit";
}

struct State {
    std::string collective;
    std::int64_t ranks = 0;
    std::set<std::string> hosts;
    std::optional<Columns> columns;
    double lastSize = -1.0;
};

void readRow(const Line &line, const std::string &path, State &state, Reporter &report,
    MeasuredReadResult &result)
{
    const auto fields = splitBlanks(line.text);
    const Columns &at = *state.columns;
    if (fields.size() != at.count) {
        report.error(line.number, 0,
            "expected " + std::to_string(at.count) + " columns as the header has, found "
                + std::to_string(fields.size()));
        return;
    }
    const auto size = number(fields[at.size], line.number, report, "size (B)", true);
    const auto us = number(fields[at.time], line.number, report, "out-of-place time (us)", true);
    if (!size || !us)
        return;
    MeasuredRow row;
    row.file = path;
    row.line = line.number;
    row.op = state.collective;
    row.kind = OperatorClass::Collective;
    row.seconds = *us * 1e-6;
    row.messageBytes = *size;
    row.ranks = state.ranks;
    row.ranksPerNode = state.hosts.empty()
        ? state.ranks
        : state.ranks / static_cast<std::int64_t>(state.hosts.size());
    for (const std::size_t column : { at.wrong, at.inPlaceWrong }) {
        if (row.excluded.empty())
            row.excluded = wrongProblem(fields[column]);
    }
    if (!row.excluded.empty())
        report.warning(line.number, fields[at.wrong].column, row.excluded);
    if (*size <= state.lastSize) {
        row.excluded = std::string(*size == state.lastSize ? "a repeated" : "a decreasing")
            + " message size (nccl-tests prints each size once, in increasing order): left out "
              "of the fit";
        report.error(line.number, fields[at.size].column, row.excluded);
    }
    state.lastSize = std::max(state.lastSize, *size);
    result.rows.push_back(std::move(row));
}

} // namespace

MeasuredReadResult readNcclTests(std::string_view text, const std::string &path)
{
    MeasuredReadResult result;
    Reporter report(path, result);
    State state;
    state.collective = collectiveNamed(path);
    for (const Line &line : lines(text)) {
        const std::string_view trimmed = trim(line.text);
        if (trimmed.empty())
            continue;
        if (trimmed.front() == '#') {
            if (state.collective.empty())
                state.collective = collectiveNamed(trimmed);
            countRanks(trimmed, state.ranks, state.hosts);
            const auto fields = splitBlanks(trimmed);
            if (fields.size() > 2 && fields[1].text == "size" && !state.columns) {
                state.columns = columnsOf(fields);
                if (!state.columns)
                    report.error(line.number, 0,
                        "a column header without size, time and #wrong (expected nccl-tests "
                        "output)");
            }
            continue;
        }
        if (!state.columns) {
            report.warning(line.number, 0, "not a result row (before the column header); skipped");
            continue;
        }
        if (trimmed.front() < '0' || trimmed.front() > '9') {
            report.warning(line.number, 0, "not a result row; skipped");
            continue;
        }
        if (state.collective.empty()) {
            report.error(line.number, 0,
                "which collective is this? Name the file after the nccl-tests program "
                "(all_reduce_perf, all_gather_perf, reduce_scatter_perf, sendrecv_perf, "
                "alltoall_perf)");
            return result;
        }
        if (state.ranks < 1) {
            report.error(line.number, 0, "no \"# Rank\" lines before the results: ranks unknown");
            return result;
        }
        readRow(line, path, state, report, result);
    }
    if (!state.columns)
        report.error(
            0, 0, "no column header \"# size count type ...\" (expected nccl-tests output)");
    return result;
}

} // namespace ridgepoint
