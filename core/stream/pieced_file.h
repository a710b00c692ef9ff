// The pipeline's source (pipeline.h): a points CSV read on every core, cut into pieces at line
// ends, each piece read once for the payoff's total and for any message. Only a clean file
// takes this path: a generic points CSV without a quote whose reading gives no message at all.
// Every other file keeps the sequential path, messages and all.
#pragma once

#include "core/io/formats/points_csv_pieces.h"
#include "core/io/formats/points_csv_tape.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

class WorkerPool;

// About 5000 rows of a typical points CSV: a piece's compact JSON is about 5 MB.
inline constexpr std::size_t kPieceBytes = std::size_t { 256 } * 1024;

// A points file read for the pipeline.
struct PiecedFile {
    std::string name; // as given on the command line
    // The file's text; none once every piece has its tape (it is not read again).
    std::unique_ptr<char[]> bytes;
    std::string_view text; // views `bytes`
    PointsCsvLayout layout;
    // Whole lines of `text`, in order, together all the rows after the header.
    struct Piece {
        std::size_t begin = 0;
        std::size_t end = 0;
        int firstLine = 0; // the file's line number of its first line
        // Its points as the pass for the total read them, when they all fit on a tape: the
        // report's pass replays them instead of reading the text again.
        std::optional<PointsCsvTape> tape;
    };
    std::vector<Piece> pieces;
    // Σ pointSeconds of the points in file order, as readInputFile sums them (bit for bit).
    double seconds = 0.0;
};

// `path` read on the members of `pool` for analyzePieced, cut into pieces of about
// `pieceBytes`; nullopt, having said nothing, for a file that is not a clean generic points CSV
// (it then takes the sequential path, which says what is wrong with it).
std::optional<PiecedFile> readPiecedFile(
    const std::string &path, std::size_t pieceBytes, WorkerPool &pool);

} // namespace ridgepoint
