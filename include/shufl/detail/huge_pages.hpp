// Memory for large arrays on transparent huge pages: an allocator for std::vector and a
// fixed buffer. Where a 4 KiB page's first touch costs a fault each (tens of microseconds on
// some virtual machines), a 2 MiB page costs one; Linux gives huge pages to regions advised
// with MADV_HUGEPAGE when transparent huge pages are in "madvise" mode (the default of many
// distributions) or "always". Below huge_page_min_bytes, and where mmap is unavailable, the
// plain allocator is used. Only for arrays whose pages are all written soon (a 2 MiB page is
// resident once touched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace shufl::detail {

/// Allocations of at least this many bytes go on huge pages.
inline constexpr std::size_t huge_page_min_bytes = std::size_t{1} << 20;

/// `bytes` (≥ huge_page_min_bytes) of 2 MiB-aligned anonymous memory advised for huge pages;
/// throws std::bad_alloc. Free with huge_page_free(p, bytes).
void* huge_page_alloc(std::size_t bytes);
void huge_page_free(void* p, std::size_t bytes) noexcept;

/// std::allocator, except that large arrays go on huge pages.
template <class T>
struct huge_page_allocator {
  using value_type = T;
  huge_page_allocator() noexcept = default;
  template <class U>
  huge_page_allocator(const huge_page_allocator<U>&) noexcept {}  // NOLINT: rebinding is implicit
  T* allocate(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= huge_page_min_bytes) return static_cast<T*>(huge_page_alloc(bytes));
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= huge_page_min_bytes) {
      huge_page_free(p, bytes);
    } else {
      std::allocator<T>().deallocate(p, n);
    }
  }
  template <class U>
  bool operator==(const huge_page_allocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace shufl::detail
