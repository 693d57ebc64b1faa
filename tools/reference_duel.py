"""A hand-written Duel for Middle-earth in plain Python: the yardstick for the engine.

This module plays the same game as ``games/duel/`` run by the rules interpreter, from the same
seed and the same choices, with the same action ids, but every rule is written here by hand in
plain Python (lists, dicts, ints; no interpreter). It reads only the *data* from the game's
YAML files: enums (skills, races), piece counts, regions, connections, the three chapter
layouts, and every card, tile and token (colour, costs, chains, races, regions, the simple
``gain(n)`` / ``quest(n)`` / ``muster(n, a, b)`` / ``maneuvers(r, l, m)`` parameters of the
chapter cards). The rules themselves (setup, chapters, prices, chaining, alliances, conflicts,
movements, the quest track, the immediate victories, the landmarks' and tokens' effects) are
the Python below; ``games/duel/game.yaml`` and the rulebooks (003 / 000 in
``../shared/rules``) say what they are, the engine's behaviour being the specification.

API (a state is a ``State``; functions, not methods, like a small game library)::

    s = new_game(seed, set_aside='discard')
    legal_actions(s) -> list[str]        # 'take:c1_14:play', 'choose:muster:rohan', ...
    apply(s, action_id)                  # in place; ValueError if illegal
    is_terminal(s), winners(s), victory(s), current_player(s)
    clone(s)                             # a cheap copy
    snapshot(s)                          # public (and hidden) facts named as the engine names them

The only chance is the setup's shuffles: SplitMix64 with the engine's ``below`` and
Fisher-Yates ``shuffle`` (``interpreter/engine/rng.py``), reproduced here, consumed in the
same order (decks 1, 2, 3, the token stacks by race, the landmark pile).

How an effect waits for a decision: the rest of the turn is a stack of small tasks (tuples
whose first element is the function that runs them, the others ints and ids); a decision is
a tuple of the ids it offers, the values they stand for, a resume function and its context.
Neither is ever changed in place, so a clone shares them and copies only the state's lists.

Run as a script to play random games: ``python tools/reference_duel.py [games] [seed]``.
"""
from __future__ import annotations

import glob
import os
import re
import sys
from bisect import insort

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME_DIR = os.path.join(ROOT, "games", "duel")

# ---------------------------------------------------------------------------------- data
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=_Loader)


_GAME = _load(os.path.join(GAME_DIR, "game.yaml"))
_BOARD = _load(os.path.join(GAME_DIR, "board.yaml"))

PLAYERS = tuple(_GAME["players"])                 # seat order: fellowship, sauron
FELLOWSHIP, SAURON = 0, 1
SKILLS = tuple(_GAME["enums"]["skills"])
SKILL_INDEX = {k: i for i, k in enumerate(SKILLS)}
RACES = tuple(_GAME["enums"]["races"])
UNITS_PER_PLAYER = _GAME["pieces"]["unit"]["per_player"]
FORTRESSES_PER_PLAYER = _GAME["pieces"]["fortress"]["per_player"]
COINS_TOTAL = _GAME["pieces"]["coin"]["total"]
QUEST_LENGTH = _GAME["tracks"]["quest"]["length"]
SET_ASIDE_CHOICES = tuple(_GAME["options"]["set_aside"]["choices"])

REGIONS = tuple(_BOARD["regions"])
NREG = len(REGIONS)
RINDEX = {r: i for i, r in enumerate(REGIONS)}


def _adjacency():
    adj = {r: [] for r in REGIONS}
    for a, b in _BOARD["connections"]:
        for x, y in ((a, b), (b, a)):
            if y not in adj[x]:
                adj[x].append(y)
    return tuple(tuple(RINDEX[y] for y in adj[r]) for r in REGIONS)


ADJ = _adjacency()


def _layout(name):
    slots = _BOARD["tableaux"][name]["slots"]
    names = list(slots)
    faces = tuple(slots[s].get("face", "up") == "down" for s in names)
    cover = tuple(tuple(names.index(c) for c in slots[s].get("covered_by") or ()) for s in names)
    covers = tuple(tuple(j for j in range(len(names)) if i in cover[j]) for i in range(len(names)))
    return faces, cover, covers


# LAYOUT[ch] = (face-down flags per slot, the slots covering each slot, the slots each slot
# covers); the zones are layout1..3
LAYOUT = {ch: _layout(f"chapter{ch}") for ch in (1, 2, 3)}

ITEMS = []      # every item in declaration order (alliances, chapter1..3, landmarks: file order)
START = {}      # item -> its zone at the start
COLOR, COST_COINS, COST, CHAIN_IN, CHAIN_OUT, PROVIDES, RACE, EFFECT, REGION, EAGLE = (
    {}, {}, {}, {}, {}, {}, {}, {}, {}, {})
_CALL = re.compile(r"^\s*(\w+)\((.*)\)\s*$")


def _effect(text):
    """A chapter card's effect: one call of gain/quest/muster/maneuvers with constant arguments."""
    if not text:
        return None
    m = _CALL.match(str(text))
    if not m:
        raise ValueError(f"reference_duel: unexpected chapter card effect {text!r}")
    args = tuple(int(a) if a.strip().isdigit() else RINDEX[a.strip()] for a in m.group(2).split(","))
    if m.group(1) not in ("gain", "quest", "muster", "maneuvers"):
        raise ValueError(f"reference_duel: unexpected chapter card effect {text!r}")
    return (m.group(1),) + args


for _path in sorted(glob.glob(os.path.join(GAME_DIR, "cards", "*.yaml"))):
    _doc = _load(_path)
    _defaults = _doc.get("defaults") or {}
    for _it in _doc["items"]:
        _d = dict(_defaults, **_it)
        _i = _d["id"]
        ITEMS.append(_i)
        START[_i] = _d.get("at")
        COLOR[_i] = _d.get("color")
        COST_COINS[_i] = _d.get("cost_coins", 0)
        COST[_i] = tuple((SKILL_INDEX[k], n) for k, n in (_d.get("cost_skills") or {}).items() if n > 0)
        CHAIN_IN[_i] = _d.get("chain_in")
        CHAIN_OUT[_i] = _d.get("chain_out")
        PROVIDES[_i] = tuple(tuple(SKILL_INDEX[k] for k in p) if isinstance(p, list) else SKILL_INDEX[p]
                             for p in _d.get("provides") or ())
        RACE[_i] = _d.get("race")
        REGION[_i] = RINDEX[_d["region"]] if _d.get("region") else None
        EAGLE[_i] = bool(_d.get("eagle"))
        EFFECT[_i] = _effect(_d.get("effect")) if _doc.get("type") == "chapter_card" else None
del _path, _doc, _defaults, _it, _d, _i

GREEN, GREY, YELLOW, BLUE = "green", "grey", "yellow", "blue"
WILD = tuple(range(len(SKILLS)))    # the Elves token's skill of any kind
PLAY_ID = {c: f"take:{c}:play" for c in ITEMS}
DISCARD_ID = {c: f"take:{c}:discard" for c in ITEMS}
LANDMARK_ID = {c: f"landmark:{c}" for c in ITEMS}
MOVE_OF = {}
for _c in ITEMS:
    MOVE_OF[PLAY_ID[_c]] = (0, _c)
    MOVE_OF[DISCARD_ID[_c]] = (1, _c)
    MOVE_OF[LANDMARK_ID[_c]] = (2, _c)
del _c
TOKENS_OF = {r: [i for i in ITEMS if START[i] == f"tokens.{r}"] for r in RACES}

# ---------------------------------------------------------------------------------- chance
MASK = (1 << 64) - 1


def _below(s, n):
    """Uniform in [0, n) from the SplitMix64 state s.rng (the engine's rng.below)."""
    if n <= 1:
        return 0
    limit = MASK - (MASK % n)
    r = s.rng
    while True:
        r = (r + 0x9E3779B97F4A7C15) & MASK
        z = r
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z < limit:
            s.rng = r
            return z % n


def _shuffle(s, items):
    for i in range(len(items) - 1, 0, -1):
        j = _below(s, i + 1)
        items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------------------------- state
ASK = "ask"   # the pending decision of a turn: take a card or a landmark


class State:
    """One game. Players are 0 (Fellowship) and 1 (Sauron); regions are indices into REGIONS."""

    __slots__ = ("seed", "rng", "set_aside", "chapter", "cur", "coins", "reserve",
                 "units", "usup", "forts", "fsup", "quest", "extra", "three",
                 "decks", "layouts", "down", "discard", "box", "area", "allies", "tokens",
                 "revealed", "lm_pile", "lm_row", "lms",
                 "uncov", "ncov", "left", "fixed", "flex", "chains", "pc",
                 "tasks", "pend", "legal", "over", "winners", "victory")

    def clone(self):
        n = State.__new__(State)
        n.seed, n.rng, n.set_aside, n.chapter, n.cur = self.seed, self.rng, self.set_aside, self.chapter, self.cur
        n.coins = self.coins[:]
        n.reserve = self.reserve
        n.units = [self.units[0][:], self.units[1][:]]
        n.usup = self.usup[:]
        n.forts = [self.forts[0][:], self.forts[1][:]]
        n.fsup = self.fsup[:]
        n.quest = self.quest[:]
        n.extra = self.extra[:]
        n.three = self.three[:]
        n.decks = [None, self.decks[1][:], self.decks[2][:], self.decks[3][:]]
        n.layouts = [None, self.layouts[1][:], self.layouts[2][:], self.layouts[3][:]]
        n.down = [None, self.down[1][:], self.down[2][:], self.down[3][:]]
        n.discard = self.discard[:]
        n.box = self.box[:]
        n.area = [self.area[0][:], self.area[1][:]]
        n.allies = [self.allies[0][:], self.allies[1][:]]
        n.tokens = {r: v[:] for r, v in self.tokens.items()}
        n.revealed = self.revealed[:]
        n.lm_pile = self.lm_pile[:]
        n.lm_row = self.lm_row[:]
        n.lms = [self.lms[0][:], self.lms[1][:]]
        n.uncov = self.uncov[:]
        n.ncov = self.ncov[:]
        n.left = self.left
        n.pc = self.pc[:]                # caches: replaced, never changed, when they go stale
        n.fixed = [self.fixed[0][:], self.fixed[1][:]]
        n.flex = [self.flex[0][:], self.flex[1][:]]
        n.chains = [self.chains[0].copy(), self.chains[1].copy()]
        n.tasks = self.tasks[:]          # tuples: shared
        n.pend = self.pend               # immutable once made
        n.legal = self.legal             # a list never changed in place
        n.over, n.winners, n.victory = self.over, self.winners, self.victory
        return n


def clone(s):
    return s.clone()


def new_game(seed=0, set_aside="discard"):
    """003 "Setup": shuffle the decks, token stacks and landmarks; 2 Units each in Arnor and
    Mordor; 3 coins to the Fellowship, 2 to Sauron; Sauron begins; chapter 1 is dealt."""
    if set_aside not in SET_ASIDE_CHOICES:
        raise ValueError(f"set_aside is one of {SET_ASIDE_CHOICES}, not {set_aside!r}")
    s = State.__new__(State)
    s.seed = int(seed)
    s.rng = int(seed) & MASK
    s.set_aside = set_aside
    s.chapter = 0
    s.coins = [0, 0]
    s.reserve = COINS_TOTAL
    s.units = [[0] * NREG, [0] * NREG]
    s.usup = [UNITS_PER_PLAYER, UNITS_PER_PLAYER]
    s.forts = [[0] * NREG, [0] * NREG]
    s.fsup = [FORTRESSES_PER_PLAYER, FORTRESSES_PER_PLAYER]
    s.quest = [0, 0]
    s.extra = [0, 0]
    s.three = [False, False]
    s.decks = [None] + [[i for i in ITEMS if START[i] == f"deck.{ch}"] for ch in (1, 2, 3)]
    s.layouts = [None] + [[None] * len(LAYOUT[ch][0]) for ch in (1, 2, 3)]
    s.down = [None] + [[False] * len(LAYOUT[ch][0]) for ch in (1, 2, 3)]
    s.discard, s.box, s.revealed = [], [], []
    s.area, s.allies, s.lms = [[], []], [[], []], [[], []]
    s.tokens = {r: list(TOKENS_OF[r]) for r in RACES}
    s.lm_pile = [i for i in ITEMS if START[i] == "landmark_pile"]
    s.lm_row = []
    s.fixed = [[0] * len(SKILLS), [0] * len(SKILLS)]
    s.flex = [[], []]
    s.chains = [set(), set()]
    s.pc = [{}, {}]
    s.tasks = []
    s.pend = None
    s.legal = None
    s.over, s.winners, s.victory = False, [], None
    for ch in (1, 2, 3):
        _shuffle(s, s.decks[ch])
    for r in RACES:
        _shuffle(s, s.tokens[r])
    _shuffle(s, s.lm_pile)
    arnor, mordor = RINDEX["arnor"], RINDEX["mordor"]
    s.units[FELLOWSHIP][arnor] = 2
    s.units[SAURON][mordor] = 2
    s.usup = [UNITS_PER_PLAYER - 2, UNITS_PER_PLAYER - 2]
    s.coins = [3, 2]
    s.reserve -= 5
    s.cur = SAURON
    _start_chapter(s, 1)
    s.pend = ASK
    return s


def _start_chapter(s, ch):
    """003 "Preparing a chapter": deal the layout from the top of the deck, slot by slot; the 3
    cards left over go face down to the discard (or out of the game); the Landmark row is
    refilled to 3 face up."""
    s.chapter = ch
    deck, lay, down = s.decks[ch], s.layouts[ch], s.down[ch]
    faces, cover, _ = LAYOUT[ch]
    for i in range(len(lay)):
        if lay[i] is None and deck:
            lay[i] = deck.pop()
            down[i] = faces[i]
    # what the turn loop keeps up to date: cards left, covering cards per slot, uncovered slots
    s.left = sum(1 for c in lay if c is not None)
    s.ncov = [sum(1 for j in cover[i] if lay[j] is not None) for i in range(len(lay))]
    s.uncov = [i for i in range(len(lay)) if lay[i] is not None and not s.ncov[i]]
    dst = s.discard if s.set_aside == "discard" else s.box
    for _ in range(3):
        if deck:
            dst.append(deck.pop())
    while len(s.lm_row) < 3 and s.lm_pile:
        s.lm_row.append(s.lm_pile.pop())


# ---------------------------------------------------------------------------------- queries
def is_terminal(s):
    return s.over


def winners(s):
    return [PLAYERS[p] for p in s.winners]


def victory(s):
    return s.victory


def current_player(s):
    return None if s.over else PLAYERS[s.cur]


def _shortfall(cost, fixed, flex):
    """Skill symbols of `cost` ((skill, n) pairs) that fixed skill counts plus one symbol from
    each "/" provider in `flex` cannot cover (the best assignment)."""
    total = 0
    rem = None
    for k, n in cost:
        r = n - fixed[k]
        if r > 0:
            total += r
            if flex:
                if rem is None:
                    rem = [0] * len(SKILLS)
                rem[k] = r
    if not total or not flex:
        return total
    return total - _match(rem, flex, 0, len(flex))


def _match(rem, flex, i, n):
    """The most providers flex[i:] can match to the remaining needed symbols (rem)."""
    if i == n:
        return 0
    best = _match(rem, flex, i + 1, n)
    for k in flex[i]:
        if rem[k] > 0:
            rem[k] -= 1
            v = 1 + _match(rem, flex, i + 1, n)
            rem[k] += 1
            if v > best:
                best = v
                if best == n - i:
                    break
    return best


def _flex_of(s, p):
    """A player's "/" skill cards in play order, then the Elves wild skill."""
    if "elves_3" in s.allies[p]:
        return s.flex[p] + [WILD]
    return s.flex[p]


def _chained(s, p, card):
    ci = CHAIN_IN[card]
    return ci is not None and ci in s.chains[p]


def _base_price(s, p, item):
    """Coins of a card or tile plus 1 per skill symbol the player's skills leave uncovered
    (kept until the player's area or tokens change)."""
    pc = s.pc[p]
    v = pc.get(item)
    if v is None:
        v = pc[item] = COST_COINS[item] + _shortfall(COST[item], s.fixed[p], _flex_of(s, p))
    return v


def _card_price(s, p, card):
    return 0 if _chained(s, p, card) else _base_price(s, p, card)


def _surcharge(s, p):
    if "dwarves_1" in s.allies[p]:
        return 0
    return sum(s.forts[p])


def _presence(s, p):
    u, f = s.units[p], s.forts[p]
    n = 0
    for r in range(NREG):
        if u[r] or f[r]:
            n += 1
    return n


def _races_of(s, p):
    out = []
    for c in s.area[p]:
        if COLOR[c] == GREEN and RACE[c] not in out:
            out.append(RACE[c])
    return out


def _support(s, p):
    return len(_races_of(s, p)) + sum(1 for t in s.allies[p] if EAGLE[t])


def legal_actions(s):
    if s.legal is not None:
        return s.legal
    if s.over:
        out = []
    elif s.pend is ASK:
        out = _turn_actions(s)
    else:
        out = s.pend[0]
    s.legal = out
    return out


def _turn_actions(s):
    """003 "Take a Chapter card" / "Take a Landmark tile": an uncovered face-up card, played
    (if affordable) or discarded; a Landmark tile if affordable and a Fortress is left."""
    p = s.cur
    ch = s.chapter
    lay, down = s.layouts[ch], s.down[ch]
    coins = s.coins[p]
    avail = [lay[i] for i in s.uncov if not down[i]]
    out = []
    if avail:
        chains, pc = s.chains[p], s.pc[p]
        for c in avail:
            ci = CHAIN_IN[c]
            if ci is not None and ci in chains:
                out.append(PLAY_ID[c])
            else:
                v = pc.get(c)
                if v is None:
                    v = _base_price(s, p, c)
                if coins >= v:
                    out.append(PLAY_ID[c])
        for c in avail:
            out.append(DISCARD_ID[c])
    if s.fsup[p] > 0 and s.lm_row:
        base = _surcharge(s, p)
        for t in s.lm_row:
            if coins >= base + _base_price(s, p, t):
                out.append(LANDMARK_ID[t])
    return out


# ---------------------------------------------------------------------------------- decisions
_IDS = {}


def _cid(label, v):
    key = (label, v)
    x = _IDS.get(key)
    if x is None:
        x = _IDS[key] = f"choose:{label}:{v}"
    return x


def _choose(s, label, values, names, optional, resume, ctx):
    """Wait for a choice among values (shown by names); optional adds '<label>:none'."""
    ids = [_cid(label, n) for n in names]
    if optional:
        ids.append(_cid(label, "none"))
        values = values + [None]
    s.pend = (ids, values, resume, ctx)


def _may(s, label, resume, ctx):
    s.pend = ([_cid(label, "yes"), _cid(label, "no")], [True, False], resume, ctx)


def apply(s, aid):
    """Apply a legal action id in place (ValueError if it is not legal now)."""
    if s.over:
        raise ValueError(f"the game is over; {aid!r} cannot be played")
    pend = s.pend
    if pend is ASK:
        if aid not in legal_actions(s):
            raise ValueError(f"{aid!r} is not a legal action now")
        s.pend = None
        s.legal = None
        kind, card = MOVE_OF[aid]
        if kind == 0:
            _take_play(s, card)
        elif kind == 1:
            _take_discard(s, card)
        else:
            _take_landmark(s, card)
    else:
        ids, values, resume, ctx = pend
        try:
            i = ids.index(aid)
        except ValueError:
            raise ValueError(f"{aid!r} is not a legal action now") from None
        s.pend = None
        s.legal = None
        resume(s, values[i], ctx)
    _run(s)
    return s


def _run(s):
    """Carry out the tasks left until a decision is needed or the game ends; an empty task
    list ends the turn (the flow of game.yaml)."""
    tasks = s.tasks
    while s.pend is None and not s.over:
        if tasks:
            t = tasks.pop()
            t[0](s, t)
        else:
            _end_turn(s)


def _end_turn(s):
    """003 "Turn overview": reveal what the turn uncovered, then the other player's turn
    unless an extra turn is due; "End of a chapter" after its last card; then the majority."""
    ch = s.chapter
    down = s.down[ch]
    for i in s.uncov:
        down[i] = False
    empty = not s.left
    p = s.cur
    if s.extra[p] > 0:
        s.extra[p] -= 1
    else:
        s.cur = 1 - p
    if empty:
        if ch == 3:
            _final_scoring(s)
            return
        _start_chapter(s, ch + 1)
    s.pend = ASK


def _final_scoring(s):
    """003 "End of the game": the most regions wins; a tie shares the victory."""
    pres = [_presence(s, 0), _presence(s, 1)]
    best = max(pres)
    w = [p for p in (0, 1) if pres[p] == best]
    _end(s, w, "shared" if len(w) > 1 else "majority")


def _end(s, w, kind):
    s.over = True
    s.winners = w
    s.victory = kind
    s.tasks.clear()
    s.pend = None


# ---- the immediate victories, checked where what they read changes (003 "End of the game")
def _check_support(s, p):
    if _support(s, p) >= 6:
        _end(s, [p], "support")


def _check_conquest(s, p):
    if _presence(s, p) == NREG:
        _end(s, [p], "conquest")


# ---------------------------------------------------------------------------------- coins
def _gain(s, p, n):
    n = min(n, s.reserve)
    if n > 0:
        s.reserve -= n
        s.coins[p] += n


def _pay(s, p, n):
    n = min(n, s.coins[p])
    if n > 0:
        s.coins[p] -= n
        s.reserve += n


# ---------------------------------------------------------------------------------- moves
def _take_from_layout(s, card):
    """A card leaves its slot: the slots it covered lose a cover (uncovered when none is left)."""
    ch = s.chapter
    lay = s.layouts[ch]
    i = lay.index(card)
    lay[i] = None
    s.down[ch][i] = False
    s.left -= 1
    uncov = s.uncov
    uncov.remove(i)
    ncov = s.ncov
    for j in LAYOUT[ch][2][i]:
        ncov[j] -= 1
        if not ncov[j] and lay[j] is not None:
            insort(uncov, j)


def _take_discard(s, card):
    """003 "Discard the card": face down to the discard, coins = chapter number (x2 with the
    Humans' Merchants token)."""
    p = s.cur
    _take_from_layout(s, card)
    s.discard.append(card)
    _gain(s, p, s.chapter * (2 if "humans_3" in s.allies[p] else 1))


def _take_play(s, card):
    """Pay (unless chained), then play the card."""
    p = s.cur
    free = _chained(s, p, card)
    s.tasks.append((_t_play_card, p, card, free))
    if not free:
        _start_pay(s, p, COST[card], COST_COINS[card])


def _take_landmark(s, tile):
    """003 "Take a Landmark tile": pay coins + 1 per own Fortress on the board + missing
    skills, place a Fortress in its region, then its effect."""
    p = s.cur
    s.tasks.append((_t_landmark, p, tile))
    _start_pay(s, p, COST[tile], COST_COINS[tile] + _surcharge(s, p))


# ---- paying a cost: one choice per "/" provider whose choice matters
def _start_pay(s, p, cost, price):
    flex = _flex_of(s, p)
    if not flex:
        _pay(s, p, price + _shortfall(cost, s.fixed[p], flex))
        return
    _pay_step(s, p, cost, price, s.fixed[p][:], list(flex), 0)


def _pay_step(s, p, cost, price, fixed, flex, i):
    coins = s.coins[p]
    n = len(flex)
    while i < n:
        later = flex[i + 1:]
        opts = []
        for k in flex[i]:
            for ck, cn in cost:
                if ck == k:
                    fixed[k] += 1
                    ok = price + _shortfall(cost, fixed, later) <= coins
                    fixed[k] -= 1
                    if ok:
                        opts.append(k)
                    break
        if len(opts) > 1:
            _choose(s, "use_skill", opts, [SKILLS[k] for k in opts], False, _resume_pay,
                    (p, cost, price, fixed, flex, i))
            return
        if opts:
            fixed[opts[0]] += 1
        i += 1
    _pay(s, p, price + _shortfall(cost, fixed, ()))


def _resume_pay(s, k, ctx):
    p, cost, price, fixed, flex, i = ctx
    fixed = fixed[:]        # the decision is shared with clones: never change it in place
    fixed[k] += 1
    _pay_step(s, p, cost, price, fixed, flex, i + 1)


# ---- playing a card (from the layout or from the discard)
def _to_area(s, p, card):
    s.area[p].append(card)
    s.pc[p] = {}
    if COLOR[card] == GREY:
        for x in PROVIDES[card]:
            if type(x) is tuple:
                s.flex[p].append(x)
            else:
                s.fixed[p][x] += 1
    co = CHAIN_OUT[card]
    if co is not None:
        s.chains[p].add(co)


def _recompute_area(s, p):
    s.fixed[p] = [0] * len(SKILLS)
    s.pc[p] = {}
    s.flex[p] = []
    s.chains[p] = set()
    cards = s.area[p]
    s.area[p] = []
    for c in cards:
        _to_area(s, p, c)


def _t_play_card(s, t):
    """Move the card to the player's area, carry out its effect, then tell the listeners."""
    _, p, card, chained = t
    if card in s.discard:
        s.discard.remove(card)
    else:
        _take_from_layout(s, card)
    _to_area(s, p, card)
    if COLOR[card] == GREEN:
        _check_support(s, p)
        if s.over:
            return
    s.tasks.append((_t_played, p, card, chained))
    eff = EFFECT[card]
    if eff is not None:
        kind = eff[0]
        if kind == "gain":
            _gain(s, p, eff[1])
        elif kind == "quest":
            _quest(s, p, eff[1])
        elif kind == "muster":
            _muster(s, p, eff[1], eff[2], eff[3])
        else:
            _maneuvers(s, p, eff[1], eff[2], eff[3])


def _t_played(s, t):
    """The event 'played': first the race alliances (green cards), then the lasting tokens the
    player held when the card was played, in their declaration order."""
    _, p, card, chained = t
    tasks = s.tasks
    al = s.allies[p]
    color = COLOR[card]
    if chained and "hobbits_3" in al:
        tasks.append((_t_gain, p, 3))
    if color == BLUE and "hobbits_2" in al:
        tasks.append((_t_place_anywhere, p, 1))
    if color == GREEN and "dwarves_3" in al:
        tasks.append((_t_movements, p, 2))
    if color == YELLOW:
        if "humans_1" in al:
            tasks.append((_t_quest, p, 1))
        if "elves_1" in al:
            tasks.append((_t_extra_turn, p))
    if color == GREEN:
        _alliances(s, p, RACE[card])


def _t_gain(s, t):
    _gain(s, t[1], t[2])


def _t_quest(s, t):
    _quest(s, t[1], t[2])


def _t_extra_turn(s, t):
    s.extra[t[1]] += 1


# ---- race alliances (003 "Race alliances")
def _alliances(s, p, race):
    """The second symbol of a race: the top 2 tokens of that race; then, once per game, three
    different races: the top token of each."""
    s.tasks.append((_t_three_races, p))
    n = 0
    for c in s.area[p]:
        if RACE[c] == race:
            n += 1
    if n == 2:
        st = s.tokens[race]
        _alliance(s, p, st[::-1][:2])


def _t_three_races(s, t):
    p = t[1]
    if s.three[p]:
        return
    races = _races_of(s, p)
    if len(races) >= 3:
        s.three[p] = True
        _alliance(s, p, [s.tokens[r][-1] for r in races if s.tokens[r]])


def _alliance(s, p, options):
    """Reveal the tokens, keep one, return the others face down on top of their stacks."""
    rev = s.revealed
    for t in options:
        s.tokens[RACE[t]].remove(t)
        rev.append(t)
    if len(rev) > 1:
        _choose(s, "keep_token", list(rev), rev[:], False, _resume_keep, p)
    elif rev:
        _resume_keep(s, rev[0], p)


def _resume_keep(s, token, p):
    rev = s.revealed
    rev.remove(token)
    s.allies[p].append(token)
    if token == "elves_3":   # the wild skill changes prices
        s.pc[p] = {}
    if EAGLE[token]:
        _check_support(s, p)
        if s.over:
            return
    for t in rev:
        s.tokens[RACE[t]].append(t)
    rev.clear()
    _token_effect(s, p, token)


def _token_effect(s, p, token):
    """The tokens that act once, when won (Ents, Wizards); the others last (see their uses)."""
    if token == "ents_1":
        s.extra[p] += 1
    elif token == "ents_2":
        _remove_enemy_fortress(s, p)
    elif token == "ents_3":
        _t_ent_march(s, (_t_ent_march, p, 3))
    elif token == "wizards_1":
        _quest(s, p, 2)
    elif token == "wizards_2":
        _t_place_anywhere(s, (_t_place_anywhere, p, 2))
    elif token == "wizards_3":
        _play_from_discard(s, p)


def _t_ent_march(s, t):
    """Three times: remove an enemy Unit, make the opponent lose a coin, or move a Unit."""
    _, p, n = t
    if n <= 0:
        return
    s.tasks.append((_t_ent_march, p, n - 1))
    o = 1 - p
    opts = []
    if sum(s.units[o]) > 0:
        opts.append("remove")
    if s.coins[o] > 0:
        opts.append("coin")
    if sum(s.units[p]) > 0:
        opts.append("move")
    if len(opts) > 1:
        _choose(s, "ent_action", opts, opts, False, _resume_ent, p)
    elif opts:
        _resume_ent(s, opts[0], p)


def _resume_ent(s, what, p):
    if what == "remove":
        _remove_enemy_unit(s, p)
    elif what == "coin":
        _pay(s, 1 - p, 1)
    else:
        _movement(s, p)


def _play_from_discard(s, p):
    """Barad-dur, Wizard's Memory: play one card of the discard for free (or none)."""
    if s.discard:
        d = list(s.discard)
        _choose(s, "from_discard", d, d, True, _resume_from_discard, p)


def _resume_from_discard(s, card, p):
    if card is not None:
        _t_play_card(s, (_t_play_card, p, card, False))


# ---- the quest track (003 "Quest of the Ring"): bonuses at 3, 6, 9, 12, victory at the end
def _quest(s, p, n):
    old = s.quest[p]
    new = min(QUEST_LENGTH, max(0, old + n))
    if new == old:
        return
    s.quest[p] = new
    if new >= QUEST_LENGTH:
        _end(s, [p], "quest")
        return
    tasks = s.tasks
    for space in (12, 9, 6, 3):
        if old < space <= new:
            tasks.append((_t_bonus, p, space))


def _t_bonus(s, t):
    _, p, space = t
    if space == 3:
        _may(s, "quest_coin", _resume_bonus, (p, 3))
    elif space == 6:
        if s.usup[p] > 0:
            _may(s, "quest_unit", _resume_bonus, (p, 6))
    elif space == 9:
        _may(s, "quest_turn", _resume_bonus, (p, 9))
    elif sum(s.forts[1 - p]) > 0:
        _may(s, "quest_fortress", _resume_bonus, (p, 12))


def _resume_bonus(s, yes, ctx):
    if not yes:
        return
    p, space = ctx
    if space == 3:
        _gain(s, p, 1)
    elif space == 6:
        _t_place_anywhere(s, (_t_place_anywhere, p, 1))
    elif space == 9:
        s.extra[p] += 1
    else:
        _remove_enemy_fortress(s, p)


# ---- units: placing, conflicts, movements, removals (003 "Conquering Middle-earth")
def _place_units(s, p, n, r):
    """Units from the supply into a region; enemy Units there cancel them one for one."""
    m = min(n, s.usup[p])
    o = 1 - p
    k = min(m, s.units[o][r])
    if k > 0:
        s.units[o][r] -= k
        s.usup[o] += k
    m -= k
    if m > 0:
        s.units[p][r] += m
        s.usup[p] -= m
        _check_conquest(s, p)


def _muster(s, p, n, a, b):
    """Red cards: all the Units into one of the card's two regions (any region with the
    Elves' Paths token); one more Unit with the Humans' Levy token."""
    opts = list(range(NREG)) if "elves_2" in s.allies[p] else ([a, b] if a != b else [a])
    if len(opts) > 1:
        _choose(s, "muster", opts, [REGIONS[r] for r in opts], False, _resume_muster, (p, n))
    else:
        _resume_muster(s, opts[0], (p, n))


def _resume_muster(s, r, ctx):
    p, n = ctx
    _place_units(s, p, n + (1 if "humans_2" in s.allies[p] else 0), r)


_ALL_REGIONS = list(range(NREG))


def _t_place_anywhere(s, t):
    """n times: one Unit from the supply into any region (while the supply lasts)."""
    _, p, n = t
    if n <= 0:
        return
    if n > 1:
        s.tasks.append((_t_place_anywhere, p, n - 1))
    if s.usup[p] > 0:
        _choose(s, "place_unit", _ALL_REGIONS, REGIONS, False, _resume_place, p)


def _resume_place(s, r, p):
    _place_units(s, p, 1, r)


def _t_movements(s, t):
    _, p, n = t
    if n <= 0:
        return
    if n > 1:
        s.tasks.append((_t_movements, p, n - 1))
    _movement(s, p)


def _movement(s, p):
    """One Unit to an adjacent region (may be declined); entering enemy Units costs one of each."""
    u = s.units[p]
    opts = [r for r in range(NREG) if u[r] > 0]
    if opts:
        _choose(s, "move_from", opts, [REGIONS[r] for r in opts], True, _resume_move_from, p)


def _resume_move_from(s, src, p):
    if src is None:
        return
    dsts = ADJ[src]
    if len(dsts) > 1:
        _choose(s, "move_to", list(dsts), [REGIONS[r] for r in dsts], False, _resume_move_to, (p, src))
    else:
        _resume_move_to(s, dsts[0], (p, src))


def _resume_move_to(s, dst, ctx):
    p, src = ctx
    o = 1 - p
    if s.units[o][dst] > 0:
        s.units[o][dst] -= 1
        s.usup[o] += 1
        s.units[p][src] -= 1
        s.usup[p] += 1
    else:
        s.units[p][src] -= 1
        s.units[p][dst] += 1
        _check_conquest(s, p)


def _remove_enemy_unit(s, p):
    uo = s.units[1 - p]
    opts = [r for r in range(NREG) if uo[r] > 0]
    if len(opts) > 1:
        _choose(s, "remove_unit", opts, [REGIONS[r] for r in opts], False, _resume_remove_unit, p)
    elif opts:
        _resume_remove_unit(s, opts[0], p)


def _resume_remove_unit(s, r, p):
    s.units[1 - p][r] -= 1
    s.usup[1 - p] += 1


def _remove_enemy_fortress(s, p):
    fo = s.forts[1 - p]
    opts = [r for r in range(NREG) if fo[r] > 0]
    if len(opts) > 1:
        _choose(s, "remove_fortress", opts, [REGIONS[r] for r in opts], False, _resume_remove_fortress, p)
    elif opts:
        _resume_remove_fortress(s, opts[0], p)


def _resume_remove_fortress(s, r, p):
    s.forts[1 - p][r] -= 1
    s.fsup[1 - p] += 1


def _maneuvers(s, p, removals, losses, moves):
    """Purple cards: the opponent loses coins, then removals and movements in any order."""
    _pay(s, 1 - p, losses)
    _t_maneuver(s, (_t_maneuver, p, removals, moves))


def _t_maneuver(s, t):
    _, p, r, m = t
    if r > 0 and m > 0:
        _choose(s, "maneuver", ["remove", "move"], ["remove", "move"], False, _resume_maneuver, (p, r, m))
    elif r > 0:
        _resume_maneuver(s, "remove", (p, r, m))
    elif m > 0:
        _resume_maneuver(s, "move", (p, r, m))


def _resume_maneuver(s, what, ctx):
    p, r, m = ctx
    if what == "remove":
        if r + m > 1:
            s.tasks.append((_t_maneuver, p, r - 1, m))
        _remove_enemy_unit(s, p)
    else:
        if r + m > 1:
            s.tasks.append((_t_maneuver, p, r, m - 1))
        _movement(s, p)


# ---- landmarks (003 "Take a Landmark tile"; effects: FACTS.md section 8)
def _t_landmark(s, t):
    """After paying: the tile to the player, a Fortress in its region, the Dwarves' Builders
    token (another turn), then the tile's own effect."""
    _, p, tile = t
    s.lm_row.remove(tile)
    s.lms[p].append(tile)
    r = REGION[tile]
    if s.fsup[p] > 0:
        s.fsup[p] -= 1
        s.forts[p][r] += 1
        _check_conquest(s, p)
        if s.over:
            return
    if "dwarves_2" in s.allies[p]:
        s.extra[p] += 1
    if tile == "barad_dur":
        _play_from_discard(s, p)
    elif tile == "bree":
        s.tasks.append((_t_movements, p, 2))
        _place_units(s, p, 2, RINDEX["arnor"])
    elif tile == "erebor":
        _gain(s, p, 5)
        _movement(s, p)
    elif tile == "grey_havens":
        opts = [r for r in RACES if s.tokens[r]]
        if len(opts) > 1:
            _choose(s, "havens_race", opts, opts, False, _resume_havens, p)
        elif opts:
            _resume_havens(s, opts[0], p)
    elif tile == "helms_deep":
        _place_units(s, p, 3, RINDEX["rohan"])
    elif tile == "isengard":
        opts = [c for c in s.area[1 - p] if COLOR[c] == GREY]
        if len(opts) > 1:
            _choose(s, "discard_grey", opts, opts, False, _resume_isengard, p)
        else:
            _resume_isengard(s, opts[0] if opts else None, p)
    elif tile == "minas_tirith":
        _place_units(s, p, 1, RINDEX["gondor"])
        if not s.over:
            _quest(s, p, 2)


def _resume_havens(s, race, p):
    _alliance(s, p, s.tokens[race][::-1][:2])


def _resume_isengard(s, card, p):
    if card is not None:
        o = 1 - p
        s.area[o].remove(card)
        _recompute_area(s, o)
        s.discard.append(card)
    _quest(s, p, 1)


# ---------------------------------------------------------------------------------- snapshot
_FACE_DOWN_ZONES = ("deck", "discard", "box", "tokens", "landmark_pile")


def snapshot(s):
    """Facts to compare with the engine, named as the engine names them: zones (contents in
    order, tableau slots with None), face-down items, pieces {(kind, owner, location): n},
    variables, whose decision it is, the end."""
    P = PLAYERS
    zones = {}
    for ch in (1, 2, 3):
        zones[f"deck.{ch}"] = list(s.decks[ch])
    for ch in (1, 2, 3):
        zones[f"layout{ch}"] = list(s.layouts[ch])
    zones["discard"] = list(s.discard)
    zones["box"] = list(s.box)
    for p in (0, 1):
        zones[f"area.{P[p]}"] = list(s.area[p])
    for p in (0, 1):
        zones[f"allies.{P[p]}"] = list(s.allies[p])
    for r in RACES:
        zones[f"tokens.{r}"] = list(s.tokens[r])
    zones["revealed"] = list(s.revealed)
    zones["landmark_pile"] = list(s.lm_pile)
    zones["landmark_row"] = list(s.lm_row)
    for p in (0, 1):
        zones[f"landmarks.{P[p]}"] = list(s.lms[p])
    down = set()
    for z, items in zones.items():
        if z.split(".")[0] in _FACE_DOWN_ZONES:
            down.update(items)
    for ch in (1, 2, 3):
        for c, d in zip(s.layouts[ch], s.down[ch]):
            if c is not None and d:
                down.add(c)
    pieces = {}
    for p in (0, 1):
        if s.usup[p]:
            pieces[("unit", P[p], "supply")] = s.usup[p]
        if s.fsup[p]:
            pieces[("fortress", P[p], "supply")] = s.fsup[p]
        for r in range(NREG):
            if s.units[p][r]:
                pieces[("unit", P[p], REGIONS[r])] = s.units[p][r]
            if s.forts[p][r]:
                pieces[("fortress", P[p], REGIONS[r])] = s.forts[p][r]
        if s.coins[p]:
            pieces[("coin", None, P[p])] = s.coins[p]
    if s.reserve:
        pieces[("coin", None, "reserve")] = s.reserve
    vars_ = {"set_aside": s.set_aside, "chapter": s.chapter, "current": P[s.cur]}
    for p in (0, 1):
        vars_[f"extra_turns.{P[p]}"] = s.extra[p]
        vars_[f"three_races_used.{P[p]}"] = s.three[p]
        vars_[f"quest.{P[p]}"] = s.quest[p]
    return {
        "zones": zones,
        "facedown": sorted(down),
        "pieces": pieces,
        "coins": {P[0]: s.coins[0], P[1]: s.coins[1], "reserve": s.reserve},
        "quest": {P[0]: s.quest[0], P[1]: s.quest[1]},
        "vars": vars_,
        "chapter": s.chapter,
        "current_player": current_player(s),
        "over": s.over,
        "winners": winners(s),
        "victory": s.victory,
    }


# ---------------------------------------------------------------------------------- script
def playout(seed, set_aside="discard", rng=None):
    """One random game (uniform over the sorted legal ids, random.Random(seed)); returns
    (state, number of actions)."""
    import random

    rnd = rng or random.Random(seed)
    s = new_game(seed, set_aside)
    n = 0
    while not s.over:
        ids = sorted(legal_actions(s))
        apply(s, rnd.choice(ids))
        n += 1
    return s, n


def main(argv=None):
    import time

    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    t = time.perf_counter()
    total = 0
    wins = {}
    for g in range(seed, seed + games):
        s, n = playout(g)
        total += n
        key = (tuple(winners(s)), s.victory)
        wins[key] = wins.get(key, 0) + 1
    dt = time.perf_counter() - t
    print(f"{games} games, {total} actions in {dt:.2f} s: {total / dt:,.0f} actions/s")
    for k, v in sorted(wins.items(), key=lambda kv: -kv[1]):
        print(f"  {v:5d}  {' & '.join(k[0]) or 'nobody'} ({k[1]})")


if __name__ == "__main__":
    main()
