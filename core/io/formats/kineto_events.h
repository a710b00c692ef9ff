// The events of a PyTorch profiler (Kineto) trace that the trace reader uses, read as a stream
// (nlohmann's SAX interface: no document tree is built): GPU kernels, the runtime calls that
// launched them, the CPU operators with their input shapes, and the first device's properties.
// Everything else in the file is skipped as it is read. docs/FORMATS.md §10.
#pragma once

#include "core/model/diagnostic.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::kineto {

// Where an event starts in the text (1-based), for messages.
struct EventPlace {
    int line = 0;
    int column = 0;
};

// One input of a CPU operator: its dims ("Input Dims") and type ("Input type"). A list of
// tensors (TensorList) or a value that is not a list of whole numbers has no dims (`listed`
// false).
struct OperatorInput {
    std::vector<std::int64_t> dims;
    bool listed = true;
    std::string type;
};

struct CpuOperator {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    double ts = 0.0; // µs
    double dur = 0.0;
    std::uint32_t name = 0; // into Events::names
    bool shapesRecorded = false; // "Input Dims" was there
    std::vector<OperatorInput> inputs;
};

// A runtime call (cuda_runtime, hip_runtime, cuda_driver) with a correlation id.
struct RuntimeLaunch {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    double ts = 0.0;
    double dur = 0.0;
    std::int64_t correlation = 0;
    std::uint32_t name = 0;
};

struct Kernel {
    std::uint32_t name = 0;
    double dur = 0.0; // µs
    std::optional<std::int64_t> correlation;
    EventPlace place;
};

struct Events {
    std::vector<std::string> names; // kernel, operator and launch names, each once
    std::vector<CpuOperator> operators;
    std::vector<RuntimeLaunch> launches;
    std::vector<Kernel> kernels;
    bool traceEvents = false; // the file has a "traceEvents" array
    std::size_t eventCount = 0;
    // deviceProperties[0]
    std::optional<std::string> device;
    std::optional<int> multiprocessors;
    std::optional<double> memoryBytes;
};

// The events of `text`; nullopt when it is not JSON (the message, with line and column, in
// `diagnostics`). An event whose fields have the wrong type is left out with a message naming
// its place and the field; after kMaxEventMessages such messages the rest are counted in one.
std::optional<Events> readEvents(
    std::string_view text, const std::string &fileName, std::vector<Diagnostic> &diagnostics);

inline constexpr std::size_t kMaxEventMessages = 50;

} // namespace ridgepoint::kineto
