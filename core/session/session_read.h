// Reading a session whose text the caller hands over (a file read for it, as the command line and
// the window's Open do).
#pragma once

#include "core/session/session.h"

#include <string>

namespace ridgepoint {

// readSessionJson for a caller that hands its text over: the text is freed as soon as it is
// parsed, so a large session is never held as text and as a tree at once.
SessionReadResult readSessionJsonConsuming(std::string &&text, const std::string &fileName);

} // namespace ridgepoint
