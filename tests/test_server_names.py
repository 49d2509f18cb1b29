"""Names as people see them: properties of normalization and of telling look-alikes apart.

The server's behaviour with names (refusals at the table, names shown normalized) is in
tests/test_server_seats.py; here the rules behind it hold for any name hypothesis finds.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bestiary.server.names import BadName, confusable, normalize_name

LATIN = st.text(alphabet="abcdefghjkmnopqrstuvwxyz", min_size=1, max_size=12)
# Cyrillic and Greek small letters drawn like these Latin ones
LOOKALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "k": "κ"}
REFUSED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@given(st.text(max_size=30))
def test_a_name_is_accepted_normalized_or_refused_in_one_sentence(raw: str) -> None:
    try:
        name = normalize_name(raw)
    except BadName as err:
        assert str(err).endswith(".") and "\n" not in str(err)
        return
    assert normalize_name(name) == name  # normalizing twice changes nothing
    assert unicodedata.normalize("NFKC", name) == name and name == name.strip()
    assert 1 <= len(name) <= 24 and "  " not in name
    assert not any(unicodedata.category(c) in REFUSED for c in name)


@given(LATIN, st.data())
def test_a_look_alike_letter_or_a_change_of_case_is_the_same_name(
    name: str, data: st.DataObject
) -> None:
    swapped = "".join(
        LOOKALIKE[c] if c in LOOKALIKE and data.draw(st.booleans()) else c for c in name
    )
    assert confusable(swapped, [name]) == name
    assert confusable(name.upper(), [name]) == name
    assert confusable(name.title(), [name]) == name


PLAIN = st.text(alphabet="abefghjkopqstuxyz", min_size=1, max_size=12)  # no rn/m, vv/w, cl/d, l/I


@given(PLAIN, PLAIN)
def test_different_names_of_plain_letters_may_sit_together(first: str, second: str) -> None:
    assert (confusable(first, [second]) is None) == (first != second)


@pytest.mark.parametrize(
    ("name", "other"),
    [("Ian", "ian"), ("Ian", "lan"), ("B0B", "bob"), ("ΡΑΝ", "pan"), ("rnary", "mary")],
)
def test_known_look_alikes(name: str, other: str) -> None:
    assert confusable(name, [other]) == other


@pytest.mark.parametrize(("name", "other"), [("ali", "all"), ("ann", "anne"), ("zoë", "zoe")])
def test_known_different_names(name: str, other: str) -> None:
    assert confusable(name, [other]) is None
