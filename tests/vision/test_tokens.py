"""Stage 5, the tokens handed from cutting to reading (`_tokens`): numbers cut as they are asked for."""

from __future__ import annotations

from typing import Any

from sheetscan.vision._tokens import Lazily


def test_cut_all_cuts_every_number_once() -> None:
    # `cut_all` is what a form's reading calls to cut a block in full ahead of time (in two threads):
    # afterwards the source is spent and asking for the numbers takes nothing more from it.
    taken: list[int] = []

    def source() -> Any:
        for i in range(5):
            taken.append(i)
            yield i

    lazily = Lazily(source())
    lazily.cut_all()
    assert taken == [0, 1, 2, 3, 4]
    assert list(lazily) == [0, 1, 2, 3, 4] and len(lazily) == 5 and taken == [0, 1, 2, 3, 4]
