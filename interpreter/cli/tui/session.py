"""One game at a table, apart from how it is drawn: who sits where (people and agents), the
state, undo that cannot cheat (its checks in engine/undo.py, shared with the browser), `auto`
for a run of the same decision, saving. The terminal table (app.py) drives it; tests drive it
directly too."""
from __future__ import annotations

import json
from pathlib import Path

from ...engine import undo as undo_rules
from ...errors import EngineError, IllegalAction


def decision_kind(st) -> tuple | None:
    """What kind of decision waits: the same kind again and again is a run (placements)."""
    p = st.pending
    if p is None or st.over:
        return None
    return (p["player"], p["type"], tuple(p["moves"]) if p["type"] == "ask" else p.get("label"))


class Session:
    """seat: player -> 'human' or an agent name; agents: player -> agent (for the non-humans)."""

    def __init__(self, game, st, seat: dict, agents: dict, options: dict | None = None, auto_agent=None):
        self.game = game
        self.st = st
        self.seat = dict(seat)
        self.agents = dict(agents)
        self.options = dict(options or {})
        self.humans = [p for p, n in self.seat.items() if n == "human"]
        self.viewer = self.humans[0] if self.humans else None
        self.undo_stack: list[undo_rules.Snapshot] = []
        self.human_decisions = 0          # decisions people made (hot seat: who decided last)
        self.last_decider = None
        self.auto_kind = None             # a run of decisions the computer finishes for a person
        self.auto_agent = auto_agent
        self.notes: list[str] = []        # what the table tells the person (auto-picked, undone...)
        self.run_length = 0               # how many decisions of the current kind in a row
        self._last_kind = None
        self.error = None
        self.handover = None              # hot seat: the person the keyboard goes to next
        self.internal = False             # the error is a bug of ours (exit 3), not a rule's (1)
        self.unsaved = False              # a person's decision was taken since the game was saved

    # ---- who acts ---------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.st.over

    def human_to_act(self) -> bool:
        p = self.st.current_player
        return p is not None and self.seat.get(p) == "human"

    def hand_over(self) -> None:
        """The next person has the keyboard: the table shows what they may see."""
        if self.handover is not None:
            self.viewer, self.handover = self.handover, None

    def waiting_for_person(self) -> bool:
        """True when the game waits for a person's decision (not one the table takes for them)."""
        if not self.human_to_act():
            return False
        if self.auto_kind == "all":
            return False
        acts = self.st.legal_actions()
        return len(acts) > 1 and decision_kind(self.st) != self.auto_kind

    def _apply(self, action) -> None:
        try:
            self.st.apply(action, atomic=True)
        except EngineError as exc:
            self.error = f"the rules failed on {getattr(action, 'id', action)}: {exc}; the game is left as it was"
            raise

    def step(self) -> bool:
        """Take one decision that is not a person's to take (an agent's, an obvious one, one of an
        `auto` run). False when the game waits for a person or is over."""
        st = self.st
        if st.over or st.pending is None:
            return False
        p = st.current_player
        if self.seat.get(p) == "human":
            acts = st.legal_actions()
            kind = decision_kind(st)
            if self.auto_kind not in (None, "all") and kind != self.auto_kind:
                self.auto_kind = None
                self.notes.append("auto: done")
            if len(acts) == 1:
                a = acts[0]
                self.notes.append(f"only one choice: {a.label}")
            elif kind == self.auto_kind or self.auto_kind == "all":
                a = self.auto_agent.act(st)
            else:
                return False
            self._apply(a)
            self.unsaved = True
            return True
        self._apply(self.agents[p].act(st))
        return True

    def advance(self, limit: int = 100_000) -> None:
        """Play every decision up to the next one a person must take (or the end)."""
        n = 0
        while n < limit and self.step():
            n += 1
        self._track_run()

    def _track_run(self):
        p = self.st.current_player
        if self.human_to_act() and p != self.viewer:  # hot seat: the table turns to the person to
            self.handover = p                          # act once the keyboard is theirs (app.py asks)
        kind = decision_kind(self.st)
        if kind is not None and kind == self._last_kind:
            self.run_length += 1
        else:
            self.run_length = 1 if kind is not None else 0
        self._last_kind = kind

    # ---- a person's decision ---------------------------------------------------------
    def choose(self, aid: str) -> None:
        """A person's decision (an action id). IllegalAction when it is not legal now."""
        st = self.st
        p = st.current_player
        if p is None or self.seat.get(p) != "human":
            raise IllegalAction("it is not your decision now")
        if aid not in {a.id for a in st.legal_actions()}:
            raise IllegalAction(f"{aid!r} is not legal now")
        self.undo_stack.append(undo_rules.Snapshot(st, p, self.human_decisions))
        self._apply(aid)
        self.unsaved = True
        self.human_decisions += 1
        self.last_decider = p

    def start_auto(self, everything: bool = False) -> str:
        """Let the computer finish the current run of decisions of this kind (placements), or
        (everything) play the person's seat to the end of the game."""
        if not self.human_to_act():
            return "auto works on your own decisions; it is not your turn to decide"
        self.auto_kind = "all" if everything else decision_kind(self.st)
        if self.auto_agent is None:
            from ...agents import make_agent

            self.auto_agent = make_agent("greedy:1" if self.st.rules.evaluate is not None else "random", self.st.seed)
        if everything:
            return "auto all: the computer plays your seat to the end of the game"
        return "auto: the computer finishes this run of decisions for you"

    # ---- undo that cannot cheat -------------------------------------------------------
    def can_undo(self) -> tuple[bool, str]:
        st = self.st

        def another_decided(me):
            return (self.human_to_act() and st.current_player != me) or (st.over and self.viewer != me)

        return undo_rules.check(self.undo_stack, st, another_decided)

    def undo(self) -> str:
        ok, why = self.can_undo()
        if not ok:
            return why
        snap = self.undo_stack.pop()
        self.st = snap.state.clone()
        self.human_decisions = snap.humans_before
        self.auto_kind = None
        self._last_kind = None
        self.run_length = 0
        self.unsaved = True
        return undo_rules.UNDONE

    def forget_undo(self) -> None:
        """Undo never reaches past what the person has seen: after a reveal or a roll the older
        snapshots cannot be used anyway; drop those that never can be."""
        self.undo_stack = undo_rules.forget(self.undo_stack, self.st)

    # ---- saving -------------------------------------------------------------------------
    def save(self, path: str) -> str:
        p = Path(path).expanduser()
        if p.is_dir():
            return f"cannot save: {path} is a folder"
        try:
            p.write_text(self.st.to_json(agents=self.seat))
        except OSError as exc:
            return f"cannot save to {path}: {exc.strerror or exc}"
        self.unsaved = False
        return f"saved to {path}; resume with: lotr-rules play --load {path}"

    def log_record(self) -> dict:
        st, game = self.st, self.game
        return {"game": game.name, "root": str(game.rules.root), "mods": list(game.rules.mods),
                "rules_digest": game.rules.digest, "seed": st.seed, "options": self.options,
                "players": len(st.seats), "actions": list(st.history), "winners": list(st.winners),
                "victory": st.victory, "scores": st.scores, "digest": st.digest()}

    def save_log(self, path: str) -> None:
        Path(path).write_text(json.dumps(self.log_record(), indent=1))
