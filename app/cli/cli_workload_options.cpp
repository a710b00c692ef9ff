#include "app/cli/cli_workload_options.h"

#include "core/model/checked_int.h"

#include "app/cli/cli.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"

#include "core/report/workload_report.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::cli {
namespace {

bool fail(const QString &message)
{
    err() << message << Qt::endl;
    return false;
}

} // namespace

void printText(const std::string &text)
{
    out() << QString::fromStdString(text);
    out().flush();
}

bool positiveInteger(
    const QString &option, const std::optional<QString> &given, std::int64_t &value)
{
    if (!given)
        return true;
    bool ok = false;
    const qlonglong parsed = given->toLongLong(&ok);
    if (!ok || parsed < 1)
        return fail(option + ": expected a positive integer, got \"" + *given + "\"");
    value = parsed;
    return true;
}

bool integerOption(
    const QCommandLineParser &parser, const QCommandLineOption &option, std::int64_t &value)
{
    return positiveInteger(dashed(option), givenValue(parser, option), value);
}

bool precisionOption(const QCommandLineParser &parser, const QCommandLineOption &option,
    const std::vector<Precision> &allowed, Precision &value)
{
    const auto given = givenValue(parser, option);
    if (!given)
        return true;
    const auto parsed = precisionFromName(given->toStdString());
    if (parsed && std::ranges::find(allowed, *parsed) != allowed.end()) {
        value = *parsed;
        return true;
    }
    QString names;
    for (Precision p : allowed)
        names
            += (names.isEmpty() ? "" : "|") + QString::fromStdString(std::string(precisionName(p)));
    return fail(dashed(option) + ": expected " + names + ", got \"" + *given + "\"");
}

QString quantOptionHelp(const QString &lead)
{
    QString text = lead;
    for (const QuantModeInfo &info : quantModes()) {
        text += (info.mode == QuantMode::None ? " " : "; ")
            + QString::fromStdString(std::string(info.name));
        if (info.mode == QuantMode::None) {
            text += " (default)";
            continue;
        }
        text += ": " + QString::fromStdString(std::string(info.meaning));
        if (!info.alias.empty())
            text += " (also " + QString::fromStdString(std::string(info.alias)) + ")";
    }
    return text + ".";
}

bool quantOption(const QString &value, QuantMode &mode)
{
    const auto parsed = quantModeFromName(value.toStdString());
    if (!parsed)
        return fail("--quant: expected " + QString::fromStdString(quantModeChoices()) + ", got \""
            + value + "\"");
    mode = *parsed;
    return true;
}

std::optional<SweepRange> sweepOption(const QString &spec, const QStringList &parameters)
{
    auto range = parseSweep(spec.toStdString());
    if (!range) {
        fail("--sweep: " + QString::fromStdString(range.error()));
        return std::nullopt;
    }
    if (!parameters.contains(QString::fromStdString(range->parameter))) {
        fail("--sweep: unknown parameter \"" + QString::fromStdString(range->parameter)
            + "\" (one of " + parameters.join(", ") + ")");
        return std::nullopt;
    }
    return *range;
}

int runIntegerSweep(const SweepRange &range, const Hardware &hardware, bool json,
    const std::function<ridgepoint::Expected<AnalyzedPoint, std::string>(std::int64_t)> &model)
{
    auto values = sweepValues(range);
    if (!values) {
        fail("--sweep: " + QString::fromStdString(values.error()));
        return kExitBadInput;
    }
    std::vector<double> rounded;
    for (double v : *values) {
        const double r = std::round(v);
        // Checked before any model sees it: 2^63 cast to int64 is undefined behaviour.
        if (!toCount(r)) {
            fail("--sweep: " + QString::fromStdString(range.parameter) + " = "
                + QString::number(r, 'g', 17)
                + " does not fit a 64-bit count (the largest is 9223372036854775807)");
            return kExitBadInput;
        }
        if (rounded.empty() || rounded.back() != r)
            rounded.push_back(r);
    }
    auto result = runSweep(
        range.parameter, rounded, [&](double v) { return model(toCount(v).value_or(1)); });
    if (!result) {
        fail(QString::fromStdString(result.error()));
        return kExitBadInput;
    }
    printText(json ? sweepJson(hardware, *result) : sweepTable(*result));
    return kExitOk;
}

} // namespace ridgepoint::cli
