// core/stream: analyze's paths, one room (docs/ARCHITECTURE.md, "analyze on a big file").
//
// Two pipelines, source -> stage -> ordered sink, on one WorkerPool (worker_pool.h), shared with
// measure:
//
// runInOrder (the fast path: one clean points CSV, a source that can be cut)
//   source   pieced_file.h    the file read on every core, cut into pieces at line ends, each
//                             piece read once for the payoff's total and kept on a tape
//                             (core/io/formats/points_csv_pieces.h, points_csv_tape.h)
//   stage    pieced_report.h  a piece's points analysed and formatted into its own buffer
//                             (a ReportPart::Rows writer of core/report/report_stream.h)
//   sink     runInOrder       the buffers handed on in file order, one at a time
//
// runFedInOrder (the general path: every other input, sessions, several files, --baseline)
//   source   the caller's     the readers push their points one by one, in the inputs' order
//   stage    fed_report.h     each point analysed as it comes and put in a batch
//   sink     runFedInOrder    the batches written by one report writer, in the order filled
//
// A pool of one runs either pipeline on the calling thread: piece after piece, or batch after
// batch, each written as soon as it is full. The sequential path is that pool.
//
// The promise: the same bytes for any thread count. The text written, the messages and their
// order and the payoff's total do not depend on how many threads ran or how the file was cut:
// pieces and batches are numbered in input order, every sum over points is made afterwards in
// that order, and the sink takes them strictly by number. tests/app/cli/tst_cli_pieces.cpp holds
// it (every thread count and piece size against the sequential path, byte for byte),
// tests/core/io/tst_csvpieces.cpp for the pieces and the tapes,
// tests/core/stream/tst_workerpool.cpp for the two pipelines' order and failures,
// tests/core/stream/tst_fedreport.cpp for the general path's report against one writer.
#pragma once

#include "core/stream/worker_pool.h"

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <vector>

namespace ridgepoint {

namespace detail {

// A member's failure (the exception being handled), said under the lock so that no member
// waiting on `changed` misses it.
inline void failUnder(std::mutex &mutex, std::condition_variable &changed, WorkerPool &pool)
{
    {
        const std::lock_guard failing(mutex);
        pool.fail(std::current_exception());
    }
    changed.notify_all();
}

} // namespace detail

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
    const auto fail = [&] { detail::failUnder(mutex, room, pool); };
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

// What runFedInOrder's source fills: slot() is the batch to fill, send() hands it to the sink
// and makes the next one current (waiting while every buffer is still to be written).
template<typename Slot> class Feeder
{
public:
    virtual ~Feeder() = default;
    virtual Slot &slot() = 0;
    virtual void send() = 0;
};

namespace detail {

// Thrown by send() once the sink failed, to unwind the source; runFedInOrder catches it.
struct SinkFailed {
};

// A pool of one: each batch written as soon as it is sent, on the calling thread.
template<typename Slot, typename Output> class InlineFeeder final : public Feeder<Slot>
{
public:
    InlineFeeder(Slot &slot, Output &output)
        : m_slot(slot)
        , m_output(output)
    { }
    Slot &slot() override { return m_slot; }
    void send() override { m_output(m_slot); }

private:
    Slot &m_slot;
    Output &m_output;
};

// Two members: the source's sends and the sink's writes meet here, in the order sent.
template<typename Slot> class FedQueue final : public Feeder<Slot>
{
public:
    FedQueue(WorkerPool &pool, std::vector<Slot> &buffers)
        : m_pool(pool)
        , m_buffers(buffers)
    { }

    // The source's side. m_sent changes only in send(), on the source's own thread.
    Slot &slot() override { return m_buffers[m_sent % m_buffers.size()]; }
    void send() override
    {
        std::unique_lock lock(m_mutex);
        ++m_sent;
        m_changed.notify_all();
        m_changed.wait(
            lock, [&] { return m_pool.failed() || m_sent - m_written < m_buffers.size(); });
        if (m_pool.failed())
            throw SinkFailed {};
    }
    // The source ended, or failed (inside a catch block).
    void end(bool failed)
    {
        if (failed)
            failUnder(m_mutex, m_changed, m_pool);
        {
            const std::lock_guard lock(m_mutex);
            m_ended = true;
        }
        m_changed.notify_all();
    }

    // The sink's side: output(slot) for each batch sent, until the source ends or one fails.
    template<typename Output> void drain(Output &output)
    {
        std::unique_lock lock(m_mutex);
        while (true) {
            m_changed.wait(lock, [&] { return m_pool.failed() || m_written < m_sent || m_ended; });
            if (m_pool.failed() || m_written == m_sent)
                return;
            lock.unlock();
            try {
                output(m_buffers[m_written % m_buffers.size()]);
            } catch (...) {
                failUnder(m_mutex, m_changed, m_pool);
                return;
            }
            lock.lock();
            ++m_written;
            m_changed.notify_all();
        }
    }

private:
    WorkerPool &m_pool;
    std::vector<Slot> &m_buffers;
    std::mutex m_mutex;
    std::condition_variable m_changed; // a batch sent or written, the end, or a failure
    std::size_t m_sent = 0;
    std::size_t m_written = 0;
    bool m_ended = false;
};

} // namespace detail

// feed(feeder) on member 0, the source, which fills batches and sends them; output(slot) on
// member 1 for each batch sent, in the order sent, one at a time, while member 0 fills the next.
// At most buffers.size() batches are between the two: the buffers, reused in turn, are all the
// memory the batches take (a slot comes back to the source with what output left in it). A
// pool of one, or a single buffer, runs output right after each send, on the calling thread.
// Rethrows the first exception of feed or output; after output failed, send() stops the source.
template<typename Slot, typename Feed, typename Output>
void runFedInOrder(WorkerPool &pool, std::vector<Slot> &buffers, Feed feed, Output output)
{
    if (pool.size() < 2 || buffers.size() < 2) {
        detail::InlineFeeder<Slot, Output> direct(buffers.front(), output);
        feed(static_cast<Feeder<Slot> &>(direct));
        return;
    }
    detail::FedQueue<Slot> queue(pool, buffers);
    pool.run([&](std::size_t member) {
        if (member == 1) {
            queue.drain(output);
        } else if (member == 0) {
            try {
                feed(static_cast<Feeder<Slot> &>(queue));
                queue.end(false);
            } catch (const detail::SinkFailed &) {
                queue.end(false); // the sink's failure is the one told
            } catch (...) {
                queue.end(true);
            }
        }
    });
}

} // namespace ridgepoint
