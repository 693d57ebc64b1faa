"""Declare what a game's rule files name, and check their data: players, seats and teams,
enums, the board, pieces, zones, variables and options, tracks, events, item types and items,
and the signatures of functions, procedures and moves (their bodies are checked by code.py).
Every problem becomes a diagnostic at its line; nothing stops at the first.

Why this module is large: one short checking step per section of the rule files (players,
board, pieces, zones, variables, tracks, events, item types, items, signatures); split by
section, the steps would only import each other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..dsl.check import Function
from ..loading.yamlsrc import Src
from ..dsl.ir import ANY
from ..dsl.parse import DSLSyntaxError, Node, parse_expr
from ..dsl.signatures import SIGNATURES
from ..errors import did_you_mean
from ..model.rules import TrackDef, ZoneDef

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SIG = re.compile(rf"^\s*({_NAME})\s*(?:\(\s*((?:{_NAME}\s*(?:,\s*{_NAME}\s*)*)?)\))?\s*$")
RESERVED_ITEM_KEYS = {"id", "name", "ref", "at", "effect", "effects", "if", "grants", "abilities", "note", "type",
                      "text"}
TYPES = ("int", "bool", "str", "player", "region", "item", "zone", "kind", "track", "list", "map", "any")


@dataclass
class Declarations:
    """What the build knows that a running game does not need: the names and their kinds, the
    types of variables and properties, the procedures' signatures, the events' arguments."""
    symbols: dict = field(default_factory=dict)       # name -> (type, value)
    prop_names: set = field(default_factory=set)
    prop_types: dict = field(default_factory=dict)
    var_types: dict = field(default_factory=dict)
    var_families: dict = field(default_factory=dict)  # family -> its keys
    procedures: dict = field(default_factory=dict)    # name -> (params, [block id], Src)
    grant_names: set = field(default_factory=set)
    events: dict = field(default_factory=dict)        # name -> {argument: type}
    owner_prop: dict = field(default_factory=dict)    # item type -> the property naming its owner
    functions: dict = field(default_factory=dict)     # name -> dsl.check.Function, once checked


def _type_of_value(d: Declarations, v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if v is None:
        return ANY
    if isinstance(v, list):
        return "list"
    if not isinstance(v, str):  # (the schema reported it)
        return ANY
    sym = d.symbols.get(v)
    return sym[0] if sym and sym[0] in ("player", "region", "item", "zone") else "str"


def section(d, key) -> dict:
    """d[key] when it is a mapping; else none (another value was reported by the schema): every
    build step reads the sections of a rule file through it, so one malformed section never
    stops a step."""
    v = d.get(key)
    return v if isinstance(v, dict) else {}


class Declarer:
    """The declaring steps of the Builder (build/__init__.py)."""

    TYPES = TYPES

    def err(self, entry_src, path, code, msg, hint="", key=False):
        self.spec.error(entry_src, path, code, msg, hint, key)

    def src(self, source, path, what=""):
        return Src(source, path, what)

    def sym(self, name, typ, value, source, path):
        if name in self.d.symbols and self.d.symbols[name] != (typ, value):
            old = self.d.symbols[name]
            if old[0].startswith("enum:") and typ.startswith("enum:"):
                self.d.symbols[name] = ("str", value)
                return
            self.err(source, path, "E305", f"name '{name}' is already used for a {old[0]}",
                     "every region, item, zone, player and enum value needs its own name", key=True)
            return
        self.d.symbols[name] = (typ, value)

    def keys_of(self, per, source, path):
        if per is None:
            return None
        if isinstance(per, list):
            for i, k in enumerate(per):
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    self.err(source, path + (i,), "E306", f"a key must be a name or a number, not {k!r}")
            return [k for k in per if isinstance(k, (str, int)) and not isinstance(k, bool)]
        if not isinstance(per, str):
            return []  # (reported by the schema)
        if per == "players":
            return list(self.r.players)
        if per == "teams":  # every team of every seating, and each player (a team of its own without teams:)
            return list(dict.fromkeys(self.r.team_names + list(self.r.players)))
        if per == "regions":
            return list(self.r.regions)
        if per in self.r.enums:
            return list(self.r.enums[per])
        self.err(source, path, "E306", f"unknown key set '{per}'",
                 did_you_mean(per, ["players", "regions", *self.r.enums])
                 or "use players, regions, an enum name or a list")
        return []

    # -------------------------------------------------------------- build

    def _players_enums(self, g, gs):
        r = self.r
        players = g.get("players")
        for i, p in enumerate(players if isinstance(players, list) else []):
            if not isinstance(p, str):
                continue  # (reported by the schema; the other players are still declared)
            if p in r.players:
                self.err(gs, ("players", i), "E305", f"player '{p}' is listed twice")
                continue
            r.players.append(p)
            self.sym(p, "player", p, gs, ("players",))
            r.props.setdefault(p, {"name": p})
        for n, seated in section(g, "seats").items():
            path = ("seats", n)
            if not str(n).isdigit() or isinstance(seated, list) and not all(isinstance(p, str) for p in seated):
                continue  # (reported by the schema)
            bad = [p for p in seated if p not in r.players] if isinstance(seated, list) else []
            if bad:
                self.err(gs, path, "E306", f"seats for {n} name unknown player '{bad[0]}'",
                         did_you_mean(bad[0], r.players) or f"players: {', '.join(r.players)}")
            elif not isinstance(seated, list) or len(set(seated)) != len(seated) or len(seated) != int(n):
                self.err(gs, path, "E402", f"seats for {n} players must list {n} different players")
            else:
                r.seats[int(n)] = list(seated)
        dp = g.get("default_players")
        if isinstance(dp, int):
            if r.seats and dp not in r.seats:
                self.err(gs, ("default_players",), "E306", f"there are no seats for {dp} players",
                         f"seats are given for {', '.join(map(str, sorted(r.seats)))}")
            else:
                r.default_players = dp
        for n, teams in section(g, "teams").items():
            if not str(n).isdigit() or not isinstance(teams, dict) \
                    or not all(isinstance(ms, list) and all(isinstance(m, str) for m in ms) for ms in teams.values()):
                continue  # (reported by the schema; the other seatings' teams are still declared)
            n = int(n)
            seated = r.seats.get(n, r.players if n == len(r.players) else None)
            path = ("teams", n)
            if seated is None:
                self.err(gs, path, "E306", f"teams for {n} players, but no seats for {n}", key=True)
                continue
            members = [m for ms in teams.values() for m in ms]
            if sorted(members) != sorted(seated):
                self.err(gs, path, "E306", f"the teams for {n} players must hold each seated player once",
                         f"seated: {', '.join(seated)}")
                continue
            r.teams[n] = {t: list(ms) for t, ms in teams.items()}
            for t in teams:
                if t not in r.team_names:
                    r.team_names.append(t)
                if t not in self.d.symbols:  # a side is named in the rules like an enum value
                    self.sym(t, "str", t, gs, path)
        for name, values in section(g, "enums").items():
            values = values if isinstance(values, list) else []  # (else: reported by the schema)
            seen = set()
            for i, v in enumerate(values):
                if not isinstance(v, str):
                    continue  # (reported by the schema; the enum's other values are still declared)
                if v in seen:
                    self.err(gs, ("enums", name, i), "E305", f"enum '{name}' lists '{v}' twice",
                             "each value of an enum is a different name")
                seen.add(v)
            values = list(dict.fromkeys(v for v in values if isinstance(v, str)))
            r.enums[name] = list(values)
            self.sym(name, "list", list(values), gs, ("enums", name))
            for v in values:
                self.sym(v, f"enum:{name}", v, gs, ("enums", name))

    def _events(self, g, gs):
        for name, args in section(g, "events").items():
            args = args if isinstance(args, dict) else {}  # (not a mapping: reported by the schema)
            self.d.events[name] = dict(args)
            for a, t in args.items():
                if t not in self.TYPES:
                    self.err(gs, ("events", name, a), "E306", f"unknown type '{t}' for argument '{a}'",
                             did_you_mean(t, self.TYPES) or f"types: {', '.join(self.TYPES)}")

    def _board(self):
        spec, r = self.spec, self.r
        nodes, edges = {}, []
        for name, e in spec.regions.items():
            r.regions.append(name)
            props = dict(e.value)
            props.setdefault("name", name.replace("_", " ").title())
            r.props[name] = props
            self.d.prop_names.update(props)
            self.sym(name, "region", name, e.source, e.path)
            nodes[name] = props
        r.region_order = {name: i for i, name in enumerate(r.regions)}
        for e in spec.connections:
            c = e.value
            if isinstance(c, dict):
                (a, b), directed, attrs = c["between"], c.get("directed", False), c.get("props") or {}
            else:
                (a, b), directed, attrs = c, False, {}
            bad = False
            for i, x in enumerate((a, b)):
                if not isinstance(x, str):  # the schema already reported it
                    bad = True
                elif x not in spec.regions:
                    path = e.path + (("between", i) if isinstance(c, dict) else (i,))
                    self.err(e.source, path, "E306", f"connection names unknown region '{x}'",
                             did_you_mean(x, spec.regions) or "regions are declared under regions:")
                    bad = True
            if bad:
                continue
            edges.append((a, b, attrs))
            if not directed:
                edges.append((b, a, attrs))
        r.board_data = (nodes, edges)
        adj = {n: [] for n in nodes}
        for a, b, _ in edges:
            if b not in adj[a]:
                adj[a].append(b)
        r.adj = {n: tuple(v) for n, v in adj.items()}
        for a, b, attrs in edges:  # by kind of connection, both ways ("" = every kind)
            for kind in {"", attrs.get("kind", "")}:
                out = r.adj_kind.setdefault(kind, {}).setdefault(a, [])
                if b not in out:
                    out.append(b)
                into = r.adj_in.setdefault(kind, {}).setdefault(b, [])
                if a not in into:
                    into.append(a)

    def _pieces(self, g, gs):
        r = self.r
        r.locations = ["supply"]
        self.sym("supply", "str", "supply", gs, ("pieces",))
        for k, d in section(g, "pieces").items():
            if not isinstance(d, dict):
                d = {}  # the schema already reported it; keep the name declared
            r.kinds[k] = d
            r.kind_bits[k] = r.bit("kind:" + k)
            self.sym(k, "kind", k, gs, ("pieces", k))
            if "per_player" in d or "supply" in d:
                r.owned_kinds.append(k)
                owners = self.keys_of(d.get("owners", "players"), gs, ("pieces", k, "owners"))
                d = r.kinds[k] = dict(d, owners=owners)
                r.piece_owners.update(owners)
                for o in d.get("supply") if isinstance(d.get("supply"), dict) else {}:
                    if o not in owners:
                        self.err(gs, ("pieces", k, "supply", o), "E306",
                                 f"'{o}' is not an owner of {k}", did_you_mean(o, owners)
                                 or f"owners: {', '.join(map(str, owners))}")
            places = (([d["at"]] if "at" in d else [])
                      + (list(d["locations"]) if isinstance(d.get("locations"), list) else []))
            for i, loc in enumerate(places):
                if not isinstance(loc, str):
                    continue  # (reported by the schema)
                if loc not in r.locations:
                    r.locations.append(loc)
                    if loc not in self.d.symbols:
                        where = ("pieces", k, "at") if "at" in d and i == 0 else ("pieces", k, "locations")
                        self.sym(loc, "str", loc, gs, where)

    def _zones(self, g, gs):
        r, spec = self.r, self.spec
        for fam, d in section(g, "zones").items():
            if not isinstance(d, dict):
                d = {}  # the schema already reported it; keep the name declared
            path = ("zones", fam)
            keys = self.keys_of(d.get("per"), gs, path + ("per",))
            shape = None
            if "tableau" in d:
                shape = spec.tableaux.get(d["tableau"])
                if shape is None:
                    self.err(gs, path + ("tableau",), "E306", f"unknown tableau '{d['tableau']}'",
                             did_you_mean(d["tableau"], spec.tableaux) or "tableaux are declared in board.yaml")
            if d.get("visibility") == "owner" and d.get("per") != "players":
                self.err(gs, path + ("visibility",), "E306", f"zone '{fam}' is visible to its owner but has none",
                         "an owner-only zone needs per: players")
            bit = r.bit("zone:" + fam)
            r.zone_families[fam] = keys if keys is not None else [None]
            if keys is None:
                self.sym(fam, "zone", fam, gs, path)
            else:
                self.sym(fam, "family", fam, gs, path)
            for key in (keys if keys is not None else [None]):
                zid = fam if key is None else f"{fam}.{key}"
                owner = key if key in r.players else None
                z = ZoneDef(zid, fam, key, owner, d.get("visibility", "public"), d.get("face", "up"),
                            bool(d.get("active")), shape is not None, bit=bit,
                            touch=(key,) if key is not None else ())
                if shape is not None:
                    slots = list(shape.value["slots"])
                    z.slot_names = slots
                    for si, s in enumerate(slots):
                        sd = shape.value["slots"][s]
                        sd = sd if isinstance(sd, dict) else {}  # else: schema error
                        z.slot_face.append(sd.get("face", "up"))
                        cov = []
                        for ci, c in enumerate(sd.get("covered_by") or []):
                            if c not in slots:
                                self.err(shape.source, shape.path + ("slots", s, "covered_by", ci), "E306",
                                         f"slot '{s}' is covered by unknown slot '{c}'", did_you_mean(c, slots))
                            else:
                                cov.append(slots.index(c))
                        z.covered_by.append(tuple(cov))
                r.zones[zid] = z
                if z.active and owner:
                    r.active_zones.setdefault(owner, []).append(zid)
                    r.active_families.add(fam)

    def _vars(self, g, gs):
        r = self.r
        for name, d in section(g, "options").items():
            if not isinstance(d, dict):
                continue  # (reported by the schema; the other variables are still declared)
            r.options[name] = d
            r.var_defs[name] = d.get("default")  # (missing: reported by the schema)
            self.d.var_types[name] = _type_of_value(self.d, d.get("default"))
            choices = d.get("choices")
            if isinstance(choices, list) and "default" in d and d["default"] not in choices:
                self.err(gs, ("options", name, "default"), "E306",
                         f"the default of option '{name}' is not one of its choices",
                         f"choices: {', '.join(map(str, choices))}")
            if isinstance(choices, list) and len(set(map(repr, choices))) != len(choices):
                self.err(gs, ("options", name, "choices"), "E305", f"option '{name}' lists a choice twice")
        for name, d in section(g, "vars").items():
            path = ("vars", name)
            if name in self.d.symbols or name in r.var_defs:
                self.err(gs, path, "E305", f"variable '{name}' clashes with another name", key=True)
                continue
            if isinstance(d, dict):
                keys = self.keys_of(d.get("per"), gs, path + ("per",))
                init = d.get("init")
                self.d.var_types[name] = _type_of_value(self.d, init)
                if keys is None:
                    r.var_defs[name] = init
                else:
                    self.d.var_families[name] = keys
                    self.sym(name, "family", name, gs, path)
                    for k in keys:
                        r.var_defs[f"{name}.{k}"] = init
                        if d.get("visibility") in ("owner", "hidden"):
                            r.hidden_vars[f"{name}.{k}"] = k if d["visibility"] == "owner" else None
                if d.get("visibility") in ("owner", "hidden") and keys is None:
                    r.hidden_vars[name] = None
            else:
                r.var_defs[name] = d
                self.d.var_types[name] = _type_of_value(self.d, d)

    def _var_item_types(self):
        """A variable whose first value names an item holds items (items are declared after
        variables, so their first values were read as text)."""
        r = self.r
        for name, t in self.d.var_types.items():
            keys = self.d.var_families.get(name)
            v = r.var_defs.get(name if keys is None else f"{name}.{keys[0]}" if keys else "")
            if t == "str" and isinstance(v, str) and self.d.symbols.get(v, ("",))[0] == "item":
                self.d.var_types[name] = "item"

    def _tracks(self, g, gs):
        r = self.r
        for name, d in section(g, "tracks").items():
            if not isinstance(d, dict):
                d = {}  # the schema already reported it; keep the name declared
            path = ("tracks", name)
            keys = self.keys_of(d.get("per", "players"), gs, path)
            length = d.get("length") if isinstance(d.get("length"), int) else 1  # else: schema error
            t = TrackDef(name, length, d.get("start", 0), keys, {}, r.bit("var:" + name))
            r.tracks[name] = t
            self.sym(name, "track", name, gs, path)
            self.d.var_families[name] = keys
            self.d.var_types[name] = "int"
            for k in keys:
                r.var_defs[f"{name}.{k}"] = t.start

    def _item_types(self, g, gs):
        r = self.r
        for t, d in section(g, "item_types").items():
            d = d if isinstance(d, dict) else {}  # (else: reported by the schema)
            props = dict(d.get("props") if isinstance(d.get("props"), dict) else {})
            r.item_types[t] = props
            owner = d.get("owner")
            if isinstance(owner, str):  # (else: reported by the schema)
                if str(props.get(owner, "")).rstrip("?") != "player":
                    self.err(gs, ("item_types", t, "owner"), "E306",
                             f"the owner of item type '{t}' must be one of its player properties",
                             did_you_mean(owner, [p for p, ty in props.items() if str(ty).rstrip("?") == "player"])
                             or f"declare it under props, e.g. {owner}: player")
                else:
                    self.d.owner_prop[t] = owner
            for p, typ in props.items():
                self.d.prop_names.add(p)
                if not isinstance(typ, str):
                    continue  # (reported by the schema; the property is declared, its values unchecked)
                base = typ.rstrip("?")
                if base in r.enums:
                    self.d.prop_types[p] = f"enum:{base}"
                elif base.startswith("map:") or base.startswith("list"):
                    self.d.prop_types[p] = "map" if base.startswith("map:") else "list"
                    inner = base.split(":", 1)[1] if ":" in base else None
                    if inner is not None and inner not in r.enums and inner != "region":
                        self.err(gs, ("item_types", t, "props", p), "E306", f"unknown enum '{inner}' in '{typ}'",
                                 did_you_mean(inner, r.enums) or "enums are declared under enums:")
                elif base in ("int", "bool", "str", "region", "player", "item"):
                    self.d.prop_types[p] = base
                else:
                    self.err(gs, ("item_types", t, "props", p), "E306", f"unknown property type '{typ}'",
                             "use int, bool, str, region, player, item, an enum name, map:<enum>, list or list:<enum>"
                             ", with '?' for optional")
        self.d.prop_names.add("name")

    def _check_value(self, typ, v, e, path):
        r = self.r
        optional = typ.endswith("?")
        base = typ.rstrip("?")
        if v is None:
            if not optional:
                self.err(e.source, path, "E402", f"property '{path[-1]}' needs a value of type {base}")
            return
        def enum_ok(name, x, p):
            if x not in r.enums[name]:
                self.err(e.source, p, "E306", f"'{x}' is not a {name} value",
                         did_you_mean(x, r.enums[name]) or f"one of: {', '.join(r.enums[name])}")
        if base in r.enums:
            enum_ok(base, v, path)
        elif base == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            self.err(e.source, path, "E402", f"property '{path[-1]}' must be a whole number, got {v!r}")
        elif base == "bool" and not isinstance(v, bool):
            self.err(e.source, path, "E402", f"property '{path[-1]}' must be true or false, got {v!r}")
        elif base == "region" and (not isinstance(v, str) or v not in self.spec.regions):
            if not isinstance(v, str):
                self.err(e.source, path, "E402", f"property '{path[-1]}' must be one region, got {v!r}",
                         "declare the property as list:region to hold several")
                return
            self.err(e.source, path, "E306", f"unknown region '{v}'", did_you_mean(v, self.spec.regions))
        elif base == "player":
            names = set(r.players).union(*r.teams.values())
            if not isinstance(v, str):
                self.err(e.source, path, "E402", f"property '{path[-1]}' must name a player, got {v!r}",
                         f"players: {', '.join(sorted(names))}")
            elif v not in names:
                self.err(e.source, path, "E306", f"unknown player '{v}'", did_you_mean(v, sorted(names))
                         or f"players: {', '.join(sorted(names))}")
        elif base == "str" and not isinstance(v, str):
            self.err(e.source, path, "E402", f"property '{path[-1]}' must be a text, got {v!r}",
                     "quote it to make it a text")
        elif base.startswith("map:"):
            if not isinstance(v, dict):
                self.err(e.source, path, "E402", f"property '{path[-1]}' must be a mapping")
                return
            name = base[4:]
            for k, n in v.items():
                if name in r.enums:
                    enum_ok(name, k, path + (k,))
                if not isinstance(n, int):
                    self.err(e.source, path + (k,), "E402", f"count for '{k}' must be a whole number")
        elif base.startswith("list"):
            if not isinstance(v, list):
                self.err(e.source, path, "E402", f"property '{path[-1]}' must be a list")
                return
            name = base[5:] if base.startswith("list:") else None
            if name == "region":
                for i, x in enumerate(v):
                    if not isinstance(x, str):
                        self.err(e.source, path + (i,), "E402", f"a region must be a name, got {x!r}")
                    elif x not in self.spec.regions:
                        self.err(e.source, path + (i,), "E306", f"unknown region '{x}'",
                                 did_you_mean(x, self.spec.regions))
            elif name in r.enums:
                for i, x in enumerate(v):
                    for y in (x if isinstance(x, list) else [x]):
                        enum_ok(name, y, path + (i,))

    def _items(self):
        r, spec = self.r, self.spec
        for iid, e in spec.items.items():
            d = e.value
            t = d.get("type")
            if not isinstance(t, str):
                continue  # (reported by the schema)
            if t not in r.item_types:
                self.err(e.source, ("type",), "E306", f"unknown item type '{t}'",
                         did_you_mean(t, r.item_types) or "item types are declared under item_types: in game.yaml")
                continue
            decl = r.item_types[t]
            props = {"name": d.get("name", iid), "type": t}
            if isinstance(d.get("text"), str):  # what it does, in words, for players
                r.item_words[iid] = " ".join(d["text"].split())
            for k, v in d.items():
                if k in RESERVED_ITEM_KEYS:
                    continue
                if k not in decl:
                    self.err(e.source, e.at(k), "E303", f"item type '{t}' has no property '{k}'",
                             did_you_mean(k, decl) or f"declared: {', '.join(decl)}", key=True)
                    continue
                if isinstance(decl[k], str):  # (else: the item type's property is reported by the schema)
                    self._check_value(decl[k], v, e, e.at(k))
                props[k] = v
            for k, typ in decl.items():
                if k not in props:
                    if isinstance(typ, str) and not typ.endswith("?"):
                        self.err(e.source, e.path, "E101", f"item '{iid}' lacks property '{k}'",
                                 f"add {k}: <{typ}>")
                    props[k] = None
            r.props[iid] = props
            if t in self.d.owner_prop:
                r.item_owner[iid] = props.get(self.d.owner_prop[t])
            r.items.append(iid)
            r.item_type_of[iid] = t
            self.sym(iid, "item", iid, e.source, e.path + ("id",))
            at = d.get("at")
            if isinstance(at, str):  # (else: reported by the schema)
                if at not in r.zones:
                    self.err(e.source, e.at("at"), "E306", f"unknown zone '{at}'",
                             did_you_mean(at, r.zones) or "zone ids are family.key, e.g. deck.1")
                elif r.zones[at].tableau:
                    self.err(e.source, e.at("at"), "E306", f"items cannot start in tableau '{at}'")
                else:
                    r.start_zone[iid] = at
            if d.get("grants") and isinstance(d["grants"], dict):  # (else: reported by the schema)
                r.grants[iid] = dict(d["grants"])
                self.d.grant_names.update(d["grants"])

    def _sig(self, key, source, path, what):
        m = _SIG.match(str(key))
        if not m:
            if source is not None:
                self.err(source, path, "E201", f"bad {what} signature '{key}'",
                         "write name or name(a, b): names of letters, digits and '_'", key=True)
            return None, []
        params = [p.strip() for p in (m.group(2) or "").split(",") if p.strip()]
        if len(set(params)) != len(params) or "me" in params:
            if source is not None:
                self.err(source, path, "E201", f"{what} '{m.group(1)}' repeats a parameter or names one 'me'",
                         "each parameter needs its own name; me is always the acting player", key=True)
            return None, []
        return m.group(1), params

    def _functions(self, g, gs):
        r = self.r
        for key, body in section(g, "functions").items():
            path = ("functions", key)
            name, params = self._sig(key, gs, path, "function")
            if name is None:
                continue
            if name in self.d.symbols or name in r.var_defs or name in SIGNATURES:
                self.err(gs, path, "E305", f"function '{name}' clashes with another name", key=True)
            src = self.src(gs, path, f"function {name}")
            text = str(body) if not isinstance(body, bool) else str(body).lower()
            try:
                node = parse_expr(text)
            except DSLSyntaxError as exc:
                self.c.error(src, Node("x", [], exc.line, exc.col), "E201",
                             f"syntax error in function {name}: {exc.message}", exc.hint)
                node = text = None
            self.c.functions[name] = Function(name, params, node, src, text)

    def _procedures_declare(self, g, gs):
        r = self.r
        for key in section(g, "procedures"):
            name, params = self._sig(key, gs, ("procedures", key), "procedure")
            if name is None:
                continue
            if name in self.c.functions or name in SIGNATURES:
                self.err(gs, ("procedures", key), "E305", f"procedure '{name}' clashes with a function "
                         "or a primitive of the same name", key=True)
            self.d.procedures[name] = (params, [None], self.src(gs, ("procedures", key), f"procedure {name}"))

    def _moves_declare(self, g, gs):
        for name in section(g, "moves"):
            self.r.moves[name] = None
