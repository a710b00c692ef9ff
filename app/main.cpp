// Ridgepoint: the window, or a headless subcommand when the first argument names one.
#include "app/cli/cli.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_options.h"
#include "app/cli/cli_workload_options.h"
#include "app/gui/importcontroller.h"
#include "app/gui/mainwindow.h"
#include "app/gui/reviewcontroller.h"
#include "app/gui/sessioncontroller.h"

#include "core/presets/example_points.h"
#include "core/presets/presets.h"
#include "core/workloads/workloads.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/englishplurals.h"
#include "widgets/panels/workloadpanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <new>
#include <utility>

namespace {

using namespace ridgepoint;

void describeApplication()
{
    QCoreApplication::setApplicationName("ridgepoint");
    QCoreApplication::setOrganizationName("Ridgepoint");
    QCoreApplication::setApplicationVersion(RIDGEPOINT_VERSION);
    installEnglishPlurals();
}

// The window's icon, embedded (packaging/icons, app/CMakeLists.txt), and the desktop entry it
// belongs to, so a Wayland compositor shows the installed entry's name and icon.
void describeDesktopApplication()
{
    QGuiApplication::setDesktopFileName(QStringLiteral(RIDGEPOINT_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ridgepoint/ridgepoint.svg")));
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

// Calls `done` once, right after the watched widget's first paint event has been handled.
class FirstPaintWatcher : public QObject
{
public:
    explicit FirstPaintWatcher(std::function<void()> done)
        : m_done(std::move(done))
    { }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_done) {
            // Queued: runs when the event loop is back, i.e. after the paint has finished.
            QTimer::singleShot(0, this, std::exchange(m_done, nullptr));
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_done;
};

QStringList argumentList(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

// A subcommand, headless. The arguments are taken before QApplication sees them: it removes the
// options it knows for itself (`-session` of X11 session management, `-style`, …), and render
// has a --session.
int runSubcommand(int argc, char *argv[], const QString &command)
{
    const QStringList arguments = argumentList(argc, argv);
    // `llm --render FILE` and `predict --chart FILE` draw a chart too.
    const auto asks = [&](const char *option) {
        return std::ranges::any_of(arguments,
            [&](const QString &a) { return a == option || a.startsWith(QString(option) + "="); });
    };
    const bool draws = command == "render" || (command == "llm" && asks("--render"))
        || (command == "predict" && asks("--chart"));
    if (draws) {
        // Rendering needs a GUI application but never a screen.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        describeApplication();
        return cli::run(arguments);
    }
    QCoreApplication app(argc, argv);
    describeApplication();
    return cli::run(arguments);
}

// No screen to open the window on: say so and draw the same view to a file.
int renderWithoutDisplay(int argc, char *argv[])
{
    const QStringList arguments = argumentList(argc, argv);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    describeApplication();
    QStringList render { arguments.value(0), "render", "--output", "roofline.png" };
    if (!arguments.contains("--hardware"))
        render << "--hardware"
               << "H100";
    if (arguments.size() <= 1)
        render << "--example";
    render << arguments.mid(1);
    cli::err() << "No display found (DISPLAY and WAYLAND_DISPLAY are unset): rendering the "
                  "view to roofline.png instead of opening the window."
               << Qt::endl;
    return cli::run(render);
}

void addWindowOptions(QCommandLineParser &parser, const QCommandLineOption &startupTime)
{
    parser.setApplicationDescription("Ridgepoint: an interactive roofline visualizer. Run "
                                     "'ridgepoint help' for the headless commands.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({ "hardware",
        "Machine preset to open on (default: the one chosen last, else H100).", "name", "H100" });
    parser.addOption(
        { "screenshot", "Save a picture of the window to FILE once shown, then quit.", "file" });
    parser.addOption({ "baseline",
        "Open FILE as the baseline run (File > Open baseline...): arrows from its points to the "
        "current ones, a speed-up column and, beside the table, the change per operator. A "
        "profiler trace is matched by operator and shapes, other files by kernel name.",
        "file" });
    parser.addOption(
        { "theme", "Chart theme: " + cli::themeNamesText() + ".", cli::themeNamesValue() });
    parser.addOption({ "sweep-matmul",
        "Add a bf16 matmul with D and F given, its batch B swept from 1 to 16384.", "D,F" });
    parser.addOption(
        { "quant", cli::quantOptionHelp("Quantization mode of the workloads:"), "mode" });
    parser.addOption(startupTime);
    parser.addPositionalArgument("files",
        "Files to open: points, machine files, sessions, figures exported with a session "
        "(default: the example data set).",
        "[FILE...]");
}

// The machine and the files to open on; false after saying why.
bool openInputs(MainWindow &window, const QCommandLineParser &parser)
{
    if (parser.isSet("hardware") || !window.openLastPreset()) {
        const PresetDatabase presets = PresetDatabase::builtin();
        auto hardware = presets.find(parser.value("hardware").toStdString());
        if (!hardware) {
            cli::err() << "--hardware: " << QString::fromStdString(hardware.error()) << Qt::endl;
            return false;
        }
        window.setHardware(**hardware);
    }
    if (parser.positionalArguments().isEmpty()) {
        window.setPoints(examplePoints(), QObject::tr("the example data set"));
    } else {
        // As if dropped on the window: sessions, figures carrying one, points and machine
        // files, each recognised by its content.
        window.importer()->importFiles(parser.positionalArguments());
    }
    if (parser.isSet("baseline") && !window.review()->openBaseline(parser.value("baseline")))
        return false;
    return true;
}

// --sweep-matmul, --quant and --theme; false after saying why.
bool applyViewOptions(MainWindow &window, const QCommandLineParser &parser)
{
    if (parser.isSet("sweep-matmul")) {
        const QStringList df = parser.value("sweep-matmul").split(',');
        const int d = df.value(0).toInt();
        const int f = df.value(1).toInt();
        if (df.size() != 2 || d < 1 || f < 1) {
            cli::err() << "--sweep-matmul: expected D,F (positive integers), got \""
                       << parser.value("sweep-matmul") << "\"" << Qt::endl;
            return false;
        }
        window.workloadPanel()->addMatmulSweep(d, f, 1, 16384);
    }
    if (parser.isSet("quant")) {
        QuantMode mode = QuantMode::None;
        if (!cli::quantOption(parser.value("quant"), mode))
            return false;
        window.document()->setQuantMode(mode);
    }
    if (parser.isSet("theme")) {
        const QString theme = parser.value("theme");
        const auto kind = cli::themeFromName(theme);
        if (!kind) {
            cli::err() << "--theme: expected " << cli::themeNamesText() << ", got \"" << theme
                       << "\"" << Qt::endl;
            return false;
        }
        window.setTheme(*kind);
    }
    return true;
}

// --startup-time: the first Paint event of the chart; the time is taken once it has been
// handled.
void reportStartupTime(MainWindow &window, const QElapsedTimer &sinceStart)
{
    auto *watcher = new FirstPaintWatcher([&sinceStart] {
        cli::out() << static_cast<double>(sinceStart.nsecsElapsed()) / 1e6
                   << " ms from start to the chart's "
                   << "first paint" << Qt::endl;
        QApplication::exit(cli::kExitOk);
    });
    watcher->setParent(&window);
    window.plot()->installEventFilter(watcher);
}

void takeScreenshot(MainWindow &window, const QString &file)
{
    QTimer::singleShot(500, &window, [&window, file] {
        const bool saved = window.grab().save(file);
        if (!saved)
            cli::err() << "--screenshot: could not write " << file << Qt::endl;
        // exit(), not quit(): quit() closes the window, which asks to save a changed
        // workspace and would wait for an answer nobody gives.
        QApplication::exit(saved ? cli::kExitOk : cli::kExitFailure);
    });
}

// --help-window: the window's options, printed without opening it (the man page and the shell
// completion are generated from this text and the subcommands' --help).
int printWindowHelp(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    describeApplication();
    QCommandLineParser parser;
    QCommandLineOption startupTime("startup-time", "Print the start-up time, then quit.");
    startupTime.setFlags(QCommandLineOption::HiddenFromHelp);
    addWindowOptions(parser, startupTime);
    cli::out() << cli::helpText(
        parser, QFileInfo(QCoreApplication::arguments().value(0)).fileName());
    cli::out().flush();
    return cli::kExitOk;
}

} // namespace

int main(int argc, char *argv[])
{
    using namespace ridgepoint;
    QElapsedTimer sinceStart; // --startup-time: from here to the chart's first paint
    sinceStart.start();
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == "--help-window")
        return printWindowHelp(argc, argv);
    if (cli::isSubcommand(first)) {
        // Every reader is bounded, but a file that fits the limits may still need more memory
        // than the machine has: say so and exit like any other bad input, never abort.
        try {
            return runSubcommand(argc, argv, first);
        } catch (const std::bad_alloc &) {
            std::fputs("ridgepoint: out of memory while reading the input (the file is larger "
                       "than this machine can hold)\n",
                stderr);
            return cli::kExitBadInput;
        }
    }
    if (!haveDisplay())
        return renderWithoutDisplay(argc, argv);

    QApplication app(argc, argv);
    describeApplication();
    describeDesktopApplication();
    QCommandLineParser parser;
    QCommandLineOption startupTime(
        "startup-time", "Print the milliseconds from start to the chart's first paint, then quit.");
    startupTime.setFlags(QCommandLineOption::HiddenFromHelp);
    addWindowOptions(parser, startupTime);
    parser.process(app);

    MainWindow window;
    if (!openInputs(window, parser) || !applyViewOptions(window, parser))
        return cli::kExitBadInput;
    if (parser.isSet(startupTime))
        reportStartupTime(window, sinceStart);
    window.show();
    // Work left behind by a crash is offered once the window is up.
    if (!parser.isSet("screenshot") && !parser.isSet(startupTime))
        QTimer::singleShot(0, &window, [&window] { window.sessions()->offerRestore(); });
    if (parser.isSet("screenshot"))
        takeScreenshot(window, parser.value("screenshot"));
    return QApplication::exec();
}
