#include "widgets/export/tableexport.h"

#include "core/report/report.h"
#include "widgets/chart/baselineindex.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"

#include <QAbstractProxyModel>
#include <QFileInfo>

namespace ridgepoint {

std::optional<TableFormat> tableFormatFor(const QString &fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == "csv")
        return TableFormat::Csv;
    if (suffix == "md" || suffix == "markdown")
        return TableFormat::Markdown;
    return std::nullopt;
}

std::vector<std::size_t> rowsInViewOrder(const QAbstractProxyModel *view)
{
    std::vector<std::size_t> rows;
    rows.reserve(static_cast<std::size_t>(view->rowCount()));
    for (int r = 0; r < view->rowCount(); ++r)
        rows.push_back(static_cast<std::size_t>(view->mapToSource(view->index(r, 0)).row()));
    return rows;
}

std::string pointsTableText(
    const Document &document, const std::vector<std::size_t> &rows, TableFormat format)
{
    BaselineIndex baseline;
    baseline.rebuild(document.baseline());
    if (baseline.byOperator())
        baseline.setCurrent(document.workspace().points());
    std::vector<AnalyzedPoint> points;
    std::vector<std::optional<Speedup>> speedups;
    points.reserve(rows.size());
    for (const std::size_t row : rows) {
        if (row >= document.pointCount() || !document.placement(row).placed)
            continue;
        points.push_back({ document.point(row), *document.analysis(row) }); // made now
        if (!baseline.empty())
            speedups.push_back(baseline.speedupOf(points.back().point));
    }
    return format == TableFormat::Csv ? tableCsv(points, speedups)
                                      : tableMarkdown(points, speedups);
}

QString exportPointsTable(
    const Document &document, const std::vector<std::size_t> &rows, const QString &fileName)
{
    const auto format = tableFormatFor(fileName);
    if (!format)
        return QObject::tr("%1: unknown table type \"%2\" (expected .csv or .md)")
            .arg(fileName, QFileInfo(fileName).suffix());
    const std::string text = pointsTableText(document, rows, *format);
    return writeOutput(fileName, QByteArray::fromStdString(text));
}

} // namespace ridgepoint
