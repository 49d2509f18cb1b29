"""bestiary.core.chance draws exactly what the running Python's ``random.Random`` draws."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.chance import below, pick, shuffle

SETTINGS = settings(max_examples=200, deadline=None)


@SETTINGS
@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=120))
def test_a_shuffle_is_the_stdlib_shuffle(seed: int, cards: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, stdlib = cards[:], cards[:]
    shuffle(ours, mine)
    theirs.shuffle(stdlib)
    assert mine == stdlib
    assert ours.getstate() == theirs.getstate()  # the same draws, so what follows is the same


@SETTINGS
@given(st.integers(0, 2**64), st.lists(st.integers(1, 300), min_size=1, max_size=40))
def test_picks_are_the_stdlib_choices(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in sizes:
        options = list(range(n))
        assert pick(ours, options) == theirs.choice(options)
    assert ours.getstate() == theirs.getstate()


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 2**70))
def test_below_is_the_stdlib_randbelow(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    drawn = below(ours, n)
    assert 0 <= drawn < n
    assert drawn == theirs.randrange(n)


def test_another_generator_is_asked_itself() -> None:
    """A generator of another kind draws its own way: it is called, not imitated."""

    class Counted(random.Random):
        calls = 0

        def random(self) -> float:
            Counted.calls += 1
            return super().random()

    shuffle(Counted(3), list(range(10)))
    assert Counted.calls > 0
    cards = list(range(10))
    expected = cards[:]
    Counted(3).shuffle(expected)
    shuffle(Counted(3), cards)
    assert cards == expected


def test_nothing_is_picked_from_nothing() -> None:
    with pytest.raises(IndexError):
        pick(random.Random(1), [])


class Ordered(random.Random):
    """Like the driver's OrderedRandom: its own shuffle, the stdlib's draws for the rest."""

    def shuffle(self, x: Any) -> None:
        x.reverse()


@SETTINGS
@given(st.integers(0, 2**64), st.lists(st.integers(1, 300), min_size=1, max_size=40))
def test_a_subclass_keeping_the_stdlibs_draws_picks_as_the_stdlib(
    seed: int, sizes: list[int]
) -> None:
    ours, theirs = Ordered(seed), random.Random(seed)
    for n in sizes:
        options = list(range(n))
        assert pick(ours, options) == theirs.choice(options)
    assert ours.getstate() == theirs.getstate()
    cards = list(range(5))
    shuffle(ours, cards)  # its own shuffle is asked, not imitated
    assert cards == [4, 3, 2, 1, 0] and ours.getstate() == theirs.getstate()
