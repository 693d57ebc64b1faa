"""The state of one game: plain data only, cheap to clone, exact through JSON.

Everything that changes lives here; everything that does not (rules, compiled effects,
the board graph) lives in the shared ``Rules`` object the state points to.

Fields
  vars      scalar variables: ``name`` or ``family.key`` -> int/str/bool/None
  zones     zone id -> list of item ids (tableau zones keep ``None`` for empty slots); a list
            is shared with the states copied from or with this one until either changes it:
            whatever changes a zone's items takes its list from ``zone_list`` (copy on write)
  where     item id -> zone id (the one place each item is)
  facedown  item ids lying face down in their zone
  shown     item id -> players it has been shown to (reveal_to), until it moves or is shuffled
  pieces    (kind, owner, location) -> count, for interchangeable pieces (units, coins)
  stack     the interpreter's frames: [block id, pc, env, aux]; envs are shared per call
  pending   the decision the game waits for, or None
  rng       the random source (one integer)
  seats     the players taking part, in turn order (a game may seat fewer than its rules name)
  log       readable events; history: the action ids applied so far
"""
from __future__ import annotations

import json

from ..errors import SaveError

SAVE_FORMAT = 1
SHARE_ZONES = 16  # a copy of a state with more zones than this shares their lists (_position)


class State:
    __slots__ = ("rules", "vars", "zones", "where", "facedown", "shown", "pieces", "stack", "pending",
                 "rng", "log", "history", "over", "winners", "victory", "scores", "dirty", "work", "_legal",
                 "seed", "_memo", "seats", "_shared", "moved", "_occ", "_zown")

    def __init__(self, rules):
        self.rules = rules
        self.vars: dict = {}
        self.zones: dict = {}
        self.where: dict = {}
        self.facedown: set = set()
        self.shown: dict = {}
        self.pieces: dict = {}
        self.stack: list = []
        self.pending = None
        self.rng = 0
        self.seed = 0
        self.seats = tuple(rules.players)
        self.log: list = []
        self.history: list = []
        self.over = False
        self.winners: list = []
        self.victory = None
        self.scores = None  # at the end: {player: number} when the rules give scores or payoffs
        self.dirty = False
        self.work = 0  # the work budget drawn since the interpreter last ran (interpreter.limits)
        self._legal = None
        self._memo = {}  # derived values by function number: codegen.Module.game_function, vm.wrote
        self.moved: list = []  # the places pieces moved from and to since the interpreter last looked (vm.wrote)
        self._shared = False  # the log and history lists are shared with a clone: copied on write
        self._occ = None  # an index of pieces: (kind, owner) -> places holding any (primitives.occupied)
        self._zown = None  # the zones whose lists are this state's own (None: all of them): zone_list

    # ---- copying ----------------------------------------------------------
    def _position(self) -> "State":
        """A new state with a copy of this one's position (variables, zones, where each item is
        and which lie face down, pieces); fresh and clone set the rest."""
        new = self.__class__.__new__(self.__class__)
        new.rules = self.rules
        new.vars = self.vars.copy()
        zones = self.zones
        if len(zones) > SHARE_ZONES:
            # the zones' lists are shared until written (zone_list): most zones of a big game
            # are not written between two copies (copying every list was most of its clone)
            new.zones = zones.copy()
            new._zown = set()
            self._zown = set()
        else:  # a few zones: copied at once (cheaper than sharing them, then copying each)
            new.zones = {k: v.copy() for k, v in zones.items()}
            new._zown = None
        new.where = self.where.copy()
        new.facedown = self.facedown.copy()
        new.pieces = self.pieces.copy()
        new._occ = None  # (built again when first asked: a copy would cost every clone)
        return new

    def zone_list(self, z) -> list:
        """Zone z's list of items, to change in place: this state's own (copied first when it is
        shared with another state: _position)."""
        lst = self.zones[z]
        own = self._zown
        if own is not None and z not in own:
            lst = self.zones[z] = lst.copy()
            own.add(z)
        return lst

    def fresh(self) -> "State":
        """A new game's state from this one, which holds only the starting position (every
        item in its starting zone, every piece in its supply): its places copied, the rest new.
        (Game.new_game: each field set once, not first to a default.)"""
        new = self._position()
        new.shown = {}
        new.stack = []
        new.pending = None
        new.rng = new.seed = 0
        new.seats = self.seats
        new.log = []
        new.history = []
        new.over = False
        new.winners = []
        new.victory = new.scores = new._legal = None
        new.dirty = new.work = 0
        new._memo = {}
        new.moved = []
        new._shared = False
        return new

    def clone(self) -> "State":
        new = self._position()
        new.shown = self.shown.copy() if self.shown else {}  # values are tuples: shared safely
        envs = {}
        stack = []
        for block, pc, env, aux in self.stack:
            e = envs.get(id(env))
            if e is None:
                e = envs[id(env)] = env.copy()
            stack.append([block, pc, e, aux.copy() if type(aux) is list else aux])
        new.stack = stack
        new.pending = self.pending
        new.rng = self.rng
        new.seed = self.seed
        new.seats = self.seats
        new.log = self.log  # shared until either side writes (say / record copy first)
        new.history = self.history
        new._shared = self._shared = True
        new.over = self.over
        new.winners = self.winners.copy()
        new.victory = self.victory
        new.scores = self.scores
        new.dirty = False
        new.work = 0
        new._legal = self._legal
        new._memo = {}  # memoised values are a cache: a clone computes its own
        new.moved = []
        return new

    # ---- the log and the history (shared with clones until written) ----------------
    def _own(self) -> None:
        self.log = self.log.copy()
        self.history = self.history.copy()
        self._shared = False

    def say(self, entry) -> None:
        """Add a log entry: a line, or [player, what they read, what the others read]."""
        if self._shared:
            self._own()
        self.log.append(entry)

    def record(self, action_id: str) -> None:
        if self._shared:
            self._own()
        self.history.append(action_id)

    # ---- JSON -------------------------------------------------------------
    def to_dict(self) -> dict:
        envs, env_index, frames = [], {}, []
        for block, pc, env, aux in self.stack:
            i = env_index.get(id(env))
            if i is None:
                i = env_index[id(env)] = len(envs)
                envs.append(env)
            frames.append([block, pc, i, aux])
        return {
            "format": SAVE_FORMAT,
            "game": self.rules.name,
            "rules_digest": self.rules.digest,
            "seed": self.seed,
            "seats": list(self.seats),
            "options": {k: self.vars.get(k) for k in self.rules.options},
            "mods": list(self.rules.mods),
            "vars": self.vars,
            "zones": self.zones,
            "facedown": sorted(self.facedown),
            "shown": {k: list(v) for k, v in sorted(self.shown.items())},
            "pieces": [[k, o, loc, n] for (k, o, loc), n in self.pieces.items()],
            "stack": frames,
            "envs": envs,
            "pending": self.pending,
            "rng": self.rng,
            "log": [self.rules.log_entry(e) for e in self.log],
            "history": self.history,
            "over": self.over,
            "winners": self.winners,
            "victory": self.victory,
            "scores": self.scores,
        }

    def to_json(self, agents: dict | None = None) -> str:
        """The save. agents: who plays each seat ('human' or an agent's name), kept beside the
        state for a front end to resume with (not part of the game: loading ignores it)."""
        d = self.to_dict()
        if agents:
            d["agents"] = {p: str(agents[p]) for p in self.seats if p in agents}
        return json.dumps(d, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, rules, d: dict) -> "State":
        try:
            if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
                raise SaveError("not a lotr-rules save (unknown format)")
            if d.get("game") != rules.name:
                raise SaveError(f"save is for game {d.get('game')!r}, not {rules.name!r}")
            if d.get("rules_digest") != rules.digest:
                raise SaveError("save was made with different rule files (digest mismatch)")
            st = cls(rules)
            st.seed = int(d["seed"])
            st.seats = tuple(d["seats"])
            if not st.seats or any(p not in rules.players for p in st.seats):
                raise SaveError(f"unknown seats {d['seats']!r} in save")
            st.vars = dict(d["vars"])
            st.zones = {k: list(v) for k, v in d["zones"].items()}
            st.where = {}
            for z, items in st.zones.items():
                if z not in rules.zones:
                    raise SaveError(f"unknown zone {z!r} in save")
                for it in items:
                    if it is None:
                        continue
                    if it not in rules.props or it in st.where:
                        raise SaveError(f"item {it!r} unknown or in two places")
                    st.where[it] = z
            st.facedown = set(d["facedown"])
            if not st.facedown <= rules.props.keys():
                raise SaveError(f"unknown items face down in save: {sorted(map(str, st.facedown - rules.props.keys()))[:3]}")
            st.shown = {}
            for it, ps in (d.get("shown") or {}).items():
                if it not in st.where or not isinstance(ps, list) or any(p not in st.seats for p in ps):
                    raise SaveError(f"item {it!r} shown to unknown players {ps!r}")
                st.shown[it] = tuple(ps)
            st.pieces = {}
            for kind, owner, loc, n in d["pieces"]:
                if kind not in rules.kinds or (owner is not None and owner not in rules.piece_owners):
                    raise SaveError(f"unknown piece kind or owner {kind!r}/{owner!r}")
                if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                    raise SaveError(f"bad piece count {n!r} for {kind} at {loc!r}")
                st.pieces[(kind, owner, loc)] = n
            envs = [dict(e) for e in d["envs"]]
            st.stack = []
            for block, pc, ei, aux in d["stack"]:
                if not (0 <= block < len(rules.blocks)) or not (0 <= pc < len(rules.blocks[block])):
                    raise SaveError("corrupt interpreter stack in save")
                st.stack.append([block, pc, envs[ei], aux])
            st.pending = _pending(rules, st.seats, d["pending"])
            st.rng = int(d["rng"])
            st.log = list(d["log"])
            for e in st.log:  # a line, or a private move's [player, their line, the others' line]
                if type(e) is not str and not (type(e) is list and len(e) == 3 and e[0] in rules.players
                                               and type(e[1]) is str and type(e[2]) is str):
                    raise SaveError(f"corrupt log entry in save: {str(e)[:60]}")
            st.history = list(d["history"])
            st.over = bool(d["over"])
            st.winners = list(d["winners"])
            st.victory = d["victory"]
            st.scores = d.get("scores")
            return st
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
            raise SaveError(f"corrupt save: {type(exc).__name__}: {exc}") from None


# what each kind of decision holds besides its type and player (engine/decisions.py), and of what type
_PENDING = {"ask": {"moves": list}, "choose": {"label": str, "var": str, "options": list, "optional": bool},
            "branch": {"label": str, "options": list}, "order": {"label": str, "options": list}}


def _pending(rules, seats, p):
    """The pending decision of a save, if it is one (SaveError otherwise)."""
    if p is None:
        return None
    fields = _PENDING.get(p.get("type")) if type(p) is dict else None
    if fields is None or p.get("player") not in seats or \
            not all(type(p.get(k)) is t for k, t in fields.items()) or \
            (p["type"] == "ask" and not all(type(m) is str and m in rules.moves for m in p["moves"])):
        raise SaveError(f"corrupt pending decision in save: {str(p)[:80]}")
    return p

