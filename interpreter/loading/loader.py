"""Find a game's rule files, read them, check them against their JSON Schemas and merge them.

The result is a ``Spec``: every section of every file, each entry remembering the file and
the YAML path it came from, so later checks (names, types, DSL) point at the right line.
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, did_you_mean
from .validators import SCHEMA_DIR, _validator, quick_check
from .yamlsrc import Source

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
KINDS = ("game", "board", "cards", "mod", "scenario", "rules")


# Texts that passed their schema before (sha256 of schema + text), kept on disk next to the
# parser cache, so an unchanged file is not validated again.
_valid: set | None = None


def _valid_file() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "lotr-rules", "valid-files.txt")


def _valid_set() -> set:
    global _valid
    if _valid is None:
        try:
            with open(_valid_file(), encoding="ascii") as fh:
                _valid = set(fh.read().split())
        except OSError:
            _valid = set()
    return _valid


def _remember_valid(digest: str) -> None:
    _valid_set().add(digest)
    try:
        os.makedirs(os.path.dirname(_valid_file()), exist_ok=True)
        with open(_valid_file(), "a", encoding="ascii") as fh:
            fh.write(digest + "\n")
    except OSError:
        pass


_SALTS: dict = {}  # kind -> the bytes every digest of a file of that kind starts with (_digest)


def _digest(kind: str, text: str) -> str:
    """What a file's validity is remembered by: its text, the schemas, and the checks of this
    module (a file found valid is checked again when they change)."""
    import hashlib

    salt = _SALTS.get(kind)
    if salt is None:
        salt = _SALTS[kind] = ((SCHEMA_DIR / f"{kind}.schema.json").read_bytes()
                               + (SCHEMA_DIR / "common.schema.json").read_bytes() + Path(__file__).read_bytes())
    return hashlib.sha256(salt + text.encode()).hexdigest()[:32]


@dataclass
class Entry:
    value: object
    source: Source
    path: tuple
    origins: dict = field(default_factory=dict)  # key -> path, for keys taken from defaults:

    def at(self, key) -> tuple:
        """The YAML path of one key of this entry (in `defaults:` when it came from there)."""
        return self.origins.get(key, self.path + (key,))


@dataclass
class Spec:
    root: Path
    game: Entry | None = None
    sources: list = field(default_factory=list)
    regions: dict = field(default_factory=dict)
    connections: list = field(default_factory=list)
    tableaux: dict = field(default_factory=dict)
    items: dict = field(default_factory=dict)
    diags: list = field(default_factory=list)
    removed: dict = field(default_factory=dict)  # name -> which mod removed it, and where
    mods: tuple = ()                              # the mods applied, as given
    rule_parts: list = field(default_factory=list)  # topic files of the game's rules (kind: rules)

    def error(self, source, path, code, message, hint="", key=False):
        route = getattr(source, "route", None)  # a game merged with mods: point into the entry's own file
        if route is not None:
            source, path = route(tuple(path))
        line, col = source.pos(path, key=key) if source is not None else (1, 1)
        name = source.display if source is not None else str(self.root)
        self.diags.append(Diagnostic(name, line, col, code, message, hint))


def is_bare_name(text: str) -> bool:
    """A name, not a path: no folder separator and no leading dot (./duel is a path)."""
    return bool(text) and "/" not in text and os.sep not in text and not text.startswith(".")


def usable_path(p) -> bool:
    """False for a name no file can have here: one holding a NUL character, or too long for the
    file system (asking about it raises instead of answering no)."""
    try:
        Path(p).exists()
        return True
    except (OSError, ValueError):
        return False


def resolve_game_dir(name_or_path: str) -> Path:
    """A game's folder. A bare name is a game under games/ (by folder, else by its `name:`)
    whenever there is one, so a folder of that name where the command runs never shadows a
    game; anything else is a path (a game folder, or a file in one)."""
    p = Path(name_or_path)
    if not usable_path(p):  # (no file has such a name: a game of that name is not found)
        return p
    if is_bare_name(name_or_path) and GAMES_DIR.is_dir():
        cand = GAMES_DIR / name_or_path
        if (cand / "game.yaml").is_file():
            return cand
        # a game's `name:` (what saved logs record) may differ from its folder
        # (war_of_the_ring in games/war-of-the-ring/)
        for d in sorted(GAMES_DIR.glob("*/game.yaml")):
            for line in d.read_text(encoding="utf-8").splitlines():  # the top-level name: key
                if line.startswith("name:"):
                    if line.split(":", 1)[1].strip().strip("'\"") == name_or_path:
                        return d.parent
                    break
    if p.is_file():
        return p.parent
    return p


def _display(path: Path) -> str:
    """A file's name in messages: relative to where the command runs when it lies below it,
    else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(Path(path).resolve()) if rel.startswith("..") else rel


MAX_FILE_BYTES = 4 * 2**20  # a rule file larger than this is refused before it is read


def read_bounded(path, limit: int) -> bytes | None:
    """A file's bytes, or None when it holds more than `limit` of them (read no further)."""
    with open(path, "rb") as fh:
        raw = fh.read(limit + 1)
    return raw if len(raw) <= limit else None


def read_source(path: Path, spec: Spec) -> Source | None:
    """A rule file read and parsed, or None after a diagnostic saying why it cannot be: too
    large, not UTF-8 (at the offending byte), not YAML, or empty."""
    name = _display(path)
    try:
        size = path.stat().st_size
        raw = read_bounded(path, MAX_FILE_BYTES) if size <= MAX_FILE_BYTES else None
        if raw is None:  # (a device such as /dev/zero says it holds nothing, and holds no end)
            spec.diags.append(Diagnostic(name, 1, 1, "E002", f"the file is {max(size, MAX_FILE_BYTES + 1) / 2**20:.1f}"
                                         f"{'+' if size <= MAX_FILE_BYTES else ''} MB; a rule file may be at most "
                                         f"{MAX_FILE_BYTES // 2**20} MB", "split it into several files"))
            return None
    except OSError as exc:
        spec.diags.append(Diagnostic(name, 1, 1, "E002", f"cannot read file: {exc.strerror or exc}"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        col = len(raw[raw.rfind(b"\n", 0, exc.start) + 1:exc.start].decode("utf-8", "replace")) + 1
        spec.diags.append(Diagnostic(name, line, col, "E001", f"the file is not UTF-8 text: byte "
                                     f"0x{raw[exc.start]:02x} cannot be read", "save the file as UTF-8"))
        return None
    src = Source(str(path), text, name)
    spec.sources.append(src)
    n = len(spec.diags)
    if src.parse(spec.diags) is None and src.data is None:
        if len(spec.diags) == n:  # nothing but comments and blank lines
            spec.diags.append(Diagnostic(name, 1, 1, "E003", "the file is empty",
                                         "a rule file starts with kind: game, board, cards or mod"))
        return None
    return src


def _jsonable(x):
    """YAML allows non-string keys (e.g. track spaces 3:); JSON Schema sees them as strings."""
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jsonable(v) for v in x]
    return x


def _at(data, path):
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def check_schema(src: Source, kind: str, spec: Spec) -> bool:
    digest = _digest(kind, src.text)
    if digest in _valid_set():
        return True
    ok = _check_keys(src, spec) & _check_schema(src, kind, spec)
    if ok:
        _remember_valid(digest)
    return ok


def _check_keys(src: Source, spec: Spec) -> bool:
    """Every key YAML reads as null or true/false (null:, ~:, yes:, on:, off:...) reported: no
    entry of a rule file is named so, and a name must not silently become a value."""
    todo, odd = [src.data], False
    while todo and not odd:  # (first a quick look: most files have none)
        x = todo.pop()
        if type(x) is dict:
            odd = None in x or True in x or False in x
            todo.extend(x.values())
        elif type(x) is list:
            todo.extend(x)
    if not odd:
        return True
    ok = True
    todo = [((), src.data)]
    while todo:
        path, x = todo.pop()
        if isinstance(x, dict):
            for k, v in x.items():
                if k is None or isinstance(k, bool):
                    ok = False
                    spec.error(src, path + (k,), "E101", f"a key YAML reads as {'null' if k is None else str(k).lower()}, "
                               "not as a name", "quote it ('on': ...) or choose another name", key=True)
                todo.append((path + (k,), v))
        elif isinstance(x, list):
            todo.extend((path + (i,), v) for i, v in enumerate(x))
    return ok


_NAME_PATTERN = re.compile(r"\^(\\s\*)?\[A-Za-z_\]")  # how the schemas' name patterns begin (_check_schema)


def _check_schema(src: Source, kind: str, spec: Spec, definition: str | None = None, at: tuple = ()) -> bool:
    """Report every schema violation of a file (or of the part at path `at`, against one of the
    kind's definitions) as a diagnostic at its line."""
    data = _jsonable(_at(src.data, at))
    quick = quick_check(kind, definition)
    if quick is not None and quick(data):  # (valid: jsonschema is not needed to say why not)
        return True
    ok = True
    for err in _validator(kind, definition).iter_errors(data):
        ok = False
        path = tuple(at) + tuple(err.absolute_path)
        msg, hint, key = err.message, "", False
        if err.validator == "additionalProperties":
            extra = re.findall(r"'([^']+)'", err.message.split("(")[-1])
            allowed = list((err.schema.get("properties") or {}).keys())
            for name in extra or [""]:
                hint = did_you_mean(name, allowed) or (f"allowed here: {', '.join(allowed)}" if allowed else "")
                spec.error(src, path + (name,), "E101", f"unknown key '{name}'", hint, key=True)
            continue
        if err.validator in ("oneOf", "anyOf") and err.context:
            best = min(err.context, key=lambda e: len(list(e.absolute_path)))
            msg = best.message
        if err.validator == "enum":
            hint = did_you_mean(err.instance, err.validator_value) or \
                f"one of: {', '.join(map(str, err.validator_value))}"
        if err.validator == "pattern":
            if _NAME_PATTERN.match(err.validator_value):  # a name (common.schema.json: id, signature)
                msg = f"{err.instance!r} is not a valid name"
                hint = "names use letters, digits and '_', and do not start with a digit"
            else:  # a text of another form: the schema says which
                msg = f"{err.instance!r} is not allowed here"
                hint = err.schema.get("description", "")
            parent = _at(src.data, tuple(at) + tuple(err.absolute_path))
            if isinstance(parent, dict) and err.instance in parent:  # a bad key: point at the key
                path, key = path + (err.instance,), True
        if err.validator == "required":
            key = False
        if err.validator == "type" and not hint and isinstance(err.schema, dict) and err.schema.get("description"):
            hint = err.schema["description"]
        where = "/".join(map(str, path)) or "top level"
        spec.error(src, path, "E101", f"{msg} (at {where})", hint, key=key)
    return ok


def load_spec(name_or_path: str, mods=()) -> Spec:
    root = resolve_game_dir(name_or_path)
    spec = Spec(root=root, mods=tuple(mods))
    game_file = root / "game.yaml"
    if not usable_path(game_file) or not game_file.is_file():
        spec.diags.append(Diagnostic(_display(game_file), 1, 1, "E002",
                                     f"no game.yaml in {_display(root)}",
                                     "pass a game name under games/ or a folder holding game.yaml"))
        return spec
    src = read_source(game_file, spec)
    if src is None:
        return spec
    if not isinstance(src.data, dict) or src.data.get("kind") != "game":
        spec.error(src, (), "E003", "game.yaml must be a mapping with 'kind: game'")
        return spec
    spec.game = Entry(src.data, src, ())
    include_files(spec, src, root)
    if spec.rule_parts:  # the game's rules split into topic files (kind: rules)
        from .mods import merge_rule_files

        merge_rule_files(spec, spec.rule_parts)
    if mods:
        from .mods import apply_mods

        apply_mods(spec, [str(m) for m in mods])  # spec.game becomes the merged game
    check_schema(spec.game.source, "game", spec)
    return spec


def include_files(spec: Spec, src: Source, folder: Path, replace=None):
    """Load the board and cards files named by src's `include:` globs, confined to folder.
    replace(id, entry) takes the items of a `mode: replace` cards file (mods only)."""
    includes = src.data.get("include") or []
    seen = {Path(src.path).resolve()}
    top = folder.resolve()
    where = f"{src.data.get('kind')} folder"
    for i, pattern in enumerate(includes if isinstance(includes, list) else []):
        if not isinstance(pattern, str):
            continue
        matches = sorted(glob.glob(str(folder / pattern)))
        if not matches:
            spec.error(src, ("include", i), "E002", f"include '{pattern}' matches no file",
                       f"paths are relative to the {where}; globs like cards/*.yaml work")
        for m in matches:
            p = Path(m)
            real = p.resolve()
            if real in seen:
                continue
            seen.add(real)
            if top not in real.parents or not real.is_file():
                spec.error(src, ("include", i), "E002", f"include '{m}' is not a file inside the {where}",
                           "a game (or a mod) may only include its own files")
                continue
            _load_part(p, spec, replace)


def _load_part(path: Path, spec: Spec, replace=None):
    src = read_source(path, spec)
    if src is None:
        return
    data = src.data
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "rules" and replace is None:  # a topic file of the game's rules (not in a mod)
        check_schema(src, "rules", spec)
        spec.rule_parts.append(src)
        return
    if kind not in ("board", "cards"):
        spec.error(src, ("kind",) if isinstance(data, dict) and "kind" in data else (), "E003",
                   f"unknown file kind {kind!r}",
                   "an included file starts with kind: board, kind: cards or (a game's) kind: rules")
        return
    check_schema(src, kind, spec)
    # Even with schema errors, keep every well-shaped entry so later checks still run and
    # one typo does not cascade into "unknown region" errors everywhere.
    def section(name, typ):
        v = data.get(name)
        return v if isinstance(v, typ) else typ()

    if kind == "board":
        for name, props in section("regions", dict).items():
            if isinstance(name, str) and isinstance(props, (dict, type(None))):
                _add(spec, spec.regions, name, Entry(props or {}, src, ("regions", name)), "region")
        for i, c in enumerate(section("connections", list)):
            if (isinstance(c, list) and len(c) == 2) or (isinstance(c, dict) and isinstance(c.get("between"), list)
                                                          and len(c["between"]) == 2):
                spec.connections.append(Entry(c, src, ("connections", i)))
        for name, t in section("tableaux", dict).items():
            if isinstance(t, dict) and isinstance(t.get("slots"), dict):
                _add(spec, spec.tableaux, name, Entry(t, src, ("tableaux", name)), "tableau")
    elif kind == "cards":
        defaults = data.get("defaults") if isinstance(data.get("defaults"), dict) else {}
        typ = data.get("type")
        replacing = data.get("mode") == "replace"  # each item replaces one of the same id
        if replacing and replace is None:
            spec.error(src, ("mode",), "E101", "mode: replace is only for a mod's cards files",
                       "a game's own cards files add items; a mod may replace them")
            return
        for i, item in enumerate(section("items", list)):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not isinstance(typ, str):
                continue
            merged = dict(defaults)
            merged.update(item)
            merged["type"] = typ
            origins = {k: ("defaults", k) for k in defaults if k not in item}
            entry = Entry(merged, src, ("items", i), origins)
            if replacing:
                replace(item["id"], entry)
            else:
                _add(spec, spec.items, item["id"], entry, "item")


def _add(spec, table, name, entry, what):
    if name in table:
        prev = table[name]
        line, _ = prev.source.pos(prev.path)
        spec.error(entry.source, entry.path, "E305", f"duplicate {what} id '{name}'",
                   f"first defined at {prev.source.display}:{line}", key=True)
        return
    table[name] = entry
