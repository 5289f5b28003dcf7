"""Raspasy (all passed): scoring a raspasy deal and keeping count of a run of them.

Sources (../shared/rules/): 000_bb055394086558d5.txt «Правила розыгрыша распасовки» (gora in Sochi and
Leningrad, whists in Rostov: 5 per trick, one point to the pulka for no tricks, ties share; arithmetic and
geometric progressions); 004_245209cfcabb2668.txt (Sochi 1-2-3, Leningrad 2-4-6, the Rostov examples
«Примеры записи за распасовку в московской пульке», four players: the talon is the dealer's in Sochi and
Leningrad, and the Rostov dealer writes one to the pulka «как за ноль взяток»); 000 «Питер» (2/4/6/6/6,
exit on a 7; a failed or unwhisted game is no exit).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sheetscan.errors import RuleViolationError
from sheetscan.rules._score import DealScore, Entries, check_tricks
from sheetscan.rules.game import Deal, DealKind, GameConfig
from sheetscan.rules.options import RaspasyScoring, RaspasyZero

__all__ = ["MISERE_EXIT_LEVEL", "next_raspasy_run", "raspasy_price", "score_raspasy"]

MISERE_EXIT_LEVEL = 8
"""The level a misère counts as when checking whether it ends a run of raspasy.

Decision: the misère ranks between 8 no-trump and 9♠ (000), so it ends a run whose exit is 6, 7 or 8,
and not one that needs a 9 or 10.
"""


def raspasy_price(config: GameConfig, index: int) -> int:
    """The price of a trick on the raspasy that has `index` raspasy of the same run before it."""
    progression = config.options.raspasy_progression
    return progression[min(index, len(progression) - 1)]


def _players(deal: Deal, config: GameConfig) -> tuple[tuple[str, ...], Mapping[str, int]]:
    """The players scored on this raspasy and their tricks (the four-handed dealer with 0 if absent)."""
    active = config.active(deal.dealer)
    tricks = dict(deal.tricks or {})
    if len(config.players) == 4:
        # Decision: with four, the dealer is scored like a player who took the talon's tricks (004 Sochi,
        # Leningrad: «карты прикупа принадлежат сдатчику, который пишет и в гору, и в пулю на общих
        # основаниях»; Rostov: «сдатчик пишет единицу в пульку как за ноль взяток»). Listing him is
        # optional; unlisted he took none.
        with_dealer = tuple(name for name in config.players if name in active or name == deal.dealer)
        if deal.dealer in tricks:
            check_tricks(tricks, with_dealer, "raspasy")
        else:
            check_tricks(tricks, active, "raspasy")
            tricks[deal.dealer] = 0
        return with_dealer, tricks
    check_tricks(tricks, active, "raspasy")
    return active, tricks


def score_raspasy(deal: Deal, config: GameConfig, index: int = 0) -> DealScore:
    """The entries of a raspasy deal that has `index` raspasy of the same run before it."""
    players, tricks = _players(deal, config)
    price = raspasy_price(config, index)
    out = Entries()
    if config.options.raspasy_zero is RaspasyZero.PULKA:
        for name in players:
            if tricks[name] == 0:
                out.pulka[name] += price
    _SCORING[config.options.raspasy_scoring](out, deal, config, players, tricks, price)
    return out.score(None, False)


def _to_gora(out: Entries, deal: Deal, config: GameConfig, players: tuple[str, ...],
             tricks: Mapping[str, int], price: int) -> None:
    # 000: «за каждую взятку, взятую на распасовке, игрок пишет определённое количество очков в гору».
    for name in players:
        out.gora[name] += tricks[name] * price


def _to_whists(out: Entries, deal: Deal, config: GameConfig, players: tuple[str, ...],
               tricks: Mapping[str, int], price: int) -> None:
    # 004 «Ростовка»: the one who took fewest writes whists on the others for each of their tricks;
    # two with the same fewest share what the third lost, half each.
    if len(config.players) == 4:
        if tricks.get(deal.dealer, 0):
            raise RuleViolationError(
                f"raspasy paid in whists: the dealer {deal.dealer} sits out and takes no tricks")
        # The dealer only writes his point for no tricks; he neither wins nor pays.
        players = tuple(name for name in players if name != deal.dealer)
    per_trick = price * config.options.raspasy_whists_per_trick
    fewest = min(tricks[name] for name in players)
    winners = [name for name in players if tricks[name] == fewest]
    losers = [name for name in players if tricks[name] != fewest]
    for loser in losers:
        lost = tricks[loser] * per_trick
        if lost % len(winners):
            raise RuleViolationError(f"raspasy: {lost} whists on {loser} cannot be shared by {len(winners)}")
        for winner in winners:
            out.whists[(winner, loser)] += lost // len(winners)


_SCORING: dict[RaspasyScoring, Callable[[Entries, Deal, GameConfig, tuple[str, ...], Mapping[str, int], int],
                                        None]] = {
    RaspasyScoring.GORA: _to_gora,
    RaspasyScoring.WHISTS: _to_whists,
}


def next_raspasy_run(run: int, deal: Deal, score: DealScore, config: GameConfig) -> int:
    """How many raspasy the current run holds after `deal` (0 once a contract has ended the run).

    A raspasy lengthens the run. A game or misère ends it when its level reaches `raspasy_exit` for the
    run's length (and, where the variant says so, only when it was made and whisted).
    """
    if deal.kind is DealKind.RASPASY:
        return run + 1
    if run == 0 or deal.contract is None:
        return run
    exits = config.options.raspasy_exit
    needed = exits[min(run - 1, len(exits) - 1)]
    level = MISERE_EXIT_LEVEL if deal.contract.is_misere else deal.contract.level
    if level < needed:
        return run
    if config.variant.exit_needs_made and not score.made:
        return run
    if config.variant.exit_needs_whist and not score.whisted:
        return run
    return 0
