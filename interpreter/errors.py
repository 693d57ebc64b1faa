"""Diagnostics for rule files and errors raised while a game runs."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(order=True, frozen=True)
class Diagnostic:
    """One problem in a rule file, reported as ``path:line:col: error[CODE]: message``; codes
    starting with W are warnings (likely mistakes that do not stop the game from loading)."""

    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str = field(default="", compare=False)

    @property
    def severity(self) -> str:
        return "warning" if self.code.startswith("W") else "error"

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.severity}[{self.code}]: {self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


class RuleError(Exception):
    """Raised when rule files have errors; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class EngineError(RuntimeError):
    """A rule misbehaved at run time (e.g. the step budget ran out)."""


class SaveError(ValueError):
    """A saved state or game log that cannot be read."""


# Error codes, one place (docs and tests refer to these).
CODES = {
    "E001": "YAML syntax error",
    "E002": "file not found / include matched nothing",
    "E003": "not a mapping at top level / unknown file kind",
    "E004": "mod does not fit: made for another game, loaded twice, or a required mod missing",
    "E005": "mod conflict: changes a missing entry, or one another mod already changed",
    "E101": "schema violation",
    "E201": "DSL syntax error",
    "E301": "unknown name",
    "E302": "unknown function, procedure or primitive",
    "E303": "unknown property",
    "E304": "unknown move, event or track",
    "E305": "duplicate id",
    "E306": "bad reference in data (region, zone, item, enum value)",
    "E401": "wrong number of arguments",
    "E402": "wrong type",
    "E403": "recursive definition",
    "E404": "statement used as a value / value used as a statement",
    "W101": "a region with no connection",
    "W201": "a function no rule uses",
    "W202": "a procedure no rule uses",
    "W301": "an item that starts nowhere and that no rule names",
}


def did_you_mean(name: str, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
