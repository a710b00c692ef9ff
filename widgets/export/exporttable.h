// The points table an export draws below the chart, and the title above it: laid out for the
// export's paint device (fonts measure differently on a PNG, an SVG and a PDF), then painted.
#pragma once

#include "widgets/export/exportoptions.h"

#include <QCoreApplication>
#include <QFont>
#include <QRectF>
#include <QStringList>

#include <vector>

class QPainter;
class QPaintDevice;

namespace ridgepoint {

class Document;
struct ChartTheme;

// The kind of the table's first column, "#": the point's number, as its marker carries it on a
// chart of more than kMaxNamedPoints points (pointlabelplacement.h), counted from 1 in the
// document's order (not a PointsTableModel column).
inline constexpr int kRowNumberColumn = -1;

// Logical pixels around the table and between its columns.
inline constexpr int kExportTablePadding = 8;

// The points table of an export, laid out for a device: its font (smaller than the chart's when
// the columns would not fit the width otherwise), the rows shown (header first) and where each
// column is (logical pixels, from the header's top to the last row's bottom). Empty without a
// table. When the columns do not fit even with elided names and a smaller font, the least
// important are left out and a footnote names them; when the rows do not fit the table's share
// of the height, a footnote says how many were left out.
struct ExportTable {
    struct Footnote {
        QRectF box; // where it is drawn: as wide as its text
        QString text;
    };
    QFont font;
    double rowHeight = 0.0;
    double height = 0.0; // from the picture's bottom: padding, rows, footnotes
    int shown = 0; // points listed
    std::vector<int> kinds; // PointsTableModel columns
    std::vector<int> dropped; // PointsTableModel columns left out for the width
    std::vector<QStringList> cells; // header, then one row per point shown
    std::vector<QRectF> columns;
    std::vector<Footnote> footnotes; // "… and N more kernels", the columns left out
};

// The columns of a table that fit `room` logical pixels: `cells` (header first) hold every
// column of `all`, in that order. The font shrinks from `base` (to no less than 70 % of it) until
// they fit; names give way to no less than five lines' height; then the least important columns
// are left out one at a time (attainable, bound, speed-up; then, with names down to "…",
// utilization and performance). Number ("#"), name and intensity always stay.
struct ColumnFit {
    QFont font;
    std::vector<int> kinds; // the columns kept, in `all`'s order
    std::vector<int> dropped; // the columns left out, in the order they went
    std::vector<double> widths; // of the kept columns' text (without padding)
};
ColumnFit fitColumns(const std::vector<QStringList> &cells, const std::vector<int> &all,
    const QFont &base, double room, QPaintDevice *device);
// The total width of columns of text `widths`, padding included.
double tableWidth(const std::vector<double> &widths);

class ExportLayout
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    // `document`'s points table in an export at `options` in font `base` (the legend's), for
    // `device`.
    static ExportTable table(
        Document &document, const QFont &base, const ExportOptions &options, QPaintDevice *device);
    // The title's font and the height it takes above the chart (0 without a title).
    static QFont titleFont(const QFont &base);
    static int titleHeight(const ExportOptions &options, const QFont &base, QPaintDevice *device);

    // The title in the top `height` pixels, centred and elided to the width.
    static void paintTitle(QPainter *painter, const ExportOptions &options, const QFont &base,
        const ChartTheme &theme, int height);
    // The table laid out by table(): a header, then the points, numbers right-aligned.
    static void paintTable(QPainter *painter, const ExportTable &table,
        const ExportOptions &options, const ChartTheme &theme);

private:
    static void placeRows(ExportTable &table, const std::vector<QStringList> &cells,
        const std::vector<int> &all, const std::vector<double> &widths,
        const QStringList &footnotes, const ExportOptions &options, QPaintDevice *device);
};

} // namespace ridgepoint
