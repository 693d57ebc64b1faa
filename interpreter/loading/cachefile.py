"""One way to write a cache file (parsed YAML, parsed effect trees, generated modules)."""
from __future__ import annotations

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
