#include "core/session/session_workspace.h"

#include <utility>

namespace ridgepoint {

WorkspaceReadResult readSessionJson(
    std::string_view text, const std::string &fileName, Workspace &workspace)
{
    SessionReadResult read = readSessionJson(text, fileName);
    WorkspaceReadResult result;
    result.diagnostics = std::move(read.diagnostics);
    result.version = read.version;
    if (!read.session)
        return result;
    result.view = read.session->view;
    result.theme = std::move(read.session->theme);
    workspace.loadSession(std::move(*read.session));
    result.loaded = true;
    return result;
}

std::string writeSessionJson(
    const Workspace &workspace, const std::optional<ViewRange> &view, const std::string &theme)
{
    Session session = workspace.toSession();
    session.view = view;
    session.theme = theme;
    return writeSessionJson(session);
}

} // namespace ridgepoint
