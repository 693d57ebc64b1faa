"""What each primitive of the effect language does: one plain function per primitive, all named
in ``IMPL`` (their signatures, which the checker uses, are in ``dsl/signatures.py``; a test
checks that both name the same primitives). A primitive gets the state first; a statement that
acts for the frame's `me` (its signature says env) gets the frame's env second.

Failures a rule can cause raise ``RuleFailure`` in the language's terms; the interpreter adds
where they happened.

Why this module is large: it is the reference of what every primitive does (one short
function per primitive, about sixty); they share nothing but the state they act on.
"""
from __future__ import annotations

from itertools import chain

from .. import limits
from ..errors import RuleFailure, describe_value
from . import rng as _rng

# ---------------------------------------------------------------- collections
def _count(st, xs):
    """Number of elements of a list or items in a zone."""
    return len(xs)


def _sum(st, xs):
    """Sum of a list of numbers."""
    return sum(xs)


def _min(st, x, *rest):
    """Smallest of a list, or of several numbers. 0 for an empty list."""
    if rest:
        return min(x, *rest)
    return min(x) if x else 0


def _max(st, x, *rest):
    """Largest of a list, or of several numbers. 0 for an empty list."""
    if rest:
        return max(x, *rest)
    return max(x) if x else 0


def _any(st, xs):
    """True if some element is true."""
    return any(xs)


def _all(st, xs):
    """True if every element is true."""
    return all(xs)


def _distinct(st, xs):
    """The elements without repeats, first occurrence order."""
    return list(dict.fromkeys(xs))


def _sort(st, xs, descending=None):
    """The elements in order (highest first with descending=true), e.g. dice to pair."""
    return sorted(xs, reverse=bool(descending))


def _flatten(st, xs):
    """Concatenate a list of lists."""
    out = []
    for x in xs:
        if type(x) is list:
            out.extend(x)
        else:
            out.append(x)
    if len(out) > limits.MAX_LIST:  # (limits.sized, written in)
        raise RuleFailure(f"a list of more than {limits.MAX_LIST:,} elements")
    limits.charge(st, len(out))
    return out


def _range(st, a, b):
    """The integers a, a+1, ..., b-1 (at most 100,000 of them)."""
    return limits.span(st, a, b)


def _keys(st, m):
    """The keys of a map (e.g. a cost's skill symbols)."""
    return list(m) if m else []


def _get(st, m, k, default=None):
    """m[k], or default when the key is missing."""
    return (m or {}).get(k, default)


# ---------------------------------------------------------------- players
def _players(st):
    """The players taking part, in seat order."""
    return list(st.seats)


def _next_player(st, p):
    """The player after p in seat order."""
    ps = st.seats
    return ps[(ps.index(p) + 1) % len(ps)]


def _other(st, p):
    """The opponent of p in a two-player game (the next player otherwise)."""
    ps = st.seats
    return ps[(ps.index(p) + 1) % len(ps)]


def _teams(st):
    """The sides of this game, in seat order of their first player (each player is a side of
    its own when the game declares no teams:)."""
    return list(st.rules.teams_of(st.seats))


def _team_of(st, p):
    """The team (side) a seated player belongs to."""
    for t, ms in st.rules.teams_of(st.seats).items():
        if p in ms:
            return t
    return None


def _members(st, t):
    """The seated players of a team, in seat order."""
    ms = st.rules.teams_of(st.seats).get(t, ())
    return [p for p in st.seats if p in ms]


def _teammates(st, p):
    """The other players of p's team."""
    return [q for q in _members(st, _team_of(st, p)) if q != p]


def _opponents(st, p):
    """The seated players of the other teams."""
    mine = _members(st, _team_of(st, p))
    return [q for q in st.seats if q not in mine]


# ---------------------------------------------------------------- board
def _regions(st):
    """All regions of the board."""
    return list(st.rules.regions)


def _adjacent(st, r, kind=""):
    """Regions a connection leads to from r; with a kind, only connections whose props say
    kind: that (a one-way connection counts from its first region only)."""
    return list((st.rules.adj_kind.get(kind, {}) if kind else st.rules.adj).get(r, ()))


def _adjacent_from(st, r, kind=""):
    """Regions with a connection leading into r (of that kind, if given): one-way
    connections read backwards."""
    return list(st.rules.adj_in.get(kind or "", {}).get(r, ()))


def _reach(st, r, kind, through, backwards=None, avoid=None, steps=None):
    """Regions reachable from r by one or more connections of a kind (followed backwards
    if asked), passing only through regions listed in `through`; the last step may end
    anywhere. `avoid` lists connections not to use, as [a, b] pairs (either way); `steps`
    limits the number of connections crossed. Nearest first; r itself is not included."""
    links = (st.rules.adj_in if backwards else st.rules.adj_kind).get(kind or "", {})
    shut = {(a, b) for a, b in avoid or ()} | {(b, a) for a, b in avoid or ()}
    through = set(through)
    seen, frontier, out = {r}, [r], []
    left = -1 if steps is None else int(steps)
    while frontier and left != 0:
        left -= 1
        nxt = []
        for x in frontier:
            for y in links.get(x, ()):
                if y not in seen and (x, y) not in shut:
                    seen.add(y)
                    out.append(y)
                    if y in through:
                        nxt.append(y)
        frontier = nxt
    return out


def _distance(st, a, b):
    """The fewest connections leading from a to b (none if b cannot be reached)."""
    cache = st.rules.__dict__.setdefault("_distances", {})
    d = cache.get(a)
    if d is None:
        d, frontier, links = {a: 0}, [a], st.rules.adj_kind.get("", {})
        while frontier:
            nxt = []
            for x in frontier:
                for y in links.get(x, ()):
                    if y not in d:
                        d[y] = d[x] + 1
                        nxt.append(y)
            frontier = nxt
        cache[a] = d
    return d.get(b)


def _connected(st, a, b):
    """True if a and b are adjacent."""
    return b in st.rules.adj.get(a, ())


# ---------------------------------------------------------------- zones and items
def _size(st, z):
    """Number of items in a zone (empty tableau slots do not count)."""
    items = st.zones[z]
    return len(items) - items.count(None)


def _empty(st, z):
    """True if a zone holds no item."""
    items = st.zones[z]
    return items.count(None) == len(items)


def _top(st, z, n=1):
    """The top n items of a stack zone (top first)."""
    items = st.zones[z]
    n = int(n)
    return items[::-1][:n]


def _available(st, z):
    """Items of a tableau zone that are face up and covered by no item."""
    items = st.zones[z]
    fd = st.facedown
    out = []
    for it, cov in zip(items, st.rules.zones[z].covered_by):
        if it is not None and it not in fd:
            for j in cov:
                if items[j] is not None:
                    break
            else:
                out.append(it)
    return out


def _zone_of(st, x):
    """The zone an item is in (none if it is out of the game)."""
    return st.where.get(x)


def _usable(st, x, p, part=None):
    """True if player p may use item x now: its `if:` condition holds (always, without one);
    with a part, the `if:` of that part of its effects:."""
    f = st.rules.item_conds.get((x, part or ""))
    return True if f is None else bool(f(st, {"me": p, "this": x}))


def _key_of(st, z):
    """The key of a zone of a family (the key of at.north is north); none otherwise."""
    return st.rules.zones[z].key if z else None


def _owner_of(st, z):
    """The player a zone belongs to (none for shared zones)."""
    return st.rules.zones[z].owner if z else None


def _is_facedown(st, x):
    """True if the item lies face down."""
    return x in st.facedown


# ---------------------------------------------------------------- pieces
def _pieces(st, kind, owner, loc):
    """How many pieces of a kind (of an owner, or none) are at a location."""
    return st.pieces.get((kind, owner, loc), 0)


def _pieces_at(st, owner, loc):
    """How many pieces of any owned kind an owner has at a location."""
    g = st.pieces.get
    return sum(g((k, owner, loc), 0) for k in st.rules.owned_kinds)


def _occupied(st, kinds, owners):
    """The regions (in board order) holding any piece of these kinds owned by these owners.
    The places each kind and owner holds pieces at are indexed (st._occ), built from the pieces
    when first asked and kept by shift_pieces and set_pieces."""
    occ = st._occ
    if occ is None:
        occ = st._occ = {}
        for (k, o, loc), n in st.pieces.items():
            if n > 0:
                at = occ.get((k, o))
                if at is None:
                    at = occ[(k, o)] = set()
                at.add(loc)
    found = set()
    for k in kinds:
        for o in owners:
            at = occ.get((k, o))
            if at:
                found |= at
    order = st.rules.region_order
    return sorted([loc for loc in found if loc in order], key=order.__getitem__)


def _occ_moved(st, kind, owner, src, gone: bool, dst, new: bool) -> None:
    """Keep the index of places holding pieces (st._occ) after a move of pieces: `gone` when
    none are left at src, `new` when dst held none before."""
    key = (kind, owner)
    at = st._occ.get(key)
    if at is None:
        at = st._occ[key] = set()
    if gone:
        at.discard(src)
    if new:
        at.add(dst)


# ---------------------------------------------------------------- tracks, modifiers, costs
def _pos(st, track, owner):
    """An owner's position on a track."""
    return st.vars[f"{track}.{owner}"]


def _mod(st, p, name):
    """Sum of a modifier granted by the items in p's active zones."""
    total = 0
    grants = st.rules.grants
    for z in st.rules.active_zones.get(p, ()):
        for it in st.zones[z]:
            g = grants.get(it)
            if g:
                total += g.get(name, 0)
    return total


def shortfall_of(required: dict, providers: list) -> int:
    """Fewest required symbols left unmatched, each provider giving one symbol.

    A provider is a symbol or a list of alternative symbols (a "/" card, a wild).
    Fixed providers are matched first; the rest by augmenting paths (bipartite matching).
    """
    return _shortfall(None, required, providers)


def _shortfall(st, required, providers):
    """Required symbols that the providers (symbols or lists of alternatives) cannot cover."""
    if not required:
        return 0
    if type(required) is dict and type(providers) is list and list not in map(type, providers):
        short = total = 0  # no alternatives: count each symbol
        for sym, n in required.items():
            if type(n) is not int:
                break
            total += n
            if n > 0:
                n -= providers.count(sym)
                if n > 0:
                    short += n
        else:
            if total > limits.MAX_LIST:
                raise RuleFailure(f"a cost of more than {limits.MAX_LIST:,} symbols")
            return short
    elif type(required) is dict and type(providers) is list:
        # the symbols needed (a count each), less those the providers of one symbol give; then
        # the providers of alternatives (a "/" card, a wild) cover what they can of the rest
        need = {}
        total = 0
        for sym, n in required.items():
            if type(n) is not int:
                break
            total += n
            if n > 0:
                need[sym] = n
        else:
            if total > limits.MAX_LIST:
                raise RuleFailure(f"a cost of more than {limits.MAX_LIST:,} symbols")
            if not need:
                return 0
            flex = None
            for p in providers:
                if type(p) is list:
                    if len(p) != 1:
                        if flex is None:
                            flex = [p]
                        else:
                            flex.append(p)
                        continue
                    p = p[0]
                try:
                    n = need.get(p)
                except TypeError:  # (a provider that is no symbol gives none)
                    continue
                if n:
                    need[p] = n - 1
            short = 0
            for n in need.values():
                short += n
            if flex is None or not short:
                return short
            if len(flex) == 1:  # (the common case: it covers a symbol left if it offers one)
                alternatives = flex[0]
                for s, n in need.items():
                    if n and s in alternatives:
                        return short - 1
                return short
            return _unmatched([s for s, n in need.items() for _ in range(n)], flex)
    need = dict(required)
    if sum([n for n in need.values() if type(n) is int]) > limits.MAX_LIST:
        raise RuleFailure(f"a cost of more than {limits.MAX_LIST:,} symbols")
    flex = []
    for p in providers:
        if type(p) is list:
            if len(p) == 1:
                p = p[0]
            else:
                flex.append(p)
                continue
        try:
            n = need.get(p)
        except TypeError:  # (a provider that is no symbol gives none, as above)
            continue
        if n:
            need[p] = n - 1
    if not flex:
        return sum([n for n in need.values() if n > 0])
    slots = [s for s, n in need.items() for _ in range(n)]
    if not slots:
        return 0
    if len(flex) == 1:  # (the common case: one provider of alternatives covers a symbol if it offers one left)
        alternatives = flex[0]
        for s in slots:
            if s in alternatives:
                return len(slots) - 1
        return len(slots)
    return _unmatched(slots, flex)


def _unmatched(slots, flex) -> int:
    """The symbols needed (one slot each) that the providers of alternatives cannot cover, by
    a largest matching (augmenting paths)."""
    match = {}  # slot index -> flex index
    for f in range(len(flex)):
        _augment(slots, flex, match, f, set())
        if len(match) == len(slots):  # (every slot matched: no provider left can cover more)
            break
    return len(slots) - len(match)


def _augment(slots, flex, match, f, seen) -> bool:
    """An augmenting path for provider f (shortfall_of); a function of its own, not a closure:
    a recursive closure is a reference cycle that only the garbage collector frees."""
    for si, s in enumerate(slots):
        if s in flex[f] and si not in seen:
            seen.add(si)
            if si not in match or _augment(slots, flex, match, match[si], seen):
                match[si] = f
                return True
    return False


# ---------------------------------------------------------------- chance
def _roll(st, sides):
    """A die roll 1..sides from the game's seeded random source."""
    return _rng.below(st, int(sides)) + 1


def _pick_random(st, xs):
    """One element drawn at random (none from an empty list)."""
    return xs[_rng.below(st, len(xs))] if xs else None


# ================================================================ statements
def _move(st, item, zone, at="top", face=None):
    """Move an item to a zone (on top, or at='bottom'); face 'up'/'down' overrides the zone's default."""
    if item is None or zone is None:
        return
    r = st.rules
    zdef = r.zones[zone]
    if zdef.tableau:
        raise ValueError(f"cannot move an item into tableau zone {zone!r}; use deal")
    dirty = zdef.bit | r.where_bit | r.face_bit
    old = st.where.get(item)
    zones, own = st.zones, st._zown  # (State.zone_list, written in: a list shared is copied first)
    if old is not None:
        odef = r.zones[old]
        lst = zones[old]
        if own is not None and old not in own:
            lst = zones[old] = lst.copy()
            own.add(old)
        if odef.tableau:
            lst[lst.index(item)] = None
        elif lst[-1] == item:  # the top of a stack, most often (an item lies in one place only)
            lst.pop()
        else:
            del lst[lst.index(item)]
        dirty |= odef.bit
        if odef.touch:
            st.moved += odef.touch
    lst = zones[zone]
    if own is not None and zone not in own:
        lst = zones[zone] = lst.copy()
        own.add(zone)
    if at == "bottom":
        lst.insert(0, item)
    else:
        lst.append(item)
    st.where[item] = zone
    if st.shown:
        st.shown.pop(item, None)  # what was shown of it was shown where it lay
    if (face or zdef.face) == "down":
        st.facedown.add(item)
    else:
        st.facedown.discard(item)
    if zdef.touch:
        st.moved += zdef.touch
    bits = r.item_bits
    if bits and item in bits:  # an item the rules ask where it lies (zone_of) by name
        dirty |= bits[item]
    st.dirty |= dirty


_move_item = _move  # (the primitives that move items one by one)


def _move_top(st, src, dst, n=1):
    """Move the top n items of one stack onto another (as many as there are)."""
    lst = st.zones[src]
    if st.rules.zones[src].tableau:
        raise ValueError(f"move_top cannot take from tableau {src!r}; move its items one by one")
    k = len(lst)  # (at most as many as there are: onto itself too)
    if n < k:
        k = int(n)
    if k > 0:  # (a list shared with another state is copied only when something moves: zone_list)
        if st._zown is not None:
            lst = st.zone_list(src)  # (moves change this list in place)
        for _ in range(k):
            _move_item(st, lst[-1], dst)


def _shuffle(st, z):
    """Shuffle a zone with the game's seeded random source (what was shown of its items to
    one player is forgotten: nobody can follow them through a shuffle)."""
    if len(st.zones[z]) > 1:  # (one item or none: no draw, and nothing to copy)
        _rng.shuffle(st, st.zones[z] if st._zown is None else st.zone_list(z))
    if st.shown:
        for it in st.zones[z]:
            if st.shown.pop(it, None) is not None:
                st.dirty |= st.rules.face_bit
    st.dirty |= st.rules.zones[z].bit
    st.moved += st.rules.zones[z].touch


def _deal(st, tableau, src):
    """Fill a tableau's slots from the top of a stack, face up or down as each slot says."""
    zdef = st.rules.zones[tableau]
    slots, pile = st.zones[tableau], st.zones[src]
    if pile and None in slots:  # (something to deal: this state's own lists, copied if shared)
        slots, pile = st.zone_list(tableau), st.zone_list(src)
    for i in range(len(slots)):
        if slots[i] is None and pile:
            item = pile.pop()
            slots[i] = item
            st.where[item] = tableau
            st.dirty |= st.rules.item_bits.get(item, 0)
            if zdef.slot_face[i] == "down":
                st.facedown.add(item)
            else:
                st.facedown.discard(item)
    st.dirty |= zdef.bit | st.rules.zones[src].bit | st.rules.where_bit | st.rules.face_bit
    st.moved += zdef.touch + st.rules.zones[src].touch


def _reveal_uncovered(st, tableau):
    """Turn face up every face-down item of a tableau that nothing covers any more."""
    items = st.zones[tableau]
    fd = st.facedown
    if fd.isdisjoint(items):
        return
    uncovered = False
    for it, cov in zip(items, st.rules.zones[tableau].covered_by):
        if it in fd:  # (None never is)
            for j in cov:
                if items[j] is not None:
                    break
            else:
                fd.discard(it)
                uncovered = True
    if uncovered:
        st.dirty |= st.rules.zones[tableau].bit | st.rules.face_bit
        st.moved += st.rules.zones[tableau].touch


def _reveal(st, x):
    """Turn an item (or each item of a list) face up."""
    for i in (x if isinstance(x, list) else [x]):
        if i not in st.where:
            raise ValueError(f"reveal needs an item in play, not {i!r}")
        st.facedown.discard(i)
    st.dirty |= st.rules.face_bit


def _conceal(st, x):
    """Turn an item (or each item of a list) face down."""
    for i in (x if isinstance(x, list) else [x]):
        if i not in st.where:
            raise ValueError(f"conceal needs an item in play, not {i!r}")
        st.facedown.add(i)
        st.shown.pop(i, None)
    st.dirty |= st.rules.face_bit


def _reveal_to(st, x, p):
    """Show an item (or each item of a list) to one player only: face down or in a zone hidden
    from them, it now shows as itself in their view (and their agents know it), until it moves,
    its zone is shuffled, or it is concealed."""
    if p not in st.seats:
        raise RuleFailure(f"reveal_to needs a seated player, not {describe_value(p)}")
    for i in (x if isinstance(x, list) else [x]):
        if i not in st.where:
            raise RuleFailure(f"reveal_to needs an item in play, not {describe_value(i)}")
        seen = st.shown.get(i, ())
        if p not in seen:
            st.shown[i] = seen + (p,)
    st.dirty |= st.rules.face_bit


def _known_to(st, x, p):
    """True if player p may see item x: face up in a zone p sees, or shown to p (reveal_to)."""
    if x not in st.where:
        return False
    if p in st.shown.get(x, ()):
        return True
    zd = st.rules.zones[st.where[x]]
    if zd.visibility == "hidden" or (zd.visibility == "owner" and zd.owner != p):
        return False
    return x not in st.facedown or st.rules.item_owner.get(x) == p


def shift_pieces(st, kind, owner, n, src, dst) -> int:
    """Move up to n pieces (as many as there are) from one location to another (none as
    either location: nothing moves); the number moved."""
    if src is None or dst is None:  # (from or to no place, e.g. a choice among none: nothing moves)
        return 0
    key = (kind, owner, src)
    have = st.pieces.get(key, 0)
    n = min(int(n), have)
    if n <= 0:
        return 0
    if have == n:
        del st.pieces[key]
    else:
        st.pieces[key] = have - n
    key2 = (kind, owner, dst)
    before = st.pieces.get(key2, 0)
    st.pieces[key2] = before + n
    if st._occ is not None:
        _occ_moved(st, kind, owner, src, have == n, dst, before <= 0)
    bits = st.rules.kind_bits[kind]
    if bits:  # (0: a kind nothing memoised and no trigger reads, build/module.link: nothing to tell)
        st.dirty |= bits
        st.moved += (owner, src, dst)
    return n


_shift = shift_pieces  # (the primitive itself: one call, not a wrapper's two)


def _place(st, kind, owner, n, dst):
    """Put up to n of the owner's pieces from their supply at a location."""
    shift_pieces(st, kind, owner, n, "supply", dst)


def _remove(st, kind, owner, n, src):
    """Return up to n of the owner's pieces from a location to their supply."""
    shift_pieces(st, kind, owner, n, src, "supply")


_INT, _STR = frozenset([int]), frozenset([str])
_OVER_TEXT: dict = {}  # (winners, the victory shown, scores) -> the log line's template (_end_game, _over_text)


def _end_game(st, winners, victory, scores=None):
    """End the game now with these winners (several for a shared victory; [] for a draw).
    scores: one number per seated player, in seat order (points, or a payoff such as chips won),
    kept in the result for agents and statistics."""
    st.over = True
    winners = st.winners = list(winners)
    st.victory = victory
    if scores is not None:
        if len(scores) != len(st.seats) or not _INT.issuperset(map(type, scores)):  # (bool is no number here)
            raise RuleFailure(f"end_game scores need one number per seated player ({len(st.seats)}), "
                              f"got {describe_value(scores)}")
        st.scores = dict(zip(st.seats, scores))
    st.stack.clear()
    st.pending = None
    shown = st.rules.victory_names.get(victory, victory) if type(victory) is str else victory  # (display: victories:)
    if type(shown) is str:
        key = (len(winners), shown, None if scores is None else len(scores))
        text = _OVER_TEXT.get(key)
        if text is None:
            text = _over_text(*key)
            if len(_OVER_TEXT) < 10_000:
                _OVER_TEXT[key] = text
        if text and _STR.issuperset(map(type, winners)):
            # written out when read (Rules.log_line), as a log(...) line is: the same text
            args = tuple(winners) if scores is None else (*winners, *chain.from_iterable(st.scores.items()))
            if st._shared:
                st._own()
            st.log.append((text, args))  # (st.say, written in)
            return
    st.say(over_words(st.rules, winners, victory, st.scores if scores is not None else None)["line"])


def over_words(rules, winners, victory, scores=None) -> dict:
    """The end of a game in words, as the log's "game over" line says it (_end_game): who won
    ("Red wins", "Red and Blue win", "nobody wins"), the victory as `display: victories:` words it, the
    scores, and the whole line. Front ends show these, never the victory's id."""
    shown = rules.victory_names.get(victory, victory) if type(victory) is str else victory
    names = [rules.display(w) for w in winners]
    who = (f"{names[0]} wins" if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]} win"
           if names else "nobody wins")
    points = ", ".join(f"{rules.display(p)} {v}" for p, v in scores.items()) if scores else ""
    return {"who": who, "victory": "" if shown is None else str(shown), "points": points,
            "line": f"game over: {who} ({shown})" + (f"; {points}" if points else "")}


def _over_text(n: int, shown, n_scores) -> str:
    """The log line's template of a game's end (_end_game): n winners by name, the victory as
    shown, then each player's score; "" when the victory's text holds braces (the line is then
    written out at once)."""
    if "{" in shown or "}" in shown:
        return ""
    who = ("{} wins" if n == 1 else ", ".join(["{}"] * (n - 1)) + " and {} win" if n else "nobody wins")
    points = "" if n_scores is None else "; " + ", ".join(["{} {}"] * n_scores)
    return f"game over: {who} ({shown}){points}"


def _log(st, msg, *args):
    """Add a line to the game log; each {} in msg is filled with the next argument (items,
    regions and players by their names; a list as its elements' names)."""
    # written out when read (Rules.log_entry); lists copied now, as they are now
    for a in args:
        if isinstance(a, list):
            args = tuple(list(a) if isinstance(a, list) else a for a in args)
            break
    if st._shared:  # (State.say, written in)
        st._own()
    st.log.append((str(msg), args))


def _advance(st, env, track, owner, n):
    """Move an owner's marker n spaces along a track (never past its end). Each space
    reached or passed runs its effect once, for that owner."""
    t = st.rules.tracks[track]
    key = f"{track}.{owner}"
    old = st.vars[key]
    new = max(0, min(t.length, old + int(n)))
    if new == old:
        return
    st.vars[key] = new
    st.dirty |= t.bit
    crossed = [p for p in t.spaces if old < p <= new]
    crossed.sort(reverse=True)
    for p in crossed:
        st.stack.append([t.spaces[p], 0, {"me": owner}, None])


def _resolve(st, env, x, part=None):
    """Carry out an item's effect (or the named part of it: resolve(card, 'combat') runs its
    effects: combat), on behalf of the current player; nothing if it has none."""
    block = st.rules.item_effects.get((x, part or ""))
    if block is not None:
        st.stack.append([block, 0, {"me": env.get("me"), "this": x}, None])


IMPL = {
    'count': _count,
    'sum': _sum,
    'min': _min,
    'max': _max,
    'any': _any,
    'all': _all,
    'distinct': _distinct,
    'sort': _sort,
    'flatten': _flatten,
    'range': _range,
    'keys': _keys,
    'get': _get,
    'players': _players,
    'next_player': _next_player,
    'other': _other,
    'teams': _teams,
    'team_of': _team_of,
    'members': _members,
    'teammates': _teammates,
    'opponents': _opponents,
    'regions': _regions,
    'adjacent': _adjacent,
    'adjacent_from': _adjacent_from,
    'reach': _reach,
    'distance': _distance,
    'connected': _connected,
    'size': _size,
    'empty': _empty,
    'top': _top,
    'available': _available,
    'zone_of': _zone_of,
    'usable': _usable,
    'key_of': _key_of,
    'owner_of': _owner_of,
    'is_facedown': _is_facedown,
    'pieces': _pieces,
    'pieces_at': _pieces_at,
    'occupied': _occupied,
    'pos': _pos,
    'mod': _mod,
    'shortfall': _shortfall,
    'roll': _roll,
    'pick_random': _pick_random,
    'move': _move,
    'move_top': _move_top,
    'shuffle': _shuffle,
    'deal': _deal,
    'reveal_uncovered': _reveal_uncovered,
    'reveal': _reveal,
    'conceal': _conceal,
    'reveal_to': _reveal_to,
    'known_to': _known_to,
    'shift': _shift,
    'place': _place,
    'remove': _remove,
    'end_game': _end_game,
    'log': _log,
    'advance': _advance,
    'resolve': _resolve,
}
