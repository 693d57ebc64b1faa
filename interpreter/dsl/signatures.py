"""The signature of every primitive of the effect language: its parameters and their types,
what it returns, whether it draws on chance, and what it does (the reference `lotr-rules schema
dsl`, grammar/PRIMITIVES.md and docs/modding.md are generated from this table).

The checker needs only these; the implementations are in ``engine/primitives.py`` (a test
checks that both name the same primitives). Functions (``fn``) are pure queries; statements
(``stmt``) change the state.

Types: int, bool, str, player, region, item, zone, kind, track, list, map, conn (a kind of
connection, as text), any; ``a|b`` is either. In a parameter list ``name:type=default`` marks
an optional parameter and ``*name:type`` a variadic tail.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Signature:
    name: str
    kind: str        # "fn" or "stmt"
    params: tuple    # ((name, type, has_default, default, variadic), ...)
    returns: str
    doc: str
    chance: bool = False
    env: bool = False  # a statement that acts for the frame's `me` (it gets the env)


def _params(spec) -> tuple:
    out = []
    for p in spec:
        variadic = p.startswith("*")
        p = p.lstrip("*")
        default, has_default = None, False
        if "=" in p:
            p, d = p.split("=", 1)
            has_default = True
            default = None if d == "" else d
        name, typ = p.split(":")
        out.append((name, typ, has_default, default, variadic))
    return tuple(out)


def fn(name, params, returns, doc, chance=False) -> Signature:
    return Signature(name, "fn", _params(params), returns, doc, chance)


def stmt(name, params, doc, env=False) -> Signature:
    return Signature(name, "stmt", _params(params), "none", doc, env=env)


SIGNATURES: dict = {s.name: s for s in [
    fn('count', ['xs:list'], 'int',
       'Number of elements of a list or items in a zone.'),
    fn('sum', ['xs:list'], 'int',
       'Sum of a list of numbers.'),
    fn('min', ['x:any', '*rest:int'], 'int',
       'Smallest of a list, or of several numbers. 0 for an empty list.'),
    fn('max', ['x:any', '*rest:int'], 'int',
       'Largest of a list, or of several numbers. 0 for an empty list.'),
    fn('any', ['xs:list'], 'bool',
       'True if some element is true.'),
    fn('all', ['xs:list'], 'bool',
       'True if every element is true.'),
    fn('distinct', ['xs:list'], 'list',
       'The elements without repeats, first occurrence order.'),
    fn('sort', ['xs:list', 'descending:bool='], 'list',
       'The elements in order (highest first with descending=true), e.g. dice to pair.'),
    fn('flatten', ['xs:list'], 'list',
       'Concatenate a list of lists.'),
    fn('range', ['a:int', 'b:int'], 'list',
       'The integers a, a+1, ..., b-1 (at most 100,000 of them).'),
    fn('keys', ['m:map'], 'list',
       "The keys of a map (e.g. a cost's skill symbols)."),
    fn('get', ['m:map', 'k:any', 'default:any='], 'any',
       'm[k], or default when the key is missing.'),
    fn('players', [], 'list',
       'The players taking part, in seat order.'),
    fn('next_player', ['p:player'], 'player',
       'The player after p in seat order.'),
    fn('other', ['p:player'], 'player',
       'The opponent of p in a two-player game (the next player otherwise).'),
    fn('teams', [], 'list',
       'The sides of this game, in seat order of their first player (each player is a side of its own when the game declares no teams:).'),
    fn('team_of', ['p:player'], 'any',
       'The team (side) a seated player belongs to.'),
    fn('members', ['t:any'], 'list',
       'The seated players of a team, in seat order.'),
    fn('teammates', ['p:player'], 'list',
       "The other players of p's team."),
    fn('opponents', ['p:player'], 'list',
       'The seated players of the other teams.'),
    fn('regions', [], 'list',
       'All regions of the board.'),
    fn('adjacent', ['r:region', 'kind:conn='], 'list',
       'Regions a connection leads to from r; with a kind, only connections whose props say kind: that (a one-way connection counts from its first region only).'),
    fn('adjacent_from', ['r:region', 'kind:conn='], 'list',
       'Regions with a connection leading into r (of that kind, if given): one-way connections read backwards.'),
    fn('reach', ['r:region', 'kind:conn', 'through:list', 'backwards:bool=', 'avoid:list=', 'steps:int='], 'list',
       'Regions reachable from r by one or more connections of a kind (followed backwards if asked), passing only through regions listed in `through`; the last step may end anywhere. `avoid` lists connections not to use, as [a, b] pairs (either way); `steps` limits the number of connections crossed. Nearest first; r itself is not included.'),
    fn('distance', ['a:region', 'b:region'], 'int',
       'The fewest connections leading from a to b (none if b cannot be reached).'),
    fn('connected', ['a:region', 'b:region'], 'bool',
       'True if a and b are adjacent.'),
    fn('size', ['z:zone'], 'int',
       'Number of items in a zone (empty tableau slots do not count).'),
    fn('empty', ['z:zone'], 'bool',
       'True if a zone holds no item.'),
    fn('top', ['z:zone', 'n:int=1'], 'list',
       'The top n items of a stack zone (top first).'),
    fn('available', ['z:zone'], 'list',
       'Items of a tableau zone that are face up and covered by no item.'),
    fn('zone_of', ['x:item'], 'zone',
       'The zone an item is in (none if it is out of the game).'),
    fn('usable', ['x:item', 'p:player', 'part:str='], 'bool',
       'True if player p may use item x now: its `if:` condition holds (always, without one); with a part, the `if:` of that part of its effects:.'),
    fn('key_of', ['z:zone'], 'any',
       'The key of a zone of a family (the key of at.north is north); none otherwise.'),
    fn('owner_of', ['z:zone'], 'player',
       'The player a zone belongs to (none for shared zones).'),
    fn('is_facedown', ['x:item'], 'bool',
       'True if the item lies face down.'),
    fn('pieces', ['kind:kind', 'owner:any', 'loc:any'], 'int',
       'How many pieces of a kind (of an owner, or none) are at a location.'),
    fn('pieces_at', ['owner:any', 'loc:any'], 'int',
       'How many pieces of any owned kind an owner has at a location.'),
    fn('occupied', ['kinds:list', 'owners:list'], 'list',
       'The regions (in board order) holding any piece of these kinds owned by these owners.'),
    fn('pos', ['track:track', 'owner:player'], 'int',
       "An owner's position on a track."),
    fn('mod', ['p:player', 'name:str'], 'int',
       "Sum of a modifier granted by the items in p's active zones."),
    fn('shortfall', ['required:map', 'providers:list'], 'int',
       'Required symbols that the providers (symbols or lists of alternatives) cannot cover.'),
    fn('roll', ['sides:int'], 'int',
       "A die roll 1..sides from the game's seeded random source.", chance=True),
    fn('pick_random', ['xs:list'], 'any',
       'One element drawn at random (none from an empty list).', chance=True),
    stmt('move', ['item:item', 'zone:zone', 'at:str=top', 'face:str='],
         "Move an item to a zone (on top, or at='bottom'); face 'up'/'down' overrides the zone's default."),
    stmt('move_top', ['src:zone', 'dst:zone', 'n:int=1'],
         'Move the top n items of one stack onto another (as many as there are).'),
    stmt('shuffle', ['z:zone'],
         "Shuffle a zone with the game's seeded random source (what was shown of its items to one player is forgotten: nobody can follow them through a shuffle)."),
    stmt('deal', ['tableau:zone', 'src:zone'],
         "Fill a tableau's slots from the top of a stack, face up or down as each slot says."),
    stmt('reveal_uncovered', ['tableau:zone'],
         'Turn face up every face-down item of a tableau that nothing covers any more.'),
    stmt('reveal', ['x:item|list'],
         'Turn an item (or each item of a list) face up.'),
    stmt('conceal', ['x:item|list'],
         'Turn an item (or each item of a list) face down.'),
    stmt('reveal_to', ['x:item|list', 'p:player'],
         'Show an item (or each item of a list) to one player only: face down or in a zone hidden from them, it now shows as itself in their view (and their agents know it), until it moves, its zone is shuffled, or it is concealed.'),
    fn('known_to', ['x:item', 'p:player'], 'bool',
       'True if player p may see item x: face up in a zone p sees, or shown to p (reveal_to).'),
    stmt('shift', ['kind:kind', 'owner:any', 'n:int', 'src:any', 'dst:any'],
         'Move up to n pieces (as many as there are) from one location to another (from or to none: nothing moves).'),
    stmt('place', ['kind:kind', 'owner:any', 'n:int', 'dst:any'],
         "Put up to n of the owner's pieces from their supply at a location."),
    stmt('remove', ['kind:kind', 'owner:any', 'n:int', 'src:any'],
         "Return up to n of the owner's pieces from a location to their supply."),
    stmt('end_game', ['winners:list', 'victory:str', 'scores:list='],
         'End the game now with these winners (several for a shared victory; [] for a draw). scores: one number per seated player, in seat order (points, or a payoff such as chips won), kept in the result for agents and statistics.'),
    stmt('log', ['msg:str', '*args:any'],
         "Add a line to the game log; each {} in msg is filled with the next argument (items, regions and players by their names; a list as its elements' names)."),
    stmt('advance', ['track:track', 'owner:player', 'n:int'],
         "Move an owner's marker n spaces along a track (never past its end). Each space reached or passed runs its effect once, for that owner.", env=True),
    stmt('resolve', ['x:item', 'part:str='],
         "Carry out an item's effect (or the named part of it: resolve(card, 'combat') runs its effects: combat), on behalf of the current player; nothing if it has none.", env=True),
]}
