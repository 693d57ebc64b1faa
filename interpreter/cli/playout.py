"""One game played to its end by agents: the loop that play (without people), simulate, the
benchmarks and the playout tools share."""
from __future__ import annotations

import time

from ..errors import EngineError


def playout(game, agents: dict, seed: int, options: dict | None = None, players=None, on_action=None,
            max_actions: int | None = None) -> dict:
    """Play one game from `seed`: `agents` maps each seat to an agent (anything with act(state)).
    on_action(state, action) is called before each action is applied. Returns the result: the
    final state, its winners, victory and scores, the number of actions and the seconds taken.
    A rule failing is an EngineError that names the seed and the action number."""
    n = 0
    t = time.perf_counter()
    st = None
    try:
        st = game.new_game(seed=seed, options=options, players=players)
        while not st.over and (max_actions is None or n < max_actions):
            a = agents[st.current_player].act(st)
            if on_action is not None:
                on_action(st, a)
            st.apply(a)
            n += 1
    except EngineError as exc:
        raise EngineError(f"game with seed {seed}, after {n} actions: {exc}") from None
    return {"state": st, "seed": seed, "winners": list(st.winners), "victory": st.victory, "scores": st.scores,
            "actions": n, "seconds": time.perf_counter() - t}
