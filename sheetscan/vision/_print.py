"""The printed labels of a form (пуля, гора, висты, имя) among the numbers cut from its zones: light
grey print, far fainter than any pen, and smaller than the handwriting, or lying on the zone's own
label place (`printed`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from sheetscan.vision._zone_ink import LabelPlace, at_label

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken


def ink_level(token: NumberToken) -> float:
    """How dark the token's ink is (the 90th percentile of its strokes' strength)."""
    gray = token.image.gray
    strokes = gray[gray > 40]
    return float(np.percentile(strokes, 90)) if strokes.size else 0.0


def printed(tokens: Sequence[NumberToken], labels: dict[int, LabelPlace], *, share: float = 0.55,
            short: float = 0.75, alike: float = 1.15) -> Callable[[NumberToken], bool] | None:
    """Which "numbers" of a form are its printed labels, judged against the sheet's `tokens` (every
    block's numbers at its usual angle); None when there are too few (fewer than 5) to tell the
    sheet's typical ink.

    A "number" whose ink is below `share` of the sheet's typical ink and whose letters stand less than
    `short` of its block's digit height, or that lies on its zone's label (`labels`, `at_label`), is
    one. So is one on its label whose ink is within `alike` of the print's own (`_print_level`).

    Decision: only on printed forms (their labels are known to be light grey); a hand-drawn sheet
    may hold a pencil writer next to pen writers, whose faint numbers must stay. Decision: the height
    too, because a pale pen on a form is as faint as the labels (rendered sheets: pale writers at
    0.52-0.55 of the sheet's ink, labels at 0.47-0.50) while its digits stand at least 0.74 of their
    block's digit height and the labels' letters at most 0.68. Decision: on the label's own place
    faint ink is enough, because a writer who writes as small as the print (the web app's sample:
    digits 26 px, the label's letters 22 px tall) leaves the height no use there.
    Decision: the print's own ink as well, because the labels are all printed alike, while the
    sheet's typical ink is the writers': where the print comes out darker, or the writing is mostly
    pale or sparse, the labels stand at 0.72-1.04 of the median of every token (bench_styles seed
    6007: 0.76-0.84 with pale writers at 0.97-1.03; small writing there: 30 labels of 53 tokens),
    within 1.09 of each other, and a pale writer beside them at 1.2-1.3 of them.
    """
    levels = [ink_level(t) for t in tokens]
    if len(levels) < 5:
        return None
    floor = share * float(np.median(levels))
    on_label = [_on_label(t, labels) for t in tokens]
    print_level = _print_level([v for v, on in zip(levels, on_label, strict=True) if on],
                               [v for v, on in zip(levels, on_label, strict=True) if not on])

    def is_print(token: NumberToken) -> bool:
        tallest = max((box[3] for box in token.image.digit_boxes), default=0)
        level = ink_level(token)
        on = _on_label(token, labels)
        if level < floor and (tallest < short * token.digit_size[0] or on):
            return True
        return on and print_level is not None and level <= alike * print_level

    return is_print


def _on_label(token: NumberToken, labels: dict[int, LabelPlace]) -> bool:
    place = labels.get(token.zone)
    return place is not None and at_label(token.quad, place)


def _print_level(on_label: list[float], elsewhere: list[float], *, fewest: int = 3,
                 fainter: float = 0.9) -> float | None:
    """The labels' own ink: the median of the tokens lying on label places, when there are at least
    `fewest` of them and that median is below `fainter` of the ink elsewhere (at least 5 tokens);
    else None (the print vanished with the paper, or what lies on the places is mostly writing).

    Decision: the median, because every zone has a label and only the last number of a full zone
    reaches its place, so the tokens on the places are mostly print.
    """
    if len(on_label) < fewest or len(elsewhere) < 5:
        return None
    level = float(np.median(on_label))
    return level if level < fainter * float(np.median(elsewhere)) else None
