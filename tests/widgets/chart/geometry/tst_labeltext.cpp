// A point's label when its name is too wide (issue 27, item 2): whole, else two lines broken at
// a space (else after '_' '/' ',' '-' '='), else without a trailing remark, else nothing (the
// caller numbers the point). Never cut in the middle. Widths here are 7 pixels a character, so
// each expected text can be checked by counting.
#include "widgets/chart/geometry/labeltext.h"

#include <QTest>

using namespace ridgepoint::chart;

namespace {

double sevenPerChar(const QString &line)
{
    return 7.0 * static_cast<double>(line.size());
}

} // namespace

class TestLabelText : public QObject
{
    Q_OBJECT

private slots:
    void fits_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("maxWidth");
        QTest::addColumn<QString>("expected");
        // 5 characters = 35 px.
        QTest::newRow("fits whole") << "daxpy" << 35.0 << "daxpy";
        // 25 characters = 175 px; at a space, the narrowest wider line: "decode qkv_proj" (15)
        // over "(batch 1)" (9), not "decode" (6) over "qkv_proj (batch 1)" (18 = 126 > 120).
        QTest::newRow("two lines at a space")
            << "decode qkv_proj (batch 1)" << 120.0 << "decode qkv_proj\n(batch 1)";
        // A sweep's name keeps its shape and dtype: 36 characters, lines of at most 20.
        QTest::newRow("sweep point") << "matmul B=1 M=4096 N=4096 K=8192 bf16" << 140.0
                                     << "matmul B=1 M=4096\nN=4096 K=8192 bf16";
        // No space: after the '_' that balances the lines ("flash_fwd_" 10 / "splitkv_kernel" 14
        // beats "flash_" 6 / "fwd_splitkv_kernel" 18 > 14).
        QTest::newRow("two lines after an underscore")
            << "flash_fwd_splitkv_kernel" << 100.0 << "flash_fwd_\nsplitkv_kernel";
        // "gemv_kernel (batch 1)" fits no two lines of 8 characters (56 px); without its remark
        // it does.
        QTest::newRow("remark dropped") << "gemv_kernel (batch 1)" << 56.0 << "gemv_\nkernel";
        // A nested remark goes whole.
        QTest::newRow("nested remark dropped")
            << "attention_kernel (causal (sliding))" << 70.0 << "attention_\nkernel";
        // Nothing fits: empty, and the caller shows the point's number.
        QTest::newRow("nothing fits") << "supercalifragilistic" << 50.0 << "";
        // A signature's argument list is not a remark: kept, and too long here.
        QTest::newRow("signature kept") << "kernel(int, float)" << 56.0 << "";
    }

    void fits()
    {
        QFETCH(QString, text);
        QFETCH(double, maxWidth);
        QFETCH(QString, expected);
        const QString got = fitLabelText(text, sevenPerChar, maxWidth);
        QCOMPARE(got, expected);
        // Never an ellipsis, never more than two lines, each within the width.
        QVERIFY(!got.contains(QChar(0x2026)));
        const QStringList lines = got.split('\n');
        QVERIFY(lines.size() <= 2);
        for (const QString &line : lines)
            QVERIFY2(sevenPerChar(line) <= maxWidth, qPrintable(line));
        // Only whole words: joined again, the lines give the name or its stem.
        if (!got.isEmpty()) {
            const QString rejoined = got.contains(QStringLiteral("_\n"))
                    || got.contains(QStringLiteral("-\n")) || got.contains(QStringLiteral("=\n"))
                    || got.contains(QStringLiteral("/\n")) || got.contains(QStringLiteral(",\n"))
                ? QString(got).remove('\n')
                : QString(got).replace('\n', ' ');
            QVERIFY2(text.startsWith(rejoined), qPrintable(rejoined));
        }
    }

    void remark_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("remark") << "GEMV (batch 1)" << "GEMV";
        QTest::newRow("no remark") << "GEMV" << "GEMV";
        QTest::newRow("signature") << "f(int)" << "f(int)";
        QTest::newRow("nested") << "a (b (c))" << "a";
        QTest::newRow("only a remark") << "(batch 1)" << "(batch 1)";
        QTest::newRow("unbalanced") << "a b)" << "a b)";
    }

    void remark()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(withoutTrailingRemark(text), expected);
    }
};

QTEST_MAIN(TestLabelText)
#include "tst_labeltext.moc"
