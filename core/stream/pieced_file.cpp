#include "core/stream/pieced_file.h"

#include "core/analysis/payoff.h"
#include "core/io/file_io.h"
#include "core/io/input_check.h"
#include "core/io/memory_hint.h"
#include "core/io/picture_session.h"
#include "core/io/readers.h"
#include "core/stream/worker_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <string_view>
#include <utility>

namespace ridgepoint {

namespace {

// Whole lines of `text` from `begin`, about `bytes` each.
std::vector<PiecedFile::Piece> cut(std::string_view text, std::size_t begin, std::size_t bytes)
{
    std::vector<PiecedFile::Piece> pieces;
    bytes = std::max<std::size_t>(bytes, 1);
    while (begin < text.size()) {
        std::size_t end = text.size();
        if (text.size() - begin > bytes) {
            const std::size_t lineEnd = text.find('\n', begin + bytes - 1);
            end = lineEnd == std::string_view::npos ? text.size() : lineEnd + 1;
        }
        pieces.push_back({ begin, end, 0, std::nullopt });
        begin = end;
    }
    return pieces;
}

// Whether `text` may take the pipeline: a generic points CSV without a quote (a quoted field
// may hold a line end). The input check (plainText) is the other condition.
bool pointsCsvWithoutQuotes(std::string_view text)
{
    if (text.find('"') != std::string_view::npos)
        return false;
    if (pictureKind(text.substr(0, 4096)) != PictureKind::None)
        return false;
    return !detectFileFormat(text); // the generic CSV is the format no detector claims
}

// Whether readPointsFile takes `text` as it is: no input error, no conversion from UTF-16.
bool plainText(std::string_view text, const std::string &name)
{
    const TextCheck check = checkTextInput(text, name);
    return !check.error && !check.converted;
}

// What reading one piece for the payoff's total gave.
struct Scan {
    // pointSeconds of each point, 0 for none, in file order: on the tape when there is one.
    std::vector<double> seconds;
    std::optional<PointsCsvTape> tape; // the points, for the report's pass
    std::size_t lineEnds = 0;
    int rows = 0;
    bool clean = true; // no message: no row skipped, no row of 0 FLOPs
};

// The file's bytes, each thread reading a part of them (copying from the page cache and
// faulting in the new pages is most of reading a big file, and would be one thread's alone);
// nothing when anything is unusual (not a regular file, too large, a size that changes, a
// read error): readTextFile then says what.
bool readOnEveryCore(PiecedFile &file, WorkerPool &pool)
{
    auto opened = RegularFile::open(file.name);
    if (!opened || opened->size() > kMaxInputBytes)
        return false;
    const RegularFile &input = *opened;
    const auto bytes = static_cast<std::size_t>(input.size());
    constexpr std::size_t kPartBytes = std::size_t { 8 } << 20;
    const std::size_t parts = (bytes + kPartBytes - 1) / kPartBytes;
    std::atomic<bool> complete = true;
    try {
        file.bytes.reset(new char[bytes]); // not zeroed: each page is first touched by its reader
        forEachInParallel(pool, parts, [&](std::size_t k) {
            const std::size_t begin = k * kPartBytes;
            const std::size_t length = std::min(kPartBytes, bytes - begin);
            const auto got = input.readAt(begin, file.bytes.get() + begin, length);
            if (!got || *got != length)
                complete = false;
        });
    } catch (const std::exception &) {
        return false;
    }
    if (!complete || input.currentSize() != input.size())
        return false;
    file.text = std::string_view(file.bytes.get(), bytes);
    return true;
}

} // namespace

namespace {

// The text of the pieces on their tapes, given back to the system: not read again by the
// pieces, but read whole by the input check, so a piece taped before the check is done waits.
class TextRelease
{
public:
    explicit TextRelease(const PiecedFile &file)
        : m_file(file)
    { }
    // The input check is done with the text: the pieces waiting go back.
    void checked()
    {
        std::vector<std::size_t> waiting;
        {
            const std::lock_guard lock(m_mutex);
            m_checked = true;
            waiting.swap(m_waiting);
        }
        for (const std::size_t k : waiting)
            release(k);
    }
    // Piece `k` is on its tape.
    void taped(std::size_t k)
    {
        {
            const std::lock_guard lock(m_mutex);
            if (!m_checked) {
                m_waiting.push_back(k);
                return;
            }
        }
        release(k);
    }

private:
    void release(std::size_t k) const
    {
        const PiecedFile::Piece &piece = m_file.pieces[k];
        releasePages(m_file.bytes.get() + piece.begin, piece.end - piece.begin);
    }

    const PiecedFile &m_file;
    std::mutex m_mutex;
    bool m_checked = false;
    std::vector<std::size_t> m_waiting;
};

// Reads piece `k` for the payoff's total and any message into `scan`: onto a tape when `taped`
// (the file's columns fit one) and the tape can be no larger than the piece's text, else for
// the seconds alone. Whether the piece ended on its tape (its text is not read again).
bool scanPiece(const PiecedFile &file, std::size_t k, bool taped, Scan &scan)
{
    const PiecedFile::Piece &piece = file.pieces[k];
    const std::string_view rows
        = std::string_view(file.text).substr(piece.begin, piece.end - piece.begin);
    scan.lineEnds = static_cast<std::size_t>(std::count(rows.begin(), rows.end(), '\n'));
    // The line numbers are not known yet: they would matter only for messages, and any
    // message sends the file to the sequential path.
    const auto read = [&](const PointSink &sink, PointsCsvTape *tape) {
        const PointsCsvPiece got
            = readPointsCsvPiece(file.layout, rows, 1, file.name, sink, 0, tape);
        scan.rows = got.rowsRead;
        scan.clean = got.rowsSkipped == 0 && got.zeroFlopRows == 0;
    };
    // Lines of 32 bytes on average at least: the tape takes no more than the text gives back.
    const std::size_t lines = scan.lineEnds + (rows.empty() || rows.back() == '\n' ? 0 : 1);
    if (taped && lines * PointsCsvTape::kRowBytes <= rows.size()) {
        scan.tape.emplace(file.layout, lines, rows.size());
        read([](KernelPoint &&) {}, &*scan.tape);
        if (scan.tape->complete()) {
            scan.tape->shrink();
            return true;
        }
        scan.tape.reset(); // a name too long for it, say: read again for the times
    }
    read([&](KernelPoint &&point) { scan.seconds.push_back(pointSeconds(point).value_or(0.0)); },
        nullptr);
    return false;
}

std::optional<PiecedFile> readPieces(
    const std::string &path, std::size_t pieceBytes, WorkerPool &pool)
{
    PiecedFile file;
    file.name = path;
    if (!readOnEveryCore(file, pool) || !pointsCsvWithoutQuotes(file.text))
        return std::nullopt;
    auto layout = pointsCsvLayout(file.text, file.name);
    if (!layout)
        return std::nullopt;
    file.layout = std::move(*layout);
    file.pieces = cut(file.text, file.layout.rowsBegin, pieceBytes);

    // Task 0 is the input check (a pass over the whole text), the others the pieces.
    std::vector<Scan> scans(file.pieces.size());
    const bool taped = PointsCsvTape::fits(file.layout);
    bool plain = false;
    TextRelease release(file);
    forEachInParallel(pool, file.pieces.size() + 1, [&](std::size_t task) {
        if (task == 0) {
            plain = plainText(file.text, file.name);
            release.checked();
        } else if (scanPiece(file, task - 1, taped, scans[task - 1])) {
            release.taped(task - 1);
        }
    });
    if (!plain)
        return std::nullopt;
    int rows = 0;
    std::size_t line = static_cast<std::size_t>(file.layout.rowsLine);
    for (std::size_t k = 0; k < scans.size(); ++k) {
        if (!scans[k].clean)
            return std::nullopt;
        rows += scans[k].rows;
        file.pieces[k].firstLine = static_cast<int>(line);
        line += scans[k].lineEnds;
        // In file order, one point after another: the sequential path's sum, bit for bit.
        for (const double seconds : scans[k].seconds)
            file.seconds += seconds;
        if (const auto &tape = scans[k].tape) {
            for (std::size_t i = 0; i < tape->size(); ++i)
                file.seconds
                    += pointSeconds(tape->seconds(i), std::nullopt, tape->flops(i)).value_or(0.0);
        }
        file.pieces[k].tape = std::move(scans[k].tape);
    }
    if (rows == 0 || line > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return std::nullopt; // "no data rows" is a message
    // Every piece on its tape: the text is not read again, and its memory is the report's.
    if (std::all_of(file.pieces.begin(), file.pieces.end(),
            [](const PiecedFile::Piece &piece) { return piece.tape.has_value(); })) {
        file.bytes.reset();
        file.text = {};
    }
    return file;
}

} // namespace

std::optional<PiecedFile> readPiecedFile(
    const std::string &path, std::size_t pieceBytes, WorkerPool &pool)
{
    // Out of memory on the way (the file's bytes, the pass for the total): what was taken is
    // given back, and the sequential path reads the file and says so in its own words.
    try {
        return readPieces(path, pieceBytes, pool);
    } catch (const std::bad_alloc &) {
        return std::nullopt;
    }
}

} // namespace ridgepoint
