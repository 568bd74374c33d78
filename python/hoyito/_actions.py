"""Actions as Gymnasium's ``Discrete`` space takes them: the environments
accept integers only, so that ``step(3.5)``, ``step("3")`` or ``step(True)``
is an error rather than a move to hole 3."""

import numbers


def action_index(action):
    """``action`` as an ``int``: a Python or numpy integer, or a 0-d numpy
    integer array. Anything else (floats, strings, bools) is a TypeError."""
    if isinstance(action, bool) or type(action).__name__ == "bool_":
        raise TypeError(f"an action is an integer (a hole index), got the bool {action!r}")
    if isinstance(action, numbers.Integral):
        return int(action)
    dtype = getattr(action, "dtype", None)
    if getattr(action, "shape", None) == () and dtype is not None and dtype.kind in "iu":
        return int(action)
    raise TypeError(
        f"an action is an integer (a hole index), got {type(action).__name__} {action!r}"
    )
