"""Build the effect language's LALR tables into grammar/effects.tables.

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

from interpreter.dsl.parse import TABLES_PATH, tables_key, write_tables  # noqa: E402


def main() -> int:
    write_tables(TABLES_PATH)
    with open(TABLES_PATH, "rb") as fh:
        written = fh.readline().decode().strip()
    if written != tables_key():
        print(f"{TABLES_PATH.relative_to(ROOT)} could not be written", file=sys.stderr)
        return 1
    print(f"{TABLES_PATH.relative_to(ROOT)}: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
