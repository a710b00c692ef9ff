// core/stream: analyze's fast path, one room (docs/ARCHITECTURE.md, "analyze on a big file").
//
//   source   pieced_file.h    a clean points CSV read on every core, cut into pieces at line
//                             ends, each piece read once for the payoff's total and kept on a
//                             tape (core/io/formats/points_csv_pieces.h, points_csv_tape.h)
//   stage    pieced_report.h  a piece's points analysed and formatted into its own buffer
//                             (a ReportPart::Rows writer of core/report/report_stream.h)
//   sink     runInOrder below the buffers handed on in file order, one at a time
//
// The threads are a WorkerPool (worker_pool.h), shared with measure; a pool of one runs the
// same pipeline on the calling thread, piece after piece.
//
// The promise: the same bytes for any thread count. The text written, the messages and their
// order and the payoff's total do not depend on how many threads ran or how the file was cut:
// pieces are numbered in file order, every sum over points is made afterwards in that order,
// and the sink takes the pieces strictly by number. tests/app/cli/tst_cli_pieces.cpp holds it
// (every thread count and piece size against the sequential path, byte for byte), with
// tests/core/io/tst_csvpieces.cpp for the pieces and the tapes.
#pragma once

#include "core/stream/worker_pool.h"

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace ridgepoint {

// work(k, slot) for every k in [0, count) on every member of `pool`, and output(k, slot) in the
// order of k, one at a time, on the member that finished the piece the next output waited for.
// At most buffers.size() pieces are between work and output: the buffers, reused in turn, are
// all the memory the pieces' results take. Rethrows the first exception of work or output.
template<typename Slot, typename Work, typename Output>
void runInOrder(
    WorkerPool &pool, std::size_t count, std::vector<Slot> &buffers, Work work, Output output)
{
    std::mutex mutex;
    std::condition_variable room; // a piece was output, or a member failed
    std::size_t next = 0; // the next piece to work on
    std::size_t emitted = 0; // pieces output
    std::vector<bool> done(count, false);
    bool emitting = false;
    // A member's failure, said under the lock so that no member waiting for room misses it.
    const auto fail = [&] {
        {
            const std::lock_guard failing(mutex);
            pool.fail(std::current_exception());
        }
        room.notify_all();
    };
    pool.run([&](std::size_t) {
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
                continue; // the outputting member takes this piece when it is the next
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

} // namespace ridgepoint
