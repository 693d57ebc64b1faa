"""The table's small parts: the help text, the command line, the window that shows a card, a
region, an explanation or the help, how a typed line is told from a filter, and the screen as
text (for tests)."""
from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

HELP = """[b]Playing at the table[/]

[b]Choose[/]: ↑/↓ and Enter, a click, or type a number and Enter. Long decisions come in
groups: choose the group, then the option (Esc goes back). Type words to [b]filter[/] the
options (Enter takes the highlighted one). A decision about a region can be made on the
board: click the region.

[b]Commands[/] (type them, then Enter):
  [b]why[/] ACTION   why you cannot do something now: the condition that stops it, with its
                 values, then the rule (name the action or option by its words or its id)
  [b]look[/] NAME    a card, tile, token or region in full (also: click its name, or F2 for
                 what the highlighted option is about)
  [b]auto[/]         let the computer finish a run of the same decision (setup placements)
  [b]auto all[/]     let the computer play your seat to the end of the game
  [b]u[/] / [b]undo[/]     take back your last decision (not past a die roll, a shuffle or
                 anything revealed to you since); also Ctrl+Z
  [b]s[/] FILE       save the game; resume with: lotr-rules play --load FILE
  [b]q[/] / [b]quit[/]     quit; a game not finished, with a decision not saved yet, asks
                 first: q (or Ctrl+Q) again quits, s FILE saves
A lone letter (u, s, q, h) filters the options while an option holds that letter (Enter
then takes the highlighted option); the whole word (undo, save, quit, help) is always the
command.

[b]Keys[/]: F1 this help · F2 look up · F3 enlarge a pane to the whole screen (again: the
next, then back; Esc or typing also brings the table back) · Esc back / clear · Ctrl+Z undo · Ctrl+Q quit. Tab moves between panes (scroll them with
the arrows); the command line takes the keys again with Tab.
"""


# a command of one letter typed alone is a filter when an option holds that letter (the whole
# word is always the command)
LONE = {"u": "undo", "s": "save FILE", "q": "quit", "h": "help"}


class Pane(VerticalScroll):
    """A pane of the table (board, cards, players, log): F3 enlarges it to the whole screen."""

    ALLOW_MAXIMIZE = True
    _drawn_width = -1

    def on_resize(self, event: events.Resize) -> None:
        """The board's map follows the pane's width: drawn again once the pane has its new width
        (the app's own resize comes before the panes are laid out). Its outer width only, so a
        scroll bar coming or going does not draw it again and again."""
        if self.id == "board" and self.outer_size.width != self._drawn_width:
            self._drawn_width = self.outer_size.width
            redraw = getattr(self.app, "_redraw", None)
            if redraw is not None:
                self.app.call_after_refresh(redraw)


class CommandInput(Input):
    """The command line: typing filters the decision; the arrows move its highlight."""

    BINDINGS = [
        Binding("up", "app.move(-1)", show=False),
        Binding("down", "app.move(1)", show=False),
        Binding("pageup", "app.move(-8)", show=False),
        Binding("pagedown", "app.move(8)", show=False),
    ]


class InfoScreen(ModalScreen):
    """A card, region, explanation or help in full; with the actions one may take on it."""

    BINDINGS = [Binding("escape", "close", "close"), Binding("q", "close", show=False)]
    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 90%; max-width: 100; height: auto; max-height: 90%;
                            border: round $accent; background: $panel; padding: 0 1; }
    InfoScreen VerticalScroll { height: auto; max-height: 20; }
    InfoScreen OptionList { height: auto; max-height: 8; }
    """

    def __init__(self, title: str, body: str, actions: list | None = None):
        super().__init__()
        self.title_text, self.body, self.actions = title, body, actions or []

    def compose(self) -> ComposeResult:
        with Vertical() as v:
            v.border_title = self.title_text
            v.border_subtitle = "Esc closes"
            with VerticalScroll():
                yield Static(self.body, id="info-body")
            if self.actions:
                yield Static("[b]you may:[/]")
                yield OptionList(*[Option(Text(label), id=aid) for aid, label in self.actions], id="info-actions")

    def on_mount(self) -> None:
        if self.actions:
            self.query_one("#info-actions", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)


def command_word(text: str) -> bool:
    word, sp, rest = text.partition(" ")
    if word in ("why", "look", "s", "save", "l") and (sp or word in ("s", "save")):
        return True
    if word == "auto" and rest == "all":
        return True
    return word in ("q", "quit", "exit", "h", "help", "u", "undo", "auto", "?") and not rest


def screen_text(app: App) -> str:
    """The screen as plain text (for tests and text snapshots)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
