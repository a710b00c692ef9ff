// CSV: a tokenizer that keeps line and column of every field, and the generic points reader.
#pragma once

#include "core/io/numbers.h"
#include "core/io/read_result.h"
#include "core/model/diagnostic.h"
#include "core/model/point.h"

#include <optional>
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

    // Rows are ragged (a short last line, a rule row, a hand-edited file): every reader reads
    // cells through these, never fields[i], so a row with fewer fields reads as empty cells.
    // The field at `index`, or nullptr when the row is shorter.
    const CsvField *field(std::size_t index) const
    {
        return index < fields.size() ? &fields[index] : nullptr;
    }
    // Its text, or "" when the row is shorter.
    const std::string &text(std::size_t index) const
    {
        static const std::string kNone;
        return index < fields.size() ? fields[index].text : kNone;
    }
    // Its column, or 0 (no column) when the row is shorter.
    int column(std::size_t index) const { return index < fields.size() ? fields[index].column : 0; }
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

// Adds `lines` to every row, field and diagnostic line: for tables tokenized from the middle of
// a file (after a preamble that is not CSV).
void shiftLines(CsvTable &table, int lines);

// Reads the generic points CSV (docs/FILES.md). Columns are matched by name, alias and unit:
// a name column (name, label, kernel, ...); `flops`; `bytes`, per-level `bytes_<level>` /
// `<level>_bytes`, or main-memory aliases (theoretical_bytes, total_bytes, ...); a time with its
// unit (seconds, time_ms, mean_ms, time [us]) and the spread of repeats (median_ms, min_ms,
// max_ms, stddev_ms); a measured rate (performance, gflops, tflops, achieved_gflops); an
// intensity (ai, intensity, flop_per_byte): with flops it gives the bytes, with a rate alone
// it gives a point known by intensity and rate; optional `precision` and `group`. Cells are
// numbers in the column's unit or unit strings ("2.5 GFLOP"); in a comma-separated file a
// quoted "1,234,567" groups thousands. Rows with 0 FLOPs are kept with one warning. Rows with
// a problem are skipped with a diagnostic; at most `maxDiagnostics` are kept, then one summary
// line says how many more there were.
PointsReadResult readPointsCsv(
    std::string_view text, const std::string &fileName, int maxDiagnostics = 50);

// The same reader for files too large to hold as points (a million rows is about 300 MB of
// KernelPoint): each usable point goes to `sink` as soon as its row is read, and `points` stays
// empty. The messages and counts are those of the reader above, and no point reaches `sink`
// when the reader above would return none because of the file's quoting.
PointsReadResult readPointsCsv(std::string_view text, const std::string &fileName,
    const PointSink &sink, int maxDiagnostics = 50);

} // namespace ridgepoint
