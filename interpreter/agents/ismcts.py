"""Information-set Monte Carlo tree search (single observer: SO-ISMCTS, Cowling, Powley and
Whitehouse 2012), through the public API only.

One tree for the player to move (the observer), its nodes keyed by action ids. Each iteration:

1. *determinize*: a world the observer cannot tell from the true one
   (``state.resample(observer, rng)``: what the observer cannot see is dealt anew), drawn with a
   random source that puts each pool of hidden items in a canonical order before dealing it, so
   the world depends on what the observer knows and on the random draws alone, never on how the
   hidden items actually lie (``CanonicalRandom``; tests/test_ismcts.py checks it);
2. *select* down the tree by UCB1 over the actions legal in this world, counting a child's
   *availability* (how often it was legal when its parent was visited) rather than the parent's
   visits, as information sets make actions come and go between worlds;
3. *expand* one untried action; *roll out* uniformly at random for at most ``depth`` actions;
4. *score* the end: the result (1 / 0 / -1 per player, a side's win counting for each of its
   players) when the game ended, else the game's ``agent.evaluate`` squashed to (-1, 1);
5. back up each player's score into the nodes where that player chose.

The move played is the root's most visited child. Budget: ``iterations``, or ``seconds`` of
thinking (whichever comes first when both are given). Registered as ``ismcts`` (200 iterations)
and ``ismcts:N`` (N iterations); ``ISMCTSAgent(seed, seconds=0.5)`` gives a time budget.

The samples are the engine's: ``resample`` deals each unseen item anew among every unseen place
of the deck it started in and with the same back (an opponent's hand and the deck it was drawn
from are one pool), so in Kuhn poker the other player's card is either card the observer does not
hold (tests/test_ismcts.py).
"""
from __future__ import annotations

import math
import random
import time

from . import _TreeSearch, playout_score


class CanonicalRandom(random.Random):
    """A random source whose shuffles first sort what they shuffle: a shuffled pool of hidden
    items then depends on which items the pool holds and on the draws, not on their order in the
    true state (which the observer does not know)."""

    def shuffle(self, x):
        x.sort(key=_key)
        super().shuffle(x)


def _key(v):
    return (str(type(v).__name__), str(v))


class _Node:
    __slots__ = ("n", "avail", "w", "kids", "mover")

    def __init__(self, mover=None):
        self.n = 0          # visits
        self.avail = 0      # times this node's action was legal when its parent was visited
        self.w = {}         # player -> summed score
        self.kids = {}      # action id -> _Node
        self.mover = mover  # who chose the action leading here


class ISMCTSAgent(_TreeSearch):
    name = "ismcts"

    def __init__(self, seed=0, iterations=200, seconds=None, depth=20, c=0.8):
        if iterations is None and seconds is None:
            raise ValueError("give ismcts a budget: iterations, seconds or both")
        self.rng = CanonicalRandom(seed)
        self.iterations, self.seconds, self.depth, self.c = iterations, seconds, depth, c
        self.last_iterations = 0

    def search(self, state, actions, me, players, ev):
        """The most visited action after the budget (determinize: with CanonicalRandom)."""
        root = _Node()
        rng = self.rng
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if deadline is not None and it and time.perf_counter() >= deadline:
                break
            it += 1
            s = self.determinize(state, me)
            node, path = root, [root]
            # selection and expansion
            while not s.over:
                legal = s.legal_actions()
                mover = s.current_player
                kids = node.kids
                untried = [a for a in legal if a.id not in kids]
                for a in legal:
                    k = kids.get(a.id)
                    if k is not None:
                        k.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = kids[a.id] = _Node(mover)
                    child.avail = 1
                    s.apply(a)
                    path.append(child)
                    break
                best, best_u = None, None
                for a in legal:
                    k = kids[a.id]
                    u = k.w.get(mover, 0.0) / k.n + self.c * math.sqrt(math.log(k.avail) / k.n)
                    if best_u is None or u > best_u:
                        best, best_u = a, u
                s.apply(best)
                node = kids[best.id]
                path.append(node)
            # rollout
            for _ in range(self.depth):
                if s.over:
                    break
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
            result = playout_score(s, players, ev)
            for n in path:
                n.n += 1
                for p, v in result.items():
                    n.w[p] = n.w.get(p, 0.0) + v
        self.last_iterations = it
        legal_ids = {a.id: a for a in actions}
        kids = {k: v for k, v in root.kids.items() if k in legal_ids}
        if not kids:
            return actions[rng.randrange(len(actions))]
        best_id = max(kids, key=lambda k: (kids[k].n, kids[k].w.get(me, 0.0), k))
        return legal_ids[best_id]
