// The real profiler files in tests/data/real are kept byte for byte: every file the README's
// table names is there with the size and SHA-256 the table gives, every file there is named in
// the table, and each is named in LICENSES.md. A line-end conversion or an edit fails here.
#include "tests/support/testpaths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

class TestRealFixtures : public QObject
{
    Q_OBJECT

private slots:
    void matchesItsTable_data();
    void matchesItsTable();
    void everyFileIsInTheTable();

private:
    static QString dir() { return ridgepoint::test::fixturePath({}); }
    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return file.readAll();
    }
    // Rows of the README's table: `name` | source | licence | bytes | `sha256`.
    static QList<QStringList> tableRows()
    {
        static const QRegularExpression row(
            QStringLiteral(R"(^\| `([^`]+)` \|[^|]*\|[^|]*\| (\d+) \| `([0-9a-f]{64})` \|$)"));
        QList<QStringList> rows;
        const auto lines
            = QString::fromUtf8(readAll(dir() + QStringLiteral("/README.md"))).split(u'\n');
        for (const QString &line : lines) {
            const auto m = row.match(line);
            if (m.hasMatch())
                rows.append({ m.captured(1), m.captured(2), m.captured(3) });
        }
        return rows;
    }
};

void TestRealFixtures::matchesItsTable_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QByteArray>("sha256");
    const auto rows = tableRows();
    QVERIFY2(rows.size() >= 6, "the README's table names the real files");
    for (const QStringList &r : rows)
        QTest::newRow(qPrintable(r[0])) << r[0] << r[1].toLongLong() << r[2].toLatin1();
}

void TestRealFixtures::matchesItsTable()
{
    QFETCH(QString, name);
    QFETCH(qint64, bytes);
    QFETCH(QByteArray, sha256);
    const QByteArray data = readAll(QDir(dir()).filePath(name));
    QCOMPARE(qint64(data.size()), bytes);
    QCOMPARE(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex(), sha256);
    const QString licences = QString::fromUtf8(readAll(dir() + QStringLiteral("/LICENSES.md")));
    QVERIFY2(licences.contains(name), "LICENSES.md names the file with its copyright holder");
}

void TestRealFixtures::everyFileIsInTheTable()
{
    QStringList named;
    for (const QStringList &r : tableRows())
        named.append(r[0]);
    const auto files = QDir(dir()).entryList(
        { QStringLiteral("*.csv"), QStringLiteral("*.json"), QStringLiteral("*.txt") },
        QDir::Files);
    for (const QString &f : files)
        QVERIFY2(named.contains(f), qPrintable(f + QStringLiteral(" is not in README.md's table")));
}

QTEST_GUILESS_MAIN(TestRealFixtures)
#include "tst_realfixtures.moc"
