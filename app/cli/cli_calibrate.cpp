// `ridgepoint calibrate` and `ridgepoint predict`: measured runs in, a calibrated machine out,
// and predictions of measured rows held against them (docs/MODEL.md "Calibration").
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"

#include "core/calibrate/achievable.h"
#include "core/calibrate/fit.h"
#include "core/calibrate/predict.h"
#include "core/io/file_io.h"
#include "core/io/file_write.h"
#include "core/io/formats/hardware_json.h"
#include "core/model/units.h"
#include "widgets/chart/collectivechart.h"

#include <qcustomplot.h>

namespace ridgepoint::cli {
namespace {

// Every row of the files; nullopt (after printing the errors) when a file cannot be read or
// has an error. Warnings are printed and the rows kept.
std::optional<std::vector<MeasuredRow>> readMeasuredFiles(const QStringList &files)
{
    if (files.isEmpty()) {
        err() << "expected one or more measured-runs files (Vidur CSV, nccl-tests output or the "
                 "measured-operator CSV)"
              << Qt::endl;
        return std::nullopt;
    }
    std::vector<MeasuredRow> rows;
    bool failed = false;
    for (const QString &file : files) {
        const std::string path = file.toStdString();
        const auto text = readTextFile(path);
        if (!text) {
            err() << QString::fromStdString(text.error()) << Qt::endl;
            failed = true;
            continue;
        }
        auto read = readMeasuredRuns(*text, path);
        printDiagnostics(read.diagnostics);
        if (hasErrors(read.diagnostics) && read.rows.empty())
            failed = true;
        for (auto &row : read.rows)
            rows.push_back(std::move(row));
    }
    if (failed)
        return std::nullopt;
    return rows;
}

// The machine and the measured rows calibrate and predict both start from; nullopt after saying
// why either cannot be had.
struct MeasuredInput {
    Hardware hardware;
    std::vector<MeasuredRow> rows;
};

std::optional<MeasuredInput> measuredInput(const MachineRequest &machine, const QStringList &files)
{
    auto hardware = machine.machine();
    if (!hardware)
        return std::nullopt;
    auto rows = readMeasuredFiles(files);
    if (!rows)
        return std::nullopt;
    return MeasuredInput { std::move(*hardware), std::move(*rows) };
}

// What calibrate's options ask for, checked; the machine, read when it is made.
struct CalibrateRequest {
    QString output;
    CalibrateOptions options;
    MachineRequest machine;
    QStringList files;
};

// calibrate's options, in the order --help lists them.
struct CalibrateCommandOptions {
    MachineOptions machine;
    QCommandLineOption output { { "o", "output" }, "Write the calibrated machine here.",
        "OUT.json" };
    QCommandLineOption sms { "sms",
        "SMs (CUs) the GEMM tiles are spread over; without it, the machine's own count, else "
        "no tile or wave quantization.",
        "N" };
    QCommandLineOption tile { "tile",
        "One GEMM tile for the quantization; without it, per shape the cheapest of 64x64, "
        "64x128, 128x64, 128x128, 128x256 and 256x128.",
        "MxN" };
    QCommandLineOption precision { "precision",
        "The compute roof the fractions are of (default bf16).", "TYPE", "bf16" };

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<CalibrateRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<CalibrateOptions> readFit(const QCommandLineParser &parser) const;
};

void CalibrateCommandOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Fit a calibrated machine to measured runs (Vidur's operator and collective CSVs, "
        "nccl-tests output, the measured-operator CSV): per operator and class the achievable "
        "fractions of the compute and memory roofs and a floor, per collective a latency and a "
        "bus bandwidth for each message-size regime (docs/MODEL.md, Calibration).");
    machine.addTo(parser);
    parser.addPositionalArgument("FILE", "Measured runs.", "FILE...");
    parser.addOptions({ output, sms, tile, precision });
}

// --sms, --tile and --precision; nullopt (after saying why) on a bad value.
std::optional<CalibrateOptions> CalibrateCommandOptions::readFit(
    const QCommandLineParser &parser) const
{
    CalibrateOptions options;
    bool ok = true;
    if (const auto given = givenValue(parser, sms)) {
        options.sms = given->toLongLong(&ok);
        if (!ok || options.sms < 1 || options.sms > 1'000'000) {
            err() << "--sms: expected a positive whole number, got \"" << *given << "\""
                  << Qt::endl;
            return std::nullopt;
        }
    }
    if (const auto tileText = givenValue(parser, tile)) {
        const QStringList sides = tileText->split('x');
        bool okM = false;
        bool okN = false;
        if (sides.size() == 2) {
            options.tileM = sides[0].toLongLong(&okM);
            options.tileN = sides[1].toLongLong(&okN);
        }
        if (!okM || !okN || options.tileM < 1 || options.tileN < 1 || options.tileM > 4096
            || options.tileN > 4096) {
            err() << "--tile: expected MxN, two positive whole numbers up to 4096, got \""
                  << *tileText << "\"" << Qt::endl;
            return std::nullopt;
        }
    }
    const QString precisionText = parser.value(precision);
    const auto chosen = precisionFromName(precisionText.toStdString());
    if (!chosen) {
        err() << "--precision: expected fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8 or int4, "
                 "got \""
              << precisionText << "\"" << Qt::endl;
        return std::nullopt;
    }
    options.precision = *chosen;
    return options;
}

std::optional<CalibrateRequest> CalibrateCommandOptions::read(
    const QCommandLineParser &parser) const
{
    CalibrateRequest request;
    request.output = parser.value(output);
    if (request.output.isEmpty()) {
        err() << "calibrate: -o OUT.json is required" << Qt::endl;
        return std::nullopt;
    }
    if (const QString problem = outputProblem(request.output); !problem.isEmpty()) {
        err() << "calibrate: " << problem << Qt::endl;
        return std::nullopt;
    }
    const auto fit = readFit(parser);
    if (!fit)
        return std::nullopt;
    request.options = *fit;
    request.machine = machine.read(parser);
    request.files = parser.positionalArguments();
    return request;
}

// What predict's options ask for; the machine is read when it is made.
struct PredictRequest {
    MachineRequest machine;
    QStringList files;
    bool json = false;
    QString chart; // empty: none
};

// predict's options, in the order --help lists them.
struct PredictOptions {
    MachineOptions machine;
    QCommandLineOption json { "json",
        "Print {\"rows\": [...], \"summary\": {...}}, seconds in SI units." };
    QCommandLineOption chart { "chart",
        "Also draw each collective layout on its link roof as a PNG: bus bandwidth against "
        "message size, the measured rows, the calibrated curve, the latency floor and the size "
        "where bandwidth takes over (docs/MODEL.md 15.8).",
        "OUT.png" };

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            "Predict each measured row with a calibrated machine (from 'calibrate'), next to the "
            "plain roofline's time and the measured one, with the median and p90 absolute "
            "relative error of both.");
        machine.addTo(parser);
        parser.addPositionalArgument("FILE", "Measured runs.", "FILE...");
        parser.addOption(json);
        parser.addOption(chart);
    }
    [[nodiscard]] std::optional<PredictRequest> read(const QCommandLineParser &parser) const
    {
        return PredictRequest { machine.read(parser), parser.positionalArguments(),
            parser.isSet(json), parser.value(chart) };
    }
};

void printCalibration(const Calibration &calibration)
{
    out() << "rows used " << calibration.rowsUsed << ", left out " << calibration.rowsLeftOut
          << "; fit error median " << QString::number(calibration.error.median * 100.0, 'f', 1)
          << " %, p90 " << QString::number(calibration.error.p90 * 100.0, 'f', 1) << " %\n";
    for (const auto *list : { &calibration.operators, &calibration.classes }) {
        for (const KernelFit &fit : *list) {
            out() << "  " << QString::fromStdString(fit.name).leftJustified(26) << " "
                  << QString::fromUtf8(operatorClassName(fit.kind).data()).leftJustified(12)
                  << " compute " << QString::number(fit.computeFraction, 'f', 3) << "  memory "
                  << QString::number(fit.memoryFraction, 'f', 3) << "  floor "
                  << QString::number(fit.floorSeconds * 1e6, 'f', 2) << " us";
            if (fit.operandCost > 0.0)
                out() << "  operand cost " << QString::number(fit.operandCost, 'f', 1) << " FLOP/B";
            if (fit.overlapLoss > 0.0)
                out() << "  overlap loss " << QString::number(fit.overlapLoss, 'g', 2);
            out() << "\n";
        }
    }
    for (const CollectiveFit &fit : calibration.collectives) {
        out() << "  " << QString::fromStdString(fit.collective) << " on " << fit.ranks << " ranks ("
              << fit.ranksPerNode << " per node):";
        for (const CollectiveRegime &regime : fit.regimes) {
            // The sizes in whole bytes, as the files give them (not 8.58993e+09).
            out() << " [" << QString::number(regime.fromBytes, 'f', 0) << "-"
                  << QString::number(regime.toBytes, 'f', 0)
                  << " B: " << QString::number(regime.latencySeconds * 1e6, 'f', 2) << " us, "
                  << (regime.busBandwidth ? QString::number(*regime.busBandwidth / 1e9, 'f', 1)
                                          : QString("-"))
                  << " GB/s";
            // Where this regime's bandwidth takes over from its latency (MODEL §15.3).
            if (const auto half = halfBandwidthBytes(fit, regime))
                out() << ", n1/2 "
                      << QString::fromStdString(formatQuantity(*half, Dimension::Bytes, 3));
            out() << "]";
        }
        out() << "\n";
    }
    out().flush();
}

// The collectives on their link roof (widgets/chart/collectivechart.h), 1600×1000 PNG.
int writeCollectiveChart(
    const QString &path, const Hardware &hardware, const std::vector<MeasuredRow> &rows)
{
    QCustomPlot plot;
    plot.resize(1600, 1000);
    const QStringList drawn = chart::drawCollectiveChart(plot, hardware, rows);
    if (drawn.isEmpty()) {
        err() << "--chart: " << QString::fromStdString(hardware.name)
              << " has no collective fit for these rows (calibrate it on collective runs)"
              << Qt::endl;
        return kExitBadInput;
    }
    if (!plot.savePng(path, 1600, 1000)) {
        err() << "--chart: cannot write " << path << Qt::endl;
        return kExitBadInput;
    }
    for (const QString &line : drawn)
        out() << line << "\n";
    out() << "wrote " << path << Qt::endl;
    return kExitOk;
}

} // namespace

int runCalibrate(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(CalibrateCommandOptions(), arguments, status);
    if (!request)
        return status;
    auto input = measuredInput(request->machine, request->files);
    if (!input)
        return kExitBadInput;
    Hardware &hardware = input->hardware;
    auto calibration = calibrate(input->rows, hardware, request->options);
    if (!calibration) {
        err() << "calibrate: " << QString::fromStdString(calibration.error()) << Qt::endl;
        return kExitBadInput;
    }
    hardware.calibration = std::move(*calibration);
    const auto written
        = writeOutputFile(request->output.toStdString(), writeHardwareJson(hardware));
    if (!written) {
        err() << "calibrate: " << QString::fromStdString(written.error()) << Qt::endl;
        return kExitFailure;
    }
    printCalibration(*hardware.calibration);
    return kExitOk;
}

int runPredict(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(PredictOptions(), arguments, status);
    if (!request)
        return status;
    const auto input = measuredInput(request->machine, request->files);
    if (!input)
        return kExitBadInput;
    const Predictions predictions = predictRows(input->rows, input->hardware);
    out() << QString::fromStdString(
        request->json ? predictionsJson(predictions) : predictionsTable(predictions));
    out().flush();
    if (!request->chart.isEmpty())
        return writeCollectiveChart(request->chart, input->hardware, input->rows);
    return kExitOk;
}

} // namespace ridgepoint::cli
