// Older session versions brought up to the current one, step by step.
#include "core/session/session.h"
#include "core/session/session_json.h"

#include <functional>

namespace ridgepoint::session_json {
namespace {

// Each step takes the document of version N to version N+1 in place; readSessionJson runs the
// chain from the file's version up to kSessionVersion before reading. A step may fail (a shape
// it cannot convert) with a message naming the path.
//
// Version 0 is the pre-release shape (docs/FILES.md): "machine" instead of "hardware",
// "kernels" instead of "points", each kernel's "bytes" a plain number (main memory only),
// and what-if moves as a list {"kernel": INDEX, "bytes": F,
// "time": F} beside the points instead of inside them.

using Migration = std::function<std::optional<std::string>(Json &)>;

std::optional<std::string> migrate_v0_to_v1(Json &root)
{
    if (root.contains("machine")) {
        root["hardware"] = std::move(root["machine"]);
        root.erase("machine");
    }
    if (root.contains("kernels")) {
        if (!root["kernels"].is_array())
            return "kernels: expected a list of points";
        Json points = Json::array();
        for (auto &kernel : root["kernels"]) {
            // Version 0 kept only main-memory bytes, as a plain number.
            if (kernel.is_object() && kernel.contains("bytes") && kernel["bytes"].is_number())
                kernel["bytes"]
                    = Json::array({ { { "level", nullptr }, { "bytes", kernel["bytes"] } } });
            points.push_back(Json { { "point", std::move(kernel) } });
        }
        root.erase("kernels");
        if (root.contains("whatIf")) {
            const Json &moves = root["whatIf"];
            if (!moves.is_array())
                return "whatIf: expected a list of moves";
            for (std::size_t i = 0; i < moves.size(); ++i) {
                const Json &move = moves[i];
                const std::string path = "whatIf[" + std::to_string(i) + "]";
                if (!move.is_object() || !move.contains("kernel")
                    || !move["kernel"].is_number_unsigned())
                    return path + ".kernel: expected the index of a kernel";
                const auto index = move["kernel"].get<std::size_t>();
                if (index >= points.size())
                    return path + ".kernel: no kernel " + std::to_string(index);
                Json &target = points[index];
                if (move.contains("bytes"))
                    target["bytesFactor"] = move["bytes"];
                if (move.contains("time"))
                    target["timeFactor"] = move["time"];
            }
            root.erase("whatIf");
        }
        root["points"] = std::move(points);
    }
    root["version"] = 1;
    return std::nullopt;
}

// Version 2 added keys to an LLM workload: the model's experts, expertsPerToken,
// sharedExperts, moeFfnSize, denseLayers and kvCacheDim, and the step's tp, ep, pp, scaleBlock,
// scaleBytes and precisionMode. A version 1 file has none of them, and their absence means what
// version 1 computed (a dense model, K and V cached, one chip, no block scales, the types chosen
// one by one), so there is nothing to convert. The version changed all the same so that a
// Ridgepoint reading only version 1 refuses a session it would otherwise open as a dense
// single-chip model, with no more than a warning about unknown keys.
std::optional<std::string> migrate_v1_to_v2(Json &root)
{
    root["version"] = 2;
    return std::nullopt;
}

// migrations[N] takes version N to N+1.
const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> chain { migrate_v0_to_v1, migrate_v1_to_v2 };
    // A step that changes the entries of "points" must raise kPointsUnchangedSince past it:
    // the reader hands those entries over as they are parsed, before any migration runs.
    static_assert(kSessionVersion == 2, "add migrate_v2_to_v3 to the chain");
    return chain;
}

} // namespace

bool migrate(Json &root, int from, Reader &in)
{
    for (int v = from; v < kSessionVersion; ++v) {
        if (auto problem = migrations()[static_cast<std::size_t>(v)](root)) {
            in.error("version " + std::to_string(v), "cannot migrate: " + *problem);
            return false;
        }
    }
    return true;
}

} // namespace ridgepoint::session_json
