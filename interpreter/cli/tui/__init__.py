"""The full-screen terminal table (Textual): `lotr-rules play GAME` on a terminal.

session.py keeps the game (seats, agents, undo that cannot cheat, auto, saving); panes.py draws
engine.table's description of what a player sees; app.py is the Textual application."""
from __future__ import annotations


def run_table(game, st, seat: dict, agents: dict, options: dict | None = None, save_log: str | None = None) -> int:
    """Play at the full-screen table until the person quits or the game ends. Returns an exit code."""
    from .app import TableApp
    from .session import Session

    session = Session(game, st, seat, agents, options)
    app = TableApp(session, save_log=save_log)
    app.run()
    if session.error:  # one line, never a traceback
        import sys

        print(f"error: {session.error}", file=sys.stderr)
        return 3 if session.internal else 1
    st = session.st
    if st.over:
        from ...engine.primitives import over_words

        line = over_words(game.rules, st.winners, st.victory, st.scores)["line"]
        print(f"{game.rules.title}: {line} after {len(st.history)} actions")
    else:
        print("left the table; the game was not finished (s FILE saves it, play --load FILE resumes)")
    return 0
