// `ridgepoint render`: the roofline of a machine with the given kernels drawn to a PNG, SVG or
// PDF file, with the review layers; the same file as the window's Export image. In four steps:
// the options (checked before any file is read), the inputs (session, machine, points,
// baseline), the picture (a Document and its chart) and the file.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_options.h"
#include "core/presets/example_points.h"

#include "core/session/session.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/exportlimits.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

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

void addPictureOptions(QCommandLineParser &parser)
{
    const ExportOptions defaults;
    parser.addOption({ "size",
        QString("Size in logical pixels, e.g. %1x%2 (the default): text, lines and markers are "
                "laid out at this size. SVG and PDF pages are this size at %3 per inch.")
            .arg(defaults.width)
            .arg(defaults.height)
            .arg(ExportLimits::kLogicalDpi),
        "WxH" });
    parser.addOption({ "preset",
        "A ready-made picture: slide = a 16:9 slide, 1920x1080, text 1.5x, the legend below the "
        "plot. --size, --width or --height still set the size.",
        "name" });
    parser.addOption(
        { "width", QString("Width in pixels (default %1); --size is the same.").arg(defaults.width),
            "px", QString::number(defaults.width) });
    parser.addOption({ "height",
        QString("Height in pixels (default %1); --size is the same.").arg(defaults.height), "px",
        QString::number(defaults.height) });
    parser.addOption({ "dpi",
        QString("PNG only: dots per inch (default %1). The picture keeps the layout of --size and "
                "is drawn with dpi/%1 device pixels per logical pixel, and the resolution is "
                "written into the file: --size 800x500 --dpi 300 is a 2500x1563 PNG that prints "
                "8.3 x 5.2 inches.")
            .arg(ExportLimits::kLogicalDpi),
        "N" });
    parser.addOption({ "theme",
        "light (default, or the session's), dark, or print (black on white, thick lines, large "
        "fonts).",
        themeNamesValue() });
    parser.addOption({ "title", "A title drawn above the chart.", "text" });
    parser.addOption({ "points",
        "auto (default, or the session's): a density with the longest-running kernels as dots "
        "above the density threshold, dots below it; density or dots force one.",
        "auto|density|dots" });
    parser.addOption({ "density-threshold",
        QString("Points above which --points auto draws a density (default %1).")
            .arg(chart::kDefaultDensityThreshold),
        "N" });
    parser.addOption({ "dot-size",
        "time (default, or the session's): each dot's area follows its share of the total time "
        "when every point has one; fixed: one size for every dot.",
        "time|fixed" });
    parser.addOption({ "table",
        "Draw the points' analysis (intensity, performance, bound, limiting roof, % of roof) as "
        "a table below the chart." });
    addNoEmbedOption(parser);
}

void addRenderOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        "Draw the roofline of a machine with the given kernels to an image (PNG, SVG or PDF, "
        "chosen by the output's suffix), with the review layers (baseline arrows, notes, "
        "targets). The window's Export image writes the same file. Works without a display.");
    addHardwareOptions(parser);
    parser.addOption({ { "o", "output" }, "Image file to write (.png, .svg, .pdf).", "file" });
    parser.addOption({ "session",
        "Draw a session: a .ridgepoint.json file, or a PNG, SVG or PDF exported with its session "
        "embedded. Its points, what-if moves, notes, targets, baseline, view and theme are "
        "drawn; point files given as well are added. --hardware (then framed anew), "
        "--theme and --baseline replace the session's own.",
        "file" });
    parser.addOption({ "baseline",
        "A previous run (a points file): each point with the same name gets an arrow from its "
        "baseline position, labelled with the speed-up.",
        "file" });
    parser.addOption({ "compare",
        "Draw a second machine's roofs, dashed, beside the first (the window's \"Compare "
        "with\"): a preset name or a hardware file. Replaces the session's own; the points "
        "are still measured against the first machine.",
        "name|file" });
    addPictureOptions(parser);
    parser.addOption({ "example", "Draw the built-in example data set as well." });
    parser.addOption({ "fit",
        "Frame the axes around the points (the default without a session view of this "
        "machine)." });
    parser.addOption(
        { "roofs", "Compute roofs to draw: data (the points' precisions, dense; default) or all.",
            "data|all" });
    addReadOptions(parser);
    addHiddenOption(parser, "timings", "Print how long each step took (stderr).");
    parser.addPositionalArgument("files",
        "Point files (any points format analyze reads; the profilers' with the options above, "
        "as is --baseline).",
        "[FILE...]");
}

// --size WxH, or --width and --height; nullopt (after saying why) when not a usable size.
std::optional<QSize> sizeFromOptions(const QCommandLineParser &parser)
{
    if (parser.isSet("size") && (parser.isSet("width") || parser.isSet("height"))) {
        err() << "--size and --width/--height contradict each other: give one of them" << Qt::endl;
        return std::nullopt;
    }
    QSize size;
    if (parser.isSet("size")) {
        static const QRegularExpression kPattern(
            QStringLiteral("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$"));
        const auto match = kPattern.match(parser.value("size"));
        if (!match.hasMatch()) {
            err() << "--size must be WxH, e.g. 1600x1000 (got \"" << parser.value("size") << "\")"
                  << Qt::endl;
            return std::nullopt;
        }
        size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    } else {
        bool okWidth = false;
        bool okHeight = false;
        size
            = QSize(parser.value("width").toInt(&okWidth), parser.value("height").toInt(&okHeight));
        if (!okWidth || !okHeight)
            size = QSize(); // invalid: refused below
    }
    if (!ExportLimits::sideInRange(size.width()) || !ExportLimits::sideInRange(size.height())) {
        err() << (parser.isSet("size") ? "--size" : "--width and --height")
              << " must be whole numbers of pixels between " << ExportLimits::kMinSide << " and "
              << ExportLimits::kMaxSide << Qt::endl;
        return std::nullopt;
    }
    return size;
}

// --dpi into `options` (a PNG's scale and resolution; a note for SVG and PDF); false after
// saying why it is refused.
bool dpiOption(const QCommandLineParser &parser, const QString &suffix, ExportOptions &options)
{
    if (!parser.isSet("dpi"))
        return true;
    bool ok = false;
    const int dpi = parser.value("dpi").toInt(&ok);
    if (!ok || !ExportLimits::dpiInRange(dpi)) {
        err() << "--dpi must be a whole number between " << ExportLimits::kMinDpi << " and "
              << ExportLimits::kMaxDpi << " (got \"" << parser.value("dpi") << "\")" << Qt::endl;
        return false;
    }
    if (suffix != "png") {
        err() << "note: --dpi applies to PNG only; " << suffix.toUpper()
              << " is drawn in vectors at " << options.width << "x" << options.height << Qt::endl;
        return true;
    }
    options.dpi = dpi;
    options.scale = dpi / ExportLimits::kLogicalDpi;
    const long longest
        = ExportLimits::devicePixels(std::max(options.width, options.height), options.dpi);
    if (longest > ExportLimits::kMaxSide) {
        err() << "--dpi " << dpi << " at " << options.width << "x" << options.height
              << " would make a PNG " << longest << " pixels wide or high; "
              << "at most " << ExportLimits::kMaxSide << " (choose a smaller --size or --dpi)"
              << Qt::endl;
        return false;
    }
    return true;
}

// What render's options ask for, every one checked before any file is read: a bad one should
// not cost a big read.
struct RenderRequest {
    QString output;
    ExportOptions exportOptions; // all but the session
    std::optional<ChartTheme::Kind> theme; // none: the session's, else light
    std::optional<chart::PointsMode> points; // none: the session's, else auto
    std::optional<bool> dotSizeByTime; // none: the session's, else time
    std::optional<std::size_t> densityThreshold;
    ReadOptions readOptions;
};

std::optional<RenderRequest> requestFromOptions(const QCommandLineParser &parser)
{
    RenderRequest request;
    if (!parser.isSet("output")) {
        err() << "render needs an output file: -o roofline.png" << Qt::endl;
        return std::nullopt;
    }
    request.output = parser.value("output");
    const QString suffix = QFileInfo(request.output).suffix().toLower();
    if (suffix != "png" && suffix != "svg" && suffix != "pdf") {
        err() << request.output << ": unknown image type \"" << suffix
              << "\" (expected .png, .svg or .pdf)" << Qt::endl;
        return std::nullopt;
    }
    if (const QString problem = outputProblem(request.output); !problem.isEmpty()) {
        err() << problem << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet("preset")) {
        const auto preset = exportPreset(parser.value("preset"));
        if (!preset) {
            err() << "--preset: unknown preset \"" << parser.value("preset")
                  << "\" (expected slide)" << Qt::endl;
            return std::nullopt;
        }
        request.exportOptions = *preset;
    }
    if (!parser.isSet("preset") || parser.isSet("size") || parser.isSet("width")
        || parser.isSet("height")) {
        const auto size = sizeFromOptions(parser);
        if (!size)
            return std::nullopt;
        request.exportOptions.width = size->width();
        request.exportOptions.height = size->height();
    }
    if (!dpiOption(parser, suffix, request.exportOptions))
        return std::nullopt;
    if (parser.isSet("theme")) {
        request.theme = themeFromName(parser.value("theme"));
        if (!request.theme) {
            err() << "--theme: unknown theme \"" << parser.value("theme") << "\" (expected "
                  << themeNamesText() << ")" << Qt::endl;
            return std::nullopt;
        }
    }
    if (parser.isSet("roofs") && !roofsShownFromName(parser.value("roofs").toStdString())) {
        err() << "--roofs: unknown choice \"" << parser.value("roofs")
              << "\" (expected data or all)" << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet("points")) {
        request.points = chart::pointsModeFromKey(parser.value("points").toStdString());
        if (!request.points) {
            err() << "--points: unknown mode \"" << parser.value("points")
                  << "\" (expected auto, density or dots)" << Qt::endl;
            return std::nullopt;
        }
    }
    if (parser.isSet("dot-size")) {
        const QString size = parser.value("dot-size");
        if (size != "time" && size != "fixed") {
            err() << "--dot-size: unknown choice \"" << size << "\" (expected time or fixed)"
                  << Qt::endl;
            return std::nullopt;
        }
        request.dotSizeByTime = size == "time";
    }
    if (parser.isSet("density-threshold")) {
        bool ok = false;
        const qlonglong threshold = parser.value("density-threshold").toLongLong(&ok);
        if (!ok || threshold < 0) {
            err() << "--density-threshold must be a whole number of points, 0 or more (got \""
                  << parser.value("density-threshold") << "\")" << Qt::endl;
            return std::nullopt;
        }
        request.densityThreshold = static_cast<std::size_t>(threshold);
    }
    request.exportOptions.title = parser.value("title");
    request.exportOptions.table = parser.isSet("table");
    const auto readOptions = readOptionsFromOptions(parser);
    if (!readOptions)
        return std::nullopt;
    request.readOptions = *readOptions;
    return request;
}

// ---- the inputs ----------------------------------------------------------------------------

// The session, if any, then the command line's machine, points and baseline.
struct RenderInputs {
    std::optional<Session> session;
    Hardware hardware;
    bool sameMachine = false; // the session's machine (no --hardware)
    std::vector<KernelPoint> points; // of the files and --example
    std::optional<Baseline> baseline;
    std::optional<Hardware> compare; // --compare (else the session's, if any)
};

std::optional<RenderInputs> loadInputs(
    const QCommandLineParser &parser, const ReadOptions &readOptions)
{
    RenderInputs inputs;
    if (parser.isSet("session")) {
        inputs.session = readSession(parser.value("session"));
        if (!inputs.session)
            return std::nullopt;
    }
    const auto hardware
        = hardwareFromOptions(parser, inputs.session ? &inputs.session->hardware : nullptr,
            readOptions, inputs.session ? inputs.session->figures : FigureChoice::Measured);
    if (!hardware)
        return std::nullopt;
    inputs.hardware = *hardware;
    inputs.sameMachine = inputs.session && !parser.isSet("hardware");
    if (parser.isSet("compare")) {
        inputs.compare = machineNamed(parser.value("compare"), "--compare", readOptions);
        if (!inputs.compare)
            return std::nullopt;
    }
    int rowErrors = 0;
    auto &points = inputs.points;
    const auto add = [&points](std::vector<KernelPoint> more) {
        if (points.empty()) {
            points = std::move(more);
            return;
        }
        points.insert(points.end(), std::make_move_iterator(more.begin()),
            std::make_move_iterator(more.end()));
    };
    for (const QString &file : parser.positionalArguments()) {
        auto read = readPointsFile(file, rowErrors, readOptions);
        if (!read)
            return std::nullopt;
        add(std::move(*read));
    }
    if (parser.isSet("example"))
        add(examplePoints());
    if (parser.isSet("baseline")) {
        const QString file = parser.value("baseline");
        auto read = readPointsFile(file, rowErrors, readOptions);
        if (!read)
            return std::nullopt;
        inputs.baseline = Baseline { file.toStdString(), std::move(*read) };
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
        if (inputs.baseline)
            document.setBaseline(std::move(inputs.baseline));
        if (inputs.compare)
            document.setCompareHardware(std::move(inputs.compare));
        return look;
    }
    Session &session = *inputs.session;
    session.hardware = inputs.hardware;
    session.points.reserve(session.points.size() + inputs.points.size());
    for (auto &point : inputs.points) {
        SessionPoint added;
        added.point = std::move(point);
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
        const auto &source = document.measuredPoint(i).source;
        problems.push_back({ Severity::Error, source.file.empty() ? input : source.file,
            source.line, 0, document.analysis(i).error() });
    }
    printDiagnostics(problems);
    if (document.pointCount() == 0 || problems.size() < document.pointCount())
        return true;
    err() << "no point could be placed on " << QString::fromStdString(document.hardware().name)
          << ": nothing drawn" << Qt::endl;
    return false;
}

// The chart of `document` as the window draws it: theme, review layers and axes.
void buildChart(RooflinePlot &plot, Document &document, const QCommandLineParser &parser,
    const RenderRequest &request, const SessionLook &look, bool sameMachine)
{
    plot.resize(request.exportOptions.width, request.exportOptions.height);
    if (request.theme)
        plot.setTheme(ChartTheme::of(*request.theme));
    else if (const auto fromSession = themeFromName(look.theme))
        plot.setTheme(ChartTheme::of(*fromSession));
    if (parser.isSet("roofs")) // checked by the caller
        document.setRoofsShown(*roofsShownFromName(parser.value("roofs").toStdString()));
    // Before the points arrive: they are binned once, for the mode they are drawn in.
    if (request.points)
        plot.setPointsMode(*request.points);
    else if (const auto fromSession = chart::pointsModeFromKey(look.pointsMode))
        plot.setPointsMode(*fromSession);
    if (request.densityThreshold)
        plot.setDensityThreshold(*request.densityThreshold);
    plot.setDotSizeByTime(request.dotSizeByTime.value_or(look.dotSize != "fixed"));
    plot.setDocument(&document); // frames the points (the machine without any)
    new ReviewOverlay(&plot, &document); // the plot's child: baseline arrows, notes, targets
    if (parser.isSet("fit")) {
        plot.fitToData();
    } else if (sameMachine && look.view) {
        plot.xAxis->setRange(look.view->xLower, look.view->xUpper);
        plot.yAxis->setRange(look.view->yLower, look.view->yUpper);
    }
}

// ---- the file ------------------------------------------------------------------------------

// Writes the picture, with the session embedded unless --no-embed; the exit status.
int writePicture(const QCommandLineParser &parser, const Document &document, RooflinePlot &plot,
    RenderRequest &request, StepTimer &timer)
{
    if (!parser.isSet("no-embed")) {
        // As the picture shows it (view and theme included); empty when it would pass
        // ExportOptions::kMaxEmbeddedSession. The window's export uses the same helper.
        request.exportOptions.session = sessionToEmbed(document, plot, request.output);
        timer.step("session");
    }
    const QString error = plot.exportTo(request.output, request.exportOptions);
    timer.step("export");
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    out() << "wrote " << QFileInfo(request.output).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

} // namespace

int runRender(const QStringList &arguments)
{
    QCommandLineParser parser;
    addRenderOptions(parser);
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    auto request = requestFromOptions(parser);
    if (!request)
        return kExitBadInput;

    StepTimer timer(parser.isSet("timings"));
    auto inputs = loadInputs(parser, request->readOptions);
    if (!inputs)
        return kExitBadInput;
    const bool sameMachine = inputs->sameMachine;
    timer.step("read");

    Document document;
    document.setAnalysisOptions(analysisOptionsFromOptions(parser, inputs->hardware, sameMachine));
    const SessionLook look = fillDocument(document, std::move(*inputs));
    QStringList files = parser.positionalArguments();
    if (parser.isSet("session"))
        files.prepend(parser.value("session"));
    if (!reportUnplaced(document, files.size() == 1 ? files.front().toStdString() : std::string()))
        return kExitBadInput;
    timer.step("analyse");

    RooflinePlot plot;
    buildChart(plot, document, parser, *request, look, sameMachine);
    // A headless plot is never shown, so nothing replots on its own. The review layers lay out
    // their labels (targets) before a replot: told so here, without a replot, which would draw
    // the whole chart into the widget's paint buffers only for the export to lay it out and
    // draw it again.
    timer.step("chart");
    emit plot.beforeReplot();
    timer.step("replot");
    return writePicture(parser, document, plot, *request, timer);
}

} // namespace ridgepoint::cli
