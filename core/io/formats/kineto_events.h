// The events of a PyTorch profiler (Kineto) trace that the trace reader uses, read as a stream
// (simdjson's On-Demand parser: no document tree is built): GPU kernels, the runtime calls that
// launched them, the CPU operators with their input shapes, and the first device's properties.
// Everything else in the file is read past without being kept. docs/FORMATS.md §10.
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

// One input of a CPU operator: its dims ("Input Dims"), type ("Input type") and value
// ("Concrete Inputs", for scalars and lists of them). A list of tensors (TensorList) or a value
// that is not a list of whole numbers has no dims (`listed` false).
struct OperatorInput {
    std::vector<std::int64_t> dims;
    bool listed = true;
    std::string type;
    // A TensorList's shapes ("Input Dims" [[128, 128], [128]]), one per tensor; empty when the
    // profiler recorded none (older PyTorch writes []).
    std::vector<std::vector<std::int64_t>> list;
    std::string concrete; // its "Concrete Inputs" entry: "[0]", "True", "-0.001", "" ...
};

// What a collective's event records about its message (args "Collective name", "In msg nelems",
// "Out msg nelems", "Group size", "dtype"): on record_param_comms operators, and on the NCCL
// kernels themselves in newer PyTorch. `wrong` names the first of them with the wrong type.
struct CollectiveArgs {
    std::string name; // "allreduce", "allgather", "send", ...
    std::optional<std::int64_t> inElements;
    std::optional<std::int64_t> outElements;
    std::optional<std::int64_t> groupSize;
    std::string dtype; // "Float", "Half", "BFloat16", ...
    std::string wrong; // "\"args.Group size\" is a string (expected a whole number)"
};

inline constexpr std::uint32_t kNoCollective = UINT32_MAX;

struct CpuOperator {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    double ts = 0.0; // µs
    double dur = 0.0;
    std::uint32_t name = 0; // into Events::names
    bool shapesRecorded = false; // "Input Dims" was there
    std::vector<OperatorInput> inputs;
    std::uint32_t collective = kNoCollective; // into Events::collectives
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
    std::uint32_t collective = kNoCollective; // into Events::collectives
};

struct Events {
    std::vector<std::string> names; // kernel, operator and launch names, each once
    std::vector<CpuOperator> operators;
    std::vector<RuntimeLaunch> launches;
    std::vector<Kernel> kernels;
    std::vector<CollectiveArgs> collectives; // of the kernels and operators that record one
    std::size_t devices = 0; // entries of deviceProperties (the GPUs the profiled process saw)
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
// `deviceOnly`: only deviceProperties is wanted (the machine of a trace): the events are not
// kept, and the reading stops once deviceProperties has been read (Kineto writes it before
// traceEvents, so the events are not even parsed).
// `padding`: how many bytes past the text's end may be read (kTextPadding for a text of
// readTextFile or the inflater, core/io/text.h). simdjson reads up to 64 there: with fewer, the
// text is copied into a buffer that has them (its size again in memory while it is read).
std::optional<Events> readEvents(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, bool deviceOnly = false, std::size_t padding = 0);

inline constexpr std::size_t kMaxEventMessages = 50;

} // namespace ridgepoint::kineto
