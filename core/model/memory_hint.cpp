#include "core/model/memory_hint.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ridgepoint {

void adviseHugePages([[maybe_unused]] void *data, [[maybe_unused]] std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHugePage = std::uintptr_t { 2 } << 20;
    if (data == nullptr || bytes < 4 * kHugePage)
        return;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    if (last > first)
        madvise(static_cast<char *>(data) + (first - begin), last - first, MADV_HUGEPAGE);
#endif
}

void releasePages([[maybe_unused]] void *data, [[maybe_unused]] std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    const long size = sysconf(_SC_PAGESIZE);
    if (data == nullptr || size <= 0)
        return;
    const auto page = static_cast<std::uintptr_t>(size);
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
    const std::uintptr_t last = (begin + bytes) & ~(page - 1);
    if (last > first)
        madvise(static_cast<char *>(data) + (first - begin), last - first, MADV_DONTNEED);
#endif
}

} // namespace ridgepoint
