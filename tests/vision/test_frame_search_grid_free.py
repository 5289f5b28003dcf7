"""`_frame_search.find_drawn_frame` on squared paper whose grid hides a paler pencil frame: the search is
made again with the grid divided out (`_grid_flat.grid_free`)."""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_search import find_drawn_frame, fitted
from sheetscan.vision._lines import dark_ratio
from tests.vision._squared_paper import squared_photo


def test_a_pencil_frame_paler_than_the_grid_is_found_with_the_grid_divided_out() -> None:
    image, frame = squared_photo()
    line_width = 3.6
    ratios = {channel: dark_ratio(image, line_width=line_width, channel=channel)
              for channel in ("min", "max")}
    chosen, _ = find_drawn_frame(image, ratios.__getitem__, line_width=line_width)
    # Without the grid divided out no level shows an outline (the grid joins the frame at 0.9, and at
    # 0.78 it breaks up).
    assert chosen is not None
    corners = fitted(chosen, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    error = min(float(np.hypot(*(np.roll(corners, k, axis=0) - frame).T).max()) for k in range(4))
    assert error < 4.0
