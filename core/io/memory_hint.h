// Hints to the operating system about a large block of memory, for the readers and the
// analysis that go through a million points at once. Beside file_io because the blocks are the
// files' text and what is read from it (the points readers, analyze's pieces in core/stream):
// the system calls on memory stay in core/io, and core/model holds only the vocabulary.
#pragma once

#include <cstddef>

namespace ridgepoint {

// Asks for 2 MiB pages on the whole pages of [data, data + bytes) before it is first touched.
// A million points are about 280 MB, and faulting them in 4 KiB pages was about 40 % of the
// time to read them (docs/PERFORMANCE.md); Linux backs memory with huge pages only on request
// where transparent huge pages are in "madvise" mode (Debian's default). Blocks under 8 MiB are
// left alone. Only a hint: where it is not available, nothing changes.
void adviseHugePages(void *data, std::size_t bytes);

// Gives the whole pages of [data, data + bytes) back to the system while the block stays
// allocated: for a part of a large block that will not be read again before the block is freed
// (what was there is gone: a page touched again reads as zeros, and under AddressSanitizer
// reading it is reported). Where it is not available, nothing changes.
void releasePages(void *data, std::size_t bytes);

} // namespace ridgepoint
