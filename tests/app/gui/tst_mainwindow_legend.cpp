// The chart at a presentation font (issue 27, item 4): on the window's first-start size and on a
// 1920 × 1080 screen, with the example data set on H100, alone or compared with MI300X or
// A100 80GB, at 100, 150 and 200 % the legend keeps every entry a reader needs (each group's
// colour, the impossible marker, the compared machine's dashes) without "+N more" and within a
// quarter of the chart's height, and every flat ceiling label shown keeps at least the first
// whole word of its name.
#include "app/gui/mainwindow.h"

#include "core/presets/example_points.h"
#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "widgets/chart/geometry/legendgrid.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"

#include <QAction>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <set>

using namespace ridgepoint;

namespace {

const Hardware &preset(const char *name)
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    return **presets.find(name);
}

// The names of the legend's entries.
QStringList legendNames(const QCPLegend &legend)
{
    QStringList names;
    for (int i = 0; i < legend.itemCount(); ++i) {
        if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend.item(i)))
            names << entry->plottable()->name();
        else if (legend.item(i))
            names << QStringLiteral("(other entry)");
    }
    return names;
}

QString shortName(const Hardware &hw)
{
    return QString::fromStdString(hw.aliases.empty() ? hw.name : hw.aliases.front());
}

// What a flat compute label may begin with: the first word of a ceiling's name, after the
// compared machine's short name on its roofs ("MI300X BF16"), or that name alone.
std::set<QString> firstWords(const Hardware &hw, const Hardware *compared)
{
    std::set<QString> words;
    if (compared)
        words.insert(shortName(*compared));
    for (const auto &c : hw.compute)
        words.insert(QString::fromStdString(c.name).section(' ', 0, 0));
    for (const auto &c : compared ? compared->compute : std::vector<ComputeCeiling> {})
        words.insert(
            shortName(*compared) + ' ' + QString::fromStdString(c.name).section(' ', 0, 0));
    return words;
}

} // namespace

class TestMainWindowLegend : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void largeFontKeepsALegendAndNamesAReaderNeeds_data();
    void largeFontKeepsALegendAndNamesAReaderNeeds();

private:
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestMainWindowLegend::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
}

void TestMainWindowLegend::largeFontKeepsALegendAndNamesAReaderNeeds_data()
{
    QTest::addColumn<int>("percent");
    QTest::addColumn<QString>("compare"); // a preset, or empty for none
    QTest::addColumn<QSize>("size");
    for (const QSize size : { QSize(1600, 950), QSize(1920, 1080) }) {
        for (const int percent : { 100, 150, 200 }) {
            for (const char *compare : { "", "MI300X", "A100 80GB" }) {
                const QString name = QStringLiteral("%1×%2, %3 %, %4")
                                         .arg(size.width())
                                         .arg(size.height())
                                         .arg(percent)
                                         .arg(*compare ? compare : "alone");
                QTest::newRow(qPrintable(name)) << percent << QString(compare) << size;
            }
        }
    }
}

void TestMainWindowLegend::largeFontKeepsALegendAndNamesAReaderNeeds()
{
    QFETCH(int, percent);
    QFETCH(QString, compare);
    QFETCH(QSize, size);
    MainWindow window;
    const Hardware &h100 = preset("H100");
    window.setHardware(h100);
    window.setPoints(examplePoints(), "the example data set");
    const Hardware *compared = compare.isEmpty() ? nullptr : &preset(qPrintable(compare));
    if (compared)
        window.document()->setCompareHardware(*compared);
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.findChild<QAction *>(QStringLiteral("fontScale-%1").arg(percent))->trigger();
    for (int i = 0; i < 4; ++i)
        QCoreApplication::processEvents();
    RooflinePlot *plot = window.plot();
    plot->replot();

    // Every entry shown, within a quarter of the chart's height.
    const QCPLegend &legend = *plot->legend;
    QVERIFY(legend.visible());
    QCOMPARE(plot->inspect().legendEntriesLeftOut(), 0);
    const QStringList names = legendNames(legend);
    QVERIFY2(legend.outerRect().height() <= chart::kLegendShare * plot->height() + 1,
        qPrintable(QStringLiteral("legend %1 of %2 px: %3")
                       .arg(legend.outerRect().height())
                       .arg(plot->height())
                       .arg(names.join(" | "))));
    // Each group's colour, the impossible marker, the roofline and the compared machine's
    // dashes.
    for (const char *group : { "prefill GEMM", "attention", "elementwise", "decode GEMV" })
        QVERIFY2(names.contains(group), qPrintable(names.join(" | ")));
    QVERIFY2(names.contains("impossible: above its roof"), qPrintable(names.join(" | ")));
    QVERIFY2(names.filter(QStringLiteral("Roofline: ")).size() == 1, qPrintable(names.join(" | ")));
    if (compared) {
        const QString entry = QStringLiteral("Compare: %1 (dashed)").arg(shortName(*compared));
        QVERIFY2(names.contains(entry), qPrintable(names.join(" | ")));
    }

    // Flat ceiling labels: none cut to its last letters ("…nsor  989 TFLOP/s"); each begins
    // with a whole first word of a ceiling's name (or the compared machine's name).
    const std::set<QString> words = firstWords(h100, compared);
    int flat = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->realVisibility() || text->rotation() != 0.0
            || !text->text().endsWith(QStringLiteral("FLOP/s")))
            continue;
        ++flat;
        const QString label = text->text();
        // The compared machine's name and its ceiling's first word are one word (no-break
        // spaces between them).
        const QString first = label.section(' ', 0, 0)
                                  .remove(QStringLiteral("…"))
                                  .replace(QChar::Nbsp, QLatin1Char(' '));
        QVERIFY2(
            !label.startsWith(QStringLiteral("…")) && words.count(first) == 1, qPrintable(label));
    }
    QVERIFY(flat >= 1); // the active roof's label is always shown
}

QTEST_MAIN(TestMainWindowLegend)
#include "tst_mainwindow_legend.moc"
