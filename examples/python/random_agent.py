"""A random agent: plays one game of Hoyito II on 2x6 against itself.

    pip install ./python && python examples/python/random_agent.py
"""

import random

import hoyito


def random_agent(game, rng=random.Random(1)):
    return rng.choice(game.legal_moves())


game = hoyito.Game("ii", holes=6)
while not game.is_over():
    game.play(random_agent(game))
print(game.diagram())
print(game.result())
