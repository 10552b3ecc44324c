// Huge-page memory for large arrays (detail/huge_pages.hpp): mmap, trimmed to a 2 MiB-aligned
// region, advised MADV_HUGEPAGE.
#include "shufl/detail/huge_pages.hpp"

#include <sys/mman.h>

namespace shufl::detail {

namespace {

constexpr std::size_t kHuge = std::size_t{2} << 20;

std::size_t rounded(std::size_t bytes) noexcept { return (bytes + kHuge - 1) / kHuge * kHuge; }

}  // namespace

void* huge_page_alloc(std::size_t bytes) {
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
  if (bytes > SIZE_MAX - 2 * kHuge) throw std::bad_alloc();
  const std::size_t size = rounded(bytes), mapped = size + kHuge;
  void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto begin = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (begin + kHuge - 1) / kHuge * kHuge;
  // Keep exactly [aligned, aligned + size): huge_page_free unmaps that.
  if (aligned > begin) ::munmap(raw, aligned - begin);
  if (begin + mapped > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), begin + mapped - (aligned + size));
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // a hint: failure is harmless
  return reinterpret_cast<void*>(aligned);
#else
  return ::operator new(bytes);
#endif
}

void huge_page_free(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
  ::munmap(p, rounded(bytes));
#else
  (void)bytes;
  ::operator delete(p);
#endif
}

}  // namespace shufl::detail
