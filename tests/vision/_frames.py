"""Rendered blank sheets and the check that stage 2 found their drawn frame."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import find_sheet

SIZE = (2000, 1500)
"""The rendered photos' size."""


def blank_render(layout: str, seed: int, **kwargs: float) -> Any:
    """A rendered 2000 × 1500 photo of a sheet with nothing written but the target in the circle."""
    from sheetscan.vision.render import render_sheet

    names = ["A", "B", "C", "D"][: int(layout[-1])]
    zones = {p: {"pulka": [], "gora": [], "whists": {q: [] for q in names if q != p}} for p in names}
    sheet = {"format": "sheetscan.sheet/1", "variant": "sochi", "players": names, "pulka": 20, "zones": zones}
    return render_sheet(sheet, layout=layout, seed=seed, size=SIZE, **kwargs)


def cyclic_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Worst corner distance, over the 4 cyclic orders (a drawn sheet's upright order is not known yet)."""
    return min(float(np.hypot(*(np.roll(found, k, axis=0) - truth).T).max()) for k in range(4))


def assert_frame_found(rendered: Any, paper: str) -> None:
    """The render is on `paper`, and stage 2 finds its drawn frame, whole, within 0.005 of the
    diagonal (12.5 px; a bent paper and a hand-drawn side's wobbling ends allow no closer)."""
    assert rendered.truth["render"]["paper"] == paper
    found = find_sheet(load_photo(rendered.jpeg()))
    assert found.source == "drawn" and not found.partial
    truth = np.asarray(rendered.truth["corners"], np.float64)
    assert cyclic_error(found.corners, truth) < 0.005 * math.hypot(*SIZE)
