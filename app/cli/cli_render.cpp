// `ridgepoint render`: the roofline of a machine with the given kernels drawn to a PNG, SVG or
// PDF file, with the review layers; the same file as the window's Export image. In four steps:
// the options (checked before any file is read), the inputs (session, points, the machine: a
// profiler trace's own when none is named, then the baseline), the picture (a Document and its
// chart) and the file.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"
#include "app/cli/cli_options.h"
#include "core/io/formats/kineto_trace.h"
#include "core/presets/example_points.h"

#include "core/session/session.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/energychart.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/energyexport.h"
#include "widgets/export/exportlimits.h"

#include <QElapsedTimer>
#include <QFileInfo>

#include <cmath>

namespace ridgepoint::cli {
namespace {

// --timings: the milliseconds of each step on stderr (docs/PERFORMANCE.md, "render end to end").
class StepTimer
{
public:
    explicit StepTimer(bool on)
        : m_on(on)
    {
        m_timer.start();
    }
    void step(const char *name)
    {
        if (m_on)
            err() << "timing: " << name << " " << static_cast<double>(m_timer.nsecsElapsed()) / 1e6
                  << " ms" << Qt::endl;
        m_timer.start();
    }

private:
    bool m_on;
    QElapsedTimer m_timer;
};

// ---- the options ---------------------------------------------------------------------------

// What render's options ask for, every one checked before any file is read: a bad one should
// not cost a big read.
struct RenderRequest {
    QString output; // empty with --energy alone
    std::optional<QString> energy; // --energy FILE: the energy twin chart
    ExportOptions exportOptions; // all but the session
    std::optional<ChartTheme::Kind> theme; // none: the session's, else light
    std::optional<chart::PointsMode> points; // none: the session's, else auto
    std::optional<bool> dotSizeByTime; // none: the session's, else time
    std::optional<std::size_t> densityThreshold;
    std::optional<RoofsShown> roofs; // none: the session's, else data
    ReadOptions readOptions;
    MachineRequest machine; // checked once a session (with its machine) is read
    std::optional<QString> session; // --session FILE
    std::optional<QString> baseline; // --baseline FILE
    std::optional<QString> compare; // --compare NAME|FILE
    QStringList files;
    bool example = false;
    bool fit = false;
    bool embed = true; // not --no-embed
    bool timings = false;
};

// render's options, in the order --help lists them.
struct RenderOptions {
    MachineOptions machine;
    QCommandLineOption output { { "o", "output" }, "Image file to write (.png, .svg, .pdf).",
        "file" };
    QCommandLineOption energy { "energy",
        "Also (or, without -o, only) draw the energy twin chart to this image file: FLOP/J "
        "against intensity with the energy arch line (docs/MODEL.md section 14). Needs a machine "
        "with energy figures (the static power and the energies per FLOP and per byte).",
        "file" };
    QCommandLineOption session { "session",
        "Draw a session: a .ridgepoint.json file, or a PNG, SVG or PDF exported with its session "
        "embedded. Its points, what-if moves, notes, targets, baseline, view and theme are "
        "drawn; point files given as well are added. --hardware (then framed anew), "
        "--theme and --baseline replace the session's own.",
        "file" };
    QCommandLineOption baseline { "baseline",
        "A previous run (a points file): each point with the same name gets an arrow from its "
        "baseline position, labelled with the speed-up. A profiler trace pairs points by "
        "operator and shapes instead (kernel names differ between GPUs).",
        "file" };
    QCommandLineOption compare { "compare",
        "Draw a second machine's roofs, dashed, beside the first (the window's \"Compare "
        "with\"): a preset name or a hardware file. Replaces the session's own; the points "
        "are still measured against the first machine.",
        "name|file" };
    PictureSizeOptions size;
    ThemeOption theme { "light (default, or the session's), dark, or print (black on white, "
                        "thick lines, large fonts)." };
    QCommandLineOption title { "title", "A title drawn above the chart.", "text" };
    QCommandLineOption points { "points",
        "auto (default, or the session's): a density with the longest-running kernels as dots "
        "above the density threshold, dots below it; density or dots force one.",
        "auto|density|dots" };
    QCommandLineOption densityThreshold { "density-threshold",
        QString("Points above which --points auto draws a density (default %1).")
            .arg(chart::kDefaultDensityThreshold),
        "N" };
    QCommandLineOption dotSize { "dot-size",
        "time (default, or the session's): each dot's area follows its share of the total time "
        "when every point has one; fixed: one size for every dot.",
        "time|fixed" };
    QCommandLineOption table { "table",
        "Draw the points' analysis (intensity, performance, bound, limiting roof, % of roof) as "
        "a table below the chart." };
    QCommandLineOption noEmbed = noEmbedOption();
    QCommandLineOption example { "example", "Draw the built-in example data set as well." };
    QCommandLineOption fit { "fit",
        "Frame the axes around the points (the default without a session view of this "
        "machine)." };
    QCommandLineOption roofs { "roofs",
        "Compute roofs to draw: data (the points' precisions, dense; default) or all.",
        "data|all" };
    ReadOptionGroup reading;
    QCommandLineOption timings = hiddenOption("timings", "Print how long each step took (stderr).");

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<RenderRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readLook(const QCommandLineParser &parser, RenderRequest &request) const;
};

void RenderOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Draw the roofline of a machine with the given kernels to an image (PNG, SVG or PDF, "
        "chosen by the output's suffix), with the review layers (baseline arrows, notes, "
        "targets). The window's Export image writes the same file. Works without a display.");
    machine.addTo(parser);
    parser.addOptions({ output, energy, session, baseline, compare });
    size.addTo(parser);
    theme.addTo(parser);
    parser.addOptions(
        { title, points, densityThreshold, dotSize, table, noEmbed, example, fit, roofs });
    reading.addTo(parser);
    parser.addOption(timings);
    parser.addPositionalArgument("files",
        "Point files (any points format analyze reads; the profilers' with the options above, "
        "as is --baseline). Without a machine option, a file that gives only a machine is the "
        "machine (as --hardware).",
        "[FILE...]");
}

// --roofs, --points, --dot-size and --density-threshold; false after saying why one is refused.
bool RenderOptions::readLook(const QCommandLineParser &parser, RenderRequest &request) const
{
    if (const auto given = givenValue(parser, roofs)) {
        request.roofs = roofsShownFromName(given->toStdString());
        if (!request.roofs) {
            err() << "--roofs: unknown choice \"" << *given << "\" (expected data or all)"
                  << Qt::endl;
            return false;
        }
    }
    if (const auto given = givenValue(parser, points)) {
        request.points = chart::pointsModeFromKey(given->toStdString());
        if (!request.points) {
            err() << "--points: unknown mode \"" << *given << "\" (expected auto, density or dots)"
                  << Qt::endl;
            return false;
        }
    }
    if (const auto given = givenValue(parser, dotSize)) {
        if (*given != "time" && *given != "fixed") {
            err() << "--dot-size: unknown choice \"" << *given << "\" (expected time or fixed)"
                  << Qt::endl;
            return false;
        }
        request.dotSizeByTime = *given == "time";
    }
    if (const auto given = givenValue(parser, densityThreshold)) {
        bool ok = false;
        const qlonglong threshold = given->toLongLong(&ok);
        if (!ok || threshold < 0) {
            err() << "--density-threshold must be a whole number of points, 0 or more (got \""
                  << *given << "\")" << Qt::endl;
            return false;
        }
        request.densityThreshold = static_cast<std::size_t>(threshold);
    }
    return true;
}

std::optional<RenderRequest> RenderOptions::read(const QCommandLineParser &parser) const
{
    RenderRequest request;
    request.energy = givenValue(parser, energy);
    if (!parser.isSet(output) && !request.energy) {
        err() << "render needs an output file: -o roofline.png (or --energy energy.png)"
              << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet(output))
        request.output = parser.value(output);
    QString suffix;
    for (const QString &file : { request.output, request.energy.value_or(QString()) }) {
        if (file.isEmpty())
            continue;
        const QString kind = QFileInfo(file).suffix().toLower();
        if (kind != "png" && kind != "svg" && kind != "pdf") {
            err() << file << ": unknown image type \"" << kind << "\" (expected .png, .svg or .pdf)"
                  << Qt::endl;
            return std::nullopt;
        }
        if (const QString problem = outputProblem(file); !problem.isEmpty()) {
            err() << problem << Qt::endl;
            return std::nullopt;
        }
        if (suffix.isEmpty())
            suffix = kind;
    }
    const auto exportOptions = size.read(parser, suffix);
    if (!exportOptions)
        return std::nullopt;
    request.exportOptions = *exportOptions;
    bool themeOk = true;
    request.theme = theme.read(parser, themeOk);
    if (!themeOk || !readLook(parser, request))
        return std::nullopt;
    request.exportOptions.title = parser.value(title);
    request.exportOptions.table = parser.isSet(table);
    const auto readOptions = reading.read(parser);
    if (!readOptions)
        return std::nullopt;
    request.readOptions = *readOptions;
    request.machine = machine.read(parser);
    request.session = givenValue(parser, session);
    request.baseline = givenValue(parser, baseline);
    request.compare = givenValue(parser, compare);
    request.files = parser.positionalArguments();
    request.example = parser.isSet(example);
    request.fit = parser.isSet(fit);
    request.embed = !parser.isSet(noEmbed);
    request.timings = parser.isSet(timings);
    return request;
}

// ---- the inputs ----------------------------------------------------------------------------

// The session, if any, the points, the machine (named, the session's or a trace's) and baseline.
struct RenderInputs {
    std::optional<Session> session;
    Hardware hardware;
    // The session's or a trace's own machine (no --hardware): each point's precision picks its
    // compute roof, as analyze holds a trace's points.
    bool sameMachine = false;
    PointTable points; // of the files and --example
    // The first profiler trace among them: the chart names and groups its points by operator.
    std::optional<TraceSummary> trace;
    std::optional<Baseline> baseline;
    std::optional<Hardware> compare; // --compare (else the session's, if any)
};

// Without a session or a machine on the command line, a profiler trace's own (the preset of the
// device it names), else the roofs a points file brings, as analyze takes them; `fallback` is
// left empty otherwise. False after saying why when the trace names no device or an unknown one.
bool fileMachineOf(const RenderRequest &request, const std::optional<TraceSummary> &trace,
    const QString &file, std::optional<Hardware> &fallback)
{
    if (request.machine.namesMachine() || request.machine.describesMachine())
        return true;
    if (!trace) {
        for (const QString &input : request.files) {
            if ((fallback = machineWithPoints(input, request.readOptions)))
                break;
        }
        return true;
    }
    auto found = traceMachine(*trace);
    if (!found) {
        err() << file << ": " << QString::fromStdString(found.error()) << kGiveTheMachine
              << Qt::endl;
        return false;
    }
    fallback = std::move(*found);
    return true;
}

std::optional<RenderInputs> loadInputs(const RenderRequest &request)
{
    const ReadOptions &readOptions = request.readOptions;
    RenderInputs inputs;
    if (request.session) {
        inputs.session = readSession(*request.session);
        if (!inputs.session)
            return std::nullopt;
    }
    int rowErrors = 0;
    // The first profiler trace among the files names the machine when nothing else does.
    std::optional<TraceSummary> trace;
    QString traceFile;
    for (const QString &file : request.files) {
        std::optional<TraceSummary> fileTrace;
        if (!readPointsFile(file, inputs.points, rowErrors, readOptions, &fileTrace))
            return std::nullopt;
        if (fileTrace && !trace) {
            trace = std::move(fileTrace);
            traceFile = file;
        }
    }
    if (request.example) {
        for (const KernelPoint &point : examplePoints())
            inputs.points.push_back(point);
    }
    std::optional<Hardware> traceHardware;
    if (!inputs.session && !fileMachineOf(request, trace, traceFile, traceHardware))
        return std::nullopt;
    const Hardware *fallback = inputs.session ? &inputs.session->hardware
        : traceHardware                       ? &*traceHardware
                                              : nullptr;
    const auto hardware = request.machine.machine(
        fallback, readOptions, inputs.session ? inputs.session->figures : FigureChoice::Measured);
    if (!hardware)
        return std::nullopt;
    inputs.hardware = *hardware;
    inputs.sameMachine = (inputs.session || traceHardware) && !request.machine.namesMachine();
    inputs.trace = std::move(trace);
    if (request.compare) {
        inputs.compare = machineNamed(*request.compare, "--compare", readOptions);
        if (!inputs.compare)
            return std::nullopt;
    }
    if (request.baseline) {
        inputs.baseline = readBaselineFile(*request.baseline, rowErrors, readOptions);
        if (!inputs.baseline)
            return std::nullopt;
    }
    return inputs;
}

// ---- the picture ---------------------------------------------------------------------------

// What a session says about how it looks, beyond its points.
struct SessionLook {
    std::optional<ViewRange> view;
    QString theme;
    std::string pointsMode;
    std::string dotSize;
};

// The Document the window would have after opening that session, or after opening the machine
// and the points files.
SessionLook fillDocument(Document &document, RenderInputs &&inputs)
{
    SessionLook look;
    if (!inputs.session) {
        document.resetHardware(inputs.hardware);
        document.resetPoints(std::move(inputs.points));
        if (inputs.trace)
            document.setTrace(std::move(*inputs.trace));
        if (inputs.baseline)
            document.setBaseline(std::move(inputs.baseline));
        if (inputs.compare)
            document.setCompareHardware(std::move(inputs.compare));
        return look;
    }
    Session &session = *inputs.session;
    session.hardware = inputs.hardware;
    session.points.reserve(session.points.size() + inputs.points.size());
    for (std::size_t i = 0; i < inputs.points.size(); ++i) {
        SessionPoint added;
        added.point = inputs.points.at(i);
        session.points.push_back(std::move(added));
    }
    if (inputs.baseline)
        session.baseline = std::move(inputs.baseline);
    if (inputs.compare)
        session.compare = std::move(inputs.compare);
    look.view = session.view;
    look.theme = QString::fromStdString(session.theme);
    look.pointsMode = session.pointsMode;
    look.dotSize = session.dotSize;
    document.loadSession(std::move(session));
    return look;
}

// The points that cannot be placed on the machine, said on stderr.
// Returns false when there were points and none could be placed: no picture is drawn then.
// A point without a file of its own (a session's, a picture's) is named by `input`, the one input
// file when there is one.
bool reportUnplaced(const Document &document, const std::string &input)
{
    std::vector<Diagnostic> problems;
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        if (document.placement(i).placed)
            continue;
        const std::string_view file = document.pointTable().file(i);
        problems.push_back({ Severity::Error, file.empty() ? input : std::string(file),
            document.pointTable().line(i), 0, document.analysis(i).error() });
    }
    printDiagnostics(problems);
    if (document.pointCount() == 0 || problems.size() < document.pointCount())
        return true;
    err() << "no point could be placed on " << QString::fromStdString(document.hardware().name)
          << ": nothing drawn" << Qt::endl;
    return false;
}

// The chart of `document` as the window draws it: theme, review layers and axes.
void buildChart(RooflinePlot &plot, Document &document, const RenderRequest &request,
    const SessionLook &look, bool sameMachine)
{
    plot.resize(request.exportOptions.width, request.exportOptions.height);
    chart::PlotDisplay display = plot.display();
    if (request.theme)
        display.theme = ChartTheme::of(*request.theme);
    else if (const auto fromSession = themeFromName(look.theme))
        display.theme = ChartTheme::of(*fromSession);
    if (request.roofs)
        document.setRoofsShown(*request.roofs);
    // Before the points arrive: they are binned once, for the mode they are drawn in.
    if (request.points)
        display.points = *request.points;
    else if (const auto fromSession = chart::pointsModeFromKey(look.pointsMode))
        display.points = *fromSession;
    if (request.densityThreshold)
        display.densityThreshold = *request.densityThreshold;
    display.dotSizeByTime = request.dotSizeByTime.value_or(look.dotSize != "fixed");
    plot.setDisplay(display);
    plot.setDocument(&document); // frames the points (the machine without any)
    new ReviewOverlay(&plot, &document); // the plot's child: baseline arrows, notes, targets
    if (request.fit) {
        plot.fitToData();
    } else if (sameMachine && look.view) {
        plot.xAxis->setRange(look.view->xLower, look.view->xUpper);
        plot.yAxis->setRange(look.view->yLower, look.view->yUpper);
    }
}

// ---- the file ------------------------------------------------------------------------------

// Writes the picture, with the session embedded unless --no-embed; the exit status.
int writePicture(
    const Document &document, RooflinePlot &plot, RenderRequest &request, StepTimer &timer)
{
    if (request.embed) {
        // As the picture shows it (view and theme included); empty when it would pass
        // ExportOptions::kMaxEmbeddedSession. The window's export uses the same helper.
        request.exportOptions.session = sessionToEmbed(document, plot, request.output);
        timer.step("session");
    }
    const QString error = ChartExporter(plot).exportTo(request.output, request.exportOptions);
    timer.step("export");
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    out() << "wrote " << QFileInfo(request.output).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

// The energy twin chart (widgets/chart/energychart.h) to --energy's file; the exit status. A
// machine without energy figures is bad input: nothing is written and stderr says why.
int writeEnergyPicture(
    const Document &document, const RenderRequest &request, const SessionLook &look)
{
    ChartTheme theme = ChartTheme::light();
    if (request.theme)
        theme = ChartTheme::of(*request.theme);
    else if (const auto fromSession = themeFromName(look.theme))
        theme = ChartTheme::of(*fromSession);
    ExportOptions options = request.exportOptions;
    options.table = false;
    options.session.clear(); // the session belongs to the roofline's picture
    chart::EnergyChart drawn;
    const QString error = exportEnergyChart(*request.energy, document, theme, options, drawn);
    if (!drawn.problem.isEmpty()) {
        err() << "--energy: " << drawn.problem << Qt::endl;
        return kExitBadInput;
    }
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    if (!drawn.note.isEmpty())
        err() << "--energy: " << drawn.note << Qt::endl;
    out() << "wrote " << QFileInfo(*request.energy).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

} // namespace

int runRender(const QStringList &arguments)
{
    int status = kExitOk;
    auto request = parseRequest(RenderOptions(), arguments, status);
    if (!request)
        return status;
    // Like --hardware, a machine file replaces a session's machine.
    if (!request->machine.takeMachineFile(request->files))
        return kExitBadInput;

    StepTimer timer(request->timings);
    auto inputs = loadInputs(*request);
    if (!inputs)
        return kExitBadInput;
    const bool sameMachine = inputs->sameMachine;
    timer.step("read");

    Document document;
    document.setAnalysisOptions(request->machine.analysisOptions(inputs->hardware, sameMachine));
    const SessionLook look = fillDocument(document, std::move(*inputs));
    QStringList files = request->files;
    if (request->session)
        files.prepend(*request->session);
    if (!reportUnplaced(document, files.size() == 1 ? files.front().toStdString() : std::string()))
        return kExitBadInput;
    timer.step("analyse");

    if (request->energy) {
        const int energyStatus = writeEnergyPicture(document, *request, look);
        if (energyStatus != kExitOk || request->output.isEmpty())
            return energyStatus;
    }
    RooflinePlot plot;
    buildChart(plot, document, *request, look, sameMachine);
    // A headless plot is never shown, so nothing replots on its own. The review layers lay out
    // their labels (targets) before a replot: told so here, without a replot, which would draw
    // the whole chart into the widget's paint buffers only for the export to lay it out and
    // draw it again.
    timer.step("chart");
    emit plot.beforeReplot();
    timer.step("replot");
    return writePicture(document, plot, *request, timer);
}

} // namespace ridgepoint::cli
