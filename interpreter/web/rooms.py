"""Games held in memory for the browser board: who may see and do what, and the computer's seats.

A *room* is one game: its state, who plays each seat (a person, or an agent such as ``random`` or
``greedy:1``), and the links that reach it. Every link is an unguessable token
(``secrets.token_urlsafe``) standing for one *role*:

    seat     one person's seat: sees view(that seat), acts for it
    hotseat  one screen shared by every person at the table: acts for each person's seat in
             turn and sees the view of the seat that acts (the page hides the table between
             two people)
    watch    the public view (view(None)); acts for nobody
    host     the creator's page: the links, and the save (which holds the whole game)

What a role receives is built from ``engine.table.table(state, viewer)`` only, plus public facts
about the room (who plays which seat, whether they are connected, display names of the pieces'
owners and kinds). The seed, the history and the full state never leave the server except in a
save, which only the host (or the one person of a game against the computer) may take.

Everything here runs on the server's event loop; an agent thinks in a worker thread on a clone
of the state, and its move is applied on the loop only if the game has not moved meanwhile.

The one person of a game against the computer may undo (``Room.undo``): the room keeps a
snapshot before each of their decisions and restores it when engine/undo.py allows, as the
terminal table does.

Why this module is large: a room is one unit (its roles, the table each sees, acting, undo,
chat, the computer's seats, saves) over one state and version; split, the parts would reach
into each other's fields.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

from ..engine.primitives import over_words
from ..engine import undo as undo_rules
from ..engine.table import table
from ..errors import EngineError, IllegalAction, one_line
from .catalogue import WebError, clean

CHAT_LINES = 200
CHAT_CHARS = 300
UNDO_DEPTH = 50   # the person's decisions a room keeps to undo (engine/undo.py)


@dataclass(frozen=True)
class Role:
    kind: str          # seat | hotseat | watch | host
    seats: tuple       # the seats this link acts for
    token: str


class Connection:
    """One open socket: the role it speaks for and what its page holds (its log so far).

    Messages wait in an outbox. A table is queued as a mark and written only when it is sent
    (`render`), so a page that reads slowly, or a run of moves by the computer, costs one table
    for the newest position instead of one per move."""

    TABLE = None  # the outbox's mark for "the table as it is when sent"

    def __init__(self, role: Role, send, render=None):
        self.role = role
        self.send = send           # async callable(text)
        self.render = render       # callable() -> the table's text now
        self.outbox: list = []     # texts, and TABLE marks
        self.wake = asyncio.Event()
        self.log_seen = (None, 0)  # (viewer, how many log lines the page holds)
        self.closed = False
        self.sent = 0

    def push(self, text: str | None = None):
        """Queue a message (text), or the table (no text): an earlier table not yet sent goes."""
        if self.closed:
            return
        if text is None:
            self.outbox = [m for m in self.outbox if m is not None]
        self.outbox.append(text)
        if len(self.outbox) > 100:  # a page that reads nothing: keep the newest
            del self.outbox[:-100]
        self.wake.set()

    async def pump(self):
        """Send what waits in the outbox until the connection closes."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox and not self.closed:
                text = self.outbox.pop(0)
                if text is None:
                    try:
                        text = self.render()
                    except Exception as exc:  # a bug of ours: the page hears of it in a line
                        text = json.dumps({"type": "error", "message": f"the server failed to show the game: {clean(exc)}"})
                try:
                    await self.send(text)
                    self.sent += 1
                except Exception:  # the other end went away
                    self.closed = True
                    return


@dataclass
class Room:
    id: str
    key: str                   # the catalogue's name of the game
    game: object
    state: object
    controllers: dict          # seat -> "human" | agent name
    hotseat: bool = False
    agent_delay: float = 0.6
    mods: tuple = ()
    options: dict = field(default_factory=dict)
    version: int = 0
    roles: dict = field(default_factory=dict)     # token -> Role
    conns: set = field(default_factory=set)
    error: str | None = None
    touched: float = field(default_factory=time.monotonic)
    hot_viewer: str | None = None
    executor: object = None                        # where agents think (None: asyncio's default)
    chat: list = field(default_factory=list)       # [who, text], the last CHAT_LINES
    undo_stack: list = field(default_factory=list)  # undo_rules.Snapshot before the person's decisions
    _agents: dict = field(default_factory=dict)
    _task: object = None
    _cache: dict = field(default_factory=dict)     # (version, viewer) -> the table sent (see _table)
    _logs: dict = field(default_factory=dict)      # viewer -> the log lines read so far (it only grows)

    # -- roles ----------------------------------------------------------------------------
    def humans(self) -> list:
        return [p for p in self.state.seats if self.controllers[p] == "human"]

    def viewer(self, role: Role):
        if role.kind == "seat":
            return role.seats[0]
        if role.kind == "hotseat":
            return self.hot_viewer
        return None

    def can_save(self, role: Role) -> bool:
        """A save holds every hidden card: the host may save, and so may the only person of a
        game against the computer (it shows the computer's cards, nobody else's). People
        sharing a screen save from the host page, like people with a link each."""
        if role.kind == "host":
            return True
        return role.kind == "seat" and self.humans() == list(role.seats)

    can_undo = can_save  # the one person against the computer takes back their own decisions

    def token_of(self, kind: str, seat=None) -> str | None:
        for t, r in self.roles.items():
            if r.kind == kind and (seat is None or seat in r.seats):
                return t
        return None

    # -- the table a role sees ----------------------------------------------------------------
    def _table(self, viewer) -> dict:
        """The viewer's table now, cached for the version: {"table" (without its log), "log",
        "names", "json" (the table encoded once for every page of that viewer)}."""
        key = (self.version, viewer)
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) > 16:
                self._cache = {k: v for k, v in self._cache.items() if k[0] == self.version}
            lines = self._logs.get(viewer, [])
            if len(lines) > len(self.state.log):
                lines = []
            try:  # only the log lines not read before are put in words
                t = table(self.state, viewer, log_from=len(lines))
                log = lines + t.pop("log")
            except Exception as exc:  # a rule failing while the table is read (e.g. listing actions)
                self.error = self.error or f"the rules failed while showing the game: {clean(exc)}"
                t = table_without_decision(self.state, viewer)
                log = t.pop("log")
            t.pop("log_from", None)
            self._logs[viewer] = log
            t = _with_owners(t, self.state.rules)
            got = {"table": t, "log": log, "names": self.names(t),
                   "json": json.dumps(t, separators=(",", ":"))}
            self._cache[key] = got
        return got

    def names(self, t: dict) -> dict:
        """Display names of the players, the pieces' owners and kinds (public, static words)."""
        rules = self.state.rules
        out = {p: rules.display(p) for p in self.state.seats}
        for r in t["board"]["regions"]:
            for o, k, _ in r["pieces"]:
                if o is not None:
                    out.setdefault(o, rules.display(o))
                out.setdefault(k, rules.display(k))
        return out

    def _head(self, role: Role, log_seen) -> tuple[dict, dict, tuple]:
        viewer = self.viewer(role)
        got = self._table(viewer)
        log = got["log"]
        seen_viewer, seen = log_seen if log_seen is not None else (None, -1)
        start = seen if (seen_viewer == viewer and 0 <= seen <= len(log)) else 0
        st = self.state
        p = st.current_player
        online = {}
        for c in self.conns:
            for s in (c.role.seats if c.role.kind in ("seat", "hotseat") else ()):
                online[s] = True
        head = {
            "type": "table",
            "version": self.version,
            "role": role.kind,
            "seat": viewer,
            "acts_for": list(role.seats),
            "can_act": bool(p is not None and p in role.seats and self.controllers.get(p) == "human"
                            and self.error is None),
            "can_save": self.can_save(role),
            "can_undo": role.kind == "seat" and self.can_undo(role),
            "hotseat": self.hotseat,
            "error": self.error,
            "game": {"key": self.key, "title": st.rules.title, "mods": list(self.mods),
                     "options": {k: st.vars.get(k) for k in st.rules.options}},
            "seats": [{"id": s, "name": st.rules.display(s),
                       "controller": "person" if self.controllers[s] == "human" else self.controllers[s],
                       "online": bool(online.get(s)) if self.controllers[s] == "human" else True}
                      for s in st.seats],
            "names": got["names"],
            "log_from": start,
            "log": log[start:],
        }
        return head, got, (viewer, len(log))

    def message(self, role: Role, log_seen=None) -> tuple[dict, tuple]:
        """What a link is sent now: its viewer's table (engine.table.table, less its log), the
        log lines its page does not hold yet ("log" from "log_from"), and public facts about
        the room."""
        head, got, seen = self._head(role, log_seen)
        return dict(head, table=got["table"]), seen

    def text_for(self, conn: Connection) -> str:
        head, got, conn.log_seen = self._head(conn.role, conn.log_seen)
        return json.dumps(head, separators=(",", ":"))[:-1] + ',"table":' + got["json"] + "}"

    def broadcast(self):
        for c in list(self.conns):
            if c.closed:
                self.conns.discard(c)
                continue
            c.push()

    # -- acting -------------------------------------------------------------------------------
    def act(self, role: Role, action, version=None) -> None:
        """Apply a person's action for the role, or WebError saying why not (state unchanged)."""
        self.touched = time.monotonic()
        if not isinstance(action, str) or not action or len(action) > 500:
            raise WebError("an action is the id of one of the options offered (a short text)")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise WebError("version must be a whole number")
        st = self.state
        if self.error is not None:
            raise WebError(f"the game is stopped: {self.error}")
        if st.over:
            raise WebError("the game is over")
        p = st.current_player
        if role.kind in ("watch", "host"):
            raise WebError("this link watches the game; it cannot act")
        if p not in role.seats or self.controllers.get(p) != "human":
            who = st.rules.display(p) if p is not None else "nobody"
            raise WebError(f"it is not your turn: {who} is to act")
        if version is not None and version != self.version:
            raise WebError("the game has moved on since that choice was shown; here is the table now")
        snap = undo_rules.Snapshot(st, p) if self.can_undo(role) else None
        try:
            st.apply(action, atomic=True)
        except IllegalAction:
            raise WebError(f"{action[:80]!r} is not one of the options now") from None
        except EngineError as exc:
            raise WebError(f"the rules failed on that action ({clean(exc)}); the game is left as it was") from None
        if snap is not None:
            self.undo_stack = undo_rules.forget(self.undo_stack, snap.state)[-UNDO_DEPTH + 1:] + [snap]
        self._moved()

    def undo(self, role: Role) -> str:
        """Take back the person's last decision and the computer's moves after it, as the
        terminal does (engine/undo.py), or WebError saying why not (state unchanged)."""
        self.touched = time.monotonic()
        if role.kind != "seat" or not self.can_undo(role):
            raise WebError("undo is for the one person of a game against the computer")
        if self.error is not None:
            raise WebError(f"the game is stopped: {self.error}")
        ok, why = undo_rules.check(self.undo_stack, self.state)
        if not ok:
            raise WebError(why)
        self.state = self.undo_stack.pop().state.clone()
        self._logs = {}
        for c in self.conns:  # every page reads the log again from its start
            c.log_seen = (None, -1)
        self._moved()
        return undo_rules.UNDONE

    def _moved(self):
        self.version += 1
        self.touched = time.monotonic()
        p = self.state.current_player
        if self.hotseat and p is not None and self.controllers.get(p) == "human":
            self.hot_viewer = p
        self.broadcast()
        self.kick()

    # -- chat ------------------------------------------------------------------------------------
    def say(self, role: Role, text) -> None:
        """A line of chat from a link, to every page of the room (plain text, never markup)."""
        if not isinstance(text, str) or not text.strip():
            raise WebError("a chat line is some text")
        text = one_line(" ".join(text.split()))[:CHAT_CHARS]
        st = self.state
        if role.kind == "seat":
            who = st.rules.display(role.seats[0])
        elif role.kind == "hotseat":
            who = "at the table"
        else:
            who = "host" if role.kind == "host" else "watching"
        self.chat.append([who, text])
        del self.chat[:-CHAT_LINES]
        self.touched = time.monotonic()
        line = json.dumps({"type": "chat", "lines": [[who, text]]})
        for c in list(self.conns):
            c.push(line)

    def chat_text(self) -> str:
        return json.dumps({"type": "chat", "lines": self.chat, "all": True})

    # -- the computer's seats ------------------------------------------------------------------
    def agent_to_act(self) -> str | None:
        st = self.state
        p = st.current_player
        if st.over or p is None or self.error is not None or self.controllers.get(p) == "human":
            return None
        return p

    def kick(self):
        """Start the computer's moves if one of its seats is to act (one task per room)."""
        if self.agent_to_act() is None or (self._task is not None and not self._task.done()):
            return
        try:
            self._task = asyncio.get_running_loop().create_task(self._run_agents())
        except RuntimeError:  # no loop running (a room used outside the server)
            self._task = None

    async def _run_agents(self):
        from ..agents import make_agent

        while True:
            p = self.agent_to_act()
            if p is None:
                return
            if self.agent_delay:
                await asyncio.sleep(self.agent_delay)
                if self.agent_to_act() != p:
                    continue
            agent = self._agents.get(p)
            if agent is None:
                agent = self._agents[p] = make_agent(self.controllers[p], random.SystemRandom().randrange(1 << 30))
            version, snapshot = self.version, self.state.clone()
            try:
                a = await asyncio.get_running_loop().run_in_executor(self.executor, agent.act, snapshot)
                aid = a.id if hasattr(a, "id") else str(a)
            except Exception as exc:  # the rules failed inside the agent's look-ahead
                self._stop(f"{self.controllers[p]} playing {self.state.rules.display(p)} failed: {clean(exc)}")
                return
            if version != self.version:  # the game moved while the agent thought
                continue
            try:
                self.state.apply(aid, atomic=True)
            except (IllegalAction, EngineError) as exc:
                self._stop(f"the computer's move for {self.state.rules.display(p)} failed: {clean(exc)}")
                return
            self._moved()

    def _stop(self, why: str):
        self.error = why
        self.version += 1
        self.broadcast()

    # -- saves ---------------------------------------------------------------------------------
    def save(self) -> str:
        return self.state.to_json(agents=self.controllers)  # (who plays each seat: a resume keeps them)

    def host_info(self, base: str) -> dict:
        st = self.state
        links = []
        for t, r in self.roles.items():
            if r.kind in ("seat", "hotseat"):
                links.append({"kind": r.kind, "seats": [{"id": s, "name": st.rules.display(s)} for s in r.seats],
                              "url": f"{base}play/{t}"})
        return {"id": self.id, "game": self.key, "title": st.rules.title, "mods": list(self.mods),
                "options": {k: st.vars.get(k) for k in st.rules.options},
                "seats": [{"id": s, "name": st.rules.display(s), "controller": self.controllers[s]} for s in st.seats],
                "links": links, "watch": f"{base}play/{self.token_of('watch')}",
                "host": f"{base}host/{self.token_of('host')}", "version": self.version, "over": st.over,
                "to_act": st.current_player, "winners": list(st.winners), "error": self.error,
                "save": f"{base}api/save/{self.token_of('host')}"}


def _with_owners(t: dict, rules) -> dict:
    """The table with each identified item's owner (static data of an item the viewer sees), so
    the page can colour it by side."""
    owner = rules.item_owner

    def mark(it):
        if isinstance(it, dict) and it.get("id") is not None and "owner" not in it:
            o = owner.get(it["id"])
            if o is not None:
                it = dict(it, owner=o)
        return it

    out = dict(t)
    out["zones"] = [dict(z, items=[mark(i) for i in z["items"]]) for z in t["zones"]]
    out["board"] = dict(t["board"], regions=[dict(r, items=[mark(i) for i in r["items"]])
                                             for r in t["board"]["regions"]])
    return out


def table_without_decision(st, viewer) -> dict:
    """The table when listing the decision's options fails: everything else, no options."""
    class _Quiet:
        """The state seen without its pending decision (so table() lists no options)."""

        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, k):
            return getattr(self._inner, k)

    shadow = _Quiet(st)
    shadow.pending = None
    shadow.current_player = None
    try:
        return table(shadow, viewer)
    except Exception:
        return {"game": st.rules.name, "title": st.rules.title, "viewer": viewer, "turn": None, "to_act": None,
                "over": st.over, "winners": list(st.winners), "victory": st.victory, "scores": st.scores,
                "result": over_words(st.rules, st.winners, st.victory, st.scores) if st.over else None,
                "players": [], "meters": [], "board": {"regions": [], "connections": []}, "zones": [],
                "log": st.log_for(viewer), "decision": None}
