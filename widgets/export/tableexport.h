// File ▸ Export table…: the kernels table as the user sees it (filtered and sorted) written as
// CSV or Markdown by core's report functions, written by the core writer (atomically to a
// file).
#pragma once

#include <QString>

#include <optional>
#include <string>
#include <vector>

class QAbstractProxyModel;

namespace ridgepoint {

class Document;

enum class TableFormat { Csv, Markdown };

// By the file's suffix: .csv, .md or .markdown; nullopt otherwise.
std::optional<TableFormat> tableFormatFor(const QString &fileName);

// The Document indices of the rows a sorted and filtered view over PointsTableModel shows, in
// its order.
std::vector<std::size_t> rowsInViewOrder(const QAbstractProxyModel *view);

// The table of those points (the moved ones as moved), with the speed-up column when a
// baseline is loaded. Points that cannot be placed on the machine have no row.
std::string pointsTableText(
    const Document &document, const std::vector<std::size_t> &rows, TableFormat format);

// Writes it to `fileName` (format by suffix); an empty string, or why it failed.
[[nodiscard]] QString exportPointsTable(
    const Document &document, const std::vector<std::size_t> &rows, const QString &fileName);

} // namespace ridgepoint
