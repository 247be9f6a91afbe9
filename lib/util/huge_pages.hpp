// cuzk — asking for transparent huge pages over a large host array.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk {

// Advises the kernel to back the whole 2 MiB pages inside [p, p + bytes) with
// huge pages (Linux; elsewhere, or when refused, nothing happens). Call it
// before the memory is first touched: for arrays of gigabytes the 4 KiB
// page faults otherwise cost more than filling them.
inline void advise_huge_pages(void* p, size_t bytes) noexcept
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t page = uintptr_t{2} << 20;
    const uintptr_t begin = (uintptr_t(p) + page - 1) & ~(page - 1);
    const uintptr_t end = (uintptr_t(p) + bytes) & ~(page - 1);
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);   // advice only
#else
    (void)p;
    (void)bytes;
#endif
}

} // namespace cuzk
