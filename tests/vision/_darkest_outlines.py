"""Stage 2's choice between a chosen outline and another by the darkest channel (`_drawn_in_darkest`), as
the frame tests ask it, and how far an outline lies from the truth."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, u8
from sheetscan.vision._frame_search import _drawn_in_darkest, fitted
from sheetscan.vision._lines import dark_ratio
from sheetscan.vision._quad import FrameCandidate


def chosen_in_darkest(image: U8, chosen: tuple[FrameCandidate, U8], other: tuple[FrameCandidate, U8]) -> F64:
    """The outline `_drawn_in_darkest` keeps of `chosen` and `other` on the photo `image` (BGR), as fitted."""
    darkest = dark_ratio(image, line_width=2.4, channel="min")
    dark = u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return fitted(_drawn_in_darkest(chosen, [chosen, other], darkest, dark), dark)


def corner_off(quad: F64, truth: F64) -> float:
    """The greatest distance (px) between a corner of `quad` and the same corner of `truth`."""
    return float(np.hypot(*(quad - truth).T).max())
