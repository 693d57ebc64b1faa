"""Build the effect language's LALR tables into grammar/effects.tables (Lark's own parser) and
grammar/effects.driver (the same tables as plain data, for the engine's LALR driver).

    python tools/parser_tables.py

Run it after changing grammar/effects.lark (tests/test_parser_tables.py fails until then). The
tables hold the grammar's digest and the Lark and Python versions they were built with; with
another Lark or Python the engine builds its own tables on first use, in the user's cache.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.dsl.parse import DRIVER_PATH, TABLES_PATH, tables_key, write_tables  # noqa: E402


def main() -> int:
    write_tables(TABLES_PATH, driver_path=DRIVER_PATH)
    for path in (TABLES_PATH, DRIVER_PATH):
        try:
            with open(path, "rb") as fh:
                written = fh.readline().decode().strip()
        except OSError:
            written = ""
        if written != tables_key():
            print(f"{path.relative_to(ROOT)} could not be written", file=sys.stderr)
            return 1
        print(f"{path.relative_to(ROOT)}: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
