// ExportDialog and the settings registry: size and scale reach the file, failures leave the
// old file alone, choices are remembered in an isolated settings file.
#include "widgets/exportdialog.h"
#include "widgets/rooflineplot.h"
#include "widgets/settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace ridgepoint;

class TestExportDialog : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(dir.isValid());
        Settings::useFile(dir.filePath("settings.ini"));
        Settings::store().clear();
    }

    void settingsFallBackToTheirDefaults()
    {
        QCOMPARE(Settings::get(settings::exportWidth), 1600);
        QCOMPARE(Settings::get(settings::theme), QStringLiteral("light"));
        Settings::set(settings::exportScale, 2.5);
        QCOMPARE(Settings::get(settings::exportScale), 2.5);
        QVERIFY(QFile::exists(dir.filePath("settings.ini"))
            || Settings::store().contains("export/scale"));
    }

    void pngHasTheSizeTimesTheScale_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<double>("scale");
        QTest::newRow("1x") << 400 << 300 << 1.0;
        QTest::newRow("2x") << 320 << 200 << 2.0;
        QTest::newRow("1.5x") << 200 << 100 << 1.5;
    }

    void pngHasTheSizeTimesTheScale()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(double, scale);
        RooflinePlot plot;
        ExportDialog dialog(&plot);
        const QString file = dir.filePath("chart.png");
        dialog.findChild<QLineEdit *>("file")->setText(file);
        dialog.findChild<QSpinBox *>("width")->setValue(width);
        dialog.findChild<QSpinBox *>("height")->setValue(height);
        dialog.findChild<QDoubleSpinBox *>("scale")->setValue(scale);
        dialog.show();
        QTest::mouseClick(
            dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QImage image(file);
        QCOMPARE(image.width(), qRound(width * scale));
        QCOMPARE(image.height(), qRound(height * scale));
        // Remembered for next time.
        QCOMPARE(Settings::get(settings::exportWidth), width);
        QCOMPARE(Settings::get(settings::exportScale), scale);
    }

    void formatSwitchChangesTheSuffixAndWritesSvg()
    {
        RooflinePlot plot;
        ExportDialog dialog(&plot);
        dialog.findChild<QLineEdit *>("file")->setText(dir.filePath("chart.png"));
        dialog.findChild<QComboBox *>("format")->setCurrentIndex(1);
        QCOMPARE(dialog.fileName(), dir.filePath("chart.svg"));
        QCOMPARE(dialog.exportChart(), QString());
        QFile svg(dir.filePath("chart.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
    }

    void failedExportKeepsTheOldFileAndSaysWhy()
    {
        RooflinePlot plot;
        const QString file = dir.filePath("missing/chart.png"); // directory does not exist
        ExportDialog dialog(&plot);
        dialog.findChild<QLineEdit *>("file")->setText(file);
        dialog.show();
        QTest::mouseClick(
            dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(dialog.isVisible()); // stays open with the reason
        QVERIFY(!QFile::exists(file));
        QVERIFY(dialog.findChild<QLabel *>("note")->text().contains("cannot be written"));

        // An existing file is replaced only by a complete one.
        const QString existing = dir.filePath("old.png");
        QFile old(existing);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        QVERIFY(!plot.exportTo(existing, 0, 100).isEmpty()); // bad size: nothing written
        QFile again(existing);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray("old"));
    }

private:
    QTemporaryDir dir;
};

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
