// The analysis as JSON, written point by point into a raw buffer (AnalysisJsonWriter): the
// output of `analyze --json` for a million points, laid out byte for byte as nlohmann dumps it;
// numbers have the shortest, closest digits (core/model/shortest_number.h).
#include "core/report/report.h"

#include "core/report/change_report.h"

#include "core/analysis/levels.h"
#include "core/analysis/payoff.h"

#include "core/io/json_detail.h"
#include "core/model/byte_words.h"
#include "core/model/shortest_number.h"
#include "core/report/report_stream.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

namespace ridgepoint {

namespace detail {

// Where the text of numbers written lately is, by their bits: a machine's peaks and bandwidths
// come back in every point, and so do a point's own times and roofs (T_min is T_mem or T_math),
// and the counts of a kernel launched many times. A hit is a short copy from earlier in the
// output instead of the digit generation (17 numbers a point). The text is not copied into the
// cache when written: reading back bytes just written piecewise stalls the processor (a failed
// store-to-load forwarding), which cost more than the digits saved.
class NumberCache
{
public:
    // Texts are copied whole, kTextRoom bytes, whatever their size: a few vector moves instead
    // of a call to memcpy.
    static constexpr std::size_t kTextRoom = 32;

    // Where the text of `value` begins in the output, and its size (0: not known).
    std::size_t find(double value, std::size_t &offset) const
    {
        const Entry &entry = m_entries[slot(value)];
        if (entry.bits != std::bit_cast<std::uint64_t>(value) || entry.generation != m_generation)
            return 0;
        offset = entry.offset;
        return entry.size;
    }

    // The text of `value` was written at `offset`, `size` bytes, with room to kTextRoom.
    void store(double value, std::size_t offset, std::size_t size)
    {
        Entry &entry = m_entries[slot(value)];
        entry.bits = std::bit_cast<std::uint64_t>(value);
        entry.offset = offset;
        entry.size = static_cast<std::uint8_t>(size);
        entry.generation = m_generation;
    }

    // The output was handed on and is written anew: the offsets stored so far are void.
    void forget() { ++m_generation; }

private:
    static constexpr int kSlotBits = 10;
    static std::size_t slot(double value)
    {
        // Fibonacci hashing: the top bits of the product depend on every bit of the double.
        return static_cast<std::size_t>(
            (std::bit_cast<std::uint64_t>(value) * 0x9E3779B97F4A7C15U) >> (64 - kSlotBits));
    }

    struct Entry {
        std::uint64_t bits = ~std::uint64_t { 0 }; // a NaN: never a cached (finite) value
        std::size_t offset = 0;
        std::uint32_t generation = 0;
        std::uint8_t size = 0;
    };
    std::uint32_t m_generation = 1; // no entry is of it before its first store
    std::array<Entry, std::size_t { 1 } << kSlotBits> m_entries {};
};

} // namespace detail

namespace {

// A string literal as a template argument, so its compact form can be made at compile time.
template<std::size_t N> struct Literal {
    char text[N] {};
    constexpr Literal(const char (&from)[N]) // NOLINT: implicit, for raw<"...">()
    {
        std::copy_n(from, N, text);
    }
};

// The constant pieces hold the layout (indents, line breaks, the space after a colon) but never a
// space of their own, so the compact form is the piece without spaces and line breaks.
template<Literal piece> constexpr auto withoutLayout()
{
    constexpr std::size_t kSize = [] {
        std::size_t kept = 0;
        for (std::size_t i = 0; i + 1 < sizeof(piece.text); ++i)
            kept += piece.text[i] == ' ' || piece.text[i] == '\n' ? 0 : 1;
        return kept;
    }();
    std::array<char, kSize> out {};
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < sizeof(piece.text); ++i)
        if (piece.text[i] != ' ' && piece.text[i] != '\n')
            out[at++] = piece.text[i];
    return out;
}

// Whether the text is printable ASCII without a quote or a backslash, so JSON writes it as it
// is. Eight bytes at a time.
bool plainJsonText(std::string_view text)
{
    const char *const data = text.data();
    const std::size_t size = text.size();
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        const std::uint64_t word = bytewise::load(data + i);
        if (bytewise::anyHigh(word) || bytewise::bytesBelow(word, 0x20) != 0
            || bytewise::anyEqual(word, '"') || bytewise::anyEqual(word, '\\'))
            return false;
    }
    for (; i < size; ++i) {
        const auto u = static_cast<unsigned char>(data[i]);
        if (u < 0x20 || u >= 0x80 || u == '"' || u == '\\')
            return false;
    }
    return true;
}

// Appends to a string used as a raw buffer: the string's size is its capacity and `used` the
// part written, so a point's sixty-odd small pieces are plain copies, not string appends.
class JsonText
{
public:
    JsonText(
        std::string &buffer, std::size_t &used, detail::NumberCache &numbers, bool compact = false)
        : m_buffer(buffer)
        , m_used(used)
        , m_numbers(numbers)
        , m_compact(compact)
    { }

    // A piece of constant text (a key with its indent and punctuation); in the compact form
    // without its spaces and line breaks, taken out at compile time.
    template<Literal text> void raw()
    {
        if (m_compact) {
            static constexpr auto kCompact = withoutLayout<text>();
            std::memcpy(room(kCompact.size()), kCompact.data(), kCompact.size());
            m_used += kCompact.size();
            return;
        }
        constexpr std::size_t kSize = sizeof(text.text) - 1;
        std::memcpy(room(kSize), text.text, kSize); // a constant size: inlined as a few moves
        m_used += kSize;
    }

    void string(std::string_view text)
    {
        // Printable ASCII needs no escaping; anything else goes through nlohmann's own
        // escaping (control characters, quotes, UTF-8 checks with U+FFFD for bad bytes).
        const bool plain = plainJsonText(text);
        if (plain) {
            char *out = room(text.size() + 2);
            *out++ = '"';
            std::memcpy(out, text.data(), text.size());
            out[text.size()] = '"';
            m_used += text.size() + 2;
        } else {
            const std::string escaped = detail::dumpJson(nlohmann::ordered_json(std::string(text)));
            append(escaped.data(), escaped.size());
        }
    }

    // In nlohmann's layout with the shortest, closest digits (core/model/shortest_number.h),
    // null when not finite.
    void number(double value)
    {
        if (!std::isfinite(value)) {
            raw<"null">();
            return;
        }
        char *out = room(kNumberRoom);
        std::size_t offset = 0;
        if (const std::size_t known = m_numbers.find(value, offset); known > 0) {
            // Earlier in the same buffer, with room after it; memmove, as the copy of a text
            // written just before may overlap it.
            std::memmove(out, m_buffer.data() + offset, detail::NumberCache::kTextRoom);
            m_used += known;
            return;
        }
        const char *end = writeJsonNumber(out, value);
        const auto size = static_cast<std::size_t>(end - out);
        m_numbers.store(value, m_used, size);
        m_used += size;
    }

    void number(const std::optional<double> &value)
    {
        if (value)
            number(*value);
        else
            raw<"null">();
    }

    void integer(int value)
    {
        char *out = room(kNumberRoom);
        m_used += static_cast<std::size_t>(std::to_chars(out, out + kNumberRoom, value).ptr - out);
    }

    void boolean(bool value)
    {
        if (value)
            raw<"true">();
        else
            raw<"false">();
    }

private:
    static constexpr std::size_t kNumberRoom = kShortestRoom;
    static_assert(kNumberRoom >= detail::NumberCache::kTextRoom);

    // Where the next `bytes` go; the caller advances m_used.
    [[gnu::always_inline]] char *room(std::size_t bytes)
    {
        if (m_used + bytes > m_buffer.size()) [[unlikely]]
            grow(bytes);
        return m_buffer.data() + m_used;
    }

    [[gnu::noinline]] void grow(std::size_t bytes)
    {
        m_buffer.resize(std::max(m_buffer.size() * 2, m_used + bytes));
    }

    void append(const char *text, std::size_t size)
    {
        std::memcpy(room(size), text, size);
        m_used += size;
    }

    std::string &m_buffer;
    std::size_t &m_used;
    detail::NumberCache &m_numbers;
    bool m_compact;
};

// The doctor's ranked causes of an impossible point; an empty list for every other point.
void writeDiagnosis(JsonText &json, const std::vector<Diagnosis> &diagnosis)
{
    json.raw<",\n      \"diagnosis\": ">();
    if (diagnosis.empty()) {
        json.raw<"[]">();
        return;
    }
    for (std::size_t i = 0; i < diagnosis.size(); ++i) {
        if (i == 0)
            json.raw<"[\n        {\n          \"cause\": ">();
        else
            json.raw<",\n        {\n          \"cause\": ">();
        json.string(diagnosis[i].cause);
        json.raw<",\n          \"evidence\": ">();
        json.string(diagnosis[i].evidence);
        json.raw<",\n          \"fix\": ">();
        json.string(diagnosis[i].fix);
        json.raw<"\n        }">();
    }
    json.raw<"\n      ]">();
}

// One entry of a point's "levels": the ceiling's figures when the machine has one for it, else
// null there and "bounded": false (docs/FILES.md, "Analysis JSON").
void writeLevelJson(
    JsonText &json, const PointAnalysis &a, const LevelAnalysis &level, bool counted)
{
    const auto whenBounded = [&level](double value) {
        return level.bounded ? std::optional<double>(value) : std::nullopt;
    };
    const auto bound = levelBound(a, level);
    json.raw<"{\n          \"memory\": ">();
    if (level.bounded)
        json.string(level.memory);
    else
        json.raw<"null">();
    json.raw<",\n          \"ceiling\": ">();
    if (level.bounded)
        json.string(level.memory);
    else
        json.raw<"null">();
    json.raw<",\n          \"level\": ">();
    json.string(memoryLevelName(level.level));
    json.raw<",\n          \"bounded\": ">();
    json.boolean(level.bounded);
    json.raw<",\n          \"bytes\": ">();
    json.number(counted ? std::optional<double>(level.bytes) : std::nullopt);
    json.raw<",\n          \"intensity\": ">();
    json.number(level.intensity);
    json.raw<",\n          \"attainable\": ">();
    json.number(whenBounded(level.attainable));
    json.raw<",\n          \"bound\": ">();
    if (bound)
        json.string(boundName(*bound));
    else
        json.raw<"null">();
    json.raw<",\n          \"t_mem\": ">();
    json.number(counted ? whenBounded(level.tMem) : std::nullopt);
    json.raw<",\n          \"bandwidth\": ">();
    json.number(whenBounded(level.bandwidth));
    json.raw<",\n          \"achieved_bandwidth\": ">();
    json.number(level.achievedBandwidth);
    json.raw<",\n          \"bandwidth_utilization\": ">();
    json.number(level.bandwidthUtilization);
    json.raw<"\n        }">();
}

// The levels with a ceiling in the analysis' order (the first is the one a table row shows when
// it is main memory), then those the machine has no ceiling for.
void writeLevelsJson(JsonText &json, const PointAnalysis &a, bool counted)
{
    if (a.levels.empty() && a.unbounded.empty()) {
        json.raw<"[]">();
        return;
    }
    bool first = true;
    for (const auto *list : { &a.levels, &a.unbounded }) {
        for (const LevelAnalysis &level : *list) {
            if (first)
                json.raw<"[\n        ">();
            else
                json.raw<",\n        ">();
            first = false;
            writeLevelJson(json, a, level, counted);
        }
    }
    json.raw<"\n      ]">();
}

// One entry of "points" at the array's element indent (4), without a separator.
void writePointJson(
    JsonText &json, const KernelPoint &point, const PointAnalysis &a, double totalSeconds)
{
    // A point known by intensity and rate has no FLOP or byte count and so no times: null, not a
    // 0 that reads as a measurement.
    const bool counted = !point.knownByIntensity();
    const auto counts
        = [counted](double value) { return counted ? std::optional<double>(value) : std::nullopt; };
    json.raw<"    {\n      \"name\": ">();
    json.string(point.name);
    if (!point.group.empty()) {
        json.raw<",\n      \"group\": ">();
        json.string(point.group);
    }
    if (point.precision) {
        json.raw<",\n      \"precision\": ">();
        json.string(precisionName(*point.precision));
    }
    json.raw<",\n      \"flops\": ">();
    json.number(counts(point.flops));
    json.raw<",\n      \"seconds\": ">();
    json.number(point.seconds);
    json.raw<",\n      \"performance\": ">();
    json.number(a.performance);
    json.raw<",\n      \"levels\": ">();
    writeLevelsJson(json, a, counted);
    json.raw<",\n      \"compute_ceiling\": ">();
    json.string(a.computeCeiling);
    json.raw<",\n      \"peak\": ">();
    json.number(a.peak);
    json.raw<",\n      \"t_math\": ">();
    json.number(counts(a.tMath));
    json.raw<",\n      \"t_min\": ">();
    json.number(counts(a.tMin));
    json.raw<",\n      \"t_max\": ">();
    json.number(counts(a.tMax));
    json.raw<",\n      \"attainable\": ">();
    json.number(a.attainable);
    json.raw<",\n      \"bound\": ">();
    json.string(boundName(a.bound));
    json.raw<",\n      \"limiting_ceiling\": ">();
    json.string(a.limitingCeiling);
    json.raw<",\n      \"utilization\": ">();
    json.number(a.utilization);
    if (a.energy) { // the machine has an energy model (docs/MODEL.md §14)
        json.raw<",\n      \"energy_joules\": ">();
        json.number(a.energy->joules);
        json.raw<",\n      \"flops_per_joule\": ">();
        json.number(a.energy->flopsPerJoule);
        json.raw<",\n      \"power_capped_attainable\": ">();
        json.number(a.energy->powerCappedAttainable);
    }
    json.raw<",\n      \"payoff\": ">();
    json.number(payoff(point, a, totalSeconds));
    json.raw<",\n      \"consistent\": ">();
    json.boolean(a.consistent);
    json.raw<",\n      \"note\": ">();
    json.string(a.note);
    writeDiagnosis(json, a.diagnosis);
    if (!point.source.file.empty()) {
        json.raw<",\n      \"source\": {\n        \"file\": ">();
        json.string(point.source.file);
        json.raw<",\n        \"line\": ">();
        json.integer(point.source.line);
        json.raw<"\n      }">();
    }
    json.raw<"\n    }">();
}

// A profiler trace's GPU time: placed, not, and each unplaced kernel with its reason.
nlohmann::ordered_json traceJson(const TraceSummary &trace)
{
    nlohmann::ordered_json out;
    out["gpu_seconds"] = trace.gpuSeconds;
    out["placed_seconds"] = trace.placedSeconds;
    out["kernels"] = trace.kernels;
    if (trace.device)
        out["device"] = *trace.device;
    if (trace.multiprocessors)
        out["multiprocessors"] = *trace.multiprocessors;
    if (trace.memoryBytes)
        out["memory_bytes"] = *trace.memoryBytes;
    out["unplaced"] = nlohmann::ordered_json::array();
    for (const UnplacedKernels &u : trace.unplaced)
        out["unplaced"].push_back({ { "name", u.name }, { "seconds", u.seconds },
            { "launches", u.launches }, { "reason", u.reason } });
    return out;
}

} // namespace

AnalysisJsonWriter::AnalysisJsonWriter(const Hardware &hardware, Sink sink, double totalSeconds,
    bool compact, ReportPart part, bool pointsBefore, const TraceSummary *trace,
    const OperatorChanges *changes, const std::string &baselineFile)
    : m_sink(std::move(sink))
    , m_points(pointsBefore ? 1 : 0)
    , m_numbers(std::make_unique<detail::NumberCache>())
    , m_totalSeconds(totalSeconds)
    , m_compact(compact)
    , m_part(part)
{
    if (part == ReportPart::Rows || part == ReportPart::End)
        return; // no start
    nlohmann::ordered_json out;
    out["hardware"] = detail::hardwareJson(hardware, true);
    if (trace)
        out["trace"] = traceJson(*trace);
    if (changes)
        out["baseline"] = changesJson(*changes, baselineFile);
    if (compact) {
        // JSON Lines: the machine on the first line, then one point a line.
        m_buffer = detail::dumpJson(out) + "\n";
        m_used = m_buffer.size();
        return;
    }
    // The document around the points, from nlohmann itself: it ends in `"points": []` and the
    // closing brace; the points go between the brackets.
    out["points"] = nlohmann::ordered_json::array();
    m_buffer = detail::dumpJson(out, 2);
    constexpr std::string_view kEmpty = "[]\n}";
    m_used = m_buffer.size() - kEmpty.size();
}

AnalysisJsonWriter::~AnalysisJsonWriter() = default;

void AnalysisJsonWriter::add(const KernelPoint &point, const PointAnalysis &analysis)
{
    JsonText json(m_buffer, m_used, *m_numbers, m_compact);
    if (m_compact) {
        writePointJson(json, point, analysis, m_totalSeconds);
        m_buffer.resize(std::max(m_buffer.size(), m_used + 1));
        m_buffer[m_used++] = '\n';
    } else {
        if (m_points == 0)
            json.raw<"[\n">();
        else
            json.raw<",\n">();
        writePointJson(json, point, analysis, m_totalSeconds);
    }
    ++m_points;
    if (m_used >= kFlushBytes && !m_into)
        flush();
}

void AnalysisJsonWriter::finish()
{
    JsonText json(m_buffer, m_used, *m_numbers);
    // A start or rows part has no end, and a compact report's every line is complete.
    const bool closes = (m_part != ReportPart::Start && m_part != ReportPart::Rows) && !m_compact;
    if (closes && m_points == 0)
        json.raw<"[]\n}\n">();
    else if (closes)
        json.raw<"\n  ]\n}\n">();
    flush();
}

void AnalysisJsonWriter::writeInto(ReportText &text)
{
    // The buffer's size is its room: the text's bytes, whatever they held, become the room
    // after what was written so far (the start of the document, if any), and go back whole at
    // flush() with the text's size, so that room once made is not cleared again.
    if (text.bytes.size() < m_used)
        text.bytes.resize(m_used);
    std::memcpy(text.bytes.data(), m_buffer.data(), m_used);
    m_buffer.swap(text.bytes);
    m_into = &text;
}

void AnalysisJsonWriter::flush()
{
    m_numbers->forget();
    if (m_into) {
        m_into->bytes.swap(m_buffer);
        m_into->size = m_used;
        m_used = 0;
        return;
    }
    if (m_used > 0)
        m_sink(std::string_view(m_buffer.data(), m_used));
    m_used = 0;
}

std::string analysisJson(const Hardware &hardware, const std::vector<AnalyzedPoint> &points)
{
    std::string text;
    AnalysisJsonWriter writer(
        hardware, [&](std::string_view part) { text += part; }, totalSeconds(points));
    for (const auto &[point, analysis] : points)
        writer.add(point, analysis);
    writer.finish();
    return text;
}

} // namespace ridgepoint
