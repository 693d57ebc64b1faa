"""Mods: folders of YAML overlays applied over a game, so a variant needs no Python.

A mod folder holds ``mod.yaml`` (schema: mod.schema.json); names below are illustrations:

    kind: mod
    name: deluxe
    version: 1.0.0
    game: toy                                  # the game's name:
    requires: [{name: fixes, version: ">=1.0"}]  # mods loaded earlier in the list
    include: [cards/*.yaml]                    # the mod's board and cards files
    remove:  {moves: [pass], items: [c1], regions: [east], connections: [[north, south]]}
    replace: {procedures: {"draw(n, m)": ...}, flow: ...}
    patch:   {zones: {table: {visibility: hidden}}}
    add:     {moves: {go: {do: ...}}, triggers: {win2: {when: ..., do: ...}}}

A mod applies remove, replace, patch, add, then its included files (a cards file with
``mode: replace`` replaces items of the same id); mods apply in the order given. Triggers and
listeners are named by their id; functions and procedures by the name before '('.

The merged game.yaml becomes ``spec.game.value``; ``spec.game.source`` becomes a
``LayeredSource``, which routes each path of the merged data to the file and path the value
came from, so a diagnostic about a mod's entry points at the mod's own line.

Why this module is large: how a mod overlays a game, whole — manifest, requirements, the four
overlays, routing every diagnostic to the mod's own line; each part needs the others' records.
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, did_you_mean
from .loader import Entry, Spec, _display, check_schema, include_files, is_bare_name, read_source, usable_path
from .validators import schema
from .yamlsrc import Source

OPS = ("remove", "replace", "patch", "add")  # the order a mod's overlays apply in
FIXED = ("kind", "name", "include")  # game.yaml keys no mod changes
LISTS = ("triggers", "listeners")  # list sections: entries named by their id
SIGNED = ("functions", "procedures")  # keys are signatures: matched by the name before '('
PARTS = ("items", "regions", "connections")  # from cards and board files: a mod's own files add them
DONE = {"replace": "replaced", "patch": "patched", "remove": "removed"}


def _section_kind(section) -> str | None:
    """'list', 'map' (named entries), 'whole' (one value, replaced as a whole) or None."""
    props = schema("game")["properties"]
    if section in FIXED or section not in props:
        return None
    if section in LISTS:
        return "list"
    return "map" if props[section].get("type") == "object" else "whole"


def _sections() -> list:
    return [s for s in schema("game")["properties"] if _section_kind(s)] + list(PARTS)


def _name(section, key):
    return str(key).split("(")[0].strip() if section in SIGNED else key


@dataclass
class _Slot:
    """One entry of a section a mod touched, and where it (and each patched key) came from."""
    key: object  # its key in the merged mapping (unused for list sections)
    value: object
    source: Source
    path: tuple
    patched: dict = field(default_factory=dict)  # key -> (source, path)


class PatchedSource:
    """The file of an item or region that a mod patched: looks like that file, but routes the
    paths of the patched keys to the mod's lines (so a diagnostic points there)."""

    def __init__(self, base, routes: dict):
        self.base = getattr(base, "base_source", base)
        self.base_source = self.base
        self.path, self.display, self.text = self.base.path, self.base.display, self.base.text
        self._routes = {**getattr(base, "_routes", {}), **routes}  # path -> (source, path)

    def route(self, path: tuple) -> tuple:
        path = tuple(path)
        for n in range(len(path), 0, -1):
            hit = self._routes.get(path[:n])
            if hit is not None:
                return hit[0], hit[1] + path[n:]
        return self.base, path

    def pos(self, path: tuple, key: bool = False):
        source, path = self.route(path)
        return source.pos(path, key)

    def text_pos(self, path: tuple, line: int, col: int):
        source, path = self.route(path)
        return source.text_pos(path, line, col)


class LayeredSource:
    """game.yaml with mods applied. Looks like the game's Source to the builder; route(path)
    gives the file and path where the value at a path of the merged data was written."""

    def __init__(self, base: Source):
        self.base = base
        self.path, self.display = base.path, base.display
        self.text = base.text  # each mod's manifest is appended: the schema cache keys on it
        self.data = dict(base.data)
        self._tables = {}  # section -> {name: _Slot}, for the sections a mod touched
        self._routes = {}  # path prefix in the merged data -> (source, path prefix there)

    def table(self, section) -> dict:
        """A section's entries by name, editable (copied from the game on first use)."""
        if section not in self._tables:
            old = self.data.get(section)
            t = {}
            if section in LISTS:
                for i, v in enumerate(old if isinstance(old, list) else []):
                    name = v.get("id") if isinstance(v, dict) else None
                    # an entry without an id (or a repeated one) cannot be named by a mod
                    t[name if isinstance(name, str) and name not in t else object()] = \
                        _Slot(None, v, self.base, (section, i))
            elif isinstance(old, dict):
                for k, v in old.items():
                    t[_name(section, k)] = _Slot(k, v, self.base, (section, k))
            self._tables[section] = t
        return self._tables[section]

    def replace_whole(self, section, value, source, path):
        self.data[section] = value
        self._routes[(section,)] = (source, path)

    def finish(self) -> dict:
        """Write the edited sections into the merged data and note where each entry came from."""
        for section, t in self._tables.items():
            slots = list(t.values())
            if section in LISTS:
                self.data[section] = [s.value for s in slots]
                keys = range(len(slots))
            else:
                self.data[section] = {s.key: s.value for s in slots}
                keys = [s.key for s in slots]
            for k, s in zip(keys, slots):
                if s.source is not self.base or s.path != (section, k):
                    self._routes[(section, k)] = (s.source, s.path)
                for pk, where in s.patched.items():  # pk: the path of a patched key in the entry
                    self._routes[(section, k) + pk] = where
        self._depth = max((len(p) for p in self._routes), default=1)
        return self.data

    def route(self, path: tuple) -> tuple:
        # the longest routed prefix wins: a patched key (at any depth), its entry, a whole section
        # (and a layer below may route further: a game's topic files under its mods)
        source, path = self.base, path
        for n in range(min(len(path), getattr(self, "_depth", 3)), 0, -1):
            hit = self._routes.get(path[:n])
            if hit is not None:
                source, path = hit[0], hit[1] + path[n:]
                break
        inner = getattr(source, "route", None)
        return inner(path) if inner is not None else (source, path)

    def pos(self, path: tuple, key: bool = False):
        source, path = self.route(tuple(path))
        return source.pos(path, key)

    def text_pos(self, path: tuple, line: int, col: int):
        source, path = self.route(tuple(path))
        return source.text_pos(path, line, col)


def merge_patch(base: dict, patch: dict, routes: dict, here: tuple, src, at: tuple) -> dict:
    """A patch merged into a mapping, as JSON Merge Patch does it: a mapping merges into a
    mapping key by key (at any depth), null deletes the key, anything else replaces it.
    routes[path in the entry] = (src, path in the mod) for every key the patch set."""
    out = dict(base)
    for k, v in patch.items():
        path = here + (k,)
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge_patch(out[k], v, routes, path, src, at + (k,))
            continue
        else:
            out[k] = v
        routes[path] = (src, at + (k,))
    return out


def resolve_mod_dir(m: str, game_root: Path) -> Path:
    """Where a mod named on the command line lives: a bare name is the game's own mod of that
    name when there is one (a folder of that name where the command runs never shadows it),
    else the path as given."""
    named = Path(game_root) / "mods" / m
    if not usable_path(named) or not usable_path(m):  # (no folder has such a name: not found)
        return Path(m)
    if is_bare_name(m) and (named / "mod.yaml").is_file():
        return named
    return Path(m) if Path(m).is_dir() else named


def merge_rule_files(spec: Spec, parts: list) -> None:
    """A game's rules split into topic files (``kind: rules``, included from game.yaml): their
    sections are merged into the game's, as if written in game.yaml; an entry defined twice is
    an error naming both places, and every diagnostic points into the file that wrote it."""
    layers = LayeredSource(spec.game.source)
    where = {}  # (section, name) -> (source, path, at its key) of its first definition

    def first(section, name, src, path):
        if (section, name) in where:
            s, p, key = where[(section, name)]  # (a position is looked up only when it is needed)
            spec.error(src, path, "E305", f"{section} entry '{name}' is defined twice",
                       f"first defined at {s.display}:{s.pos(p, key=key)[0]}", key=True)
            return False
        where[(section, name)] = (src, path, True)
        return True

    base = spec.game.source
    for section, value in base.data.items():
        kind = _section_kind(section)
        if kind == "map" and isinstance(value, dict):
            for k in value:
                where[(section, _name(section, k))] = (base, (section, k), True)
        elif kind == "list" and isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, dict) and isinstance(v.get("id"), str):
                    where[(section, v["id"])] = (base, (section, i), False)
        elif kind == "whole":
            where[(section, None)] = (base, (section,), True)
    for src in parts:
        for section, value in src.data.items():
            if section == "kind":
                continue
            kind = _section_kind(section)
            at = (section,)
            if kind is None:
                spec.error(src, at, "E101", f"'{section}' is not a section a rules file can hold",
                           did_you_mean(section, _sections()) or "a rules file holds sections of game.yaml",
                           key=True)
            elif kind == "whole":
                if first(section, None, src, at):
                    layers.replace_whole(section, value, src, at)
            elif kind == "list":
                table = layers.table(section)
                for i, entry in enumerate(value if isinstance(value, list) else []):
                    name = entry.get("id") if isinstance(entry, dict) else None
                    if not isinstance(name, str) or first(section, name, src, at + (i,)):
                        table[name if isinstance(name, str) else object()] = _Slot(None, entry, src, at + (i,))
            elif isinstance(value, dict):
                table = layers.table(section)
                for key, entry in value.items():
                    name = _name(section, key)
                    if first(section, name, src, at + (key,)):
                        table[name] = _Slot(key, entry, src, at + (key,))
    spec.game = Entry(layers.finish(), layers, ())


def apply_mods(spec: Spec, mods: list) -> None:
    """Apply each mod in order: its overlays to spec.game, its files to the board and cards."""
    _Mods(spec).run(mods)


_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)?\s*(\d+(?:\.\d+)*)\s*$")
_COMPARE = {">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
            ">": operator.gt, "<": operator.lt, None: operator.eq}


def _version(text) -> tuple | None:
    """A version as numbers (each at most 9 digits), or None when it is not one."""
    text = str(text)
    return tuple(int(x) for x in text.split(".")) if re.fullmatch(r"\d{1,9}(\.\d{1,9}){0,7}", text) else None


def _satisfies(have: tuple, want: str) -> bool | None:
    """Whether version `have` meets `want` (clauses like >=1.0 joined by commas); None when
    `want` cannot be read."""
    clauses = [_CLAUSE.match(c) for c in want.split(",")]
    if not all(clauses):
        return None
    for m in clauses:
        need = _version(m.group(2))
        width = max(len(have), len(need))  # 1.0 == 1.0.0
        if not _COMPARE[m.group(1)](have + (0,) * (width - len(have)), need + (0,) * (width - len(need))):
            return False
    return True


class _Mods:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.layers = LayeredSource(spec.game.source)
        self.loaded = {}  # mod name -> its manifest Source
        self.failed = set()  # names of the mods that could not be applied
        self.changed = {}  # (section, name) -> who replaced, patched or removed it first
        self.mod = ""  # the name of the mod being applied

    def error(self, src, path, code, message, hint="", key=False):
        self.spec.error(src, path, code, message, hint, key)

    def run(self, mods):
        for m in mods:
            src = self._read(m)
            if src is None:
                continue
            name = src.data.get("name")
            if isinstance(name, str) and name in self.loaded:
                first = self.loaded[name]
                self.error(src, ("name",), "E004", f"mod '{name}' is loaded twice",
                           f"also at {first.display}:{first.pos(('name',))[0]}; give each mod once")
                continue
            if isinstance(name, str):
                self.loaded[name] = src
            fits = self._fits(src)
            if fits:
                self._apply(src)
                continue
            if isinstance(name, str):
                self.failed.add(name)
            if fits is None and isinstance(name, str):
                # its manifest has errors, but it is meant for this game: its overlays are
                # applied anyway, so that their problems are reported with the manifest's (all
                # at once; the game does not load either way)
                try:
                    self._apply(src)
                except Exception:  # a shape the schema already reported
                    pass
        self.spec.game = Entry(self.layers.finish(), self.layers, ())

    # ------------------------------------------------------------------ the manifest
    def _folder(self, m: str) -> Path | None:
        """A mod folder: a path, or a name under the game's mods/ folder."""
        found = resolve_mod_dir(m, self.spec.root)
        if usable_path(found) and found.is_dir():
            return found
        named = self.spec.root / "mods" / m
        have = sorted(p.parent.name for p in (self.spec.root / "mods").glob("*/mod.yaml"))
        self.spec.diags.append(Diagnostic(m, 1, 1, "E002", f"mod '{m}' not found (no folder {m} nor {_display(named)})",
                                          did_you_mean(m, have) or (f"mods of this game: {', '.join(have)}" if have
                                                                    else "give a mod folder, or a name under <game>/mods/")))
        return None

    def _read(self, m: str) -> Source | None:
        """The mod's mod.yaml, read, or None after saying why it cannot be."""
        folder = self._folder(m)
        if folder is None:
            return None
        file = folder / "mod.yaml"
        if not file.is_file():
            self.spec.diags.append(Diagnostic(_display(folder), 1, 1, "E002", f"no mod.yaml in {_display(folder)}",
                                              "a mod is a folder holding mod.yaml (kind: mod)"))
            return None
        src = read_source(file, self.spec)
        if src is None:
            return None
        if not isinstance(src.data, dict) or src.data.get("kind") != "mod":
            self.error(src, (), "E003", "mod.yaml must be a mapping with 'kind: mod'")
            return None
        return src

    def _fits(self, src: Source) -> bool | None:
        """Whether the manifest is well formed and the mod fits the game and the mods before it
        (every problem is reported); None when it does not, yet is meant for this game (its
        game: names it, or nearly: a typo) and requires nothing missing, so its overlays can be
        checked too."""
        data = src.data
        ok = check_schema(src, "mod", self.spec)
        if "version" in data and _version(data["version"]) is None:
            self.error(src, ("version",), "E101", f"version {str(data['version'])[:40]!r} is not numbers joined by dots",
                       "e.g. version: 1.2.0")
        game = self.layers.base.data.get("name")
        if data.get("game") != game:
            self.error(src, ("game",), "E004", f"mod '{data.get('name')}' is for game '{data.get('game')}', not '{game}'",
                       f"the game's name is at {self.layers.base.display}:{self.layers.base.pos(('name',))[0]}")
            near = isinstance(data.get("game"), str) and did_you_mean(data["game"], [game])
            return None if near and self._requires_safe(src) else False
        if not (self._requires(src) if ok else self._requires_safe(src)):
            return False
        return True if ok else None

    def _requires_safe(self, src: Source) -> bool:
        """_requires of a manifest the schema refused (its shapes may be wrong: then it fits not)."""
        try:
            return isinstance(src.data.get("name"), str) and self._requires(src)
        except Exception:  # a shape the schema already reported
            return False

    def _requires(self, src: Source) -> bool:
        """Whether every mod this one requires was loaded before it, in a fitting version."""
        name, ok = src.data["name"], True
        for i, req in enumerate(src.data.get("requires") or []):
            other = self.loaded.get(req["name"])
            if req["name"] in self.failed:  # its own errors say why; this mod cannot apply either
                ok = False
                continue
            if other is None or other is src:
                self.error(src, ("requires", i), "E004",
                           f"mod '{name}' requires mod '{req['name']}', which is not loaded before it",
                           f"load it first: --mod {req['name']} --mod {name}")
                ok = False
                continue
            have = _version(other.data.get("version"))
            if "version" not in req or have is None:  # a bad version was reported on its own mod
                continue
            fits = _satisfies(have, str(req["version"]))
            if fits is None:
                self.error(src, ("requires", i, "version"), "E101",
                           f"version requirement {req['version']!r} cannot be read", "e.g. '>=1.0' or '>=1.0, <2'")
            elif not fits:
                self.error(src, ("requires", i, "version"), "E004",
                           f"mod '{name}' requires {req['name']} {req['version']}, "
                           f"but {req['name']} is version {other.data['version']}",
                           f"its version is at {other.display}:{other.pos(('version',))[0]}")
            ok = ok and bool(fits)
        return ok

    # ------------------------------------------------------------------ overlays
    def _apply(self, src: Source):
        self.mod = src.data["name"]
        self.layers.text += "\n" + src.text
        for op in OPS:
            for section, entries in (src.data.get(op) or {}).items():
                self._section(src, op, section, entries)
        include_files(self.spec, src, Path(src.path).parent, self._replace_item)

    def _section(self, src, op, section, entries):
        at = (op, section)
        kind = _section_kind(section)
        if section in ("items", "regions") and op == "patch":
            table = self.spec.items if section == "items" else self.spec.regions
            for name, value in (entries or {}).items() if isinstance(entries, dict) else ():
                if self._find(src, op, section, name, at + (name,), table) is None:
                    continue
                if not isinstance(value, dict):
                    self.error(src, at + (name,), "E101", f"patch: {section} entry '{name}' needs a mapping "
                               "of the keys to change", key=True)
                    continue
                e = table[name]
                routes = {}
                merged = merge_patch(e.value, value, routes, (), src, at + (name,))
                if section == "items" and value.get("type", e.value.get("type")) != e.value.get("type"):
                    self.error(src, at + (name, "type"), "E101", "a patch cannot change an item's type",
                               "remove the item and add another in a cards file")
                    continue
                table[name] = Entry(merged, PatchedSource(e.source, {e.path + k: w for k, w in routes.items()}),
                                    e.path, {k: v for k, v in e.origins.items() if k not in value})
            return
        if section in PARTS:
            if op != "remove":
                self.error(src, at, "E101", f"{op}: cannot change {section}",
                           f"a mod adds {section} in its included files (cards may say mode: replace) and changes keys of one with patch: {{{section}: {{name: {{key: value}}}}}}; "
                           f"remove: {{{section}: [...]}} drops them", key=True)
                return
            if section == "connections":
                for i, pair in enumerate(entries):
                    self._remove_connection(src, pair, at + (i,))
                return
            table = self.spec.items if section == "items" else self.spec.regions
            for i, name in enumerate(entries):
                if self._find(src, op, section, name, at + (i,), table) is not None:
                    self._remove_part(section, name)
        elif kind is None:
            self.error(src, at, "E101", f"'{section}' is not a section a mod can change",
                       did_you_mean(section, _sections()) or f"sections: {', '.join(_sections())}", key=True)
        elif kind == "whole":
            if op != "replace":
                self.error(src, at, "E101", f"'{section}' is one value: change it with replace: {{{section}: ...}}",
                           key=True)
            elif self._claim(src, op, f"'{section}'", (section,), at):
                self.layers.replace_whole(section, entries, src, at)
        elif op == "remove":
            table = self.layers.table(section)
            for i, key in enumerate(entries if isinstance(entries, list) else []):
                if not isinstance(key, str):
                    self.error(src, at + (i,), "E101", f"remove: {section} lists names; this is not a name",
                               f"write remove: {{{section}: [name, ...]}}")
                    continue
                name = self._find(src, op, section, key, at + (i,), table)
                if name is not None:
                    del table[name]
                    self.spec.removed[name] = f"mod '{self.mod}' removed it at {src.display}:{src.pos(at + (i,))[0]}"
            if not isinstance(entries, list):
                self.error(src, at, "E101", f"remove: {section} needs a list of names",
                           f"write remove: {{{section}: [name, ...]}}")
        elif not isinstance(entries, dict):
            hint = (f"{section} are named by their id: write {op}: {{{section}: {{my_id: {{...}}}}}}"
                    if section in LISTS else f"write {op}: {{{section}: {{name: ...}}}}")
            self.error(src, at, "E101", f"{op}: {section} needs a mapping of name: entry", hint, key=True)
        else:
            for key, value in entries.items():
                getattr(self, "_" + op)(src, section, key, value, at + (key,))

    def _find(self, src, op, section, key, at, table):
        """The name of the existing entry a replace, patch or remove changes, or None after
        saying why it cannot."""
        name = _name(section, key)
        if name not in table and (section, name) not in self.changed:
            self.error(src, at, "E005", f"cannot {op} {section} entry '{name}': the game has none",
                       did_you_mean(name, [n for n in table if isinstance(n, str)])
                       or ("cards files without mode: replace add new items" if section == "items" else
                           "" if section == "regions" else "add: makes new entries"), key=True)
            return None
        return name if self._claim(src, op, f"{section} entry '{name}'", (section, name), at) else None

    def _claim(self, src, op, what, ident, at) -> bool:
        """Note that this mod changes an entry; False (after saying so) when a mod already did:
        two changes to one entry conflict, even within one mod."""
        if ident in self.changed:
            self.error(src, at, "E005", f"{what} was already {self.changed[ident]}",
                       "an entry is changed once: make these changes in one place", key=True)
            return False
        self.changed[ident] = f"{DONE[op]} by mod '{self.mod}' at {src.display}:{src.pos(at, key=True)[0]}"
        return True

    def _entry(self, src, section, name, value, at):
        """A list section's entry carries its name as its id."""
        if section not in LISTS or not isinstance(value, dict):
            return value  # a wrong shape is reported by the game's schema, at the mod's line
        if value.get("id", name) != name:
            self.error(src, at + ("id",), "E101", f"id '{value['id']}' differs from the entry's name '{name}'",
                       "leave out id: the name is the id")
        return {**value, "id": name}

    def _replace(self, src, section, key, value, at):
        table = self.layers.table(section)
        name = self._find(src, "replace", section, key, at, table)
        if name is not None:
            table[name] = _Slot(key, self._entry(src, section, name, value, at), src, at)

    def _patch(self, src, section, key, value, at):
        table = self.layers.table(section)
        name = self._find(src, "patch", section, key, at, table)
        if name is None:
            return
        slot = table[name]
        if not isinstance(slot.value, dict):
            self.error(src, at, "E005", f"cannot patch {section} entry '{name}': it is not a mapping",
                       "replace: it instead", key=True)
            return
        if not isinstance(value, dict):
            self.error(src, at, "E101", f"patch: {section} entry '{name}' needs a mapping of the keys to change",
                       "replace: the entry to give it another kind of value")
            return
        slot.value = merge_patch(slot.value, value, slot.patched, (), src, at)

    def _add(self, src, section, key, value, at):
        table = self.layers.table(section)
        name = _name(section, key)
        if name in table:
            first = table[name]
            self.error(src, at, "E305", f"{section} entry '{name}' already exists",
                       f"first defined at {first.source.display}:{first.source.pos(first.path, key=True)[0]}; "
                       "replace: or patch: change it", key=True)
            return
        table[name] = _Slot(key, self._entry(src, section, name, value, at), src, at)

    def _remove_part(self, section, name):
        if section == "items":
            del self.spec.items[name]
            return
        del self.spec.regions[name]
        # the region's connections go with it
        self.spec.connections = [c for c in self.spec.connections
                                 if name not in (c.value["between"] if isinstance(c.value, dict) else c.value)]

    def _remove_connection(self, src, pair, at):
        """remove: {connections: [[a, b], ...]}: every connection between a and b, either way."""
        def ends(c):
            return tuple(c.value["between"] if isinstance(c.value, dict) else c.value)

        if not (isinstance(pair, list) and len(pair) == 2):
            self.error(src, at, "E101", "a connection to remove is a pair of regions, as in [hill, ford]")
            return
        pair = tuple(pair)
        keep = [c for c in self.spec.connections if ends(c) not in (pair, pair[::-1])]
        if len(keep) == len(self.spec.connections):
            self.error(src, at, "E005", f"cannot remove the connection {list(pair)}: the board has none",
                       "connections are pairs of regions listed under connections: in board files")
        elif self._claim(src, "remove", f"connection {list(pair)}", ("connections",) + tuple(sorted(pair)), at):
            self.spec.connections = keep

    def _replace_item(self, iid, entry):
        """An item of a `mode: replace` cards file."""
        if self._find(entry.source, "replace", "items", iid, entry.path, self.spec.items) is not None:
            self.spec.items[iid] = entry
