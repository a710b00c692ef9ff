// The generic points CSV read in pieces (analyze on both cores): the header read once, then the
// rows of any run of whole lines after it, each run on its own and on any thread, giving the
// points and row messages the whole-file reader (readPointsCsv) gives for those rows.
#pragma once

#include "core/io/formats/csv_columns.h"
#include "core/io/read_result.h"
#include "core/model/diagnostic.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

class PointsCsvTape;

// What the header of a generic points CSV says, and where its rows start.
struct PointsCsvLayout {
    std::vector<csv::Column> columns;
    char delimiter = ',';
    std::size_t rowsBegin = 0; // offset in the text of the line after the header
    int rowsLine = 0; // that line's number (1-based)
};

// The layout of `text` when readPointsCsv finds its header there without a single message (no
// unused column, no quoting problem, no repeated column); nullopt otherwise. The text must hold
// no '"': a quoted field may hold a line end, and pieces are cut at line ends.
std::optional<PointsCsvLayout> pointsCsvLayout(std::string_view text, const std::string &fileName);

// What reading one piece gave besides its points.
struct PointsCsvPiece {
    int rowsRead = 0; // data rows (not blank, not a comment)
    int rowsSkipped = 0;
    int zeroFlopRows = 0; // kept, with the whole file's one warning (not made here)
    int firstZeroFlopLine = 0;
    // The skipped rows' messages, at most `maxDiagnostics`, with the whole file's line numbers.
    std::vector<Diagnostic> diagnostics;
};

// Reads the rows in `piece`: whole lines of a text whose layout is `layout`, the first of them
// line `firstLine` of the file. Each usable point goes to `sink` with the fields (source line
// included) readPointsCsv's sink overload gives it; the points of consecutive pieces are those
// of the whole file in order. The file's summary messages (the zero-FLOP warning, "... more
// problems", "no data rows") are left to the caller, from the counts. With a `tape` (made for
// `layout`, empty), each point given to `sink` is kept on it too, for PointsCsvTape::replay.
PointsCsvPiece readPointsCsvPiece(const PointsCsvLayout &layout, std::string_view piece,
    int firstLine, const std::string &fileName, const PointSink &sink, int maxDiagnostics = 50,
    PointsCsvTape *tape = nullptr);

} // namespace ridgepoint
