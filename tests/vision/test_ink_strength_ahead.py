"""Speed (issue 5), session 8: the ink's strength measured ahead (in a second thread while the zone stage
traces the lines) gives the very ink `find_ink` finds by itself."""

from __future__ import annotations

import numpy as np
import pytest

from sheetscan.vision.ink import find_ink, ink_strength
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import find_sheet
from sheetscan.vision.zones import locate_zones


@pytest.mark.slow
def test_ink_measured_ahead_is_the_same(repo_root) -> None:  # type: ignore[no-untyped-def]
    photo = load_photo(repo_root / "samples" / "photo-rostov-3p-hand.jpg")
    seen: list[np.ndarray] = []
    zones = locate_zones(find_sheet(photo), on_upright=seen.append)
    assert len(seen) == 1 and seen[0] is zones.image  # called once, with the very image the zones hold
    alone = find_ink(zones.image, line_mask=zones.line_mask)
    ahead = find_ink(zones.image, line_mask=zones.line_mask, prepared=ink_strength(zones.image))
    assert alone.mask.tobytes() == ahead.mask.tobytes()
    assert alone.strength.tobytes() == ahead.strength.tobytes()
    assert alone.stroke_width == ahead.stroke_width
    assert np.count_nonzero(alone.mask) > 1000  # a sheet with writing on it, not an empty comparison
