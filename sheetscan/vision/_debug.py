"""Debug hooks: hand stage images to a callable or write them into a folder (STYLE.md §7).

Off (None) it costs nothing: callers build their overlay only when `wants(debug)` is true.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2

from sheetscan.vision._arrays import U8

__all__ = ["DebugSink", "emit", "wants"]

DebugSink = Callable[[str, U8], None] | str | Path | None
"""Where stage images go: a callable `(name, BGR image)`, a folder to write `name.png` into, or None."""


def wants(debug: DebugSink) -> bool:
    """True when stage images are wanted (so overlays are worth drawing)."""
    return debug is not None


def emit(debug: DebugSink, name: str, image: U8) -> None:
    """Send one stage image, named like `02_rectified`, to the sink."""
    if debug is None:
        return
    if callable(debug):
        debug(name, image)
        return
    folder = Path(debug)
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.png"), image)
