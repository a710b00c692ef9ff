// The nlohmann pass of the trace reader (kineto_events_detail.h): the words and position of a
// fault in a text that is not JSON, and deviceProperties alone, read without parsing the events.
#include "core/io/formats/kineto_events_detail.h"

#include "core/io/json_detail.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace ridgepoint::kineto::detail {

std::string_view kindName(Value::Kind kind)
{
    switch (kind) {
    case Value::Null:
        return "null";
    case Value::Boolean:
        return "a boolean";
    case Value::Integer:
    case Value::Float:
        return "a number";
    case Value::String:
        return "a string";
    }
    return "a value";
}

void deviceField(Events &events, std::string_view key, const Value &value)
{
    if (key == "name" && value.kind == Value::String)
        events.device = std::string(value.text);
    else if (key == "numSms" && value.kind == Value::Integer && value.whole && value.integer > 0
        && value.integer < 1'000'000)
        events.multiprocessors = static_cast<int>(value.integer);
    else if (key == "totalGlobalMem" && value.kind != Value::String && value.number > 0.0
        && std::isfinite(value.number))
        events.memoryBytes = value.number;
}

namespace {

// nlohmann tells a SAX handler no position but the error's: this iterator keeps where the
// parser is, so a nesting too deep is placed at its bracket.
class TrackingIterator
{
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    TrackingIterator() = default;
    TrackingIterator(const char *at, const char **cursor)
        : m_at(at)
        , m_cursor(cursor)
    { }
    const char &operator*() const { return *m_at; }
    TrackingIterator &operator++()
    {
        *m_cursor = ++m_at;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator &other) const { return m_at == other.m_at; }
    bool operator!=(const TrackingIterator &other) const { return m_at != other.m_at; }

private:
    const char *m_at = nullptr;
    const char **m_cursor = nullptr;
};

enum class Frame { Root, Devices, Device, Skip };

class CheckSax
{
public:
    using number_integer_t = nlohmann::json::number_integer_t;
    using number_unsigned_t = nlohmann::json::number_unsigned_t;
    using number_float_t = nlohmann::json::number_float_t;
    using string_t = nlohmann::json::string_t;
    using binary_t = nlohmann::json::binary_t;

    CheckSax(const char *begin, const char *const &cursor, bool deviceOnly)
        : m_begin(begin)
        , m_cursor(cursor)
        , m_deviceOnly(deviceOnly)
    { }

    bool null() { return scalar(Value {}); }
    bool boolean(bool) { return scalar(kindValue(Value::Boolean)); }
    bool number_integer(number_integer_t value)
    {
        return scalar(integerValue(static_cast<double>(value), value, true));
    }
    bool number_unsigned(number_unsigned_t value)
    {
        const bool fits = value <= static_cast<number_unsigned_t>(INT64_MAX);
        return scalar(integerValue(
            static_cast<double>(value), fits ? static_cast<std::int64_t>(value) : 0, fits));
    }
    bool number_float(number_float_t value, const string_t &) { return scalar(floatValue(value)); }
    bool string(string_t &value)
    {
        Value v = kindValue(Value::String);
        v.text = value;
        return scalar(v);
    }
    bool binary(binary_t &) { return true; }
    bool key(string_t &value)
    {
        m_key = std::move(value);
        return true;
    }
    bool start_object(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(true); }
    bool end_array() { return close(); }
    template<typename Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &error)
    {
        // nlohmann's position is just past the offending character, or past a number too
        // large for a double (out_of_range.406), which starts token.size() before.
        const bool overflow = error.id == 406;
        fault = JsonFault { overflow ? (position >= token.size() ? position - token.size() : 0)
                                     : (position > 0 ? position - 1 : 0),
            error.what() };
        // Drop "[json.exception.parse_error.101] parse error at line 1, column 2: ".
        std::string &message = fault->message;
        if (const auto colon = message.find(": "); !overflow && colon != std::string::npos)
            message = message.substr(colon + 2);
        else if (const auto bracket = message.find("] "); bracket != std::string::npos)
            message = message.substr(bracket + 2);
        return false;
    }

    std::optional<JsonFault> fault;
    Events events;
    std::size_t devicesSeen = 0;

private:
    bool open(bool array);
    bool close();
    bool scalar(const Value &value)
    {
        if (!m_frames.empty() && m_frames.back() == Frame::Device)
            deviceField(events, m_key, value);
        return true;
    }

    const char *m_begin = nullptr;
    const char *const &m_cursor;
    bool m_deviceOnly = false;
    std::vector<Frame> m_frames;
    std::string m_key;
};

// Nesting is held to the limit of every JSON Ridgepoint reads (docs/RELIABILITY.md), though
// nothing here recurses: the frames are a vector.
bool CheckSax::open(bool array)
{
    if (m_frames.size() >= static_cast<std::size_t>(ridgepoint::detail::kMaxJsonDepth)) {
        // The cursor is just past the bracket.
        const auto past = static_cast<std::size_t>(m_cursor - m_begin);
        fault = JsonFault { past > 0 ? past - 1 : 0,
            "nested deeper than " + std::to_string(ridgepoint::detail::kMaxJsonDepth) + " levels" };
        return false;
    }
    const Frame top = m_frames.empty() ? Frame::Skip : m_frames.back();
    Frame next = Frame::Skip;
    if (m_frames.empty() && !array) {
        next = Frame::Root;
    } else if (array && top == Frame::Root && m_key == "traceEvents") {
        events.traceEvents = true;
    } else if (array && top == Frame::Root && m_key == "deviceProperties") {
        next = Frame::Devices;
    } else if (!array && top == Frame::Devices) {
        next = devicesSeen++ == 0 ? Frame::Device : Frame::Skip;
    }
    m_frames.push_back(next);
    return true;
}

bool CheckSax::close()
{
    if (m_frames.empty())
        return true;
    const bool devices = m_frames.back() == Frame::Devices;
    m_frames.pop_back();
    // deviceProperties read: the pass ends here, on purpose.
    return !(devices && m_deviceOnly);
}

} // namespace

CheckedText checkJson(std::string_view text, bool deviceOnly)
{
    const char *cursor = text.data();
    CheckSax sax(text.data(), cursor, deviceOnly);
    try {
        nlohmann::json::sax_parse(TrackingIterator(text.data(), &cursor),
            TrackingIterator(text.data() + text.size(), &cursor), &sax);
    } catch (const nlohmann::json::exception &e) {
        // Not expected (every error goes through parse_error), but a reader must not throw.
        sax.fault = JsonFault { 0, e.what() };
    }
    sax.events.devices = sax.devicesSeen;
    return { std::move(sax.fault), std::move(sax.events) };
}

} // namespace ridgepoint::kineto::detail
