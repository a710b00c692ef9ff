// A piece of a generic points CSV read once and kept compact (analyze on every core reads each
// piece twice: once for the payoff's total, once for the report): the second pass replays the
// points from the tape instead of reading the text again, and the piece's text can go as soon
// as its tape is made.
#pragma once

#include "core/io/read_result.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

struct KernelPoint;
struct PointsCsvLayout;

// The points one read of a piece gave: 32 bytes each (the numbers, the precision, the level of
// the bytes, the line) and the bytes of the name and the group, within a budget. Only what the
// common columns give fits (one bytes column, no time statistics, rate or intensity: fits()); a
// piece with a point that does not (a name of 64 KiB), or over the budget, keeps no tape
// (complete() is false) and is read again.
class PointsCsvTape
{
public:
    // Whether the points of a file of `layout` can fit: columns for a name, the FLOPs, one
    // bytes level, the time, the precision and the group (and ignored ones), nothing else.
    static bool fits(const PointsCsvLayout &layout);

    // What a point takes on the tape besides its name and group.
    static constexpr std::size_t kRowBytes = 32;

    // For a layout that fits; room made for `rows` rows. The tape gives up when it would take
    // more than `budget` bytes (a tape no larger than the text it stands for).
    PointsCsvTape(const PointsCsvLayout &layout, std::size_t rows, std::size_t budget);

    // Keeps `point`, read from line `line` of a piece whose first line was numbered
    // `firstLine`; gives up (complete() false, the rows dropped) on a point the tape cannot hold.
    void record(const KernelPoint &point, int line, int firstLine);
    // Gives back the room made for rows that did not come.
    void shrink();

    bool complete() const { return m_complete; }
    std::size_t size() const { return m_rows.size(); }
    // Point `i`'s members that its time comes from (payoff.h's pointSeconds): the tape's have
    // no rate.
    std::optional<double> seconds(std::size_t i) const
    {
        const double value = m_rows[i].seconds;
        return std::isnan(value) ? std::nullopt : std::optional(value);
    }
    double flops(std::size_t i) const { return m_rows[i].flops; }

    // Gives `sink` the points recorded, in order, as the read gave them: the same fields, the
    // lines counted from `firstLine`, the source file `fileName`.
    void replay(int firstLine, const std::string &fileName, const PointSink &sink) const;

private:
    static constexpr std::uint8_t kNone = 0xFF;

    struct Row {
        double flops = 0.0;
        double bytes = 0.0;
        double seconds = 0.0; // NaN: none
        std::uint16_t nameSize = 0; // the name's bytes, then the group's, in m_text
        std::uint16_t groupSize = 0;
        std::uint16_t lineStep
            = 0; // lines after the previous row's (the first: after firstLine − 1)
        std::uint8_t precision = kNone; // a Precision, or kNone
        std::uint8_t level = kNone; // the bytes' MemoryLevel, or kNone (main memory)
    };

    bool keep(const KernelPoint &point, int line, Row &out) const;
    void giveUp();

    bool m_namedByLine = false; // no name column: each point is named after its line
    bool m_complete = true;
    std::size_t m_budget;
    int m_lastLine = 0; // the line of the last row recorded, counted from the piece's first
    std::vector<Row> m_rows;
    std::string m_text; // the names and groups, one after another
};

} // namespace ridgepoint
