// The issue's choice of parser for profiler traces (issue 28: "nlohmann's SAX interface, or
// simdjson ... measure both and keep the faster"): the same work done by each on the same text,
// the work the trace reader's parse does (core/io/formats/kineto_events.cpp) without its linking
// and costs: for every event of "traceEvents", its "ph", "cat", "name", "pid", "tid", "ts" and
// "dur" and its "args.correlation"; the kernels' time summed as a check that both read the same.
// Nothing of Ridgepoint is linked, so the two parsers alone are compared (docs/PERFORMANCE.md,
// "Profiler traces"):
//
//   g++ -O3 -DNDEBUG -std=c++20 -o /tmp/bench_trace_parsers \
//       bench/bench_trace_parsers.cpp -lsimdjson
//   /tmp/bench_trace_parsers /tmp/trace-124mb.json
//
// simdjson is not one of Ridgepoint's dependencies (Debian's libsimdjson-dev, for this bench).
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

// What both parsers find: the events, the kernels among them and their summed time.
struct Tally {
    std::size_t events = 0;
    std::size_t kernels = 0;
    std::size_t correlated = 0; // events with args.correlation
    double kernelMicroseconds = 0.0;
};

// One event's fields as the SAX handler meets them.
struct Event {
    std::string ph, cat, name;
    double pid = 0, tid = 0, ts = 0, dur = 0;
    bool correlation = false;
};

// nlohmann's SAX interface: depth 1 the file's object, 2 the traceEvents array, 3 an event,
// 4 its args. Every other value is skipped as it comes.
class Sax : public nlohmann::json_sax<nlohmann::json>
{
public:
    Tally tally;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
    bool number_float(number_float_t v, const string_t &) override { return number(v); }
    bool string(string_t &v) override
    {
        if (inEvent() && m_depth == 3) {
            if (m_key == "ph")
                m_event.ph = v;
            else if (m_key == "cat")
                m_event.cat = v;
            else if (m_key == "name")
                m_event.name = v;
        }
        return true;
    }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override
    {
        ++m_depth;
        if (inEvent() && m_depth == 3)
            m_event = Event {};
        return true;
    }
    bool end_object() override
    {
        if (inEvent() && m_depth == 3) {
            ++tally.events;
            tally.correlated += m_event.correlation ? 1 : 0;
            if (m_event.cat == "kernel") {
                ++tally.kernels;
                tally.kernelMicroseconds += m_event.dur;
            }
        }
        --m_depth;
        return true;
    }
    bool start_array(std::size_t) override
    {
        ++m_depth;
        if (m_depth == 2 && m_key == "traceEvents")
            m_inEvents = true;
        return true;
    }
    bool end_array() override
    {
        if (m_depth == 2)
            m_inEvents = false;
        --m_depth;
        return true;
    }
    bool key(string_t &k) override
    {
        if (m_depth <= 1 || (inEvent() && m_depth <= 4))
            m_key = k;
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return false;
    }

private:
    bool inEvent() const { return m_inEvents; }
    bool number(double v)
    {
        if (!inEvent())
            return true;
        if (m_depth == 3) {
            if (m_key == "pid")
                m_event.pid = v;
            else if (m_key == "tid")
                m_event.tid = v;
            else if (m_key == "ts")
                m_event.ts = v;
            else if (m_key == "dur")
                m_event.dur = v;
        } else if (m_depth == 4 && m_key == "correlation") {
            m_event.correlation = true;
        }
        return true;
    }

    int m_depth = 0;
    bool m_inEvents = false;
    std::string m_key;
    Event m_event;
};

Tally withNlohmann(const std::string &text)
{
    Sax sax;
    nlohmann::json::sax_parse(text, &sax);
    return sax.tally;
}

double numberOf(simdjson::ondemand::value value)
{
    double out = 0.0;
    if (value.get_double().get(out) == simdjson::SUCCESS)
        return out;
    return 0.0;
}

Tally withSimdjson(const simdjson::padded_string &text)
{
    Tally tally;
    simdjson::ondemand::parser parser;
    auto document = parser.iterate(text);
    for (auto field : document.get_object()) {
        if (field.unescaped_key().value() != "traceEvents")
            continue;
        for (auto item : field.value().get_array()) {
            Event e;
            for (auto member : item.get_object()) {
                const std::string_view key = member.unescaped_key().value();
                simdjson::ondemand::value value = member.value();
                if (key == "ph")
                    e.ph = std::string(value.get_string().value());
                else if (key == "cat")
                    e.cat = std::string(value.get_string().value());
                else if (key == "name")
                    e.name = std::string(value.get_string().value());
                else if (key == "pid")
                    e.pid = numberOf(value);
                else if (key == "tid")
                    e.tid = numberOf(value);
                else if (key == "ts")
                    e.ts = numberOf(value);
                else if (key == "dur")
                    e.dur = numberOf(value);
                else if (key == "args") {
                    for (auto arg : value.get_object()) {
                        if (arg.unescaped_key().value() == "correlation")
                            e.correlation = true;
                    }
                }
            }
            ++tally.events;
            tally.correlated += e.correlation ? 1 : 0;
            if (e.cat == "kernel") {
                ++tally.kernels;
                tally.kernelMicroseconds += e.dur;
            }
        }
    }
    return tally;
}

void print(const char *what, double seconds, const Tally &t)
{
    std::printf("%-10s %.2f s: %zu events, %zu kernels, %zu correlated, %.0f us of kernels\n", what,
        seconds, t.events, t.kernels, t.correlated, t.kernelMicroseconds);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_trace_parsers TRACE.json\n");
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    const std::string text = buffer.str();
    const simdjson::padded_string padded(text);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const Tally a = withNlohmann(text);
    const auto middle = Clock::now();
    const Tally b = withSimdjson(padded);
    const auto end = Clock::now();
    print("nlohmann", std::chrono::duration<double>(middle - start).count(), a);
    print("simdjson", std::chrono::duration<double>(end - middle).count(), b);
    return a.events == b.events && a.kernels == b.kernels ? 0 : 1;
}
