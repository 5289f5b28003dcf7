"""Stage 3: a near tie between the layouts' spoke costs is settled by the whist splits, but not where a
whist band is crossed by many lines (the paper's printed grid), which the spoke cost alone then decides
(`_layout_choice.choose_layout`; measured lines built by hand, in rectified pixels).

The rendered case behind it: bench_styles seed 33000, photo 1, squared paper, a standard-3 sheet read
as a standard-4 one in six styles (its spokes 0.2 apart in cost; 9, 4, 0 and 9 lines across its bands).
"""

from __future__ import annotations

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import Measured

_SIDES = ("left", "top", "right", "bottom")
_FRAME = (50.0, 50.0, 1950.0, 1482.0)
_PULKA = (300.0, 300.0, 1700.0, 1232.0)
_GORA = (500.0, 480.0, 1500.0, 1052.0)


def _measured(whist_splits: dict[str, tuple[float, ...]]) -> Measured:
    """A standard-3 sheet upright (its mid spoke across the top band, spokes at the bottom corners) whose
    top corners show 0.7 of a diagonal (grid lines near them): the standard-3 layout costs 0.2 less than
    the standard-4 one, a near tie."""
    return Measured(
        frame=_FRAME,
        drawn_frame=_FRAME,
        pulka_rect=dict(zip(_SIDES, _PULKA, strict=True)),
        gora_rect=dict(zip(_SIDES, _GORA, strict=True)),
        circle=None,
        mid_spoke={"left": 0.0, "top": 1.0, "right": 0.0, "bottom": 0.0},
        mid_spoke_at={"left": 766.0, "top": 1000.0, "right": 766.0, "bottom": 1000.0},
        corner_spoke={"TL": 0.7, "TR": 0.7, "BR": 1.0, "BL": 1.0},
        whist_splits=whist_splits,
    )


def test_two_splits_across_every_band_settle_a_near_tie_for_standard_4() -> None:
    # Two lines across each band are a standard-4 sheet's splits: they settle the tie.
    splits = {"left": (600.0, 900.0), "top": (700.0, 1300.0), "right": (600.0, 900.0),
              "bottom": (700.0, 1300.0)}
    layout, _, _, _ = choose_layout(_measured(splits), None)
    assert layout.name == "standard-4"


def test_a_band_crossed_by_a_grid_leaves_the_tie_to_the_spokes() -> None:
    # The same sheet on squared paper: the grid's lines cross the left band every 48 px (eight seen),
    # and two or more lines cross every band as a standard-4 sheet's splits would. The spokes decide.
    splits = {"left": tuple(340.0 + 48.0 * i for i in range(8)), "top": (700.0, 1000.0, 1300.0),
              "right": (600.0, 900.0), "bottom": (700.0, 1300.0)}
    layout, k, _, _ = choose_layout(_measured(splits), None)
    assert layout.name == "standard-3" and k == 0
