"""YAML read safely and fast; line/column marks recovered on demand.

Files are parsed with the C safe loader. Every value is addressed by its path in the
file (a tuple of keys and list indexes). When a diagnostic needs a position, the file is
composed once (node tree with marks) and the path is walked to the node.
"""
from __future__ import annotations

import yaml

from ..errors import Diagnostic

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Source:
    """One rule file: its text, parsed data, and lazy position lookup."""

    def __init__(self, path: str, text: str, display: str | None = None):
        self.path = path
        self.display = display or path
        self.text = text
        self.data = None
        self._root = None

    def parse(self, diags: list[Diagnostic]):
        try:
            self.data = yaml.load(self.text, Loader=_Loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = getattr(exc, "problem", None) or str(exc)
            diags.append(Diagnostic(self.display, line, col, "E001", f"YAML syntax error: {problem}",
                                    "check indentation and quoting; effects use plain or '|' block style"))
            return None
        return self.data

    def node(self, path: tuple):
        if self._root is None:
            self._root = yaml.compose(self.text, Loader=yaml.SafeLoader)
        node = self._root
        key_node = None
        for step in path:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == str(step) or k.value == step:
                        key_node, node = k, v
                        break
                else:
                    return node, key_node
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
                key_node, node = None, node.value[step]
            else:
                return node, key_node
        return node, key_node

    def pos(self, path: tuple, key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the value at path (or of its key when key=True)."""
        try:
            node, key_node = self.node(tuple(path))
        except yaml.YAMLError:
            return 1, 1
        target = key_node if (key and key_node is not None) else node
        if target is None:
            return 1, 1
        return target.start_mark.line + 1, target.start_mark.column + 1

    def text_pos(self, path: tuple, line: int, col: int) -> tuple[int, int]:
        """Map a (line, col) inside a DSL scalar at path to a file position.

        Works for plain, quoted and '|' block scalars (rule files use these styles)."""
        node, _ = self.node(tuple(path))
        if node is None:
            return 1, 1
        start = node.start_mark
        style = getattr(node, "style", None)
        if style in ("|", ">"):
            # block scalar: content starts on the next line at the block's indentation
            lines = self.text.splitlines()
            first = start.line + 1
            indent = 0
            for ln in lines[first:]:
                if ln.strip():
                    indent = len(ln) - len(ln.lstrip())
                    break
            return first + line, indent + col
        offset = 1 if style in ("'", '"') else 0
        if line == 1:
            return start.line + 1, start.column + offset + col
        return start.line + line, col
