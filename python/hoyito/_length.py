"""The longest game that the stall rules allow: OpenSpiel's
``max_game_length``, and a bound for anyone who sizes a buffer by plies.

Every capture takes whole casas, four seeds each, off the board for good,
and a game ends at the first capture after which at most four seeds are
left on the board (RULES.md, "End of the game"). So a game that goes on
after its ``k``-th capture still has ``seeds - 4k > 4`` seeds on the board:
at most ``(seeds - 5) // 4`` captures are followed by more play. Those
captures cut a game into stretches, each running from the start or from a
capture up to the next capture or to the end: at most ``(seeds - 5) // 4 +
1 = (seeds - 1) // 4`` stretches, and one when fewer than five seeds are on
the board. The no-capture limit ``L`` ends a game at its ``L``-th ply in a
row without a capture (RULES.md, "Stalled games"), so a stretch is at most
``L`` plies long, its capture coming at the ``L``-th ply at the latest.
Passes and extra moves are plies like any other; the repetition rule only
ends games sooner.
"""

__all__ = ["max_plies"]


def max_plies(seeds_on_board, no_capture_limit):
    """The most plies a game from a position with ``seeds_on_board`` seeds on
    the board can last under a no-capture limit of ``no_capture_limit``:
    ``max(1, (seeds_on_board - 1) // 4) * no_capture_limit``. From the 2x6
    start (48 seeds, limit 200): 11 stretches of at most 200 plies, 2,200.

    Raises ``ValueError`` for the limit off (0): the repetition rule alone
    bounds a game by the number of positions, far beyond any buffer.
    """
    if no_capture_limit <= 0:
        raise ValueError(
            f"no_capture_limit = {no_capture_limit}: without the limit only the "
            "repetition rule ends a game, and no useful bound on its length follows"
        )
    return max(1, (seeds_on_board - 1) // 4) * no_capture_limit
