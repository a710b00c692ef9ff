// ExportDialog and the settings registry: size (in pixels, inches or centimetres), DPI, title,
// points table and the embedded session reach the file; failures leave the old file alone;
// choices are remembered in an isolated settings file (issue 4).
#include "tests/support/settingssandbox.h"
#include "tests/support/testfiles.h"
#include "widgets/dialogs/exportdialog.h"

#include "core/session/session.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportlimits.h"
#include "widgets/export/figuresession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ridgepoint;
using test::readAll;

namespace {

// The resolution a PNG carries (its pHYs chunk), in dots per inch.
double pngDpi(const QString &path)
{
    QImageReader reader(path);
    const QImage image = reader.read();
    return image.dotsPerMeterX() * 0.0254;
}

void setUnit(ExportDialog &dialog, const QString &unit)
{
    auto *box = dialog.findChild<QComboBox *>("unit");
    box->setCurrentIndex(box->findData(unit));
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<test::SettingsSandbox>();
        QVERIFY(m_dir->isValid());
        Settings::store().clear();
        m_plot = std::make_unique<RooflinePlot>();
        m_plot->setHardware(test::machine());
        m_plot->document()->resetPoints(test::points());
    }
    void cleanup() { m_plot.reset(); }

    void settingsFallBackToTheirDefaults()
    {
        QCOMPARE(Settings::get(settings::exportWidth), 1600);
        QCOMPARE(Settings::get(settings::exportDpi), 96);
        QCOMPARE(Settings::get(settings::exportEmbedSession), true);
        QCOMPARE(Settings::get(settings::exportTable), false);
        QCOMPARE(Settings::get(settings::theme), QStringLiteral("light"));
        Settings::set(settings::exportDpi, 300);
        QCOMPARE(Settings::get(settings::exportDpi), 300);
    }

    void pngHasTheSizeAtTheDpi_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("dpi");
        // Pixels = logical size × dpi / 96, computed here by hand.
        QTest::addColumn<int>("pixelsWide");
        QTest::addColumn<int>("pixelsHigh");
        QTest::newRow("screen") << 400 << 300 << 96 << 400 << 300;
        QTest::newRow("retina") << 320 << 200 << 192 << 640 << 400;
        QTest::newRow("print") << 200 << 100 << 300 << 625 << 313; // 312.5 rounds up
        QTest::newRow("fax") << 480 << 240 << 72 << 360 << 180;
    }

    void pngHasTheSizeAtTheDpi()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, dpi);
        QFETCH(int, pixelsWide);
        QFETCH(int, pixelsHigh);
        ExportDialog dialog(m_plot.get());
        const QString file = m_dir->filePath("chart.png");
        dialog.findChild<QLineEdit *>("file")->setText(file);
        dialog.findChild<QDoubleSpinBox *>("width")->setValue(width);
        dialog.findChild<QDoubleSpinBox *>("height")->setValue(height);
        dialog.findChild<QSpinBox *>("dpi")->setValue(dpi);
        QVERIFY2(dialog.findChild<QLabel *>("note")->text().contains(
                     QString("%1 × %2 pixels").arg(pixelsWide).arg(pixelsHigh)),
            qPrintable(dialog.findChild<QLabel *>("note")->text()));
        dialog.show();
        QTest::mouseClick(
            dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QImage image(file);
        QCOMPARE(image.width(), pixelsWide);
        QCOMPARE(image.height(), pixelsHigh);
        QCOMPARE(qRound(pngDpi(file)), dpi);
        // Remembered for next time.
        QCOMPARE(Settings::get(settings::exportWidth), width);
        QCOMPARE(Settings::get(settings::exportDpi), dpi);
    }

    void slidePresetSetsSizeFontAndLegend_data()
    {
        QTest::addColumn<QString>("unit"); // the unit the dialog was in before
        QTest::newRow("from pixels") << "px";
        QTest::newRow("from inches") << "in";
    }

    // Choosing "Slide 16:9" gives 1920 × 1080 px at 96 dpi (scale 1), text at 1.5× and the
    // legend below the plot, for the picture only: the window keeps its own.
    void slidePresetSetsSizeFontAndLegend()
    {
        QFETCH(QString, unit);
        ExportDialog dialog(m_plot.get());
        setUnit(dialog, unit);
        dialog.show();
        auto *preset = dialog.findChild<QComboBox *>("preset");
        QVERIFY(preset);
        preset->setFocus();
        QTest::keyClick(preset, Qt::Key_Down); // None → Slide
        QCOMPARE(preset->currentData().toString(), QString("slide"));
        const ExportOptions options = dialog.options();
        QCOMPARE(options.width, 1920);
        QCOMPARE(options.height, 1080);
        QCOMPARE(options.scale, 1.0);
        QCOMPARE(options.fontScale, 1.5);
        QVERIFY(options.legendBelow);
        const QString file = m_dir->filePath("slide.png");
        dialog.findChild<QLineEdit *>("file")->setText(file);
        const double fontBefore = m_plot->display().fontScale;
        const auto legendBefore = m_plot->display().legend;
        QTest::mouseClick(
            dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QImage image(file);
        QCOMPARE(image.size(), QSize(1920, 1080));
        QCOMPARE(m_plot->display().fontScale, fontBefore);
        QVERIFY(m_plot->display().legend == legendBefore);
        // Back to no preset: the window's font scale and legend.
        QTest::keyClick(preset, Qt::Key_Up);
        QCOMPARE(dialog.options().fontScale, 0.0);
        QVERIFY(!dialog.options().legendBelow);
    }

    // A paper's figure: 8.33 × 5.21 in at 300 dpi is 800 × 500 logical pixels drawn 3.125
    // times over, 2500 × 1563 pixels.
    void inchesAtADpiGiveThePixelsAPaperNeeds()
    {
        ExportDialog dialog(m_plot.get());
        const QString file = m_dir->filePath("figure.png");
        dialog.findChild<QLineEdit *>("file")->setText(file);
        setUnit(dialog, "in");
        dialog.findChild<QDoubleSpinBox *>("width")->setValue(8.33);
        dialog.findChild<QDoubleSpinBox *>("height")->setValue(5.21);
        dialog.findChild<QSpinBox *>("dpi")->setValue(300);
        const QString note = dialog.findChild<QLabel *>("note")->text();
        QVERIFY2(note.contains("8.33 × 5.21 in") && note.contains("300 dpi")
                && note.contains("2500 × 1563 pixels"),
            qPrintable(note));
        const ExportOptions options = dialog.options();
        QCOMPARE(options.width, 800);
        QCOMPARE(options.height, 500);
        QCOMPARE(options.scale, 300.0 / 96.0);
        QCOMPARE(options.dpi, 300);
        QCOMPARE(dialog.exportChart(), QString());
        const QImage image(file);
        QCOMPARE(image.size(), QSize(2500, 1563));
        QCOMPARE(qRound(pngDpi(file)), 300);
        QCOMPARE(Settings::get(settings::exportSizeUnit), QStringLiteral("in"));
    }

    void switchingTheUnitKeepsTheSize()
    {
        ExportDialog dialog(m_plot.get());
        auto *width = dialog.findChild<QDoubleSpinBox *>("width");
        auto *height = dialog.findChild<QDoubleSpinBox *>("height");
        width->setValue(960);
        height->setValue(480);
        setUnit(dialog, "in");
        QCOMPARE(width->value(), 10.0);
        QCOMPARE(height->value(), 5.0);
        setUnit(dialog, "cm");
        QCOMPARE(width->value(), 25.4);
        QCOMPARE(height->value(), 12.7);
        setUnit(dialog, "px");
        QCOMPARE(width->value(), 960.0);
        QCOMPARE(height->value(), 480.0);
        QCOMPARE(dialog.options().width, 960);
    }

    // One range for the dialog and `ridgepoint render` (tst_cli_render checks the command
    // against the same ExportLimits): the boxes stop at its sides and resolutions.
    void sizeAndDpiStopAtTheSharedLimits()
    {
        ExportDialog dialog(m_plot.get());
        auto *width = dialog.findChild<QDoubleSpinBox *>("width");
        auto *height = dialog.findChild<QDoubleSpinBox *>("height");
        auto *dpi = dialog.findChild<QSpinBox *>("dpi");
        QCOMPARE(width->minimum(), double(ExportLimits::kMinSide));
        QCOMPARE(height->maximum(), double(ExportLimits::kMaxSide));
        QCOMPARE(dpi->minimum(), ExportLimits::kMinDpi);
        QCOMPARE(dpi->maximum(), ExportLimits::kMaxDpi);
        width->setValue(ExportLimits::kMinSide - 1);
        height->setValue(ExportLimits::kMaxSide + 1);
        QCOMPARE(dialog.options().width, ExportLimits::kMinSide);
        QCOMPARE(dialog.options().height, ExportLimits::kMaxSide);
        // In inches the least is the same number of pixels.
        setUnit(dialog, "in");
        width->setValue(0.0);
        QCOMPARE(dialog.options().width, ExportLimits::kMinSide);
    }

    // 8000 × 5000 at 600 dpi would be a 50000 × 31250 PNG: refused, as render refuses it.
    void refusesAPngPastTheLargestSide()
    {
        ExportDialog dialog(m_plot.get());
        const QString file = m_dir->filePath("huge.png");
        dialog.findChild<QLineEdit *>("file")->setText(file);
        dialog.findChild<QDoubleSpinBox *>("width")->setValue(8000);
        dialog.findChild<QDoubleSpinBox *>("height")->setValue(5000);
        dialog.findChild<QSpinBox *>("dpi")->setValue(600);
        const QString limit = QString("at most %1").arg(ExportLimits::kMaxSide);
        const QString note = dialog.findChild<QLabel *>("note")->text();
        QVERIFY2(note.contains(limit), qPrintable(note));
        const QString error = dialog.exportChart();
        QVERIFY2(error.contains("50000 pixels wide or high; " + limit), qPrintable(error));
        QVERIFY(!QFile::exists(file));
        // The same size at 96 dpi fits.
        dialog.findChild<QSpinBox *>("dpi")->setValue(96);
        QVERIFY(!dialog.findChild<QLabel *>("note")->text().contains(limit));
    }

    void vectorFormatsHaveNoDpi()
    {
        ExportDialog dialog(m_plot.get());
        dialog.findChild<QDoubleSpinBox *>("width")->setValue(720);
        dialog.findChild<QDoubleSpinBox *>("height")->setValue(480);
        dialog.findChild<QSpinBox *>("dpi")->setValue(300);
        dialog.findChild<QComboBox *>("format")->setCurrentIndex(2); // PDF
        QVERIFY(!dialog.findChild<QSpinBox *>("dpi")->isEnabled());
        QVERIFY2(dialog.findChild<QLabel *>("note")->text().contains("7.50 × 5.00 in"),
            qPrintable(dialog.findChild<QLabel *>("note")->text()));
        QCOMPARE(dialog.options().scale, 1.0);
        QCOMPARE(dialog.options().dpi, 0);
    }

    void formatSwitchChangesTheSuffixAndWritesSvg()
    {
        ExportDialog dialog(m_plot.get());
        dialog.findChild<QLineEdit *>("file")->setText(m_dir->filePath("chart.png"));
        dialog.findChild<QComboBox *>("format")->setCurrentIndex(1);
        QCOMPARE(dialog.fileName(), m_dir->filePath("chart.svg"));
        QCOMPARE(dialog.exportChart(), QString());
        QVERIFY(readAll(m_dir->filePath("chart.svg")).contains("<svg"));
    }

    void titleAndTableReachTheSvg()
    {
        const QString file = m_dir->filePath("review.svg");
        {
            ExportDialog dialog(m_plot.get());
            dialog.findChild<QLineEdit *>("file")->setText(file);
            dialog.findChild<QComboBox *>("format")->setCurrentIndex(1);
            dialog.findChild<QLineEdit *>("title")->setText("Tiled GEMM after the fix");
            dialog.findChild<QComboBox *>("contents")->setCurrentIndex(1);
            QVERIFY(dialog.options().table);
            QCOMPARE(dialog.exportChart(), QString());
        }
        const QByteArray svg = readAll(file);
        QVERIFY(svg.contains("Tiled GEMM after the fix"));
        QVERIFY(svg.contains("Utilization")); // the table's header
        QVERIFY(svg.contains("stencil"));

        // Remembered; and "chart only" leaves the table out.
        ExportDialog again(m_plot.get());
        QCOMPARE(
            again.findChild<QLineEdit *>("title")->text(), QString("Tiled GEMM after the fix"));
        QCOMPARE(again.findChild<QComboBox *>("contents")->currentIndex(), 1);
        QCOMPARE(again.fileName(), m_dir->filePath("roofline.svg")); // the folder is remembered
        again.findChild<QLineEdit *>("file")->setText(file);
        again.findChild<QComboBox *>("contents")->setCurrentIndex(0);
        again.findChild<QLineEdit *>("title")->clear();
        QCOMPARE(again.exportChart(), QString());
        const QByteArray plain = readAll(file);
        QVERIFY(!plain.contains("Utilization"));
        QVERIFY(!plain.contains("Tiled GEMM after the fix"));
    }

    void sessionIsEmbeddedUnlessUnchecked()
    {
        const Session session = m_plot->document()->toSession();
        const QByteArray json = QByteArray::fromStdString(writeSessionJson(session));
        const QString file = m_dir->filePath("figure.png");
        {
            ExportDialog dialog(m_plot.get());
            dialog.setSession(json);
            QVERIFY(dialog.findChild<QCheckBox *>("embedSession")->isChecked());
            QVERIFY(dialog.findChild<QCheckBox *>("embedSession")->isEnabled());
            dialog.findChild<QLineEdit *>("file")->setText(file);
            QCOMPARE(dialog.exportChart(), QString());
        }
        const SessionReadResult back = readSessionFile(file);
        QVERIFY(back.session);
        QCOMPARE(back.session->points.size(), std::size_t { 3 });
        QCOMPARE(back.session->hardware.name, std::string("Test machine"));

        ExportDialog dialog(m_plot.get());
        dialog.setSession(json);
        dialog.findChild<QCheckBox *>("embedSession")->setChecked(false);
        dialog.findChild<QLineEdit *>("file")->setText(file);
        QCOMPARE(dialog.exportChart(), QString());
        QVERIFY(!sessionFromPicture(readAll(file), file));
        QCOMPARE(Settings::get(settings::exportEmbedSession), false);
    }

    // Issue 4: the window wrote the whole session (374 MB at a million points) before the dialog
    // opened, only to leave it out. pictureSession() refuses a document whose points cannot fit
    // before copying it, and the dialog still says why nothing is embedded.
    void pictureSessionIsBoundedAndTheDialogSaysWhy()
    {
        Document *document = m_plot->document();
        const PictureSession fits = pictureSession(*document, *m_plot);
        QVERIFY(!fits.json.isEmpty());
        QCOMPARE(fits.bytes, static_cast<std::size_t>(fits.json.size()));
        QCOMPARE(fits.points, document->pointCount());
        QVERIFY(readSessionJson(fits.json.toStdString(), "picture").session);

        // A cap too small for the machine alone: written, found too long.
        const PictureSession written = pictureSession(*document, *m_plot, 1000);
        QVERIFY(written.json.isEmpty() && written.tooLarge());
        QCOMPARE(written.bytes, std::size_t { 1000 });
        // A cap too small for the points: refused from the count, with a bound it exceeds.
        const std::size_t cap = 3 * 20; // fewer bytes than three points take
        const PictureSession counted = pictureSession(*document, *m_plot, cap);
        QVERIFY(counted.tooLarge());
        QVERIFY(counted.bytes > 0);

        ExportDialog dialog(m_plot.get());
        PictureSession huge;
        huge.points = 1000000;
        huge.bytes = std::size_t { 200 } * 1024 * 1024;
        dialog.setSession(huge);
        QVERIFY(!dialog.findChild<QCheckBox *>("embedSession")->isEnabled());
        const QString note = dialog.findChild<QLabel *>("sessionNote")->text();
        QVERIFY2(note.contains("will not be embedded"), qPrintable(note));
        QVERIFY2(note.contains("200.0 MB"), qPrintable(note));
        QVERIFY2(note.contains(QLocale().toString(1000000)), qPrintable(note));
        QVERIFY(dialog.options().session.isEmpty());
    }

    void tooLargeSessionIsNotEmbeddedAndTheDialogSaysSo()
    {
        ExportDialog dialog(m_plot.get());
        dialog.setSession(QByteArray(ExportOptions::kMaxEmbeddedSession + 1, ' '));
        auto *box = dialog.findChild<QCheckBox *>("embedSession");
        QVERIFY(!box->isEnabled());
        QVERIFY(box->isChecked()); // the user's choice stays for the next, smaller session
        const QString note = dialog.findChild<QLabel *>("sessionNote")->text();
        QVERIFY2(note.contains("will not be embedded"), qPrintable(note));
        QVERIFY2(note.contains("16.0 MB"), qPrintable(note));
        QVERIFY(dialog.options().session.isEmpty());
    }

    void failedExportKeepsTheOldFileAndSaysWhy()
    {
        const QString file = m_dir->filePath("missing/chart.png"); // directory does not exist
        ExportDialog dialog(m_plot.get());
        dialog.findChild<QLineEdit *>("file")->setText(file);
        dialog.show();
        QTest::mouseClick(
            dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(dialog.isVisible()); // stays open with the reason
        QVERIFY(!QFile::exists(file));
        auto *error = dialog.findChild<QLabel *>("error");
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains("does not exist"), qPrintable(error->text()));

        // An existing file is replaced only by a complete one.
        const QString existing = m_dir->filePath("old.png");
        QFile old(existing);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        QVERIFY(!ChartExporter(*m_plot)
                     .exportTo(existing, 0, 100)
                     .isEmpty()); // bad size: nothing written
        QCOMPARE(readAll(existing), QByteArray("old"));
    }

private:
    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::unique_ptr<RooflinePlot> m_plot;
};

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
