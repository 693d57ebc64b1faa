"""One way to write a cache file (parsed YAML, parsed effect trees, generated modules), a lock
for changing one that several processes may change, and the version of a library a cache
depends on."""
from __future__ import annotations

import contextlib
import itertools
import os
import threading


def write_atomically(path: str, dump) -> None:
    """Write a cache file whole: `dump(fh)` writes into a temporary file that is then renamed
    over `path` (never half a file). A cache is a convenience: a failed write never fails a
    load and leaves no temporary file behind."""
    tmp = None
    try:
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = _temporary(folder)
        with os.fdopen(fd, "wb") as fh:
            dump(fh)
        os.replace(tmp, path)
        tmp = None
    except Exception:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


@contextlib.contextmanager
def locked(path: str):
    """Hold an exclusive lock on the file at path (made if need be) while the block runs, where
    the system has file locks (fcntl): for a read, change and write of a cache file that
    several processes may do at once. OSError when the file cannot be made."""
    with open(path, "ab") as fh:
        try:
            import fcntl
        except ImportError:  # (no file locks: the last writer wins, which loses only time)
            yield
            return
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


_made = itertools.count()  # (temporary files of this process, numbered: _temporary)


def _temporary(folder: str):
    """(an open descriptor, the path) of a new file in folder that nobody else writes: named
    by this process, thread and a count (as safe as tempfile.mkstemp, without importing
    tempfile or drawing random names for each of the twenty caches a first load writes)."""
    for _ in range(100):
        tmp = os.path.join(folder, f".cache-{os.getpid()}-{threading.get_ident()}-{next(_made)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), tmp
        except FileExistsError:  # (left by a process of the same number before): the next
            continue
    raise FileExistsError(folder)


def package_version(name: str) -> str:
    """An installed package's version, read from its package without importing it (importing
    Lark or PyYAML is a tenth of a large game's first load, and a cache keyed by its version
    may spare the import)."""
    import importlib.util
    import re

    try:
        spec = importlib.util.find_spec(name)
        with open(spec.origin, encoding="utf-8") as fh:
            m = re.search(r"^__version__\s*(?::\s*str\s*)?=\s*['\"]([^'\"]+)['\"]", fh.read(), re.M)
        if m:
            return m.group(1)
    except (AttributeError, TypeError, ValueError, OSError):
        pass
    import importlib  # (a package that does not say it plainly)

    return str(importlib.import_module(name).__version__)
