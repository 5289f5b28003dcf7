"""The recogniser's judgement of a short strike (`_strikes.find_short_strikes`) through a number: a
stroke that crosses a digit out carries nothing of the digit, a digit's own bar does (`judged`);
where the strike had cut one number apart, the number is put back whole when it is rejected
(`judged_all`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from sheetscan.vision._digit_cache import DigitCache

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["judged", "judged_all"]

_SAME_READING = 0.5
"""How surely a number must read, with its short strike and without it, for the two readings to be
the same number.

Decision: 0.5 (more likely than not) both ways, because a strike left in may still read as a
guess of the same digits (a "14" whose 4 lost its bar reads "11" at 0.84, with the bar "11" at 0.45),
while a digit struck through reads its own value surely either way (0.72-1.0 on the rendered benches)."""


def judged_all(tokens: Iterator[NumberToken] | Sequence[NumberToken], cache: DigitCache,
               kept: list[NumberToken]) -> Iterator[NumberToken]:
    """The tokens, each judged (`judged`); where a rejected strike had cut one number apart
    (`NumberToken.whole`), that number in place of all its pieces."""
    skip = -1
    for token in tokens:
        if token.bundle >= 0 and token.bundle == skip:
            continue
        skip = -1
        verdict = judged(token, cache, kept)
        if verdict is not token and token.whole is not None:
            skip = token.bundle
            verdict = token.whole
        yield verdict


def judged(token: NumberToken, cache: DigitCache, kept: list[NumberToken] | None = None) -> NumberToken:
    """The token, or the number as written when its short strike was part of a digit.

    A stroke that crosses a digit out carries nothing of the digit: the digit reads the same with it
    and without it (the recogniser has learnt to look through bits of line). A digit's own bar does:
    a 4 without its bar reads as a 1, a 7 as a 1. So the strike stands only when the number reads
    the same both ways, surely enough (`_SAME_READING`). The token (it holds the other) is put in
    `kept`: the cache knows a crop by its image's identity, which must not be reused while the cache
    lives.
    """
    if token.unstruck is None:
        return token
    if kept is not None:
        kept.append(token)
    written, struck = cache.read([token.unstruck, token])
    if (written.candidates and struck.candidates and written.candidates[0][0] == struck.candidates[0][0]
            and min(written.candidates[0][1], struck.candidates[0][1]) >= _SAME_READING):
        return token
    return token.unstruck
