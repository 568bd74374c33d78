"""A one-ply look-ahead agent (the move that gains most seeds now, counting
an extra move as worth a seed), matched against the roster's random agent
through the harness: the same pairs, statistics and report as `hoyito match`.

    python examples/python/lookahead_agent.py
"""

import hoyito


def lookahead(game):
    me, best, best_score = game.to_move, None, None
    for move in game.legal_moves():
        child = game.clone()
        child.play(move)
        score = child.captures[me] - game.captures[me]
        score += 1 if child.to_move == me and not child.is_over() else 0
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


summary = hoyito.match(lookahead, "random", variant="ii", holes=6, pairs=50, out="runs/py-lookahead", force=True)
pairing = summary["settings"][0]["pairings"][0]
print(pairing["agent"], "vs", pairing["opponent"], pairing["wdl"], "score", pairing["estimate"]["score"]["value"])
print("report:", summary["out"] + "/report.md")
