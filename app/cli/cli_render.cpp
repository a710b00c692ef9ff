#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include "core/session/session.h"
#include "widgets/document/document.h"
#include "widgets/export/figuresession.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <array>
#include <cmath>

namespace ridgepoint::cli {
namespace {

constexpr int kMinSide = 100; // logical pixels
constexpr int kMaxSide = 20000; // logical and device pixels
constexpr int kMinDpi = 24;
constexpr int kMaxDpi = 2400;
// The logical resolution of a layout: fonts and widths are in pixels at 96 per inch.
constexpr double kLogicalDpi = 96.0;

struct ThemeName {
    const char *name;
    ChartTheme::Kind kind;
};
// The names sessions and --theme use (docs/FILES.md, "theme").
constexpr std::array kThemes { ThemeName { "light", ChartTheme::Kind::Light },
    ThemeName { "dark", ChartTheme::Kind::Dark }, ThemeName { "print", ChartTheme::Kind::Print } };

std::optional<ChartTheme::Kind> themeKind(const QString &name)
{
    for (const auto &theme : kThemes) {
        if (name == QLatin1String(theme.name))
            return theme.kind;
    }
    return std::nullopt;
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
    if (size.width() < kMinSide || size.height() < kMinSide || size.width() > kMaxSide
        || size.height() > kMaxSide) {
        err() << (parser.isSet("size") ? "--size" : "--width and --height")
              << " must be whole numbers of pixels between " << kMinSide << " and " << kMaxSide
              << Qt::endl;
        return std::nullopt;
    }
    return size;
}

// The Document's session as the picture shows it (view and theme included), as JSON; empty when
// it would pass ExportOptions::kMaxEmbeddedSession. The window's export uses the same helper.
QByteArray sessionBytes(const Document &document, const RooflinePlot &plot)
{
    return pictureSession(document, plot).json;
}

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

} // namespace

int runRender(const QStringList &arguments)
{
    QCommandLineParser parser;
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
    parser.addOption({ "size",
        "Size in logical pixels, e.g. 1600x1000 (the default): text, lines and markers are "
        "laid out at this size. SVG and PDF pages are this size at 96 per inch.",
        "WxH" });
    parser.addOption(
        { "width", "Width in pixels (default 1600); --size is the same.", "px", "1600" });
    parser.addOption(
        { "height", "Height in pixels (default 1000); --size is the same.", "px", "1000" });
    parser.addOption({ "dpi",
        "PNG only: dots per inch (default 96). The picture keeps the layout of --size and is "
        "drawn with dpi/96 device pixels per logical pixel, and the resolution is written into "
        "the file: --size 800x500 --dpi 300 is a 2500x1563 PNG that prints 8.3 x 5.2 inches.",
        "N" });
    parser.addOption({ "theme",
        "light (default, or the session's), dark, or print (black on white, "
        "thick lines, large fonts).",
        "light|dark|print" });
    parser.addOption({ "title", "A title drawn above the chart.", "text" });
    parser.addOption({ "table",
        "Draw the points' analysis (intensity, performance, bound, limiting roof, % of roof) as "
        "a table below the chart." });
    parser.addOption({ "no-embed",
        "Leave the session out of the file. By default it is embedded (SVG metadata, PNG text "
        "chunk, PDF attachment), so the picture can be reopened with 'render --session', "
        "'analyze' or the window; sessions over 16 MiB are always left out." });
    parser.addOption({ "example", "Draw the built-in example data set as well." });
    parser.addOption({ "fit", "Frame the axes around the points instead of the hardware." });
    addReadOptions(parser);
    addHiddenOption(parser, "timings", "Print how long each step took (stderr).");
    parser.addPositionalArgument("files",
        "Point files (any points format analyze reads; the profilers' with the options above, "
        "as is --baseline).",
        "[FILE...]");
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;

    // Every option checked before any file is read: a bad one should not cost a big read.
    if (!parser.isSet("output")) {
        err() << "render needs an output file: -o roofline.png" << Qt::endl;
        return kExitBadInput;
    }
    const QString output = parser.value("output");
    const QString suffix = QFileInfo(output).suffix().toLower();
    if (suffix != "png" && suffix != "svg" && suffix != "pdf") {
        err() << output << ": unknown image type \"" << suffix << "\" (expected .png, .svg or .pdf)"
              << Qt::endl;
        return kExitBadInput;
    }
    const auto size = sizeFromOptions(parser);
    if (!size)
        return kExitBadInput;
    ExportOptions exportOptions;
    exportOptions.width = size->width();
    exportOptions.height = size->height();
    if (parser.isSet("dpi")) {
        bool ok = false;
        const int dpi = parser.value("dpi").toInt(&ok);
        if (!ok || dpi < kMinDpi || dpi > kMaxDpi) {
            err() << "--dpi must be a whole number between " << kMinDpi << " and " << kMaxDpi
                  << " (got \"" << parser.value("dpi") << "\")" << Qt::endl;
            return kExitBadInput;
        }
        if (suffix != "png") {
            err() << "note: --dpi applies to PNG only; " << suffix.toUpper()
                  << " is drawn in vectors at " << size->width() << "x" << size->height()
                  << Qt::endl;
        } else {
            exportOptions.dpi = dpi;
            exportOptions.scale = dpi / kLogicalDpi;
            const double longest = std::max(size->width(), size->height()) * exportOptions.scale;
            if (std::lround(longest) > kMaxSide) {
                err() << "--dpi " << dpi << " at " << size->width() << "x" << size->height()
                      << " would make a PNG " << std::lround(longest) << " pixels wide or high; "
                      << "at most " << kMaxSide << " (choose a smaller --size or --dpi)"
                      << Qt::endl;
                return kExitBadInput;
            }
        }
    }
    std::optional<ChartTheme::Kind> theme;
    if (parser.isSet("theme")) {
        theme = themeKind(parser.value("theme"));
        if (!theme) {
            err() << "--theme: unknown theme \"" << parser.value("theme")
                  << "\" (expected light, dark or print)" << Qt::endl;
            return kExitBadInput;
        }
    }
    exportOptions.title = parser.value("title");
    exportOptions.table = parser.isSet("table");
    const auto readOptions = readOptionsFromOptions(parser);
    if (!readOptions)
        return kExitBadInput;

    StepTimer timer(parser.isSet("timings"));
    // The session, if any, then the command line's machine, points and baseline.
    std::optional<Session> session;
    if (parser.isSet("session")) {
        session = readSession(parser.value("session"));
        if (!session)
            return kExitBadInput;
    }
    const auto hardware
        = hardwareFromOptions(parser, session ? &session->hardware : nullptr, *readOptions);
    if (!hardware)
        return kExitBadInput;
    const bool sameMachine = session && !parser.isSet("hardware");
    int rowErrors = 0;
    std::vector<KernelPoint> points;
    const auto add = [&points](std::vector<KernelPoint> more) {
        if (points.empty()) {
            points = std::move(more);
            return;
        }
        points.insert(points.end(), std::make_move_iterator(more.begin()),
            std::make_move_iterator(more.end()));
    };
    for (const QString &file : parser.positionalArguments()) {
        auto read = readPointsFile(file, rowErrors, *readOptions);
        if (!read)
            return kExitBadInput;
        add(std::move(*read));
    }
    if (parser.isSet("example"))
        add(examplePoints());
    std::optional<Baseline> baseline;
    if (parser.isSet("baseline")) {
        const QString file = parser.value("baseline");
        auto read = readPointsFile(file, rowErrors, *readOptions);
        if (!read)
            return kExitBadInput;
        baseline = Baseline { file.toStdString(), std::move(*read) };
    }
    timer.step("read");

    // The Document (and below, the chart) the window would have after opening that session,
    // or after opening the machine and the points files.
    Document document;
    document.setAnalysisOptions(analysisOptionsFromOptions(parser, *hardware, sameMachine));
    std::optional<ViewRange> view;
    QString sessionTheme;
    if (session) {
        session->hardware = *hardware;
        session->points.reserve(session->points.size() + points.size());
        for (auto &point : points) {
            SessionPoint added;
            added.point = std::move(point);
            session->points.push_back(std::move(added));
        }
        if (baseline)
            session->baseline = std::move(baseline);
        view = session->view;
        sessionTheme = QString::fromStdString(session->theme);
        document.loadSession(std::move(*session));
    } else {
        document.resetHardware(*hardware);
        document.resetPoints(std::move(points));
        if (baseline)
            document.setBaseline(std::move(baseline));
    }
    std::vector<Diagnostic> problems;
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        if (const auto &a = document.analysis(i); !a) {
            const auto &source = document.measuredPoint(i).source;
            problems.push_back({ Severity::Error, source.file, source.line, 0, a.error() });
        }
    }
    printDiagnostics(problems);
    timer.step("analyse");

    RooflinePlot plot;
    plot.resize(*size);
    if (theme)
        plot.setTheme(ChartTheme::of(*theme));
    else if (const auto fromSession = themeKind(sessionTheme))
        plot.setTheme(ChartTheme::of(*fromSession));
    plot.setDocument(&document); // frames the machine
    new ReviewOverlay(&plot, &document); // the plot's child: baseline arrows, notes, targets
    if (parser.isSet("fit")) {
        plot.fitToData();
    } else if (sameMachine && view) {
        plot.xAxis->setRange(view->xLower, view->xUpper);
        plot.yAxis->setRange(view->yLower, view->yUpper);
    }
    // A headless plot is never shown, so nothing replots on its own: this one places the labels
    // the review layers lay out before a replot (targets).
    timer.step("chart");
    plot.replot();
    timer.step("replot");

    if (!parser.isSet("no-embed")) {
        exportOptions.session = sessionBytes(document, plot);
        if (exportOptions.session.isEmpty())
            err() << "note: the session (" << document.pointCount() << " points) is larger than "
                  << ExportOptions::kMaxEmbeddedSession / (qsizetype { 1024 } * 1024)
                  << " MiB and was not embedded in " << output << Qt::endl;
        timer.step("session");
    }
    const QString error = plot.exportTo(output, exportOptions);
    timer.step("export");
    if (!error.isEmpty()) {
        err() << error << Qt::endl;
        return kExitFailure;
    }
    out() << "wrote " << QFileInfo(output).absoluteFilePath() << Qt::endl;
    return kExitOk;
}

} // namespace ridgepoint::cli
