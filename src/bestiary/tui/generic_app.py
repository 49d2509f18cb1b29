"""``bestiary play GAME`` for a game with no terminal board of its own: the generic board.

Any registered game is playable at once: the seat's view is shown readably (one row per field),
the legal actions are a menu (each read off its record event), the log tells every event as
the seat may see it. Bots move when the core driver says, on the app's wall-time timer, for a
turn-based or a real-time game alike.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from bestiary.tui.live import LiveTable, WallClock
from bestiary.tui.screens import EndScreen


def action_label(event: dict[str, Any]) -> str:
    """One legal action in words: what it does and its other fields (not who: that is you).

    >>> action_label({"by": "ann", "do": "swap", "card": "3"})
    'swap (card 3)'
    """
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("by", "do"))
    return f"{event.get('do', '?')}" + (f" ({rest})" if rest else "")


class SeatApp(App[None]):
    """One human seat at a table: its table above, a menu of moves, the log below. With
    ``realtime`` the app's timer drives the table with wall time; without it every bot move up
    to the human's is played at once (tests)."""

    def __init__(self, table: LiveTable, realtime: bool = True) -> None:
        super().__init__()
        if table.human is None:
            raise ValueError("the terminal board needs a seat for its player")
        self.human: str = table.human
        self.table = table
        self.realtime = realtime
        self._logged = 0
        self._ended = False

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="menu-title")
        yield OptionList(id="menu")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.realtime:
            clock = WallClock(self.table)
            self.set_interval(self.table.pace.tick_seconds, lambda: self.on_clock(clock))
        else:
            self.table.run_bots()
        self.refresh_table()

    def on_clock(self, clock: WallClock) -> None:
        if clock():
            self.refresh_table()

    def refresh_table(self) -> None:
        raise NotImplementedError


class GenericApp(SeatApp):
    """One human seat at any game, drawn by the game's board (the generic one if it has none)."""

    CSS = """
    #table { height: auto; }
    #menu-title { height: auto; padding: 0 1; }
    #menu { height: auto; max-height: 14; }
    #log { height: 1fr; border: round $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "quit")]

    def __init__(self, table: LiveTable, realtime: bool = True) -> None:
        super().__init__(table, realtime)
        self.title = f"bestiary — {table.game.info.title}"
        self.legal: list[Any] = []

    def refresh_table(self) -> None:
        view = self.table.view()
        self.query_one("#table", Static).update(self.table.board.table(view, None))
        log = self.query_one("#log", RichLog)
        for line in self.table.log[self._logged :]:
            log.write(Text(("▶ " if line.to_you else "  ") + line.text))
        self._logged = len(self.table.log)
        self.refresh_menu()
        if self.table.state.is_over and not self._ended:
            self._ended = True
            summary = self.table.state.summary()
            self.push_screen(EndScreen(self.table.board.table(view, summary)))

    def refresh_menu(self) -> None:
        legal = self.table.state.legal_actions(self.human)
        if legal == self.legal and self.legal:
            return  # keep the cursor where it is
        self.legal = legal
        menu = self.query_one("#menu", OptionList)
        title = self.query_one("#menu-title", Static)
        menu.clear_options()
        if not legal:
            title.update(Text("Waiting for the others…", style="dim"))
            return
        title.update(Text("Your move — choose one (enter):", style="bold"))
        for n, action in enumerate(legal):
            menu.add_option(Option(action_label(action.to_event()), id=f"a{n}"))
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if not option_id.startswith("a") or int(option_id[1:]) >= len(self.legal):
            return
        error = self.table.play(self.legal[int(option_id[1:])])
        if error:
            self.notify(error, severity="error")
        self.legal = []
        if not self.realtime:
            self.table.run_bots()
        self.refresh_table()
