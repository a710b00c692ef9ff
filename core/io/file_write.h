// The one way Ridgepoint writes a file (sessions, pictures, tables, measured machines), chosen by
// what the path names (docs/RELIABILITY.md, "Writes"):
// - nothing yet, a regular file, or a link to either: a temporary file in the same folder, written
//   whole, flushed to the disk (fsync) and renamed over the target, so a failed write leaves the
//   old file as it was and no temporary file behind. An existing file keeps its permission bits;
//   through a link, the file it points to is replaced and the link stays a link.
// - a character device or a FIFO (directly or through a link): written through, without a
//   temporary file or a rename, as any Unix tool does (`-o /dev/null`, `-o /dev/stdout`, a FIFO
//   another process reads); a FIFO without a reader is refused at once instead of waiting.
// - a block device, a socket or a directory: refused.
#pragma once

#include "core/model/expected.h"

#include <string>
#include <string_view>

namespace ridgepoint {

// Nothing when `path` can take writeOutputFile's bytes, else why not, starting with the path:
// "x: the folder d does not exist", "x: is a directory (expected a file name)", "x: is a block
// device (expected a file, a character device such as /dev/null or a FIFO)", "x: cannot write:
// Permission denied". For a new or regular file a temporary file is made in its folder and
// removed (the folder takes files); a device or FIFO is judged by its type and permissions only,
// never opened (a FIFO's reader would see the end of its input). For checking an output before
// a long run.
[[nodiscard]] std::string outputTargetProblem(const std::string &path);

// Writes `bytes` to `path` as the header says; the message starts with the path and gives the
// reason: "x: cannot write: No space left on device", "x: no process is reading this FIFO
// (start the reader first)", or outputTargetProblem's refusals.
Expected<void, std::string> writeOutputFile(const std::string &path, std::string_view bytes);

} // namespace ridgepoint
