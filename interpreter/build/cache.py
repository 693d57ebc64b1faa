"""The cache of generated modules: a game's rules written as Python once, kept on disk
(marshal) and keyed by the rule files, this engine's checker and code generator, and the
Python that compiles them, so an unchanged game loads without writing its module again. Each
chunk of the module (a block's statements, a game function) is kept too once it has been
compiled: in a file of its own by the load that compiled it, then in the module's file by
the next load (build/module.py)."""
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


def read_module(key: str):
    import marshal
    import os

    try:
        with open(os.path.join(_cache_dir(), key + ".bin"), "rb") as fh:
            data = marshal.load(fh)
        return data if isinstance(data, dict) and {"source", "code", "chunks", "names", "enums"} <= set(data) else None
    except Exception:  # no cache, or a damaged one: write the module again
        return None


def write_module(key: str, data: dict) -> None:
    """Written whole (never half a module); a failure to write never fails a load."""
    import marshal
    import os

    from ..loading.cachefile import write_atomically

    write_atomically(os.path.join(_cache_dir(), key + ".bin"), lambda fh: marshal.dump(data, fh))


def _chunk_path(key: tuple) -> str:
    import os

    module, number = key
    return os.path.join(_cache_dir(), str(module), f"{number}.bin")


def write_chunk(key: tuple, code) -> None:
    """Keep the code of chunk key (the module's key, the chunk's number), compiled by this load,
    for later ones (whole or not at all; never an error)."""
    import marshal

    from ..loading.cachefile import write_atomically

    write_atomically(_chunk_path(key), lambda fh: marshal.dump(code, fh))


def kept_chunks(module: str, have) -> dict:
    """{chunk number: its code, marshalled} of the chunks of a module that earlier loads
    compiled and kept (write_chunk), but for those in `have`; a damaged file is left out (its
    chunk is compiled again when it runs)."""
    import marshal
    import os
    import types

    folder = os.path.join(_cache_dir(), module)
    try:
        names = os.listdir(folder)
    except OSError:  # (none kept yet)
        return {}
    found = {}
    for name in names:
        stem, dot, ext = name.partition(".")
        if not stem.isdigit() or ext != "bin" or int(stem) in have:  # (or a file being written)
            continue
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                data = fh.read()
            if type(marshal.loads(data)) is types.CodeType:
                found[int(stem)] = data
        except Exception:
            continue
    return found


def module_filename(r) -> str:
    return f"<rules of {r.name or 'a game'}>"
