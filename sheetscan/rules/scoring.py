"""Scoring one deal into sheet entries: pulka points, gora points and whists written on someone.

Sources (../shared/rules/): 004_245209cfcabb2668.txt (the tables «Запись в пульку и в гору», consolation,
greedy and gentleman whist with their worked splits), 003_a371dc90d91a654b.txt (the Code: who answers for
a shortfall when two whist, полвиста, returned whist, the dealer's whist when four play, both passing on 8
and 9, the checked 10),
000_bb055394086558d5.txt (the duties; greedy and gentleman conventions). Behaviour differences between
variants come from `Options` and the variant's `PriceRow`s, never from its name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sheetscan.errors import InvalidInputError, RuleViolationError
from sheetscan.rules._score import DealScore, check_tricks
from sheetscan.rules._score import Entries as _Entries
from sheetscan.rules.cards import Contract, Suit
from sheetscan.rules.game import Deal, DealKind, Defence, GameConfig
from sheetscan.rules.options import ConsolationTo, WhistStyle
from sheetscan.rules.raspasy import score_raspasy
from sheetscan.rules.variants import PriceRow

__all__ = ["DealScore", "check_tricks", "score_deal"]


def _consolation(config: GameConfig, row: PriceRow) -> int:
    """Whists per undertrick each consoling player writes on a declarer who went down."""
    fixed = config.options.consolation
    return row.whist if fixed == "price" else fixed


def _check_defence(deal: Deal, config: GameConfig, contract: Contract,
                   defenders: tuple[str, str]) -> tuple[bool, bool]:
    """Validate what the defenders (and, with four, the dealer) said.

    Returns (checked, dealer whists): whether the 10 is checked rather than whisted, and whether the
    dealer who sat out took the whist (003, the dealer's right when four play)."""
    options = config.options
    said = deal.defence
    four = len(config.players) == 4
    extra = [name for name in said if name not in defenders and not (four and name == deal.dealer)]
    if extra:
        if extra[0] == deal.dealer:
            # With three the dealer declared (a defender-dealer is in `defenders`): only four give him a
            # late whist.
            raise RuleViolationError(
                f"{extra[0]} cannot whist or pass: he dealt and declares; the dealer's late whist exists "
                f"only when four play (003: «При игре вчетвером право вернуть вист принадлежит также и "
                f"сдатчику»)")
        raise RuleViolationError(f"{extra[0]} cannot whist or pass: the defenders of {deal.declarer}'s "
                                 f"{contract} are {defenders[0]} and {defenders[1]}")
    dealer_spoke = four and deal.dealer in said
    checked = options.ten_checked and contract.level == 10
    if checked:
        if dealer_spoke:
            raise RuleViolationError(f"{contract} is checked, not whisted (option ten_checked); the dealer "
                                     f"{deal.dealer} has no whist to take")
        if any(value is not Defence.PASS for value in said.values()):
            raise RuleViolationError(f"{contract} is checked, not whisted (option ten_checked); "
                                     "record no defence, or pass")
        return True, False
    missing = [name for name in defenders if name not in said]
    if missing:
        raise InvalidInputError(f"defence: {missing[0]} said nothing; each defender says whist, pass or half")
    first, second = (said[name] for name in defenders)
    if first is Defence.HALF:
        raise RuleViolationError(f"{defenders[0]} spoke first and cannot say half-whist; only the second "
                                 "defender can, after the first passed")
    if second is Defence.HALF:
        if not options.half_whist:
            raise RuleViolationError("half-whist (полвиста) is not allowed here (option half_whist)")
        if contract.level not in (6, 7):
            raise RuleViolationError(f"half-whist is allowed only on 6 and 7, not on {contract}")
        if first is not Defence.PASS:
            raise RuleViolationError(f"half-whist is said only after the first defender passed, but "
                                     f"{defenders[0]} said {first}")
    both_whist = first is Defence.WHIST and second is Defence.WHIST
    if options.stalingrad and contract == Contract(6, Suit.SPADES) and not both_whist:
        raise RuleViolationError("6♠ must be whisted by both defenders (option stalingrad)")
    if dealer_spoke:
        _check_dealer_whist(deal, contract, defenders)
    return False, dealer_spoke


def _check_dealer_whist(deal: Deal, contract: Contract, defenders: tuple[str, str]) -> None:
    """The dealer who sat out may whist last, once neither defender whisted (four players only).

    003: «При игре вчетвером право вернуть вист принадлежит также и сдатчику … Право это принадлежит
    сдатчику в последнюю очередь, т.е. один говорит «пас», второй говорит «полвиста», первый снова говорит
    «пас» и только тогда спрашивают у сдатчика, не пожелает ли он вистовать» and «На восьмерной и более
    старших играх после двух пасов право завистовать сохраняется только у сдатчика».
    """
    dealer, said = deal.dealer, deal.defence
    if said[dealer] is not Defence.WHIST:
        # Decision: the dealer is written only when he takes the whist, because his silence changes
        # nothing (he has no cards and no duty), and a record then reads exactly as one without him; the
        # engine writes no dealer's pass either.
        raise RuleViolationError(
            f"the dealer {dealer} said {said[dealer]}: the dealer is written in \"defence\" only when he "
            f"whists (003: his right is to whist last); leave his pass out")
    if list(said)[-1] != dealer:
        # Decision: `defence` is in speaking order (FORMATS.md), and 003 gives the dealer the last word.
        raise RuleViolationError(f"the dealer {dealer} speaks last (003: «Право это принадлежит сдатчику в "
                                 f"последнюю очередь»), so he comes after {defenders[0]} and {defenders[1]}")
    whisted = [name for name in defenders if said[name] is Defence.WHIST]
    if whisted:
        raise RuleViolationError(
            f"the dealer {dealer} cannot whist: {whisted[0]} already whisted {deal.declarer}'s {contract}; "
            f"the dealer's whist comes only after both defenders declined (003)")
    # Left: pass-pass on any level, or pass-half on 6 and 7 (`_check_defence` refused полвиста elsewhere).
    # 003 allows pass-half (the first passer then declined to return the whist: «первый снова говорит
    # «пас»») and pass-pass on 8 and up. Decision: pass-pass on 6 and 7 is allowed too, with or without
    # полвиста, because (1) the engine writes a half taken back as "pass" (003: the half-sayer «считается
    # спасовавшим»), so pass-pass-dealer is also the record of 003's own example and the two cannot be
    # told apart; (2) without полвиста 6 and 7 stand as 8 does, where two passes leave the whist to the
    # dealer; (3) 000 «Питер»: «Сдававший может вернуть вист на любой игре». The writing is the same.


def _score_game(deal: Deal, config: GameConfig) -> DealScore:
    assert deal.declarer is not None and deal.contract is not None
    declarer, contract = deal.declarer, deal.contract
    row = config.variant.row(contract)
    active = config.active(deal.dealer)
    if declarer not in active:
        raise RuleViolationError(f"{declarer} dealt and sits out when four play, so cannot declare")
    others = [name for name in active if name != declarer]
    first, second = config.left_of(declarer, others)
    defenders = (first, second)
    checked, dealer_whists = _check_defence(deal, config, contract, defenders)
    whisters = [name for name in defenders if deal.defence.get(name) is Defence.WHIST]
    if dealer_whists:
        whisters = [deal.dealer]
    if deal.play is not None and (len(whisters) != 1 or checked):
        # Decision: the dealer who whisted is the one whister, and his "play" may say open or closed
        # (the engine writes open): it changes no writing (004: «независимо от того, происходил ли
        # розыгрыш в светлую или втемную»).
        raise InvalidInputError("play (open/closed) is recorded only when exactly one player whisted")
    out = _Entries()
    if checked and deal.tricks is None:
        out.pulka[declarer] += row.pulka
        # Decision: a checked 10 counts as whisted for the raspasy exit (a 10 cannot be whisted there,
        # and "Питер" would otherwise never leave raspasy on a 10).
        return out.score(True, True)
    if not whisters and not checked:
        # Nobody whisted: the game counts as made without play (003: on 8 and 9 the declarer is
        # counted with all ten). Tricks may only repeat that.
        if deal.tricks is not None and deal.tricks.get(declarer) != 10:
            raise RuleViolationError(f"nobody whisted {declarer}'s {contract}, so it was not played out; "
                                     "its tricks must be omitted")
        out.pulka[declarer] += row.pulka
        half = [name for name in defenders if deal.defence[name] is Defence.HALF]
        for name in half:
            # 003: the half-whister writes for half of the duty without play.
            out.whists[(name, declarer)] += row.duty // 2 * row.whist
        # Decision: a game with полвиста counts as whisted for the raspasy exit («Невистованная игра» is
        # one nobody whisted at all).
        return out.score(True, bool(half))
    tricks = check_tricks(deal.tricks, active, f"{declarer}'s {contract}")
    taken = tricks[declarer]
    undertricks = max(0, contract.level - taken)
    if undertricks:
        out.gora[declarer] += undertricks * row.undertrick
    else:
        out.pulka[declarer] += row.pulka
    consolation = undertricks * _consolation(config, row)
    if checked:
        # A failed check: both opponents write as whisters without duty (they took no risk).
        for name in defenders:
            out.whists[(name, declarer)] += tricks[name] * row.whist + consolation
    elif dealer_whists:
        _dealer_whist(out, row, config, declarer, deal.dealer, defenders, tricks, consolation)
    elif len(whisters) == 2:
        _two_whisters(out, config, row, declarer, defenders, tricks, consolation)
    else:
        _one_whister(out, config, row, declarer, whisters[0], defenders, tricks, consolation)
    if (consolation and config.options.consolation_to is ConsolationTo.ALL and len(config.players) == 4
            and not dealer_whists):
        # Decision: a dealer who whisted writes his consolation once, as the whister, not a second time as
        # the one who sat out.
        out.whists[(deal.dealer, declarer)] += consolation
    return out.score(undertricks == 0, True)


def _two_whisters(out: _Entries, config: GameConfig, row: PriceRow, declarer: str,
                  defenders: tuple[str, str], tricks: Mapping[str, int], consolation: int) -> None:
    """Both whisted: each writes for himself, whists and shortfall (000, 003)."""
    for name in defenders:
        out.whists[(name, declarer)] += tricks[name] * row.whist + consolation
    short = row.duty - sum(tricks[name] for name in defenders)
    if short <= 0:
        return
    per_trick = row.whister_shortfall(config.options.whist_responsibility)
    if row.duty % 2:
        # 003: «На контрактах 8, 9 и 10 взяток за недобор взятки отвечает второй из последовательно
        # завистовавших.»
        out.gora[defenders[1]] += short * per_trick
        return
    # 003: «материальную ответственность несёт (пишет в гору) каждый, кто набрал меньше половины
    # обязательного количества взяток.»
    # Decision: each answers for the tricks he is short of his half, but together they never answer for
    # more than the pair's shortfall, because the Code fines the missing tricks («недобор»); when both are
    # short of their halves the two shares add up to the shortfall exactly.
    half = row.duty // 2
    for name in defenders:
        own = min(max(0, half - tricks[name]), short)
        out.gora[name] += own * per_trick


def _one_whister(out: _Entries, config: GameConfig, row: PriceRow, declarer: str, whister: str,
                 defenders: tuple[str, str], tricks: Mapping[str, int], consolation: int) -> None:
    """One whisted, one passed. Every defending trick is the whister's (003: «все взятки с его руки
    принадлежат вистующему»); open or closed play does not change the writing (004: «независимо от того,
    происходил ли розыгрыш в светлую или втемную»)."""
    passer = defenders[1] if whister == defenders[0] else defenders[0]
    team = tricks[whister] + tricks[passer]
    for_tricks = team * row.whist
    if not consolation:
        out.whists[(whister, declarer)] += for_tricks
    else:
        _SPLITS[config.options.whist_style](out, declarer, whister, passer, for_tricks, consolation)
    short = row.duty - team
    if short > 0:
        out.gora[whister] += short * row.whister_shortfall(config.options.whist_responsibility)


def _dealer_whist(out: _Entries, row: PriceRow, config: GameConfig, declarer: str, dealer: str,
                  defenders: tuple[str, str], tricks: Mapping[str, int], consolation: int) -> None:
    """The dealer who sat out took the whist (four players): he is the lone whister of both hands.

    003: the dealer's right is to «вернуть вист»; whoever returns the whist whists alone, and «все взятки с
    его руки принадлежат вистующему»: the dealer plays the two defenders' hands, so every defending trick is
    his and so is the whole duty. A half said before is void (003: the half-sayer «теряет право вистовать и
    считается спасовавшим»), so both defenders are passers.
    """
    team = tricks[defenders[0]] + tricks[defenders[1]]
    out.whists[(dealer, declarer)] += team * row.whist + consolation
    # Decision: the passers write only their consolation, in every whist style. 004's gentleman halving is
    # «когда вистовал один, а другой пасовал»: a bargain between the two defenders, one whisting and one
    # passing. Here both defenders declined and the dealer, who holds no cards, alone took the risk; the
    # rule names no share for a third party, and equal thirds are often not whole whists (Leningrad 7 down
    # one: 4×8 + 3×8 = 56). 000's gentleman list points the same way: there a defender who declined
    # («уходивший за полвиста») and saw the whist returned «вистов при ремизе разыгрывающего не пишет».
    # Each passer keeps his consolation, because 003 makes the half-sayer «спасовавшим» and every passer
    # writes it (004).
    for name in defenders:
        out.whists[(name, declarer)] += consolation
    short = row.duty - team
    if short > 0:
        # 003 «Ответственный вист» / «Полуответственный вист»: the variant's responsibility, as for any
        # lone whister.
        out.gora[dealer] += short * row.whister_shortfall(config.options.whist_responsibility)


def _greedy(out: _Entries, declarer: str, whister: str, passer: str, for_tricks: int,
            consolation: int) -> None:
    # 004 «Сочинка»: «висты пишет только вистовавший защитник, а пасовавший игрок пишет только консоляцию».
    out.whists[(whister, declarer)] += for_tricks + consolation
    out.whists[(passer, declarer)] += consolation


def _gentleman(out: _Entries, declarer: str, whister: str, passer: str, for_tricks: int,
               consolation: int) -> None:
    # 004 «Ростовка»: «вистовавший и пасовавший защитники пишут все висты пополам: и консоляцию, и висты за
    # фактическое количество взяток» — (5*2 + 1*10 + 1*10)/2 = 15 each.
    pool = for_tricks + 2 * consolation
    if pool % 2:
        raise RuleViolationError(f"gentleman whist: {pool} whists cannot be split in halves")
    out.whists[(whister, declarer)] += pool // 2
    out.whists[(passer, declarer)] += pool // 2


_SPLITS: dict[WhistStyle, Callable[[_Entries, str, str, str, int, int], None]] = {
    WhistStyle.GREEDY: _greedy,
    WhistStyle.GENTLEMAN: _gentleman,
}


def _score_misere(deal: Deal, config: GameConfig) -> DealScore:
    assert deal.declarer is not None and deal.contract is not None
    declarer = deal.declarer
    active = config.active(deal.dealer)
    if declarer not in active:
        raise RuleViolationError(f"{declarer} dealt and sits out when four play, so cannot declare")
    if deal.tricks is None:
        raise InvalidInputError(f"{declarer}'s misère needs \"tricks\" (at least the declarer's)")
    if set(deal.tricks) != {declarer}:
        check_tricks(deal.tricks, active, f"{declarer}'s misère")
    row = config.variant.row(deal.contract)
    out = _Entries()
    taken = deal.tricks[declarer]
    if taken:
        # 004 tables, «Мизер … Недобранная взятка на игре»: the price per trick taken; no whists.
        out.gora[declarer] += taken * row.undertrick
    else:
        out.pulka[declarer] += row.pulka
    return out.score(taken == 0, True)


def score_deal(deal: Deal, config: GameConfig, *, raspasy_index: int = 0) -> DealScore:
    """The sheet entries of one deal under `config`'s variant and options.

    `raspasy_index` is how many raspasy of the current run came before this one (0 for the first); it
    picks the progression's price. Raises `RuleViolationError` for a deal the rules do not allow and
    `InvalidInputError` for one that is incomplete.
    """
    if deal.dealer not in config.players:
        raise InvalidInputError(f"dealer {deal.dealer!r} is not a player ({', '.join(config.players)})")
    if deal.kind is DealKind.RASPASY:
        return score_raspasy(deal, config, raspasy_index)
    if deal.declarer not in config.players or deal.contract is None:
        raise InvalidInputError("a game or misère needs a declarer who is a player and a contract")
    if deal.kind is DealKind.MISERE:
        return _score_misere(deal, config)
    if deal.contract.is_misere:
        raise InvalidInputError("kind game needs a contract 6s … 10nt, not the misère")
    return _score_game(deal, config)
