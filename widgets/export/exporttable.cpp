#include "widgets/export/exporttable.h"

#include "widgets/chart/charttheme.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/plotdisplay.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgepoint {
namespace {

// The table keeps at most this share of the picture's height; the chart gets the rest.
constexpr double kMaxTableShare = 0.45;
constexpr int kTablePadding = kExportTablePadding;
// A narrow table keeps names at least this many line heights wide before its font shrinks,
// and shrinks its font to no less than this share of the chart's.
constexpr double kMinNameWidth = 5.0;
constexpr double kMinTableFontShare = 0.7;
// What the chart keeps around its plot area, in lines of text: tick labels and the axis title
// under it, half a line over it.
constexpr double kAxesLines = 4.0;
// Columns left out, in this order, when the table is too wide even so: first those another
// column implies (attainable = performance / utilization), then the longest texts; number,
// name and intensity stay.
constexpr std::array kTableDropOrder = { int(PointsTableModel::Attainable),
    int(PointsTableModel::Bound), int(PointsTableModel::SpeedupVsBaseline),
    int(PointsTableModel::Utilization), int(PointsTableModel::Performance) };

// The table's columns: those of the window's points table that say where a kernel stands.
std::vector<int> tableColumns(bool baseline)
{
    std::vector<int> columns = { kRowNumberColumn, PointsTableModel::Name,
        PointsTableModel::Intensity, PointsTableModel::Performance, PointsTableModel::Attainable,
        PointsTableModel::Bound, PointsTableModel::Utilization };
    if (baseline)
        columns.push_back(PointsTableModel::SpeedupVsBaseline);
    return columns;
}

// The header and the first `rows` rows of the model in columns `all`.
std::vector<QStringList> tableCells(
    const PointsTableModel &model, const std::vector<int> &all, int rows)
{
    std::vector<QStringList> cells;
    // `all` holds kinds; where each is shown depends on the optional columns (columnOf).
    std::vector<int> at;
    at.reserve(all.size());
    for (int kind : all)
        at.push_back(kind == kRowNumberColumn
                ? kind
                : model.columnOf(static_cast<PointsTableModel::Column>(kind)));
    QStringList header;
    for (int column : at)
        header << (column == kRowNumberColumn
                ? QStringLiteral("#")
                : model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
    cells.push_back(header);
    for (int row = 0; row < rows; ++row) {
        QStringList line;
        for (int column : at)
            line << (column == kRowNumberColumn ? chart::pointNumber(static_cast<std::size_t>(row))
                                                : model.data(model.index(row, column)).toString());
        cells.push_back(line);
    }
    return cells;
}

qsizetype indexIn(const std::vector<int> &all, int kind)
{
    return std::find(all.begin(), all.end(), kind) - all.begin();
}

// Widths of columns in one font, the font shrinking until they fit.
class ColumnMeasure
{
public:
    ColumnMeasure(const std::vector<QStringList> &cells, const std::vector<int> &all,
        const QFont &base, double room, QPaintDevice *device)
        : m_cells(cells)
        , m_all(all)
        , m_base(base)
        , m_room(room)
        , m_device(device)
    { }

    // The widths of columns `kinds` in `font`; names narrowed to what the width leaves, but to
    // no less than kMinNameWidth lines (`narrowNames`: no less than "…").
    std::vector<double> widthsIn(
        const std::vector<int> &kinds, const QFont &font, bool narrowNames) const
    {
        QFont bold = font;
        bold.setBold(true);
        const QFontMetricsF metrics(font, m_device);
        const QFontMetricsF boldMetrics(bold, m_device);
        std::vector<double> widths(kinds.size(), 0.0);
        for (std::size_t r = 0; r < m_cells.size(); ++r) {
            for (std::size_t c = 0; c < kinds.size(); ++c) {
                const auto at = indexIn(m_all, kinds[c]);
                widths[c] = std::max(widths[c],
                    (r == 0 ? boldMetrics : metrics).horizontalAdvance(m_cells[r][int(at)]));
            }
        }
        const double over = tableWidth(widths) - m_room;
        if (over > 0.0) {
            const double floor = narrowNames ? metrics.horizontalAdvance(QStringLiteral("…"))
                                             : kMinNameWidth * metrics.height();
            const auto name = std::size_t(indexIn(kinds, PointsTableModel::Name));
            widths[name] = std::max(std::min(widths[name], floor), widths[name] - over);
        }
        return widths;
    }

    // The font shrinks (to kMinTableFontShare of its size) until the columns fit.
    std::vector<double> fit(const std::vector<int> &kinds, bool narrowNames, QFont &font) const
    {
        font = m_base;
        const double basePoints = m_base.pointSizeF();
        std::vector<double> widths = widthsIn(kinds, font, narrowNames);
        for (int step = 0; step < 12 && tableWidth(widths) > m_room; ++step) {
            const double points = std::max(basePoints * kMinTableFontShare,
                font.pointSizeF() * std::clamp(m_room / tableWidth(widths), 0.8, 0.98));
            if (points >= font.pointSizeF())
                break;
            font.setPointSizeF(points);
            widths = widthsIn(kinds, font, narrowNames);
        }
        return widths;
    }

private:
    const std::vector<QStringList> &m_cells;
    const std::vector<int> &m_all;
    QFont m_base;
    double m_room;
    QPaintDevice *m_device;
};

} // namespace

double tableWidth(const std::vector<double> &widths)
{
    double total = 0.0;
    for (double w : widths)
        total += w + 2 * kTablePadding;
    return total;
}

ColumnFit fitColumns(const std::vector<QStringList> &cells, const std::vector<int> &all,
    const QFont &base, double room, QPaintDevice *device)
{
    const ColumnMeasure measure(cells, all, base, room, device);
    // Still too wide: the least important columns are left out, one at a time
    // (kTableDropOrder); with name, intensity, performance and utilization left, the names
    // give way down to "…" before utilization and performance go too.
    ColumnFit fit;
    fit.kinds = all;
    fit.widths = measure.fit(fit.kinds, false, fit.font);
    bool narrowNames = false;
    for (const int next : kTableDropOrder) {
        if (tableWidth(fit.widths) <= room)
            break;
        if (!narrowNames && next == PointsTableModel::Utilization) {
            narrowNames = true;
            fit.widths = measure.fit(fit.kinds, true, fit.font);
            if (tableWidth(fit.widths) <= room)
                break;
        }
        const auto at = std::find(fit.kinds.begin(), fit.kinds.end(), next);
        if (at == fit.kinds.end())
            continue;
        fit.kinds.erase(at);
        fit.dropped.push_back(next);
        fit.widths = measure.fit(fit.kinds, narrowNames, fit.font);
    }
    if (tableWidth(fit.widths) > room) { // name and intensity only, on a picture too narrow
        const auto name = std::size_t(indexIn(fit.kinds, PointsTableModel::Name));
        fit.widths[name] = std::max(0.0, fit.widths[name] - (tableWidth(fit.widths) - room));
    }
    return fit;
}

QFont ExportLayout::titleFont(const QFont &base)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * 1.45);
    font.setBold(true);
    return font;
}

int ExportLayout::titleHeight(const ExportOptions &options, const QFont &base, QPaintDevice *device)
{
    if (options.title.trimmed().isEmpty())
        return 0;
    return qCeil(QFontMetricsF(titleFont(base), device).height() * 1.8);
}

ExportTable ExportLayout::table(
    Document &document, const QFont &base, const ExportOptions &options, QPaintDevice *device)
{
    ExportTable table;
    // No model without a table: building one ranks every point (time shares, memory levels),
    // work a picture without a table never uses.
    if (!options.table || document.pointCount() == 0)
        return table;
    PointsTableModel model(&document);
    const int rows = model.rowCount();
    table.font = base;
    const QFontMetricsF baseMetrics(table.font, device);
    table.rowHeight = std::ceil(baseMetrics.height() * 1.35);
    // Lines the table may take: its share of the height, and no more than leaves the chart its
    // axes (about kAxesLines lines of text) around a plot chart::kMinPlotHeight high.
    const int top = titleHeight(options, table.font, device);
    const double chartMinimum = chart::kMinPlotHeight + kAxesLines * baseMetrics.height();
    const double share
        = std::min(options.height * kMaxTableShare, double(options.height - top) - chartMinimum);
    const int lines = std::max(2, int((share - 2 * kTablePadding) / table.rowHeight));
    // The rows listed before a footnote on left-out columns takes a line (their cells decide
    // the widths; fewer rows are never wider).
    const int mostShown = rows + 1 <= lines ? rows : std::max(0, lines - 2);
    const std::vector<int> all = tableColumns(document.baseline().has_value());
    const std::vector<QStringList> cells = tableCells(model, all, mostShown);

    ColumnFit fit = fitColumns(cells, all, base, options.width - 2 * kTablePadding, device);
    table.font = fit.font;
    table.kinds = fit.kinds;
    table.dropped = fit.dropped;

    // The rows shown: what the lines leave after the header and the footnotes.
    const int noteLines = table.dropped.empty() ? 0 : 1;
    const int free = lines - 1 - noteLines;
    table.shown = rows <= free ? rows : std::max(0, free - 1);
    QStringList footnotes;
    if (table.shown < rows)
        footnotes << tr("… and %n more kernel(s): File ▸ Export table… writes them all", nullptr,
            rows - table.shown);
    if (!table.dropped.empty()) {
        QStringList names;
        for (int kind : table.dropped)
            names << model
                         .headerData(model.columnOf(static_cast<PointsTableModel::Column>(kind)),
                             Qt::Horizontal, Qt::DisplayRole)
                         .toString();
        footnotes << tr("Left out for the width: %1").arg(names.join(QStringLiteral(", ")));
    }
    placeRows(table, cells, all, fit.widths, footnotes, options, device);
    return table;
}

void ExportLayout::placeRows(ExportTable &table, const std::vector<QStringList> &cells,
    const std::vector<int> &all, const std::vector<double> &widths, const QStringList &footnotes,
    const ExportOptions &options, QPaintDevice *device)
{
    for (int r = 0; r <= table.shown; ++r) {
        QStringList line;
        for (int kind : table.kinds)
            line << cells[std::size_t(r)][int(indexIn(all, kind))];
        table.cells.push_back(line);
    }
    const double lineCount = double(table.cells.size() + std::size_t(footnotes.size()));
    table.height = std::ceil(lineCount * table.rowHeight) + 2 * kTablePadding;
    const double y0 = std::ceil(options.height - table.height) + kTablePadding;
    const double height = double(table.cells.size()) * table.rowHeight;
    double x = kTablePadding;
    for (double w : widths) {
        table.columns.emplace_back(x + kTablePadding, y0, w, height);
        x += w + 2 * kTablePadding;
    }
    const QFontMetricsF metrics(table.font, device);
    for (qsizetype i = 0; i < footnotes.size(); ++i) {
        const double left = 2 * kTablePadding;
        const double width = std::min(
            metrics.horizontalAdvance(footnotes[i]), options.width - kTablePadding - left);
        table.footnotes.push_back(
            { QRectF(left, y0 + height + double(i) * table.rowHeight, width, table.rowHeight),
                footnotes[i] });
    }
}

void ExportLayout::paintTitle(QPainter *painter, const ExportOptions &options, const QFont &base,
    const ChartTheme &theme, int height)
{
    const QFont font = titleFont(base);
    painter->setFont(font);
    painter->setPen(theme.foreground);
    const QRect box(kTablePadding, 0, options.width - 2 * kTablePadding, height);
    const QString text = QFontMetricsF(font, painter->device())
                             .elidedText(options.title.simplified(), Qt::ElideRight, box.width());
    painter->drawText(box, Qt::AlignHCenter | Qt::AlignVCenter, text);
}

void ExportLayout::paintTable(QPainter *painter, const ExportTable &table,
    const ExportOptions &options, const ChartTheme &theme)
{
    const double rowHeight = table.rowHeight;
    const double room = options.width - 2 * kTablePadding;
    const double y0 = options.height - std::ceil(table.height) + kTablePadding;
    const QFontMetricsF metrics(table.font, painter->device());
    QFont bold = table.font;
    bold.setBold(true);
    painter->setPen(QPen(theme.grid, 1.0));
    painter->drawLine(QPointF(kTablePadding, y0), QPointF(options.width - kTablePadding, y0));
    for (std::size_t r = 0; r < table.cells.size(); ++r) {
        const double y = y0 + double(r) * rowHeight;
        if (r % 2 == 0 && r > 0 && theme.shading)
            painter->fillRect(QRectF(kTablePadding, y, room, rowHeight), theme.subGrid);
        painter->setFont(r == 0 ? bold : table.font);
        painter->setPen(theme.foreground);
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const QRectF &column = table.columns[c];
            const QRectF box(column.left(), y, column.width(), rowHeight);
            const bool name = table.kinds[c] == PointsTableModel::Name;
            const Qt::Alignment horizontal = name || table.kinds[c] == PointsTableModel::Bound
                ? Qt::AlignLeft
                : Qt::AlignRight;
            // Only the names give way: a number cut short would be a different number.
            const QString text = name
                ? QFontMetricsF(r == 0 ? bold : table.font, painter->device())
                      .elidedText(table.cells[r][int(c)], Qt::ElideRight, column.width())
                : table.cells[r][int(c)];
            painter->drawText(box, horizontal | Qt::AlignVCenter, text);
        }
        if (r == 0) {
            painter->setPen(QPen(theme.grid, 1.0));
            painter->drawLine(QPointF(kTablePadding, y + rowHeight),
                QPointF(options.width - kTablePadding, y + rowHeight));
        }
    }
    painter->setFont(table.font);
    painter->setPen(theme.foreground);
    for (const ExportTable::Footnote &note : table.footnotes)
        painter->drawText(note.box, Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(note.text, Qt::ElideRight, note.box.width()));
}

} // namespace ridgepoint
