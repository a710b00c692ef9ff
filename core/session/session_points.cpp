// A session's "points" list, entry by entry (session_points.h).
#include "core/session/session_points.h"

#include "core/io/formats/points_json_entries.h"
#include "core/model/value_ranges.h"

#include <utility>

namespace ridgepoint::session_json {
namespace {

constexpr std::size_t kPartSize = 4096;

} // namespace

PointEntries::PointEntries(std::string fileName)
    : m_file(std::move(fileName))
{ }

void PointEntries::add(const Json &entry)
{
    const std::size_t index = m_count++;
    const std::string path = "points[" + std::to_string(index) + "]";
    const bool hasPoint = entry.is_object() && entry.contains("point");
    Reader shapes(m_file, m_shapes);
    if (!hasPoint)
        shapes.error(path, "expected {\"point\": {...}, ...}");
    else
        shapes.checkKeys(entry, path, { "point", "bytesFactor", "timeFactor", "workload" });
    // An entry without a point is read as an empty one: the points reader says what is missing.
    static const Json noPoint = Json::object();
    const Json &kernel = hasPoint ? entry["point"] : noPoint;
    PointsReadResult read = readPointsJsonEntries(
        1, [&](std::size_t) -> const Json & { return kernel; }, m_file, index);
    for (Diagnostic d : read.diagnostics) {
        // The points reader names them "points[i]"; in a session they sit at "points[i].point".
        d.line = 0;
        d.column = 0;
        if (const auto close = d.message.find(']');
            d.message.starts_with("points[") && close != std::string::npos)
            d.message.insert(close + 1, ".point");
        m_points.push_back(std::move(d));
    }
    const bool readOne = read.rowsSkipped == 0 && read.points.size() == 1;
    if (m_complete && !readOne) {
        // Nothing of the points is kept from here on: the session will have none.
        m_complete = false;
        std::vector<std::vector<SessionPoint>>().swap(m_parts);
        std::vector<Diagnostic>().swap(m_later);
    }
    if (m_complete)
        keep(entry, kernel, std::move(read.points.front()), path);
}

void PointEntries::keep(
    const Json &entry, const Json &kernel, KernelPoint &&point, const std::string &path)
{
    if (m_parts.empty() || m_parts.back().size() == kPartSize) {
        m_parts.emplace_back();
        m_parts.back().reserve(kPartSize);
    }
    SessionPoint &kept = m_parts.back().emplace_back();
    kept.point = std::move(point);
    // The points reader names its own file as the source of a point without one; a session
    // keeps "no source" as it was saved.
    if (!kernel.contains("source"))
        kept.point.source = {};
    Reader later(m_file, m_later);
    kept.bytesFactor = later.number(entry, "bytesFactor", path, 1.0, true).value_or(1.0);
    kept.timeFactor = later.number(entry, "timeFactor", path, 1.0, true).value_or(1.0);
    if (auto problem = moveProblem(kept.point, kept.bytesFactor, kept.timeFactor))
        later.error(path, *problem);
    if (entry.contains("workload"))
        kept.workload = readWorkload(entry["workload"], path + ".workload", later);
}

void PointEntries::finish(Reader &in, Session &session)
{
    auto &out = in.diagnostics();
    for (auto *messages : { &m_shapes, &m_points }) {
        out.insert(out.end(), std::make_move_iterator(messages->begin()),
            std::make_move_iterator(messages->end()));
        std::vector<Diagnostic>().swap(*messages);
    }
    if (!m_complete) {
        session.points.clear();
        if (!in.failed())
            in.error("points", "some points could not be read");
        return;
    }
    session.points.clear();
    session.points.reserve(m_count);
    for (auto &part : m_parts) {
        session.points.insert(session.points.end(), std::make_move_iterator(part.begin()),
            std::make_move_iterator(part.end()));
        std::vector<SessionPoint>().swap(part); // freed as it is moved: one copy at a time
    }
    m_parts.clear();
    out.insert(out.end(), std::make_move_iterator(m_later.begin()),
        std::make_move_iterator(m_later.end()));
    m_later.clear();
}

} // namespace ridgepoint::session_json
