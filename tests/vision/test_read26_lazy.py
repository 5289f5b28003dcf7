"""Stage 5's cheaper reading: a number's other ways of cutting its glyphs are found only when asked for,
glyph by glyph (`_tokens.GlyphCuts`), and a blob is looked at for a short strike only when a strike could
run through it (`_strikes._crossed_in_band`).

Synthetic glyphs drawn with OpenCV: the tests check the laziness against counted calls and the band
test against strokes drawn where they are, not any reading.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import _strikes
from sheetscan.vision._group import Blob
from sheetscan.vision._tokens import GlyphCuts, NumberToken, first_way
from sheetscan.vision.recognise import NumberImage

Box = tuple[int, int, int, int]
HEIGHT = 40


def _ways() -> list[tuple[tuple[Box, ...], ...]]:
    """Two glyphs: the first cut one way only, the second whole or in two."""
    return [(((0, 0, 20, HEIGHT),),),
            (((24, 0, 40, HEIGHT),), ((24, 0, 20, HEIGHT), (44, 0, 20, HEIGHT)))]


def _lazy(asked: list[int]) -> GlyphCuts:
    ways = _ways()

    def find(g: int) -> tuple[tuple[Box, ...], ...]:
        asked.append(g)
        return ways[g]

    return GlyphCuts([way[0] for way in ways], find)


def test_the_count_and_first_ways_cut_nothing_more() -> None:
    asked: list[int] = []
    cuts = _lazy(asked)
    assert len(cuts) == 2 and cuts
    assert cuts.firsts == (((0, 0, 20, HEIGHT),), ((24, 0, 40, HEIGHT),))
    assert asked == []


def test_each_glyph_is_cut_once_and_only_when_asked() -> None:
    asked: list[int] = []
    cuts = _lazy(asked)
    assert cuts[1] == _ways()[1]
    assert cuts[-1] == _ways()[1]
    assert asked == [1]
    assert list(cuts) == _ways()
    assert asked == [1, 0]
    assert cuts == tuple(_ways())
    assert asked == [1, 0]


def test_a_glyph_whose_ways_do_not_start_with_its_first_way_is_refused() -> None:
    cuts = GlyphCuts([((0, 0, 20, HEIGHT),)], lambda g: (((1, 0, 19, HEIGHT),),))
    with pytest.raises(ValueError, match="first way"):
        cuts[0]


def test_first_way_asks_no_glyph_of_a_lazy_token() -> None:
    asked: list[int] = []
    gray = np.zeros((HEIGHT, 64), np.uint8)
    quad = ((0.0, 0.0), (64.0, 0.0), (64.0, float(HEIGHT)), (0.0, float(HEIGHT)))
    lazy = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=_lazy(asked),
                       image=NumberImage(gray=gray, digit_boxes=((0, 0, 20, HEIGHT), (24, 0, 40, HEIGHT))))
    plain = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=tuple(_ways()),
                        image=lazy.image)
    assert first_way(lazy) == first_way(plain) == (((0, 0, 20, HEIGHT),), ((24, 0, 40, HEIGHT),))
    assert asked == []


def _zero(strike: bool) -> tuple[np.ndarray, Blob]:
    """A "0" 40 px tall and 24 wide drawn 4 px thick, with a level strike through its middle reaching 6 px
    past it on both sides (36 px wide in all) when `strike`."""
    mask = np.zeros((HEIGHT + 8, 48), np.uint8)
    cv2.ellipse(mask, (24, 24), (10, 18), 0, 0, 360, 255, 4)
    if strike:
        cv2.line(mask, (6, 24), (42, 25), 255, 4)
    ys, xs = np.nonzero(mask)
    x, y = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - x + 1, int(ys.max()) - y + 1
    return mask, Blob(label=1, x=x, y=y, w=w, h=h, area=int((mask > 0).sum()))


def test_a_round_digit_leaves_its_hollow_empty_in_the_strike_band() -> None:
    mask, blob = _zero(strike=False)
    assert not _strikes._crossed_in_band(_strikes._piece(mask, blob))
    # Nothing is lost by the test: Hough finds no strike through it either.
    assert _strikes._short_strikes(mask, blob, height=HEIGHT, stroke=4.0) == []


def test_a_struck_digit_is_inked_across_the_band_and_its_strike_found() -> None:
    mask, blob = _zero(strike=True)
    assert _strikes._crossed_in_band(_strikes._piece(mask, blob))
    found = _strikes._short_strikes(mask, blob, height=HEIGHT, stroke=4.0)
    assert found, "the strike drawn through the 0 is found"
    (x0, y0, x1, y1), *_ = found
    assert min(x0, x1) <= 12 and max(x0, x1) >= 36 and 20 <= (y0 + y1) / 2 <= 29
