// Internal to the trace reader (kineto_events.cpp, kineto_events_check.cpp): a JSON scalar as the
// reader sees it, whichever parser gave it, and the rules both passes share.
#pragma once

#include "core/io/formats/kineto_events.h"

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
