// Sessions read straight into a Workspace and written straight from one: the command line and
// the tests use a session with no Document around it.
#pragma once

#include "core/session/session.h"
#include "core/workspace/workspace.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct [[nodiscard]] WorkspaceReadResult {
    bool loaded = false; // false when the file has errors: the workspace is left as it was
    // The window's part of the session, which a Workspace does not hold.
    std::optional<ViewRange> view;
    std::string theme;
    std::vector<Diagnostic> diagnostics; // as readSessionJson gives them
    int version = 0; // the version the file was written in (before migration)
};

// Reads a session (as readSessionJson does) into `workspace`: its machines, points, moves,
// workloads (re-derived on its machine), mode and review layers; every point is analysed with
// the workspace's analysis options.
WorkspaceReadResult readSessionJson(
    std::string_view text, const std::string &fileName, Workspace &workspace);

// The workspace as a session file (writeSessionJson), with the window's view and theme if given.
std::string writeSessionJson(const Workspace &workspace,
    const std::optional<ViewRange> &view = std::nullopt, const std::string &theme = {});

} // namespace ridgepoint
