"""YAML read safely and fast; line/column marks recovered on demand.

Files are parsed with the C safe loader (yamlread.py, which alone imports PyYAML, when a text
must be parsed), and what a text parses to is kept on disk, keyed by the text, this module,
yamlread.py and the installed PyYAML (reading it back is several times faster than
constructing it again). Every value is addressed by its path in the file (a tuple of keys and
list indexes). When a diagnostic needs a position, the file is composed once (node tree with
marks) and the path is walked to the node.
"""
from __future__ import annotations

from itertools import islice

from ..errors import Diagnostic


# plain keys YAML reads as null or a truth value, by the path step that names them (Source.node)
_ODD_KEYS = {**dict.fromkeys(["~", "null", "Null", "NULL", ""], "None"),
             **dict.fromkeys("true True TRUE yes Yes YES on On ON".split(), "True"),
             **dict.fromkeys("false False FALSE no No NO off Off OFF".split(), "False")}


MAX_VALUES = 1_000_000
_cache_salt = None
_read = None  # the module yamlread (PyYAML), imported when first needed: _reader()


def _reader():
    global _read
    if _read is None:
        from . import yamlread

        _read = yamlread
    return _read


def _cache_path(text: str) -> str:
    """The cache file of what a text parses to ('' when there is no cache directory)."""
    global _cache_salt
    import hashlib
    import os

    if _cache_salt is None:
        from .cachefile import package_version

        try:
            h = hashlib.sha256(package_version("yaml").encode())
            for name in (__file__, os.path.join(os.path.dirname(__file__), "yamlread.py")):
                with open(name, "rb") as fh:
                    h.update(fh.read())
        except OSError:
            return ""
        _cache_salt = h.digest()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = hashlib.sha256(_cache_salt + text.encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(base, "lotr-rules", "yaml", key[:32] + ".pickle")


def _read_cached(path: str):
    """(data, duplicates) parsed before from the same text, or None."""
    if not path:
        return None
    import pickle

    try:
        with open(path, "rb") as fh:
            hit = pickle.load(fh)
        return hit if isinstance(hit, tuple) and len(hit) == 2 else None
    except Exception:  # no cache, or a damaged one: parse again
        return None


def _write_cached(path: str, data, duplicates: list) -> None:
    if not path:
        return
    import pickle

    from .cachefile import write_atomically

    write_atomically(path, lambda fh: pickle.dump((data, duplicates), fh, protocol=pickle.HIGHEST_PROTOCOL))


def _code(ch) -> int:
    return ord(ch) if isinstance(ch, str) and len(ch) == 1 else int(ch) if isinstance(ch, int) else 0


def _expanded_size(data, limit) -> int:
    """How many values the document holds once aliases are expanded (stops past limit)."""
    count = 0
    stack = [data]
    while stack:
        x = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return count


def _restored(path, text, display, data) -> "Source":
    s = Source(path, text, display)
    s.data = data
    return s


class Source:
    """One rule file: its text, parsed data, and lazy position lookup."""

    def __init__(self, path: str, text: str, display: str | None = None):
        self.path = path
        self.display = display or path
        self.text = text
        self.data = None
        self._root = None  # the file's node tree, with marks (kept from reading it, or composed when first asked)
        self._lines = None
        self._keys: dict = {}  # id of a mapping node -> (the node, its keys): node()
        self._blocks: dict = {}  # path of a '|' block scalar -> (its first line, its indentation): text_pos

    def __reduce__(self):  # (pickled with checked rules) positions are found again from the text
        return _restored, (self.path, self.text, self.display, self.data)

    def parse(self, diags: list[Diagnostic]):
        cache = _cache_path(self.text)
        hit = _read_cached(cache)
        if hit is not None:
            self.data, duplicates = hit
        else:
            self.data = self._load(diags)
            if self.data is None:
                return None
            duplicates = self._duplicates
            _write_cached(cache, self.data, duplicates)
        for key, line, col in duplicates:
            diags.append(Diagnostic(self.display, line, col, "E305",
                                    f"duplicate key '{key}' (YAML would silently keep only the last one)",
                                    "give each entry its own name"))
        return self.data

    def _load(self, diags: list[Diagnostic]):
        read = _reader()
        loader = read.Loader(self.text)
        try:
            node = loader.get_single_node()
            self.data = None if node is None else loader.construct_document(node)
            if "<<" not in self.text and "!!merge" not in self.text:
                self._root = node  # kept for positions, asked next (a merge key rewrites its mapping's nodes)
            # (a file without aliases holds at most a value a character: only aliases multiply)
            size = _expanded_size(self.data, MAX_VALUES) if "*" in self.text or len(self.text) >= MAX_VALUES // 2 else 0
            if size > MAX_VALUES:
                self.data = None
                diags.append(Diagnostic(self.display, 1, 1, "E001",
                                        f"the file expands to more than {MAX_VALUES} values (YAML aliases)",
                                        "anchors and aliases may share data, not multiply it"))
                return None
        except (ValueError, RecursionError, MemoryError) as exc:
            self.data = None
            what = "nesting too deep" if isinstance(exc, RecursionError) else str(exc).split("\n")[0][:120]
            diags.append(Diagnostic(self.display, 1, 1, "E001", f"YAML value cannot be read: {what}",
                                    "numbers have at most a few thousand digits; nesting stays shallow"))
            return None
        except read.BadValue as exc:
            m = exc.problem_mark
            diags.append(Diagnostic(self.display, m.line + 1, m.column + 1, "E001",
                                    f"YAML value cannot be read: {exc.problem}",
                                    "a tag (!!int, !!bool...) must fit its value, and rule files need none; "
                                    "numbers have at most a few thousand digits"))
            return None
        except read.yaml.reader.ReaderError as exc:  # a character YAML does not allow (NUL, escapes...)
            line, col = self.offset_pos(exc.position)
            diags.append(Diagnostic(self.display, line, col, "E001",
                                    f"YAML syntax error: character U+{_code(exc.character):04X} is not allowed in a "
                                    "rule file",
                                    "remove control characters (NUL, escape sequences) from the file"))
            return None
        except read.yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            context = getattr(exc, "context", None) or ""
            mark = getattr(exc, "problem_mark", None)
            hint = "check indentation and quoting; effects use plain or '|' block style"
            cmark = getattr(exc, "context_mark", None)
            if cmark is not None and "flow" in context:
                # an unclosed [ or {: point at where it was opened
                hint = f"the bracket opened here is not closed (YAML gave up at line {mark.line + 1})" \
                    if mark else "the bracket opened here is not closed"
                mark = cmark
                problem = f"{problem} ({context})"
            mark = mark or cmark
            if "\t" in self.text and "tab" in str(problem).lower():
                hint = "YAML indentation uses spaces, not tabs"
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            diags.append(Diagnostic(self.display, line, col, "E001", f"YAML syntax error: {problem}", hint))
            return None
        finally:
            loader.dispose()
        self._duplicates = [(key, m.line + 1, m.column + 1) for key, m in loader.duplicates]
        return self.data

    @property
    def lines(self) -> list:
        """The text's lines (split once)."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def offset_pos(self, offset: int) -> tuple[int, int]:
        """1-based (line, col) of a character offset in the text."""
        before = self.text[:max(0, offset)]
        return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1

    def forget_positions(self) -> None:
        """Let the node tree go (composed again if a position is asked for later): a build asks
        for many positions, then none, and tens of thousands of live nodes slow every
        collection of Python's garbage collector while the game runs."""
        self._root = None
        self._keys = {}
        self._blocks = {}

    def node(self, path: tuple):
        """(the node at path, the node of its key), or as near as the path leads. A mapping's
        keys are looked up in a table made once per mapping (a code generator asks for every
        statement's line)."""
        yaml = _reader().yaml
        root = self._root
        if root is None:
            root = self._root = yaml.compose(self.text, Loader=_reader().Composer)  # (C where there is one)
        tables = self._keys
        node, key_node = root, None
        for step in path:
            if isinstance(node, yaml.MappingNode):
                kept = tables.get(id(node))
                if kept is None or kept[0] is not node:  # (the node is kept with its table: its id stays its own)
                    keys: dict = {}
                    for k, v in node.value:  # (the first key of each name, as YAML's last one is an error: E305)
                        if isinstance(k.value, str):
                            keys.setdefault(k.value, (v, k))
                            if not k.style and k.value in _ODD_KEYS:  # (found by the value YAML reads)
                                keys.setdefault(_ODD_KEYS[k.value], (v, k))
                    kept = tables[id(node)] = (node, keys)
                hit = kept[1].get(str(step))
                if hit is None:
                    return node, key_node
                node, key_node = hit
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and -len(node.value) <= step < len(node.value):
                key_node, node = None, node.value[step]
            else:
                return node, key_node
        return node, key_node

    def pos(self, path: tuple, key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the value at path (or of its key when key=True)."""
        try:
            node, key_node = self.node(tuple(path))
        except _reader().yaml.YAMLError:
            return 1, 1
        target = key_node if (key and key_node is not None) else node
        if target is None:
            return 1, 1
        return target.start_mark.line + 1, target.start_mark.column + 1

    def text_pos(self, path: tuple, line: int, col: int) -> tuple[int, int]:
        """Map a (line, col) inside a DSL scalar at path to a file position.

        Exact for plain (one or several lines), single- and double-quoted (without escapes)
        and '|' block scalars; '>' folded blocks map to the right line."""
        path = tuple(path)
        block = self._blocks.get(path)
        if block is not None:  # (a '|' block asked before: every statement of an effect asks)
            first, indent = block
            return first + line, indent + col
        node, key_node = self.node(path)
        if node is None:
            return 1, 1
        start, end = node.start_mark, node.end_mark
        style = getattr(node, "style", None)
        lines = self.lines
        if style in ("|", ">"):
            # block scalar: content starts on the next line at the block's indentation
            header = lines[start.line][start.column:].split("#")[0]
            digits = [c for c in header if c.isdigit()]
            first = start.line + 1
            if digits and key_node is not None:
                indent = key_node.start_mark.column + int(digits[0])
            else:
                indent = 0
                for ln in islice(lines, first, None):
                    if ln.strip():
                        indent = len(ln) - len(ln.lstrip())
                        break
            if style == "|":
                self._blocks[path] = (first, indent)
                return first + line, indent + col
            return self._folded(first, end.line, line, col, indent)
        quote = 1 if style in ("'", '"') else 0
        if end.line == start.line or (end.line == start.line + 1 and end.column == 0):
            return start.line + 1, start.column + quote + col + self._doubled_quotes(start, col, style)
        # a scalar over several lines: YAML folds its lines into one, joined by spaces
        return self._folded(start.line, end.line, line, col, None, start.column + quote)

    def _doubled_quotes(self, start, col, style) -> int:
        """Extra columns for '' inside a single-quoted scalar before col."""
        if style != "'":
            return 0
        raw = self.lines[start.line][start.column + 1:]
        extra, i, seen = 0, 0, 0
        while i < len(raw) and seen < col - 1:
            if raw[i] == "'" and raw[i + 1:i + 2] == "'":
                extra += 1
                i += 2
            elif raw[i] == "'":
                break
            else:
                i += 1
            seen += 1
        return extra

    def _folded(self, first, last, line, col, indent, first_col=None):
        """Position in source lines first..last of (line, col) of their folded text: lines
        joined by a space, an empty line giving a line break."""
        lines = self.lines
        segs = []  # (source line index, column where its text starts, text)
        for i in range(first, min(last + 1, len(lines))):
            raw = lines[i]
            if i == first and first_col is not None:
                c0 = first_col
            else:
                c0 = len(raw) - len(raw.lstrip()) if indent is None else min(indent, len(raw))
            segs.append((i, c0, raw[c0:].rstrip()))
        cur_line, offset = 1, 0
        for i, c0, text in segs:
            if not text:
                cur_line, offset = cur_line + 1, 0
                continue
            if cur_line == line and col <= offset + len(text) + 1:
                return i + 1, c0 + (col - offset)
            if cur_line == line:
                offset += len(text) + 1
        i, c0, _ = segs[-1] if segs else (first, 0, "")
        return i + 1, c0 + 1


class Src:
    """Where a DSL text lives: a Source (file) and the YAML path of the scalar (kept with the
    checked rules: run-time errors name their place by it)."""

    __slots__ = ("source", "path", "what")

    def __init__(self, source, path, what=""):
        route = getattr(source, "route", None)  # a game merged with mods: find the entry's own file
        if route is not None:
            source, path = route(tuple(path))
        self.source, self.path, self.what = source, tuple(path), what
