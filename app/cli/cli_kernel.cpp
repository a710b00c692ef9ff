// `ridgepoint kernel`: the small planned kernels of docs/MODEL.md §5.1, §5.5 and §5.6 (dot
// product, per-example weights, Q8_0 matrix-vector), placed like measured points.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"

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

// What kernel's options ask for: the kernel, checked; the machine, read when it is made.
struct KernelRequest {
    KernelPoint point;
    MachineRequest machine;
    bool json = false;
};

// kernel's options, in the order --help lists them.
struct KernelOptions {
    MachineOptions machine;
    QCommandLineOption dot { "dot", "Dot product of two vectors of N elements.", "N" };
    QCommandLineOption perExample { "per-example",
        "X[B,D]·Y[B,D,F] with one weight matrix per example.", "B,D,F" };
    QCommandLineOption q8 { "q8-0", "Q8_0 matrix-vector product W[ROWS,COLS]·x.", "ROWS,COLS" };
    QCommandLineOption dtype { "dtype",
        "Element type of dot/per-example (default bf16), or of Q8_0's "
        "activations (default fp32).",
        "fp32|bf16|fp16|fp8|int8" };
    QCommandLineOption fmaFlops { "fma-flops",
        "FLOPs an FMA counts as in Q8_0: 2 (this program's convention) or 1 (32 FLOPs per "
        "34-byte block, as some Q8_0 analyses count; docs/MODEL.md section 7).",
        "2|1", "2" };
    QCommandLineOption json { "json", "Print one JSON object, as 'analyze --json'." };

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<KernelRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readDtype(
        const QCommandLineParser &parser, std::optional<Precision> &out) const;
    [[nodiscard]] std::optional<KernelPoint> readPoint(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<KernelPoint> readQ8(
        const QCommandLineParser &parser, std::optional<Precision> type) const;
};

void KernelOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Place a small planned kernel on a machine's roofline: a dot product, a matmul with "
        "per-example weights or a Q8_0 matrix-vector product (docs/MODEL.md section 5). Output "
        "as in 'analyze'.");
    machine.addTo(parser);
    parser.addOptions({ dot, perExample, q8, dtype, fmaFlops, json });
}

// The --dtype given, when it is one these kernels take; false (after saying why) when not.
bool KernelOptions::readDtype(const QCommandLineParser &parser, std::optional<Precision> &out) const
{
    const auto given = givenValue(parser, dtype);
    if (!given)
        return true;
    out = precisionFromName(given->toStdString());
    if (!out || *out == Precision::INT4 || *out == Precision::TF32) {
        err() << "--dtype: expected fp32, bf16, fp16, fp8 or int8, got \"" << *given << "\""
              << Qt::endl;
        return false;
    }
    return true;
}

// --q8-0 ROWS,COLS with --fma-flops; nullopt (after saying why) when they do not describe one.
std::optional<KernelPoint> KernelOptions::readQ8(
    const QCommandLineParser &parser, std::optional<Precision> type) const
{
    const auto shape = integers(parser.value(q8), 2);
    if (!shape) {
        err() << "--q8-0: expected ROWS,COLS as two positive whole numbers" << Qt::endl;
        return std::nullopt;
    }
    const QString fma = parser.value(fmaFlops);
    if (fma != "1" && fma != "2") {
        err() << "--fma-flops: expected 1 or 2, got \"" << fma << "\"" << Qt::endl;
        return std::nullopt;
    }
    Q8_0Spec spec;
    spec.rows = (*shape)[0];
    spec.cols = (*shape)[1];
    spec.activations = type.value_or(Precision::FP32);
    spec.flopsPerFma = fma.toInt();
    auto point = q8_0MatVecPoint(spec);
    if (!point) {
        err() << "--q8-0: " << QString::fromStdString(point.error()) << Qt::endl;
        return std::nullopt;
    }
    return *point;
}

// The kernel the options name (exactly one of --dot, --per-example, --q8-0); nullopt (after
// saying why) when they do not name one.
std::optional<KernelPoint> KernelOptions::readPoint(const QCommandLineParser &parser) const
{
    const auto dotGiven = givenValue(parser, dot);
    const auto perExampleGiven = givenValue(parser, perExample);
    const int chosen
        = int(dotGiven.has_value()) + int(perExampleGiven.has_value()) + int(parser.isSet(q8));
    if (chosen != 1) {
        err() << "kernel needs exactly one of --dot, --per-example, --q8-0" << Qt::endl;
        return std::nullopt;
    }
    std::optional<Precision> type;
    if (!readDtype(parser, type))
        return std::nullopt;
    if (dotGiven) {
        const auto n = integers(*dotGiven, 1);
        if (!n) {
            err() << "--dot: expected a positive whole number of elements" << Qt::endl;
            return std::nullopt;
        }
        return dotProductPoint(n->front(), type.value_or(Precision::BF16));
    }
    if (perExampleGiven) {
        const auto bdf = integers(*perExampleGiven, 3);
        if (!bdf) {
            err() << "--per-example: expected B,D,F as three positive whole numbers" << Qt::endl;
            return std::nullopt;
        }
        return perExampleWeightsPoint(
            (*bdf)[0], (*bdf)[1], (*bdf)[2], type.value_or(Precision::BF16));
    }
    return readQ8(parser, type);
}

std::optional<KernelRequest> KernelOptions::read(const QCommandLineParser &parser) const
{
    auto point = readPoint(parser);
    if (!point)
        return std::nullopt;
    return KernelRequest { std::move(*point), machine.read(parser), parser.isSet(json) };
}

} // namespace

int runKernel(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(KernelOptions(), arguments, status);
    if (!request)
        return status;
    const KernelPoint &point = request->point;

    auto hardware = request->machine.machine();
    if (!hardware)
        return kExitBadInput;
    const AnalysisOptions options = request->machine.analysisOptions(*hardware);
    auto analysis = analyzePoint(point, *hardware, options);
    if (!analysis) {
        err() << QString::fromStdString(analysis.error()) << Qt::endl;
        return kExitBadInput;
    }
    const std::vector<AnalyzedPoint> analysed { { point, *analysis } };
    const std::string text
        = request->json ? analysisJson(*hardware, analysed) : analysisTable(*hardware, analysed);
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace ridgepoint::cli
