// Reading a session whose text the caller hands over (a file read for it, as the command line and
// the window's Open do).
#pragma once

#include "core/session/session.h"

#include <string>
#include <string_view>

namespace ridgepoint {

// readSessionJson for a caller that hands its text over: the text is freed as soon as it is
// parsed, so a large session is never held as text and as a tree at once.
SessionReadResult readSessionJsonConsuming(std::string &&text, const std::string &fileName);

// readSessionJson with the whole document parsed into one tree before anything is read, as
// before the points were read as they are parsed: the path of a file that names its format,
// version or points twice, and what the tests compare the streaming reader with.
SessionReadResult readSessionJsonWhole(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
