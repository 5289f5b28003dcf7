"""Closing the pulka: help («помощь») with points beyond the target, and when the game is over.

Source: ../shared/rules/004_245209cfcabb2668.txt, «Сочинка» and «Ростовка», «окончание пульки»: «Игрок,
закрывший пульку, «помогает» тому, у кого запись в пульке наибольшая (если у двух противников запись в
пульке одинакова, то «помогают» тому, кто сидит слева). Сыграв, например, шестерную, он пишет два очка в
пульку противнику, а на него – в виде компенсации – висты в десятикратном размере»; «Ленинградка»: the
game ends when the pulkas' sum reaches target × players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from sheetscan.rules.game import GameConfig
from sheetscan.rules.options import PulkaClose

__all__ = ["PulkaWrite", "game_over", "write_pulka"]


class PulkaWrite:
    """Where one player's pulka points end up: his own pulka, others' pulkas, whists for the help."""

    def __init__(self) -> None:
        self.pulka: Counter[str] = Counter()
        """Points added to each player's pulka."""
        self.whists: Counter[tuple[str, str]] = Counter()
        """Whists the helper writes on each helped player, keyed (helper, helped)."""


def write_pulka(totals: Mapping[str, int], player: str, points: int, config: GameConfig,
                into: PulkaWrite | None = None) -> PulkaWrite:
    """Write `points` to `player`'s pulka, helping others with what goes beyond the target.

    `totals` are the pulkas before this write (plus what `into` already holds). With `help` on and each
    pulka closed on its own, points beyond the target go to the unclosed player with the highest pulka
    (ties: the nearest to the writer's left), at most what he needs to close, for `pulka_point_whists`
    whists a point written on him; then to the next one.
    """
    out = into if into is not None else PulkaWrite()
    options = config.options
    target = config.pulka

    def now(name: str) -> int:
        return totals.get(name, 0) + out.pulka[name]

    if not options.help or options.pulka_close is not PulkaClose.EACH:
        out.pulka[player] += points
        return out
    own = min(points, max(0, target - now(player)))
    out.pulka[player] += own
    rest = points - own
    while rest > 0:
        # Seat order from the writer's left gives the tie-break «тому, кто сидит слева».
        candidates = [name for name in config.left_of(player, config.players) if name != player
                      and now(name) < target]
        if not candidates:
            # Decision: nobody is left to help, so the points stay in the writer's own pulka; settlement
            # then writes the excess off his gora like any pulka beyond the target.
            out.pulka[player] += rest
            break
        helped = max(candidates, key=lambda name: now(name))  # max keeps the first of equals
        given = min(rest, target - now(helped))
        out.pulka[helped] += given
        out.whists[(player, helped)] += given * options.pulka_point_whists
        rest -= given
    return out


def game_over(totals: Mapping[str, int], config: GameConfig) -> bool:
    """Whether the pulka is closed: every pulka at the target, or their sum at target × players."""
    if config.options.pulka_close is PulkaClose.EACH:
        return all(totals.get(name, 0) >= config.pulka for name in config.players)
    return sum(totals.get(name, 0) for name in config.players) >= config.pulka * len(config.players)
