// The points reader on an already parsed tree, for the session reader (inside the core only:
// it names nlohmann's type, which the core keeps to itself).
#pragma once

#include "core/io/read_result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace ridgepoint {

// The points of a parsed list (a session's), each read and checked as readPointsJson reads the
// entries of its "points": `entry(i)` is the i-th, named "points[i]" in the messages. Reading
// the tree in place spares a large session a copy of its points, a dump and a second parse.
// `first` is the index of entry(0) in the whole list, for the names: a caller reading a long
// list part by part holds one part's points at a time, not a second copy of them all.
PointsReadResult readPointsJsonEntries(std::size_t count,
    const std::function<const nlohmann::ordered_json &(std::size_t)> &entry,
    const std::string &fileName, std::size_t first = 0);

} // namespace ridgepoint
