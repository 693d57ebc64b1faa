"""Editing a game's state from outside the rules, in the rules' own terms: the public state-edit
API that rule scenarios (set-up steps), tools and front ends use instead of private fields.
Each edit keeps the state whole (every item in one place, pieces moved to and from their
home), and the state forgets what it had derived from before (legal actions, memoised values).

    state.edit({"vars": {"current": "blue"}, "items": {"card_7": "market.A1"},
                "pieces": [{"kind": "coin", "owner": None, "at": "blue", "count": 5}],
                "facedown": [...], "faceup": [...], "move_all": {"hand.blue": "deck"},
                "to_act": "blue"})
"""
from __future__ import annotations


def _home(rules, kind, owner):
    d = rules.kinds[kind]
    return d.get("at", "supply")


def set_pieces(st, kind, owner, at, count):
    """Set a count of pieces at a location, moving the difference from/to the kind's home."""
    home = _home(st.rules, kind, owner)
    key = (kind, owner, at)
    have = st.pieces.get(key, 0)
    hkey = (kind, owner, home)
    if at == home:
        raise ValueError("set pieces at a location other than their home")
    delta = count - have
    if st.pieces.get(hkey, 0) < delta:
        raise ValueError(f"not enough {kind} at {home} to put {count} at {at}")
    st.pieces[hkey] = st.pieces.get(hkey, 0) - delta
    st.pieces[key] = count
    for k in (key, hkey):
        if st.pieces[k] == 0:
            del st.pieces[k]
    st._occ = None  # the index of places holding pieces is built again when next asked


def put_item(st, item, target):
    """Move an item to a zone, or into a tableau slot 'zone.slot' (swapping with its occupant)."""
    rules = st.rules
    if item not in rules.props or item in rules.players or item in rules.regions:
        raise ValueError(f"unknown item {item!r}")
    zone, slot = target, None
    if target not in rules.zones and "." in target:
        zone, slot = target.rsplit(".", 1)
    if zone not in rules.zones:
        raise ValueError(f"unknown zone {target!r}")
    old = st.where.get(item)
    zd = rules.zones[zone]
    if zd.tableau:
        if slot not in zd.slot_names:
            raise ValueError(f"tableau {zone!r} has no slot {slot!r}")
        i = zd.slot_names.index(slot)
        occupant = st.zones[zone][i]
        # take the item out of its old place, putting the occupant there instead
        if old is not None:
            lst = st.zone_list(old)
            j = lst.index(item)
            if occupant is not None:
                lst[j] = occupant
                st.where[occupant] = old
            elif rules.zones[old].tableau:
                lst[j] = None
            else:
                del lst[j]
        elif occupant is not None:
            del st.where[occupant]
        st.zone_list(zone)[i] = item
        st.where[item] = zone
        st.facedown.discard(item)
        return
    if old is not None:
        lst = st.zone_list(old)
        j = lst.index(item)
        if rules.zones[old].tableau:
            lst[j] = None
        else:
            del lst[j]
    st.zone_list(zone).append(item)
    st.where[item] = zone
    if zd.face == "down":
        st.facedown.add(item)
    else:
        st.facedown.discard(item)


def apply(st, setup: dict):
    """Apply a set of edits (the keys of a scenario's setup:, docs/scenarios.md), in this
    order: vars, move_all, items, pieces, facedown, faceup, to_act."""
    rules = st.rules
    for k, v in (setup.get("vars") or {}).items():
        if k not in st.vars:
            raise ValueError(f"unknown variable {k!r}")
        st.vars[k] = v
    for src, dst in (setup.get("move_all") or {}).items():
        if src not in rules.zones:
            raise ValueError(f"unknown zone {src!r}")
        for item in [i for i in st.zones[src] if i is not None]:
            put_item(st, item, dst)
    for item, target in (setup.get("items") or {}).items():
        put_item(st, item, target)
    for p in setup.get("pieces") or []:
        owner = None if p.get("owner") in (None, "none") else p["owner"]
        if p["kind"] not in rules.kinds:
            raise ValueError(f"unknown piece kind {p['kind']!r}")
        set_pieces(st, p["kind"], owner, p["at"], int(p["count"]))
    for item in setup.get("facedown") or []:
        st.facedown.add(item)
    for item in setup.get("faceup") or []:
        st.facedown.discard(item)
    if "to_act" in setup:
        if st.pending is None:
            raise ValueError("no pending decision to hand over")
        st.pending = dict(st.pending, player=setup["to_act"])
    st._legal = None
    st._memo.clear()
    st.dirty = 0
