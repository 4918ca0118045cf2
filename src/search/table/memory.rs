//! Memory for the transposition table: zero-filled, and on Linux backed by transparent
//! huge pages where the kernel allows it, because random probes into hundreds of MB
//! otherwise spend much of their time on TLB misses.

use std::ops::{Deref, DerefMut};

/// Types for which the all-zero bit pattern is a valid value.
///
/// # Safety
/// Implementors must be valid when every byte is zero (integers, atomics, arrays of them).
pub(crate) unsafe trait Zeroable: Sized {}

/// A fixed-length, zero-initialised slice of `T` in its own memory mapping.
pub(crate) struct ZeroedSlice<T: Zeroable> {
    ptr: *mut T,
    len: usize,
    bytes: usize,
}

// SAFETY: the slice owns its memory exclusively; sharing follows `T`'s own rules.
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: as above; `&ZeroedSlice` only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zeroed elements (at least 1), or the system's reason why not (out of memory,
    /// an address space limit).
    pub(crate) fn new(len: usize) -> std::io::Result<Self> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::OutOfMemory, "table size overflows")
        })?;
        // SAFETY: an anonymous private mapping is zero-filled by the kernel and aligned to
        // a page, which satisfies the alignment of any `T` used here (<= 4096). It is
        // unmapped exactly once, in `drop`, with the same length.
        unsafe {
            let ptr = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if ptr == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            {
                // Advice only: without huge pages the table still works, just slower.
                libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE);
            }
            let slice: ZeroedSlice<T> = ZeroedSlice {
                ptr: ptr.cast(),
                len,
                bytes,
            };
            // Touch every page now so that page faults (and huge page compaction) are paid
            // at start-up, not inside the first timed solve. One write per 4 KB page is
            // enough: the kernel hands out zeroed pages.
            for offset in (0..bytes).step_by(4096) {
                std::ptr::write_volatile(slice.ptr.cast::<u8>().add(offset), 0);
            }
            Ok(slice)
        }
    }

    /// Sets every element back to zero.
    pub(crate) fn zero(&mut self) {
        // SAFETY: `ptr` is valid for `bytes` writable bytes, and zero is a valid `T`.
        unsafe { std::ptr::write_bytes(self.ptr.cast::<u8>(), 0, self.bytes) }
    }
}

impl<T: Zeroable> Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed or since written) elements.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Zeroable> DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the mapping was created in `new` with this length and is unmapped once.
        unsafe {
            libc::munmap(self.ptr.cast(), self.bytes);
        }
    }
}

/// Starts loading the cache line of `p` (a hint: no effect on memory, none off x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint with no memory effects; the reference is valid.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (p as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
