// English plurals for tr()'s "%n" texts without a translation file ("1 kernels" was shown):
// every "%n" text of the window, for one and for several.
#include "widgets/englishplurals.h"

#include <QCoreApplication>
#include <QTest>

using namespace ridgepoint;

class TestEnglishPlurals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { installEnglishPlurals(); }

    void plural_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one kernel") << "%n kernels from %1" << 1 << "1 kernel from %1";
        QTest::newRow("two kernels") << "%n kernels from %1" << 2 << "2 kernels from %1";
        QTest::newRow("no kernel") << "%n kernels from %1" << 0 << "0 kernels from %1";
        QTest::newRow("baseline") << "Baseline: %n kernels from %1" << 1
                                  << "Baseline: 1 kernel from %1";
        QTest::newRow("noun last") << "Delete %n points" << 1 << "Delete 1 point";
        QTest::newRow("noun last, many") << "Delete %n points" << 3 << "Delete 3 points";
        QTest::newRow("noun before a verb") << "%1 of %n files imported" << 1
                                            << "%1 of 1 file imported";
        QTest::newRow("(s), one") << "%n example kernel(s)" << 1 << "1 example kernel";
        QTest::newRow("(s), many") << "%n example kernel(s)" << 4 << "4 example kernels";
        QTest::newRow("(s) and a comma") << "; %n warning(s), e.g. %1" << 1
                                         << "; 1 warning, e.g. %1";
        QTest::newRow("adjective first")
            << "%n workload point(s) cannot be placed under quantization %1: %2" << 1
            << "1 workload point cannot be placed under quantization %1: %2";
        QTest::newRow("no noun") << "+%n more" << 1 << "+1 more";
        QTest::newRow("no noun, remark") << "… and %n more (see the details)" << 1
                                         << "… and 1 more (see the details)";
        QTest::newRow("machines") << "%n machines from %1 (%2); %3 selected" << 1
                                  << "1 machine from %1 (%2); %3 selected";
        QTest::newRow("a verb in s is kept") << "%n is the count" << 1 << "1 is the count";
        QTest::newRow("access") << "%n access" << 1 << "1 access";
    }

    void plural()
    {
        QFETCH(QString, source);
        QFETCH(int, n);
        QFETCH(QString, expected);
        // Through tr() as the window calls it: the installed translator, then Qt's "%n".
        QCOMPARE(QCoreApplication::translate("Test", source.toUtf8().constData(), nullptr, n),
            expected);
    }

    void textsWithoutACountAreLeftAlone()
    {
        QCOMPARE(QCoreApplication::translate("Test", "Open points"), QString("Open points"));
        QCOMPARE(QCoreApplication::translate("Test", "%1 kernels", nullptr, -1),
            QString("%1 kernels"));
    }
};

QTEST_MAIN(TestEnglishPlurals)
#include "tst_englishplurals.moc"
