#include "core/io/formats/kineto_events.h"

#include "core/io/json_detail.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <iterator>
#include <unordered_map>
#include <utility>

namespace ridgepoint::kineto {
namespace {

// Where the parser is in the text: the iterator below moves it, so a SAX callback knows the line
// and column just past the token it was given (nlohmann's own position is only told on errors).
struct Cursor {
    const char *begin = nullptr;
    const char *at = nullptr;
    int line = 1;
    const char *lineStart = nullptr;
};

class CountingIterator
{
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    CountingIterator() = default;
    CountingIterator(const char *at, Cursor *cursor)
        : m_at(at)
        , m_cursor(cursor)
    { }
    const char &operator*() const { return *m_at; }
    CountingIterator &operator++()
    {
        if (*m_at == '\n') {
            ++m_cursor->line;
            m_cursor->lineStart = m_at + 1;
        }
        ++m_at;
        m_cursor->at = m_at;
        return *this;
    }
    CountingIterator operator++(int)
    {
        CountingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const CountingIterator &other) const { return m_at == other.m_at; }
    bool operator!=(const CountingIterator &other) const { return m_at != other.m_at; }

private:
    const char *m_at = nullptr;
    Cursor *m_cursor = nullptr;
};

// What an open object or array is to the reader.
enum class Frame {
    Root,
    Events,
    Event,
    Args,
    Dims,
    DimsInput,
    DimsListItem, // one tensor's shape inside a TensorList's dims
    Types,
    Concrete,
    Devices,
    Device,
    Skip
};

// A scalar as the SAX interface hands it over.
struct Value {
    enum Kind { Null, Boolean, Integer, Float, String } kind = Null;
    double number = 0.0;
    std::int64_t integer = 0;
    bool whole = false; // an integer that fits std::int64_t
    const std::string *text = nullptr;
};

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

// An input whose dims are not a list of sizes (a scalar where a list was expected, an object).
OperatorInput unlistedInput()
{
    OperatorInput input;
    input.listed = false;
    return input;
}

// One event's fields while it is read; reused for the next event (its storage kept).
struct Scratch {
    std::string ph;
    std::string cat;
    std::string name;
    std::optional<double> ts;
    std::optional<double> dur;
    std::optional<std::int64_t> pid;
    std::optional<std::int64_t> tid;
    std::optional<std::int64_t> correlation;
    bool dims = false;
    std::vector<OperatorInput> inputs;
    std::vector<std::string> types;
    std::vector<std::string> concrete;
    std::string wrong; // the first field of the wrong type, said as "\"dur\" is a string"
    EventPlace place;
    bool collective = false; // one of the collective's args was there
    CollectiveArgs comm;

    void reset(EventPlace at)
    {
        ph.clear();
        cat.clear();
        name.clear();
        ts.reset();
        dur.reset();
        pid.reset();
        tid.reset();
        correlation.reset();
        dims = false;
        inputs.clear();
        types.clear();
        concrete.clear();
        wrong.clear();
        place = at;
        if (collective) {
            collective = false;
            comm = {};
        }
    }
};

class TraceSax
{
public:
    using number_integer_t = nlohmann::json::number_integer_t;
    using number_unsigned_t = nlohmann::json::number_unsigned_t;
    using number_float_t = nlohmann::json::number_float_t;
    using string_t = nlohmann::json::string_t;
    using binary_t = nlohmann::json::binary_t;

    TraceSax(const std::string &fileName, std::vector<Diagnostic> &diagnostics, Cursor &cursor,
        bool deviceOnly)
        : m_fileName(fileName)
        , m_diagnostics(diagnostics)
        , m_cursor(cursor)
        , m_deviceOnly(deviceOnly)
    { }

    bool null() { return scalar({}); }
    bool boolean(bool) { return scalar({ Value::Boolean }); }
    bool number_integer(number_integer_t value)
    {
        return scalar({ Value::Integer, static_cast<double>(value), value, true });
    }
    bool number_unsigned(number_unsigned_t value)
    {
        const bool fits = value <= static_cast<number_unsigned_t>(INT64_MAX);
        return scalar({ Value::Integer, static_cast<double>(value),
            fits ? static_cast<std::int64_t>(value) : 0, fits });
    }
    bool number_float(number_float_t value, const string_t &)
    {
        return scalar({ Value::Float, value });
    }
    bool string(string_t &value)
    {
        Value v { Value::String };
        v.text = &value;
        return scalar(v);
    }
    bool binary(binary_t &) { return true; }
    bool key(string_t &value)
    {
        m_key = std::move(value);
        return true;
    }
    bool start_object(std::size_t);
    bool end_object();
    bool start_array(std::size_t);
    bool end_array();
    template<typename Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &error);

    // Events left out for their fields, messages said or not.
    std::size_t eventsLeftOut() const { return m_eventMessages; }
    std::size_t devicesSeen() const { return m_devicesSeen; }

    Events events;
    bool failed = false;
    std::size_t errorOffset = 0;
    std::string errorMessage;

private:
    bool scalar(const Value &value);
    void eventField(const Value &value);
    void argField(const Value &value);
    void collectiveField(const Value &value);
    void deviceField(const Value &value);
    void finishEvent();
    bool eventProblem(std::string &message) const;
    bool tooDeep();
    std::uint32_t nameId(const std::string &name);
    std::int64_t threadId(const Value &value);
    void wrongType(std::string_view field, const Value &value);
    EventPlace here() const;

    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    Cursor &m_cursor;
    bool m_deviceOnly = false;
    std::vector<Frame> m_frames;
    std::string m_key; // the last key read
    std::string m_objectKey; // the key an open object or array of the event or args came under
    Scratch m_event;
    std::size_t m_devicesSeen = 0;
    std::size_t m_eventMessages = 0;
    std::unordered_map<std::string, std::uint32_t> m_names;
    std::unordered_map<std::string, std::int64_t> m_stringThreads; // "pid": "Spans", ...
};

EventPlace TraceSax::here() const
{
    return { m_cursor.line, static_cast<int>(m_cursor.at - m_cursor.lineStart) };
}

std::uint32_t TraceSax::nameId(const std::string &name)
{
    const auto [at, added]
        = m_names.try_emplace(name, static_cast<std::uint32_t>(events.names.size()));
    if (added)
        events.names.push_back(name);
    return at->second;
}

// A pid or tid: a number, or a string ("Spans", "stream 7") given its own negative id.
std::int64_t TraceSax::threadId(const Value &value)
{
    if (value.kind == Value::String) {
        const auto [at, added] = m_stringThreads.try_emplace(
            *value.text, -static_cast<std::int64_t>(m_stringThreads.size()) - 1);
        return at->second;
    }
    return value.whole ? value.integer : static_cast<std::int64_t>(value.number);
}

void TraceSax::wrongType(std::string_view field, const Value &value)
{
    if (m_event.wrong.empty())
        m_event.wrong = "\"" + std::string(field) + "\" is " + std::string(kindName(value.kind));
}

// Nesting is held to the limit of every JSON Ridgepoint reads (docs/RELIABILITY.md), though
// nothing here recurses: the frames are a vector.
bool TraceSax::tooDeep()
{
    failed = true;
    errorOffset = static_cast<std::size_t>(m_cursor.at - m_cursor.begin);
    errorOffset -= errorOffset > 0 ? 1 : 0;
    errorMessage = "nested deeper than " + std::to_string(detail::kMaxJsonDepth) + " levels";
    return false;
}

bool TraceSax::start_object(std::size_t)
{
    if (m_frames.size() >= static_cast<std::size_t>(detail::kMaxJsonDepth))
        return tooDeep();
    const Frame top = m_frames.empty() ? Frame::Skip : m_frames.back();
    Frame next = Frame::Skip;
    if (m_frames.empty()) {
        next = Frame::Root;
    } else if (top == Frame::Events) {
        next = Frame::Event;
        const EventPlace at = here();
        m_event.reset({ at.line, at.column });
    } else if (top == Frame::Event && m_key == "args") {
        next = Frame::Args;
    } else if (top == Frame::Devices) {
        next = m_devicesSeen++ == 0 ? Frame::Device : Frame::Skip;
    } else if (top == Frame::Dims) {
        m_event.inputs.push_back(unlistedInput());
    } else if (top == Frame::DimsInput) {
        m_event.inputs.back().listed = false;
    } else if (top == Frame::Args && (m_key == "Input Dims" || m_key == "Input type")) {
        m_event.wrong = "\"" + m_key + "\" is an object";
    }
    m_frames.push_back(next);
    return true;
}

bool TraceSax::end_object()
{
    if (!m_frames.empty() && m_frames.back() == Frame::Event)
        finishEvent();
    if (!m_frames.empty())
        m_frames.pop_back();
    return true;
}

bool TraceSax::start_array(std::size_t)
{
    if (m_frames.size() >= static_cast<std::size_t>(detail::kMaxJsonDepth))
        return tooDeep();
    const Frame top = m_frames.empty() ? Frame::Skip : m_frames.back();
    Frame next = Frame::Skip;
    if (top == Frame::Root && m_key == "traceEvents") {
        next = m_deviceOnly ? Frame::Skip : Frame::Events;
        events.traceEvents = true;
    } else if (top == Frame::Root && m_key == "deviceProperties") {
        next = Frame::Devices;
    } else if (top == Frame::Args && m_key == "Input Dims") {
        next = Frame::Dims;
        m_event.dims = true;
        m_event.inputs.clear();
    } else if (top == Frame::Args && m_key == "Input type") {
        next = Frame::Types;
    } else if (top == Frame::Args && m_key == "Concrete Inputs") {
        next = Frame::Concrete;
    } else if (top == Frame::Dims) {
        next = Frame::DimsInput;
        m_event.inputs.push_back({});
    } else if (top == Frame::DimsInput) {
        // A list of tensors: [[128, 128], [128]], each shape kept in `list`.
        OperatorInput &input = m_event.inputs.back();
        input.listed = false;
        if (input.dims.empty()) {
            next = Frame::DimsListItem;
            input.list.emplace_back();
        }
    } else if (top == Frame::DimsListItem) {
        m_event.inputs.back().list.back().push_back(-1); // a list where a size belongs
    }
    m_frames.push_back(next);
    return true;
}

bool TraceSax::end_array()
{
    if (m_frames.empty())
        return true;
    const bool devices = m_frames.back() == Frame::Devices;
    m_frames.pop_back();
    if (devices && m_deviceOnly)
        return false; // deviceProperties read: the parse ends here, on purpose
    return true;
}

bool TraceSax::scalar(const Value &value)
{
    if (m_frames.empty())
        return true;
    switch (m_frames.back()) {
    case Frame::Event:
        eventField(value);
        break;
    case Frame::Args:
        argField(value);
        break;
    case Frame::Device:
        deviceField(value);
        break;
    case Frame::Dims:
        m_event.inputs.push_back(unlistedInput());
        break;
    case Frame::DimsInput:
        if (value.kind == Value::Integer && value.whole)
            m_event.inputs.back().dims.push_back(value.integer);
        else
            m_event.inputs.back().listed = false;
        break;
    case Frame::DimsListItem:
        // A size that is not a whole number is kept as -1, for the operator to refuse.
        m_event.inputs.back().list.back().push_back(
            value.kind == Value::Integer && value.whole ? value.integer : -1);
        break;
    case Frame::Types:
        m_event.types.push_back(value.kind == Value::String ? *value.text : std::string());
        break;
    case Frame::Concrete:
        m_event.concrete.push_back(value.kind == Value::String ? *value.text : std::string());
        break;
    default:
        break;
    }
    return true;
}

void TraceSax::eventField(const Value &value)
{
    const auto text = [&](std::string &into) {
        if (value.kind == Value::String)
            into = *value.text;
        else
            wrongType(m_key, value);
    };
    const auto number = [&](std::optional<double> &into) {
        if (value.kind == Value::Integer || value.kind == Value::Float)
            into = value.number;
        else
            wrongType(m_key, value);
    };
    const auto thread = [&](std::optional<std::int64_t> &into) {
        if (value.kind == Value::Integer || value.kind == Value::Float
            || value.kind == Value::String)
            into = threadId(value);
        else
            wrongType(m_key, value);
    };
    if (m_key == "ph")
        text(m_event.ph);
    else if (m_key == "cat")
        text(m_event.cat);
    else if (m_key == "name")
        text(m_event.name);
    else if (m_key == "ts")
        number(m_event.ts);
    else if (m_key == "dur")
        number(m_event.dur);
    else if (m_key == "pid")
        thread(m_event.pid);
    else if (m_key == "tid")
        thread(m_event.tid);
}

void TraceSax::argField(const Value &value)
{
    if (m_key == "correlation") {
        if (value.kind == Value::Integer && value.whole)
            m_event.correlation = value.integer;
        else
            wrongType("args.correlation", value);
    } else if (m_key == "Input Dims" || m_key == "Input type") {
        wrongType("args." + m_key, value);
    } else if (m_key == "Collective name" || m_key == "dtype" || m_key == "In msg nelems"
        || m_key == "Out msg nelems" || m_key == "Group size") {
        collectiveField(value);
    }
}

// A collective's field of the wrong type is kept as the reason its kernels are not placed: the
// kernel itself is still read (its time counts).
void TraceSax::collectiveField(const Value &value)
{
    CollectiveArgs &c = m_event.comm;
    m_event.collective = true;
    const bool text = m_key == "Collective name" || m_key == "dtype";
    if (text && value.kind == Value::String && value.text != nullptr) {
        (m_key == "dtype" ? c.dtype : c.name) = *value.text;
        return;
    }
    if (!text && value.kind == Value::Integer && value.whole && value.integer >= 0) {
        (m_key == "In msg nelems"           ? c.inElements
                : m_key == "Out msg nelems" ? c.outElements
                                            : c.groupSize)
            = value.integer;
        return;
    }
    if (c.wrong.empty())
        c.wrong = "\"args." + m_key + "\" is " + std::string(kindName(value.kind))
            + (text ? " (expected a string)" : " (expected a whole number of at least 0)");
}

void TraceSax::deviceField(const Value &value)
{
    if (m_key == "name" && value.kind == Value::String)
        events.device = *value.text;
    else if (m_key == "numSms" && value.kind == Value::Integer && value.whole && value.integer > 0
        && value.integer < 1'000'000)
        events.multiprocessors = static_cast<int>(value.integer);
    else if (m_key == "totalGlobalMem" && value.kind != Value::String && value.number > 0.0
        && std::isfinite(value.number))
        events.memoryBytes = value.number;
}

// Why the current event (a kernel, launch or operator) cannot be used, in `message`.
bool TraceSax::eventProblem(std::string &message) const
{
    const Scratch &e = m_event;
    if (!e.wrong.empty()) {
        const bool what = e.wrong.find("correlation") != std::string::npos;
        message = e.wrong
            + (what ? " (expected a whole number)"
                    : e.wrong.starts_with("\"args.Input")
                    ? " (expected a list of shapes or type names)"
                    : e.wrong.starts_with("\"ts\"") || e.wrong.starts_with("\"dur\"")
                    ? " (expected a number of microseconds)"
                    : " (expected a string or number)");
        return true;
    }
    const auto bad
        = [](const std::optional<double> &v) { return !v || !std::isfinite(*v) || *v < 0.0; };
    if (bad(e.dur)) {
        message = e.dur ? "\"dur\" is negative or not finite (expected microseconds, at least 0)"
                        : "no \"dur\" (expected the duration in microseconds)";
        return true;
    }
    if (e.cat != "kernel" && (!e.ts || !std::isfinite(*e.ts) || !e.pid || !e.tid)) {
        message = "no \"ts\", \"pid\" or \"tid\" (expected all three on a CPU event)";
        return true;
    }
    return false;
}

void TraceSax::finishEvent()
{
    ++events.eventCount;
    const Scratch &e = m_event;
    const bool kernel = e.cat == "kernel";
    const bool launch = e.cat == "cuda_runtime" || e.cat == "hip_runtime" || e.cat == "cuda_driver";
    const bool op = e.cat == "cpu_op";
    if ((!kernel && !launch && !op) || (e.ph != "X" && e.wrong.empty()))
        return;
    if (launch && !e.correlation && e.wrong.empty())
        return; // a runtime call that launched nothing
    if (std::string message; eventProblem(message)) {
        if (++m_eventMessages <= kMaxEventMessages)
            m_diagnostics.push_back({ Severity::Error, m_fileName, e.place.line, e.place.column,
                e.cat + " event \"" + e.name + "\": " + message + "; left out" });
        return;
    }
    // A collective's args are kept when they name it, or on the events of one ("dtype" alone
    // on another operator is not a collective).
    const bool named = !e.comm.name.empty() || e.name == "record_param_comms"
        || e.name.starts_with("nccl") || e.name.find("rccl") != std::string::npos;
    std::uint32_t collective = kNoCollective;
    if (e.collective && named && (kernel || op)) {
        collective = static_cast<std::uint32_t>(events.collectives.size());
        events.collectives.push_back(e.comm);
    }
    if (kernel) {
        events.kernels.push_back({ nameId(e.name), *e.dur, e.correlation, e.place, collective });
    } else if (launch) {
        events.launches.push_back(
            { *e.pid, *e.tid, *e.ts, *e.dur, *e.correlation, nameId(e.name) });
    } else {
        CpuOperator cpu { *e.pid, *e.tid, *e.ts, *e.dur, nameId(e.name), e.dims, e.inputs,
            collective };
        for (std::size_t i = 0; i < cpu.inputs.size() && i < e.types.size(); ++i)
            cpu.inputs[i].type = e.types[i];
        for (std::size_t i = 0; i < cpu.inputs.size() && i < e.concrete.size(); ++i)
            cpu.inputs[i].concrete = e.concrete[i];
        events.operators.push_back(std::move(cpu));
    }
}

template<typename Exception>
bool TraceSax::parse_error(std::size_t position, const std::string &token, const Exception &error)
{
    failed = true;
    const bool overflow = error.id == 406;
    errorOffset = overflow ? (position >= token.size() ? position - token.size() : 0)
                           : (position > 0 ? position - 1 : 0);
    errorMessage = error.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    if (const auto colon = errorMessage.find(": "); !overflow && colon != std::string::npos)
        errorMessage = errorMessage.substr(colon + 2);
    else if (const auto bracket = errorMessage.find("] "); bracket != std::string::npos)
        errorMessage = errorMessage.substr(bracket + 2);
    return false;
}

} // namespace

std::optional<Events> readEvents(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, bool deviceOnly)
{
    Cursor cursor { text.data(), text.data(), 1, text.data() };
    TraceSax sax(fileName, diagnostics, cursor, deviceOnly);
    try {
        nlohmann::json::sax_parse(CountingIterator(text.data(), &cursor),
            CountingIterator(text.data() + text.size(), &cursor), &sax);
    } catch (const nlohmann::json::exception &e) {
        // Not expected (every error goes through parse_error), but a reader must not throw.
        sax.failed = true;
        sax.errorMessage = e.what();
    }
    if (sax.failed) {
        const TextPosition at = positionOfOffset(text, sax.errorOffset);
        diagnostics.push_back({ Severity::Error, fileName, at.line, at.column,
            "invalid JSON: " + sax.errorMessage + " (expected a whole PyTorch profiler trace)" });
        return std::nullopt;
    }
    sax.events.devices = sax.devicesSeen();
    if (sax.eventsLeftOut() > kMaxEventMessages)
        diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(sax.eventsLeftOut() - kMaxEventMessages)
                + " more events left out for the same kinds of reasons" });
    return std::move(sax.events);
}

} // namespace ridgepoint::kineto
