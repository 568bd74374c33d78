"""A PettingZoo AEC loop over Hoyito III: random legal actions from the
masks, the board drawn at the end.

    pip install ./python pettingzoo gymnasium && python examples/python/pettingzoo_loop.py
"""

import numpy as np

import hoyito

env = hoyito.pettingzoo.env(variant="iii", holes=6, render_mode="ansi")
env.reset(seed=42)
rng = np.random.default_rng(42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        print(agent, "reward", reward, info.get("result"))
        action = None
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
    env.step(action)
print(env.render())
env.close()
