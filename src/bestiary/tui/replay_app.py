"""``bestiary replay FILE``: step through any record in the terminal.

Step k shows the table after the first k events, rebuilt by replaying them (so what is shown is
exactly what the engine says). ``v`` switches between showing everything (the omniscient mode,
for a finished record) and one seat's view, whose words come through the game's ``redact``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from bestiary.core.game import Game, State, get_game, redacted, replay
from bestiary.core.records import Event, Header
from bestiary.tui.boards import Board, board_of


class Replay:
    """A record and the table at any step; states are rebuilt by replay and kept once built."""

    def __init__(self, header: Header, events: list[tuple[int, Event]]) -> None:
        self.header = header
        self.events = events
        self._states: dict[int, State] = {}
        self.rules: Game = get_game(str(header.get("game")))
        self.board: Board = board_of(self.rules)

    @property
    def game(self) -> str:
        return self.rules.info.name

    def seating(self) -> str:
        """Who sat where: each seat and its bot, when the record says (``bestiary sim --out``)."""
        players, bots = self.header.get("players") or [], self.header.get("bots")
        if not isinstance(bots, list) or len(bots) != len(players):
            return ""
        return "Seats: " + ", ".join(f"{p} ({b})" for p, b in zip(players, bots, strict=True))

    @property
    def length(self) -> int:
        return len(self.events)

    def state_at(self, step: int) -> State:
        """The table after the first ``step`` events (RecordError if the record breaks first)."""
        if step not in self._states:
            earlier = [k for k in self._states if k < step]
            if earlier and step - max(earlier) <= 64:
                # Carry on from the nearest built step rather than from the deal.
                start = max(earlier)
                state = self._states[start].clone()
                for _, event in self.events[start:step]:
                    state.apply(self.rules.action_from_event(event))
            else:
                state = replay(self.header, self.events[:step])
            self._states[step] = state
        return self._states[step]

    def words(self, step: int, reveal: bool = False, seat: str | None = None) -> str:
        """The event that led to ``step``, in words (the deal for step 0).

        ``reveal``: everything the record holds (the omniscient mode); otherwise the event as
        ``seat`` may see it (None: a spectator), through the game's ``redact``.
        """
        if step == 0:
            return "The deal: every player's starting hand is dealt."
        event = self.events[step - 1][1]
        before, after = self.state_at(step - 1), self.state_at(step)
        viewer = None if reveal else seat
        shown = event if reveal else redacted(after, [event], seat)[0]
        return self.board.words(shown, viewer, after, after.progress != before.progress).text


class ReplayApp(App[None]):
    """Next/previous/jump through a record, seeing everything or one seat's view."""

    TITLE = "bestiary — replay"
    CSS = """
    #where { height: auto; padding: 0 1; }
    #table { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n,space", "step(1)", "next"),
        Binding("left,p", "step(-1)", "previous"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("end,e", "jump_end", "to the end"),
        Binding("home,g", "jump_start", "to the deal"),
        Binding("v", "switch_view", "everything / one seat"),
        Binding("q,escape", "quit", "quit"),
    ]

    def __init__(self, record: Replay, step: int = 0) -> None:
        super().__init__()
        self.record = record
        self.step = max(0, min(step, record.length))
        self.seat: str | None = None  # None: show everything

    @property
    def state(self) -> State:
        return self.record.state_at(self.step)

    def compose(self) -> ComposeResult:
        yield Static(id="where")
        yield Static(id="table")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        state = self.state
        seen = "everything" if self.seat is None else f"{self.seat}'s view"
        where = Text(f"Step {self.step} of {self.record.length} — showing {seen}\n", style="bold")
        seating = self.record.seating()
        if seating:
            where.append(seating + "\n")
        where.append(self.record.words(self.step, reveal=self.seat is None, seat=self.seat))
        self.query_one("#where", Static).update(where)
        self.query_one("#table", Static).update(self.table(state))

    def table(self, state: State) -> RenderableType:
        if self.seat is None:
            view, reveal = state.view(None), state.summary()
        else:
            view, reveal = state.view(self.seat), None
        return self.record.board.table(view, reveal)

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(self.step + delta, self.record.length))
        self.show()

    def action_jump_end(self) -> None:
        self.step = self.record.length
        self.show()

    def action_jump_start(self) -> None:
        self.step = 0
        self.show()

    def action_switch_view(self) -> None:
        seats: list[str | None] = [None, *self.state.players]
        self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
        self.show()
