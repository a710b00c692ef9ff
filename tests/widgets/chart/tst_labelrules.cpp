// The label rules a reviewer reads a picture by (issue 27, item 2), on what an export draws:
// for the built-in example and a 20-step matmul sweep, at 800×500, 1600×1000 and the slide
// preset, no point label is cut (no ellipsis), each reads as its point's chart name in whole
// words (or without its trailing remark, or as the point's number), and no two read alike.
#include "core/io/file_io.h"
#include "core/io/readers.h"
#include "core/presets/presets.h"
#include "core/workloads/planned_workload.h"
#include "widgets/chart/labeltext.h"
#include "widgets/chart/pointlabelplacement.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/exportoptions.h"

#include <QSet>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

std::vector<Workload> matmulSweep(int steps)
{
    std::vector<Workload> sweep;
    for (int k = 0; k < steps; ++k) {
        MatmulWorkload matmul;
        matmul.spec.b = std::int64_t { 1 } << k;
        matmul.spec.d = 8192;
        matmul.spec.f = 8192;
        Workload w;
        w.model = matmul;
        w.group = "matmul sweep";
        w.sweep = SweepMembership { 1, "b", static_cast<double>(matmul.spec.b) };
        sweep.push_back(w);
    }
    return sweep;
}

// The label's lines read back as one text: joined by a space where the break was a space.
QString rejoined(const QString &label)
{
    const QStringList lines = label.split('\n');
    if (lines.size() < 2)
        return label;
    const QChar last = lines[0].back();
    const bool brokeAfter = last == '_' || last == '/' || last == ',' || last == '-' || last == '=';
    return lines[0] + (brokeAfter ? QString() : QStringLiteral(" ")) + lines[1];
}

} // namespace

class TestLabelRules : public QObject
{
    Q_OBJECT

private slots:
    void labelsReadWhole_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("size");
        for (const char *data : { "example", "sweep" }) {
            for (const char *size : { "800x500", "1600x1000", "slide" })
                QTest::newRow(qPrintable(QString("%1 at %2").arg(data, size))) << data << size;
        }
    }

    void labelsReadWhole()
    {
        QFETCH(QString, data);
        QFETCH(QString, size);
        RooflinePlot plot;
        plot.resize(1200, 800);
        Document &doc = *plot.document();
        doc.resetHardware(**PresetDatabase::builtin().find("H100"));
        if (data == "example") {
            const auto text = readTextFile(
                RIDGEPOINT_SOURCE_DIR "/resources/examples/h100-transformer-kernels.csv");
            QVERIFY(text.has_value());
            const auto read = readPointsFile(*text, "h100-transformer-kernels.csv");
            QVERIFY(!read.points.points.empty());
            doc.resetPoints(read.points.points);
        } else {
            QVERIFY(doc.addWorkloads(matmulSweep(20), "sweep").has_value());
            QCOMPARE(doc.pointCount(), std::size_t { 20 });
        }
        plot.fitToData();
        ExportOptions options = size == "slide" ? slideExportOptions() : ExportOptions {};
        if (size != "slide") {
            options.width = size.section('x', 0, 0).toInt();
            options.height = size.section('x', 1, 1).toInt();
        }
        QVERIFY(!plot.renderToBytes("svg", options).isEmpty());
        const RooflinePlot::LabelLayout *layout = nullptr;
        for (const auto &candidate : plot.labelLayouts()) {
            if (candidate.size.width() == options.width)
                layout = &candidate;
        }
        QVERIFY(layout);
        QVERIFY(!layout->pointLabels.empty());

        QStringList names;
        for (std::size_t i = 0; i < doc.pointCount(); ++i)
            names << QString::fromStdString(doc.measuredPoint(i).name);
        const QStringList chartNames = chart::chartNames(names);
        QSet<QString> seen;
        for (const auto &[label, at] : layout->pointLabels) {
            QVERIFY2(!label.contains(QChar(0x2026)), qPrintable("cut: " + label));
            QVERIFY2(label.count('\n') <= 1, qPrintable("more than two lines: " + label));
            QVERIFY2(!seen.contains(label), qPrintable("two labels read alike: " + label));
            seen.insert(label);
            bool number = false;
            const int n = label.toInt(&number);
            if (number) {
                QVERIFY(n >= 1 && n <= int(doc.pointCount()));
                continue;
            }
            const QString text = rejoined(label);
            const bool whole = std::any_of(chartNames.begin(), chartNames.end(),
                [&](const QString &name) {
                    return name == text || chart::withoutTrailingRemark(name) == text;
                });
            QVERIFY2(whole, qPrintable("not a whole name: " + label));
        }
    }
};

QTEST_MAIN(TestLabelRules)
#include "tst_labelrules.moc"
