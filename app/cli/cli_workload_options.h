// The options the workload commands (`matmul`, `llm`) share: positive integers, precisions, the
// precision a one-ceiling machine stands for, and --sweep PARAM=A:B[:xSTEP] over an integer
// parameter.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"
#include "core/workloads/quant_modes.h"
#include "core/workloads/sweep.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::cli {

// Writes `text` to stdout as it is.
void printText(const std::string &text);

// A positive integer given to `option` ("--seq") into `value` (left alone when absent); false
// after saying why.
[[nodiscard]] bool positiveInteger(
    const QString &option, const std::optional<QString> &given, std::int64_t &value);
// The same, read from the parser.
[[nodiscard]] bool integerOption(
    const QCommandLineParser &parser, const QCommandLineOption &option, std::int64_t &value);

// A precision among `allowed` into `value` (left alone when absent); false after saying why.
[[nodiscard]] bool precisionOption(const QCommandLineParser &parser,
    const QCommandLineOption &option, const std::vector<Precision> &allowed, Precision &value);

// --quant's help after `lead`, every mode with its meaning from the one table
// (core/workloads/workloads.h: quantModes): "none (default); int8: int8 weights and …".
QString quantOptionHelp(const QString &lead);
// The --quant given (`value`) into `mode`; false after saying why it is not a mode.
[[nodiscard]] bool quantOption(const QString &value, QuantMode &mode);

// --sweep `spec` over one of `parameters`; nullopt (after saying why) when it is not one.
std::optional<SweepRange> sweepOption(const QString &spec, const QStringList &parameters);

// Sweeps an integer parameter: values are rounded and repeats dropped; prints the sweep (as JSON
// with `json`) and returns the exit status.
int runIntegerSweep(const SweepRange &range, const Hardware &hardware, bool json,
    const std::function<ridgepoint::Expected<AnalyzedPoint, std::string>(std::int64_t)> &model);

} // namespace ridgepoint::cli
