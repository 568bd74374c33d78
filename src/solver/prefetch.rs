//! A software prefetch: the hint that a cache line will be read soon, for the
//! loops whose next memory accesses are known before the processor could
//! guess them (the solver's successor lists, the search's table entries).

/// Asks the processor to bring the cache line at `p` nearer; a hint only,
/// that never faults (the address may lie past the end of its allocation).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never dereferences its address architecturally.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
