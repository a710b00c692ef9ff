// `ridgepoint matmul`: a planned matmul X[B,D]·Y[D,F] (tiled, sharded, quantized) on a machine's
// roofline, or a sweep of one of its parameters.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"
#include "app/cli/cli_workload_options.h"

#include "core/model/units.h"
#include "core/report/workload_report.h"
#include "core/workloads/workloads.h"

namespace ridgepoint::cli {
namespace {

// The planned matmul with everything the options give, before a sweep varies one parameter.
struct PlannedMatmul {
    MatmulSpec spec;
    std::optional<TileSpec> tile;
    std::optional<ShardSpec> shards;
    CeilingChoice choice;
};

// What matmul's options ask for: the plan, checked; the machine, read when it is made.
struct MatmulRequest {
    PlannedMatmul plan;
    MachineRequest machine;
    std::optional<QString> sweep; // PARAM=A:B[:xK|:+K]
    bool json = false;
};

// matmul's options, in the order --help lists them.
struct MatmulOptions {
    MachineOptions machine;
    QCommandLineOption b { "b", "Batch (rows of X).", "B" };
    QCommandLineOption d { "d", "Contracted dimension.", "D" };
    QCommandLineOption f { "f", "Columns of Y.", "F" };
    QCommandLineOption dtype { "dtype", "Element type: bf16 (default), fp16, fp32, fp8, int8.",
        "type" };
    QCommandLineOption quant { "quant", quantOptionHelp("Quantization:"), "mode" };
    QCommandLineOption tile { "tile", "Tile sizes for the tiled byte count (section 4.4).",
        "BM,BK,BN" };
    QCommandLineOption shards { "shards",
        "Chips sharing D (section 4.3); partial sums cross the network.", "N" };
    QCommandLineOption network { "network",
        "Network ceiling or level (ICI, NVLink, PCIe) for --shards.", "name" };
    QCommandLineOption networkBandwidth { "network-bandwidth",
        "Bandwidth of the network link, e.g. 45 GB/s.", "B/s" };
    QCommandLineOption sweep { "sweep",
        "Sweep a parameter (b, d, f, shards, tile): PARAM=A:B[:xK|:+K].", "spec" };
    QCommandLineOption json { "json", "Print one JSON object (numbers in SI base units)." };

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<MatmulRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<MatmulSpec> readSpec(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readTile(
        const QCommandLineParser &parser, std::optional<TileSpec> &out) const;
    [[nodiscard]] bool readShards(
        const QCommandLineParser &parser, std::optional<ShardSpec> &out) const;
};

void MatmulOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Place a planned matmul X[B,D]·Y[D,F] on a machine's roofline (docs/MODEL.md sections "
        "5.2-5.4 and 6): FLOPs 2BDF, bytes of every tensor, intensity, bound, and the exact "
        "critical batch next to the large-D approximation.");
    machine.addTo(parser);
    parser.addOptions(
        { b, d, f, dtype, quant, tile, shards, network, networkBandwidth, sweep, json });
}

// --b, --d, --f (each unless swept), --dtype and --quant; nullopt (after saying why) when they
// do not describe a matmul.
std::optional<MatmulSpec> MatmulOptions::readSpec(const QCommandLineParser &parser) const
{
    MatmulSpec spec;
    const QString swept = parser.value(sweep).section('=', 0, 0);
    for (const QCommandLineOption *dimension : { &b, &d, &f }) {
        const QString name = dimension->names().constFirst();
        if (!parser.isSet(*dimension) && swept != name) {
            err() << "matmul needs --b, --d and --f (--" << name << " is missing)" << Qt::endl;
            return std::nullopt;
        }
    }
    if (!integerOption(parser, b, spec.b) || !integerOption(parser, d, spec.d)
        || !integerOption(parser, f, spec.f))
        return std::nullopt;
    if (!precisionOption(parser, dtype,
            { Precision::BF16, Precision::FP16, Precision::FP32, Precision::FP8, Precision::INT8 },
            spec.dtype))
        return std::nullopt;
    if (const auto mode = givenValue(parser, quant); mode && !quantOption(*mode, spec.quant))
        return std::nullopt;
    return spec;
}

// --tile BM,BK,BN into `out` (left empty when absent); false after saying why.
bool MatmulOptions::readTile(const QCommandLineParser &parser, std::optional<TileSpec> &out) const
{
    const auto given = givenValue(parser, tile);
    if (!given)
        return true;
    const QStringList parts = given->split(',');
    std::vector<std::int64_t> sizes;
    for (const QString &part : parts) {
        bool ok = false;
        const qlonglong v = part.trimmed().toLongLong(&ok);
        if (ok && v > 0)
            sizes.push_back(v);
    }
    if (parts.size() != 3 || sizes.size() != 3) {
        err() << "--tile: expected three positive integers BM,BK,BN, got \"" << *given << "\""
              << Qt::endl;
        return false;
    }
    out = TileSpec { sizes[0], sizes[1], sizes[2] };
    return true;
}

// --shards, --network and --network-bandwidth into `out` (left empty when none is given);
// false after saying why.
bool MatmulOptions::readShards(
    const QCommandLineParser &parser, std::optional<ShardSpec> &out) const
{
    const auto bandwidth = givenValue(parser, networkBandwidth);
    if (!parser.isSet(shards) && !parser.isSet(network) && !bandwidth)
        return true;
    ShardSpec s;
    if (!integerOption(parser, shards, s.chips))
        return false;
    s.network = parser.value(network).toStdString();
    if (bandwidth) {
        auto bw = parsePositiveQuantity(bandwidth->toStdString(), Dimension::ByteRate);
        if (!bw) {
            err() << "--network-bandwidth: " << QString::fromStdString(bw.error()) << Qt::endl;
            return false;
        }
        s.networkBandwidth = *bw;
    }
    out = s;
    return true;
}

std::optional<MatmulRequest> MatmulOptions::read(const QCommandLineParser &parser) const
{
    if (!parser.positionalArguments().isEmpty()) {
        err() << "matmul takes no file arguments" << Qt::endl;
        return std::nullopt;
    }
    MatmulRequest request;
    const auto spec = readSpec(parser);
    if (!spec || !readTile(parser, request.plan.tile) || !readShards(parser, request.plan.shards))
        return std::nullopt;
    request.plan.spec = *spec;
    request.machine = machine.read(parser);
    request.sweep = givenValue(parser, sweep);
    request.json = parser.isSet(json);
    return request;
}

int sweepMatmul(const QString &spec, bool json, PlannedMatmul plan, const Hardware &hardware)
{
    const auto range = sweepOption(spec, { "b", "d", "f", "shards", "tile" });
    if (!range)
        return kExitBadInput;
    if (range->parameter == "tile" && !plan.tile)
        plan.tile = TileSpec {};
    if (range->parameter == "shards" && !plan.shards)
        plan.shards = ShardSpec {};
    return runIntegerSweep(*range, hardware, json,
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
    int status = kExitOk;
    auto request = parseRequest(MatmulOptions(), arguments, status);
    if (!request)
        return status;
    PlannedMatmul &plan = request->plan;

    auto hardware = request->machine.machine();
    if (!hardware)
        return kExitBadInput;
    request->machine.adoptPrecision(
        *hardware, matmulDtypes(plan.spec.dtype, plan.spec.quant).compute);
    plan.choice.computeName = request->machine.computeName();
    if (request->sweep)
        return sweepMatmul(*request->sweep, request->json, std::move(plan), *hardware);

    auto result = modelMatmul(plan.spec, *hardware, plan.choice, plan.tile, plan.shards);
    if (!result) {
        err() << QString::fromStdString(result.error()) << Qt::endl;
        return kExitBadInput;
    }
    printText(request->json ? matmulJson(*result) : matmulTable(*result));
    return kExitOk;
}

} // namespace ridgepoint::cli
