// `ridgepoint render` and `analyze` of sessions, end to end (issue 4): every option reaches the
// file, bad options are refused with their message, pictures carry their session and reopen
// to the same session and the same analysis, SVGs are valid XML, PNGs are not blank.
#include "tests/support/cli_run.h"

#include "core/presets/presets.h"
#include "core/session/session.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/sessionfile.h"
#include "widgets/export/exportlimits.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

using test::Run;

// The executable (test::runCli).
Run cli(const QStringList &arguments)
{
    return test::runCli(arguments);
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

KernelPoint measured(const char *name, double flops, double bytes, double seconds, int line)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = seconds;
    p.group = "attention";
    p.source = { "runs/new.csv", line };
    return p;
}

SessionPoint sessionPoint(KernelPoint point, double bytesFactor = 1.0)
{
    SessionPoint p;
    p.point = std::move(point);
    p.bytesFactor = bytesFactor;
    return p;
}

Hardware preset(const char *name)
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    const auto found = presets.find(name);
    if (!found)
        qFatal("no preset %s", name);
    return **found;
}

// A session with every review layer: a what-if move, a note on a point and one at a position,
// a target, a baseline (gemm twice and softmax 1.5 times as fast now), the dark theme, a view.
Session reviewSession()
{
    Session s;
    s.hardware = preset("h100");
    s.points = { sessionPoint(measured("gemm", 2e12, 1e9, 0.004, 2)),
        sessionPoint(measured("stream", 1e9, 1.2e10, 0.005, 3)),
        sessionPoint(measured("softmax", 4e10, 8e9, 0.004, 4), 0.5) };
    s.annotations = { { "tiled in v2", "gemm", 0.0, 0.0 }, { "look here", "", 3.5, 2.5e11 } };
    s.targets = { { "HBM3", 0.6, "" } };
    Baseline baseline { "runs/old.csv",
        { measured("gemm", 2e12, 1e9, 0.008, 2), measured("softmax", 4e10, 8e9, 0.006, 4) } };
    s.baseline = baseline;
    s.theme = "dark";
    s.view = ViewRange { 0.01, 1e4, 1e10, 1e16 };
    return s;
}

// `render` with the common arguments; fails the test unless it exits 0.
Run render(QStringList arguments)
{
    arguments.prepend("render");
    const Run run = cli(arguments);
    if (run.status != 0)
        qWarning("%s", run.err.constData());
    return run;
}

} // namespace

class TestCliRender : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesThePngAtTheAskedSizeAndDpi_data();
    void writesThePngAtTheAskedSizeAndDpi();
    void drawsAPngThatIsNotBlank();
    void paintsTheThemeBackground_data();
    void paintsTheThemeBackground();
    void writesTheTitleAsSvgText();
    void labelsBaselineArrowsWithTheSpeedUp();
    void drawsTheSessionsNotesTargetsAndArrows();
    void drawsTheTableOnlyWhenAsked();
    void embedsTheSessionUnlessTold();
    void drawsTheRoofsAsked_data();
    void drawsTheRoofsAsked();
    void drawsTheComparedMachine_data();
    void drawsTheComparedMachine();
    void saysWhenTheSessionIsTooBigToEmbed();
    void drawsTheDotSizeAsked_data();
    void drawsTheDotSizeAsked();
    void refusesBadOptions_data();
    void refusesBadOptions();
    void refusesASizeBelowTheDialogsMinimum();
    void analysesAnExportedPictureLikeItsSession_data();
    void analysesAnExportedPictureLikeItsSession();
    void aSessionIsNeverTakenForAMachineFile();
    void reopensAPngSessionAndWritesItAgain();
    void analysesASessionOnAnotherMachine();
    void namesTheSessionOfAPointItCannotPlace_data();
    void namesTheSessionOfAPointItCannotPlace();
    void refusesSessionsOfTwoMachinesWithoutHardware();
    void writesValidSvg_data();
    void writesValidSvg();

private:
    QTemporaryDir m_dir;
    QString m_points;
    QString m_baseline;
    QString m_session;
};

void TestCliRender::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_points = write(m_dir, "points.csv",
        "name,flops,bytes,seconds,group\n"
        "gemm,2e12,1e9,0.004,attention\n"
        "stream,1e9,1.2e10,0.005,memory\n"
        "softmax,4e10,8e9,0.004,attention\n");
    m_baseline = write(m_dir, "baseline.csv",
        "name,flops,bytes,seconds\n"
        "gemm,2e12,1e9,0.008\n"
        "softmax,4e10,8e9,0.006\n"
        "stream,1e9,1.2e10,0.005\n");
    m_session = write(m_dir, "review.ridgepoint.json",
        QByteArray::fromStdString(writeSessionJson(reviewSession())));
}

void TestCliRender::writesThePngAtTheAskedSizeAndDpi_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<int>("dpi");
    QTest::newRow("default") << QStringList {} << QSize(1600, 1000) << 96;
    QTest::newRow("--size") << QStringList { "--size", "800x500" } << QSize(800, 500) << 96;
    QTest::newRow("--width/--height")
        << QStringList { "--width", "900", "--height", "600" } << QSize(900, 600) << 96;
    // 800 × 300/96 = 2500, 500 × 300/96 = 1562.5.
    QTest::newRow("--dpi 300") << QStringList { "--size", "800x500", "--dpi", "300" }
                               << QSize(2500, 1563) << 300;
    QTest::newRow("--dpi 192") << QStringList { "--size", "400x300", "--dpi", "192" }
                               << QSize(800, 600) << 192;
    // A 16:9 slide is 1920 × 1080 at 96 dpi; an explicit size still wins.
    QTest::newRow("--preset slide")
        << QStringList { "--preset", "slide" } << QSize(1920, 1080) << 96;
    QTest::newRow("--preset slide --size")
        << QStringList { "--preset", "slide", "--size", "1280x720" } << QSize(1280, 720) << 96;
}

void TestCliRender::writesThePngAtTheAskedSizeAndDpi()
{
    QFETCH(QStringList, options);
    QFETCH(QSize, pixels);
    QFETCH(int, dpi);
    const QString output = m_dir.filePath("sized.png");
    QCOMPARE(
        render(QStringList { "--hardware", "h100", m_points, "-o", output } + options).status, 0);
    QImageReader reader(output);
    QCOMPARE(reader.format(), QByteArray("png"));
    QCOMPARE(reader.size(), pixels);
    const QImage image = reader.read();
    QVERIFY(!image.isNull());
    // pHYs holds whole dots per metre.
    QCOMPARE(image.dotsPerMeterX(), qRound(dpi / 0.0254));
    QCOMPARE(image.dotsPerMeterY(), qRound(dpi / 0.0254));
}

void TestCliRender::drawsAPngThatIsNotBlank()
{
    const QString output = m_dir.filePath("example.png");
    QCOMPARE(
        render({ "--hardware", "h100", "--example", "--size", "800x500", "-o", output }).status, 0);
    const QImage image(output);
    QCOMPARE(image.size(), QSize(800, 500));
    const QRgb background = image.pixel(2, 2);
    QSet<QRgb> colours;
    int inked = 0;
    // The middle of the picture is inside the axis rect: roofs, points, grid.
    const QRect plotArea(200, 125, 400, 250);
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            colours.insert(pixel);
            if (plotArea.contains(x, y) && pixel != background)
                ++inked;
        }
    }
    QVERIFY2(colours.size() >= 8, qPrintable(QString::number(colours.size())));
    QVERIFY2(
        inked > plotArea.width() * plotArea.height() / 100, qPrintable(QString::number(inked)));
}

void TestCliRender::paintsTheThemeBackground_data()
{
    QTest::addColumn<QString>("theme");
    QTest::addColumn<QColor>("background");
    QTest::newRow("light") << "light" << ChartTheme::light().background;
    QTest::newRow("dark") << "dark" << ChartTheme::dark().background;
    QTest::newRow("print") << "print" << ChartTheme::print().background;
}

void TestCliRender::paintsTheThemeBackground()
{
    QFETCH(QString, theme);
    QFETCH(QColor, background);
    const QString output = m_dir.filePath("theme-" + theme + ".png");
    QCOMPARE(render({ "--hardware", "h100", m_points, "--theme", theme, "--size", "400x300", "-o",
                        output })
                 .status,
        0);
    const QImage image(output);
    QCOMPARE(QColor(image.pixel(2, 2)).name(), background.name());
    QCOMPARE(QColor(image.pixel(397, 297)).name(), background.name());
}

void TestCliRender::writesTheTitleAsSvgText()
{
    const QString output = m_dir.filePath("titled.svg");
    QCOMPARE(render({ "--hardware", "h100", m_points, "--title", "Q3 review: attention kernels",
                        "-o", output })
                 .status,
        0);
    QVERIFY(readAll(output).contains("Q3 review: attention kernels"));
}

void TestCliRender::labelsBaselineArrowsWithTheSpeedUp()
{
    const QString output = m_dir.filePath("baseline.svg");
    QCOMPARE(render({ "--hardware", "h100", m_points, "--baseline", m_baseline, "--no-embed", "-o",
                        output })
                 .status,
        0);
    const QString svg = QString::fromUtf8(readAll(output));
    // gemm 0.008 s → 0.004 s, softmax 0.006 → 0.004, stream unchanged.
    for (const QString label : { "×2", "×1.5", "×1" })
        QVERIFY2(svg.contains(">" + label + "<"), qPrintable(label));
    QVERIFY(svg.contains("baseline.csv")); // the baseline's legend entry
}

void TestCliRender::drawsTheSessionsNotesTargetsAndArrows()
{
    const QString output = m_dir.filePath("session.svg");
    QCOMPARE(render({ "--session", m_session, "--no-embed", "-o", output }).status, 0);
    const QString svg = QString::fromUtf8(readAll(output));
    QVERIFY(svg.contains(">tiled in v2<"));
    QVERIFY(svg.contains(">look here<"));
    QVERIFY(svg.contains(">goal: 60 % of HBM3<"));
    QVERIFY(svg.contains(">×2<"));
    // softmax moved to half its bytes: the arrow starts at the baseline's place, 0.006 s.
    QVERIFY(svg.contains(">×1.5<"));
}

void TestCliRender::drawsTheTableOnlyWhenAsked()
{
    // The table (its "Kernel" header) only with --table; it lists every point. (The chart names
    // its few points itself since issue 17, so a name alone no longer tells.)
    const QString plain = m_dir.filePath("plain.svg");
    const QString table = m_dir.filePath("table.svg");
    QCOMPARE(render({ "--hardware", "h100", m_points, "--no-embed", "-o", plain }).status, 0);
    QCOMPARE(
        render({ "--hardware", "h100", m_points, "--no-embed", "--table", "-o", table }).status, 0);
    QVERIFY(!readAll(plain).contains(">Kernel<"));
    QVERIFY(readAll(table).contains(">Kernel<"));
    const QByteArray withTable = readAll(table);
    for (const char *name : { ">gemm<", ">stream<", ">softmax<" })
        QVERIFY2(withTable.contains(name), name);
}

void TestCliRender::embedsTheSessionUnlessTold()
{
    for (const QString suffix : { "svg", "png" }) {
        const QString embedded = m_dir.filePath("embedded." + suffix);
        const QString bare = m_dir.filePath("bare." + suffix);
        QCOMPARE(render({ "--hardware", "h100", m_points, "-o", embedded }).status, 0);
        QCOMPARE(render({ "--hardware", "h100", m_points, "--no-embed", "-o", bare }).status, 0);
        const SessionReadResult read = readSessionFile(embedded);
        QVERIFY2(read.session, qPrintable(suffix));
        QCOMPARE(read.session->points.size(), std::size_t(3));
        QCOMPARE(read.session->hardware.name, preset("h100").name);
        QVERIFY(!readSessionFile(bare).session);
    }
}

// --roofs reaches the picture: its embedded session says which compute roofs were drawn.
void TestCliRender::drawsTheRoofsAsked_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("roofs");
    QTest::newRow("default") << QStringList {} << int(RoofsShown::Data);
    QTest::newRow("data") << QStringList { "--roofs", "data" } << int(RoofsShown::Data);
    QTest::newRow("all") << QStringList { "--roofs", "all" } << int(RoofsShown::All);
}

void TestCliRender::drawsTheRoofsAsked()
{
    QFETCH(QStringList, options);
    QFETCH(int, roofs);
    const QString out = m_dir.filePath("roofs.svg");
    QCOMPARE(render(QStringList { "--hardware", "h100", m_points, "-o", out } + options).status, 0);
    const SessionReadResult read = readSessionFile(out);
    QVERIFY(read.session);
    QCOMPARE(int(read.session->roofs), roofs);
}

// --dot-size reaches the picture: fixed dots are smaller than the time-sized ones (the three
// points take 4, 5 and 4 ms: √0.8 · 24 = 21.5 px, class 5, 24 px across, against 9 px), and the
// embedded session says "fixed" (time, the default, is left unsaid); a render of that session
// keeps it unless told.
void TestCliRender::drawsTheDotSizeAsked_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("saved");
    QTest::newRow("default") << QStringList {} << "";
    QTest::newRow("time") << QStringList { "--dot-size", "time" } << "";
    QTest::newRow("fixed") << QStringList { "--dot-size", "fixed" } << "fixed";
}

void TestCliRender::drawsTheDotSizeAsked()
{
    QFETCH(QStringList, options);
    QFETCH(QString, saved);
    const QString out = m_dir.filePath("dots.png");
    QCOMPARE(render(QStringList { "--hardware", "h100", m_points, "--size", "800x500", "-o", out }
                 + options)
                 .status,
        0);
    const SessionReadResult read = readSessionFile(out);
    QVERIFY(read.session);
    QCOMPARE(QString::fromStdString(read.session->dotSize), saved);
    // Coloured pixels (the dots' fills) in the plot: more with time-sized dots.
    const auto inked = [](const QString &file) {
        const QImage image(file);
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                count += c.saturation() > 120 && c.value() > 60 ? 1 : 0;
            }
        }
        return count;
    };
    const QString fixed = m_dir.filePath("dots-fixed.png");
    QCOMPARE(render({ "--hardware", "h100", m_points, "--size", "800x500", "--dot-size", "fixed",
                        "--no-embed", "-o", fixed })
                 .status,
        0);
    if (saved.isEmpty())
        QVERIFY2(inked(out) > inked(fixed) + 500,
            qPrintable(QString("%1 vs %2").arg(inked(out)).arg(inked(fixed))));
    else
        QCOMPARE(inked(out), inked(fixed));
    // The picture's session drawn again keeps its dot size.
    const QString again = m_dir.filePath("dots-again.png");
    QCOMPARE(render({ "--session", out, "-o", again }).status, 0);
    QCOMPARE(QString::fromStdString(readSessionFile(again).session->dotSize), saved);
}

// --compare (issue 17): the picture's embedded session names both machines, and the points
// are still placed on the first one (the same analysis with and without it). A session's own
// compared machine is drawn when the command names none; --compare replaces it.
void TestCliRender::drawsTheComparedMachine_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("compared"); // the preset the picture must name, "" for none
    QTest::newRow("none") << QStringList {} << QString();
    QTest::newRow("a preset") << QStringList { "--compare", "h100" } << "h100";
    QTest::newRow("another preset, slide")
        << QStringList { "--compare", "mi300x", "--preset", "slide" } << "mi300x";
}

void TestCliRender::drawsTheComparedMachine()
{
    QFETCH(QStringList, options);
    QFETCH(QString, compared);
    const QString out = m_dir.filePath("compare.svg");
    QFile::remove(out);
    const Run run
        = render(QStringList { "--hardware", "A100 40GB", m_points, "-o", out } + options);
    QCOMPARE(run.status, 0);
    const SessionReadResult read = readSessionFile(out);
    QVERIFY(read.session);
    QCOMPARE(read.session->hardware.name, preset("A100 40GB").name);
    QCOMPARE(read.session->compare.has_value(), !compared.isEmpty());
    if (!compared.isEmpty()) {
        QCOMPARE(read.session->compare->name, preset(qPrintable(compared)).name);
        // The compared machine's roofs are drawn, named after it (its short name) in the SVG.
        const Hardware other = preset(qPrintable(compared));
        const QString shortName
            = QString::fromStdString(other.aliases.empty() ? other.name : other.aliases.front());
        QVERIFY2(readAll(out).contains(shortName.toUtf8()), qPrintable(shortName));
    }
    // The points' analysis is the first machine's either way: `analyze` of the picture gives
    // the same table as of the plain points on A100 40GB.
    const Run picture = cli({ "analyze", out });
    const Run plain = cli({ "analyze", "--hardware", "A100 40GB", m_points });
    QCOMPARE(picture.status, 0);
    QCOMPARE(picture.out, plain.out);
}

void TestCliRender::saysWhenTheSessionIsTooBigToEmbed()
{
    // Long names make the session pass 16 MiB with few points, so the render stays quick.
    QByteArray csv = "name,flops,bytes,seconds\n";
    const QByteArray padding(2000, 'k');
    for (int i = 0; i < 9000; ++i)
        csv += padding + QByteArray::number(i) + ",1e9,1e8,0.01\n";
    const QString points = write(m_dir, "long-names.csv", csv);
    const QString output = m_dir.filePath("big.svg");
    const Run run = render({ "--hardware", "h100", points, "-o", output });
    QCOMPARE(run.status, 0);
    QVERIFY2(
        run.err.contains("MiB and was not embedded in " + output.toUtf8()), run.err.constData());
    QVERIFY(!readSessionFile(output).session);
}

void TestCliRender::refusesBadOptions_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    const QString broken = write(m_dir, "broken.ridgepoint.json",
        "{\"format\": \"ridgepoint-session\",\n \"version\": 1,\n \"hardware\": ,\n}\n");
    const QString out = m_dir.filePath("never.png");
    QTest::newRow("size without x")
        << QStringList { "--size", "800", "-o", out } << "--size must be WxH, e.g. 1600x1000";
    QTest::newRow("size with words")
        << QStringList { "--size", "wide", "-o", out } << "--size must be WxH, e.g. 1600x1000";
    QTest::newRow("size too small") << QStringList { "--size", "50x50", "-o",
        out } << "--size must be whole numbers of pixels between 100 and 20000";
    QTest::newRow("size and width") << QStringList { "--size", "800x500", "--width", "900", "-o",
        out } << "--size and --width/--height contradict each other";
    QTest::newRow("width not a number")
        << QStringList { "--width", "wide", "-o", out } << "--width and --height must be whole";
    QTest::newRow("unknown theme") << QStringList { "--theme", "neon", "-o",
        out } << "--theme: unknown theme \"neon\" (expected light, dark or print)";
    QTest::newRow("dpi zero") << QStringList { "--dpi", "0", "-o", out }
                              << "--dpi must be a whole number between 24 and 2400";
    QTest::newRow("dpi not a number") << QStringList { "--dpi", "300dpi", "-o", out }
                                      << "--dpi must be a whole number between 24 and 2400";
    QTest::newRow("dpi too large for the size")
        << QStringList { "--size", "8000x5000", "--dpi", "600", "-o", out } << "at most 20000";
    QTest::newRow("unknown image type")
        << QStringList { "-o", m_dir.filePath("x.bmp") } << "unknown image type \"bmp\"";
    QTest::newRow("session not found") << QStringList { "--session", m_dir.filePath("missing.json"),
        "-o", out } << m_dir.filePath("missing.json") + ": not found";
    QTest::newRow("session with a syntax error")
        << QStringList { "--session", broken, "-o", out } << broken + ":3:";
    QTest::newRow("unknown roofs") << QStringList { "--roofs", "some", "-o", out }
                                   << "--roofs: unknown choice \"some\" (expected data or all)";
    QTest::newRow("unknown dot size") << QStringList { "--dot-size", "big", "-o",
        out } << "--dot-size: unknown choice \"big\" (expected time or fixed)";
    QTest::newRow("unknown compared machine")
        << QStringList { "--compare", "no-such-gpu", "-o", out } << "--compare: ";
    QTest::newRow("baseline not found") << QStringList { "--baseline", m_dir.filePath("old.csv"),
        "-o", out } << m_dir.filePath("old.csv") + ": not found";
}

void TestCliRender::refusesBadOptions()
{
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    const Run run = cli(QStringList { "render", "--hardware", "h100", m_points } + options);
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!QFile::exists(m_dir.filePath("never.png")));
}

// One range for the command and File ▸ Export image…: both take ExportLimits (tst_exportdialog
// checks the dialog's boxes stop at the same least side). One pixel less is refused with status
// 2 and the range; the least side itself is drawn.
void TestCliRender::refusesASizeBelowTheDialogsMinimum()
{
    const int least = ExportLimits::kMinSide;
    const QString output = m_dir.filePath("least.png");
    const QString range = QString("between %1 and %2").arg(least).arg(ExportLimits::kMaxSide);
    const QList<QStringList> tooSmall {
        { "--size", QString("%1x%2").arg(least - 1).arg(least) },
        { "--size", QString("%1x%2").arg(least).arg(least - 1) },
        { "--width", QString::number(least - 1), "--height", QString::number(least) },
    };
    for (const QStringList &size : tooSmall) {
        const Run run
            = cli(QStringList { "render", "--hardware", "h100", m_points, "-o", output } + size);
        QCOMPARE(run.status, 2);
        QVERIFY2(QString::fromUtf8(run.err).contains(range), run.err.constData());
        QVERIFY(!QFile::exists(output));
    }
    const QStringList drawn { "--hardware", "h100", m_points, "--size", QString("%1x%1").arg(least),
        "-o", output };
    QCOMPARE(render(drawn).status, 0);
    QCOMPARE(QImage(output).size(), QSize(least, least));
}

void TestCliRender::analysesAnExportedPictureLikeItsSession_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("svg") << "svg";
    QTest::newRow("png") << "png";
    QTest::newRow("pdf") << "pdf";
}

// A session is never taken for a machine file (analyze and render take a file that gives only a
// machine as --hardware), even where its format key stands past the first 64 KiB the format is
// told from: a session JSON whose keys another tool reordered.
void TestCliRender::aSessionIsNeverTakenForAMachineFile()
{
    QFile file(m_session);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray text = file.readAll();
    const QByteArray key = "\"format\": \"ridgepoint-session\",";
    QVERIFY(text.contains(key));
    text.replace(key, "");
    text = text.left(text.lastIndexOf('}')).trimmed() + ",\n" + QByteArray(70 * 1024, ' ')
        + "\"format\": \"ridgepoint-session\"\n}\n";
    const QString moved = write(m_dir, "key-last.ridgepoint.json", text);
    const Run before = cli({ "analyze", "--json", m_session });
    const Run late = cli({ "analyze", "--json", moved });
    QVERIFY2(late.status == 0, late.err.constData());
    QVERIFY(!late.err.contains("taken as the machine"));
    QCOMPARE(QJsonDocument::fromJson(late.out).object()["points"].toArray().size(),
        QJsonDocument::fromJson(before.out).object()["points"].toArray().size());
    const Run shown = cli({ "presets", moved });
    QCOMPARE(shown.status, 2);
    QVERIFY(shown.err.contains("a session (or a picture that may carry one), not a machine file"));
}

void TestCliRender::analysesAnExportedPictureLikeItsSession()
{
    QFETCH(QString, suffix);
    const QString picture = m_dir.filePath("roundtrip." + suffix);
    QCOMPARE(render({ "--session", m_session, "-o", picture }).status, 0);
    const Run fromSession = cli({ "analyze", m_session, "--format", "json" });
    const Run fromPicture = cli({ "analyze", picture, "--format", "json" });
    QCOMPARE(fromSession.status, 0);
    QVERIFY2(fromPicture.status == 0, fromPicture.err.constData());
    QVERIFY(fromSession.out.contains("\"NVIDIA H100 SXM5 80GB\""));
    QVERIFY(fromSession.out.contains("\"softmax\""));
    QCOMPARE(fromPicture.out, fromSession.out);
}

void TestCliRender::reopensAPngSessionAndWritesItAgain()
{
    const QString png = m_dir.filePath("a.png");
    const QString svg = m_dir.filePath("b.svg");
    QCOMPARE(render({ "--session", m_session, "-o", png }).status, 0);
    QCOMPARE(render({ "--session", png, "-o", svg }).status, 0);
    const SessionReadResult fromPng = readSessionFile(png);
    const SessionReadResult fromSvg = readSessionFile(svg);
    QVERIFY(fromPng.session && fromSvg.session);
    const std::string original = writeSessionJson(reviewSession());
    QCOMPARE(writeSessionJson(*fromPng.session), original);
    QCOMPARE(writeSessionJson(*fromSvg.session), original);
}

// A session's point has no file of its own: a refusal names the session it came from (issue 27:
// "<input>").
void TestCliRender::namesTheSessionOfAPointItCannotPlace_data()
{
    QTest::addColumn<QStringList>("arguments"); // SESSION and PICTURE stand for the files
    QTest::newRow("analyze") << QStringList { "analyze", "SESSION" };
    QTest::newRow("analyze --format json")
        << QStringList { "analyze", "--format", "json", "SESSION" };
    QTest::newRow("render --session")
        << QStringList { "render", "--session", "SESSION", "-o", "PICTURE" };
}

void TestCliRender::namesTheSessionOfAPointItCannotPlace()
{
    QFETCH(QStringList, arguments);
    Session s = reviewSession();
    KernelPoint fp4 = measured("fp4 gemm", 1e12, 1e9, 0.01, 0);
    fp4.precision = Precision::FP4; // the H100 has no FP4 roof
    fp4.source = {};
    s.points.push_back(sessionPoint(fp4));
    const QString session
        = write(m_dir, "unplaced.ridgepoint.json", QByteArray::fromStdString(writeSessionJson(s)));
    for (QString &argument : arguments)
        argument.replace("SESSION", session).replace("PICTURE", m_dir.filePath("unplaced.png"));
    const Run run = cli(arguments);
    QVERIFY2(run.err.contains((session + ": point \"fp4 gemm\"").toUtf8()), run.err.constData());
    QVERIFY2(!run.err.contains("<input>"), run.err.constData());
}

void TestCliRender::analysesASessionOnAnotherMachine()
{
    const Run run = cli({ "analyze", m_session, "--hardware", "A100 80GB", "--format", "json" });
    QCOMPARE(run.status, 0);
    QVERIFY2(
        run.out.contains(QByteArray::fromStdString(preset("A100 80GB").name)), run.out.constData());
    // The moved softmax is analysed as moved: half of its 8e9 bytes, intensity 10 FLOP/B.
    QVERIFY(run.out.contains("\"intensity\": 10"));
}

void TestCliRender::refusesSessionsOfTwoMachinesWithoutHardware()
{
    Session other = reviewSession();
    other.hardware = preset("A100 80GB");
    other.targets.clear(); // its roof is HBM2e, not HBM3
    const QString second
        = write(m_dir, "a100.ridgepoint.json", QByteArray::fromStdString(writeSessionJson(other)));
    const Run run = cli({ "analyze", m_session, second });
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("choose one machine with --hardware"), run.err.constData());
    QCOMPARE(cli({ "analyze", m_session, second, "--hardware", "h100" }).status, 0);
}

void TestCliRender::writesValidSvg_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("points") << QStringList { "--hardware", "h100", m_points };
    // Markup in a title must be escaped, not written as it is.
    QTest::newRow("title with markup")
        << QStringList { "--hardware", "h100", m_points, "--title", "<b>A & B</b> \"quoted\"" };
    QTest::newRow("session, table") << QStringList { "--session", m_session, "--table" };
    QTest::newRow("example, print theme")
        << QStringList { "--hardware", "h100", "--example", "--theme", "print" };
}

void TestCliRender::writesValidSvg()
{
    QFETCH(QStringList, options);
    const QString xmllint = QStandardPaths::findExecutable("xmllint");
    if (xmllint.isEmpty())
        QSKIP("xmllint is not installed (Debian: libxml2-utils, scripts/bootstrap)");
    const QString output = m_dir.filePath("valid.svg");
    QCOMPARE(render(options + QStringList { "-o", output }).status, 0);
    QProcess lint;
    lint.start(xmllint, { "--noout", output });
    QVERIFY(lint.waitForFinished(30000));
    QVERIFY2(lint.exitCode() == 0, lint.readAllStandardError().constData());
}

QTEST_GUILESS_MAIN(TestCliRender)
#include "tst_cli_render.moc"
