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
            short: float = 0.75) -> Callable[[NumberToken], bool] | None:
    """Which "numbers" of a form are its printed labels, judged against the sheet's `tokens` (every
    block's numbers at its usual angle); None when there are too few (fewer than 5) to tell the
    sheet's typical ink.

    A "number" whose ink is below `share` of the sheet's typical ink and whose letters stand less than
    `short` of its block's digit height, or that lies on its zone's label (`labels`, `at_label`), is
    one.

    Decision: only on printed forms (their labels are known to be light grey); a hand-drawn sheet
    may hold a pencil writer next to pen writers, whose faint numbers must stay. Decision: the height
    too, because a pale pen on a form is as faint as the labels (rendered sheets: pale writers at
    0.52-0.55 of the sheet's ink, labels at 0.47-0.50) while its digits stand at least 0.74 of their
    block's digit height and the labels' letters at most 0.68. Decision: on the label's own place
    faint ink is enough, because a writer who writes as small as the print (the web app's sample:
    digits 26 px, the label's letters 22 px tall) leaves the height no use there.
    """
    levels = [ink_level(t) for t in tokens]
    if len(levels) < 5:
        return None
    floor = share * float(np.median(levels))

    def is_print(token: NumberToken) -> bool:
        tallest = max((box[3] for box in token.image.digit_boxes), default=0)
        place = labels.get(token.zone)
        return ink_level(token) < floor and (tallest < short * token.digit_size[0]
                                             or (place is not None and at_label(token.quad, place)))

    return is_print
