// Writing a session: the machines and points through their own writers, then the moves,
// workloads, mode, view and review layers around them.
#include "core/session/session.h"

#include "core/io/formats/hardware_json.h"
#include "core/io/formats/points_json.h"
#include "core/session/session_json.h"

#include <utility>

namespace ridgepoint {
namespace {

using session_json::dump;
using session_json::Json;

Json hardwareObject(const Hardware &hardware)
{
    return Json::parse(writeHardwareJson(hardware));
}

Json pointList(const std::vector<KernelPoint> &points)
{
    return Json::parse(writePointsJson(points))["points"];
}

// "points": each point with its move and workload.
Json pointsArray(const std::vector<SessionPoint> &sessionPoints)
{
    // The points writer runs once for all of them: point by point, its text and the parse
    // back cost twenty times as much.
    std::vector<KernelPoint> plain;
    plain.reserve(sessionPoints.size());
    for (const auto &p : sessionPoints)
        plain.push_back(p.point);
    Json written = pointList(plain);
    plain = {};
    Json points = Json::array();
    for (std::size_t i = 0; i < sessionPoints.size(); ++i) {
        const SessionPoint &p = sessionPoints[i];
        Json entry { { "point", std::move(written[i]) } };
        if (p.bytesFactor != 1.0)
            entry["bytesFactor"] = p.bytesFactor;
        if (p.timeFactor != 1.0)
            entry["timeFactor"] = p.timeFactor;
        if (p.workload)
            entry["workload"] = session_json::workloadObject(*p.workload);
        points.push_back(std::move(entry));
    }
    return points;
}

// Annotations, target markers and the baseline run, each only when there is one.
void writeReview(const Session &session, Json &root)
{
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
    if (session.baseline) {
        root["baseline"] = { { "file", session.baseline->file } };
        if (session.baseline->match != MatchBy::Name)
            root["baseline"]["match"] = matchByText(session.baseline->match);
        root["baseline"]["points"] = pointList(session.baseline->points);
    }
}

} // namespace

std::string writeSessionJson(const Session &session)
{
    Json root;
    root["format"] = kSessionFormat;
    root["version"] = kSessionVersion;
    root["hardware"] = hardwareObject(session.hardware);
    if (session.compare)
        root["compare"] = hardwareObject(*session.compare);
    root["points"] = pointsArray(session.points);
    root["quantization"] = quantModeName(session.quantMode);
    if (session.lastSweepId != 0)
        root["lastSweepId"] = session.lastSweepId;
    if (session.view)
        root["view"] = { { "xLower", session.view->xLower }, { "xUpper", session.view->xUpper },
            { "yLower", session.view->yLower }, { "yUpper", session.view->yUpper } };
    if (!session.theme.empty())
        root["theme"] = session.theme;
    if (!session.pointsMode.empty())
        root["pointsMode"] = session.pointsMode;
    if (!session.dotSize.empty())
        root["dotSize"] = session.dotSize;
    root["figures"] = figureChoiceName(session.figures);
    root["roofs"] = roofsShownName(session.roofs);
    writeReview(session, root);
    return dump(root, 2) + "\n";
}

std::string_view roofsShownName(RoofsShown roofs)
{
    return roofs == RoofsShown::All ? "all" : "data";
}

std::optional<RoofsShown> roofsShownFromName(std::string_view name)
{
    if (name == "data")
        return RoofsShown::Data;
    if (name == "all")
        return RoofsShown::All;
    return std::nullopt;
}

} // namespace ridgepoint
