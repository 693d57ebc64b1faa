"""What the table does for the commands, keys and clicks of a person: why, look, auto, undo,
save, the look-up window, a click on a region, going back, enlarging a pane (a part of
TableApp, app.py)."""
from __future__ import annotations

from textual import events
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList

from . import panes
from .widgets import HELP, LONE, InfoScreen, command_word


class CommandsMixin:
    def command(self, text: str) -> None:
        s = self.session
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if word in ("q", "quit", "exit"):
            self.request_quit()
        elif self.busy and word in ("s", "save", "why", "auto", "u", "undo"):
            self.status = "a moment: the computer is playing (the game cannot be read while it moves)"
            self._update_prompt()
        elif word in ("h", "help", "?") and not rest:
            self.action_help()
        elif word in ("u", "undo"):
            self.action_undo()
        elif word == "auto":
            if self.busy or s.over:
                return
            self.status = s.start_auto(everything=rest == "all")
            self.group, self.narrow = None, None
            self.play_on()
        elif word in ("s", "save"):
            if not rest:
                self.status = "save needs a file name: s FILE"
            else:
                self.status = s.save(rest)
            self._update_prompt()
        elif word == "why":
            self.why(rest)
        elif word in ("look", "?", "l"):
            self.look_words(rest)
        else:
            self.status = f"unknown command {word!r}; F1 lists them"
            self._update_prompt()

    @staticmethod
    def _matching(opts, words) -> list:
        return [o for o in opts if all(w in (o["label"] + " " + o["text"] + " " + o["id"]).lower() for w in words)]

    def _is_command(self, text: str) -> bool:
        """A typed line is a command, not a filter; but a lone letter (u, s, q, h) is a filter
        while some option holds it (undo, save, quit, help in full are always commands)."""
        if not command_word(text):
            return False
        if text in LONE:
            d = self._decision()
            return not (d and self._matching(self._narrowed(d["options"]), [text]))
        return True

    def request_quit(self) -> None:
        """Quit; but an unfinished game with a decision not saved yet is lost on quitting: ask
        once first (q or Ctrl+Q again quits, s FILE saves)."""
        s = self.session
        if s.over or not s.unsaved or s.error or self.quit_asked:
            self.exit()
            return
        self.quit_asked = True
        self.status = "quit without saving? press q again (or Ctrl+Q), or s FILE to save"
        self._update_prompt()

    async def action_quit(self) -> None:
        """Ctrl+Q and the command palette's quit."""
        self.request_quit()

    def why(self, words: str) -> None:
        from ...engine.explain import explain

        s = self.session
        if not words:
            self.status = "why needs an action: why ACTION (its id, or words naming it)"
            self._update_prompt()
            return
        try:
            out = explain(s.st, words, s.viewer, game=s.game)
        except Exception as exc:  # an explanation never breaks the game
            self.status = f"cannot explain that: {exc}"
            self._update_prompt()
            return
        self.push_screen(InfoScreen(f"why: {words}", panes.e(out["text"])))

    def look_words(self, words: str) -> None:
        if not words:
            self.status = "look needs a name: look NAME (a card, a tile, a region)"
            self._update_prompt()
            return
        found = panes.find(self.t, words) if self.t else []
        if not found:
            self.status = f"nothing you can see is called {words!r}"
            self._update_prompt()
        elif len(found) == 1:
            self.action_look(found[0][0])
        else:
            body = "\n".join(panes.click("look", i, panes.e(n)) for i, n in found[:40])
            self.push_screen(InfoScreen(f"look: {words}", body))

    # ---- actions bound to keys and clicks ------------------------------------------------------------
    def _options_about(self, ident: str) -> list:
        d = self._decision()
        if not d:
            return []
        return [o for o in d["options"] if ident in panes.subjects(o)]

    def action_look(self, ident: str) -> None:
        if self.t is None:
            return
        body = panes.details(self.t, ident, self.names)
        if body is None and self._offered_item(ident) is not None:  # offered by the decision
            body = panes.item_details(self._offered_item(ident))
        if body is None:
            self.status = "nothing to show"
            self._update_prompt()
            return
        acts = [(o["id"], o["label"] if o.get("move") else o["text"]) for o in self._options_about(ident)]
        name = next((n for i, n in panes.find(self.t, ident) if i == ident), ident)

        def chosen(aid):
            if aid:
                self.take(aid)
        self.push_screen(InfoScreen(name, body, acts), chosen)

    def action_region(self, ident: str) -> None:
        """A click on a region: choose it when the decision is about regions, else show it."""
        about = self._options_about(ident)
        d = self._decision()
        if about and d and d["kind"] == "choose" and len(about) == 1:
            self.take(about[0]["id"])
            return
        if about and len(about) > 1:
            self.narrow = {o["id"] for o in about}
            self.narrow_what = next((r["name"] for r in self.t["board"]["regions"] if r["id"] == ident), ident)
            self.group = None
            self._show(self.t)
            return
        self.action_look(ident)

    def action_look_highlighted(self) -> None:
        ol = self._q("#options", OptionList)
        if not self.rows or ol.highlighted is None:
            self.status = "look NAME shows a card or region; click a name too"
            self._update_prompt()
            return
        kind, x = self.rows[ol.highlighted]
        if kind == "group":
            d = self._decision()
            members = [o for o in d["options"] if o["group"] == x["id"]] if d else []
            ids = set.intersection(*[panes.subjects(o) for o in members]) if members else set()
        else:
            ids = panes.subjects(x)
        for ident in ids:
            if self.t and (panes.details(self.t, ident, self.names) or self._offered_item(ident)):
                self.action_look(ident)
                return
        self.status = "this option is about nothing one can look up"
        self._update_prompt()

    def action_help(self) -> None:
        self.push_screen(InfoScreen("help", HELP))

    def action_undo(self) -> None:
        if self.busy:
            return
        s = self.session
        self.status = s.undo()
        self.group, self.narrow = None, None
        self.log_shown = 10 ** 9  # redraw the log from the start
        self.play_on()
        self.refresh_table()

    def action_back(self) -> None:
        inp = self._q("#command", Input)
        if self.screen.maximized is not None:  # Esc on an enlarged pane: the whole table again
            self._restore()
            return
        if inp.value:
            inp.value = ""
        elif self.narrow is not None:
            self.narrow = None
        elif self.group is not None:
            self.group = None
        self.status = ""
        if self.t is not None:
            self._show(self.t)
        inp.focus()

    def action_zoom(self) -> None:
        """F3: enlarge the board, then the cards, the players, the log, then back to the table."""
        order = ["board", "cards", "players", "log"]
        if self.screen.maximized is None:  # restored meanwhile (Esc): start again at the board
            self.zoomed = -1
        self.zoomed += 1
        self.screen.minimize()
        if self.zoomed >= len(order):
            self._restore()
            return
        w = self._q(f"#{order[self.zoomed]}")
        if not self.screen.maximize(w, container=False):
            self.zoomed = -1
            self.status = "this pane cannot be enlarged"
            self._update_prompt()
            return
        w.focus()  # the arrows scroll it
        self.call_after_refresh(self._redraw)  # the board's map follows the pane's new width

    def _restore(self) -> None:
        self.zoomed = -1
        self.screen.minimize()
        self._q("#command", Input).focus()
        self.call_after_refresh(self._redraw)

    def _handover(self) -> None:
        """Hot seat: the table shows the next person's hand only once they have the keyboard."""
        s = self.session
        if s.handover is None:
            return
        name = panes._pname(self.t or {"players": []}, s.handover)

        def ready(_):
            s.hand_over()
            self.refresh_table()
        self.push_screen(InfoScreen("next player", f"[b]{panes.e(name)}[/] decides now: pass the keyboard, "
                                    "then press Esc.\n[dim](the table shows their cards once they have it)[/]"),
                         ready)

    def _offered_item(self, ident):
        """An item by id as the viewer may see it: on the table, or offered to them by the decision
        (a card chosen in secret from a pile they may look through): its name, line and text."""
        if not isinstance(ident, str):
            return None
        it = self._items.get(ident)
        if it is not None:
            return it
        d = self._decision()
        rules = self.session.st.rules
        if d and ident in rules.props and any(ident in panes.subjects(o) for o in d["options"]):
            from ...engine.table import item

            return item(rules, self.session.st, ident, self.session.viewer)
        return None

    def action_move(self, delta: int) -> None:
        ol = self._q("#options", OptionList)
        if not self.rows:
            return
        cur = ol.highlighted or 0
        ol.highlighted = max(0, min(len(self.rows) - 1, cur + delta))

    def on_key(self, event: events.Key) -> None:
        # printable keys typed while a pane has the focus go to the command line
        inp = self._q("#command", Input)
        if self.focused is not inp and event.is_printable and not isinstance(self.screen, ModalScreen):
            if self.screen.maximized is not None:  # typing brings the whole table back
                self._restore()
            inp.focus()
            inp.insert_text_at_cursor(event.character or "")
            event.stop()
