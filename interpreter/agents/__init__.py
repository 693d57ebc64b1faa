"""Agents that pick actions through the public API only.

    random  uniform over the legal actions
    greedy  one decision ahead: applies each action to a clone and scores the result with
            the game's ``agent.evaluate`` expression (falls back to random without one);
            its own further choices inside the same effect are looked through (depth 4).
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

    def __init__(self, seed=0, depth=4):
        self.rng = random.Random(seed)
        self.depth = depth

    def _value(self, s, me, ev, depth):
        if s.over:
            if me in s.winners:
                return 10_000 if len(s.winners) == 1 else 0
            return -10_000
        # still my decision inside the same effect (e.g. where to put the Units just bought):
        # look through it, so a move is judged by its completed effect
        if depth and s.current_player == me and s.pending["type"] != "ask":
            best = None
            for a in s.legal_actions():
                c = s.clone()
                c.apply(a)
                v = self._value(c, me, ev, depth - 1)
                best = v if best is None or v > best else best
            return best
        return ev(s, {"me": me})

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
            score = self._value(s, me, ev, self.depth)
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
