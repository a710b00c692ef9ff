// Ridgepoint: the window, or a headless subcommand when the first argument names one.
#include "app/cli.h"
#include "app/cli_common.h"
#include "app/mainwindow.h"

#include "core/presets.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName("ridgepoint");
    QCoreApplication::setOrganizationName("Ridgepoint");
    QCoreApplication::setApplicationVersion(RIDGEPOINT_VERSION);
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

} // namespace

int main(int argc, char *argv[])
{
    using namespace ridgepoint;
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (cli::isSubcommand(first)) {
        if (first == "render") {
            // Rendering needs a GUI application but never a screen.
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(argc, argv);
            describeApplication();
            return cli::run(QCoreApplication::arguments());
        }
        QCoreApplication app(argc, argv);
        describeApplication();
        return cli::run(QCoreApplication::arguments());
    }

    if (!haveDisplay()) {
        // No screen to open the window on: say so and draw the same view to a file.
        QStringList arguments;
        for (int i = 0; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
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

    QApplication app(argc, argv);
    describeApplication();
    QCommandLineParser parser;
    parser.setApplicationDescription("Ridgepoint: an interactive roofline visualizer. Run "
                                     "'ridgepoint help' for the headless commands.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({ "hardware", "Machine preset to open on (default H100).", "name", "H100" });
    parser.addOption(
        { "screenshot", "Save a picture of the window to FILE once shown, then quit.", "file" });
    parser.addPositionalArgument(
        "files", "Point files to open (default: the example data set).", "[FILE...]");
    parser.process(app);

    MainWindow window;
    const PresetDatabase presets = PresetDatabase::builtin();
    auto hardware = presets.find(parser.value("hardware").toStdString());
    if (!hardware) {
        cli::err() << "--hardware: " << QString::fromStdString(hardware.error()) << Qt::endl;
        return cli::kExitBadInput;
    }
    window.setHardware(**hardware);
    if (parser.positionalArguments().isEmpty()) {
        window.setPoints(cli::examplePoints(), QObject::tr("the example data set"));
    } else {
        for (const QString &file : parser.positionalArguments())
            window.openPointsFile(file);
    }
    window.show();
    if (parser.isSet("screenshot")) {
        const QString file = parser.value("screenshot");
        QTimer::singleShot(500, &window, [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    }
    return QApplication::exec();
}
