"""Stage 2's rectification: a sheet photographed small is enlarged bicubically, a large one bilinearly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision.photo import load_photo
from sheetscan.vision.render import render_sheet
from sheetscan.vision.sheet import RectifiedSheet, find_sheet


def _blank(size: tuple[int, int]) -> tuple[RectifiedSheet, np.ndarray]:
    names = ["A", "B", "C"]
    zones = {p: {"pulka": [], "gora": [], "whists": {q: [] for q in names if q != p}} for p in names}
    sheet = {"format": "sheetscan.sheet/1", "variant": "sochi", "players": names, "pulka": 20, "zones": zones}
    rendered = render_sheet(sheet, layout="standard-3", seed=11, size=size, max_tilt=10.0,
                            orientation="landscape")
    photo = load_photo(rendered.jpeg())
    return find_sheet(photo), photo.image


def _warp(image: np.ndarray, sheet: RectifiedSheet, interpolation: int) -> np.ndarray:
    height, width = sheet.image.shape[:2]
    return np.asarray(cv2.warpPerspective(image, sheet.to_photo, (width, height),
                                          flags=interpolation | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255)))


@pytest.mark.slow
@pytest.mark.parametrize(("size", "interpolation"), [((1000, 750), cv2.INTER_CUBIC),
                                                     ((4000, 3000), cv2.INTER_LINEAR)])
def test_the_sheet_is_enlarged_bicubically_only_when_photographed_small(size: tuple[int, int],
                                                                         interpolation: int) -> None:
    # On a 1000 × 750 photo the sheet spans well under the rectified image's 2000 px (enlarged more
    # than 2×); on a 4000 × 3000 photo it spans more (shrunk).
    sheet, image = _blank(size)
    other = cv2.INTER_LINEAR if interpolation == cv2.INTER_CUBIC else cv2.INTER_CUBIC
    assert np.array_equal(sheet.image, _warp(image, sheet, interpolation))
    assert not np.array_equal(sheet.image, _warp(image, sheet, other))
