"""Parsed texts kept on disk, one cache per game (like Lark's own parser cache): a game's
effects parse in ~150 ms, and reading their trees back takes a few milliseconds."""
from __future__ import annotations

import hashlib
import os

from ..loading.cachefile import write_atomically

_caches: dict = {}        # scope -> {(start, text): Node}
_dirty: set = set()       # scopes with trees not yet written
_scope = "shared"


class cache_scope:
    """Parse into the cache of one game (a name for it, e.g. its folder) while it loads."""

    def __init__(self, name: str):
        self.name = hashlib.sha256(str(name).encode()).hexdigest()[:12]

    def __enter__(self):
        global _scope
        self.old, _scope = _scope, self.name

    def __exit__(self, *exc):
        global _scope
        _scope = self.old


def _ast_cache_file(scope: str) -> str:
    from .parse import _cache_file

    f = _cache_file()
    return f.replace(".lark.cache", f".{scope}.ast.cache") if f else ""


def load() -> dict:
    cache = _caches.get(_scope)
    if cache is None:
        cache = _caches[_scope] = {}
        path = _ast_cache_file(_scope)
        if path and os.path.exists(path):
            import pickle

            try:
                with open(path, "rb") as fh, deep_recursion():
                    data = pickle.load(fh)
                if isinstance(data, dict):
                    cache = _caches[_scope] = data
            except Exception:  # a damaged cache is ignored and rewritten
                pass
    return cache


def save_ast_cache() -> None:
    """Write newly parsed texts to the on-disk caches (called after a game is loaded)."""
    import pickle

    def dump(fh, trees):
        with deep_recursion():
            pickle.dump(trees, fh, protocol=pickle.HIGHEST_PROTOCOL)

    for scope in list(_dirty):
        _dirty.discard(scope)
        path = _ast_cache_file(scope)
        if path:
            write_atomically(path, lambda fh: dump(fh, _caches[scope]))


def note(cache: dict, key, node) -> None:
    """Keep a parsed tree (written to disk by save_ast_cache)."""
    if len(cache) > 20000:
        cache.clear()
    cache[key] = node
    _dirty.add(_scope)


class deep_recursion:
    """Room for recursion while a deep (accepted) expression is parsed or compiled."""

    LIMIT = 20_000

    def __enter__(self):
        import sys

        self.old = sys.getrecursionlimit()
        if self.old < self.LIMIT:
            sys.setrecursionlimit(self.LIMIT)

    def __exit__(self, *exc):
        import sys

        sys.setrecursionlimit(self.old)


