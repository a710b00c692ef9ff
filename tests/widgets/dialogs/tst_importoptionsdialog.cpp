// File ▸ Import options… (issue 4): the real dialog driven with mouse and keys, offscreen. It
// shows what the settings hold, OK stores what the controls say, Cancel stores nothing,
// Restore defaults gives the readers' own defaults, and "Apply and re-read" is offered only
// when there are files to re-read. The settings live in a temporary file.
#include "tests/support/settingssandbox.h"
#include "widgets/dialogs/importoptionsdialog.h"

#include "widgets/document/pointsloader.h"
#include "widgets/document/settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ridgepoint;

namespace {

QPushButton *button(QDialog &dialog, QDialogButtonBox::StandardButton which)
{
    return dialog.findChild<QDialogButtonBox *>("buttons")->button(which);
}

// Replaces a spin box's text as a user does: select all, type.
void type(QSpinBox *box, const QString &text)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, text);
}

// Moves a (closed) combo box `steps` items down with the arrow key.
void down(QComboBox *box, int steps)
{
    box->setFocus();
    for (int i = 0; i < steps; ++i)
        QTest::keyClick(box, Qt::Key_Down);
}

} // namespace

class TestImportOptionsDialog : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<test::SettingsSandbox>();
        QVERIFY(m_dir->isValid());
        Settings::store().clear();
    }

    void settingsDefaultToTheReadersDefaults();
    void showsWhatTheSettingsHold();
    void okStoresWhatTheControlsSay_data();
    void okStoresWhatTheControlsSay();
    void cancelStoresNothing();
    void restoreDefaultsGivesTheReadersDefaults();
    void rereadIsOfferedOnlyWithFiles_data();
    void rereadIsOfferedOnlyWithFiles();
    void unusableSettingsFallBackToTheDefaults_data();
    void unusableSettingsFallBackToTheDefaults();
    void controlsSayWhatTheyMean();

private:
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestImportOptionsDialog::settingsDefaultToTheReadersDefaults()
{
    // The registry's defaults are the readers' own: nothing changes until the user says so.
    const ReadOptions readers;
    const ReadOptions stored = importReadOptions();
    QCOMPARE(stored.ncu.sumLaunchesOfAKernel, readers.ncu.sumLaunchesOfAKernel);
    QCOMPARE(stored.rocprof.sumDispatchesOfAKernel, readers.rocprof.sumDispatchesOfAKernel);
    QCOMPARE(stored.ncu.tensorFlopsPerInstruction, readers.ncu.tensorFlopsPerInstruction);
    QCOMPARE(stored.ncu.halfFlopsPerFma, readers.ncu.halfFlopsPerFma);
    QCOMPARE(stored.ncu.decimalComma, readers.ncu.decimalComma);
    QCOMPARE(stored.rocprof.ldsBanksPerCu, readers.rocprof.ldsBanksPerCu);
}

void TestImportOptionsDialog::showsWhatTheSettingsHold()
{
    Settings::set(settings::importPerKernel, true);
    Settings::set(settings::importTensorFlopsPerInstruction, 1024);
    Settings::set(settings::importHalfFlopsPerFma, 4);
    Settings::set(settings::importDecimalSeparator, QStringLiteral("point"));
    Settings::set(settings::importLdsBanksPerCu, 64);
    ImportOptionsDialog dialog;
    QVERIFY(dialog.findChild<QCheckBox *>("perKernel")->isChecked());
    QCOMPARE(dialog.findChild<QSpinBox *>("tensorFlopsPerInstruction")->value(), 1024);
    QCOMPARE(dialog.findChild<QComboBox *>("halfFlopsPerFma")->currentData().toInt(), 4);
    QCOMPARE(dialog.findChild<QComboBox *>("decimalSeparator")->currentData().toString(),
        QStringLiteral("point"));
    QCOMPARE(dialog.findChild<QSpinBox *>("ldsBanksPerCu")->value(), 64);
    const ReadOptions shown = dialog.options();
    QVERIFY(shown.ncu.sumLaunchesOfAKernel && shown.rocprof.sumDispatchesOfAKernel);
    QCOMPARE(shown.ncu.decimalComma, std::optional<bool>(false));
}

void TestImportOptionsDialog::okStoresWhatTheControlsSay_data()
{
    QTest::addColumn<bool>("clickPerKernel");
    QTest::addColumn<QString>("tensorFlops"); // typed; empty: left alone
    QTest::addColumn<int>("halfSteps"); // arrow-down presses on the half FMA box
    QTest::addColumn<int>("decimalSteps");
    QTest::addColumn<QString>("ldsBanks");
    QTest::addColumn<bool>("perKernel");
    QTest::addColumn<int>("tensor");
    QTest::addColumn<int>("half");
    QTest::addColumn<QString>("decimal");
    QTest::addColumn<int>("banks");
    QTest::newRow("nothing touched")
        << false << "" << 0 << 0 << "" << false << 512 << 2 << "auto" << 32;
    QTest::newRow("per kernel") << true << "" << 0 << 0 << "" << true << 512 << 2 << "auto" << 32;
    QTest::newRow("A100 tensor instructions")
        << false << "1024" << 0 << 0 << "" << false << 1024 << 2 << "auto" << 32;
    QTest::newRow("ncu's roofline HFMA2")
        << false << "" << 1 << 0 << "" << false << 512 << 4 << "auto" << 32;
    QTest::newRow("decimal comma")
        << false << "" << 0 << 1 << "" << false << 512 << 2 << "comma" << 32;
    QTest::newRow("decimal point")
        << false << "" << 0 << 2 << "" << false << 512 << 2 << "point" << 32;
    QTest::newRow("64 LDS banks") << false << "" << 0 << 0 << "64" << false << 512 << 2 << "auto"
                                  << 64;
    QTest::newRow("everything") << true << "2048" << 1 << 1 << "16" << true << 2048 << 4 << "comma"
                                << 16;
}

void TestImportOptionsDialog::okStoresWhatTheControlsSay()
{
    QFETCH(bool, clickPerKernel);
    QFETCH(QString, tensorFlops);
    QFETCH(int, halfSteps);
    QFETCH(int, decimalSteps);
    QFETCH(QString, ldsBanks);
    QFETCH(bool, perKernel);
    QFETCH(int, tensor);
    QFETCH(int, half);
    QFETCH(QString, decimal);
    QFETCH(int, banks);

    ImportOptionsDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    if (clickPerKernel)
        QTest::mouseClick(dialog.findChild<QCheckBox *>("perKernel"), Qt::LeftButton);
    if (!tensorFlops.isEmpty())
        type(dialog.findChild<QSpinBox *>("tensorFlopsPerInstruction"), tensorFlops);
    down(dialog.findChild<QComboBox *>("halfFlopsPerFma"), halfSteps);
    down(dialog.findChild<QComboBox *>("decimalSeparator"), decimalSteps);
    if (!ldsBanks.isEmpty())
        type(dialog.findChild<QSpinBox *>("ldsBanksPerCu"), ldsBanks);
    QTest::mouseClick(button(dialog, QDialogButtonBox::Ok), Qt::LeftButton);

    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(!dialog.rereadRequested());
    QCOMPARE(Settings::get(settings::importPerKernel), perKernel);
    QCOMPARE(Settings::get(settings::importTensorFlopsPerInstruction), tensor);
    QCOMPARE(Settings::get(settings::importHalfFlopsPerFma), half);
    QCOMPARE(Settings::get(settings::importDecimalSeparator), decimal);
    QCOMPARE(Settings::get(settings::importLdsBanksPerCu), banks);
    // And what the readers get from them.
    const ReadOptions read = importReadOptions();
    QCOMPARE(read.ncu.sumLaunchesOfAKernel, perKernel);
    QCOMPARE(read.rocprof.sumDispatchesOfAKernel, perKernel);
    QCOMPARE(read.ncu.tensorFlopsPerInstruction, double(tensor));
    QCOMPARE(read.ncu.halfFlopsPerFma, double(half));
    QCOMPARE(read.ncu.decimalComma,
        decimal == "auto" ? std::nullopt : std::optional<bool>(decimal == "comma"));
    QCOMPARE(read.rocprof.ldsBanksPerCu, double(banks));
}

void TestImportOptionsDialog::cancelStoresNothing()
{
    ImportOptionsDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::mouseClick(dialog.findChild<QCheckBox *>("perKernel"), Qt::LeftButton);
    type(dialog.findChild<QSpinBox *>("tensorFlopsPerInstruction"), "1024");
    QTest::mouseClick(button(dialog, QDialogButtonBox::Cancel), Qt::LeftButton);
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QVERIFY(!Settings::store().contains(settings::importPerKernel.key));
    QVERIFY(!Settings::store().contains(settings::importTensorFlopsPerInstruction.key));
    QCOMPARE(importReadOptions().ncu.tensorFlopsPerInstruction, 512.0);
}

void TestImportOptionsDialog::restoreDefaultsGivesTheReadersDefaults()
{
    Settings::set(settings::importPerKernel, true);
    Settings::set(settings::importTensorFlopsPerInstruction, 1024);
    Settings::set(settings::importHalfFlopsPerFma, 4);
    Settings::set(settings::importDecimalSeparator, QStringLiteral("comma"));
    Settings::set(settings::importLdsBanksPerCu, 64);
    ImportOptionsDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::mouseClick(button(dialog, QDialogButtonBox::RestoreDefaults), Qt::LeftButton);
    QVERIFY(dialog.isVisible()); // restoring is not closing
    QVERIFY(!dialog.findChild<QCheckBox *>("perKernel")->isChecked());
    QCOMPARE(dialog.findChild<QSpinBox *>("tensorFlopsPerInstruction")->value(), 512);
    QCOMPARE(dialog.findChild<QComboBox *>("halfFlopsPerFma")->currentData().toInt(), 2);
    QCOMPARE(dialog.findChild<QComboBox *>("decimalSeparator")->currentData().toString(),
        QStringLiteral("auto"));
    QCOMPARE(dialog.findChild<QSpinBox *>("ldsBanksPerCu")->value(), 32);
    QCOMPARE(Settings::get(settings::importTensorFlopsPerInstruction), 1024); // until OK
    QTest::mouseClick(button(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QCOMPARE(Settings::get(settings::importTensorFlopsPerInstruction), 512);
    QCOMPARE(Settings::get(settings::importDecimalSeparator), QStringLiteral("auto"));
}

void TestImportOptionsDialog::rereadIsOfferedOnlyWithFiles_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("text"); // of the button; empty: no button
    QTest::newRow("no file") << QStringList {} << "";
    QTest::newRow("one file") << QStringList { "/runs/ncu_report.csv" }
                              << "Apply and re-read ncu_report.csv";
    QTest::newRow("two files") << QStringList { "/runs/a.csv", "/runs/b.csv" }
                               << "Apply and re-read 2 files";
}

void TestImportOptionsDialog::rereadIsOfferedOnlyWithFiles()
{
    QFETCH(QStringList, files);
    QFETCH(QString, text);
    ImportOptionsDialog dialog(nullptr, files);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *reread = dialog.findChild<QPushButton *>("reread");
    QCOMPARE(reread != nullptr, !text.isEmpty());
    if (!reread)
        return;
    QCOMPARE(reread->text().remove('&'), text);
    for (const QString &file : files)
        QVERIFY(reread->toolTip().contains(file));
    QTest::mouseClick(dialog.findChild<QCheckBox *>("perKernel"), Qt::LeftButton);
    QTest::mouseClick(reread, Qt::LeftButton);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(dialog.rereadRequested());
    QCOMPARE(Settings::get(settings::importPerKernel), true); // stored before the re-read
}

void TestImportOptionsDialog::unusableSettingsFallBackToTheDefaults_data()
{
    // A hand-edited settings file: each unusable value is the reader's default instead.
    QTest::addColumn<int>("tensor");
    QTest::addColumn<int>("half");
    QTest::addColumn<QString>("decimal");
    QTest::addColumn<int>("banks");
    QTest::newRow("zeros") << 0 << 0 << "auto" << 0;
    QTest::newRow("negative") << -512 << -2 << "auto" << -32;
    QTest::newRow("out of range") << (kMaxTensorFlopsPerInstruction + 1) << 3 << "auto"
                                  << (kMaxLdsBanksPerCu + 1);
    QTest::newRow("unknown separator") << 512 << 2 << "semicolon" << 32;
}

void TestImportOptionsDialog::unusableSettingsFallBackToTheDefaults()
{
    QFETCH(int, tensor);
    QFETCH(int, half);
    QFETCH(QString, decimal);
    QFETCH(int, banks);
    Settings::set(settings::importTensorFlopsPerInstruction, tensor);
    Settings::set(settings::importHalfFlopsPerFma, half);
    Settings::set(settings::importDecimalSeparator, decimal);
    Settings::set(settings::importLdsBanksPerCu, banks);
    const ReadOptions read = importReadOptions();
    QCOMPARE(read.ncu.tensorFlopsPerInstruction, 512.0);
    QCOMPARE(read.ncu.halfFlopsPerFma, 2.0);
    QVERIFY(!read.ncu.decimalComma.has_value()); // (QCOMPARE with an empty optional: GCC -O1 warns)
    QCOMPARE(read.rocprof.ldsBanksPerCu, 32.0);
    ImportOptionsDialog dialog; // shows the same
    QCOMPARE(dialog.findChild<QSpinBox *>("tensorFlopsPerInstruction")->value(), 512);
    QCOMPARE(dialog.findChild<QSpinBox *>("ldsBanksPerCu")->value(), 32);
}

void TestImportOptionsDialog::controlsSayWhatTheyMean()
{
    // A performance engineer reads the formula and the usual values where the choice is made.
    ImportOptionsDialog dialog;
    const auto tip = [&](const char *name) { return dialog.findChild<QWidget *>(name)->toolTip(); };
    QVERIFY(tip("perKernel").contains("ΣFLOP / Σbytes"));
    QVERIFY(tip("tensorFlopsPerInstruction")
                .contains("FLOP per sm__inst_executed_pipe_tensor instruction: 512 on V100, 1024 "
                          "on A100"));
    QVERIFY(tip("halfFlopsPerFma").contains("FP16 FLOP = k·hfma + hadd + hmul"));
    QVERIFY(tip("decimalSeparator").contains("27.595.520"));
    QVERIFY(tip("ldsBanksPerCu").contains("(SQ_LDS_IDX_ACTIVE − SQ_LDS_BANK_CONFLICT) × 4 B"));
    // The window speaks of its own controls, not of command-line options.
    for (const char *name : { "perKernel", "tensorFlopsPerInstruction", "halfFlopsPerFma",
             "decimalSeparator", "ldsBanksPerCu" })
        QVERIFY2(!tip(name).contains("--"), name);
}

QTEST_MAIN(TestImportOptionsDialog)
#include "tst_importoptionsdialog.moc"
