#include "app/cli/analyze_parallel.h"

#include "app/cli/cli_common.h"

#include "core/analysis/payoff.h"
#include "core/io/file_io.h"
#include "core/io/input_check.h"
#include "core/io/picture_session.h"
#include "core/io/readers.h"
#include "core/io/memory_hint.h"
#include "core/report/level_columns.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <string_view>
#include <thread>
#include <utility>

namespace ridgepoint::cli {

namespace {

// This thread and as many more as the machine has cores, up to four in all.
std::size_t threadCount()
{
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
}

// Runs `run` on `threads` threads, this one among them, and rethrows the first exception one of
// them threw (or gave to fail()) once all have ended; `run` should stop soon after failed().
// Fewer threads when the system refuses one (a process limit): `run` shares its work out, so
// the threads started do it all.
class Threads
{
public:
    template<typename Run> void run(std::size_t threads, Run run)
    {
        std::vector<std::thread> helpers;
        try {
            helpers.reserve(threads);
            for (std::size_t i = 1; i < threads; ++i)
                helpers.emplace_back([&] { guarded(run); });
        } catch (const std::exception &) {
            // std::system_error from the thread, or bad_alloc: on with those that started.
        }
        guarded(run);
        for (std::thread &helper : helpers)
            helper.join();
        if (m_failure)
            std::rethrow_exception(m_failure);
    }
    bool failed() const { return m_failed.load(); }
    // Records a thread's exception: failed() is true from now on.
    void fail(std::exception_ptr failure)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_failure)
            m_failure = std::move(failure);
        m_failed = true;
    }

private:
    template<typename Run> void guarded(Run &run)
    {
        try {
            run();
        } catch (...) {
            fail(std::current_exception());
        }
    }

    std::mutex m_mutex;
    std::exception_ptr m_failure;
    std::atomic<bool> m_failed = false;
};

// work(k) for every k in [0, count), in any order, on `threads` threads.
template<typename Work> void forEachInParallel(std::size_t count, std::size_t threads, Work work)
{
    std::atomic<std::size_t> next = 0;
    Threads pool;
    pool.run(threads, [&] {
        for (std::size_t k = next++; k < count && !pool.failed(); k = next++)
            work(k);
    });
}

// work(k, slot) for every k in [0, count) on `threads` threads, and output(k, slot) in the order
// of k, one at a time, on the thread that finished the piece the next output waited for. At most
// buffers.size() pieces are between work and output: the buffers, reused in turn, are all the
// memory the pieces' results take.
template<typename Slot, typename Work, typename Output>
void runInOrder(
    std::size_t count, std::size_t threads, std::vector<Slot> &buffers, Work work, Output output)
{
    std::mutex mutex;
    std::condition_variable room; // a piece was output, or a thread failed
    std::size_t next = 0; // the next piece to work on
    std::size_t emitted = 0; // pieces output
    std::vector<bool> done(count, false);
    bool emitting = false;
    Threads pool;
    // A thread's failure, said under the lock so that no thread waiting for room misses it.
    const auto fail = [&] {
        {
            const std::lock_guard failing(mutex);
            pool.fail(std::current_exception());
        }
        room.notify_all();
    };
    pool.run(threads, [&] {
        std::unique_lock lock(mutex);
        while (true) {
            room.wait(lock,
                [&] { return pool.failed() || next >= count || next < emitted + buffers.size(); });
            if (pool.failed() || next >= count)
                return;
            const std::size_t k = next++;
            lock.unlock();
            try {
                work(k, buffers[k % buffers.size()]);
            } catch (...) {
                fail();
                return;
            }
            lock.lock();
            done[k] = true;
            if (emitting)
                continue; // the outputting thread takes this piece when it is the next
            emitting = true;
            while (emitted < count && done[emitted] && !pool.failed()) {
                lock.unlock();
                try {
                    output(emitted, buffers[emitted % buffers.size()]);
                } catch (...) {
                    fail();
                    return;
                }
                lock.lock();
                ++emitted;
                room.notify_all();
            }
            emitting = false;
        }
    });
}

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
bool readOnEveryCore(PiecedFile &file)
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
        forEachInParallel(parts, threadCount(), [&](std::size_t k) {
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

std::optional<PiecedFile> readPieces(const QString &path, std::size_t pieceBytes)
{
    PiecedFile file;
    file.name = path.toStdString();
    if (!readOnEveryCore(file) || !pointsCsvWithoutQuotes(file.text))
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
    forEachInParallel(file.pieces.size() + 1, threadCount(), [&](std::size_t task) {
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

std::optional<PiecedFile> readPiecedFile(const QString &path, std::size_t pieceBytes)
{
    // Out of memory on the way (the file's bytes, the pass for the total): what was taken is
    // given back, and the sequential path reads the file and says so in its own words.
    try {
        return readPieces(path, pieceBytes);
    } catch (const std::bad_alloc &) {
        return std::nullopt;
    }
}

namespace {

// What analyzePieced's pieces share.
struct Context {
    const PiecedFile &file;
    const Hardware &hardware;
    const AnalysisOptions &analysisOptions;
    ReportFormat format;
    const ReportWriterOptions &options;
};

// One piece's report rows and what analysing its points gave.
struct Slot {
    ReportText text; // the rows, and room kept for the next piece's
    bool rowsBefore = false; // what its writer was told
    std::size_t placed = 0;
    int inconsistent = 0;
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
};

// Calls `place` with each point of piece `k` that can be analysed, counting the others in
// `slot`.
template<typename Place>
void analysePiece(const Context &context, std::size_t k, Slot &slot, Place place)
{
    const PiecedFile &file = context.file;
    const PiecedFile::Piece &piece = file.pieces[k];
    const PointSink sink = [&](KernelPoint &&point) {
        auto analysis = analyzePoint(point, context.hardware, context.analysisOptions);
        if (!analysis) {
            if (++slot.problemCount <= kMaxDiagnosticsShown)
                slot.problems.push_back(
                    { Severity::Error, point.source.file, point.source.line, 0, analysis.error() });
            return;
        }
        place(point, *analysis);
    };
    if (piece.tape)
        piece.tape->replay(piece.firstLine, file.name, sink);
    else
        readPointsCsvPiece(file.layout,
            std::string_view(file.text).substr(piece.begin, piece.end - piece.begin),
            piece.firstLine, file.name, sink);
}

// The report rows of piece `k` into `slot` (its buffers reused).
void formatPiece(const Context &context, std::size_t k, bool rowsBefore, Slot &slot)
{
    slot.text.size = 0;
    slot.rowsBefore = rowsBefore;
    slot.placed = 0;
    slot.inconsistent = 0;
    slot.problems.clear();
    slot.problemCount = 0;
    ReportWriterOptions options = context.options;
    options.part = ReportPart::Rows;
    options.rowsBefore = rowsBefore;
    options.into = &slot.text; // CSV and JSON write straight into the slot
    const auto writer = makeReportWriter(
        context.format, context.hardware,
        [&slot](std::string_view text) { // a format without `into` (none comes here yet)
            slot.text.bytes.resize(slot.text.size);
            slot.text.bytes.append(text);
            slot.text.size = slot.text.bytes.size();
        },
        options);
    analysePiece(context, k, slot, [&](const KernelPoint &point, const PointAnalysis &analysis) {
        ++slot.placed;
        slot.inconsistent += analysis.consistent ? 0 : 1;
        writer->add(point, analysis);
    });
    writer->finish();
}

// The levels the CSV's columns are for: those of the first points placed, as many as the
// sequential writer looks ahead.
std::vector<MemoryLevel> lookAheadLevels(const Context &context)
{
    const std::size_t lookAhead = std::max<std::size_t>(context.options.lookAhead, 1);
    LevelColumns columns;
    std::size_t seen = 0;
    Slot ignored;
    for (std::size_t k = 0; k < context.file.pieces.size() && seen < lookAhead; ++k) {
        analysePiece(context, k, ignored, [&](const KernelPoint &, const PointAnalysis &analysis) {
            if (seen++ < lookAhead)
                columns.see(analysis);
        });
    }
    return columns.levels();
}

// One part of the report written alone (the start or the end).
std::string reportPart(const Context &context, ReportPart part)
{
    std::string text;
    ReportWriterOptions options = context.options;
    options.part = part;
    options.rowsBefore = true;
    makeReportWriter(
        context.format, context.hardware, [&text](std::string_view piece) { text += piece; },
        options)
        ->finish();
    return text;
}

void write(std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

} // namespace

PiecedOutcome analyzePieced(const PiecedFile &file, const Hardware &hardware,
    const AnalysisOptions &analysisOptions, ReportFormat format, ReportWriterOptions options)
{
    Context context { file, hardware, analysisOptions, format, options };
    if (format == ReportFormat::Csv)
        options.levels = lookAheadLevels(context);
    const std::string start = reportPart(context, ReportPart::Start);
    PiecedOutcome outcome;
    const std::size_t threads = threadCount();
    std::vector<Slot> buffers(2 * threads);
    runInOrder(
        file.pieces.size(), threads, buffers,
        // A piece's writer is told that rows came before it unless it is the first: wrong only
        // when every piece before it placed no point, and then it is formatted again.
        [&](std::size_t k, Slot &slot) { formatPiece(context, k, k > 0, slot); },
        [&](std::size_t k, Slot &slot) {
            if (slot.placed > 0) {
                const bool rowsBefore = outcome.placed > 0;
                if (slot.rowsBefore != rowsBefore)
                    formatPiece(context, k, rowsBefore, slot);
                if (!rowsBefore)
                    write(start);
                write(slot.text.text());
            }
            outcome.placed += slot.placed;
            outcome.inconsistent += slot.inconsistent;
            for (Diagnostic &problem : slot.problems) {
                if (outcome.problems.size() < kMaxDiagnosticsShown)
                    outcome.problems.push_back(std::move(problem));
            }
            outcome.problemCount += slot.problemCount;
        });
    if (outcome.placed > 0)
        write(reportPart(context, ReportPart::End));
    std::fflush(stdout);
    return outcome;
}

} // namespace ridgepoint::cli
