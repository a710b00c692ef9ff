// The legend's entries in columns (widgets/chart/geometry/legendgrid.h) on plain sizes: the
// size for a row count, the fewest rows a strip under the plot needs, the fewest columns a corner
// holds.
#include "widgets/chart/geometry/legendgrid.h"

#include <QTest>

#include <optional>

using namespace ridgepoint::chart;

class TestLegendGrid : public QObject
{
    Q_OBJECT

private slots:
    void legendColumnsFitTheRoom_data();
    void legendColumnsFitTheRoom();
};

// The legend's grid filled down each column: columns as wide as their widest entry, rows as
// high as their highest, computed here entry by entry.
void TestLegendGrid::legendColumnsFitTheRoom_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<QSize>("expected");
    // Entries 300, 280, 100, 120, 90 wide and 20 high (the third 24); spacing 8 × 2, margins
    // 7 + 7 across and 5 + 4 down.
    QTest::newRow("one column") << 5 << QSize(300 + 14, 20 + 20 + 24 + 20 + 20 + 4 * 2 + 9);
    // Columns [300, 280, 100] and [120, 90].
    QTest::newRow("two columns") << 3 << QSize(300 + 120 + 8 + 14, 20 + 20 + 24 + 2 * 2 + 9);
    // Columns [300, 280], [100, 120], [90]; the rows take the third entry's 24.
    QTest::newRow("three columns") << 2 << QSize(300 + 120 + 90 + 2 * 8 + 14, 24 + 20 + 2 + 9);
    QTest::newRow("one row") << 1 << QSize(890 + 4 * 8 + 14, 24 + 9);
}

void TestLegendGrid::legendColumnsFitTheRoom()
{
    QFETCH(int, rows);
    QFETCH(QSize, expected);
    LegendGrid grid;
    grid.entries = { { 300, 20 }, { 280, 20 }, { 100, 24 }, { 120, 20 }, { 90, 20 } };
    grid.spacing = QSize(8, 2);
    grid.margins = QMargins(7, 5, 7, 4);
    QCOMPARE(legendSize(grid, rows), expected);
    // Under the plot: the fewest rows that fit the width; in a corner: the fewest columns that
    // fit the room.
    QCOMPARE(stripRows(grid, expected.width()), rows);
    QCOMPARE(stripRows(grid, 100), 5); // nothing fits: one column
    QCOMPARE(cornerRows(grid, expected), std::optional<int>(rows));
    QCOMPARE(cornerRows(grid, QSize(200, 1000)), std::nullopt);
    // The search starts past what cannot fit; it finds what trying every row count finds.
    for (int width = 100; width <= 1000; width += 37) {
        int fewest = 1;
        while (fewest < 5 && legendSize(grid, fewest).width() > width)
            ++fewest;
        QCOMPARE(stripRows(grid, width), fewest);
    }
}

QTEST_MAIN(TestLegendGrid)
#include "tst_legendgrid.moc"
