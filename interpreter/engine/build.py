"""Build compiled ``Rules`` from a loaded ``Spec``: declare every name, check the data,
then compile every piece of effect-language text. All problems are collected."""
from __future__ import annotations

import hashlib
import os
import re
import string

from ..dsl import registry
from ..dsl.compiler import ANY, Compiler, Src
from ..dsl.parser import GRAMMAR_PATH, DSLSyntaxError, Node, parse_expr
from ..errors import did_you_mean
from ..model.rules import MoveDef, Rules, TrackDef, Trigger, ZoneDef
from . import vm

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SIG = re.compile(rf"^\s*({_NAME})\s*(?:\(\s*((?:{_NAME}\s*(?:,\s*{_NAME}\s*)*)?)\))?\s*$")
RESERVED_ITEM_KEYS = {"id", "name", "ref", "at", "effect", "effects", "if", "grants", "abilities", "note", "type",
                      "text"}


def _type_of_value(r: Rules, v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if v is None:
        return ANY
    sym = r.symbols.get(v)
    return sym[0] if sym and sym[0] in ("player", "region", "item", "zone") else "str"


class Builder:
    def __init__(self, spec):
        self.spec = spec
        self.r = Rules()
        self.c = Compiler(self.r, spec.diags, spec.removed)

    # -------------------------------------------------------------- helpers
    def err(self, entry_src, path, code, msg, hint="", key=False):
        self.spec.error(entry_src, path, code, msg, hint, key)

    def src(self, source, path, what=""):
        return Src(source, path, what)

    def sym(self, name, typ, value, source, path):
        if name in self.r.symbols and self.r.symbols[name] != (typ, value):
            old = self.r.symbols[name]
            if old[0].startswith("enum:") and typ.startswith("enum:"):
                self.r.symbols[name] = ("str", value)
                return
            self.err(source, path, "E305", f"name '{name}' is already used for a {old[0]}",
                     "every region, item, zone, player and enum value needs its own name", key=True)
            return
        self.r.symbols[name] = (typ, value)

    def keys_of(self, per, source, path):
        if per is None:
            return None
        if isinstance(per, list):
            return per
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
    def build(self) -> Rules:
        spec, r = self.spec, self.r
        g = spec.game.value
        gs = spec.game.source
        r.root = spec.root
        r.mods = tuple(str(m) for m in spec.mods)
        r.name = g.get("name", "")
        r.title = g.get("title", r.name)
        h = hashlib.sha256(GRAMMAR_PATH.read_bytes())
        # the rule files' text and names within the game folder (not where the command ran)
        for s in sorted(spec.sources, key=lambda s: _in_game(s.path, spec.root)):
            h.update(_in_game(s.path, spec.root).encode() + b"\0" + s.text.encode())
        r.digest = h.hexdigest()[:16]
        r.emit = vm.emit
        r.dispatch_block = self.c.new_block([vm.dispatch])

        step = self._step
        step(self._players_enums, g, gs)
        step(self._board)
        step(self._pieces, g, gs)
        step(self._zones, g, gs)
        step(self._vars, g, gs)
        step(self._tracks, g, gs)
        step(self._events, g, gs)
        step(self._item_types, g, gs)
        step(self._items)
        step(self._var_item_types)
        step(self._functions, g, gs)
        step(self._procedures_declare, g, gs)
        step(self._moves_declare, g, gs)
        # compile bodies
        step(self._functions_check)
        step(self._procedures_compile)
        step(self._moves_compile, g, gs)
        step(self._track_spaces, g, gs)
        step(self._triggers, g, gs)
        step(self._listeners, g, gs)
        step(self._item_code)
        step(self._flow_display_agent, g, gs)
        step(self.c.check_calls)
        step(self._warnings)
        return r

    def _step(self, fn, *args):
        """Run one build step. A crash after problems were already reported is taken as their
        consequence (the data is malformed): the step is skipped and the others still run."""
        try:
            fn(*args)
        except Exception:
            if not self.spec.diags:
                raise

    def _players_enums(self, g, gs):
        r = self.r
        for i, p in enumerate(g.get("players") or []):
            if p in r.players:
                self.err(gs, ("players", i), "E305", f"player '{p}' is listed twice")
                continue
            r.players.append(p)
            self.sym(p, "player", p, gs, ("players",))
            r.props.setdefault(p, {"name": p})
        for n, seated in (g.get("seats") or {}).items():
            path = ("seats", n)
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
        for n, teams in (g.get("teams") or {}).items():
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
        for name, values in (g.get("enums") or {}).items():
            seen = set()
            for i, v in enumerate(values):
                if v in seen:
                    self.err(gs, ("enums", name, i), "E305", f"enum '{name}' lists '{v}' twice",
                             "each value of an enum is a different name")
                seen.add(v)
            values = list(dict.fromkeys(values))
            r.enums[name] = list(values)
            self.sym(name, "list", list(values), gs, ("enums", name))
            for v in values:
                self.sym(v, f"enum:{name}", v, gs, ("enums", name))

    TYPES = ("int", "bool", "str", "player", "region", "item", "zone", "kind", "track", "list", "map", "any")

    def _events(self, g, gs):
        for name, args in (g.get("events") or {}).items():
            self.r.events[name] = dict(args or {})
            for a, t in (args or {}).items():
                if t not in self.TYPES:
                    self.err(gs, ("events", name, a), "E306", f"unknown type '{t}' for argument '{a}'",
                             did_you_mean(t, self.TYPES) or f"types: {', '.join(self.TYPES)}")

    def _functions_check(self):
        """Compile every function once, so a function nobody calls is still checked."""
        for name, (params, node, src) in self.r.functions.items():
            if node is not None:
                self.c.game_function(None, name, src)

    def _flow_display_agent(self, g, gs):
        r = self.r
        if "flow" in g:
            r.flow = self.c.block_text(g["flow"], self.src(gs, ("flow",), "flow"), {"me": ("local", "me", "player")})
        disp = g.get("display") or {}
        me = {"me": ("local", "me", "player")}
        for label, text in (disp.get("players") or {}).items():
            r.hud["players"][label] = self.c.expr_text(
                text, self.src(gs, ("display", "players", label), "display"), dict(me))[0]
        known = (set(r.players) | {v for vals in r.enums.values() for v in vals} | set(r.kinds)
                 | set(r.zone_families) | set(r.locations))
        for i, (k, v) in enumerate((disp.get("names") or {}).items()):
            if k not in known:
                self.err(gs, ("display", "names", k), "E306",
                         f"'{k}' is not a player, an enum value, a piece kind, a place or a zone family",
                         did_you_mean(k, known) or "names: gives these their printed names")
            r.names[k] = str(v)
        for name, m in (disp.get("meters") or {}).items():
            if not isinstance(m, dict) or "value" not in m:
                continue  # the schema already reported it
            at = ("display", "meters", name)
            scope = dict(me)
            value = self.c.expr_text(m["value"], self.src(gs, at + ("value",), f"meter {name}"), dict(scope))[0]
            top = (self.c.expr_text(m["max"], self.src(gs, at + ("max",), f"meter {name}"), dict(scope))[0]
                   if "max" in m else None)
            marks = {int(k): str(v) for k, v in (m.get("marks") or {}).items() if str(k).lstrip("-").isdigit()}
            r.hud["meters"][name] = {"value": value, "max": top, "per": m.get("per"), "marks": marks,
                                     "doc": m.get("doc", "")}
        r.hud["prompts"] = {str(k): str(v) for k, v in (disp.get("prompts") or {}).items()}
        for t, text in (disp.get("items") or {}).items():
            if t not in r.item_types:
                self.err(gs, ("display", "items", t), "E306", f"unknown item type '{t}'",
                         did_you_mean(t, r.item_types), key=True)
                continue
            r.hud["items"][t] = self.c.expr_text(text, self.src(gs, ("display", "items", t), f"display of {t}"),
                                                 {"me": ("local", "me", "player"),
                                                  "this": ("local", "this", "item")})[0]
        for label, text in (disp.get("regions") or {}).items():
            r.hud["regions"][label] = self.c.expr_text(
                text, self.src(gs, ("display", "regions", label), "display"),
                {"me": ("local", "me", "player"), "r": ("local", "r", "region")})[0]
        for i, text in enumerate(disp.get("zones") or []):
            f, t = self.c.expr_text(text, self.src(gs, ("display", "zones", i), "display"), dict(me))
            r.hud["zones"].append((str(text).strip(), f))
        for i, fam in enumerate(disp.get("player_zones") or []):
            if fam not in r.zone_families:
                self.err(gs, ("display", "player_zones", i), "E306", f"unknown zone family '{fam}'",
                         did_you_mean(fam, r.zone_families))
            else:
                r.hud["player_zones"].append(fam)
        turn = g.get("turn")
        if isinstance(turn, str):
            if turn not in r.var_defs:
                self.err(gs, ("turn",), "E301", f"turn: names no variable '{turn}'",
                         did_you_mean(turn, r.var_defs) or "name the variable that holds whose turn it is")
            else:
                r.turn_var = turn
        r.default_agents = (g.get("agent") or {}).get("default")
        ev = (g.get("agent") or {}).get("evaluate")
        if ev is not None:
            r.evaluate = self.c.expr_text(ev, self.src(gs, ("agent", "evaluate"), "agent evaluation"),
                                          {"me": ("local", "me", "player")})[0]

    def _board(self):
        spec, r = self.spec, self.r
        nodes, edges = {}, []
        for name, e in spec.regions.items():
            r.regions.append(name)
            props = dict(e.value)
            props.setdefault("name", name.replace("_", " ").title())
            r.props[name] = props
            r.prop_names.update(props)
            self.sym(name, "region", name, e.source, e.path)
            nodes[name] = props
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
        for k, d in (g.get("pieces") or {}).items():
            r.kinds[k] = d
            r.kind_bits[k] = r.bit("kind:" + k)
            self.sym(k, "kind", k, gs, ("pieces", k))
            if "per_player" in d or "supply" in d:
                r.owned_kinds.append(k)
                owners = self.keys_of(d.get("owners", "players"), gs, ("pieces", k, "owners"))
                d = r.kinds[k] = dict(d, owners=owners)
                r.piece_owners.update(owners)
                for o in d.get("supply") or {}:
                    if o not in owners:
                        self.err(gs, ("pieces", k, "supply", o), "E306",
                                 f"'{o}' is not an owner of {k}", did_you_mean(o, owners)
                                 or f"owners: {', '.join(map(str, owners))}")
            places = ([d["at"]] if "at" in d else []) + list(d.get("locations") or [])
            for i, loc in enumerate(places):
                if loc not in r.locations:
                    r.locations.append(loc)
                    if loc not in r.symbols:
                        where = ("pieces", k, "at") if "at" in d and i == 0 else ("pieces", k, "locations")
                        self.sym(loc, "str", loc, gs, where)

    def _zones(self, g, gs):
        r, spec = self.r, self.spec
        for fam, d in (g.get("zones") or {}).items():
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
                            bool(d.get("active")), shape is not None, bit=bit)
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
        for name, d in (g.get("options") or {}).items():
            r.options[name] = d
            r.var_defs[name] = d["default"]
            r.var_types[name] = _type_of_value(r, d["default"])
            choices = d.get("choices")
            if isinstance(choices, list) and d["default"] not in choices:
                self.err(gs, ("options", name, "default"), "E306",
                         f"the default of option '{name}' is not one of its choices",
                         f"choices: {', '.join(map(str, choices))}")
            if isinstance(choices, list) and len(set(map(repr, choices))) != len(choices):
                self.err(gs, ("options", name, "choices"), "E305", f"option '{name}' lists a choice twice")
        for name, d in (g.get("vars") or {}).items():
            path = ("vars", name)
            if name in r.symbols or name in r.var_defs:
                self.err(gs, path, "E305", f"variable '{name}' clashes with another name", key=True)
                continue
            if isinstance(d, dict):
                keys = self.keys_of(d.get("per"), gs, path + ("per",))
                init = d.get("init")
                r.var_types[name] = _type_of_value(r, init)
                if keys is None:
                    r.var_defs[name] = init
                else:
                    r.var_families[name] = keys
                    self.sym(name, "family", name, gs, path)
                    for k in keys:
                        r.var_defs[f"{name}.{k}"] = init
                        if d.get("visibility") in ("owner", "hidden"):
                            r.hidden_vars[f"{name}.{k}"] = k if d["visibility"] == "owner" else None
                if d.get("visibility") in ("owner", "hidden") and keys is None:
                    r.hidden_vars[name] = None
            else:
                r.var_defs[name] = d
                r.var_types[name] = _type_of_value(r, d)

    def _var_item_types(self):
        """A variable whose first value names an item holds items (items are declared after
        variables, so their first values were read as text)."""
        r = self.r
        for name, t in r.var_types.items():
            keys = r.var_families.get(name)
            v = r.var_defs.get(name if keys is None else f"{name}.{keys[0]}" if keys else "")
            if t == "str" and isinstance(v, str) and r.symbols.get(v, ("",))[0] == "item":
                r.var_types[name] = "item"

    def _tracks(self, g, gs):
        r = self.r
        for name, d in (g.get("tracks") or {}).items():
            path = ("tracks", name)
            keys = self.keys_of(d.get("per", "players"), gs, path)
            length = d.get("length") if isinstance(d.get("length"), int) else 1  # else: schema error
            t = TrackDef(name, length, d.get("start", 0), keys, {}, r.bit("var:" + name))
            r.tracks[name] = t
            self.sym(name, "track", name, gs, path)
            r.var_families[name] = keys
            r.var_types[name] = "int"
            for k in keys:
                r.var_defs[f"{name}.{k}"] = t.start

    def _item_types(self, g, gs):
        r = self.r
        for t, d in (g.get("item_types") or {}).items():
            props = dict((d or {}).get("props") or {})
            r.item_types[t] = props
            owner = (d or {}).get("owner")
            if owner is not None:
                if props.get(owner, "").rstrip("?") != "player":
                    self.err(gs, ("item_types", t, "owner"), "E306",
                             f"the owner of item type '{t}' must be one of its player properties",
                             did_you_mean(owner, [p for p, ty in props.items() if ty.rstrip("?") == "player"])
                             or f"declare it under props, e.g. {owner}: player")
                else:
                    r.owner_prop[t] = owner
            for p, typ in props.items():
                r.prop_names.add(p)
                base = typ.rstrip("?")
                if base in r.enums:
                    r.prop_types[p] = f"enum:{base}"
                elif base.startswith("map:") or base.startswith("list"):
                    r.prop_types[p] = "map" if base.startswith("map:") else "list"
                    inner = base.split(":", 1)[1] if ":" in base else None
                    if inner is not None and inner not in r.enums and inner != "region":
                        self.err(gs, ("item_types", t, "props", p), "E306", f"unknown enum '{inner}' in '{typ}'",
                                 did_you_mean(inner, r.enums) or "enums are declared under enums:")
                elif base in ("int", "bool", "str", "region", "player", "item"):
                    r.prop_types[p] = base
                else:
                    self.err(gs, ("item_types", t, "props", p), "E306", f"unknown property type '{typ}'",
                             "use int, bool, str, region, player, item, an enum name, map:<enum>, list or list:<enum>"
                             ", with '?' for optional")
        r.prop_names.add("name")

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
                    if x not in self.spec.regions:
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
            t = d["type"]
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
                self._check_value(decl[k], v, e, e.at(k))
                props[k] = v
            for k, typ in decl.items():
                if k not in props:
                    if not typ.endswith("?"):
                        self.err(e.source, e.path, "E101", f"item '{iid}' lacks property '{k}'",
                                 f"add {k}: <{typ}>")
                    props[k] = None
            r.props[iid] = props
            if t in r.owner_prop:
                r.item_owner[iid] = props.get(r.owner_prop[t])
            r.items.append(iid)
            r.item_type_of[iid] = t
            self.sym(iid, "item", iid, e.source, e.path + ("id",))
            at = d.get("at")
            if at is not None:
                if at not in r.zones:
                    self.err(e.source, e.at("at"), "E306", f"unknown zone '{at}'",
                             did_you_mean(at, r.zones) or "zone ids are family.key, e.g. deck.1")
                elif r.zones[at].tableau:
                    self.err(e.source, e.at("at"), "E306", f"items cannot start in tableau '{at}'")
                else:
                    r.start_zone[iid] = at
            if d.get("grants"):
                r.grants[iid] = dict(d["grants"])
                r.grant_names.update(d["grants"])

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
        for key, body in (g.get("functions") or {}).items():
            path = ("functions", key)
            name, params = self._sig(key, gs, path, "function")
            if name is None:
                continue
            if name in r.symbols or name in r.var_defs or name in registry.REGISTRY:
                self.err(gs, path, "E305", f"function '{name}' clashes with another name", key=True)
            src = self.src(gs, path, f"function {name}")
            try:
                node = parse_expr(str(body) if not isinstance(body, bool) else str(body).lower())
            except DSLSyntaxError as exc:
                self.c.error(src, Node("x", [], exc.line, exc.col), "E201",
                             f"syntax error in function {name}: {exc.message}", exc.hint)
                node = None
            r.functions[name] = (params, node, src)

    def _procedures_declare(self, g, gs):
        r = self.r
        for key in (g.get("procedures") or {}):
            name, params = self._sig(key, gs, ("procedures", key), "procedure")
            if name is None:
                continue
            if name in r.functions or name in registry.REGISTRY:
                self.err(gs, ("procedures", key), "E305", f"procedure '{name}' clashes with a function "
                         "or a primitive of the same name", key=True)
            r.procedures[name] = (params, [None], self.src(gs, ("procedures", key), f"procedure {name}"))

    def _procedures_compile(self):
        g = self.spec.game.value
        r = self.r
        for key, body in (g.get("procedures") or {}).items():
            name, params = self._sig(key, None, (), "procedure") if _SIG.match(str(key)) else (None, [])
            if name is None or name not in r.procedures:
                continue
            _, ref, src = r.procedures[name]
            scope = {"me": ("local", "me", "player")}
            for i, p in enumerate(params):
                scope[p] = self.c.param(name, i, ("local", p, ANY))
            ref[0] = self.c.block_text(body, src, scope)

    def _moves_declare(self, g, gs):
        for name in (g.get("moves") or {}):
            self.r.moves[name] = None

    def _moves_compile(self, g, gs):
        r = self.r
        ids = {}
        for name, d in (g.get("moves") or {}).items():
            if not isinstance(d, dict) or "do" not in d:
                continue  # the schema already reported it
            path = ("moves", name)
            scope = {"me": ("local", "me", "player")}
            params = []
            reads = set()  # legal actions are listed without changing anything: no chance here
            self.c.reads.append(reads)
            for a, dom in (d.get("args") or {}).items():
                f, t = self.c.expr_text(dom, self.src(gs, path + ("args", a), f"move {name} argument {a}"), scope)
                params.append((a, self.c.as_list(f, t)))
                scope[a] = ("local", a, ANY)
            cond = None
            if "if" in d:
                cond = self.c.expr_text(d["if"], self.src(gs, path + ("if",), f"move {name} condition"), scope)[0]
            self.c.reads.pop()
            if "!" in reads:
                self.err(gs, path, "E402", f"move '{name}' draws on chance in its arguments or condition",
                         "listing legal actions must not roll dice; roll in the move's do:", key=True)
            block = self.c.block_text(d["do"], self.src(gs, path + ("do",), f"move {name}"), scope)
            id_fmt = d.get("id") or ":".join([name] + ["{%s}" % p for p, _ in params])
            label = d.get("label", id_fmt)
            ok = True
            private = d.get("private", False)
            templates = [("id", id_fmt), ("label", label)] + ([("private", private)] if isinstance(private, str) else [])
            for key, text in templates:
                try:
                    fields = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None]
                    bad = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None and (spec or conv)]
                except ValueError as exc:
                    self.err(gs, path + (key,), "E201", f"bad {key} template of move '{name}': {exc}",
                             "write {argument} for an argument's value, {{ and }} for braces")
                    ok = False
                    continue
                for ph in fields:
                    if ph not in dict(params) or ph in bad:
                        self.err(gs, path + (key,), "E301", f"'{{{ph}}}' names no argument of move '{name}'",
                                 did_you_mean(ph, dict(params)) or "placeholders are {argument} only")
                        ok = False
            if ok and set(p for p, _ in params) - set(
                    f for _, f, _, _ in string.Formatter().parse(id_fmt) if f is not None):
                self.err(gs, path + ("id",), "E402", f"the id of move '{name}' leaves out an argument",
                         "two actions would share one id: name every argument in the id")
            if id_fmt in ids:
                self.err(gs, path + ("id",) if "id" in d else path, "E305",
                         f"moves '{ids[id_fmt]}' and '{name}' have the same action id template '{id_fmt}'",
                         key="id" not in d)
            ids[id_fmt] = name
            if isinstance(private, str) and not ok:
                private = True  # a broken public text (reported above): others see the move's name
            r.moves[name] = MoveDef(name, params, cond, block, id_fmt if ok else name,
                                    label if ok else name, private if isinstance(private, str) else bool(private),
                                    src=self.src(gs, path + (("if",) if "if" in d else ("do",)), f"move {name}"))

    def _track_spaces(self, g, gs):
        for name, d in (g.get("tracks") or {}).items():
            t = self.r.tracks.get(name)
            for pos, body in (d.get("spaces") or {}).items():
                if t is None or not str(pos).isdigit():  # the schema already reported it
                    continue
                src = self.src(gs, ("tracks", name, "spaces", pos), f"track {name} space {pos}")
                if not (0 < int(pos) <= t.length):
                    self.err(gs, ("tracks", name, "spaces", pos), "E306", f"space {pos} is off the track (1..{t.length})",
                             key=True)
                t.spaces[int(pos)] = self.c.block_text(body, src, {"me": ("local", "me", "player")})

    def _triggers(self, g, gs):
        r = self.r
        ids = {}
        for i, d in enumerate(g.get("triggers") or []):
            if not isinstance(d, dict) or not all(k in d for k in ("id", "when", "do")):
                continue  # the schema already reported it
            path = ("triggers", i)
            if d["id"] in ids:  # its once-keys, and a mod naming it, would mix the two up
                self.err(gs, path + ("id",), "E305", f"two triggers are named '{d['id']}'",
                         f"the first is trigger number {ids[d['id']] + 1}; give each its own id")
            ids.setdefault(d["id"], i)
            scope = {"me": ("local", "me", "player")}
            params = []
            reads = set()  # what the domains and the condition read: the trigger's channels
            self.c.reads.append(reads)
            for a, dom in (d.get("for") or {}).items():
                f, t = self.c.expr_text(dom, self.src(gs, path + ("for", a), f"trigger {d['id']}"), scope)
                params.append((a, self.c.as_list(f, t)))
                scope[a] = ("local", a, ANY)
            static_domains = not reads
            cond = self.c.expr_text(d["when"], self.src(gs, path + ("when",), f"trigger {d['id']}"), scope)[0]
            self.c.reads.pop()
            if "!" in reads:
                self.err(gs, path + ("when",), "E402", f"trigger '{d['id']}' draws on chance in its condition",
                         "conditions must not roll dice or draw at random; do that in the effect")
            mask = r.mask_of(reads) or -1  # a condition reading nothing is checked after every step
            block = self.c.block_text(d["do"], self.src(gs, path + ("do",), f"trigger {d['id']}"), scope)
            r.triggers.append(Trigger(d["id"], params, cond, block, d.get("once", True), mask,
                                      static_domains=static_domains,
                                      src=self.src(gs, path + ("when",), f"trigger {d['id']}")))

    def _ability(self, d, src_entry_source, path, this):
        r = self.r
        ev = d.get("event") if isinstance(d, dict) else None
        if not isinstance(ev, str) or "do" not in d:  # the schema already reported it
            return
        if ev not in r.events:
            self.err(src_entry_source, path + ("event",), "E304", f"unknown event '{ev}'",
                     did_you_mean(ev, r.events) or "events are declared under events: in game.yaml")
            return
        scope = {"me": ("local", "me", "player")}
        if this:
            scope["this"] = ("local", "this", "item")
        for a, t in r.events[ev].items():
            scope[a] = ("local", a, t if t in ("int", "bool", "player", "region", "item", "zone") else ANY)
        cond = None
        if "if" in d:
            cond = self.c.expr_text(d["if"], self.src(src_entry_source, path + ("if",), f"listener on {ev}"),
                                    scope)[0]
        block = self.c.block_text(d["do"], self.src(src_entry_source, path + ("do",), f"listener on {ev}"), scope)
        r.listeners.setdefault(ev, []).append((this, cond, block))  # run by vm.dispatch

    def _listeners(self, g, gs):
        ids = set()
        for i, d in enumerate(g.get("listeners") or []):
            lid = d.get("id") if isinstance(d, dict) else None
            if lid is not None and lid in ids:
                self.err(gs, ("listeners", i, "id"), "E305", f"two listeners are named '{lid}'",
                         "give each its own id (a mod names a listener by it)")
            ids.add(lid)
            self._ability(d, gs, ("listeners", i), None)

    def _item_code(self):
        r = self.r
        for iid, e in self.spec.items.items():
            if iid not in r.props:
                continue
            d = e.value
            scope = {"me": ("local", "me", "player"), "this": ("local", "this", "item")}
            # the item's effect and its condition (part ''), and its named parts (effects:)
            parts = [("", d.get("if"), d.get("effect"), e.at("if"), e.at("effect"))]
            for name, part in (d.get("effects") or {}).items():
                at = e.at("effects") + (name,)
                if isinstance(part, dict):
                    parts.append((name, part.get("if"), part.get("do"), at + ("if",), at + ("do",)))
                else:
                    parts.append((name, None, part, None, at))
            for name, cond, body, cond_at, body_at in parts:
                what = f"{name} of {iid}" if name else iid
                if body is not None:
                    r.item_text[iid] = (r.item_text.get(iid, "") + (f"\n{name}: " if name else "\n")
                                        + str(body).strip()).strip()
                    r.item_effects[(iid, name)] = self.c.block_text(
                        body, self.src(e.source, body_at, f"effect of {what}"), dict(scope))
                if cond is not None:  # when the part may be used: read by usable(item, player, part)
                    r.item_text[iid] = (r.item_text.get(iid, "") + f"\n{name + ' ' if name else ''}usable if: "
                                        + str(cond).strip()).strip()
                    r.item_conds[(iid, name)] = self.c.expr_text(
                        cond, self.src(e.source, cond_at, f"condition of {what}"), dict(scope))[0]
            for j, ab in enumerate(d.get("abilities") or []):
                self._ability(ab, e.source, e.path + ("abilities", j), iid)
                if isinstance(ab, dict):
                    cond = f" if {ab['if']}" if "if" in ab else ""
                    r.item_text[iid] = (r.item_text.get(iid, "") + f"\non {ab.get('event')}{cond}: "
                                        f"{str(ab.get('do', '')).strip()}").strip()


    def _warnings(self):
        """Likely mistakes that still let the game load: definitions nothing uses, a region
        cut off from the board, an item that starts nowhere and that no rule names."""
        r, spec, used = self.r, self.spec, self.c.used
        for name, (_, _, src) in r.functions.items():
            if name not in used:
                self.err(src.source, src.path, "W201", f"function '{name}' is never used",
                         "call it from a rule, or remove it", key=True)
        for name, (_, _, src) in r.procedures.items():
            if name not in used and name != "flow":
                self.err(src.source, src.path, "W202", f"procedure '{name}' is never called",
                         "call it from a rule, or remove it", key=True)
        if spec.connections:
            into = r.adj_in.get("", {})
            for name, e in spec.regions.items():
                if not r.adj.get(name) and not into.get(name):
                    self.err(e.source, e.path, "W101", f"region '{name}' has no connection",
                             "add it to connections:, or remove the region", key=True)
        if not any(z.active for z in r.zones.values()):
            for iid, e in spec.items.items():
                for key in ("grants", "abilities"):
                    if iid in r.props and e.value.get(key):
                        self.err(e.source, e.at(key), "W302", f"item '{iid}' has {key}, but no zone is active: "
                                 "they can never apply", "mark the zone where such items lie in play with "
                                 "active: true", key=True)
        for iid, e in spec.items.items():
            if iid in r.props and iid not in r.start_zone and iid not in used:
                self.err(e.source, e.path + ("id",), "W301",
                         f"item '{iid}' starts in no zone and no rule names it",
                         "give it at: <zone>, or name it in a rule that brings it into play")


def _in_game(path, root) -> str:
    try:
        return os.path.relpath(path, root).replace(os.sep, "/")
    except ValueError:
        return str(path)


def build_rules(spec) -> Rules:
    return Builder(spec).build()
