"""``bestiary play wild``: Call of the Wild in real time at the keyboard.

The table is the core driver's (``LiveTable`` on ``Match``): the app's timer advances it to the
tick wall time has reached, and bots act when the driver's reaction times say. You pick a card,
make a Call, ask players to meet, draw, discard or withdraw with single keys (see the help
screen). Everything on screen comes from your own view.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, RichLog, Static

from bestiary.tui.live import LiveTable, WallClock
from bestiary.tui.screens import WILD_HELP, EndScreen, HelpScreen
from bestiary.tui.wild_table import asks_to_you, wild_table

CALL_KEYS = {"m": "megalotaur", "s": "snerlep", "f": "fizzalisk", "w": "wiffaloon", "k": "skeevil"}


class WildApp(App[None]):
    """The wild table for one human seat; ``realtime=False`` leaves the ticking to the caller
    (``advance``), as tests do."""

    TITLE = "bestiary — Call of the Wild"
    CSS = """
    #table { height: auto; }
    #prompt { height: auto; padding: 0 1; }
    #log { height: 1fr; border: round $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "number(1)", "card 1", show=False),
        Binding("2", "number(2)", "card 2", show=False),
        Binding("3", "number(3)", "card 3", show=False),
        Binding("4", "number(4)", show=False),
        Binding("5", "number(5)", show=False),
        Binding("m", "call('m')", "call", show=False),
        Binding("s", "call('s')", show=False),
        Binding("f", "call('f')", show=False),
        Binding("w", "call('w')", show=False),
        Binding("k", "call('k')", show=False),
        Binding("enter", "honest", "honest call"),
        Binding("a", "mode('ask')", "ask"),
        Binding("y", "agree", "agree"),
        Binding("b", "withdraw", "take back"),
        Binding("d", "draw", "draw"),
        Binding("x", "mode('discard')", "discard"),
        Binding("R", "reveal_own", "flip own", show=False),
        Binding("escape", "mode('')", "cancel", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, table: LiveTable, realtime: bool = True) -> None:
        super().__init__()
        if table.human is None:
            raise ValueError("the wild app needs a seat for its player")
        self.human: str = table.human
        self.table = table
        self.realtime = realtime
        self.picked = 0  # index into your hand
        self.mode = ""  # "", "ask" or "discard": what the next number means
        self.message: Text = Text("")
        self._logged = 0
        self._ended = False
        self._askers: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="prompt")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()
        if self.realtime:
            clock = WallClock(self.table)
            self.set_interval(self.table.pace.tick_seconds, lambda: self.on_clock(clock))

    # ---- time and drawing ---------------------------------------------------------------

    def on_clock(self, clock: WallClock) -> None:
        clock()
        self.refresh_table()  # every tick: the Nightfall countdown moves

    def advance(self, ticks: int = 1) -> None:
        """Let ``ticks`` ticks pass (tests): bots act, Nightfall may fall."""
        self.table.advance(self.table.tick + ticks)
        self.refresh_table()

    def others(self) -> list[str]:
        return [p for p in self.table.state.players if p != self.human]

    def refresh_table(self) -> None:
        view = self.table.view()
        hand = list(view.get("hand", []))
        self.picked = min(self.picked, max(0, len(hand) - 1))
        self.query_one("#table", Static).update(wild_table(view, picked=self.picked))
        askers = set(asks_to_you(view))
        if askers - self._askers:
            self.bell()  # someone new is waiting for your answer
        self._askers = askers
        self.query_one("#prompt", Static).update(self.prompt(view, hand))
        log = self.query_one("#log", RichLog)
        for line in self.table.log[self._logged :]:
            log.write(
                Text(
                    ("▶ " if line.to_you else "  ") + line.text, style="bold" if line.to_you else ""
                )
            )
        self._logged = len(self.table.log)
        if view["over"] and not self._ended:
            self._ended = True
            self.push_screen(EndScreen(self.end_body()))

    def prompt(self, view: dict[str, Any], hand: list[str]) -> RenderableType:
        lines: list[Text] = []
        askers = asks_to_you(view)
        if askers:
            lines.append(
                Text(
                    f"⚠ {', '.join(askers)} asked YOU to meet — press y to agree",
                    style="bold reverse",
                )
            )
        if self.mode == "ask":
            choices = "  ".join(f"{n}:{p}" for n, p in enumerate(self.others(), start=1))
            lines.append(Text(f"Ask whom to meet? {choices}  (escape: cancel)", style="bold"))
        elif self.mode == "discard":
            choices = "  ".join(f"{n}:{c}" for n, c in enumerate(hand, start=1))
            lines.append(Text(f"Discard which card? {choices}  (escape: cancel)", style="bold"))
        elif hand:
            lines.append(
                Text(
                    f"Picked card {self.picked + 1}: {hand[self.picked]} — call it with "
                    "m/s/f/w/k or enter (its own sound); a: ask, d: draw, x: discard, ?: help"
                )
            )
        else:
            lines.append(Text("Your hand is empty — d: draw, ?: help"))
        quiet = self.table.match.deadlines().get("quiet")
        if quiet is not None:
            left = self.table.seconds_until(quiet)
            lines.append(Text(f"Nightfall in {left:.0f} s unless someone meets", style="dim"))
        lines.append(self.message)
        return Group(*lines)

    def end_body(self) -> RenderableType:
        state = self.table.state
        summary = state.summary()
        view = state.view(self.human)
        winners = summary["winners"]
        head = Text(f"The game is over. {' and '.join(winners) or 'Nobody'} won.\n", style="bold")
        if summary["ended_by"]:
            head.append(f"Sundown brought by {' and '.join(summary['ended_by'])}.\n")
        scores = "   ".join(f"{p}: {s}" for p, s in summary["scores"].items())
        head.append(f"Scores — {scores}\n")
        return Group(head, wild_table(view, reveal=summary))

    # ---- keys ---------------------------------------------------------------------------

    def _do(self, event: dict[str, Any]) -> None:
        error = self.table.play_event(event)
        self.message = Text(f"✗ {error}", style="bold red") if error else Text("")
        self.mode = ""
        self.refresh_table()

    def _hand(self) -> list[str]:
        return list(self.table.view().get("hand", []))

    def action_number(self, n: int) -> None:
        if self.mode == "ask":
            others = self.others()
            if n <= len(others):
                self._do({"do": "meet", "with": others[n - 1]})
            return
        hand = self._hand()
        if n > len(hand):
            return
        if self.mode == "discard":
            self._do({"do": "discard", "card": hand[n - 1]})
            return
        self.picked = n - 1
        self.refresh_table()

    def action_call(self, key: str) -> None:
        hand = self._hand()
        if hand:
            self._do({"do": "call", "card": hand[self.picked], "call": CALL_KEYS[key]})

    def action_honest(self) -> None:
        hand = self._hand()
        if hand:
            card = hand[self.picked]
            self._do({"do": "call", "card": card, "call": card})

    def action_agree(self) -> None:
        askers = asks_to_you(self.table.view())
        if askers:
            self._do({"do": "meet", "with": askers[0]})

    def action_mode(self, mode: str) -> None:
        self.mode = mode
        self.refresh_table()

    def action_withdraw(self) -> None:
        self._do({"do": "withdraw"})

    def action_draw(self) -> None:
        self._do({"do": "draw"})

    def action_reveal_own(self) -> None:
        self._do({"do": "reveal_own"})

    def action_help(self) -> None:
        self.push_screen(HelpScreen(WILD_HELP))
