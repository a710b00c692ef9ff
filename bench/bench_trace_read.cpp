// The profiler-trace reader alone, as `analyze` runs it on a trace before it analyses the points:
// the file read whole, then readPointsFile (detection, the SAX pass, linking, the operators'
// costs). Prints the two times and what was placed (docs/PERFORMANCE.md, "Profiler traces"):
//
//   bench_trace_read /tmp/trace-124mb.json
//
// For a Release figure without building the window: only ridgepoint_core is linked.
#include "core/io/file_io.h"
#include "core/io/readers.h"

#include <chrono>
#include <cstdio>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_trace_read TRACE.json[.gz]\n");
        return 2;
    }
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto text = ridgepoint::readTextFile(argv[1]);
    if (!text) {
        std::fprintf(stderr, "%s\n", text.error().c_str());
        return 1;
    }
    const auto read = Clock::now();
    const auto result = ridgepoint::readPointsFile(*text, argv[1]);
    const auto parsed = Clock::now();
    const auto &trace = result.points.trace;
    std::printf("read %.2f s, parsed %.2f s: %zu points, placed %.4f s of %.4f s of GPU time\n",
        std::chrono::duration<double>(read - start).count(),
        std::chrono::duration<double>(parsed - read).count(), result.points.points.size(),
        trace ? trace->placedSeconds : 0.0, trace ? trace->gpuSeconds : 0.0);
    return result.points.points.empty() ? 1 : 0;
}
