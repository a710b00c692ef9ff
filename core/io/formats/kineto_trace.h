// A PyTorch profiler (Kineto) trace, Chrome-trace JSON, plain or gzip: each GPU kernel linked to
// the runtime call that launched it (args.correlation) and that call to the innermost CPU
// operator around it on its thread; the operator's input shapes give FLOPs and bytes
// (kineto_ops.h), summed into one point per (operator, shapes, kernel name). Kernels that cannot
// be placed are kept, by name, time and reason, in the result's TraceSummary.
// docs/FORMATS.md §10, docs/MODEL.md §11.
#pragma once

#include "core/io/read_result.h"
#include "core/model/expected.h"
#include "core/model/trace_summary.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// JSON with "traceEvents" and "deviceProperties" or "schemaVersion" in its beginning.
bool looksLikeKinetoTrace(const Sniff &sniff);

// The points, and in `trace` the GPU time placed and not placed.
// `padding`: the bytes past the text's end that may be read (readEvents).
PointsReadResult readKinetoTrace(
    std::string_view text, const std::string &fileName, std::size_t padding = 0);

// The preset of the trace's first device (deviceProperties[0].name, by name or alias).
HardwareReadResult readKinetoMachines(std::string_view text, const std::string &fileName);

// The preset of the device a trace names, or why there is none (no deviceProperties, or a name
// no preset has); the command line and the window each add how to give the machine.
Expected<Hardware, std::string> traceMachine(const TraceSummary &trace);

} // namespace ridgepoint
