// Reading a session: the JSON parsed with line and column, the version checked and migrated,
// then each part of the document read with its JSON path in every message.
#include "core/session/session_read.h"

#include "core/io/formats/hardware_json.h"
#include "core/io/formats/points_json.h"
#include "core/io/formats/points_json_entries.h"
#include "core/io/json_detail.h"
#include "core/model/value_ranges.h"
#include "core/session/session_json.h"
#include "core/session/session_parse.h"
#include "core/session/session_points.h"
#include "core/workloads/quant_modes.h"

#include <algorithm>
#include <utility>

namespace ridgepoint {
namespace {

using session_json::dump;
using session_json::Json;
using session_json::Reader;

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
    // Read in place: no copy of the list, no text of it parsed again.
    PointsReadResult result = readPointsJsonEntries(
        list.size(), [&](std::size_t i) -> const Json & { return list[i]; }, in.file());
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

void readMachines(const Json &root, Reader &in, Session &session)
{
    if (!root.contains("hardware"))
        in.error("hardware", "missing (expected the machine)");
    else if (auto hw = readHardware(root["hardware"], "hardware", in))
        session.hardware = std::move(*hw);
    if (root.contains("compare")) {
        if (auto hw = readHardware(root["compare"], "compare", in))
            session.compare = std::move(*hw);
    }
}

// The points of "points": [{"point": {...}, "bytesFactor", "timeFactor", "workload"}], from a
// list in the tree (a file read whole: session_parse.h says when).
void readPoints(const Json &list, Reader &in, Session &session)
{
    session_json::PointEntries entries(in.file());
    for (const Json &entry : list)
        entries.add(entry);
    entries.finish(in, session);
}

void readQuantization(const Json &root, Reader &in, Session &session)
{
    if (const auto mode = in.string(root, "quantization", "", std::string("none"))) {
        if (const auto value = quantModeFromName(*mode))
            session.quantMode = *value;
        else
            in.error("quantization",
                "unknown mode \"" + *mode + "\" (expected " + quantModeChoices() + ")");
    }
    if (root.contains("lastSweepId")) {
        if (root["lastSweepId"].is_number_integer() && root["lastSweepId"].get<double>() >= 0
            && root["lastSweepId"].get<double>() < 1e9)
            session.lastSweepId = root["lastSweepId"].get<int>();
        else
            in.error("lastSweepId", "expected a non-negative integer");
    }
}

// The window's part: the chart's range, the theme and which figures the analysis uses.
void readView(const Json &root, Reader &in, Session &session)
{
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
    if (const auto mode = in.string(root, "pointsMode", "", std::string())) {
        if (!mode->empty() && *mode != "auto" && *mode != "density" && *mode != "dots")
            in.error("pointsMode",
                "unknown points mode \"" + *mode + "\" (expected auto, density or dots)");
        else
            session.pointsMode = *mode;
    }
    if (const auto dotSize = in.string(root, "dotSize", "", std::string())) {
        if (!dotSize->empty() && *dotSize != "time" && *dotSize != "fixed")
            in.error("dotSize", "unknown dot size \"" + *dotSize + "\" (expected time or fixed)");
        else
            session.dotSize = *dotSize;
    }
    if (const auto figures = in.string(root, "figures", "", std::string("measured"))) {
        if (const auto choice = figureChoiceFromName(*figures))
            session.figures = *choice;
        else
            in.error("figures", "unknown choice \"" + *figures + "\" (expected measured or spec)");
    }
    if (const auto roofs = in.string(root, "roofs", "", std::string("data"))) {
        if (const auto choice = roofsShownFromName(*roofs))
            session.roofs = *choice;
        else
            in.error("roofs", "unknown choice \"" + *roofs + "\" (expected data or all)");
    }
}

std::optional<Annotation> readAnnotation(
    const Json &a, const std::string &path, Reader &in, const Session &session)
{
    if (!a.is_object()) {
        in.error(path, "expected an object");
        return std::nullopt;
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
    return annotation;
}

std::optional<TargetMarker> readTarget(
    const Json &t, const std::string &path, Reader &in, const Session &session)
{
    if (!t.is_object()) {
        in.error(path, "expected an object");
        return std::nullopt;
    }
    in.checkKeys(t, path, { "ceiling", "fraction", "text" });
    const auto ceiling = in.string(t, "ceiling", path);
    const auto fraction = in.number(t, "fraction", path, std::nullopt, true);
    const auto text = in.string(t, "text", path, std::string());
    if (ceiling && !session.hardware.findCompute(*ceiling) && !session.hardware.findMemory(*ceiling)
        && !in.failed())
        in.error(
            path + ".ceiling", "\"" + *ceiling + "\" is not a ceiling of " + session.hardware.name);
    if (fraction && *fraction > 1.0)
        in.error(path + ".fraction", "expected a fraction in (0, 1], found " + dump(t["fraction"]));
    if (!ceiling || !fraction || !text)
        return std::nullopt;
    return TargetMarker { *ceiling, *fraction, *text };
}

// Annotations, target markers and the baseline run.
void readReview(const Json &root, Reader &in, Session &session)
{
    if (root.contains("annotations")) {
        const Json &list = root["annotations"];
        if (!list.is_array())
            in.error("annotations", "expected a list");
        for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
            const std::string path = "annotations[" + std::to_string(i) + "]";
            if (auto annotation = readAnnotation(list[i], path, in, session))
                session.annotations.push_back(std::move(*annotation));
        }
    }
    if (root.contains("targets")) {
        const Json &list = root["targets"];
        if (!list.is_array())
            in.error("targets", "expected a list");
        for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
            const std::string path = "targets[" + std::to_string(i) + "]";
            if (auto target = readTarget(list[i], path, in, session))
                session.targets.push_back(std::move(*target));
        }
    }
    if (root.contains("baseline")) {
        const Json &b = root["baseline"];
        if (!b.is_object() || !b.contains("points") || !b["points"].is_array()) {
            in.error("baseline", "expected {\"file\": ..., \"points\": [...]}");
        } else {
            in.checkKeys(b, "baseline", { "file", "match", "points" });
            Baseline baseline;
            baseline.file = in.string(b, "file", "baseline", std::string()).value_or("");
            // Absent in files written before traces were matched by operator: by name.
            const std::string match
                = in.string(b, "match", "baseline", std::string("name")).value_or("name");
            if (const auto by = matchByFromText(match))
                baseline.match = *by;
            else
                in.error("baseline.match", "expected \"name\" or \"operator\"");
            if (auto points = readPointList(b["points"], "baseline", in)) {
                baseline.points = std::move(*points);
                session.baseline = std::move(baseline);
            }
        }
    }
}

// `root` loses its points once they are read. `streamed`: the points, read while the text was
// parsed (their list is empty in `root`).
void readSession(Json &root, Reader &in, Session &session, session_json::PointEntries *streamed)
{
    in.checkKeys(root, "",
        { "format", "version", "hardware", "compare", "points", "quantization", "lastSweepId",
            "view", "theme", "pointsMode", "dotSize", "figures", "roofs", "annotations", "targets",
            "baseline" });
    readMachines(root, in, session);
    if (root.contains("points")) {
        if (streamed)
            streamed->finish(in, session);
        else if (!root["points"].is_array())
            in.error("points", "expected a list");
        else
            readPoints(root["points"], in, session);
        root["points"] = nullptr;
    }
    readQuantization(root, in, session);
    readView(root, in, session);
    readReview(root, in, session);
}

// The parsed document; nullopt after a diagnostic with the line and column of a syntax error.
// Through the readers' one parser: nesting deeper than detail::kMaxJsonDepth is refused before
// parsing, since the machines and points below are dumped again for their own readers and
// dump() recurses once per level (80,000 levels overflowed the stack).
std::optional<Json> parse(
    std::string_view text, const std::string &fileName, SessionReadResult &result)
{
    return detail::parseJson<Json>(text, fileName, result.diagnostics);
}

// The format and the version; false after an error (not a session, or a newer version).
bool checkHeader(const Json &root, Reader &in)
{
    if (!root.is_object() || !root.contains("format") || root["format"] != kSessionFormat) {
        in.error("format",
            "not a Ridgepoint session (expected {\"format\": \"ridgepoint-session\", "
            "\"version\": "
                + std::to_string(kSessionVersion) + ", ...})");
        return false;
    }
    if (!root.contains("version") || !root["version"].is_number_integer()
        || root["version"].get<double>() < 0) {
        in.error("version", "expected a non-negative integer");
        return false;
    }
    if (root["version"].get<double>() > kSessionVersion) {
        in.error("version",
            dump(root["version"]) + " is newer than this Ridgepoint reads ("
                + std::to_string(kSessionVersion)
                + "): the session was written by a newer Ridgepoint; update Ridgepoint to open it");
        return false;
    }
    return true;
}

} // namespace

namespace {

// The rest of reading, once the text is parsed into `root` (and the points into `streamed`).
SessionReadResult readParsed(Json &root, const std::string &fileName, SessionReadResult result,
    session_json::PointEntries *streamed)
{
    Reader in(fileName, result.diagnostics);
    if (!checkHeader(root, in))
        return result;
    result.version = root["version"].get<int>();
    if (!session_json::migrate(root, result.version, in))
        return result;
    try {
        Session session;
        readSession(root, in, session, streamed);
        if (!in.failed())
            result.session = std::move(session);
    } catch (const nlohmann::json::exception &e) {
        // Not expected (every access above checks the type first), but a reader must not throw.
        in.error("session", e.what());
    }
    return result;
}

} // namespace

SessionReadResult readSessionJsonWhole(std::string_view text, const std::string &fileName)
{
    SessionReadResult result;
    std::optional<Json> root = parse(text, fileName, result);
    if (!root)
        return result;
    return readParsed(*root, fileName, std::move(result), nullptr);
}

SessionReadResult readSessionJson(std::string_view text, const std::string &fileName)
{
    // The points are read as they are parsed: the tree of all of them (about twice the text)
    // is never built.
    SessionReadResult result;
    session_json::PointEntries entries(fileName);
    auto parsed = session_json::parseSession(text, fileName, result.diagnostics, entries);
    using Outcome = session_json::ParsedSession::Outcome;
    if (parsed.outcome == Outcome::Failed)
        return result;
    if (parsed.outcome == Outcome::Again)
        return readSessionJsonWhole(text, fileName);
    return readParsed(
        parsed.root, fileName, std::move(result), parsed.streamed ? &entries : nullptr);
}

SessionReadResult readSessionJsonConsuming(std::string &&text, const std::string &fileName)
{
    SessionReadResult result;
    session_json::PointEntries entries(fileName);
    auto parsed = session_json::parseSession(text, fileName, result.diagnostics, entries);
    using Outcome = session_json::ParsedSession::Outcome;
    if (parsed.outcome == Outcome::Again) {
        std::optional<Json> root = parse(text, fileName, result);
        std::string().swap(text);
        if (!root)
            return result;
        return readParsed(*root, fileName, std::move(result), nullptr);
    }
    std::string().swap(text); // the tree and the points (or the message) say all it had to say
    if (parsed.outcome == Outcome::Failed)
        return result;
    return readParsed(
        parsed.root, fileName, std::move(result), parsed.streamed ? &entries : nullptr);
}

} // namespace ridgepoint
