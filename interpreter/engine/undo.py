"""Undo that cannot cheat, for every table (the terminal's and the browser's): a person takes
back their own last decision, with the computer's moves after it, unless chance has spoken
since (the state's rng changed), something new was revealed to them since, or another person
decided since. A table keeps a Snapshot before each of a person's decisions and asks `check`
before it restores one; the words are the ones the person reads."""
from __future__ import annotations

NOTHING = "nothing to undo: you have made no decision since the last one that cannot be undone"
ANOTHER = "undo takes back only your own last decision; another person decided since"
CHANCE = "chance has spoken since your last decision (dice, a shuffle or a draw): it cannot be undone"
REVEALED = "something was revealed to you since your last decision: it cannot be undone"
UNDONE = "undone: back to before your last decision"


def known_items(st, viewer) -> frozenset:
    """Every item the viewer can identify now (lying face up, in their own zones, shown to them)."""
    v = st.view(viewer)
    out = set()
    for seen in v["zones"].values():
        if isinstance(seen, dict):
            out.update(seen.get("known", ()))
        else:
            out.update(x for x in seen if x)
    return frozenset(out)


class Snapshot:
    """The state before a person's decision, and what that person knew then."""
    __slots__ = ("state", "player", "known", "rng", "humans_before")

    def __init__(self, st, player, humans_before=0):
        self.state = st.clone()
        self.player = player
        self.known = known_items(st, player)
        self.rng = st.rng
        self.humans_before = humans_before


def check(stack: list, st, another_decided=None) -> tuple[bool, str]:
    """(True, "") when the newest snapshot of the stack may be restored over the state st, else
    (False, why). another_decided(player): whether another person decided since that player's
    last decision (the table knows who sits where)."""
    if not stack:
        return False, NOTHING
    snap = stack[-1]
    if another_decided is not None and another_decided(snap.player):
        return False, ANOTHER
    if st.rng != snap.rng:
        return False, CHANCE
    if not known_items(st, snap.player) <= snap.known:
        return False, REVEALED
    return True, ""


def forget(stack: list, st) -> list:
    """The snapshots that may still be used over st: after a reveal or a roll the older ones
    never can be (undo never reaches past what the person has seen)."""
    keep = []
    for snap in stack:
        if snap.rng == st.rng and known_items(st, snap.player) <= snap.known:
            keep.append(snap)
        else:
            keep = []
    return keep
