"""A seeded random source whose whole state is one integer (SplitMix64).

Kept in the game state so that seed + actions reproduce a game bit for bit, and so the
state serialises to JSON exactly.
"""
from ..errors import RuleFailure

MASK = (1 << 64) - 1
_LIMIT = [MASK - (MASK % n) if n else 0 for n in range(65)]  # below(n)'s bound for small n, worked out once


def next64(s: int) -> tuple[int, int]:
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def below(state, n: int) -> int:
    """Uniform integer in [0, n) drawn from ``state.rng`` (advances it)."""
    if n <= 1:
        return 0
    if n > MASK:  # (no draw would ever be below the limit: the loop would never end)
        raise RuleFailure(f"a random draw among {n:,} outcomes: the random source draws among fewer than 2**64")
    limit = _LIMIT[n] if n <= 64 else MASK - (MASK % n)
    while True:
        state.rng, x = next64(state.rng)
        if x < limit:
            return x % n


def shuffle(state, items: list) -> None:
    """Fisher-Yates with ``below`` and ``next64`` written in (the same draws: a deck is shuffled
    at the start of many games)."""
    s = state.rng
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _LIMIT[n] if n <= 64 else MASK - (MASK % n)
        while True:
            s = (s + 0x9E3779B97F4A7C15) & MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]
    state.rng = s
