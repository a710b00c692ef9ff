// Settings' INI file for tests (Settings::useFile, forgetFile) and the sandbox the window tests
// keep theirs in: a value set is written before its folder goes, and no folder comes back.
#include "tests/support/settingssandbox.h"
#include "widgets/document/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ridgepoint;

class TestSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void forgetFileWritesWhatIsPending();
    void forgetFileLeavesAnotherStore();
    void sandboxesLeaveNoFolderBehind_data();
    void sandboxesLeaveNoFolderBehind();
};

void TestSettings::forgetFileWritesWhatIsPending()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("settings.ini");
    Settings::useFile(file);
    Settings::store().setValue("view/theme", "dark");
    Settings::forgetFile(file);
    QVERIFY(QFileInfo::exists(file));
    QCOMPARE(QSettings(file, QSettings::IniFormat).value("view/theme").toString(), "dark");
    QVERIFY(Settings::store().fileName() != file);
}

void TestSettings::forgetFileLeavesAnotherStore()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString kept = dir.filePath("kept.ini");
    Settings::useFile(kept);
    Settings::forgetFile(dir.filePath("other.ini"));
    QCOMPARE(Settings::store().fileName(), kept);
    Settings::forgetFile(kept);
}

// `sandboxes` made one after another as the window tests' init() does (each replacing the last
// while it still exists), each with a value changed and not yet written.
void TestSettings::sandboxesLeaveNoFolderBehind_data()
{
    QTest::addColumn<int>("sandboxes");
    QTest::newRow("one") << 1;
    QTest::newRow("one replacing another") << 2;
    QTest::newRow("five in a row") << 5;
}

void TestSettings::sandboxesLeaveNoFolderBehind()
{
    QFETCH(int, sandboxes);
    QStringList folders;
    std::unique_ptr<test::SettingsSandbox> sandbox;
    for (int i = 0; i < sandboxes; ++i) {
        sandbox = std::make_unique<test::SettingsSandbox>();
        QVERIFY(sandbox->isValid());
        QCOMPARE(Settings::store().fileName(), sandbox->filePath("settings.ini"));
        Settings::store().setValue("view/fontScale", 1.0 + i);
        folders << sandbox->path();
    }
    sandbox.reset();
    // A store left on the last sandbox's file would write it now, making its folder again.
    QTemporaryDir elsewhere;
    QVERIFY(elsewhere.isValid());
    Settings::useFile(elsewhere.filePath("other.ini"));
    for (const QString &folder : folders)
        QVERIFY2(!QDir(folder).exists(), qPrintable(folder));
    Settings::forgetFile(elsewhere.filePath("other.ini"));
}

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
