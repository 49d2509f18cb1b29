"""Game records: JSON Lines, line 1 the header, every later line one event (docs/records.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO, TypeVar

from bestiary.core.errors import MalformedEvent, RecordError

Event = dict[str, Any]
Header = dict[str, Any]

RECORD_VERSION = 1
T = TypeVar("T")


def parse_lines(lines: Iterable[str]) -> tuple[Header, list[tuple[int, Event]]]:
    """Parse a record's lines into its header and ``(line number, event)`` pairs.

    Blank lines are skipped (they still count for line numbers).

    >>> header, events = parse_lines(['{"game": "wild"}', '', '{"do": "nightfall"}'])
    >>> header["game"], events
    ('wild', [(3, {'do': 'nightfall'})])
    """
    header: Header | None = None
    events: list[tuple[int, Event]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise RecordError(number, f"not valid JSON ({err.msg})") from None
        except RecursionError:
            raise RecordError(number, "not valid JSON (nested too deeply)") from None
        except ValueError:  # an integer past sys.get_int_max_str_digits()
            raise RecordError(number, "not valid JSON (a number with too many digits)") from None
        if not isinstance(obj, dict):
            raise RecordError(number, "expected a JSON object")
        if header is None:
            header = obj
        else:
            events.append((number, obj))
    if header is None:
        raise RecordError(0, "the record is empty (no header line)")
    return header, events


def read_record(path: str | Path) -> tuple[Header, list[tuple[int, Event]]]:
    """Read a record file; unreadable files and bad UTF-8 are reported as RecordError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(0, f"the file is not UTF-8 ({err.reason})") from None
    except OSError as err:
        raise RecordError(0, f"cannot read the file ({err.strerror})") from None
    return parse_lines(text.splitlines())


def dumps(obj: dict[str, Any]) -> str:
    """One record line: compact JSON, keys in the order given."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def iter_lines(header: Header, events: Iterable[Event]) -> Iterator[str]:
    yield dumps(header)
    for event in events:
        yield dumps(event)


def write_record(out: str | Path | TextIO, header: Header, events: Iterable[Event]) -> None:
    """Write a record to a path or an open text stream."""
    if isinstance(out, (str, Path)):
        with Path(out).open("w", encoding="utf-8") as stream:
            write_record(stream, header, events)
        return
    for line in iter_lines(header, events):
        out.write(line + "\n")


def parse_event(event: Any, parsers: Mapping[str, Callable[[Event], T]], game: str) -> T:
    """The action an event line stands for, by its ``do``; MalformedEvent if it is none.

    Every game parses its events this one way: the shape is checked here, the keys by the
    game's parser for that ``do``, and whether the rules allow it by ``apply``.
    """
    if not isinstance(event, dict):
        raise MalformedEvent("an event must be a JSON object")
    do = event.get("do")
    if not isinstance(do, str):
        raise MalformedEvent("an event needs 'do' naming the action")
    parse = parsers.get(do)
    if parse is None:
        raise MalformedEvent(f"{do!r} is not a {game} action (known: {', '.join(parsers)})")
    return parse(event)
