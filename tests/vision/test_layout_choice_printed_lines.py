"""Stage 3: a near tie between the layouts' spoke costs is settled by the whist splits, but not where a
whist band is crossed by the paper's printed lines (five or more at one pitch), which the spoke cost alone
then decides; lines of writing across a band, at no one pitch, leave the tie to the splits
(`_layout_choice.choose_layout`; measured lines built by hand, in rectified pixels).

The rendered cases behind it: bench_styles seed 33000, thin, photo 1 (squared paper, a standard-3 sheet
read as a standard-4 one: the grid's lines across its left band 42-49 px apart or twice that), and seed
35000, thick, photo 1 (plain paper's writing across the top and bottom bands at 850, 1013, 1142, 1180
and 1717 px, a standard-3 sheet that the splits read right).
"""

from __future__ import annotations

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import Measured

_SIDES = ("left", "top", "right", "bottom")
_FRAME = (50.0, 50.0, 1950.0, 1482.0)
_PULKA = (300.0, 300.0, 1700.0, 1232.0)
_GORA = (500.0, 480.0, 1500.0, 1052.0)


def _measured(whist_splits: dict[str, tuple[float, ...]], top_corners: float) -> Measured:
    """A standard-3 sheet upright (its mid spoke across the top band, spokes at the bottom corners) whose
    top corners show `top_corners` of a diagonal (lines near them): at 0.7 the standard-3 layout costs
    0.2 less than the standard-4 one, at 0.8 0.2 more; a near tie either way."""
    return Measured(
        frame=_FRAME,
        drawn_frame=_FRAME,
        pulka_rect=dict(zip(_SIDES, _PULKA, strict=True)),
        gora_rect=dict(zip(_SIDES, _GORA, strict=True)),
        circle=None,
        mid_spoke={"left": 0.0, "top": 1.0, "right": 0.0, "bottom": 0.0},
        mid_spoke_at={"left": 766.0, "top": 1000.0, "right": 766.0, "bottom": 1000.0},
        corner_spoke={"TL": top_corners, "TR": top_corners, "BR": 1.0, "BL": 1.0},
        whist_splits=whist_splits,
    )


def test_two_splits_across_every_band_settle_a_near_tie_for_standard_4() -> None:
    # Two lines across each band are a standard-4 sheet's splits: they settle the tie.
    splits = {"left": (600.0, 900.0), "top": (700.0, 1300.0), "right": (600.0, 900.0),
              "bottom": (700.0, 1300.0)}
    layout, _, _, _ = choose_layout(_measured(splits, 0.7), None)
    assert layout.name == "standard-4"


def test_a_band_crossed_by_a_printed_grid_leaves_the_tie_to_the_spokes() -> None:
    # The same sheet on squared paper: the grid's lines cross the left band every 48 px (two of them
    # hidden, so two gaps are twice that), and two or more lines cross every band as a standard-4
    # sheet's splits would. The spokes decide.
    grid = (340.0, 388.0, 484.0, 532.0, 580.0, 676.0, 724.0, 772.0)
    splits = {"left": grid, "top": (700.0, 1000.0, 1300.0), "right": (600.0, 900.0),
              "bottom": (700.0, 1300.0)}
    layout, k, _, _ = choose_layout(_measured(splits, 0.7), None)
    assert layout.name == "standard-3" and k == 0


def test_writing_across_the_bands_at_no_one_pitch_leaves_the_tie_to_the_splits() -> None:
    # Thick writing crosses the top and bottom bands five times each at irregular places; the spokes
    # slightly prefer standard-4, the splits (lines across the top and bottom bands only) standard-3.
    writing = (850.0, 1013.0, 1142.0, 1180.0, 1717.0)
    splits = {"left": (), "top": writing, "right": (), "bottom": (825.0, 997.0, 1068.0, 1118.0, 1694.0)}
    layout, k, _, _ = choose_layout(_measured(splits, 0.8), None)
    assert layout.name == "standard-3" and k == 0
