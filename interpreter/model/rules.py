"""The immutable, shared side of a game: everything the rule files define, compiled.

A ``Rules`` object is built once per load (``interpreter/build``) and shared by every state
of that game; states hold only what changes. What only the build needs (names and their types,
procedures' signatures) is in ``build.declare.Declarations``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import FunctionType as _FUNCTION


@dataclass(slots=True)  # (read on every move: slots stay fast to read once pickled, build/checked.py)
class ZoneDef:
    id: str
    family: str
    key: object = None
    owner: str | None = None
    visibility: str = "public"  # public | hidden | owner
    face: str = "up"
    active: bool = False
    tableau: bool = False
    slot_names: list = field(default_factory=list)
    covered_by: list = field(default_factory=list)  # per slot: indexes of covering slots
    slot_face: list = field(default_factory=list)
    bit: int = 0
    touch: tuple = ()  # what a write to it adds to st.moved: its key (vm.wrote)


@dataclass
class TrackDef:
    name: str
    length: int
    start: int
    keys: list
    spaces: dict  # position -> block id
    bit: int = 0


def fmt_value(v) -> str:
    """How a value appears in an action id."""
    if v is None:
        return "none"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


@dataclass
class MoveDef:
    name: str
    params: list  # [(name, domain function)]
    cond: object
    block: int
    id_fmt: str
    label_fmt: str
    private: bool | str = False  # the log shows its label to the mover only; others see the move's
    #                                name, or this text (a template over the arguments)
    src: object = None           # where the move is written (for run-time errors)
    enumerate: object = None     # enumerate(st, player, out): its legal actions, by id (generated)
    enum_name: str = ""


@dataclass
class Trigger:
    id: str
    params: list
    cond: object
    block: int
    once: bool
    mask: int
    keys: dict = field(default_factory=dict)  # parameter values -> once-key (a cache of strings)
    static_domains: bool = False  # the parameter domains read no state (e.g. players())
    static: dict | None = None    # seats -> their bindings, computed once per seating
    src: object = None            # where the trigger is written (for run-time errors)


class Rules:
    def __init__(self):
        self.name = ""
        self.title = ""
        self.root = None
        self.mods: tuple = ()        # the mods applied, as given (saves and logs name them)
        self.digest = ""
        self.players: list = []
        self.seats: dict = {}        # number of players -> the players seated, in turn order
        self.teams: dict = {}        # number of players -> {team: [its seated players]}
        self.team_names: list = []   # every team of every seating (per: teams keys)
        self.default_players = None  # default_players:
        self.options: dict = {}
        self.enums: dict = {}
        self.props: dict = {}        # id -> {prop: value}
        self.item_types: dict = {}
        self.items: list = []        # item ids in file order
        self.item_type_of: dict = {}
        self.item_owner: dict = {}   # item -> owning player (items of types with an owner)
        self.regions: list = []
        self.region_order: dict = {}  # region -> its place in board order
        self.board_data = ({}, [])   # regions with props, directed edges with props
        self._graph = None
        self.adj: dict = {}          # region -> adjacent regions (the hot-path view of the graph)
        self.adj_kind: dict = {}     # connection kind -> region -> regions it leads to
        self.adj_in: dict = {}       # connection kind -> region -> regions leading into it
        self.zones: dict = {}        # zone id -> ZoneDef
        self.zone_families: dict = {}
        self.active_zones: dict = {}
        self.active_families: set = set()
        self.var_defs: dict = {}
        self.hidden_vars: dict = {}  # var key -> owner who may see it (None: nobody)
        self.kinds: dict = {}
        self.owned_kinds: list = []
        self.piece_owners: set = set()  # every owner of owned pieces (players, or an enum's values)
        self.kind_bits: dict = {}
        self.locations: list = []
        self.tracks: dict = {}
        self.functions: dict = {}    # game function -> its generated function f(st, me, *args)
        self.moves: dict = {}
        self.triggers: list = []
        self.choice_actions: dict = {}  # the Actions of choices, built once: by decision, then option (decisions._made)
        self.choice_room = 100_000      # ... how many more may be kept
        self.on_write: dict = {}  # a set of channels written (a mask) -> (memo keys made stale, memo keys
        # stale at the places pieces moved from and to, triggers due): vm.wrote
        self.memo_masks: dict = {}  # a memoised function's key in st._memo (its number) -> its read mask (codegen)
        self.memo_at: dict = {}  # ... of one reading channels under one key only -> those channels' mask
        self.memo_near: frozenset = frozenset()  # ... of those, the ones that read the regions next to the key too
        self.listeners: dict = {}
        self.item_effects: dict = {}
        self.item_conds: dict = {}   # item -> compiled `if:` (when it may be used)
        self.grants: dict = {}
        self.blocks: list = []       # block id -> its statements (functions), then its end (build/module.link)
        self.block_src: dict = {}    # block id -> [(Src, line, col)] per statement, for errors
        self.flow = None
        self.dispatch_block = None   # the block of an event's dispatch frame (vm.emit)
        self.evaluate = None
        self.team_decider = None     # (st, {"t": team}) -> the seat deciding for a team that is no seat
        self.default_agents = None  # agent: default
        self.turn_var = None        # turn: the variable naming whose turn it is
        self.names: dict = {}  # display: names (how players and enum values read)
        self.plurals: dict = {}  # display: plurals (the word for more than one: counted)
        self.choice_log: dict = {}  # display: choices: (one_of label, branch) -> how it reads in the log
        self.victory_names: dict = {}  # display: victories: a victory -> how it reads in the log
        self.hud = {"players": {}, "regions": {}, "zones": [], "player_zones": [], "meters": {}, "prompts": {},
                    "items": {}, "region_line": None}  # display: (engine.table turns it into what a table shows)
        self.item_text: dict = {}    # item -> its effect code, as written (for modders)
        self.item_words: dict = {}   # item -> its `text:`, what it does in words (for players)
        self.chan_bits: dict = {}
        # channels of item places: 'where' (which zone each item is in, read by zone_of) and
        # 'face' (read by is_facedown); every item move writes both, reveal/conceal 'face'
        self.where_bit = self.bit("where")
        self.item_bits: dict = {}  # item -> the channel of where it lies, for an item the rules name in zone_of()
        self.face_bit = self.bit("face")
        self.start_zone: dict = {}
        self.namespace: dict = {}    # the globals of the generated module (build/module.py)
        self.module_source = ""      # the generated module, for reading and debugging

    @property
    def graph(self):
        """The board as a networkx DiGraph (an undirected connection is two edges); built on
        first use, so loading a game does not pay for importing networkx."""
        if self._graph is None:
            import networkx as nx

            g = nx.DiGraph()
            nodes, edges = self.board_data
            for n, props in nodes.items():
                g.add_node(n, **props)
            for a, b, attrs in edges:
                g.add_edge(a, b, **attrs)
            self._graph = g
        return self._graph

    def teams_of(self, seats: tuple) -> dict:
        """{team: members} for a seating: as declared, else each player a team of its own."""
        t = self.teams.get(len(seats))
        return t if t is not None else {p: [p] for p in seats}

    def bit(self, chan: str) -> int:
        b = self.chan_bits.get(chan)
        if b is None:
            b = self.chan_bits[chan] = 1 << len(self.chan_bits)
        return b

    def mask_of(self, chans) -> int:
        """The bit mask of a set of read channels ('*' = everything)."""
        if "*" in chans:
            return -1
        m = 0
        for c in chans:
            m |= self.bit(c)
        return m

    def statement(self, block: int, pc: int):
        """The function of a block's statement at pc (its block compiled first if it is not
        yet: build/module.link compiles a block when it first runs)."""
        stmt = self.blocks[block][pc]
        return stmt if type(stmt) is _FUNCTION else stmt.load()[pc]  # (a stand-in has load)

    def where(self, block: int, pc: int) -> str:
        """'path:line (what)' of a statement, for run-time error messages."""
        try:
            src, line, col = self.block_src[block][pc]
        except (KeyError, IndexError):
            return f"block {block} statement {pc}"
        return self.where_src(src, line, col)

    @staticmethod
    def where_src(src, line: int = 1, col: int = 1) -> str:
        """'path:line (what)' of a place in a rule file (a Src: the scalar holding rule text)."""
        if src is None:
            return "<rules>"
        if src.source is None:
            return f"<text>:{line} ({src.what})"
        try:
            fl, _ = src.source.text_pos(src.path, line, col)
        except Exception:  # a position is a courtesy: never fail while reporting a failure
            fl = "?"
        return f"{src.source.display}:{fl} ({src.what})"

    def failure(self, where: str, exc: BaseException, st=None) -> str:
        """The message of a rule failing at run time: where, what went wrong in the language's
        terms, and the item whose effect was being carried out."""
        from ..errors import explain_exception

        text = f"{where}: {explain_exception(exc)}"
        for fr in reversed(st.stack if st is not None else ()):
            this = fr[2].get("this") if isinstance(fr[2], dict) else None
            if this is not None:
                text += f" (while resolving {self.display(this)} [{this}])"
                break
        return text

    def log_entry(self, e):
        """A log entry as text: a move is logged as (player, move, arguments) and written out only
        when someone reads it ("Player: label", the player by name; for a private move [player,
        what they read, what the others read])."""
        if type(e) is not tuple:
            return e
        if len(e) == 2:  # a log('... {} ...', args) line
            return self.log_line(*e)
        player, name, binding = e
        m = self.moves[name]
        display = self.display
        who = display(player)
        entry = f"{who}: " + m.label_fmt.format(**{k: display(v) for k, v in binding.items()})
        if not m.private:
            return entry
        public = m.name if m.private is True else m.private.format(**{k: display(v) for k, v in binding.items()})
        return [player, entry, f"{who}: {public}"]

    def log_line(self, msg: str, args) -> str:
        """log(msg, args...): each {} in msg filled with the next argument (items, regions and
        players by their names; a list as its elements' names)."""
        parts = msg.split("{}")
        out = [parts[0]]
        display = self.display
        for i, part in enumerate(parts[1:]):
            if i < len(args):
                v = args[i]
                out.append(", ".join(display(x) for x in v) or "none" if isinstance(v, list) else display(v))
            else:
                out.append("{}")
            out.append(part)
        return "".join(out)

    def counted(self, n, value) -> str:
        """n of something in words: "3 regulars", "1 regular" (display: plurals: the word for
        more than one; its printed name otherwise)."""
        word = self.plurals.get(value) if n != 1 and isinstance(value, str) else None
        return f"{n} {word or self.display(value)}"

    def display(self, value) -> str:
        if isinstance(value, str) and value in self.names:
            return self.names[value]
        p = self.props.get(value) if isinstance(value, str) else None
        if p and p.get("name"):
            return str(p["name"])
        return "none" if value is None else str(value)
