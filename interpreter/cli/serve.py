"""`lotr-rules serve`: play in the browser (interpreter/web)."""
from __future__ import annotations

from .common import UsageError


def add_arguments(p) -> None:
    p.add_argument("game", nargs="?", help="the game to open at once (default: a page listing the games)")


def run(args) -> int:
    raise UsageError("the browser board is not built yet (see issue 19)")
