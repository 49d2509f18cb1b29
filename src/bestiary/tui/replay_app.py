"""``bestiary replay FILE``: step through any record in the terminal.

Step k shows the table after the first k events, rebuilt by replaying them (so what is shown is
exactly what the engine says). ``v`` switches between showing everything and one seat's view.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from bestiary.core.game import State, replay
from bestiary.core.records import Event, Header
from bestiary.tui.critters_table import critters_table
from bestiary.tui.wild_table import wild_table
from bestiary.tui.words import critters_words, wild_words


class Replay:
    """A record and the table at any step; states are rebuilt by replay and kept once built."""

    def __init__(self, header: Header, events: list[tuple[int, Event]]) -> None:
        self.header = header
        self.events = events
        self._states: dict[int, State] = {}

    @property
    def game(self) -> str:
        return str(self.header.get("game"))

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
                from bestiary.core.game import get_game

                game = get_game(self.game)
                for _, event in self.events[start:step]:
                    state.apply(game.action_from_event(event))
            else:
                state = replay(self.header, self.events[:step])
            self._states[step] = state
        return self._states[step]

    def words(self, step: int, reveal: bool) -> str:
        """The event that led to ``step``, in words (the deal for step 0)."""
        if step == 0:
            return "The deal: every player's starting hand is dealt."
        event = self.events[step - 1][1]
        if self.game == "critters":
            return critters_words(event)
        meeting = None
        before, after = self.state_at(step - 1), self.state_at(step)
        met: list[Any] = after.meetings  # type: ignore[attr-defined]
        if len(met) > len(before.meetings):  # type: ignore[attr-defined]
            from bestiary.wild.meetings import describe_meeting

            meeting = describe_meeting(met[-1])
        return wild_words(event, reveal=reveal, meeting=meeting)


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
        where.append(self.record.words(self.step, reveal=self.seat is None))
        self.query_one("#where", Static).update(where)
        self.query_one("#table", Static).update(self.table(state))

    def table(self, state: State) -> RenderableType:
        if self.seat is None:
            view, reveal = state.view(None), state.summary()
        else:
            view, reveal = state.view(self.seat), None
        if self.record.game == "critters":
            return critters_table(view, reveal)
        parts: list[RenderableType] = [wild_table(view, reveal)]
        if state.is_over:
            winners = " and ".join(state.winners()) or "nobody"
            parts.append(Text(f"Game over: {winners} won.", style="bold"))
        return Group(*parts)

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
