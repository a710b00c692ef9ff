#include "core/io/memory_hint.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define RIDGEPOINT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIDGEPOINT_ASAN 1
#endif
#endif
#if defined(RIDGEPOINT_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace ridgepoint {

namespace {

#if defined(__linux__) && (defined(MADV_HUGEPAGE) || defined(MADV_DONTNEED))
// Gives `advice` for the whole pages of `page` bytes (a power of two) inside [data, data + bytes):
// never a page that is partly outside, which may belong to another use.
void adviseWholePages(void *data, std::size_t bytes, std::uintptr_t page, int advice)
{
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
    const std::uintptr_t last = (begin + bytes) & ~(page - 1);
    if (last <= first)
        return;
    char *const from = static_cast<char *>(data) + (first - begin);
    madvise(from, last - first, advice);
#if defined(RIDGEPOINT_ASAN) && defined(MADV_DONTNEED)
    // What was given back is not to be read: AddressSanitizer reports a read there instead of
    // letting it see zeros.
    if (advice == MADV_DONTNEED)
        ASAN_POISON_MEMORY_REGION(from, last - first);
#endif
}
#endif

} // namespace

void adviseHugePages([[maybe_unused]] void *data, [[maybe_unused]] std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHugePage = std::uintptr_t { 2 } << 20;
    if (data != nullptr && bytes >= 4 * kHugePage)
        adviseWholePages(data, bytes, kHugePage, MADV_HUGEPAGE);
#endif
}

void releasePages([[maybe_unused]] void *data, [[maybe_unused]] std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    const long page = sysconf(_SC_PAGESIZE);
    if (data != nullptr && page > 0)
        adviseWholePages(data, bytes, static_cast<std::uintptr_t>(page), MADV_DONTNEED);
#endif
}

} // namespace ridgepoint
