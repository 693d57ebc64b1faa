"""Agents that pick actions through the public API only.

    random  uniform over the legal actions
    greedy  one decision ahead: applies each action to a clone and scores the result with
            the game's ``agent.evaluate`` expression (falls back to random without one).
            It looks at a clone of the true state, so it is not a fair hidden-information
            player; it is a cheap, stronger baseline for simulations.
"""
from __future__ import annotations

import random


class RandomAgent:
    name = "random"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def act(self, state):
        return self.rng.choice(state.legal_actions())


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def act(self, state):
        actions = state.legal_actions()
        ev = state.rules.evaluate
        if ev is None or len(actions) == 1:
            return self.rng.choice(actions)
        me = state.current_player
        best, best_score = [], None
        for a in actions:
            s = state.clone()
            s.apply(a)
            if s.over:
                score = 10_000 if me in s.winners and len(s.winners) == 1 else (0 if me in s.winners else -10_000)
            else:
                score = ev(s, {"me": me})
            if best_score is None or score > best_score:
                best, best_score = [a], score
            elif score == best_score:
                best.append(a)
        return self.rng.choice(best)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int = 0):
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}, human (play only)") from None
