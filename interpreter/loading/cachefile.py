"""One way to write a cache file (parsed YAML, parsed effect trees, generated modules)."""
from __future__ import annotations

import os


def write_atomically(path: str, dump) -> None:
    """Write a cache file whole: `dump(fh)` writes into a temporary file that is then renamed
    over `path` (never half a file). A cache is a convenience: a failed write never fails a
    load and leaves no temporary file behind."""
    import tempfile

    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".cache-", suffix=".tmp")
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
