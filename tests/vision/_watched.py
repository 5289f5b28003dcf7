"""A block's numbers at another angle for stage-5 tests, noting whether anything asked for them (cut them)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from sheetscan.vision.numbers import NumberToken


class Watched(Sequence[NumberToken]):
    """The numbers of a block at another angle, noting whether anything asked for them (cut them)."""

    def __init__(self, numbers: tuple[NumberToken, ...]) -> None:
        self.numbers = numbers
        self.asked = False

    def __len__(self) -> int:
        self.asked = True
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> NumberToken: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[NumberToken, ...]: ...

    def __getitem__(self, index: int | slice) -> NumberToken | tuple[NumberToken, ...]:
        self.asked = True
        return self.numbers[index]

    def __iter__(self) -> Iterator[NumberToken]:
        self.asked = True
        return iter(self.numbers)
