// The profiler-trace reader's parse alone (kineto::readEvents, core/io/formats/kineto_events.cpp)
// on a file read by readTextFile, parsed where it lies (the string's room past its end): the
// parse time and what it found. Built from the three files it needs, so a Release figure takes
// seconds to build (docs/PERFORMANCE.md, "Profiler traces"):
//
//   for f in core/io/formats/kineto_events.cpp core/io/formats/kineto_events_check.cpp
//            core/io/file_io.cpp core/model/diagnostic.cpp bench/bench_trace_events.cpp; do
//     g++ -O3 -DNDEBUG -std=c++23 -I. -c $f -o /tmp/$(basename $f .cpp).o; done
//   g++ -o /tmp/bench_trace_events
//       /tmp/{kineto_events,kineto_events_check,file_io,diagnostic,bench_trace_events}.o
//       -lsimdjson
// (each command on one line)
//   /usr/bin/time -f "%e s %M KB" /tmp/bench_trace_events /tmp/trace-124mb.json
#include "core/io/file_io.h"
#include "core/io/formats/kineto_events.h"

#include <chrono>
#include <cstdio>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_trace_events TRACE.json\n");
        return 2;
    }
    const auto text = ridgepoint::readTextFile(argv[1]);
    if (!text) {
        std::fprintf(stderr, "%s\n", text.error().c_str());
        return 1;
    }
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::vector<ridgepoint::Diagnostic> diagnostics;
    const auto events = ridgepoint::kineto::readEvents(
        *text, argv[1], diagnostics, false, text->capacity() - text->size());
    const auto end = Clock::now();
    if (!events) {
        for (const auto &d : diagnostics)
            std::fprintf(stderr, "%s\n", d.toString().c_str());
        return 1;
    }
    std::printf("parsed %.3f s: %zu events, %zu kernels, %zu operators, %zu launches\n",
        std::chrono::duration<double>(end - start).count(), events->eventCount,
        events->kernels.size(), events->operators.size(), events->launches.size());
    return 0;
}
