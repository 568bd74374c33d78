//! Keys left out of a written spec when they hold their default, so that agent
//! files with no enhancement print as they always did. At the bottom of the
//! agents: the spec and the kinds' option types both use it.

/// Whether a key holds its default.
pub(crate) fn is_default<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}
