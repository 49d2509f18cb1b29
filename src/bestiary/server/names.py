"""Player names as people see them: normalized, visible, and not look-alikes of each other.

A name is NFKC-normalized (full-width and styled letters become plain ones, odd spaces become
a space) and refused if it holds a control, format (zero-width, bidi override), private-use,
unassigned or invisible filler character. Two names are confusable when their *skeletons* are
equal: the name with look-alike letters (Cyrillic and Greek letters drawn like Latin ones, 0 and
O, 1, I and l, "rn" and "m") replaced by one Latin letter each, case folded. The map is short
and covers the look-alikes a Latin, Cyrillic or Greek keyboard can type; it errs on the side of
refusing (a player then picks another name).
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 24

# Invisible characters that Unicode files under visible categories (letters, symbols).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_VARIATION = re.compile("[\ufe00-\ufe0f]")
_MARKS_IN_A_ROW = 2

# Capitals first (before case folding), so a capital drawn like a Latin capital maps to it.
_CAPITALS = str.maketrans(
    {
        **dict.fromkeys("I\u0399\u0406\u04c0|1", "l"),  # I, Greek Iota, Cyrillic I and palochka
        **dict(zip("ΑΒΕΖΗΚΜΝΟΡΤΥΧ", "ABEZHKMNOPTYX", strict=True)),  # Greek
        **dict(zip("АВЕКМНОРСТХЅЈУ", "ABEKMHOPCTXSJY", strict=True)),  # Cyrillic
        "0": "o",
    }
)
# Small letters after case folding.
_SMALL = str.maketrans(
    dict(
        zip(
            "аеорсухѕіјԁԛԝһӏьвкмнтпɡɑαεικνορτυχωϲϳµμıγη",
            "aeopcyxsijdqwhlbbkmhtngaaeiknoptuxwcjuuiyn",
            strict=True,
        )
    )
)
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


class BadName(ValueError):
    """A name that cannot sit at a table; the message is one sentence."""


def normalize_name(raw: str) -> str:
    """The name as it will be shown, or BadName.

    >>> normalize_name("  Ｚｏë  ")
    'Zoë'
    >>> normalize_name("bob\\u200b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bestiary.server.names.BadName: a name may not hold invisible or control characters ...
    """
    name = " ".join(unicodedata.normalize("NFKC", raw).split(" "))
    name = re.sub(" +", " ", name).strip(" ")
    if not 1 <= len(name) <= MAX_NAME:
        raise BadName(f"a name must be 1 to {MAX_NAME} characters long.")
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if (
            category in _REFUSED_CATEGORIES
            or char in _INVISIBLE
            or (category == "Zs" and char != " ")
        ):
            raise BadName(
                f"a name may not hold invisible or control characters (found U+{ord(char):04X})."
            )
        marks = marks + 1 if category.startswith("M") and not _VARIATION.match(char) else 0
        if marks > _MARKS_IN_A_ROW:
            raise BadName("a name may not stack more than two accents on one letter.")
    return name


def skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, twice: case folded, and drawn (capitals as the letters they look
    like: ``I`` as ``l``, ``0`` as ``o``) then case folded. Two names with one skeleton in common
    are look-alikes.

    >>> skeletons("Ian"), skeletons("lan")
    (('ian', 'lan'), ('lan', 'lan'))
    >>> skeletons("b\\u043eb") == skeletons("bob")
    True
    """
    text = _VARIATION.sub("", unicodedata.normalize("NFKC", name))
    return _fold(text), _fold(text.translate(_CAPITALS))


def _fold(text: str) -> str:
    text = text.casefold().translate(_SMALL)
    for pair, single in _PAIRS:
        text = text.replace(pair, single)
    return text


def confusable(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that looks like ``name`` (the same name included), or None.

    >>> confusable("BOB", ["ann", "bob"]), confusable("B0B", ["bob"]), confusable("Ian", ["ian"])
    ('bob', 'bob', 'ian')
    >>> confusable("ali", ["all", "anne"]) is None
    True
    """
    case, drawn = skeletons(name)
    for other in others:
        theirs = skeletons(other)
        if case == theirs[0] or drawn == theirs[1]:
            return other
    return None
