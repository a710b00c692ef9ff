#include "core/io/formats/csv_row.h"

#include "core/io/formats/csv_numbers.h"
#include "core/io/numbers.h"
#include "core/io/read_result.h"
#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint::csv {

struct RowReader::Cells {
    std::optional<double> intensity;
    const ScannedField *intensityField = nullptr;
    bool flopsGiven = false;
    std::optional<RowError> error;

    void bad(const Column &column, const ScannedField &field, const std::string &message)
    {
        error = RowError { "column \"" + column.header + "\": " + message, &field };
    }
};

RowReader::RowReader(const std::vector<Column> &columns, char delimiter)
    : m_columns(columns)
    , m_delimiter(delimiter)
{
    const auto has = [&](Role role) {
        return std::any_of(
            columns.begin(), columns.end(), [role](const Column &c) { return c.role == role; });
    };
    m_hasIntensity = has(Role::Intensity);
    m_hasName = has(Role::Name);
}

std::optional<RowError> RowReader::read(const ScannedRow &row, KernelPoint &point)
{
    Cells cells;
    for (std::size_t i = 0; i < m_columns.size() && !cells.error; ++i)
        readCell(m_columns[i], row.fields[i], point, cells);
    if (!m_hasName)
        point.name = lineName(row.line);
    if (cells.error)
        return cells.error;
    if (point.bytes.empty() && cells.intensity) {
        if (cells.flopsGiven && point.flops > 0.0) {
            // Intensity with a FLOP count: the bytes follow.
            point.bytes.push_back({ std::nullopt, point.flops / *cells.intensity });
        } else if (point.measuredRate) {
            point.intensity = cells.intensity;
            point.flops = 0.0;
        } else {
            return RowError { "an intensity needs a FLOP count or a performance in the same row",
                cells.intensityField };
        }
    }
    if (point.bytes.empty() && !point.intensity)
        return RowError { "no bytes in any bytes column (expected at least one)", nullptr };
    if (auto problem = pointProblem(point))
        return RowError { std::move(*problem), nullptr };
    return std::nullopt;
}

bool RowReader::number(const Column &column, const ScannedField &field, Dimension dimension,
    bool zeroAllowed, Cells &cells, double &value) const
{
    const std::string_view cell = trim(field.text);
    double read = 0.0;
    if (plainNumber(cell, read)) { // nearly every cell
        read *= column.scale;
    } else {
        const auto other = otherCellValue(cell, column.scale, dimension, m_delimiter);
        if (!other) {
            cells.bad(column, field, other.error());
            return false;
        }
        read = *other;
    }
    if (zeroAllowed ? !(read >= 0.0) : !(read > 0.0)) {
        cells.bad(column, field,
            "\"" + std::string(cell) + "\" must be "
                + (zeroAllowed ? "zero or more" : "greater than zero")
                + " (a log-log roofline cannot show it)");
        return false;
    }
    value = read;
    return true;
}

void RowReader::readPrecision(
    const Column &column, const ScannedField &field, KernelPoint &point, Cells &cells)
{
    const std::string_view cell = trim(field.text);
    if (cell.empty())
        return;
    if (cell != m_lastPrecisionText) {
        m_lastPrecisionText = cell;
        m_lastPrecision = precisionOfCell(cell);
    }
    point.precision = m_lastPrecision;
    if (!point.precision)
        cells.bad(column, field,
            "unknown precision \"" + std::string(cell)
                + "\" (expected fp64, fp32, tf32, bf16, fp16, fp8, int8 or int4)");
}

void RowReader::readCell(
    const Column &column, const ScannedField &field, KernelPoint &point, Cells &cells)
{
    const std::string_view cell = trim(field.text);
    double v = 0.0;
    const auto optionalTime = [&](std::optional<double> &target, bool zeroAllowed) {
        if (!cell.empty() && number(column, field, Dimension::Time, zeroAllowed, cells, v))
            target = v;
    };
    switch (column.role) {
    case Role::Ignored:
        break;
    case Role::Name:
        point.name.assign(cell); // into the buffer a reused point already has
        if (point.name.empty())
            cells.bad(column, field, "empty name (expected the kernel's name)");
        break;
    case Role::Flops:
        if (cell.empty()) {
            if (!m_hasIntensity)
                cells.bad(column, field, "empty (expected the number of FLOPs)");
        } else if (number(column, field, Dimension::Flops, true, cells, v)) {
            point.flops = v;
            cells.flopsGiven = true;
        }
        break;
    case Role::Bytes:
        if (!cell.empty() && number(column, field, Dimension::Bytes, false, cells, v))
            point.bytes.push_back({ column.level, v });
        break;
    case Role::Intensity:
        if (!cell.empty() && number(column, field, Dimension::Intensity, false, cells, v)) {
            cells.intensity = v;
            cells.intensityField = &field;
        }
        break;
    case Role::Time:
        optionalTime(point.seconds, false);
        break;
    case Role::TimeMin:
        optionalTime(point.timeStatistics.min, false);
        break;
    case Role::TimeMedian:
        optionalTime(point.timeStatistics.median, false);
        break;
    case Role::TimeMax:
        optionalTime(point.timeStatistics.max, false);
        break;
    case Role::TimeStddev:
        optionalTime(point.timeStatistics.stddev, true);
        break;
    case Role::Rate:
        if (!cell.empty() && number(column, field, Dimension::FlopRate, true, cells, v) && v > 0.0)
            point.measuredRate = v;
        break;
    case Role::Precision:
        readPrecision(column, field, point, cells);
        break;
    case Role::Group:
        point.group.assign(cell);
        break;
    }
}

} // namespace ridgepoint::csv
