"""Hidden information, one model: who may see what. Zones are public, hidden (a count is seen)
or their owner's; items lie face up or down (an item of a type with an owner faces its owner);
an item may have been shown to one player (reveal_to); a variable may be its owner's.

``view(state, player)`` is what a player may see; ``resample(state, player, rng)`` is a world
the player cannot tell from the true one (what they cannot see dealt anew), for agents that
search; both read the same rules of visibility (``sees``).
"""
from __future__ import annotations


def hidden_zone(zd, player) -> bool:
    """Whether a player sees only how many items a zone holds."""
    return zd.visibility == "hidden" or (zd.visibility == "owner" and zd.owner != player)


def back(st, item, player):
    """How a face-down item looks to a player: itself to its owner or to whom it was shown,
    else '?' (or '?owner' for an owned item, whose side shows on its back)."""
    if player is not None and player in st.shown.get(item, ()):
        return item
    owner = st.rules.item_owner.get(item)
    if owner is None:
        return "?"
    return item if owner == player else "?" + owner


def log_for(st, player=None, start: int = 0) -> list[str]:
    """The log lines from `start` as `player` may read them (None: the public log)."""
    entry = st.rules.log_entry
    out = []
    for e in st.log[start:]:
        e = entry(e)
        out.append(e if isinstance(e, str) else (e[1] if e[0] == player else e[2]))
    return out


def view(st, player=None, log_from: int = 0) -> dict:
    """What ``player`` may see (plain data); player=None gives the public view. The log is given
    from entry `log_from` on (a client that already holds the earlier lines asks for the rest)."""
    rules = st.rules
    zones = {}
    down = st.facedown
    shown = st.shown
    for zid, items in st.zones.items():
        zd = rules.zones[zid]
        if hidden_zone(zd, player):
            zones[zid] = {"count": sum(1 for i in items if i is not None)}
            known = [i for i in items if i in shown and player in shown[i]] if shown else ()
            if known:  # items shown to this player alone (reveal_to)
                zones[zid]["known"] = known
        else:  # a face-down item shows its back; an owned one still faces its owner
            zones[zid] = [None if i is None else (i if i not in down else back(st, i, player)) for i in items]
    hidden = rules.hidden_vars
    vars_ = {k: v for k, v in st.vars.items()
             if not k.startswith("@") and (k not in hidden or (hidden[k] is not None and hidden[k] == player))}
    pending = None
    if st.pending is not None:
        if st.pending["player"] == player:
            pending = dict(st.pending)
        else:
            pending = {"player": st.pending["player"], "type": st.pending["type"]}
    return {
        "game": rules.name, "viewer": player, "current_player": st.current_player,
        "vars": vars_, "zones": zones,
        "pieces": [[k, o, loc, n] for (k, o, loc), n in st.pieces.items()],
        "pending": pending, "over": st.over, "winners": list(st.winners), "victory": st.victory,
        "scores": st.scores, "log": log_for(st, player, log_from),
    }


def _remapped(x, remap):
    if isinstance(x, list):
        return [_remapped(v, remap) for v in x]
    if isinstance(x, dict):
        return {k: _remapped(v, remap) for k, v in x.items()}
    return remap.get(x, x) if isinstance(x, str) else x


def resample(st, player, rng):
    """A copy of the state as `player` might imagine it: what they cannot see dealt anew.

    An item the player cannot identify — in another player's private zone, in a hidden zone, or
    face down and not theirs — could be any other such item that started the game in the same
    place and shows the same back: so those items are dealt anew among all their places (the
    opponent's hand and the deck it was drawn from are one pool; two decks never mix; a hidden
    piece shows its owner's side, so it stays that owner's). Items shown to the player stay.
    Pieces that suspended effects or hidden variables name follow their places, so what the
    rules hold about "that piece" stays true in the sampled world. Counts per zone and
    everything public stay. Chance in the copy gets a fresh seed from rng."""
    s = st.clone()
    s.rng = rng.getrandbits(64)  # chance in the copy must not mirror the real future
    rules = s.rules
    owner_of, type_of, start = rules.item_owner, rules.item_type_of, rules.start_zone
    pools = {}
    shown = s.shown
    for zid, items in s.zones.items():
        zd = rules.zones[zid]
        private = zd.visibility == "owner" and zd.owner != player
        for i, it in enumerate(items):
            if it is None or (shown and player in shown.get(it, ())):
                continue  # an empty slot, or an item shown to this player: known
            o = owner_of.get(it)
            if not (private or zd.visibility == "hidden" or it in s.facedown) or o == player:
                continue  # the player sees it, or it faces them
            # the same back (its owner's side), the same origin (where it started the game)
            key = (o, start.get(it) or type_of.get(it))
            pools.setdefault(key, []).append((zid, i))
    remap = {}  # item -> the item now lying where it lay
    for places in pools.values():
        picked = [s.zones[z][i] for z, i in places]
        rng.shuffle(picked)
        for (z, i), it in zip(places, picked):
            lst = s.zone_list(z)
            remap[lst[i]] = it
            lst[i] = it
            s.where[it] = z
    hidden = rules.hidden_vars
    for k, v in s.vars.items():
        if k in hidden and hidden[k] != player and v in remap:
            s.vars[k] = remap[v]
    for fr in s.stack:
        env = fr[2]
        for k, v in env.items():
            if isinstance(v, str) and v in remap:
                env[k] = remap[v]
        if isinstance(fr[3], list):
            fr[3] = _remapped(fr[3], remap)
    s._memo.clear()
    s._legal = None
    return s
