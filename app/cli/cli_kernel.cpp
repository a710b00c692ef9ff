// `ridgepoint kernel`: the small planned kernels of docs/MODEL.md §5.1, §5.5 and §5.6 (dot
// product, per-example weights, Q8_0 matrix-vector), placed like measured points.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include "core/analysis/analysis.h"
#include "core/report/report.h"
#include "core/workloads/workloads.h"

namespace ridgepoint::cli {
namespace {

// "1,4096,4096" -> {1, 4096, 4096}; every number a positive integer.
std::optional<std::vector<std::int64_t>> integers(const QString &text, int count)
{
    const QStringList parts = text.split(',');
    if (parts.size() != count)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const QString &part : parts) {
        bool ok = false;
        const qlonglong value = part.trimmed().toLongLong(&ok);
        if (!ok || value < 1)
            return std::nullopt;
        out.push_back(value);
    }
    return out;
}

// The --dtype given, when it is one these kernels take; `ok` false (after saying why) when not.
bool dtypeOption(const QCommandLineParser &parser, std::optional<Precision> &dtype)
{
    if (!parser.isSet("dtype"))
        return true;
    dtype = precisionFromName(parser.value("dtype").toStdString());
    if (!dtype || *dtype == Precision::INT4 || *dtype == Precision::TF32) {
        err() << "--dtype: expected fp32, bf16, fp16, fp8 or int8, got \"" << parser.value("dtype")
              << "\"" << Qt::endl;
        return false;
    }
    return true;
}

// --q8-0 ROWS,COLS with --fma-flops; nullopt (after saying why) when they do not describe one.
std::optional<KernelPoint> q8Point(const QCommandLineParser &parser, std::optional<Precision> dtype)
{
    const auto shape = integers(parser.value("q8-0"), 2);
    if (!shape) {
        err() << "--q8-0: expected ROWS,COLS as two positive whole numbers" << Qt::endl;
        return std::nullopt;
    }
    const QString fma = parser.value("fma-flops");
    if (fma != "1" && fma != "2") {
        err() << "--fma-flops: expected 1 or 2, got \"" << fma << "\"" << Qt::endl;
        return std::nullopt;
    }
    Q8_0Spec spec;
    spec.rows = (*shape)[0];
    spec.cols = (*shape)[1];
    spec.activations = dtype.value_or(Precision::FP32);
    spec.flopsPerFma = fma.toInt();
    auto q8 = q8_0MatVecPoint(spec);
    if (!q8) {
        err() << "--q8-0: " << QString::fromStdString(q8.error()) << Qt::endl;
        return std::nullopt;
    }
    return *q8;
}

// The kernel the options name (exactly one of --dot, --per-example, --q8-0); nullopt (after
// saying why) when they do not name one.
std::optional<KernelPoint> kernelPoint(const QCommandLineParser &parser)
{
    const int chosen
        = int(parser.isSet("dot")) + int(parser.isSet("per-example")) + int(parser.isSet("q8-0"));
    if (chosen != 1) {
        err() << "kernel needs exactly one of --dot, --per-example, --q8-0" << Qt::endl;
        return std::nullopt;
    }
    std::optional<Precision> dtype;
    if (!dtypeOption(parser, dtype))
        return std::nullopt;
    if (parser.isSet("dot")) {
        const auto n = integers(parser.value("dot"), 1);
        if (!n) {
            err() << "--dot: expected a positive whole number of elements" << Qt::endl;
            return std::nullopt;
        }
        return dotProductPoint(n->front(), dtype.value_or(Precision::BF16));
    }
    if (parser.isSet("per-example")) {
        const auto bdf = integers(parser.value("per-example"), 3);
        if (!bdf) {
            err() << "--per-example: expected B,D,F as three positive whole numbers" << Qt::endl;
            return std::nullopt;
        }
        return perExampleWeightsPoint(
            (*bdf)[0], (*bdf)[1], (*bdf)[2], dtype.value_or(Precision::BF16));
    }
    return q8Point(parser, dtype);
}

void addKernelOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        "Place a small planned kernel on a machine's roofline: a dot product, a matmul with "
        "per-example weights or a Q8_0 matrix-vector product (docs/MODEL.md section 5). Output "
        "as in 'analyze'.");
    addHardwareOptions(parser);
    parser.addOption({ "dot", "Dot product of two vectors of N elements.", "N" });
    parser.addOption(
        { "per-example", "X[B,D]·Y[B,D,F] with one weight matrix per example.", "B,D,F" });
    parser.addOption({ "q8-0", "Q8_0 matrix-vector product W[ROWS,COLS]·x.", "ROWS,COLS" });
    parser.addOption({ "dtype",
        "Element type of dot/per-example (default bf16), or of Q8_0's "
        "activations (default fp32).",
        "fp32|bf16|fp16|fp8|int8" });
    parser.addOption({ "fma-flops",
        "FLOPs an FMA counts as in Q8_0: 2 (this program's convention) or 1 (32 FLOPs per "
        "34-byte block, as some Q8_0 analyses count; docs/MODEL.md section 7).",
        "2|1", "2" });
    parser.addOption({ "json", "Print one JSON object, as 'analyze --json'." });
}

} // namespace

int runKernel(const QStringList &arguments)
{
    QCommandLineParser parser;
    addKernelOptions(parser);
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    const auto point = kernelPoint(parser);
    if (!point)
        return kExitBadInput;

    auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;
    const AnalysisOptions options = analysisOptionsFromOptions(parser, *hardware);
    auto analysis = analyzePoint(*point, *hardware, options);
    if (!analysis) {
        err() << QString::fromStdString(analysis.error()) << Qt::endl;
        return kExitBadInput;
    }
    const std::vector<AnalyzedPoint> analysed { { *point, *analysis } };
    const std::string text = parser.isSet("json") ? analysisJson(*hardware, analysed)
                                                  : analysisTable(*hardware, analysed);
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace ridgepoint::cli
