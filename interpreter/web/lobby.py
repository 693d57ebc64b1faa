"""Every game of one server: creating games (new, or from a save) from the start page's form,
the tokens that reach them, forgetting idle games, and the threads where the computer thinks."""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time

from ..engine.saves import saved_agents
from ..errors import EngineError, SaveError
from .catalogue import AGENT_CHOICES, AGENT_LIMITS, Catalogue, WebError, clean, agent_ok
from .rooms import Role, Room

MAX_ROOMS = 500
IDLE_SECONDS = 12 * 3600


class Lobby:
    """The rooms of one server and the tokens that reach them."""

    def __init__(self, catalogue: Catalogue | None = None, agent_delay: float = 0.6, max_rooms: int = MAX_ROOMS,
                 idle_seconds: float = IDLE_SECONDS, agent_threads: int = 2):
        from concurrent.futures import ThreadPoolExecutor

        self.catalogue = catalogue or Catalogue()
        # the computer's seats think in a few threads of their own: a CPU-bound agent holds the
        # interpreter's lock while it runs, so fewer of them leave more time to the event loop
        self.executor = ThreadPoolExecutor(max_workers=max(1, agent_threads), thread_name_prefix="lotr-agent")
        self.agent_delay = agent_delay
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple] = {}

    async def close(self):
        """Stop the computer's moves (the server is going away)."""
        tasks = [r._task for r in self.rooms.values() if r._task is not None and not r._task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.executor.shutdown, True, cancel_futures=True)

    def find(self, token) -> tuple | None:
        if not isinstance(token, str) or not (10 <= len(token) <= 64):
            return None
        got = self.tokens.get(token)
        if got is None or got[0].id not in self.rooms:
            return None
        return got

    def sweep(self):
        """Forget games nobody has touched for a long time and nobody is connected to."""
        now = time.monotonic()
        for rid, room in list(self.rooms.items()):
            if not room.conns and now - room.touched > self.idle_seconds:
                self.remove(rid)

    def remove(self, rid):
        room = self.rooms.pop(rid, None)
        if room is None:
            return
        for t in room.roles:
            self.tokens.pop(t, None)
        if room._task is not None:
            room._task.cancel()

    def create(self, spec: dict) -> Room:
        """A new game (or a loaded save) from the start page's form:
        {game, mods, players, options, seats: {seat: "human" | agent}, hotseat, seed, save}."""
        return self.register(self.build(spec))

    def build(self, spec: dict) -> Room:
        """The room a form describes, checked, not yet reachable. It touches no shared state of
        the lobby, so the server builds in a worker thread (replaying a save takes a while)."""
        if not isinstance(spec, dict):
            raise WebError("a new game is described by a JSON object")
        if len(self.rooms) >= self.max_rooms:
            raise WebError(f"this server holds {self.max_rooms} games already; try again later")
        save = spec.get("save")
        if save is not None:
            if not isinstance(save, str):
                raise WebError("save must be the text of a save file")
            try:
                saved = json.loads(save)
            except (ValueError, RecursionError):
                raise WebError("that file is not a save of lotr-rules (not JSON)") from None
            if not isinstance(saved, dict) or not isinstance(saved.get("game"), str):
                raise WebError("that file is not a save of lotr-rules")
            mods = saved.get("mods") or []
            if not isinstance(mods, list) or not all(isinstance(m, str) for m in mods):
                raise WebError("the save's mods are not a list of names")
            key = self.catalogue.key(saved["game"])
            game = self.catalogue.game(key, mods)
            try:
                st = game.state_from_json(save)
            except SaveError as exc:
                raise WebError(f"the save cannot be loaded: {clean(exc)}") from None
            options = {k: st.vars.get(k) for k in game.rules.options}
            if spec.get("seats") is None and saved.get("agents"):  # who played: as the save says
                robot = game.rules.default_agents or "random"
                spec = dict(spec, seats={p: saved_agents(saved).get(p, robot) for p in st.seats})
        else:
            name = spec.get("game")
            if not isinstance(name, str):
                raise WebError("name a game")
            mods = spec.get("mods") or []
            if not isinstance(mods, list) or not all(isinstance(m, str) for m in mods):
                raise WebError("mods are a list of mod names")
            key = self.catalogue.key(name)
            game = self.catalogue.game(key, mods)
            players = spec.get("players")
            if players is not None and (not isinstance(players, int) or isinstance(players, bool)
                                        or players not in game.player_counts):
                raise WebError(f"{key} is played by {', '.join(map(str, game.player_counts))} players")
            options = _options(game, spec.get("options") or {})
            seed = spec.get("seed")
            if seed is None or seed == "":
                seed = random.SystemRandom().randrange(1, 1_000_000_000)
            if not isinstance(seed, int) or isinstance(seed, bool) or not (0 <= seed < 2**63):
                raise WebError("seed is a whole number from 0")
            try:
                st = game.new_game(seed=seed, options=options, players=players if game.rules.seats else None)
            except (ValueError, EngineError) as exc:
                raise WebError(f"the game cannot start: {clean(exc)}") from None
        seats = list(st.seats)
        wanted = spec.get("seats")
        if wanted is None:
            robot = game.rules.default_agents or "random"
            wanted = {p: ("human" if i == 0 else robot) for i, p in enumerate(seats)}
        if isinstance(wanted, list):
            if len(wanted) != len(seats):
                raise WebError(f"seats: one entry per seat ({', '.join(seats)})")
            wanted = dict(zip(seats, wanted))
        if not isinstance(wanted, dict) or set(wanted) != set(seats):
            raise WebError(f"seats: say who plays each seat ({', '.join(seats)}): human or an agent")
        controllers = {}
        own = game.rules.default_agents  # the game's own agent is always allowed
        for p in seats:
            c = wanted[p]
            if c in ("human", "person"):
                controllers[p] = "human"
            elif agent_ok(c) or (c == own and c is not None):
                controllers[p] = c
            else:
                raise WebError(f"seat {p}: {str(c)[:40]!r} is neither human nor an agent "
                               f"({', '.join(AGENT_CHOICES)}; greedy up to :{AGENT_LIMITS['greedy']}, "
                               f"mcts up to :{AGENT_LIMITS['mcts']})")
        hotseat = bool(spec.get("hotseat")) and sum(1 for c in controllers.values() if c == "human") > 1
        rid = secrets.token_urlsafe(9)
        room = Room(id=rid, key=key, game=game, state=st, controllers=controllers, hotseat=hotseat,
                    agent_delay=float(spec["agent_delay"]) if _number(spec.get("agent_delay")) else self.agent_delay,
                    mods=tuple(mods), options=options, executor=self.executor)
        humans = room.humans()
        if hotseat:
            room.roles[secrets.token_urlsafe(18)] = Role("hotseat", tuple(humans), "")
            p = st.current_player
            room.hot_viewer = p if p in humans else humans[0]
        else:
            for p in humans:
                room.roles[secrets.token_urlsafe(18)] = Role("seat", (p,), "")
        room.roles[secrets.token_urlsafe(18)] = Role("watch", (), "")
        room.roles[secrets.token_urlsafe(18)] = Role("host", (), "")
        room.roles = {t: Role(r.kind, r.seats, t) for t, r in room.roles.items()}
        return room

    def register(self, room: Room) -> Room:
        """Make a built room reachable by its links (and start the computer's moves)."""
        self.sweep()
        if len(self.rooms) >= self.max_rooms:
            raise WebError(f"this server holds {self.max_rooms} games already; try again later")
        self.rooms[room.id] = room
        for t, r in room.roles.items():
            self.tokens[t] = (room, r)
        room.kick()
        return room


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 10


def _options(game, given) -> dict:
    if not isinstance(given, dict):
        raise WebError("options are a mapping of option names to values")
    try:
        return game.check_options(given)
    except ValueError as exc:
        raise WebError(str(exc)) from None
