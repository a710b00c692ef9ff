// Internal to the trace reader (kineto_events.cpp, kineto_events_check.cpp): a JSON scalar as the
// reader sees it, whichever parser gave it, the rules both passes share, and the simdjson walk's
// small helpers (the line of an offset, a string read where it lies).
#pragma once

#include "core/io/formats/kineto_events.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint::kineto::detail {

// A scalar as nlohmann's SAX interface tells it apart: a number written without '.', 'e' or 'E'
// that fits std::int64_t or std::uint64_t is an Integer (`whole` when it fits std::int64_t);
// any other number is a Float.
struct Value {
    enum Kind { Null, Boolean, Integer, Float, String } kind = Null;
    double number = 0.0;
    std::int64_t integer = 0;
    bool whole = false;
    std::string_view text; // a String's, unescaped
};

inline Value kindValue(Value::Kind kind)
{
    Value v;
    v.kind = kind;
    return v;
}

inline Value integerValue(double number, std::int64_t integer, bool whole)
{
    Value v = kindValue(Value::Integer);
    v.number = number;
    v.integer = integer;
    v.whole = whole;
    return v;
}

inline Value floatValue(double number)
{
    Value v = kindValue(Value::Float);
    v.number = number;
    return v;
}

std::string_view kindName(Value::Kind kind);

// Line and column of the offsets of events, asked in increasing order: the newlines between
// one and the next are counted once, so all the events of a file cost one pass over its text
// (the parser itself says nothing of lines).
class LineCounter
{
public:
    explicit LineCounter(std::string_view text)
        : m_text(text)
    { }

    // The column is in bytes, as the reader has always given it for an event.
    EventPlace at(std::size_t offset)
    {
        const std::string_view span = m_text.substr(m_counted, offset - m_counted);
        if (const auto newlines = std::count(span.begin(), span.end(), '\n'); newlines > 0) {
            m_line += static_cast<int>(newlines);
            m_lineStart = m_counted + span.rfind('\n') + 1;
        }
        m_counted = offset;
        return { m_line, static_cast<int>(offset - m_lineStart) + 1 };
    }

private:
    std::string_view m_text;
    std::size_t m_counted = 0;
    std::size_t m_lineStart = 0;
    int m_line = 1;
};

// The text of a string that holds no escape, where it lies in the JSON (`quoted` is just past its
// opening quote); nullopt when it holds one. simdjson unescapes every string it is asked for into
// a buffer that grows over the whole document (tens of MB for a large trace), so only a string
// with an escape goes there. The closing quote is there: simdjson's index of the text refuses a
// string left open (and a raw control character, and bytes that are not UTF-8) before any read.
inline std::optional<std::string_view> plainString(const char *quoted)
{
    const char *end = quoted;
    while (*end != '"' && *end != '\\')
        ++end;
    if (*end == '\\')
        return std::nullopt;
    return std::string_view(quoted, static_cast<std::size_t>(end - quoted));
}

// A field of deviceProperties[0] ("name", "numSms", "totalGlobalMem") into `events`.
void deviceField(Events &events, std::string_view key, const Value &value);

// The first fault of a text as JSON, as nlohmann's parser words it.
struct JsonFault {
    std::size_t offset = 0; // of the offending character
    std::string message; // "syntax error while parsing value - unexpected end of input; ..."
};

// What the nlohmann pass over a text found: its first fault, if any; with `deviceOnly`, the first
// device's fields, the number of devices and whether "traceEvents" is an array, the pass ending
// where deviceProperties does.
struct CheckedText {
    std::optional<JsonFault> fault;
    Events events;
};

// nlohmann's SAX pass over `text`, nested at most kMaxJsonDepth levels. It keeps no events: the
// reader uses it to word a fault simdjson found (with nlohmann's words and position, as the
// reader always said them) and to read only deviceProperties (which Kineto writes before
// traceEvents, so the pass stops near the start of the file).
CheckedText checkJson(std::string_view text, bool deviceOnly);

} // namespace ridgepoint::kineto::detail
