// Internal to the points CSV reader: one row of cells -> one point (docs/FILES.md).
#pragma once

#include "core/io/formats/csv_columns.h"
#include "core/io/formats/csv_scanner.h"
#include "core/model/point.h"
#include "core/model/units.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::csv {

// The name of a point from a file without a name column: its line ("line 12").
inline std::string lineName(int line)
{
    return "line " + std::to_string(line);
}

// Why a row gives no point, and the field it is about (none: the whole row).
struct RowError {
    std::string message;
    const ScannedField *field = nullptr;
};

// Reads the rows under one header: each cell in its column's role and unit; an intensity with
// a FLOP count gives the bytes, with a performance alone a point known by intensity and rate.
class RowReader
{
public:
    RowReader(const std::vector<Column> &columns, char delimiter);

    // Fills `point` from a row with at least as many fields as columns; the first error
    // otherwise (the point is then to be dropped).
    std::optional<RowError> read(const ScannedRow &row, KernelPoint &point);

private:
    struct Cells; // what the cells of one row gave beyond the point itself

    void readCell(
        const Column &column, const ScannedField &field, KernelPoint &point, Cells &cells);
    // The number in a cell in the column's unit, into `value`; false (said in `cells`) when
    // it is not one. Zero is allowed where it is a real measurement (no FLOPs, no spread). A bool
    // and an out-parameter: an optional returned from here cost a stall per cell (numbers.h).
    bool number(const Column &column, const ScannedField &field, Dimension dimension,
        bool zeroAllowed, Cells &cells, double &value) const;
    void readPrecision(
        const Column &column, const ScannedField &field, KernelPoint &point, Cells &cells);

    const std::vector<Column> &m_columns;
    char m_delimiter;
    bool m_hasIntensity = false;
    bool m_hasName = false;
    // Most files repeat a few precisions: the last one read is reused.
    std::string m_lastPrecisionText;
    std::optional<Precision> m_lastPrecision;
};

} // namespace ridgepoint::csv
