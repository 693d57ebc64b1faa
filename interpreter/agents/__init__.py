"""Agents that pick actions through the public API only.

    random  uniform over the legal actions
    greedy  one decision ahead: applies each action to a clone (whose chance is an imagined
            future, not the real one) and scores the result with
            the game's ``agent.evaluate`` expression (falls back to random without one);
            its own further choices inside the same effect are looked through (depth 4).
            It looks at a clone of the true state, so it is not a fair hidden-information
            player; it is a cheap, stronger baseline for simulations.
    mcts    open-loop MCTS on worlds resampled for the player to move (MCTSAgent below)
    ismcts  single-observer information-set MCTS, whose sampled worlds depend only on what the
            player sees (agents/ismcts.py)
"""
from __future__ import annotations

import random

from ..errors import EngineError, explain_exception


def _evaluate(ev, state, player):
    """The game's agent.evaluate for a player; a failing rule is an EngineError, as in play."""
    state.work = 0  # an evaluation has a work budget of its own
    try:
        return ev(state, {"me": player})
    except Exception as exc:
        raise EngineError(f"the game's agent: evaluate: failed: {explain_exception(exc)}") from None


def outcome(state, player) -> float:
    """How an ended game came out for a player: 1 when the player's side won alone (a team's
    win is a win for each of its players), 0 when it shared the victory with another side
    (or nobody won), -1 when it lost."""
    if player not in state.winners:
        return -1.0 if state.winners else 0.0
    side = next((ms for ms in state.rules.teams_of(state.seats).values() if player in ms), [player])
    return 1.0 if all(w in side for w in state.winners) else 0.0


def playout_score(state, players, ev) -> dict:
    """What a search playout ending at `state` is worth to each player: the result (``outcome``)
    when the game is over, else the game's agent.evaluate squashed to (-1, 1) (0 without one)."""
    if state.over:
        return {p: outcome(state, p) for p in players}
    if ev is None:
        return {p: 0.0 for p in players}
    out = {}
    for p in players:
        v = _evaluate(ev, state, p)
        out[p] = v / (abs(v) + 10.0)
    return out


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
            return 10_000 * outcome(s, me)
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
        return _evaluate(ev, s, me)

    def act(self, state):
        actions = state.legal_actions()
        ev = state.rules.evaluate
        if ev is None or len(actions) == 1:
            return self.rng.choice(actions)
        me = state.current_player
        best, best_score = [], None
        # chance in the copies is an imagined future, the same for every action weighed: the
        # agent must not foresee the real dice (the state's random source)
        future = self.rng.getrandbits(64)
        for a in actions:
            s = state.clone()
            s.rng = future
            s.apply(a)
            score = self._value(s, me, ev, self.depth)
            if best_score is None or score > best_score:
                best, best_score = [a], score
            elif score == best_score:
                best.append(a)
        return self.rng.choice(best)


class _TreeSearch:
    """What the search agents share: worlds resampled for the player to move, and no search when
    only one action is legal. A subclass's ``search`` picks among the legal actions."""

    def determinize(self, state, player):
        """A world `player` cannot tell from the true one (GameState.resample)."""
        return state.resample(player, self.rng)

    def act(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return self.search(state, actions, state.current_player, state.seats, state.rules.evaluate)


class MCTSAgent(_TreeSearch):
    """Open-loop Monte Carlo tree search over action ids, on determinized copies.

    Each iteration copies the state and *determinizes* it for the player to move, resampling
    what that player cannot see: another player's items in private zones, in hidden zones or
    lying face down are dealt anew among all those places, owner by owner and item type by item
    type (a hand, a card chosen in secret and the cards set aside are one pool; a hidden piece
    could be any of that owner's hidden pieces); unowned hidden or face-down items are shuffled
    within their zone. Pieces that suspended effects or hidden variables name follow their
    places. (Counts per zone and everything public stay: a weak form of information-set
    MCTS.) It then walks the tree by action ids with UCB1,
    expands one node, plays up to ``depth`` random actions and scores the end with the
    game's ``agent.evaluate`` (squashed to [-1, 1]) or the real result.
    """

    name = "mcts"

    def __init__(self, seed=0, iterations=150, depth=12, c=1.2):
        self.rng = random.Random(seed)
        self.iterations, self.depth, self.c = iterations, depth, c

    def search(self, state, actions, me, players, ev):
        import math

        root = {"n": 0, "w": {}, "kids": {}}
        for _ in range(self.iterations):
            s = self.determinize(state, me)
            node, path = root, [root]
            # selection / expansion
            while not s.over:
                legal = s.legal_actions()
                untried = [a for a in legal if a.id not in node["kids"]]
                mover = s.current_player
                if untried:
                    a = self.rng.choice(untried)
                    s.apply(a)
                    child = {"n": 0, "w": {}, "kids": {}, "mover": mover}
                    node["kids"][a.id] = child
                    path.append(child)
                    break
                logn = math.log(node["n"] + 1)
                best, best_u = None, None
                for a in legal:
                    k = node["kids"][a.id]
                    u = k["w"].get(mover, 0.0) / (k["n"] or 1) + self.c * math.sqrt(logn / (k["n"] or 1))
                    if best_u is None or u > best_u:
                        best, best_u = a, u
                s.apply(best)
                node = node["kids"][best.id]
                path.append(node)
            # rollout
            for _ in range(self.depth):
                if s.over:
                    break
                s.apply(self.rng.choice(s.legal_actions()))
            result = playout_score(s, players, ev)
            for n in path:
                n["n"] += 1
                for p, v in result.items():
                    n["w"][p] = n["w"].get(p, 0.0) + v
        kids = root["kids"]
        best_id = max(kids, key=lambda k: (kids[k]["n"], kids[k]["w"].get(me, 0.0)))
        return next(a for a in actions if a.id == best_id)


from .ismcts import ISMCTSAgent  # noqa: E402 (it uses _TreeSearch and playout_score above)

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent, "ismcts": ISMCTSAgent}


def agent_known(name: str) -> bool:
    """True for an agent name, optionally with a number: greedy:1 (look-ahead depth), mcts:400
    (iterations)."""
    base, _, arg = str(name).partition(":")
    return base in AGENTS and (not arg or (arg.isascii() and arg.isdigit() and 1 <= int(arg) <= 1_000_000))


def make_agent(name: str, seed: int = 0):
    if not agent_known(name):
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)} (greedy:DEPTH, "
                         f"mcts:ITERATIONS, ismcts:ITERATIONS), human (play only)")
    base, _, arg = name.partition(":")
    if not arg or base == "random":
        return AGENTS[base](seed)
    return AGENTS[base](seed, **({"depth": int(arg)} if base == "greedy" else {"iterations": int(arg)}))
