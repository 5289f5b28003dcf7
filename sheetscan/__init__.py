"""sheetscan: turn a photo of a hand-written Preferans scoresheet into checked numbers and a settlement.

The public API is what `__all__` names; everything else may change.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
