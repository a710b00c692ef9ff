// Session files on disk: read with the core reader, written with the core writer
// (core/io/file_write.h: a failed write — full disk, missing or read-only directory — leaves the
// old file as it was).
#pragma once

#include "core/session/session.h"

#include <QString>

#include <string>

namespace ridgepoint {

// The file's text through the core reader; a file that cannot be read is one diagnostic. A PNG,
// SVG or PDF exported with its session (widgets/export/figuresession.h) gives that session.
SessionReadResult readSessionFile(const QString &fileName);

// The same from a file's bytes already read (through readTextFile), consumed: a caller that
// read the file to tell its kind does not read it again.
SessionReadResult readSessionBytes(std::string &&bytes, const std::string &fileName);

// Writes the session; an empty string on success, else why it failed ("/x/s.json: cannot
// write: Permission denied").
[[nodiscard]] QString writeSessionFile(const QString &fileName, const Session &session);

// Writes `bytes` to `fileName` with the core writer (writeOutputFile: a file atomically, a
// character device or FIFO through, anything else refused); an empty string on success, else
// why, starting with the file name.
[[nodiscard]] QString writeOutput(const QString &fileName, const QByteArray &bytes);

} // namespace ridgepoint
