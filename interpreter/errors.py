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
        text = (f"{one_line(self.path)}:{self.line}:{self.col}: {self.severity}[{self.code}]: "
                f"{one_line(self.message)}")
        if self.hint:
            text += f"\n    hint: {one_line(self.hint)}"
        return text


def one_line(text) -> str:
    """Text from a rule file made safe to print: control characters (escape sequences,
    newlines) shown as escapes, so a diagnostic is one line and cannot restyle a terminal."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class RuleError(Exception):
    """Raised when rule files have errors; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class EngineError(RuntimeError):
    """A rule misbehaved at run time (e.g. the step budget ran out)."""


class RuleFailure(Exception):
    """Raised by the engine's own statements and primitives while a rule runs, with a message
    already in the language's terms; the interpreter turns it into an EngineError that says
    where (rule file:line, the item being resolved)."""


_TYPE_WORDS = {"NoneType": "none", "int": "a number", "str": "a text", "bool": "true/false",
               "list": "a list", "dict": "a map", "tuple": "a list", "float": "a number"}


def describe_value(v) -> str:
    """A value as the effect language talks about it: none, 3, 'text', a list of 2."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return repr(v) if len(v) <= 40 else repr(v[:37] + "...")
    if isinstance(v, (list, tuple)):
        return f"a list of {len(v)}"
    if isinstance(v, dict):
        return f"a map of {len(v)}"
    return "a value"


# What Python's own messages mean in the language's terms: (pattern, message); each {} is a
# group of the pattern, Python type names read as the language's ('NoneType' -> none).
_PYTHON_MESSAGES = [
    (r"'(.+?)' not supported between instances of '(\w+)' and '(\w+)'", "'{}' cannot compare {} with {}"),
    (r"unsupported operand type\(s\) for (\S+?): '(\w+)' and '(\w+)'", "'{}' cannot combine {} and {}"),
    (r"can only concatenate \w+ \(not \"(\w+)\"\) to (\w+)", "'+' cannot add {} to {}"),
    (r"invalid literal for int\(\) with base \d+: (.+)$", "{} is not a number"),
    (r"int\(\) argument must be .*, not '(\w+)'", "a number is needed here, not {}"),
    (r"'(\w+)' object is not (?:iterable|subscriptable)", "{} is not a list"),
    (r"bad operand type for unary -: '(\w+)'", "'-' needs a number, not {}"),
    (r"object of type '(\w+)' has no len", "count() needs a list, not {}"),
    (r"'(\w+)' object has no attribute", "{} has no such property"),
    (r"unhashable type: '(\w+)'", "{} cannot be used as a key or an argument here"),
]


def explain_exception(exc: BaseException) -> str:
    """What a failure inside a rule means in the effect language's terms (no Python type
    names): a comparison of none with a number, text where a number belongs, division by zero."""
    import re

    if isinstance(exc, RuleFailure):
        return str(exc)
    text = str(exc)
    words = lambda t: _TYPE_WORDS.get(t, "a value")  # noqa: E731
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, RecursionError):
        return "rules nested too deeply (a rule calling itself without end?)"
    if isinstance(exc, MemoryError):
        return "a rule built a value too large for memory"
    if isinstance(exc, OverflowError):
        return text or "a number or list too large"
    for pattern, say in _PYTHON_MESSAGES:
        m = re.search(pattern, text)
        if m:
            return say.format(*(words(g) if g in _TYPE_WORDS else g for g in m.groups()))
    if isinstance(exc, KeyError):
        return f"no such name or key: {text}"
    if isinstance(exc, IndexError):
        return "an index past the end of a list"
    if isinstance(exc, (TypeError, ValueError, AttributeError)):
        return f"a value of the wrong kind ({re.sub(r'NoneType', 'none', text)[:160]})"
    return f"an internal failure ({type(exc).__name__}): please report it with the rule files"


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
    "W302": "an item whose grants or abilities can never apply (no zone is active)",
    "W303": "a one_of's branch that display: choices: words for its other branches, not for it",
}


def did_you_mean(name: str, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
