"""Record I/O: parsing, line numbers in errors, round trip."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bestiary.core.errors import RecordError
from bestiary.core.game import replay
from bestiary.core.options import parse_options
from bestiary.core.records import parse_lines, read_record, write_record


def test_bad_json_names_its_line() -> None:
    with pytest.raises(RecordError) as info:
        parse_lines(['{"game": "wild"}', '{"by": "ann", "do": "draw"}', "{oops"])
    assert info.value.line == 3
    assert "line 3" in str(info.value)


def test_non_object_line_is_refused() -> None:
    with pytest.raises(RecordError, match="line 2: expected a JSON object"):
        parse_lines(['{"game": "wild"}', "[1, 2]"])


def test_empty_record_is_refused() -> None:
    with pytest.raises(RecordError, match="empty"):
        parse_lines(["", "  "])


def test_unknown_game_is_refused_on_line_1() -> None:
    with pytest.raises(RecordError, match="line 1: header names no known game"):
        replay({"game": "chess"}, [])


def test_unsupported_version_is_refused() -> None:
    with pytest.raises(RecordError, match="version 2"):
        replay({"game": "wild", "version": 2}, [])


def test_write_then_read_round_trips(tmp_path: Path) -> None:
    header = {"game": "wild", "version": 1, "players": ["ann", "bob"]}
    events = [{"by": "ann", "do": "draw"}, {"do": "nightfall"}]
    path = tmp_path / "game.jsonl"
    write_record(path, header, events)
    assert read_record(path) == (header, [(2, events[0]), (3, events[1])])
    buffer = io.StringIO()
    write_record(buffer, header, events)
    assert buffer.getvalue() == path.read_text(encoding="utf-8")


def test_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"game": "\xff"}\n')
    with pytest.raises(RecordError, match="not UTF-8"):
        read_record(path)


def test_option_needs_key_and_value() -> None:
    with pytest.raises(ValueError, match="key=value"):
        parse_options(["mating_bonus"])
