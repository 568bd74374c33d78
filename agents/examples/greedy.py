#!/usr/bin/env python3
"""A greedy Hoyito agent over the hoyito process protocol, version 1.

Plays the move that captures the most seeds this turn, like the built-in
`greedy` agent (src/agents/greedy.rs): in Hoyito II and III a capture earns
another move, so a move's gain is its own capture plus the best gain of the
moves it earns, searched to the end of the turn; ties are broken at random with
the per-game seed of `newgame`. It carries its own small move simulator of
RULES.md (relay sowing, captures in fours, en passant in I, the backward chain
in II, the last four, endless sowing). Python standard library only.
"""
import random
import sys

# Positions one decision may expand before the rest of a turn counts each
# move's own capture only (as TURN_SEARCH_LIMIT in src/agents/greedy.rs).
TURN_SEARCH_LIMIT = 20000


class Rules:
    def __init__(self, variant="ii", last_four="capturer"):
        self.variant = variant
        self.last_four = last_four


def parse_position(board, side, captures):
    """`s1,..,sn/n1,..,nn S a-b` -> (board list in sowing order, side 0/1, [a, b])."""
    south, north = board.split("/")
    cells = [int(x) for x in south.split(",")] + [int(x) for x in north.split(",")]
    a, b = captures.split("-")
    return cells, (0 if side == "S" else 1), [int(a), int(b)]


def sow(board, start, variant):
    """Relay-sows board[start] in place; returns seeds captured, None if endless."""
    size = len(board)
    hand = board[start]
    board[start] = 0
    frm = start
    captured = 0
    seen = set()
    while True:
        pos = frm
        for left in range(hand - 1, -1, -1):
            pos = (pos + 1) % size
            board[pos] += 1
            if variant == "i" and board[pos] == 4 and left > 0:
                board[pos] = 0
                captured += 4
        count = board[pos]
        if count == 4:
            board[pos] = 0
            captured += 4
            if variant == "ii":
                back = (pos - 1) % size
                while board[back] == 4:
                    board[back] = 0
                    captured += 4
                    back = (back - 1) % size
            return captured
        if count == 1:
            return captured
        hand = count
        board[pos] = 0
        frm = pos
        state = (tuple(board), frm, hand)
        if state in seen:
            return None
        seen.add(state)


def children(board, side, caps, rules):
    """Yields (hole number, board, side to move, captures, extra move) per legal sowing."""
    n = len(board) // 2
    if sum(board) == 0:
        return
    for i in range(n):
        start = i + n * side
        if board[start] == 0:
            continue
        nb = list(board)
        captured = sow(nb, start, rules.variant)
        if captured is None:
            continue
        nc = list(caps)
        nc[side] += captured
        nside = 1 - side
        extra = False
        if captured > 0:
            left = sum(nb)
            if left <= 4:
                taker = {"S": 0, "N": 1}.get(rules.last_four, side)
                nc[taker] += left
                nb = [0] * len(nb)
            elif rules.variant in ("ii", "iii"):
                nside = side
                extra = True
        yield i + 1, nb, nside, nc, extra


class TurnSearch:
    """The best gain of the rest of a turn, memoised per board."""

    def __init__(self, rules):
        self.rules = rules
        self.memo = {}
        self.expanded = 0

    def gain(self, board, side, caps):
        key = (tuple(board), side)
        if key in self.memo:
            return self.memo[key]
        self.expanded += 1
        deeper = self.expanded < TURN_SEARCH_LIMIT
        everything = sum(board)
        best = 0
        for _, nb, nside, nc, extra in children(board, side, caps, self.rules):
            if best == everything:
                break
            g = nc[side] - caps[side]
            if extra and deeper:
                g += self.gain(nb, nside, nc)
            best = max(best, g)
        self.memo[key] = best
        return best


def greedy_move(board, side, caps, legal, rules, rng):
    """The legal move of the highest turn gain, ties drawn at random."""
    if legal == ["pass"]:
        return "pass"
    search = TurnSearch(rules)
    best, best_gain = [], -1
    for number, nb, nside, nc, extra in children(board, side, caps, rules):
        if str(number) not in legal:
            continue
        g = nc[side] - caps[side]
        if extra:
            g += search.gain(nb, nside, nc)
        if g > best_gain:
            best, best_gain = [], g
        if g == best_gain:
            best.append(str(number))
    # Should the simulator disagree with the harness, stay legal.
    return rng.choice(best or legal)


def main():
    rng = random.Random(0)
    rules = Rules()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "hoyito":
            print("ready py-greedy", flush=True)
        elif words[0] == "newgame":
            rules = Rules(variant=words[1])
            for word in words[5:]:
                key, _, value = word.partition("=")
                if key == "seed":
                    rng = random.Random(int(value))
                elif key == "last_four":
                    rules.last_four = value
        elif words[0] == "go":
            board, side, caps = parse_position(words[1], words[2], words[3])
            legal = [m for m in words[words.index("legal") + 1:] if "=" not in m]
            print("move " + greedy_move(board, side, caps, legal, rules, rng), flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
