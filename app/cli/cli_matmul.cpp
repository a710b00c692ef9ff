// `ridgepoint matmul`: a planned matmul X[B,D]·Y[D,F] (tiled, sharded, quantized) on a machine's
// roofline, or a sweep of one of its parameters.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_workload_options.h"

#include "core/model/units.h"
#include "core/report/workload_report.h"
#include "core/workloads/workloads.h"

namespace ridgepoint::cli {
namespace {

void addMatmulOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        "Place a planned matmul X[B,D]·Y[D,F] on a machine's roofline (docs/MODEL.md sections "
        "5.2-5.4 and 6): FLOPs 2BDF, bytes of every tensor, intensity, bound, and the exact "
        "critical batch next to the large-D approximation.");
    addHardwareOptions(parser);
    parser.addOption({ "b", "Batch (rows of X).", "B" });
    parser.addOption({ "d", "Contracted dimension.", "D" });
    parser.addOption({ "f", "Columns of Y.", "F" });
    parser.addOption({ "dtype", "Element type: bf16 (default), fp16, fp32, fp8, int8.", "type" });
    parser.addOption({ "quant", quantOptionHelp("Quantization:"), "mode" });
    parser.addOption({ "tile", "Tile sizes for the tiled byte count (section 4.4).", "BM,BK,BN" });
    parser.addOption(
        { "shards", "Chips sharing D (section 4.3); partial sums cross the network.", "N" });
    parser.addOption(
        { "network", "Network ceiling or level (ICI, NVLink, PCIe) for --shards.", "name" });
    parser.addOption(
        { "network-bandwidth", "Bandwidth of the network link, e.g. 45 GB/s.", "B/s" });
    parser.addOption(
        { "sweep", "Sweep a parameter (b, d, f, shards, tile): PARAM=A:B[:xK|:+K].", "spec" });
    parser.addOption({ "json", "Print one JSON object (numbers in SI base units)." });
}

// --b, --d, --f (each unless swept), --dtype and --quant; nullopt (after saying why) when they
// do not describe a matmul.
std::optional<MatmulSpec> matmulSpecFromOptions(const QCommandLineParser &parser)
{
    MatmulSpec spec;
    const QString swept = parser.value("sweep").section('=', 0, 0);
    for (const char *name : { "b", "d", "f" }) {
        if (!parser.isSet(name) && swept != name) {
            err() << "matmul needs --b, --d and --f (--" << name << " is missing)" << Qt::endl;
            return std::nullopt;
        }
    }
    if (!integerOption(parser, "b", spec.b) || !integerOption(parser, "d", spec.d)
        || !integerOption(parser, "f", spec.f))
        return std::nullopt;
    if (!precisionOption(parser, "dtype",
            { Precision::BF16, Precision::FP16, Precision::FP32, Precision::FP8, Precision::INT8 },
            spec.dtype))
        return std::nullopt;
    if (!quantOption(parser, spec.quant))
        return std::nullopt;
    return spec;
}

// --tile BM,BK,BN into `tile` (left empty when absent); false after saying why.
bool tileOption(const QCommandLineParser &parser, std::optional<TileSpec> &tile)
{
    if (!parser.isSet("tile"))
        return true;
    const QStringList parts = parser.value("tile").split(',');
    std::vector<std::int64_t> sizes;
    for (const QString &part : parts) {
        bool ok = false;
        const qlonglong v = part.trimmed().toLongLong(&ok);
        if (ok && v > 0)
            sizes.push_back(v);
    }
    if (parts.size() != 3 || sizes.size() != 3) {
        err() << "--tile: expected three positive integers BM,BK,BN, got \"" << parser.value("tile")
              << "\"" << Qt::endl;
        return false;
    }
    tile = TileSpec { sizes[0], sizes[1], sizes[2] };
    return true;
}

// --shards, --network and --network-bandwidth into `shards` (left empty when none is given);
// false after saying why.
bool shardOption(const QCommandLineParser &parser, std::optional<ShardSpec> &shards)
{
    if (!parser.isSet("shards") && !parser.isSet("network") && !parser.isSet("network-bandwidth"))
        return true;
    ShardSpec s;
    if (!integerOption(parser, "shards", s.chips))
        return false;
    s.network = parser.value("network").toStdString();
    if (parser.isSet("network-bandwidth")) {
        auto bw = parsePositiveQuantity(
            parser.value("network-bandwidth").toStdString(), Dimension::ByteRate);
        if (!bw) {
            err() << "--network-bandwidth: " << QString::fromStdString(bw.error()) << Qt::endl;
            return false;
        }
        s.networkBandwidth = *bw;
    }
    shards = s;
    return true;
}

// The planned matmul with everything the options give, before a sweep varies one parameter.
struct PlannedMatmul {
    MatmulSpec spec;
    std::optional<TileSpec> tile;
    std::optional<ShardSpec> shards;
    CeilingChoice choice;
};

int sweepMatmul(const QCommandLineParser &parser, PlannedMatmul plan, const Hardware &hardware)
{
    const auto range = sweepOption(parser, { "b", "d", "f", "shards", "tile" });
    if (!range)
        return kExitBadInput;
    if (range->parameter == "tile" && !plan.tile)
        plan.tile = TileSpec {};
    if (range->parameter == "shards" && !plan.shards)
        plan.shards = ShardSpec {};
    return runIntegerSweep(*range, hardware, parser.isSet("json"),
        [&](std::int64_t v) -> ridgepoint::Expected<AnalyzedPoint, std::string> {
            MatmulSpec s = plan.spec;
            auto t = plan.tile;
            auto n = plan.shards;
            if (range->parameter == "b")
                s.b = v;
            else if (range->parameter == "d")
                s.d = v;
            else if (range->parameter == "f")
                s.f = v;
            else if (range->parameter == "shards")
                n->chips = v;
            else
                t->bm = t->bn = v;
            auto r = modelMatmul(s, hardware, plan.choice, t, n);
            if (!r)
                return ridgepoint::Unexpected(r.error());
            return AnalyzedPoint { r->point, r->analysis };
        });
}

} // namespace

int runMatmul(const QStringList &arguments)
{
    QCommandLineParser parser;
    addMatmulOptions(parser);
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "matmul takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }
    PlannedMatmul plan;
    const auto spec = matmulSpecFromOptions(parser);
    if (!spec || !tileOption(parser, plan.tile) || !shardOption(parser, plan.shards))
        return kExitBadInput;
    plan.spec = *spec;

    auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;
    adoptPrecision(parser, *hardware, matmulDtypes(plan.spec.dtype, plan.spec.quant).compute);
    plan.choice.computeName = parser.value("compute").toStdString();
    if (parser.isSet("sweep"))
        return sweepMatmul(parser, std::move(plan), *hardware);

    auto result = modelMatmul(plan.spec, *hardware, plan.choice, plan.tile, plan.shards);
    if (!result) {
        err() << QString::fromStdString(result.error()) << Qt::endl;
        return kExitBadInput;
    }
    printText(parser.isSet("json") ? matmulJson(*result) : matmulTable(*result));
    return kExitOk;
}

} // namespace ridgepoint::cli
