"""Stage 4 of reading a photo: the contrast a specular glare took from the ink, given back (`without_glare`).

A glare on glossy paper (or a lamp's reflection) adds light of its own to the paper and the ink alike; this
module measures how much of the ink's darkness it left (`_glare_kept`) and divides it back out, for
`ink.ink_strength`.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["without_glare"]

Mask = npt.NDArray[np.uint8]


def without_glare(strength: Mask, darkest: Mask, paper: Mask, *, gate: float = 0.5,
                   most: float = 1.0 / 0.1) -> Mask:
    """`strength` given back the contrast a glare took from it (`_glare_kept`: where it kept less than
    1 - `gate` of it, multiplied by up to `most`); elsewhere `strength` itself.

    A specular glare on glossy paper (or a lamp's reflection) adds light of its own to the paper and the
    ink alike: the ink's darkness against the paper, a ratio, shrinks to a fifth in the middle of a bright
    patch, and whole numbers written there fell below the thresholds while still plain to the eye
    (bench_styles glare, seeds 5000 and 6000: 'not found' the first error). Light that only brightens
    (a lamp nearer one side) scales paper and ink alike and keeps the ratio: nothing is changed there.

    Decision: `most` is 10 (the ink keeping a tenth of its darkness), not 1 / 0.3, because a glare of
    w = 0.7-0.85 (bench_styles glare) leaves black ink on paper of 150-230 only 0.12-0.2 of its darkness:
    multiplied by 3.3 at most, whole zones under the patch's middle stayed below the thresholds (glare seed
    43001: `_glare_kept` measured 0.13 there, 27 numbers not found; 45004 and 45005 the same; glare seeds
    43000-45000: digits 3422 -> 3481 of 3606, zones 332 -> 338 of 360). The paper's noise multiplied by up
    to 10 stays below the weak threshold (tests/vision/test_glare26_deep.py: 2 grey levels of noise under
    w = 0.8 grow no ink). Its cost: a drawn line the glare washed out of the zone stage's line mask comes
    back as ink too, and may join a digit (glare 43000: a "10" read "0").
    """
    kept = _glare_kept(darkest, paper, gate=gate, least=1.0 / most)
    if kept is None:
        return strength
    x0, y0, w, h = kept[1]
    window = strength[y0:y0 + h, x0:x0 + w].astype(np.float32)
    out = strength.copy()
    out[y0:y0 + h, x0:x0 + w] = np.clip(np.rint(window / kept[0]), 0, 255).astype(np.uint8)
    return out


def _glare_kept(darkest: Mask, paper: Mask, *, gate: float, least: float, across: float = 0.4,
                clipped: float = 253.0, confirm: float = 0.5, skirt: float = 0.85
                ) -> tuple[npt.NDArray[np.float32], tuple[int, int, int, int]] | None:
    """The share of the ink's darkness a glare left it (`least` … 1) over the bounding box (x, y, w, h) of
    the glare, or None where there is no glare: where it is below 1 - `gate`, and around that, the glare's
    skirt, where it is below `skirt` and joined to such a core.

    Glare is light added to what the paper and the ink reflect: a pixel of reflectance-lit brightness x is
    seen as x (1 - w) + 255 w, w the glare's share (how near white it pulls everything). So it shows twice:
    the paper is brighter than the light around would make it (a bright patch narrower than `across` of
    the sheet, opened away), and the darkest ink around is paler than the sheet's darkest ink, both by w
    of the way to white. Brighter light alone lifts the paper but not the blacks; a pale writer's ink is
    pale on paper of the usual brightness; empty paper has no blacks but paper's: w is the smaller of the
    two, or the paper's where the blacks are lifted at least `confirm` of as much (they confirm a glare, but
    the darkest ink around may be darker than the sheet's darkest under it), and broad light (a lamp's
    side, the lit part beside a shadow) is no patch. The ink's darkness against the paper then keeps
    F (1 - w) / (F (1 - w) + 255 w) of what it was (F: the paper without the glare).
    """
    height, width = darkest.shape
    # The darkest ink within about two numbers' length (a 12th of the sheet) at a quarter of the size, where
    # strokes are still whole; all else at a 16th: light and glare change slowly.
    quarter = (max(1, width // 4), max(1, height // 4))
    if min(quarter) < 64:
        return None
    reach = max(5, (min(quarter) // 12) | 1)
    coarse = (max(1, width // 16), max(1, height // 16))
    lit = np.asarray(cv2.resize(paper, coarse, interpolation=cv2.INTER_AREA), np.float32)
    # The paper as the light alone would make it: the brightness with every bright patch narrower than
    # `across` of the sheet (glare) opened away; a broad lit stretch (beside a hand's shadow, a lamp's
    # side) is wider than that and stays.
    size = max(3, int(across * min(lit.shape)) | 1)
    opened = cv2.morphologyEx(lit, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    fit = np.minimum(np.asarray(cv2.GaussianBlur(opened, (0, 0), size / 6), np.float32), lit)
    soft = reach / 8
    share_paper = (lit - fit) / np.maximum(255.0 - fit, 1.0)
    if _no_core(share_paper, lit, fit, soft=soft, clipped=clipped, gate=gate):
        return None
    small = np.asarray(cv2.resize(darkest, quarter, interpolation=cv2.INTER_AREA), np.uint8)
    blacks4 = cv2.erode(small, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    blacks = np.asarray(cv2.resize(blacks4, coarse, interpolation=cv2.INTER_AREA), np.float32)
    blacks = np.asarray(cv2.GaussianBlur(blacks, (0, 0), soft), np.float32)
    black = float(np.percentile(blacks, 5))
    share_black = (blacks - black) / max(255.0 - black, 1.0)
    # Decision: where the blacks are lifted at least `confirm` of what the paper is, the glare is confirmed
    # and the paper's lift measures it, because the darkest ink around is often darker than what the sheet's
    # darkest ink would be under the glare (a black drawn line or a blot beside a blue pen's writing): the
    # blacks then gave a glare of about half the paper's, and whole numbers stayed below the thresholds
    # (bench_styles glare seed 5000: 39 numbers not found, e.g. photo 5001 zone 1: the paper lifted 0.85 of
    # the way to white, the blacks 0.5). Where the blacks are not lifted (broad light, a lamp's side) they
    # still decide, as before.
    glare = np.clip(np.where(share_black >= confirm * share_paper, share_paper,
                             np.minimum(share_paper, share_black)), 0.0, 0.95)
    # Decision: none where the paper is clipped white (>= `clipped` at a 16th of the size), because there
    # the paper's lift is not measured but cut off, and light that only brightens looks the same: the
    # renderer's own bright patches saturate the paper while the form's pale printed labels under them keep
    # their ratio, and their strength multiplied passed for writing (one usual photo: 94.29 -> 88.57 %
    # digits, a 3-player form; bench_styles seed 13000, photo 7). A glare that whitens the paper
    # itself has mostly taken the ink with it too.
    glare[lit >= clipped] = 0.0
    glare = np.asarray(cv2.GaussianBlur(glare, (0, 0), soft), np.float32)
    left = fit * (1.0 - glare)
    kept = np.clip(left / np.maximum(left + 255.0 * glare, 1.0), least, 1.0)
    # Decision: only where the glare took more than `gate` (0.5 in `without_glare`) of the ink's darkness,
    # because the paper's brightness wanders over every photo, and over empty paper (no ink: its "blacks"
    # are the paper) that looks like a mild glare: bench_styles seed 5000 usual, blur and shadow photos left
    # at least 0.61 there, the glare photos at most 0.37 in their middles; photos without glare are read
    # exactly as before. (A smooth quadratic fit for the light without glare took the lit side of a
    # shadow for glare: shadow photos down to 0.3.)
    core = kept < 1.0 - gate
    if not core.any():
        return None
    # Decision: around a glare's core (below 1 - `gate`), its skirt is given back too: the glare fading out
    # around it, where it still takes more than 1 - `skirt` (0.15) of the ink's darkness and is joined to the
    # core, because a glare has no edge: its light fades out over about its own size, and the ink there,
    # keeping 0.5-0.8 of its darkness, fell below the thresholds at the step the gate alone made (bench_styles
    # glare seed 5000 photos 5-7, stages 4-7 on the truth's zones: 12 -> 6 numbers not found, digits
    # 92.67 -> 95.11 %). Joined to a core only: the paper's own wander on a photo without glare is no core,
    # and such photos are read exactly as before; nor farther from the core than its own size (below).
    count, found = cv2.connectedComponents(np.asarray(kept < skirt, np.uint8), connectivity=8)
    labels = np.asarray(found, np.int32)
    reached = np.zeros(count, dtype=bool)
    reached[labels[core]] = True
    reached[0] = False
    # Within the core's own size of it (the side of a square of its area): a glare fades out over about
    # its own size, while broad light (a lamp's side) spreads far wider than a pale patch it touches.
    extent = float(np.sqrt(np.count_nonzero(core)))
    away = cv2.distanceTransform(np.asarray(~core, np.uint8), cv2.DIST_L2, 3)
    kept = np.where((reached[labels] & (away <= extent)) | core, kept, 1.0).astype(np.float32)
    full = np.asarray(cv2.resize(kept, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)
    box = cv2.boundingRect(np.asarray(full < 1.0, np.uint8))
    x0, y0, w, h = (int(v) for v in box)
    return np.asarray(full[y0:y0 + h, x0:x0 + w], np.float32), (x0, y0, w, h)


_MARGIN = 1e-3
"""How far above the gate the bound of `_no_core` must keep the ink's darkness everywhere: far more than the
few float32 roundings by which the bound's arithmetic may stray from the exact."""


def _no_core(share_paper: npt.NDArray[np.floating[Any]], lit: npt.NDArray[np.float32],
             fit: npt.NDArray[np.float32],
             *, soft: float, clipped: float, gate: float) -> bool:
    """Whether `_glare_kept` finds no glare's core whatever the blacks are: the glare it measures is never
    more than the paper's lift (`share_paper`, clipped and cut where the paper is clipped white, as there),
    and with that as the glare the ink keeps more than 1 - `gate` (and `_MARGIN`) of its darkness everywhere.

    Decision: the paper's lift alone is tried first, and the darkest ink (a quarter-size shrink of the
    sheet, its erosion and shrink again: ~5 ms of a 12 MP photo's sheet) measured only where it does not
    settle it, because the glare is the paper's lift or less at every place, the blur with its positive
    weights keeps that order (each rounding step is monotone), and the ink keeps less of its darkness the
    more glare there is: where even the paper's lift leaves more than the gate, no core is found, exactly as
    the full measure finds none. Photos without glare left 0.70-0.87 by this bound (bench 1000, photos 0-3).
    """
    bound = np.clip(share_paper, 0.0, 0.95)
    bound[lit >= clipped] = 0.0
    bound = np.asarray(cv2.GaussianBlur(bound, (0, 0), soft), np.float32)
    left = fit * (1.0 - bound)
    kept = left / np.maximum(left + 255.0 * bound, 1.0)
    return bool(float(kept.min()) >= 1.0 - gate + _MARGIN)
