"""Shuffles and picks that are exactly ``random.Random``'s own, in compiled code.

The stdlib's ``shuffle`` and ``choice`` are interpreted Python around one C call per draw;
dealing a critters deck that way is a large part of a random game.
These draw the same numbers in the same order (``getrandbits``, as ``_randbelow`` does), so
a seed deals the same cards and plays the same moves with either, and the generator is left
in the same state. Any other generator (a subclass that changes how it draws, ``SystemRandom``)
is asked itself.
tests/test_core_chance.py holds them to the running Python's stdlib.

>>> cards = list("abcdef")
>>> shuffle(random.Random(7), cards)
>>> stdlib = list("abcdef")
>>> random.Random(7).shuffle(stdlib)
>>> cards == stdlib
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


class RandomSource:
    """One generator's draws, its ``getrandbits`` bound once: in compiled code a call through
    the bound method is far cheaper than looking the method up by name at every draw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        kind = type(rng)
        # Else the generator is asked itself: ``own`` for picks, ``own_shuffle`` for shuffles.
        if kind is random.Random:
            self.own = self.own_shuffle = True
        else:
            self.own, self.own_shuffle = _draws_as_stdlib(kind)
        self.bits: Callable[[int], int] = rng.getrandbits

    def below(self, n: int) -> int:
        """A random int in ``[0, n)``, ``n > 0``: ``Random._randbelow_with_getrandbits``."""
        k = 0
        rest = n
        while rest:  # n.bit_length(), as native arithmetic
            rest >>= 1
            k += 1
        bits = self.bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def shuffle(self, cards: list[T]) -> None:
        """``rng.shuffle(cards)``: the same order, the same draws."""
        if not self.own_shuffle:
            self.rng.shuffle(cards)
            return
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def pick(self, options: Sequence[T]) -> T:
        """``rng.choice(options)``: the same option, the same draws."""
        if not self.own:
            return self.rng.choice(options)
        if not options:
            raise IndexError("Cannot choose from an empty sequence")
        return options[self.below(len(options))]


# Per subclass of random.Random: whether its picks and its shuffles are the stdlib's.
_AS_STDLIB: dict[type, tuple[bool, bool]] = {}


def _draws_as_stdlib(kind: type) -> tuple[bool, bool]:
    """Whether ``kind`` (a ``random.Random`` subclass) keeps the stdlib's ``choice`` and
    ``shuffle`` and the draws under them (``getrandbits``, ``_randbelow``): e.g. the ticks'
    ``OrderedRandom``, whose picks are the stdlib's and whose shuffles are its own."""
    known = _AS_STDLIB.get(kind)
    if known is None:

        def kept(*names: str) -> bool:
            return all(getattr(kind, n) is getattr(random.Random, n) for n in names)

        draws = kept("_randbelow", "getrandbits")
        known = _AS_STDLIB[kind] = (draws and kept("choice"), draws and kept("shuffle"))
    return known


def below(rng: random.Random, n: int) -> int:
    """``RandomSource(rng).below(n)``."""
    return RandomSource(rng).below(n)


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """``rng.shuffle(cards)``, compiled."""
    RandomSource(rng).shuffle(cards)


def pick(rng: random.Random, options: Sequence[T]) -> T:
    """``rng.choice(options)``, compiled (``RandomSource(rng).pick`` for many picks)."""
    return RandomSource(rng).pick(options)
