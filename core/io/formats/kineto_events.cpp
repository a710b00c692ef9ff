#include "core/io/formats/kineto_events.h"

#include "core/io/formats/kineto_events_detail.h"
#include "core/io/json_detail.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <new>
#include <unordered_map>
#include <utility>

namespace ridgepoint::kineto {
namespace {

namespace od = simdjson::ondemand;
using detail::floatValue;
using detail::integerValue;
using detail::kindName;
using detail::LineCounter;
using detail::plainString;
using detail::Value;
using simdjson::error_code;

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
    std::size_t offset = 0; // of its '{'
    bool collective = false; // one of the collective's args was there
    CollectiveArgs comm;

    void reset(std::size_t at)
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
        offset = at;
        if (collective) {
            collective = false;
            comm = {};
        }
    }
};

// simdjson's On-Demand parser walked over the whole text: the fields the reader keeps are read
// where they are met, and every other value is still read to its end (each escape of a string
// checked, each number parsed), so a text that is not JSON is refused wherever its fault lies,
// as the SAX parser before it did. Only values nested deeper than kMaxJsonDepth are refused unread;
// the walk recurses once per level of nesting, so never deeper than that.
class TraceWalk
{
public:
    TraceWalk(
        std::string_view text, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
        : m_text(text)
        , m_lines(text)
        , m_fileName(fileName)
        , m_diagnostics(diagnostics)
    { }

    bool run(od::document &document);

    Events events;
    std::size_t devicesSeen = 0;
    std::size_t eventMessages = 0; // events left out for their fields, messages said or not
    error_code error = simdjson::SUCCESS; // what simdjson found wrong, and where
    std::size_t errorOffset = 0;

private:
    bool fail(error_code code, const char *at = nullptr);
    bool failed(error_code code) { return code == simdjson::SUCCESS || fail(code); }
    template<typename Each> bool eachField(od::object object, Each &&each);
    template<typename Each> bool eachElement(od::array array, Each &&each);
    bool typeOf(od::value &value, od::json_type &type) { return failed(value.type().get(type)); }
    bool any(od::value value, int depth);
    bool anyOf(od::value value, od::json_type type, int depth);
    bool scalar(od::value value, od::json_type type, Value &out);
    bool number(od::value value, Value &out);
    bool rootScalar(od::document &document, od::json_type type);
    bool root(od::object object);
    bool traceEvents(od::array array);
    bool event(od::value value);
    bool eventMember(std::string_view key, od::value value);
    bool argMember(std::string_view key, od::value value);
    bool dims(od::array array);
    bool dimsInput(od::array array, OperatorInput &input);
    bool sizes(od::array array, std::vector<std::int64_t> &list);
    bool strings(od::array array, std::vector<std::string> &into);
    bool devices(od::array array);

    void eventField(std::string_view key, const Value &value);
    void argField(std::string_view key, const Value &value);
    void collectiveField(std::string_view key, const Value &value);
    void finishEvent();
    bool eventProblem(std::string &message) const;
    std::uint32_t nameId(const std::string &name);
    std::int64_t threadId(const Value &value);
    void wrongType(std::string_view field, const Value &value);

    std::string_view m_text;
    LineCounter m_lines;
    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    od::document *m_document = nullptr;
    Scratch m_event;
    std::unordered_map<std::string, std::uint32_t> m_names;
    std::unordered_map<std::string, std::int64_t> m_stringThreads; // "pid": "Spans", ...
};

bool TraceWalk::fail(error_code code, const char *at)
{
    error = code;
    if (at == nullptr && m_document->current_location().get(at) != simdjson::SUCCESS)
        at = nullptr;
    errorOffset = at != nullptr ? static_cast<std::size_t>(at - m_text.data()) : m_text.size();
    return false;
}

template<typename Each> bool TraceWalk::eachField(od::object object, Each &&each)
{
    for (auto member : object) {
        od::field field;
        if (!failed(std::move(member).get(field)))
            return false;
        std::optional<std::string_view> key = plainString(field.key().raw());
        if (!key && !failed(field.unescaped_key().get(key.emplace())))
            return false;
        if (!each(*key, field.value()))
            return false;
    }
    return true;
}

template<typename Each> bool TraceWalk::eachElement(od::array array, Each &&each)
{
    for (auto element : array) {
        if (!failed(element.error()) || !each(element.value_unsafe()))
            return false;
    }
    return true;
}

// A value the reader does not keep, read to its end. `depth` is its level of nesting (the
// file's object is 1).
bool TraceWalk::any(od::value value, int depth)
{
    od::json_type type {};
    return typeOf(value, type) && anyOf(value, type, depth);
}

bool TraceWalk::anyOf(od::value value, od::json_type type, int depth)
{
    if (type == od::json_type::object || type == od::json_type::array) {
        if (depth > ridgepoint::detail::kMaxJsonDepth)
            return fail(simdjson::DEPTH_ERROR, value.raw_json_token().data());
        if (type == od::json_type::array) {
            od::array array;
            return failed(value.get_array().get(array))
                && eachElement(array, [&](od::value item) { return any(item, depth + 1); });
        }
        od::object object;
        return failed(value.get_object().get(object))
            && eachField(
                object, [&](std::string_view, od::value member) { return any(member, depth + 1); });
    }
    Value ignored;
    return scalar(value, type, ignored);
}

bool TraceWalk::scalar(od::value value, od::json_type type, Value &out)
{
    switch (type) {
    case od::json_type::string: {
        out.kind = Value::String;
        const std::optional<std::string_view> plain
            = plainString(value.raw_json_token().data() + 1);
        if (!plain)
            return failed(value.get_string().get(out.text));
        out.text = *plain;
        od::raw_json_string passed; // moves the parser past the string
        return failed(value.get_raw_json_string().get(passed));
    }
    case od::json_type::boolean: {
        bool ignored = false;
        out.kind = Value::Boolean;
        return failed(value.get_bool().get(ignored));
    }
    case od::json_type::null: {
        bool null = false;
        out.kind = Value::Null;
        return failed(value.is_null().get(null)) && (null || fail(simdjson::N_ATOM_ERROR));
    }
    case od::json_type::number:
        return number(value, out);
    default:
        return fail(simdjson::INCORRECT_TYPE);
    }
}

// A number told apart as nlohmann's parser does (Value): by how it is written, not by what
// simdjson makes of it (a whole number past 64 bits is its NUMBER_ERROR, a Float for nlohmann;
// "-0" is a signed integer for both).
bool TraceWalk::number(od::value value, Value &out)
{
    const std::string_view token = value.raw_json_token();
    bool written = true; // as a whole number: no '.', 'e' or 'E' before the number ends
    for (const char c : token) {
        if (c == '.' || c == 'e' || c == 'E')
            written = false;
        else if (c != '-' && (c < '0' || c > '9'))
            break;
    }
    od::number parsed;
    const error_code code = value.get_number().get(parsed);
    if (code == simdjson::NUMBER_ERROR && written) {
        out.kind = Value::Float;
        return failed(value.get_double().get(out.number));
    }
    if (code != simdjson::SUCCESS)
        return fail(code, token.data());
    switch (parsed.get_number_type()) {
    case od::number_type::signed_integer:
        out = integerValue(static_cast<double>(parsed.get_int64()), parsed.get_int64(), true);
        break;
    case od::number_type::unsigned_integer: {
        const std::uint64_t u = parsed.get_uint64();
        const bool fits = u <= static_cast<std::uint64_t>(INT64_MAX);
        out = integerValue(static_cast<double>(u), fits ? static_cast<std::int64_t>(u) : 0, fits);
        break;
    }
    default:
        out = floatValue(parsed.get_double());
        break;
    }
    return true;
}

bool TraceWalk::rootScalar(od::document &document, od::json_type type)
{
    switch (type) {
    case od::json_type::string: {
        std::string_view ignored;
        return failed(document.get_string().get(ignored));
    }
    case od::json_type::boolean: {
        bool ignored = false;
        return failed(document.get_bool().get(ignored));
    }
    case od::json_type::null: {
        bool null = false;
        return failed(document.is_null().get(null)) && (null || fail(simdjson::N_ATOM_ERROR));
    }
    default: {
        double ignored = 0.0;
        return failed(document.get_double().get(ignored));
    }
    }
}

bool TraceWalk::run(od::document &document)
{
    m_document = &document;
    od::json_type type {};
    if (!failed(document.type().get(type)))
        return false;
    if (type == od::json_type::object) {
        od::object object;
        if (!failed(document.get_object().get(object)) || !root(object))
            return false;
    } else if (type == od::json_type::array) {
        od::array array;
        if (!failed(document.get_array().get(array))
            || !eachElement(array, [&](od::value item) { return any(item, 2); }))
            return false;
    } else {
        return rootScalar(document, type); // simdjson refuses what follows a scalar itself
    }
    // Nothing may follow the closing bracket.
    const char *after = nullptr;
    if (document.current_location().get(after) == simdjson::SUCCESS)
        return fail(simdjson::TRAILING_CONTENT, after);
    return true;
}

bool TraceWalk::root(od::object object)
{
    return eachField(object, [&](std::string_view key, od::value value) {
        od::json_type type {};
        if (!typeOf(value, type))
            return false;
        if (type != od::json_type::array || (key != "traceEvents" && key != "deviceProperties"))
            return anyOf(value, type, 2);
        od::array array;
        if (!failed(value.get_array().get(array)))
            return false;
        if (key == "deviceProperties")
            return devices(array);
        events.traceEvents = true;
        return traceEvents(array);
    });
}

bool TraceWalk::traceEvents(od::array array)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        return type == od::json_type::object ? event(item) : anyOf(item, type, 3);
    });
}

bool TraceWalk::event(od::value value)
{
    const auto offset = static_cast<std::size_t>(value.raw_json_token().data() - m_text.data());
    od::object object;
    if (!failed(value.get_object().get(object)))
        return false;
    m_event.reset(offset);
    if (!eachField(object,
            [&](std::string_view key, od::value member) { return eventMember(key, member); }))
        return false;
    finishEvent();
    return true;
}

bool TraceWalk::eventMember(std::string_view key, od::value value)
{
    od::json_type type {};
    if (!typeOf(value, type))
        return false;
    if (type == od::json_type::object && key == "args") {
        od::object args;
        return failed(value.get_object().get(args))
            && eachField(args,
                [&](std::string_view argKey, od::value arg) { return argMember(argKey, arg); });
    }
    if (type == od::json_type::object || type == od::json_type::array)
        return anyOf(value, type, 4);
    Value field;
    if (!scalar(value, type, field))
        return false;
    eventField(key, field);
    return true;
}

bool TraceWalk::argMember(std::string_view key, od::value value)
{
    od::json_type type {};
    if (!typeOf(value, type))
        return false;
    const bool shapes = key == "Input Dims" || key == "Input type";
    if (type == od::json_type::array && (shapes || key == "Concrete Inputs")) {
        od::array array;
        if (!failed(value.get_array().get(array)))
            return false;
        if (key == "Input Dims") {
            m_event.dims = true;
            m_event.inputs.clear();
            return dims(array);
        }
        return strings(array, key == "Input type" ? m_event.types : m_event.concrete);
    }
    if (type == od::json_type::object || type == od::json_type::array) {
        if (type == od::json_type::object && shapes)
            m_event.wrong = "\"" + std::string(key) + "\" is an object";
        return anyOf(value, type, 5);
    }
    Value field;
    if (!scalar(value, type, field))
        return false;
    argField(key, field);
    return true;
}

// "Input Dims": one entry per input, a list of sizes, a list of lists (a TensorList) or
// anything else (no dims).
bool TraceWalk::dims(od::array array)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        if (type != od::json_type::array) {
            m_event.inputs.push_back(unlistedInput());
            return anyOf(item, type, 6);
        }
        od::array sizes;
        m_event.inputs.emplace_back();
        return failed(item.get_array().get(sizes)) && dimsInput(sizes, m_event.inputs.back());
    });
}

bool TraceWalk::dimsInput(od::array array, OperatorInput &input)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        if (type == od::json_type::array && input.dims.empty()) {
            // A list of tensors: [[128, 128], [128]], each shape kept in `list`.
            input.listed = false;
            input.list.emplace_back();
            od::array shape;
            return failed(item.get_array().get(shape)) && sizes(shape, input.list.back());
        }
        if (type == od::json_type::object || type == od::json_type::array) {
            input.listed = false;
            return anyOf(item, type, 7);
        }
        Value size;
        if (!scalar(item, type, size))
            return false;
        if (size.kind == Value::Integer && size.whole)
            input.dims.push_back(size.integer);
        else
            input.listed = false;
        return true;
    });
}

// One tensor's shape in a TensorList: a size that is not a whole number, or a list where a size
// belongs, is kept as -1, for the operator to refuse.
bool TraceWalk::sizes(od::array array, std::vector<std::int64_t> &list)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        if (type == od::json_type::array)
            list.push_back(-1);
        if (type == od::json_type::object || type == od::json_type::array)
            return anyOf(item, type, 8);
        Value size;
        if (!scalar(item, type, size))
            return false;
        list.push_back(size.kind == Value::Integer && size.whole ? size.integer : -1);
        return true;
    });
}

// "Input type", "Concrete Inputs": one string per input ("" for any other scalar).
bool TraceWalk::strings(od::array array, std::vector<std::string> &into)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        if (type == od::json_type::object || type == od::json_type::array)
            return anyOf(item, type, 6);
        Value text;
        if (!scalar(item, type, text))
            return false;
        into.emplace_back(text.kind == Value::String ? text.text : std::string_view());
        return true;
    });
}

// deviceProperties: the first device's fields kept, the devices (objects) counted.
bool TraceWalk::devices(od::array array)
{
    return eachElement(array, [&](od::value item) {
        od::json_type type {};
        if (!typeOf(item, type))
            return false;
        if (type != od::json_type::object || devicesSeen++ > 0)
            return anyOf(item, type, 3);
        od::object device;
        return failed(item.get_object().get(device))
            && eachField(device, [&](std::string_view key, od::value member) {
                   od::json_type memberType {};
                   if (!typeOf(member, memberType))
                       return false;
                   if (memberType == od::json_type::object || memberType == od::json_type::array)
                       return anyOf(member, memberType, 4);
                   Value field;
                   if (!scalar(member, memberType, field))
                       return false;
                   detail::deviceField(events, key, field);
                   return true;
               });
    });
}

std::uint32_t TraceWalk::nameId(const std::string &name)
{
    const auto [at, added]
        = m_names.try_emplace(name, static_cast<std::uint32_t>(events.names.size()));
    if (added)
        events.names.push_back(name);
    return at->second;
}

// A pid or tid: a number, or a string ("Spans", "stream 7") given its own negative id.
std::int64_t TraceWalk::threadId(const Value &value)
{
    if (value.kind == Value::String) {
        const auto [at, added] = m_stringThreads.try_emplace(
            std::string(value.text), -static_cast<std::int64_t>(m_stringThreads.size()) - 1);
        return at->second;
    }
    if (value.whole)
        return value.integer;
    // A number std::int64_t cannot hold (18446744073709551615, 1e300) is INT64_MIN, what the
    // conversion gave on x86-64 before it was checked (undefined behaviour, found by UBSan).
    constexpr double kLimit = 9223372036854775808.0; // 2^63
    if (!(value.number >= -kLimit && value.number < kLimit))
        return INT64_MIN;
    return static_cast<std::int64_t>(value.number);
}

void TraceWalk::wrongType(std::string_view field, const Value &value)
{
    if (m_event.wrong.empty())
        m_event.wrong = "\"" + std::string(field) + "\" is " + std::string(kindName(value.kind));
}

void TraceWalk::eventField(std::string_view key, const Value &value)
{
    const auto text = [&](std::string &into) {
        if (value.kind == Value::String)
            into = value.text;
        else
            wrongType(key, value);
    };
    const auto number = [&](std::optional<double> &into) {
        if (value.kind == Value::Integer || value.kind == Value::Float)
            into = value.number;
        else
            wrongType(key, value);
    };
    const auto thread = [&](std::optional<std::int64_t> &into) {
        if (value.kind == Value::Integer || value.kind == Value::Float
            || value.kind == Value::String)
            into = threadId(value);
        else
            wrongType(key, value);
    };
    if (key == "ph")
        text(m_event.ph);
    else if (key == "cat")
        text(m_event.cat);
    else if (key == "name")
        text(m_event.name);
    else if (key == "ts")
        number(m_event.ts);
    else if (key == "dur")
        number(m_event.dur);
    else if (key == "pid")
        thread(m_event.pid);
    else if (key == "tid")
        thread(m_event.tid);
}

void TraceWalk::argField(std::string_view key, const Value &value)
{
    if (key == "correlation") {
        if (value.kind == Value::Integer && value.whole)
            m_event.correlation = value.integer;
        else
            wrongType("args.correlation", value);
    } else if (key == "Input Dims" || key == "Input type") {
        wrongType("args." + std::string(key), value);
    } else if (key == "Collective name" || key == "dtype" || key == "In msg nelems"
        || key == "Out msg nelems" || key == "Group size") {
        collectiveField(key, value);
    }
}

// A collective's field of the wrong type is kept as the reason its kernels are not placed: the
// kernel itself is still read (its time counts).
void TraceWalk::collectiveField(std::string_view key, const Value &value)
{
    CollectiveArgs &c = m_event.comm;
    m_event.collective = true;
    const bool text = key == "Collective name" || key == "dtype";
    if (text && value.kind == Value::String) {
        (key == "dtype" ? c.dtype : c.name) = value.text;
        return;
    }
    if (!text && value.kind == Value::Integer && value.whole && value.integer >= 0) {
        (key == "In msg nelems"           ? c.inElements
                : key == "Out msg nelems" ? c.outElements
                                          : c.groupSize)
            = value.integer;
        return;
    }
    if (c.wrong.empty())
        c.wrong = "\"args." + std::string(key) + "\" is " + std::string(kindName(value.kind))
            + (text ? " (expected a string)" : " (expected a whole number of at least 0)");
}

// Why the current event (a kernel, launch or operator) cannot be used, in `message`.
bool TraceWalk::eventProblem(std::string &message) const
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

void TraceWalk::finishEvent()
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
        if (++eventMessages <= kMaxEventMessages) {
            const EventPlace place = m_lines.at(e.offset);
            m_diagnostics.push_back({ Severity::Error, m_fileName, place.line, place.column,
                e.cat + " event \"" + e.name + "\": " + message + "; left out" });
        }
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
        events.kernels.push_back(
            { nameId(e.name), *e.dur, e.correlation, m_lines.at(e.offset), collective });
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

} // namespace

std::optional<Events> readEvents(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, bool deviceOnly, std::size_t padding)
{
    const auto invalid = [&](std::size_t offset, const std::string &message) {
        const TextPosition at = positionOfOffset(text, offset);
        diagnostics.push_back({ Severity::Error, fileName, at.line, at.column,
            "invalid JSON: " + message + " (expected a whole PyTorch profiler trace)" });
        return std::nullopt;
    };
    if (deviceOnly) {
        // The machine of a trace: nlohmann's streaming parse stops at the end of
        // deviceProperties, near the start of the file; simdjson would index all of it first.
        detail::CheckedText checked = detail::checkJson(text, true);
        if (checked.fault)
            return invalid(checked.fault->offset, checked.fault->message);
        return std::move(checked.events);
    }
    // simdjson reads up to SIMDJSON_PADDING (64) bytes past the text's end: a text without
    // them is copied into a string that has them (its capacity).
    std::string copy;
    std::string_view json = text;
    if (padding < simdjson::SIMDJSON_PADDING) {
        try {
            copy.reserve(text.size() + simdjson::SIMDJSON_PADDING);
            copy.assign(text);
        } catch (const std::bad_alloc &) {
            return invalid(0, "out of memory while parsing");
        }
        json = copy;
    }
    error_code code = simdjson::SUCCESS;
    TraceWalk walk(json, fileName, diagnostics);
    try {
        od::parser parser;
        od::document document;
        code = parser.iterate(json.data(), json.size(), json.size() + simdjson::SIMDJSON_PADDING)
                   .get(document);
        if (code == simdjson::SUCCESS && !walk.run(document))
            code = walk.error;
    } catch (const std::bad_alloc &) {
        code = simdjson::MEMALLOC;
    }
    if (code == simdjson::MEMALLOC)
        return invalid(0, "out of memory while parsing");
    if (code != simdjson::SUCCESS) {
        // Not JSON: said in nlohmann's words and at its position (the reader's messages since
        // it was written), found by a second pass that is paid only here.
        const detail::CheckedText checked = detail::checkJson(text, false);
        if (checked.fault)
            return invalid(checked.fault->offset, checked.fault->message);
        return invalid(
            walk.error == simdjson::SUCCESS ? 0 : walk.errorOffset, simdjson::error_message(code));
    }
    walk.events.devices = walk.devicesSeen;
    if (walk.eventMessages > kMaxEventMessages)
        diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(walk.eventMessages - kMaxEventMessages)
                + " more events left out for the same kinds of reasons" });
    return std::move(walk.events);
}

} // namespace ridgepoint::kineto
