// Internal to core/session: a session's text parsed into its tree, except the entries of its
// "points" list, which go one by one to the entry reader as the parser finishes each.
#pragma once

#include "core/model/diagnostic.h"
#include "core/session/session_json.h"
#include "core/session/session_points.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::session_json {

struct ParsedSession {
    enum class Outcome {
        Parsed, // `root` holds the document; the points are in the entry reader if `streamed`
        Failed, // a diagnostic says why (invalid JSON, too deep, a number too large)
        Again, // the document cannot be read as it comes: parse it whole (parseJson)
    };
    Outcome outcome = Outcome::Failed;
    Json root;
    // "points" is an empty list in `root`: its entries went to the entry reader.
    bool streamed = false;
};

// The entries of the top-level "points" list are handed to `entries` as they end, when the file
// has said before them that it is a session of a version whose points no migration changes
// ("format" and "version" come first in every session Ridgepoint writes). Otherwise they stay in
// the tree. A file that names its format, version or points again after its points have gone by
// is parsed again whole (Outcome::Again): the last of a repeated key is the one that counts.
ParsedSession parseSession(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, PointEntries &entries);

} // namespace ridgepoint::session_json
