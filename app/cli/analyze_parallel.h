// `analyze` on every core for a big points CSV (docs/ARCHITECTURE.md, "analyze on every core"):
// the file cut into pieces at line ends, the pieces read for the payoff's total on every thread,
// then read, analysed and formatted on every thread, each piece's text written in file order.
// Only a clean file takes this path: a generic points CSV without a quote whose reading gives
// no message at all. Every other file keeps the sequential path, messages and all.
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/formats/points_csv_pieces.h"
#include "core/io/formats/points_csv_tape.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/report/report_stream.h"

#include <QString>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::cli {

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

// `path` read for analyzePieced, cut into pieces of about `pieceBytes`; nullopt, having said
// nothing, for a file that is not a clean generic points CSV (it then takes the sequential
// path, which says what is wrong with it).
std::optional<PiecedFile> readPiecedFile(const QString &path, std::size_t pieceBytes);

struct PiecedOutcome {
    std::size_t placed = 0;
    int inconsistent = 0;
    // The first messages about points that could not be placed, as many as are shown, and the
    // count of all, in file order.
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
};

// Analyses the file's points and writes their report (Csv or Json, `options` as the sequential
// path has them) to stdout: the bytes the sequential path writes, nothing when no point could be
// placed. Throws what a thread threw.
PiecedOutcome analyzePieced(const PiecedFile &file, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, ReportFormat format, ReportWriterOptions options);

} // namespace ridgepoint::cli
