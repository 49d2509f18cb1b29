"""``bestiary play critters``: the critter game, turn by turn, from a short grouped menu.

The menu is built from ``legal_actions`` only, so it never offers a move the engine would
refuse. When an action targets you, a NO! prompt asks for your answer; if you let the driver's
answer clock run out (``Pace.answer_seconds``), the table allows it for you, as a live table does.
The bots move when the core driver says (``Pace.turn_pause_ticks`` after their turn begins), on
the app's wall-time timer.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from bestiary.tui.critters_table import critters_table, critters_words, full_kinds
from bestiary.tui.generic_app import SeatApp
from bestiary.tui.live import LiveTable
from bestiary.tui.menu import MoveGroup, group_moves
from bestiary.tui.screens import CRITTERS_HELP, EndScreen, HelpScreen

BACK = "back"


class NoPrompt(ModalScreen[Any]):
    """An action targets you: say NO! (if you hold a NO! card) or allow it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "answer('no')", "say NO!"),
        Binding("a", "answer('allow')", "allow"),
    ]

    def __init__(self, question: str, answers: list[Any]) -> None:
        super().__init__()
        self.question = question
        self.answers = {a.to_event()["do"]: a for a in answers}

    def compose(self) -> ComposeResult:
        yield Static(Text(self.question, style="bold"), id="question")
        options = [
            Option("NO! — play your NO! card and cancel it (n)", id="no")
            if "no" in self.answers
            else Option("NO! — you hold no NO! card", id="no", disabled=True),
            Option("Allow it (a)", id="allow"),
        ]
        answers = OptionList(*options, id="answers")
        answers.highlighted = 0 if "no" in self.answers else 1
        yield answers

    def action_answer(self, do: str) -> None:
        if do in self.answers:
            self.dismiss(self.answers[do])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_answer(event.option.id)


class CrittersApp(SeatApp):
    """The critters table for one human seat. With ``realtime`` the app's timer drives the
    table with wall time; without it every bot move up to yours is played at once (tests)."""

    TITLE = "bestiary — the critter game"
    CSS = """
    #table { height: auto; }
    #menu-title { height: auto; padding: 0 1; }
    #menu { height: auto; max-height: 14; }
    #log { height: 1fr; border: round $primary; }
    NoPrompt { align: center middle; }
    NoPrompt #question { width: 70; padding: 1 2; background: $panel; }
    NoPrompt #answers { width: 70; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("backspace", "menu_back", "back"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, table: LiveTable, realtime: bool = True) -> None:
        super().__init__(table, realtime)
        self.group: MoveGroup | None = None  # the menu group opened, if any
        self.groups: list[MoveGroup] = []
        self._asked = False

    # ---- drawing ------------------------------------------------------------------------

    def refresh_table(self) -> None:
        view = self.table.view()
        self.query_one("#table", Static).update(critters_table(view))
        log = self.query_one("#log", RichLog)
        for line in self.table.log[self._logged :]:
            text = ("▶ " if line.to_you else "  ") + line.text
            log.write(Text(text, style="bold" if line.to_you else ""))
        self._logged = len(self.table.log)
        self.refresh_menu()
        if view["over"] and not self._ended:
            self._ended = True
            self.push_screen(EndScreen(self.end_body()))

    def refresh_menu(self) -> None:
        human = self.human
        legal = self.table.state.legal_actions(human)
        menu = self.query_one("#menu", OptionList)
        title = self.query_one("#menu-title", Static)
        menu.clear_options()
        awaiting = self.table.view().get("awaiting")
        if awaiting != human:
            self._asked = False
            if isinstance(self.screen, NoPrompt):  # answered for you when the clock ran out
                self.pop_screen()
        if not legal:
            self.group = None
            title.update(Text("Waiting for the others…", style="dim"))
            return
        if awaiting == human:
            self.group = None
            title.update(Text("An action targets you: answer it.", style="bold reverse"))
            if not self._asked:
                self._asked = True
                self.push_screen(NoPrompt(self.question(), legal), self.answered)
            return
        self.groups = group_moves(legal, self.table.view().get("cards"))
        if self.group is not None:
            current = [g for g in self.groups if g.do == self.group.do]
            self.group = current[0] if current else None
        if self.group is None:
            title.update(Text("Your move — choose what to do (enter):", style="bold"))
            for n, group in enumerate(self.groups):
                count = f" ({len(group.moves)})" if len(group.moves) > 1 else ""
                menu.add_option(Option(f"{group.title}{count}", id=f"g{n}"))
        else:
            title.update(Text(f"{self.group.title} — which one? (backspace: back)", style="bold"))
            menu.add_option(Option("← back", id=BACK))
            for n, move in enumerate(self.group.moves):
                menu.add_option(Option(move.label, id=f"m{n}"))
        # In a group, the cursor starts on its first move, not on "back".
        menu.highlighted = 0 if self.group is None else 1
        menu.focus()

    def question(self) -> str:
        pending = self.table.view().get("pending")
        cards = self.table.view().get("cards")
        what = critters_words(pending, cards) if pending else "An action targets you"
        question = f"{what}. Say NO! or allow it?"
        due = self.table.match.deadlines().get("answer", {}).get(self.human)
        if due is not None:
            left = self.table.seconds_until(due)
            question += f" (Not answered in {left:.0f} s, it is allowed.)"
        return question

    def end_body(self) -> RenderableType:
        summary = self.table.state.summary()
        winners = summary["winners"]
        head = Text(f"The game is over. {' and '.join(winners) or 'Nobody'} won.\n", style="bold")
        kinds = "   ".join(f"{p}: {full_kinds(t)}" for p, t in summary["tableaus"].items())
        head.append(f"Full-set kinds — {kinds}\nEvery hand turned up:\n")
        view = self.table.view()
        return Group(head, critters_table(view, reveal=summary))

    # ---- choosing -----------------------------------------------------------------------

    def play(self, action: Any) -> None:
        error = self.table.play(action)
        if error:
            self.notify(error, severity="error")
        self.group = None
        self._asked = False
        if not self.realtime:
            self.table.run_bots()
        self.refresh_table()

    def answered(self, action: Any) -> None:
        if action is not None:
            self.play(action)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id == BACK:
            self.action_menu_back()
        elif option_id.startswith("g"):
            group = self.groups[int(option_id[1:])]
            if len(group.moves) == 1:
                self.play(group.moves[0].action)
            else:
                self.group = group
                self.refresh_menu()
        elif option_id.startswith("m") and self.group is not None:
            self.play(self.group.moves[int(option_id[1:])].action)

    def action_menu_back(self) -> None:
        self.group = None
        self.refresh_menu()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(CRITTERS_HELP))
