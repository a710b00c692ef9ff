#include "core/session/session.h"

#include "core/io/formats/hardware_json.h"
#include "core/io/formats/points_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace ridgepoint {
namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json &json, int indent = -1)
{
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// ---- migrations ------------------------------------------------------------------------------
//
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

// migrations[N] takes version N to N+1.
const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> chain { migrate_v0_to_v1 };
    static_assert(kSessionVersion == 1, "add migrate_v1_to_v2 to the chain");
    return chain;
}

// ---- writing ---------------------------------------------------------------------------------

Json hardwareObject(const Hardware &hardware)
{
    return Json::parse(writeHardwareJson(hardware));
}

Json pointList(const std::vector<KernelPoint> &points)
{
    return Json::parse(writePointsJson(points))["points"];
}

Json modelObject(const ModelConfig &model)
{
    Json json;
    json["name"] = model.name;
    if (!model.aliases.empty())
        json["aliases"] = model.aliases;
    if (!model.source.empty())
        json["source"] = model.source;
    json["hiddenSize"] = model.hiddenSize;
    json["layers"] = model.layers;
    json["heads"] = model.heads;
    json["kvHeads"] = model.kvHeads;
    json["headDim"] = model.headDim;
    json["ffnSize"] = model.ffnSize;
    json["vocabSize"] = model.vocabSize;
    json["gatedFfn"] = model.gatedFfn;
    return json;
}

Json workloadObject(const Workload &workload)
{
    Json json;
    if (const auto *m = std::get_if<MatmulWorkload>(&workload.model)) {
        json["kind"] = "matmul";
        json["b"] = m->spec.b;
        json["d"] = m->spec.d;
        json["f"] = m->spec.f;
        json["dtype"] = precisionName(m->spec.dtype);
        if (m->tile)
            json["tile"] = { { "bm", m->tile->bm }, { "bk", m->tile->bk }, { "bn", m->tile->bn } };
        if (m->shards) {
            Json shards { { "chips", m->shards->chips } };
            if (!m->shards->network.empty())
                shards["network"] = m->shards->network;
            if (m->shards->networkBandwidth)
                shards["networkBandwidth"] = *m->shards->networkBandwidth;
            json["shards"] = std::move(shards);
        }
    } else {
        const auto &l = std::get<LlmWorkload>(workload.model);
        json["kind"] = "llm";
        json["model"] = modelObject(l.model);
        json["phase"] = llmPhaseName(l.spec.phase);
        json["seq"] = l.spec.seq;
        json["batch"] = l.spec.batch;
        json["weights"] = precisionName(l.spec.weights);
        json["activations"] = precisionName(l.spec.activations);
        json["kv"] = precisionName(l.spec.kv);
        json["fusedAttention"] = l.spec.fusedAttention;
        if (!l.operatorKind.empty())
            json["operator"] = l.operatorKind;
    }
    if (!workload.group.empty())
        json["group"] = workload.group;
    if (workload.sweep)
        json["sweep"] = { { "id", workload.sweep->id }, { "parameter", workload.sweep->parameter },
            { "value", workload.sweep->value } };
    return json;
}

// ---- reading ---------------------------------------------------------------------------------

class Reader
{
public:
    Reader(const std::string &fileName, std::vector<Diagnostic> &diagnostics)
        : m_file(fileName)
        , m_diagnostics(diagnostics)
    { }

    void error(const std::string &path, const std::string &message)
    {
        m_diagnostics.push_back({ Severity::Error, m_file, 0, 0, path + ": " + message });
    }
    void warning(const std::string &path, const std::string &message)
    {
        m_diagnostics.push_back({ Severity::Warning, m_file, 0, 0, path + ": " + message });
    }
    bool failed() const { return hasErrors(m_diagnostics); }
    const std::string &file() const { return m_file; }
    std::vector<Diagnostic> &diagnostics() { return m_diagnostics; }

    // Warns about keys not in `known` (usually typos).
    void checkKeys(
        const Json &object, const std::string &path, std::initializer_list<std::string_view> known)
    {
        for (const auto &[key, value] : object.items()) {
            if (std::find(known.begin(), known.end(), key) == known.end())
                warning(path.empty() ? key : path + "." + key, "unknown key ignored");
        }
    }

    std::optional<double> number(const Json &object, const std::string &key,
        const std::string &path, std::optional<double> fallback, bool positive)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (!fallback)
                error(path + "." + key, "missing (expected a number)");
            return fallback;
        }
        if (!it->is_number()) {
            error(path + "." + key, "expected a number, found " + dump(*it));
            return std::nullopt;
        }
        const double value = it->get<double>();
        if (!std::isfinite(value) || (positive && value <= 0.0)) {
            error(path + "." + key,
                "expected a " + std::string(positive ? "positive " : "") + "finite number, found "
                    + dump(*it));
            return std::nullopt;
        }
        return value;
    }

    std::optional<std::int64_t> integer(const Json &object, const std::string &key,
        const std::string &path, std::optional<std::int64_t> fallback = std::nullopt)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (!fallback)
                error(path + "." + key, "missing (expected a positive integer)");
            return fallback;
        }
        if (!it->is_number_integer() || it->get<double>() < 1.0
            || it->get<double>() > static_cast<double>(std::numeric_limits<std::int64_t>::max())) {
            error(path + "." + key, "expected a positive integer, found " + dump(*it));
            return std::nullopt;
        }
        return it->get<std::int64_t>();
    }

    std::optional<std::string> string(const Json &object, const std::string &key,
        const std::string &path, std::optional<std::string> fallback = std::nullopt)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (!fallback)
                error(path + "." + key, "missing (expected a string)");
            return fallback;
        }
        if (!it->is_string()) {
            error(path + "." + key, "expected a string, found " + dump(*it));
            return std::nullopt;
        }
        return it->get<std::string>();
    }

    std::optional<bool> boolean(
        const Json &object, const std::string &key, const std::string &path, bool fallback)
    {
        const auto it = object.find(key);
        if (it == object.end())
            return fallback;
        if (!it->is_boolean()) {
            error(path + "." + key, "expected true or false, found " + dump(*it));
            return std::nullopt;
        }
        return it->get<bool>();
    }

    std::optional<Precision> precision(const Json &object, const std::string &key,
        const std::string &path, std::optional<Precision> fallback = std::nullopt)
    {
        const auto name = string(object, key, path,
            fallback ? std::optional<std::string>(std::string(precisionName(*fallback)))
                     : std::nullopt);
        if (!name)
            return std::nullopt;
        const auto value = precisionFromName(*name);
        if (!value)
            error(path + "." + key,
                "unknown precision \"" + *name
                    + "\" (expected fp64, fp32, tf32, bf16, fp16, "
                      "fp8, int8 or int4)");
        return value;
    }

private:
    std::string m_file;
    std::vector<Diagnostic> &m_diagnostics;
};

// Runs the hardware reader on one embedded machine; its messages are prefixed with the path.
std::optional<Hardware> readHardware(const Json &json, const std::string &path, Reader &in)
{
    if (!json.is_object()) {
        in.error(path, "expected a machine object");
        return std::nullopt;
    }
    HardwareReadResult result = readHardwareJson(dump(json), in.file());
    for (Diagnostic d : result.diagnostics) {
        d.line = 0;
        d.column = 0;
        d.message = path + ": " + d.message;
        in.diagnostics().push_back(std::move(d));
    }
    if (result.machines.size() != 1) {
        if (!in.failed())
            in.error(path, "expected exactly one machine");
        return std::nullopt;
    }
    return std::move(result.machines.front());
}

// Runs the points reader on an embedded list; its paths ("points[3].flops") are kept, with
// `prefix` in front of them when it is not the top-level list.
std::optional<std::vector<KernelPoint>> readPointList(
    const Json &list, const std::string &prefix, Reader &in)
{
    const Json document { { "format", kPointsFormat }, { "version", kPointsVersion },
        { "points", list } };
    PointsReadResult result = readPointsJson(dump(document), in.file());
    for (Diagnostic d : result.diagnostics) {
        d.line = 0;
        d.column = 0;
        if (!prefix.empty())
            d.message = prefix + "." + d.message;
        in.diagnostics().push_back(std::move(d));
    }
    if (result.rowsSkipped > 0 || result.points.size() != list.size())
        return std::nullopt;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].contains("source"))
            result.points[i].source = {};
    }
    return std::move(result.points);
}

std::optional<ModelConfig> readModel(const Json &json, const std::string &path, Reader &in)
{
    if (!json.is_object()) {
        in.error(path, "expected a model object");
        return std::nullopt;
    }
    in.checkKeys(json, path,
        { "name", "aliases", "source", "hiddenSize", "layers", "heads", "kvHeads", "headDim",
            "ffnSize", "vocabSize", "gatedFfn" });
    ModelConfig model;
    const auto name = in.string(json, "name", path);
    const auto source = in.string(json, "source", path, std::string());
    const auto hidden = in.integer(json, "hiddenSize", path);
    const auto layers = in.integer(json, "layers", path);
    const auto heads = in.integer(json, "heads", path);
    const auto kvHeads = in.integer(json, "kvHeads", path);
    const auto headDim = in.integer(json, "headDim", path);
    const auto ffn = in.integer(json, "ffnSize", path);
    const auto vocab = in.integer(json, "vocabSize", path);
    const auto gated = in.boolean(json, "gatedFfn", path, true);
    if (const auto it = json.find("aliases"); it != json.end()) {
        if (!it->is_array()) {
            in.error(path + ".aliases", "expected a list of names");
        } else {
            for (const auto &alias : *it) {
                if (alias.is_string())
                    model.aliases.push_back(alias.get<std::string>());
                else
                    in.error(path + ".aliases", "expected a list of names");
            }
        }
    }
    if (!name || !source || !hidden || !layers || !heads || !kvHeads || !headDim || !ffn || !vocab
        || !gated)
        return std::nullopt;
    model.name = *name;
    model.source = *source;
    model.hiddenSize = *hidden;
    model.layers = *layers;
    model.heads = *heads;
    model.kvHeads = *kvHeads;
    model.headDim = *headDim;
    model.ffnSize = *ffn;
    model.vocabSize = *vocab;
    model.gatedFfn = *gated;
    return model;
}

std::optional<Workload> readWorkload(const Json &json, const std::string &path, Reader &in)
{
    if (!json.is_object()) {
        in.error(path, "expected a workload object");
        return std::nullopt;
    }
    Workload workload;
    const auto kind = in.string(json, "kind", path);
    if (!kind)
        return std::nullopt;
    const auto group = in.string(json, "group", path, std::string());
    if (group)
        workload.group = *group;
    if (const auto it = json.find("sweep"); it != json.end()) {
        const std::string at = path + ".sweep";
        if (!it->is_object()) {
            in.error(at, "expected {\"id\", \"parameter\", \"value\"}");
            return std::nullopt;
        }
        const auto id = in.integer(*it, "id", at);
        const auto parameter = in.string(*it, "parameter", at);
        const auto value = in.number(*it, "value", at, std::nullopt, true);
        if (!id || !parameter || !value)
            return std::nullopt;
        workload.sweep = SweepMembership { static_cast<int>(*id), *parameter, *value };
    }
    if (*kind == "matmul") {
        in.checkKeys(
            json, path, { "kind", "b", "d", "f", "dtype", "tile", "shards", "group", "sweep" });
        MatmulWorkload m;
        const auto b = in.integer(json, "b", path);
        const auto d = in.integer(json, "d", path);
        const auto f = in.integer(json, "f", path);
        const auto dtype = in.precision(json, "dtype", path, Precision::BF16);
        if (!b || !d || !f || !dtype)
            return std::nullopt;
        m.spec.b = *b;
        m.spec.d = *d;
        m.spec.f = *f;
        m.spec.dtype = *dtype;
        if (const auto it = json.find("tile"); it != json.end()) {
            const auto bm = in.integer(*it, "bm", path + ".tile");
            const auto bk = in.integer(*it, "bk", path + ".tile");
            const auto bn = in.integer(*it, "bn", path + ".tile");
            if (!bm || !bk || !bn)
                return std::nullopt;
            m.tile = TileSpec { *bm, *bk, *bn };
        }
        if (const auto it = json.find("shards"); it != json.end()) {
            const std::string at = path + ".shards";
            ShardSpec shards;
            const auto chips = in.integer(*it, "chips", at);
            const auto network = in.string(*it, "network", at, std::string());
            if (!chips || !network)
                return std::nullopt;
            shards.chips = *chips;
            shards.network = *network;
            if (it->contains("networkBandwidth")) {
                shards.networkBandwidth
                    = in.number(*it, "networkBandwidth", at, std::nullopt, true);
                if (!shards.networkBandwidth)
                    return std::nullopt;
            }
            m.shards = shards;
        }
        workload.model = std::move(m);
        return workload;
    }
    if (*kind == "llm") {
        in.checkKeys(json, path,
            { "kind", "model", "phase", "seq", "batch", "weights", "activations", "kv",
                "fusedAttention", "operator", "group", "sweep" });
        LlmWorkload l;
        const auto model
            = json.contains("model") ? readModel(json["model"], path + ".model", in) : std::nullopt;
        if (!json.contains("model"))
            in.error(path + ".model", "missing (expected the model's shape)");
        const auto phaseName = in.string(json, "phase", path);
        const auto seq = in.integer(json, "seq", path);
        const auto batch = in.integer(json, "batch", path);
        const auto weights = in.precision(json, "weights", path);
        const auto activations = in.precision(json, "activations", path);
        const auto kv = in.precision(json, "kv", path);
        const auto fused = in.boolean(json, "fusedAttention", path, false);
        const auto op = in.string(json, "operator", path, std::string());
        std::optional<LlmPhase> phase;
        if (phaseName) {
            phase = llmPhaseFromName(*phaseName);
            if (!phase)
                in.error(path + ".phase",
                    "unknown phase \"" + *phaseName + "\" (expected prefill or decode)");
        }
        if (!model || !phase || !seq || !batch || !weights || !activations || !kv || !fused || !op)
            return std::nullopt;
        l.model = *model;
        l.spec = LlmSpec { *phase, *seq, *batch, *weights, *activations, *kv, *fused };
        l.operatorKind = *op;
        workload.model = std::move(l);
        return workload;
    }
    in.error(path + ".kind", "unknown workload \"" + *kind + "\" (expected matmul or llm)");
    return std::nullopt;
}

void readSession(const Json &root, Reader &in, Session &session)
{
    in.checkKeys(root, "",
        { "format", "version", "hardware", "compare", "points", "quantization", "lastSweepId",
            "view", "theme", "annotations", "targets", "baseline" });

    if (!root.contains("hardware"))
        in.error("hardware", "missing (expected the machine)");
    else if (auto hw = readHardware(root["hardware"], "hardware", in))
        session.hardware = std::move(*hw);
    if (root.contains("compare")) {
        if (auto hw = readHardware(root["compare"], "compare", in))
            session.compare = std::move(*hw);
    }

    if (root.contains("points")) {
        const Json &list = root["points"];
        if (!list.is_array()) {
            in.error("points", "expected a list");
        } else {
            Json kernels = Json::array();
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string path = "points[" + std::to_string(i) + "]";
                const Json &entry = list[i];
                if (!entry.is_object() || !entry.contains("point")) {
                    in.error(path, "expected {\"point\": {...}, ...}");
                    kernels.push_back(Json::object());
                    continue;
                }
                in.checkKeys(entry, path, { "point", "bytesFactor", "timeFactor", "workload" });
                kernels.push_back(entry["point"]);
            }
            // The points reader names them "points[i]"; in a session they sit at
            // "points[i].point".
            const Json document { { "format", kPointsFormat }, { "version", kPointsVersion },
                { "points", kernels } };
            PointsReadResult read = readPointsJson(dump(document), in.file());
            for (Diagnostic d : read.diagnostics) {
                d.line = 0;
                d.column = 0;
                if (const auto close = d.message.find(']');
                    d.message.starts_with("points[") && close != std::string::npos)
                    d.message.insert(close + 1, ".point");
                in.diagnostics().push_back(std::move(d));
            }
            if (read.rowsSkipped == 0 && read.points.size() == list.size()) {
                for (std::size_t i = 0; i < list.size(); ++i) {
                    const std::string path = "points[" + std::to_string(i) + "]";
                    SessionPoint point;
                    point.point = std::move(read.points[i]);
                    // The points reader names its own file as the source of a point without
                    // one; a session keeps "no source" as it was saved.
                    if (!list[i]["point"].contains("source"))
                        point.point.source = {};
                    point.bytesFactor
                        = in.number(list[i], "bytesFactor", path, 1.0, true).value_or(1.0);
                    point.timeFactor
                        = in.number(list[i], "timeFactor", path, 1.0, true).value_or(1.0);
                    if (list[i].contains("workload"))
                        point.workload = readWorkload(list[i]["workload"], path + ".workload", in);
                    session.points.push_back(std::move(point));
                }
            } else if (!in.failed()) {
                in.error("points", "some points could not be read");
            }
        }
    }

    if (const auto mode = in.string(root, "quantization", "", std::string("none"))) {
        if (const auto value = quantModeFromName(*mode))
            session.quantMode = *value;
        else
            in.error("quantization",
                "unknown mode \"" + *mode + "\" (expected none, int8, w8a16 or w4a16)");
    }
    if (root.contains("lastSweepId")) {
        if (root["lastSweepId"].is_number_integer() && root["lastSweepId"].get<double>() >= 0
            && root["lastSweepId"].get<double>() < 1e9)
            session.lastSweepId = root["lastSweepId"].get<int>();
        else
            in.error("lastSweepId", "expected a non-negative integer");
    }

    if (root.contains("view")) {
        const Json &view = root["view"];
        if (!view.is_object()) {
            in.error("view", "expected {\"xLower\", \"xUpper\", \"yLower\", \"yUpper\"}");
        } else {
            in.checkKeys(view, "view", { "xLower", "xUpper", "yLower", "yUpper" });
            const auto xl = in.number(view, "xLower", "view", std::nullopt, true);
            const auto xu = in.number(view, "xUpper", "view", std::nullopt, true);
            const auto yl = in.number(view, "yLower", "view", std::nullopt, true);
            const auto yu = in.number(view, "yUpper", "view", std::nullopt, true);
            if (xl && xu && yl && yu) {
                if (*xl >= *xu || *yl >= *yu)
                    in.error("view", "expected lower < upper on both axes");
                else
                    session.view = ViewRange { *xl, *xu, *yl, *yu };
            }
        }
    }
    if (const auto theme = in.string(root, "theme", "", std::string())) {
        if (!theme->empty() && *theme != "light" && *theme != "dark" && *theme != "print")
            in.error("theme", "unknown theme \"" + *theme + "\" (expected light, dark or print)");
        else
            session.theme = *theme;
    }

    if (root.contains("annotations")) {
        const Json &list = root["annotations"];
        if (!list.is_array())
            in.error("annotations", "expected a list");
        for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
            const std::string path = "annotations[" + std::to_string(i) + "]";
            const Json &a = list[i];
            if (!a.is_object()) {
                in.error(path, "expected an object");
                continue;
            }
            in.checkKeys(a, path, { "text", "point", "x", "y" });
            Annotation annotation;
            const auto text = in.string(a, "text", path);
            if (text)
                annotation.text = *text;
            if (a.contains("point")) {
                const auto point = in.string(a, "point", path);
                const bool known = point
                    && std::any_of(session.points.begin(), session.points.end(),
                        [&](const SessionPoint &p) { return p.point.name == *point; });
                if (point && !known)
                    in.error(path + ".point", "no point named \"" + *point + "\"");
                annotation.point = point.value_or("");
            } else {
                const auto x = in.number(a, "x", path, std::nullopt, true);
                const auto y = in.number(a, "y", path, std::nullopt, true);
                annotation.x = x.value_or(0.0);
                annotation.y = y.value_or(0.0);
            }
            session.annotations.push_back(std::move(annotation));
        }
    }
    if (root.contains("targets")) {
        const Json &list = root["targets"];
        if (!list.is_array())
            in.error("targets", "expected a list");
        for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
            const std::string path = "targets[" + std::to_string(i) + "]";
            const Json &t = list[i];
            if (!t.is_object()) {
                in.error(path, "expected an object");
                continue;
            }
            in.checkKeys(t, path, { "ceiling", "fraction", "text" });
            TargetMarker target;
            const auto ceiling = in.string(t, "ceiling", path);
            const auto fraction = in.number(t, "fraction", path, std::nullopt, true);
            const auto text = in.string(t, "text", path, std::string());
            if (ceiling && !session.hardware.findCompute(*ceiling)
                && !session.hardware.findMemory(*ceiling) && !in.failed())
                in.error(path + ".ceiling",
                    "\"" + *ceiling + "\" is not a ceiling of " + session.hardware.name);
            if (fraction && *fraction > 1.0)
                in.error(path + ".fraction",
                    "expected a fraction in (0, 1], found " + dump(t["fraction"]));
            if (ceiling && fraction && text) {
                target.ceiling = *ceiling;
                target.fraction = *fraction;
                target.text = *text;
                session.targets.push_back(std::move(target));
            }
        }
    }
    if (root.contains("baseline")) {
        const Json &b = root["baseline"];
        if (!b.is_object() || !b.contains("points") || !b["points"].is_array()) {
            in.error("baseline", "expected {\"file\": ..., \"points\": [...]}");
        } else {
            in.checkKeys(b, "baseline", { "file", "points" });
            Baseline baseline;
            baseline.file = in.string(b, "file", "baseline", std::string()).value_or("");
            if (auto points = readPointList(b["points"], "baseline", in)) {
                baseline.points = std::move(*points);
                session.baseline = std::move(baseline);
            }
        }
    }
}

} // namespace

SessionReadResult readSessionJson(std::string_view text, const std::string &fileName)
{
    SessionReadResult result;
    Json root;
    try {
        root = Json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        const TextPosition at = positionOfOffset(text, offset);
        std::string message = e.what();
        if (const auto colon = message.find(": "); colon != std::string::npos)
            message = message.substr(colon + 2);
        result.diagnostics.push_back(
            { Severity::Error, fileName, at.line, at.column, "invalid JSON: " + message });
        return result;
    } catch (const nlohmann::json::exception &e) {
        result.diagnostics.push_back(
            { Severity::Error, fileName, 0, 0, std::string("invalid JSON: ") + e.what() });
        return result;
    }
    Reader in(fileName, result.diagnostics);
    if (!root.is_object() || !root.contains("format") || root["format"] != kSessionFormat) {
        in.error("format",
            "not a Ridgepoint session (expected {\"format\": \"ridgepoint-session\", "
            "\"version\": 1, ...})");
        return result;
    }
    if (!root.contains("version") || !root["version"].is_number_integer()
        || root["version"].get<double>() < 0) {
        in.error("version", "expected a non-negative integer");
        return result;
    }
    if (root["version"].get<double>() > kSessionVersion) {
        in.error("version",
            dump(root["version"]) + " is newer than this Ridgepoint reads ("
                + std::to_string(kSessionVersion)
                + "): the session was written by a newer Ridgepoint; update Ridgepoint to open it");
        return result;
    }
    result.version = root["version"].get<int>();
    for (int v = result.version; v < kSessionVersion; ++v) {
        if (auto problem = migrations()[static_cast<std::size_t>(v)](root)) {
            in.error("version " + std::to_string(v), "cannot migrate: " + *problem);
            return result;
        }
    }
    try {
        Session session;
        readSession(root, in, session);
        if (!in.failed())
            result.session = std::move(session);
    } catch (const nlohmann::json::exception &e) {
        // Not expected (every access above checks the type first), but a reader must not throw.
        in.error("session", e.what());
    }
    return result;
}

std::string writeSessionJson(const Session &session)
{
    Json root;
    root["format"] = kSessionFormat;
    root["version"] = kSessionVersion;
    root["hardware"] = hardwareObject(session.hardware);
    if (session.compare)
        root["compare"] = hardwareObject(*session.compare);
    // The points writer runs once for all of them: point by point, its text and the parse
    // back cost twenty times as much.
    std::vector<KernelPoint> plain;
    plain.reserve(session.points.size());
    for (const auto &p : session.points)
        plain.push_back(p.point);
    Json written = pointList(plain);
    plain = {};
    Json points = Json::array();
    for (std::size_t i = 0; i < session.points.size(); ++i) {
        const SessionPoint &p = session.points[i];
        Json entry { { "point", std::move(written[i]) } };
        if (p.bytesFactor != 1.0)
            entry["bytesFactor"] = p.bytesFactor;
        if (p.timeFactor != 1.0)
            entry["timeFactor"] = p.timeFactor;
        if (p.workload)
            entry["workload"] = workloadObject(*p.workload);
        points.push_back(std::move(entry));
    }
    root["points"] = std::move(points);
    root["quantization"] = quantModeName(session.quantMode);
    if (session.lastSweepId != 0)
        root["lastSweepId"] = session.lastSweepId;
    if (session.view)
        root["view"] = { { "xLower", session.view->xLower }, { "xUpper", session.view->xUpper },
            { "yLower", session.view->yLower }, { "yUpper", session.view->yUpper } };
    if (!session.theme.empty())
        root["theme"] = session.theme;
    if (!session.annotations.empty()) {
        Json list = Json::array();
        for (const auto &a : session.annotations) {
            Json entry { { "text", a.text } };
            if (!a.point.empty()) {
                entry["point"] = a.point;
            } else {
                entry["x"] = a.x;
                entry["y"] = a.y;
            }
            list.push_back(std::move(entry));
        }
        root["annotations"] = std::move(list);
    }
    if (!session.targets.empty()) {
        Json list = Json::array();
        for (const auto &t : session.targets) {
            Json entry { { "ceiling", t.ceiling }, { "fraction", t.fraction } };
            if (!t.text.empty())
                entry["text"] = t.text;
            list.push_back(std::move(entry));
        }
        root["targets"] = std::move(list);
    }
    if (session.baseline)
        root["baseline"] = { { "file", session.baseline->file },
            { "points", pointList(session.baseline->points) } };
    return dump(root, 2) + "\n";
}

std::size_t maxSessionPoints(std::size_t maxBytes)
{
    // The fewest bytes one more point can add: a point with every field at its shortest,
    // measured through the writer so the bound follows its format.
    static const std::size_t kLeastPerPoint = [] {
        Session one;
        one.points.resize(1);
        Session two;
        two.points.resize(2);
        return writeSessionJson(two).size() - writeSessionJson(one).size();
    }();
    return maxBytes / std::max<std::size_t>(kLeastPerPoint, 1);
}

std::optional<std::string> writeSessionJson(const Session &session, std::size_t maxBytes)
{
    if (session.points.size() > maxSessionPoints(maxBytes))
        return std::nullopt;
    std::string text = writeSessionJson(session);
    if (text.size() > maxBytes)
        return std::nullopt;
    return text;
}

} // namespace ridgepoint
