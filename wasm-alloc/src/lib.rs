//! The wasm's global allocator: every block is a power of two of at least 8 bytes, and each size
//! has its free list. Allocating pops that list or cuts a new block off the end of the heap
//! (growing the memory); freeing pushes the block on its list. Both are O(1), and the whole is a
//! few hundred bytes of wasm.
//!
//! Memory stays bounded in a long-lived client: a freed block is reused by the next allocation of
//! its size, so the heap is at most the sum, over the sizes, of the most bytes of that size ever
//! live at once (each block at most twice what was asked). Blocks are not merged or split: a
//! dashboard that reads one 200 KB page after another reuses one 256 KB block; what it cannot do
//! is reuse the block of a big answer for many small values (that memory stays with its size).
//!
//! Only for a single-threaded wasm (no `atomics`), which is what the package builds.
#![no_std]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr::null_mut;

/// The wasm page.
const PAGE: usize = 65536;
/// The smallest block: room for the free list's link, and 8-byte alignment.
const MIN: usize = 8;

/// The allocator; `SizeClasses::new()` in a `#[global_allocator]` static.
pub struct SizeClasses(UnsafeCell<State>);

struct State {
    /// `free[k]`: the first free block of 2^k bytes (0: none); each holds the address of the next.
    free: [usize; usize::BITS as usize],
    /// The heap's unused end: from `next` to `end` (the memory's end after our last growth).
    next: usize,
    end: usize,
}

// SAFETY: the wasm is single-threaded (the crate is used without `atomics`), so no two calls run at once.
unsafe impl Sync for SizeClasses {}

impl SizeClasses {
    /// An allocator with an empty heap: the first allocation grows the memory.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        SizeClasses(UnsafeCell::new(State {
            free: [0; usize::BITS as usize],
            next: 0,
            end: 0,
        }))
    }
}

/// The size class of a layout: log2 of its block size, or `None` when no block can hold it.
#[inline]
fn class(layout: &Layout) -> Option<usize> {
    let size = layout.size().max(layout.align()).max(MIN);
    Some(size.checked_next_power_of_two()?.trailing_zeros() as usize)
}

/// `x` rounded up to `align` (a power of two), or `None` past the address space.
#[inline]
fn align_up(x: usize, align: usize) -> Option<usize> {
    Some(x.checked_add(align - 1)? & !(align - 1))
}

impl State {
    /// A new block of `size` bytes aligned to `align`, cut off the heap's end.
    fn cut(&mut self, size: usize, align: usize) -> Option<usize> {
        let mut start = align_up(self.next, align)?;
        if start.checked_add(size)? > self.end {
            let need = size.checked_add(align)?.div_ceil(PAGE);
            // Grown by a quarter of the heap at least (O(log n) growths, not one a page or so):
            // each growth of a large memory costs the host (V8 answers it with full collections
            // that free nothing; CHANGELOG.md has the figures). Pages grown but not touched take
            // no physical memory.
            // (A host that refuses that much may still give what is needed.)
            let mut pages = need.max(self.end / PAGE / 4);
            let prev = match grow(pages) {
                Some(prev) => prev,
                None => {
                    pages = need;
                    grow(need)?
                }
            };
            let base = prev.checked_mul(PAGE)?;
            // Something else grew the memory since (the host may): start over on the new pages.
            if base != self.end {
                self.next = base;
            }
            self.end = base + pages * PAGE;
            start = align_up(self.next, align)?;
        }
        self.next = start + size;
        Some(start)
    }
}

/// Grows the memory by `pages`: the page count before, or `None` when the host refuses.
#[cfg(target_arch = "wasm32")]
fn grow(pages: usize) -> Option<usize> {
    let prev = core::arch::wasm32::memory_grow::<0>(pages);
    (prev != usize::MAX).then_some(prev)
}
/// In the native tests, an arena stands in for the wasm memory (page numbers of its addresses).
#[cfg(all(test, not(target_arch = "wasm32")))]
fn grow(pages: usize) -> Option<usize> {
    tests::arena_grow(pages)
}
/// Natively, outside the tests, there is no wasm memory to grow.
#[cfg(all(not(test), not(target_arch = "wasm32")))]
fn grow(_pages: usize) -> Option<usize> {
    None
}

unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: single-threaded, and no call below re-enters the allocator.
        let s = unsafe { &mut *self.0.get() };
        let Some(k) = class(&layout) else {
            return null_mut();
        };
        let head = s.free[k];
        // A freed block is aligned to what its first owner asked; a rare stricter request
        // (align > 8) that it does not meet gets a new block instead.
        if head != 0 && head & (layout.align() - 1) == 0 {
            // SAFETY: `head` is a free block of 2^k >= 8 bytes whose first word links the list.
            s.free[k] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        s.cut(1 << k, layout.align().max(MIN))
            .map_or(null_mut(), |at| at as *mut u8)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as in `alloc`.
        let s = unsafe { &mut *self.0.get() };
        // The layout it was allocated with, so its class exists.
        if let Some(k) = class(&layout) {
            // SAFETY: the block is ours again, at least 8 bytes and 8-aligned: it holds the link.
            unsafe { *(ptr as *mut usize) = s.free[k] };
            s.free[k] = ptr as usize;
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's promises: `new_size` > 0 and, rounded to `align`, not past isize::MAX.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // The same block still fits: nothing to move.
        if class(&layout) == class(&new) {
            return ptr;
        }
        // SAFETY: as the trait's own `realloc`: a new block, the bytes copied, the old one freed.
        unsafe {
            let to = self.alloc(new);
            if !to.is_null() {
                core::ptr::copy_nonoverlapping(ptr, to, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            to
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::cell::Cell;
    use std::vec::Vec;

    /// Pages the arena holds; a growth past them is refused, as a host would.
    const ARENA_PAGES: usize = 64;

    std::thread_local! {
        /// The arena's first page number and the pages handed out.
        static ARENA: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    }

    pub(super) fn arena_grow(pages: usize) -> Option<usize> {
        ARENA.with(|a| {
            let (first, used) = a.get();
            if first == 0 {
                // Leaked on purpose: the addresses stay valid for the test thread.
                let mem = std::vec![0u8; (ARENA_PAGES + 1) * PAGE].leak();
                a.set(((mem.as_ptr() as usize).div_ceil(PAGE), 0));
                return arena_grow(pages);
            }
            (used + pages <= ARENA_PAGES).then(|| {
                a.set((first, used + pages));
                first + used
            })
        })
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn blocks_are_aligned_distinct_and_keep_their_bytes() {
        let a = SizeClasses::new();
        let mut live = Vec::new();
        for (i, (size, align)) in [
            (1, 1),
            (7, 1),
            (8, 8),
            (9, 4),
            (100, 8),
            (3000, 16),
            (64, 64),
            (5, 32),
        ]
        .into_iter()
        .cycle()
        .take(200)
        .enumerate()
        {
            let l = layout(size, align);
            let p = unsafe { a.alloc(l) };
            assert!(!p.is_null());
            assert_eq!(p as usize % align, 0, "{size} bytes aligned to {align}");
            unsafe { p.write_bytes(i as u8, size) };
            live.push((p, l, i as u8));
        }
        for &(p, l, byte) in &live {
            let bytes = unsafe { core::slice::from_raw_parts(p, l.size()) };
            assert!(
                bytes.iter().all(|&b| b == byte),
                "a block was overwritten by another"
            );
        }
        for (p, l, _) in live {
            unsafe { a.dealloc(p, l) };
        }
    }

    #[test]
    fn a_steady_workload_reuses_its_blocks_and_the_heap_stops_growing() {
        let a = SizeClasses::new();
        let sizes = [12, 40, 40, 200, 1000, 70_000, 5, 300];
        let round = |a: &SizeClasses| {
            let blocks: Vec<_> = sizes
                .iter()
                .map(|&n| (unsafe { a.alloc(layout(n, 8)) }, layout(n, 8)))
                .collect();
            for (p, l) in blocks.into_iter().rev() {
                unsafe { a.dealloc(p, l) };
            }
        };
        round(&a);
        let end = unsafe { (*a.0.get()).next };
        for _ in 0..1000 {
            round(&a);
        }
        assert_eq!(
            unsafe { (*a.0.get()).next },
            end,
            "the heap grew under a repeated workload"
        );
    }

    #[test]
    fn realloc_keeps_the_block_within_its_class_and_moves_the_bytes_beyond() {
        let a = SizeClasses::new();
        let l = layout(20, 4);
        let p = unsafe { a.alloc(l) };
        unsafe { p.write_bytes(7, 20) };
        assert_eq!(
            unsafe { a.realloc(p, l, 32) },
            p,
            "20 and 32 bytes are one 32-byte block"
        );
        let q = unsafe { a.realloc(p, layout(32, 4), 33) };
        assert_ne!(q, p);
        let bytes = unsafe { core::slice::from_raw_parts(q, 20) };
        assert!(bytes.iter().all(|&b| b == 7));
        // The old block is free again: the next 32-byte block is it.
        assert_eq!(unsafe { a.alloc(layout(30, 4)) }, p);
    }

    #[test]
    fn what_cannot_be_had_is_null_and_the_allocator_stays_usable() {
        let a = SizeClasses::new();
        let small = unsafe { a.alloc(layout(16, 8)) };
        assert!(!small.is_null());
        assert!(
            unsafe { a.alloc(layout(ARENA_PAGES * PAGE, 8)) }.is_null(),
            "more than the host gives"
        );
        assert!(
            unsafe { a.alloc(layout(isize::MAX as usize - 8, 8)) }.is_null(),
            "no class that large"
        );
        assert!(!unsafe { a.alloc(layout(16, 8)) }.is_null());
    }
}
