"""The cache of generated modules: a game's rules written as Python once, kept on disk
(marshal) and keyed by the rule files, this engine's checker and code generator, and the
Python that compiles them, so an unchanged game loads without writing its module again."""
from __future__ import annotations

def _engine_digest() -> str:
    """What the generated code and the checked rules (checked.py) depend on besides the rule
    files: this engine's loader, checker, code generator and model, and the Python that
    compiles it."""
    import hashlib
    import sys
    from pathlib import Path

    h = hashlib.sha256(sys.version.encode())
    here = Path(__file__).resolve().parent
    for f in sorted([*here.glob("*.py"), *(here.parent / "dsl").glob("*.py"), *(here.parent / "model").glob("*.py"),
                     *(here.parent / "loading").glob("*.py"), here.parent / "engine" / "link.py",
                     here.parent / "limits.py", here.parent / "errors.py"]):
        h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()[:16]


_ENGINE = None


def module_key(rules_digest: str) -> str:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = _engine_digest()
    return f"{rules_digest}-{_ENGINE}"


def _cache_dir():
    import os

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "lotr-rules", "modules")


def read_module(key: str, folder: str | None = None):
    """The module kept under key (in folder, by default the cache's), or None."""
    import marshal
    import os

    try:
        with open(os.path.join(folder or _cache_dir(), key + ".bin"), "rb") as fh:
            data = marshal.load(fh)
        return data if isinstance(data, dict) and {"source", "code", "chunks", "names", "enums"} <= set(data) else None
    except Exception:  # no cache, or a damaged one: write the module again
        return None


def write_module(key: str, data: dict, folder: str | None = None) -> None:
    """Written whole (never half a module); a failure to write never fails a load."""
    import marshal
    import os

    from ..loading.cachefile import write_atomically

    write_atomically(os.path.join(folder or _cache_dir(), key + ".bin"), lambda fh: marshal.dump(data, fh))


def module_filename(r) -> str:
    return f"<rules of {r.name or 'a game'}>"
