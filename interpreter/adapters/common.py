"""What the OpenSpiel and PettingZoo adapters share: which game, its action space, its returns and
the tensors built from what a player sees. Nothing here knows a game.

Action space. An action is one of a fixed number of slots (``num_actions``, 4096 by default):
the slot of an action id is ``crc32(id) % num_actions``; when two actions legal at the same
moment fall on one slot, the one later in id order takes the next free slot. So the same id is
the same number in every process and every run (no table to build or ship), whatever game a
user writes; only a clash between two actions legal together moves one of them by a slot.

Returns. ``outcome``: 1 to each player of the side that won alone (a team's win is a win for
each of its players), -1 to the others, 0 to all when the victory is shared, nobody wins or the
game is cut at ``max_actions``. ``scores``: the numbers the game's end gives (``end_game``'s
scores, e.g. the chips won in Kuhn poker). ``auto`` (the default) takes the scores when the
game's ends give zero-sum scores, as found by a few seeded random games when the adapter loads
the game; otherwise the outcome.

Tensors. A fixed layout per game, from the declarations (players, items, zones, piece kinds,
variables) and filled from ``state.view(player)`` only: where each item is seen (or that it is
unseen), the slot of an item in a tableau, how many items each zone holds and how many of them
are unseen, pieces per kind/owner/location, every variable (set, numeric value, a hashed one-hot
of a text value), whose decision it is, and the result. The information-state tensor adds a
hashed bag of the log lines the player has read.
"""
from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass

import numpy as np

DEFAULT_NUM_ACTIONS = 4096
LOG_BUCKETS = 256
TEXT_BUCKETS = 8
OTHER_VAR_BUCKETS = 32

_GAMES: dict = {}
_CONTEXTS: dict = {}


_CRC: dict = {}


def crc(text: str) -> int:
    """A hash that is the same in every process (Python's hash() of a text is salted)."""
    h = _CRC.get(text)
    if h is None:
        if len(_CRC) > 200_000:
            _CRC.clear()
        h = _CRC[text] = zlib.crc32(text.encode("utf-8"))
    return h


def load_cached(name_or_path: str, mods=()):
    """A loaded game, once per process (loading compiles the rules)."""
    from .. import load_game

    key = (str(name_or_path), tuple(mods))
    g = _GAMES.get(key)
    if g is None:
        g = _GAMES[key] = load_game(str(name_or_path), mods=tuple(mods))
    return g


# ------------------------------------------------------------------ options as one text
def parse_options(text) -> dict:
    """'name:value;name:value' (values read as YAML scalars: 3, true, random) -> {name: value}.
    A dict is returned as it is."""
    from ..loading.yamlread import scalar

    if isinstance(text, dict):
        return dict(text)
    out = {}
    for part in str(text or "").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"option {part!r}: write name:value")
        try:
            out[name.strip()] = scalar(value.strip()) if value.strip() else True
        except ValueError as exc:
            raise ValueError(f"option {name.strip()}: {value.strip()!r} is not a value ({exc})") from None
    return out


def options_text(options: dict) -> str:
    return ";".join(f"{k}:{_scalar(v)}" for k, v in sorted((options or {}).items()))


def _scalar(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def mods_tuple(mods) -> tuple:
    if isinstance(mods, str):
        return tuple(m for m in mods.split(";") if m)
    return tuple(mods or ())


@dataclass(frozen=True)
class Spec:
    """Which game and how: everything the adapters need to rebuild it in another process."""
    game: str
    mods: tuple = ()
    options: tuple = ()      # sorted (name, value) pairs
    players: int = 0         # 0: the game's default number
    max_actions: int = 0     # 0: no cap; else the game ends (no winner) after this many actions
    num_actions: int = DEFAULT_NUM_ACTIONS
    returns: str = "auto"    # auto | outcome | scores
    max_return: float = 0.0  # scores: the largest payoff (0: as seen in the probe games)

    @classmethod
    def make(cls, game, mods=(), options=None, players=None, max_actions=0, num_actions=DEFAULT_NUM_ACTIONS,
             returns="auto", max_return=0.0) -> "Spec":
        if returns not in ("auto", "outcome", "scores"):
            raise ValueError(f"returns is auto, outcome or scores, not {returns!r}")
        if int(num_actions) < 2:
            raise ValueError(f"num_actions must be 2 or more, not {num_actions}")
        if int(max_actions) < 0:
            raise ValueError(f"max_actions must be 0 (no cap) or more, not {max_actions}")
        return cls(str(game), mods_tuple(mods), tuple(sorted(parse_options(options).items())),
                   int(players or 0), int(max_actions or 0), int(num_actions), returns, float(max_return or 0))


def context(spec: Spec) -> "Context":
    c = _CONTEXTS.get(spec)
    if c is None:
        c = _CONTEXTS[spec] = Context(spec)
    return c


class ActionCodec:
    """Action ids <-> slots 0..n-1 (see the module's doc)."""

    def __init__(self, n: int):
        self.n = int(n)

    def slot(self, aid: str) -> int:
        return crc(aid) % self.n

    def table(self, ids) -> dict:
        """{slot: id} for the actions legal together."""
        ids = sorted(ids)
        if len(ids) > self.n:
            raise ValueError(f"{len(ids)} legal actions do not fit in {self.n} action slots; "
                             f"load the game with a larger num_actions")
        out = {}
        for aid in ids:
            s = crc(aid) % self.n
            while s in out:
                s = (s + 1) % self.n
            out[s] = aid
        return out


class Context:
    """A game loaded for the adapters: seats, action codec, tensor layout, returns."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.game = load_cached(spec.game, spec.mods)
        self.rules = self.game.rules
        self.players_arg = spec.players or None
        self.seats = tuple(self.game.seating(self.players_arg))
        self.index = {p: i for i, p in enumerate(self.seats)}
        self.options = dict(spec.options)
        self.game.new_game(seed=0, options=self.options, players=self.players_arg)  # ValueError if bad
        self.teams = self.game.teams(self.players_arg)
        self.codec = ActionCodec(spec.num_actions)
        self.encoder = ViewEncoder(self.rules, self.seats)
        self.perfect_information = _perfect_information(self.rules)
        self.returns_mode, self.max_return = self._returns_mode()

    # -- states
    def new_state(self, seed: int):
        return self.game.new_game(seed=int(seed), options=self.options, players=self.players_arg)

    def name_key(self) -> str:
        """A short name for the game and its mods, for registries."""
        base = "".join(ch if ch.isalnum() else "_" for ch in self.rules.name)
        mods = "".join("_" + "".join(ch if ch.isalnum() else "_" for ch in str(m).rstrip("/").split("/")[-1])
                       for m in self.spec.mods)
        return base + mods

    # -- returns
    def _returns_mode(self):
        spec = self.spec
        if spec.returns == "outcome":
            return "outcome", 1.0
        seen, zero_sum, biggest = self._probe()
        if spec.returns == "scores":
            bound = spec.max_return or biggest
            if not bound:
                raise ValueError(f"returns=scores: no game of {self.rules.name} ended with scores in the probe "
                                 f"games; give max_return")
            return "scores", float(bound)
        if seen and zero_sum:
            return "scores", float(spec.max_return or biggest or 1.0)
        return "outcome", 1.0

    def _probe(self, games: int = 12, cap: int = 300):
        """Seeded random games (cut at `cap` actions): whether ends give scores, zero-sum, the largest."""
        seen, zero_sum, biggest = False, True, 0.0
        for seed in range(1, games + 1):
            st = self.new_state(seed)
            rng = random.Random(seed)
            n = 0
            while not st.over and n < cap:
                st.apply(rng.choice(st.legal_actions()).id)
                n += 1
            if st.over and st.scores:
                seen = True
                vals = [float(st.scores.get(p, 0) or 0) for p in self.seats]
                zero_sum = zero_sum and abs(sum(vals)) < 1e-9
                biggest = max(biggest, max(abs(v) for v in vals))
        return seen, zero_sum, biggest

    @property
    def zero_sum(self) -> bool:
        return self.returns_mode == "scores" or len(self.teams) == 2

    def returns(self, st) -> list:
        """The returns of a state, one per seat (0s before the end and when the game was cut)."""
        from ..agents import outcome

        if not st.over:
            return [0.0] * len(self.seats)
        if self.returns_mode == "scores" and st.scores is not None:
            b = self.max_return
            return [max(-b, min(b, float(st.scores.get(p, 0) or 0))) for p in self.seats]
        return [float(outcome(st, p)) for p in self.seats]

    # -- what a player sees, as text
    def observation_string(self, st, player, view=None) -> str:
        v = dict(view if view is not None else st.view(player))
        v.pop("log", None)
        return json.dumps(v, sort_keys=True, separators=(",", ":"), default=str)

    def information_state_string(self, st, player, mine, view=None) -> str:
        """The view (with the log the player has read) and the player's own past decisions."""
        return json.dumps({"view": view if view is not None else st.view(player), "mine": list(mine)},
                          sort_keys=True, separators=(",", ":"), default=str)


def _perfect_information(rules) -> bool:
    """No zone hides anything, no face-down items, no hidden variables, no private moves, and no
    rule turns items face down (as declared; the text of the compiled rules is read for that)."""
    for zd in rules.zones.values():
        if zd.visibility != "public" or zd.face != "up" or any(f == "down" for f in (zd.slot_face or ())):
            return False
    if rules.hidden_vars or any(m.private for m in rules.moves.values()):
        return False
    return "conceal" not in (rules.module_source or "") and "reveal_to" not in (rules.module_source or "")


class ViewEncoder:
    """A fixed tensor layout for one game and seating, filled from a view (see the module doc)."""

    def __init__(self, rules, seats):
        self.seats = list(seats)
        P = len(self.seats)
        self.seat_ix = {p: i for i, p in enumerate(self.seats)}
        self.items = list(rules.items)
        self.item_ix = {it: i for i, it in enumerate(self.items)}
        self.zones = list(rules.zones)
        self.zone_ix = {z: i for i, z in enumerate(self.zones)}
        self.owner_ix = {None: 0, **{p: i + 1 for i, p in enumerate(self.seats)}}
        self.vars = sorted(rules.var_defs)
        self.var_ix = {k: i for i, k in enumerate(self.vars)}
        locs = list(dict.fromkeys([*rules.locations, *rules.regions, *rules.players, *self.zones]))
        self.piece_ix = {}
        n = 0
        for kind, d in rules.kinds.items():
            owners = list(d.get("owners") or [None])
            for o in owners:
                for loc in locs:
                    self.piece_ix[(kind, o, loc)] = n
                    n += 1
                self.piece_ix[(kind, o, "*elsewhere*")] = n
                n += 1
        self.blocks = [
            ("player", (P,)),
            ("to_move", (P + 1,)),            # the last: nobody (the game is over)
            ("result", (P + 1,)),             # winners, then 'over'
            ("decision", (5,)),               # mine: ask, choose, branch, order; then 'not mine'
            ("items", (len(self.items), len(self.zones) + 1)),  # seen in zone z; the last: unseen
            ("slot", (len(self.items),)),     # (slot + 1) / slots, for an item seen in a tableau
            ("zone_count", (len(self.zones),)),
            ("zone_unseen", (len(self.zones), P + 1)),  # unseen items by owner (0: no owner)
            ("pieces", (max(1, n),)),
            ("vars", (max(1, len(self.vars)), 2 + TEXT_BUCKETS)),  # set, number, hashed text
            ("other_vars", (OTHER_VAR_BUCKETS,)),
        ]
        self.info_blocks = self.blocks + [("log", (LOG_BUCKETS,))]

    @staticmethod
    def size(blocks) -> int:
        return int(sum(np.prod(shape) for _, shape in blocks))

    def views(self, tensor, blocks) -> dict:
        out, i = {}, 0
        for name, shape in blocks:
            k = int(np.prod(shape))
            out[name] = tensor[i:i + k].reshape(shape)
            i += k
        return out

    def fill(self, d: dict, view: dict, viewer, info: bool = False) -> None:
        """Write a view into the named arrays `d` (zeroed first by the caller)."""
        P = len(self.seats)
        if viewer is not None and viewer in self.seat_ix:
            d["player"][self.seat_ix[viewer]] = 1
        cp = view.get("current_player")
        d["to_move"][self.seat_ix.get(cp, P)] = 1
        for w in view.get("winners") or ():
            if w in self.seat_ix:
                d["result"][self.seat_ix[w]] = 1
        if view.get("over"):
            d["result"][P] = 1
        pend = view.get("pending")
        if pend and pend.get("player") == viewer and viewer is not None:
            d["decision"][{"ask": 0, "choose": 1, "branch": 2, "order": 3}.get(pend.get("type"), 4)] = 1
        elif pend:
            d["decision"][4] = 1
        items, slot, zc, zu = d["items"], d["slot"], d["zone_count"], d["zone_unseen"]
        unseen_col = len(self.zones)
        seen = np.zeros(len(self.items), dtype=bool)
        for zid, content in (view.get("zones") or {}).items():
            z = self.zone_ix.get(zid)
            if z is None:
                continue
            if isinstance(content, dict):  # a hidden zone: a count, and what was shown to me
                zc[z] = content.get("count", 0)
                known = content.get("known") or ()
                zu[z, 0] += max(0, content.get("count", 0) - len(known))
                for it in known:
                    i = self.item_ix.get(it)
                    if i is not None:
                        items[i, z] = 1
                        seen[i] = True
                continue
            n_slots = len(content)
            count = 0
            for k, it in enumerate(content):
                if it is None:
                    continue
                count += 1
                if isinstance(it, str) and it.startswith("?"):
                    zu[z, self.owner_ix.get(it[1:] or None, 0)] += 1
                    continue
                i = self.item_ix.get(it)
                if i is None:
                    continue
                items[i, z] = 1
                seen[i] = True
                slot[i] = (k + 1) / max(1, n_slots)
            zc[z] = count
        items[~seen, unseen_col] = 1
        pieces = d["pieces"]
        for kind, owner, loc, n in view.get("pieces") or ():
            j = self.piece_ix.get((kind, owner, loc))
            if j is None:
                j = self.piece_ix.get((kind, owner, "*elsewhere*"))
            if j is not None:
                pieces[j] += n
        vv, other = d["vars"], d["other_vars"]
        for k, v in (view.get("vars") or {}).items():
            j = self.var_ix.get(k)
            if j is None:
                if v is not None:
                    other[crc(f"{k}={v}") % OTHER_VAR_BUCKETS] += 1
                continue
            _encode_value(vv[j], v)
        if info:
            log = d["log"]
            for line in view.get("log") or ():
                log[crc(str(line)) % LOG_BUCKETS] += 1


def _encode_value(row, v) -> None:
    if v is None:
        return
    row[0] = 1
    if isinstance(v, bool):
        row[1] = float(v)
    elif isinstance(v, (int, float)):
        row[1] = float(v)
    elif isinstance(v, str):
        row[2 + crc(v) % TEXT_BUCKETS] = 1
    elif isinstance(v, (list, tuple, set)):
        row[1] = len(v)
        for e in v:
            row[2 + crc(str(e)) % TEXT_BUCKETS] = 1
    elif isinstance(v, dict):
        row[1] = len(v)
        for e in v:
            row[2 + crc(str(e)) % TEXT_BUCKETS] = 1
