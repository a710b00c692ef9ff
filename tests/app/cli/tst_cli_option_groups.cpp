// The option groups the subcommands share (app/cli/cli_option_groups.h, cli_options.h), through
// a real QCommandLineParser: each good value read into its typed field, each bad one refused
// with the message the subcommands print (the same texts the CLI tests see end to end).
// Expected values are worked out by hand from the option's text ("989 TFLOP/s" = 9.89e14 FLOP/s)
// and the limits named in the messages.
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"
#include "app/cli/cli_options.h"

#include <QTemporaryFile>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <functional>
#include <unistd.h>

namespace cli = ridgepoint::cli;

Q_DECLARE_METATYPE(std::optional<ridgepoint::ChartTheme::Kind>)

namespace {

// What `work` writes to stderr (cli::err()), the trailing newline dropped.
QString stderrOf(const std::function<void()> &work)
{
    QTemporaryFile file;
    if (!file.open())
        qFatal("cannot make a temporary file");
    cli::err().flush();
    std::fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    dup2(file.handle(), STDERR_FILENO);
    work();
    cli::err().flush();
    std::fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    file.seek(0);
    return QString::fromUtf8(file.readAll()).trimmed();
}

// A parser holding `group`'s options, given `arguments` (after the program's name).
template<typename Group>
void parse(QCommandLineParser &parser, const Group &group, const QStringList &arguments)
{
    group.addTo(parser);
    if (!parser.parse(QStringList { "ridgepoint" } + arguments))
        qFatal("parse failed: %s", qPrintable(parser.errorText()));
}

// An empty `message` expects none; otherwise stderr starts with it (a preset list is long).
void checkMessage(const QString &printed, const QString &message)
{
    if (message.isEmpty())
        QCOMPARE(printed, QString());
    else
        QVERIFY2(printed.startsWith(message), qPrintable(printed));
}

} // namespace

class TestCliOptionGroups : public QObject
{
    Q_OBJECT

private slots:
    void machine_data();
    void machine();
    void analysisOptions_data();
    void analysisOptions();
    void readOptions_data();
    void readOptions();
    void pictureSize_data();
    void pictureSize();
    void theme_data();
    void theme();
};

void TestCliOptionGroups::machine_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("name"); // empty: refused
    QTest::addColumn<double>("peak"); // of the first compute ceiling; NaN: not checked
    QTest::addColumn<double>("bandwidth"); // of the first memory ceiling; NaN: not checked
    QTest::addColumn<QString>("message");
    const double any = std::nan("");
    QTest::newRow("preset") << QStringList { "--hardware", "H100" } << "NVIDIA H100 SXM5 80GB"
                            << any << any << "";
    QTest::newRow("preset, prefix in any case")
        << QStringList { "--hardware", "h100" } << "NVIDIA H100 SXM5 80GB" << any << any << "";
    QTest::newRow("peak and bandwidth with units")
        << QStringList { "--peak", "989 TFLOP/s", "--bandwidth", "3.35 TB/s" } << "Custom machine"
        << 9.89e14 << 3.35e12 << "";
    QTest::newRow("peak and bandwidth in SI base units")
        << QStringList { "--peak", "1.97e14", "--bandwidth", "8.2e11" } << "Custom machine"
        << 1.97e14 << 8.2e11 << "";
    QTest::newRow("binary bandwidth") << QStringList { "--peak", "1e12", "--bandwidth", "2 TiB/s" }
                                      << "Custom machine" << 1e12 << 2.0 * 1099511627776.0 << "";
    QTest::newRow("no machine") << QStringList {} << "" << any << any
                                << "no machine given: use --hardware NAME|FILE, or both "
                                   "--peak and --bandwidth (see 'ridgepoint presets')";
    QTest::newRow("peak alone") << QStringList { "--peak", "1e14" } << "" << any << any
                                << "no machine given: use --hardware NAME|FILE, or both "
                                   "--peak and --bandwidth (see 'ridgepoint presets')";
    QTest::newRow("peak not a number")
        << QStringList { "--peak", "abc", "--bandwidth", "1TB/s" } << "" << any << any
        << "--peak: \"abc\" is not a compute rate: it does not start with a number (expected a "
           "number with an optional unit in FLOP/s, e.g. \"989 TFLOP/s\" or \"1.97e14\")";
    QTest::newRow("bandwidth not a number")
        << QStringList { "--peak", "1e14", "--bandwidth", "xyz" } << "" << any << any
        << "--bandwidth: \"xyz\" is not a bandwidth: it does not start with a number (expected "
           "a number with an optional unit in B/s, e.g. \"3.35 TB/s\", \"2 TiB/s\" or \"8.2e11\")";
    QTest::newRow("unknown preset") << QStringList { "--hardware", "nosuch" } << "" << any << any
                                    << "--hardware: no hardware preset matches \"nosuch\" (known: ";
    QTest::newRow("figures neither") << QStringList { "--hardware", "H100", "--figures",
        "foo" } << "" << any << any << "--figures: expected measured or spec, got \"foo\"";
    QTest::newRow("unknown compute ceiling")
        << QStringList { "--peak", "1e14", "--bandwidth", "1e12", "--compute", "nosuch" } << ""
        << any << any
        << "--compute: no compute ceiling named \"nosuch\" on Custom machine (it has: Peak)";
}

void TestCliOptionGroups::machine()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, name);
    QFETCH(double, peak);
    QFETCH(double, bandwidth);
    QFETCH(QString, message);
    QCommandLineParser parser;
    const cli::MachineOptions group;
    parse(parser, group, arguments);
    std::optional<ridgepoint::Hardware> machine;
    const QString printed = stderrOf([&] { machine = group.read(parser).machine(); });
    checkMessage(printed, message);
    QCOMPARE(machine.has_value(), !name.isEmpty());
    if (!machine)
        return;
    QCOMPARE(QString::fromStdString(machine->name), name);
    if (!std::isnan(peak))
        QCOMPARE(machine->compute.front().peak, peak);
    if (!std::isnan(bandwidth))
        QCOMPARE(machine->memory.front().bandwidth, bandwidth);
}

void TestCliOptionGroups::analysisOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("sessionMachine");
    QTest::addColumn<QString>("computeCeiling"); // empty: each point's precision decides
    QTest::newRow("a preset: the points' precisions")
        << QStringList { "--hardware", "H100" } << false << "";
    QTest::newRow("--compute names it")
        << QStringList { "--hardware", "H100", "--compute", "FP32 CUDA" } << false << "FP32 CUDA";
    QTest::newRow("a --peak/--bandwidth machine: its one ceiling")
        << QStringList { "--peak", "1e14", "--bandwidth", "1e12" } << false << "Peak";
    QTest::newRow("a session's machine: the points' precisions") << QStringList {} << true << "";
}

void TestCliOptionGroups::analysisOptions()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, sessionMachine);
    QFETCH(QString, computeCeiling);
    QCommandLineParser parser;
    const cli::MachineOptions group;
    parse(parser, group, arguments);
    const cli::MachineRequest request = group.read(parser);
    const ridgepoint::Hardware session = ridgepoint::makeSimpleMachine(1e14, 1e12);
    const auto machine = request.machine(sessionMachine ? &session : nullptr);
    QVERIFY(machine);
    QCOMPARE(
        QString::fromStdString(request.analysisOptions(*machine, sessionMachine).computeCeiling),
        computeCeiling);
}

void TestCliOptionGroups::readOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<double>("tensorFlops");
    QTest::addColumn<double>("halfFma");
    QTest::addColumn<int>("decimalComma"); // -1: told from each file
    QTest::addColumn<double>("ldsBanks");
    QTest::addColumn<bool>("perKernel");
    QTest::addColumn<bool>("anyGiven");
    QTest::addColumn<QString>("message"); // empty: read
    QTest::newRow("none: the readers' defaults")
        << QStringList {} << 512.0 << 2.0 << -1 << 32.0 << false << false << "";
    QTest::newRow("A100 tensor instructions") << QStringList { "--tensor-flops-per-inst", "1024" }
                                              << 1024.0 << 2.0 << -1 << 32.0 << false << true << "";
    QTest::newRow("spaces around a number") << QStringList { "--tensor-flops-per-inst", " 1024 " }
                                            << 1024.0 << 2.0 << -1 << 32.0 << false << true << "";
    QTest::newRow("largest tensor count") << QStringList { "--tensor-flops-per-inst", "1048576" }
                                          << 1048576.0 << 2.0 << -1 << 32.0 << false << true << "";
    QTest::newRow("packed HFMA2") << QStringList { "--half-fma-flops", "4" } << 512.0 << 4.0 << -1
                                  << 32.0 << false << true << "";
    QTest::newRow("decimal comma")
        << QStringList { "--decimal-comma" } << 512.0 << 2.0 << 1 << 32.0 << false << true << "";
    QTest::newRow("decimal point")
        << QStringList { "--decimal-point" } << 512.0 << 2.0 << 0 << 32.0 << false << true << "";
    QTest::newRow("LDS banks, per kernel") << QStringList { "--lds-banks", "64", "--per-kernel" }
                                           << 512.0 << 2.0 << -1 << 64.0 << true << true << "";
    QTest::newRow("tensor count 0")
        << QStringList { "--tensor-flops-per-inst", "0" } << 0.0 << 0.0 << -1 << 0.0 << false
        << true
        << "--tensor-flops-per-inst: expected FLOP per tensor instruction (512 on V100, 1024 on "
           "A100), a whole number from 1 to 1048576, got \"0\"";
    QTest::newRow("tensor count past 2^20")
        << QStringList { "--tensor-flops-per-inst", "1048577" } << 0.0 << 0.0 << -1 << 0.0 << false
        << true
        << "--tensor-flops-per-inst: expected FLOP per tensor instruction (512 on V100, 1024 on "
           "A100), a whole number from 1 to 1048576, got \"1048577\"";
    QTest::newRow("tensor count a word")
        << QStringList { "--tensor-flops-per-inst", "abc" } << 0.0 << 0.0 << -1 << 0.0 << false
        << true
        << "--tensor-flops-per-inst: expected FLOP per tensor instruction (512 on V100, 1024 on "
           "A100), a whole number from 1 to 1048576, got \"abc\"";
    QTest::newRow("half FMA 3")
        << QStringList { "--half-fma-flops", "3" } << 0.0 << 0.0 << -1 << 0.0 << false << true
        << "--half-fma-flops: expected 2 (NERSC) or 4 (ncu's roofline, a packed HFMA2), got \"3\"";
    QTest::newRow("comma and point")
        << QStringList { "--decimal-comma", "--decimal-point" } << 0.0 << 0.0 << -1 << 0.0 << false
        << true
        << "--decimal-comma and --decimal-point contradict each other: give one of them (or "
           "neither, to tell from each file)";
    QTest::newRow("LDS banks past 1024")
        << QStringList { "--lds-banks", "1025" } << 0.0 << 0.0 << -1 << 0.0 << false << true
        << "--lds-banks: expected LDS banks per compute unit (32 on MI200 and MI300), a whole "
           "number from 1 to 1024, got \"1025\"";
}

void TestCliOptionGroups::readOptions()
{
    QFETCH(QStringList, arguments);
    QFETCH(double, tensorFlops);
    QFETCH(double, halfFma);
    QFETCH(int, decimalComma);
    QFETCH(double, ldsBanks);
    QFETCH(bool, perKernel);
    QFETCH(bool, anyGiven);
    QFETCH(QString, message);
    QCommandLineParser parser;
    const cli::ReadOptionGroup group;
    parse(parser, group, arguments);
    QCOMPARE(group.anyGiven(parser), anyGiven);
    std::optional<ridgepoint::ReadOptions> read;
    const QString printed = stderrOf([&] { read = group.read(parser); });
    checkMessage(printed, message);
    QCOMPARE(read.has_value(), message.isEmpty());
    if (!read)
        return;
    QCOMPARE(read->ncu.tensorFlopsPerInstruction, tensorFlops);
    QCOMPARE(read->ncu.halfFlopsPerFma, halfFma);
    QCOMPARE(read->ncu.decimalComma.has_value(), decimalComma >= 0);
    if (read->ncu.decimalComma)
        QCOMPARE(int(*read->ncu.decimalComma), decimalComma);
    QCOMPARE(read->rocprof.ldsBanksPerCu, ldsBanks);
    QCOMPARE(read->ncu.sumLaunchesOfAKernel, perKernel);
    QCOMPARE(read->rocprof.sumDispatchesOfAKernel, perKernel);
}

void TestCliOptionGroups::pictureSize_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<int>("width"); // 0: refused
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("message");
    QTest::newRow("default") << QStringList {} << "png" << 1600 << 1000 << 0 << 1.0 << "";
    QTest::newRow("--size") << QStringList { "--size", "800x500" } << "png" << 800 << 500 << 0
                            << 1.0 << "";
    QTest::newRow("--size with spaces, X")
        << QStringList { "--size", " 800 X 500 " } << "svg" << 800 << 500 << 0 << 1.0 << "";
    QTest::newRow("--size with ×")
        << QStringList { "--size", "800×500" } << "pdf" << 800 << 500 << 0 << 1.0 << "";
    QTest::newRow("smallest") << QStringList { "--size", "100x100" } << "png" << 100 << 100 << 0
                              << 1.0 << "";
    QTest::newRow("--width and --height") << QStringList { "--width", "900", "--height", "600" }
                                          << "png" << 900 << 600 << 0 << 1.0 << "";
    QTest::newRow("--width alone keeps the default height")
        << QStringList { "--width", "900" } << "png" << 900 << 1000 << 0 << 1.0 << "";
    QTest::newRow("slide") << QStringList { "--preset", "slide" } << "png" << 1920 << 1080 << 0
                           << 1.0 << "";
    QTest::newRow("slide, any case")
        << QStringList { "--preset", "Slide" } << "png" << 1920 << 1080 << 0 << 1.0 << "";
    QTest::newRow("slide at another size")
        << QStringList { "--preset", "slide", "--size", "1280x720" } << "png" << 1280 << 720 << 0
        << 1.0 << "";
    // 300 dpi / 96 = 3.125 device pixels a logical pixel; 800 x 3.125 = 2500.
    QTest::newRow("--dpi 300 on a PNG") << QStringList { "--size", "800x500", "--dpi", "300" }
                                        << "png" << 800 << 500 << 300 << 3.125 << "";
    QTest::newRow("--dpi on an SVG: a note, no scale")
        << QStringList { "--size", "800x500", "--dpi", "300" } << "svg" << 800 << 500 << 0 << 1.0
        << "note: --dpi applies to PNG only; SVG is drawn in vectors at 800x500";
    QTest::newRow("--size a word") << QStringList { "--size", "abc" } << "png" << 0 << 0 << 0 << 0.0
                                   << "--size must be WxH, e.g. 1600x1000 (got \"abc\")";
    QTest::newRow("--size too small")
        << QStringList { "--size", "99x500" } << "png" << 0 << 0 << 0 << 0.0
        << "--size must be whole numbers of pixels between 100 and 20000";
    QTest::newRow("--size too large")
        << QStringList { "--size", "20001x500" } << "png" << 0 << 0 << 0 << 0.0
        << "--size must be whole numbers of pixels between 100 and 20000";
    QTest::newRow("--size and --width")
        << QStringList { "--size", "800x500", "--width", "900" } << "png" << 0 << 0 << 0 << 0.0
        << "--size and --width/--height contradict each other: give one of them";
    QTest::newRow("--width a word")
        << QStringList { "--width", "abc" } << "png" << 0 << 0 << 0 << 0.0
        << "--width and --height must be whole numbers of pixels between 100 and 20000";
    QTest::newRow("unknown preset")
        << QStringList { "--preset", "poster" } << "png" << 0 << 0 << 0 << 0.0
        << "--preset: unknown preset \"poster\" (expected slide)";
    QTest::newRow("--dpi a word")
        << QStringList { "--dpi", "abc" } << "png" << 0 << 0 << 0 << 0.0
        << "--dpi must be a whole number between 24 and 2400 (got \"abc\")";
    QTest::newRow("--dpi below 24")
        << QStringList { "--dpi", "23" } << "png" << 0 << 0 << 0 << 0.0
        << "--dpi must be a whole number between 24 and 2400 (got \"23\")";
    // 3000 x 1000 / 96 = 31250 device pixels, past 20000.
    QTest::newRow("--dpi making too large a PNG")
        << QStringList { "--size", "3000x3000", "--dpi", "1000" } << "png" << 0 << 0 << 0 << 0.0
        << "--dpi 1000 at 3000x3000 would make a PNG 31250 pixels wide or high; at most 20000 "
           "(choose a smaller --size or --dpi)";
}

void TestCliOptionGroups::pictureSize()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, suffix);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(int, dpi);
    QFETCH(double, scale);
    QFETCH(QString, message);
    QCommandLineParser parser;
    const cli::PictureSizeOptions group;
    parse(parser, group, arguments);
    std::optional<ridgepoint::ExportOptions> options;
    const QString printed = stderrOf([&] { options = group.read(parser, suffix); });
    checkMessage(printed, message);
    QCOMPARE(options.has_value(), width > 0);
    if (!options)
        return;
    QCOMPARE(options->width, width);
    QCOMPARE(options->height, height);
    QCOMPARE(options->dpi, dpi);
    QCOMPARE(options->scale, scale);
}

void TestCliOptionGroups::theme_data()
{
    using Kind = ridgepoint::ChartTheme::Kind;
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<std::optional<Kind>>("theme");
    QTest::addColumn<QString>("message");
    QTest::newRow("none") << QStringList {} << true << std::optional<Kind>() << "";
    QTest::newRow("light") << QStringList { "--theme", "light" } << true
                           << std::optional<Kind>(Kind::Light) << "";
    QTest::newRow("dark") << QStringList { "--theme", "dark" } << true
                          << std::optional<Kind>(Kind::Dark) << "";
    QTest::newRow("print") << QStringList { "--theme", "print" } << true
                           << std::optional<Kind>(Kind::Print) << "";
    QTest::newRow("unknown") << QStringList { "--theme", "blue" } << false << std::optional<Kind>()
                             << "--theme: unknown theme \"blue\" (expected light, dark or print)";
    QTest::newRow("names are exact")
        << QStringList { "--theme", "Dark" } << false << std::optional<Kind>()
        << "--theme: unknown theme \"Dark\" (expected light, dark or print)";
}

void TestCliOptionGroups::theme()
{
    using Kind = ridgepoint::ChartTheme::Kind;
    QFETCH(QStringList, arguments);
    QFETCH(bool, ok);
    QFETCH(std::optional<Kind>, theme);
    QFETCH(QString, message);
    QCommandLineParser parser;
    const cli::ThemeOption group("Theme.");
    parse(parser, group, arguments);
    bool read = false;
    std::optional<Kind> chosen;
    const QString printed = stderrOf([&] { chosen = group.read(parser, read); });
    checkMessage(printed, message);
    QCOMPARE(read, ok);
    QCOMPARE(chosen, theme);
}

QTEST_MAIN(TestCliOptionGroups)
#include "tst_cli_option_groups.moc"
