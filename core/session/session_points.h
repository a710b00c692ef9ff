// Internal to core/session: a session's "points" list read one entry at a time, as the entries
// come (from the parser while it reads the file, or from a list already parsed).
#pragma once

#include "core/model/diagnostic.h"
#include "core/session/session.h"
#include "core/session/session_json.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ridgepoint::session_json {

// Each entry {"point": {...}, "bytesFactor", "timeFactor", "workload"} is converted when it is
// given, so its tree can be dropped at once: a large session is never held as a tree of all its
// points. The messages come out as reading the whole list at once gave them: every entry's shape
// first, then every point's, then the moves' and workloads' (none of those, and no points, when
// a point could not be read).
class PointEntries
{
public:
    explicit PointEntries(std::string fileName);

    // The next entry ("points[i]" in the messages, i counting the entries given so far).
    void add(const Json &entry);

    // The points into `session` and the messages into `in`, in the order above.
    void finish(Reader &in, Session &session);

private:
    void keep(const Json &entry, const Json &kernel, KernelPoint &&point, const std::string &path);

    std::string m_file;
    std::size_t m_count = 0;
    bool m_complete = true; // every point read so far
    std::vector<Diagnostic> m_shapes; // an entry that is not {"point": ...}, unknown keys
    std::vector<Diagnostic> m_points; // the points reader's, "points[i].point..."
    std::vector<Diagnostic> m_later; // the moves' and workloads'
    // The points, in parts of a fixed size: a growing vector would copy them all as it doubles,
    // and the parts are moved into the session's one vector, sized once, at the end.
    std::vector<std::vector<SessionPoint>> m_parts;
};

} // namespace ridgepoint::session_json
