// CSV: a tokenizer that keeps line and column of every field, and the generic points reader.
#pragma once

#include "core/diagnostic.h"
#include "core/point.h"

#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct CsvField {
    std::string text;
    int line = 0; // 1-based line where the field starts
    int column = 0; // 1-based column (code points) where the field starts
};

struct CsvRow {
    std::vector<CsvField> fields;
    int line = 0;
};

struct CsvTable {
    char delimiter = ',';
    std::vector<CsvRow> rows; // blank lines left out
    std::vector<Diagnostic> diagnostics;
};

// Splits CSV text into rows and fields. Handles a UTF-8 BOM, CRLF or LF line ends, quoted
// fields with "" escapes, delimiters and newlines inside quotes. `delimiter` 0 detects ',', ';'
// or tab from the first non-comment line. Lines starting with '#' are comments.
CsvTable tokenizeCsv(std::string_view text, const std::string &fileName, char delimiter = 0);

struct PointsReadResult {
    std::vector<KernelPoint> points; // the rows that could be used
    std::vector<Diagnostic> diagnostics; // one per row that could not, with line and column
    int rowsRead = 0; // data rows seen
    int rowsSkipped = 0; // data rows left out because of an error
};

// Reads the generic points CSV (docs/FILES.md): a header with a name column, `flops`, `bytes`
// and/or per-level `bytes_<level>` columns (bytes_l1, bytes_l2, bytes_hbm, ...), `seconds`
// (or a time column with its unit: time_ms, time [us]) or a measured rate (performance,
// gflops, tflops), and optional `precision` and `group`. Cells are numbers in the column's
// unit or unit strings ("2.5 GFLOP"). Rows with a problem are skipped with a diagnostic;
// at most `maxDiagnostics` are kept, then one summary line says how many more there were.
PointsReadResult readPointsCsv(
    std::string_view text, const std::string &fileName, int maxDiagnostics = 50);

} // namespace ridgepoint
