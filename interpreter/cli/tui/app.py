"""The full-screen terminal table (Textual): the board, the cards, the players with their meters,
the log and the decision in fixed panes. Everything shown comes from engine.table (the game's
`display:` section); the decision is in words, grouped when long, filtered as you type."""
from __future__ import annotations

import time

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from ...errors import EngineError, IllegalAction
from ...engine.table import table
from . import panes
from .session import Session
from .commands import CommandsMixin
from .widgets import LONE, CommandInput, Pane, command_word, screen_text  # noqa: F401 (screen_text: tests)

GROUP_AT = 8  # more options than this, in several groups: choose the group first

class TableApp(CommandsMixin, App):
    TITLE = "lotr-rules"
    ESCAPE_TO_MINIMIZE = False  # Esc is action_back's: it restores an enlarged pane itself
    CSS = """
    Screen { layout: vertical; }
    #header { height: 1; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; }
    .pane { border: none; border-top: solid $primary 60%; padding: 0 1; height: 1fr; }
    .pane:focus-within { border-top: solid $accent; }
    #left { border-right: vkey $primary 30%; }
    #board { height: 1fr; }
    #cards { height: 1fr; }
    #players { height: 1fr; }
    #log { height: 1fr; }
    #decision { height: auto; max-height: 50%; border: none; border-top: solid $secondary; padding: 0 1; }
    #prompt { height: auto; max-height: 3; }
    #options { height: auto; max-height: 12; min-height: 1; border: none; padding: 0; }
    #command { border: none; height: 1; padding: 0; background: $boost; }
    """
    BINDINGS = [
        Binding("f1", "help", "help"),
        Binding("f2", "look_highlighted", "look up"),
        Binding("f3", "zoom", "enlarge"),
        Binding("ctrl+z", "undo", "undo", priority=True),
        Binding("escape", "back", "back", show=False),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: Session, save_log: str | None = None, agent_delay: float = 0.0):
        super().__init__()
        self.session = session
        self.save_log = save_log
        self.agent_delay = agent_delay
        self.t: dict | None = None
        self.group: str | None = None      # the group of options being shown
        self.narrow: set | None = None     # options about one thing (a region or card clicked)
        self.narrow_what = ""
        self.rows: list = []               # what the option list shows: ("group", id) / ("option", id)
        self.busy = False
        self.log_shown = 0
        self.log_lines: list = []
        self._drawn: dict = {}
        self._items: dict = {}
        self.status = ""
        self.zoomed = -1
        self.names = dict(session.st.rules.names)
        self._log_saved = False
        self.quit_asked = False            # quitting an unsaved game was asked once

    # ---- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Pane(id="board", classes="pane") as b:
                    b.border_title = "board"
                    yield Static(id="board-text")
                with Pane(id="cards", classes="pane") as c:
                    c.border_title = "cards"
                    yield Static(id="cards-text")
            with Vertical(id="right"):
                with Pane(id="players", classes="pane") as p:
                    p.border_title = "players"
                    yield Static(id="players-text")
                with Pane(id="log", classes="pane") as lg:
                    lg.border_title = "log"
                    yield Static(id="log-text")
        with Vertical(id="decision"):
            yield Static(id="prompt")
            yield OptionList(id="options")
            yield CommandInput(id="command", select_on_focus=False, placeholder="type to filter · Enter chooses · why/look/auto/u/s FILE/help")
        yield Footer()

    def _q(self, selector, kind=None):
        """A widget of the table itself, even while a look-up or help window is on top."""
        screen = self.screen_stack[0] if self.screen_stack else self.screen
        return screen.query_one(selector, kind) if kind is not None else screen.query_one(selector)

    def _fatal_error(self) -> None:
        """A bug of ours: end the table with one line (cli.play prints it), never a traceback."""
        exc = self._exception
        self.session.internal = True
        self.session.error = (f"internal error ({type(exc).__name__}: {str(exc)[:200]}); please report it to the "
                              "lotr-rules project with the command you ran and the output of lotr-rules --version")
        self._close_messages_no_wait()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        """Draw the latest table again (the board's map follows the pane's width)."""
        if self.t is not None:
            self._show(self.t)

    def _fit(self) -> None:
        h = self.size.height
        self._q("#options", OptionList).styles.max_height = max(3, min(16, h // 3 - 3))

    def on_mount(self) -> None:
        self._fit()
        self.title = self.session.st.rules.title
        self._q("#command", Input).focus()
        self.refresh_table()
        self.play_on()

    # ---- the game moving on -------------------------------------------------------------
    def play_on(self) -> None:
        """Let the agents (and the obvious or auto decisions) play up to a person's decision."""
        s = self.session
        if s.over or s.waiting_for_person():
            s._track_run()
            self.refresh_table()
            self._finish_if_over()
            self._handover()
            return
        self.busy = True
        self._update_prompt()
        self._run_agents()

    @work(thread=True, exclusive=True, group="agents")
    def _run_agents(self) -> None:
        s = self.session
        last = time.monotonic()
        try:
            while not s.over and not s.waiting_for_person():
                if not s.step():
                    break
                if self.agent_delay:
                    time.sleep(self.agent_delay)
                if time.monotonic() - last > 0.25:
                    last = time.monotonic()
                    t = table(s.st, s.viewer)
                    self.call_from_thread(self._show, t)
            s._track_run()
            t = table(s.st, s.viewer)
        except EngineError:
            t = table(s.st, s.viewer)
        except Exception as exc:  # never a traceback: say it in the table
            s.error = f"internal error ({type(exc).__name__}: {exc}); please report it to the lotr-rules project"
            t = table(s.st, s.viewer)
        self.call_from_thread(self._agents_done, t)

    def _agents_done(self, t) -> None:
        self.busy = False
        self._show(t)
        self._finish_if_over()
        self._handover()

    def _finish_if_over(self) -> None:
        s = self.session
        if s.over and self.save_log and not self._log_saved:
            try:
                s.save_log(self.save_log)
                self.status = f"game log saved to {self.save_log}"
            except OSError as exc:
                self.status = f"cannot write the game log: {exc}"
            self._log_saved = True
            self._update_prompt()

    # ---- drawing --------------------------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session
        self._show(table(s.st, s.viewer))

    def _show(self, t: dict) -> None:
        s = self.session
        self.t = t
        panes._CTX = t
        self._items = {i["id"]: i for i in panes.all_items(t) if i.get("id")}
        decision = t.get("decision")
        opts = decision["options"] if decision and not self.busy else []
        marked = set()
        for o in (self._narrowed(opts) if self.narrow is not None else opts):
            marked |= panes.subjects(o)
        seat = {p: ("you" if n == "human" else n) for p, n in s.seat.items()}
        self._set("#header", panes.header(t, seat, s.viewer))
        width = self._q("#board").content_size.width or max(0, self.size.width * 3 // 5 - 3)
        self._set("#board-text", panes.board(t, marked, self.names, width))
        self._set("#cards-text", panes.cards(t, s.viewer, marked))
        self._set("#players-text", panes.players(t, seat))
        self._update_log(t)
        self._update_options()
        self._update_prompt()

    def _set(self, selector: str, markup: str) -> None:
        """Update a pane only when what it shows changed (drawing a big board costs time)."""
        if self._drawn.get(selector) != markup:
            self._drawn[selector] = markup
            self._q(selector, Static).update(markup)

    def _update_log(self, t) -> None:
        lines = t["log"]
        if len(lines) < self.log_shown:  # undone: the log starts again
            self.log_lines = []
            self.log_shown = 0
        for line in lines[self.log_shown:]:
            self.log_lines.append(panes.log_line(t, line))
        self.log_shown = len(lines)
        for note in self.session.notes:
            self.log_lines.append(f"[i dim]  {panes.e(note)}[/]")
        self.session.notes.clear()
        del self.log_lines[:-300]
        self._set("#log-text", "\n".join(self.log_lines))
        self._q("#log", VerticalScroll).scroll_end(animate=False)

    def _decision(self) -> dict | None:
        if self.busy or self.t is None:
            return None
        return self.t.get("decision")

    def _narrowed(self, opts):
        return [o for o in opts if o["id"] in self.narrow] if self.narrow is not None else opts

    def _filter_text(self) -> str:
        text = self._q("#command", Input).value.strip()
        if self._is_command(text):
            return ""
        return text


    def _build_rows(self) -> list:
        d = self._decision()
        if d is None:
            return []
        opts = self._narrowed(d["options"])
        words = self._filter_text().lower().split()
        if words and not (len(words) == 1 and words[0].isdigit()):
            return [("option", o) for o in self._matching(opts, words)]
        if self.group is not None:
            return [("option", o) for o in opts if o["group"] == self.group]
        groups = {}
        for o in opts:
            groups.setdefault(o["group"], []).append(o)
        if len(opts) > GROUP_AT and 1 < len(groups) < len(opts):
            by_id = {g["id"]: g for g in d.get("groups") or []}
            rows = []
            for gid, members in groups.items():
                if len(members) == 1:
                    rows.append(("option", members[0]))
                else:
                    g = by_id.get(gid, {"id": gid, "label": gid, "count": len(members)})
                    rows.append(("group", dict(g, count=len(members), line=self._item_line(members))))
            return rows
        return [("option", o) for o in opts]

    def _row_text(self, i, row) -> Text:
        kind, x = row
        num = Text(f"{i:>2} ", style="dim") if i <= 99 else Text("   ")
        # a row is one line: what its card costs the viewer (display: items:) ends it, cut short
        # on a narrow screen; so a person can plan from this list alone
        if kind == "group":
            out = num + Text(f"{x['label']}", style="bold") + Text(f"  ({x['count']} options) ›", style="dim")
            line = x.get("line")
        else:
            d = self._decision()
            out = num + Text(x["text"] if d and d["kind"] != "ask" else x["label"])
            line = x.get("line") or ""
        if line:
            out += Text(f"  {line}", style="italic")
        width = self._q("#options", OptionList).content_size.width or self.size.width - 2
        out.truncate(max(20, width - 1), overflow="ellipsis")
        return out

    @staticmethod
    def _item_line(options) -> str:
        """The line of the one item all these options are about (engine/table: e.g. what a
        card costs the viewer), or ''."""
        about = {o.get("about") for o in options}
        return (options[0].get("line") or "") if len(about) == 1 and None not in about else ""

    def _update_options(self) -> None:
        ol = self._q("#options", OptionList)
        self.rows = self._build_rows()
        ol.clear_options()
        if self.rows:
            ol.add_options([Option(self._row_text(i, r), id=str(i)) for i, r in enumerate(self.rows, 1)])
            ol.highlighted = 0
        ol.display = bool(self.rows)

    def _update_prompt(self) -> None:
        s = self.session
        w = self._q("#prompt", Static)
        if s.error:
            w.update(f"[b red]{panes.e(s.error)}[/]")
            return
        t = self.t or {}
        if s.over:
            line = panes.over_line(t)
            w.update(f"[b]{panes.e(line[:1].upper() + line[1:])}[/] — s FILE saves, q quits. {panes.e(self.status)}")
            return
        if self.busy:
            p = s.st.current_player
            who = panes._pname(t, p) if p else "the game"
            agent = s.seat.get(p, "")
            w.update(f"[dim]{panes.e(who)} ({panes.e(agent if agent != 'human' else 'auto')}) is thinking…[/]")
            return
        d = self._decision()
        if d is None:
            w.update("")
            return
        where = []
        if self.narrow is not None:
            where.append(f"about {self.narrow_what}")
        if self.group is not None:
            g = next((g for g in d.get("groups") or [] if g["id"] == self.group), None)
            where.append(g["label"] if g else self.group)
        hint = ""
        if s.run_length >= 2 and d["kind"] != "ask":
            hint = " [dim](type [b]auto[/b] to let the computer finish these)[/]"
        elif any(r[0] == "group" for r in self.rows):
            hint = " [dim](choose a group, or type to filter)[/]"
        elif where:
            hint = " [dim](Esc: back)[/]"
        typed = self._q("#command", Input).value.strip()
        if typed in LONE and not self._is_command(typed):
            hint = (f" [dim](Enter takes the highlighted option; the command is [b]{LONE[typed]}[/b]"
                    f"{' or Ctrl+Z' if typed == 'u' else ' or Ctrl+Q' if typed == 'q' else ''})[/]")
        head = f"[b]{panes.e(d['prompt'])}[/]" + (f" [i]› {panes.e(' › '.join(where))}[/]" if where else "")
        status = f"\n[yellow]{panes.e(self.status)}[/]" if self.status else ""
        w.update(head + hint + status)

    # ---- input ----------------------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "command":
            self._update_options()
            self._update_prompt()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            return
        text = event.value.strip()
        self.status = ""
        if command_word(text) and text.partition(" ")[0] not in ("q", "quit", "exit"):
            self.quit_asked = False  # asked to quit, then did something else: ask again next time
        if self._is_command(text) or text in ("?",):
            event.input.value = ""
            self.command(text)
            return
        if text.isdigit():
            n = int(text)
            event.input.value = ""
            if 1 <= n <= len(self.rows):
                self.activate(self.rows[n - 1])
            else:
                self.status = f"no option {n} (1 to {len(self.rows)})"
                self._update_prompt()
            return
        ol = self._q("#options", OptionList)
        if self.rows and ol.highlighted is not None:
            row = self.rows[ol.highlighted]
            event.input.value = ""
            self.activate(row)
        elif text:
            self.status = f"nothing matches {text!r}: Esc clears the filter; why {text} says why it is not possible"
            self._update_prompt()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "options":
            return
        i = int(event.option.id) - 1
        if 0 <= i < len(self.rows):
            self._q("#command", Input).value = ""
            self.activate(self.rows[i])
        self._q("#command", Input).focus()

    def activate(self, row) -> None:
        kind, x = row
        if kind == "group":
            self.group = x["id"]
            self._update_options()
            self._update_prompt()
            return
        self.take(x["id"])

    def take(self, aid: str) -> None:
        """A person's decision."""
        if self.busy:
            return
        s = self.session
        self.quit_asked = False
        try:
            s.choose(aid)
        except IllegalAction as exc:
            self.status = str(exc)
            self._update_prompt()
            return
        except EngineError:
            self.refresh_table()
            return
        self.group, self.narrow = None, None
        self.play_on()

