"""Scenario tests: each rule of the engine on a hand-set deal, citing the document that states it.

Documents are ../shared/rules/ (000 = basics and «Питер», 002 = online Rostov, 003 = the Code, 004 = the
variants). Seats: dealer 0, so seat 1 is the first hand, seat 2 the second, seat 0 the third (3 players).
"""

from __future__ import annotations

import pytest

from sheetscan.engine import Conventions, DealState, IllegalMove, InvalidMove, Outcome, Phase, deal_json
from sheetscan.engine._bits import parse_hand
from sheetscan.errors import InvalidInputError, RuleViolationError
from sheetscan.rules import MISERE, Defence, Play, parse_card, read_game, replay

# A hand-set deal: the first hand (seat 1) holds no heart and no diamond, seat 2 the top hearts and the
# only high diamond, seat 0 the rest; the talon is 7♥ (top) and 8♦.
HANDS_3 = ("JhTh9h8hKdQdJdTd9d7d", "AsKsQsJsTs9s8s7sAcKc", "AhKhQhQcJcTc9c8c7cAd")
TALON = "7h8d"


def make(conv: Conventions, hands: tuple[str, ...] = HANDS_3, dealer: int = 0) -> DealState:
    masks = [parse_hand(h) for h in hands]
    t0, t1 = (parse_card(TALON[:2]), parse_card(TALON[2:]))
    return DealState(masks, (int(t0.suit) * 8 + t0.rank - 7, int(t1.suit) * 8 + t1.rank - 7), dealer, conv)


def calls(state: DealState) -> set[str]:
    return {str(c) for c in state.legal_calls()}


def play(state: DealState, *tokens: str) -> DealState:
    for token in tokens:
        state.push(token)
    return state


SOCHI = Conventions.for_variant("sochi")


# --- auction -------------------------------------------------------------------------------------------

def test_bids_go_up_the_ladder_one_step_at_a_time() -> None:
    # 000 «Правила торговли в преферансе»: «Начинать торговлю можно с назначения не менее, чем шести
    # взяток» and «Назначения … нужно делать последовательно, не прыгая … через ступеньки».
    state = make(SOCHI)
    assert calls(state) == {"pass", "6s", "misere"}
    state.push("6s")
    assert calls(state) == {"pass", "6c", "misere"}
    with pytest.raises(IllegalMove, match="may not call 7s"):
        state.push("7s")
    jumps = make(Conventions.for_variant("sochi", jump_bids=True))
    jumps.push("6s")
    assert "10nt" in calls(jumps) and "7s" in calls(jumps)


def test_here_by_the_earlier_hand_when_two_remain() -> None:
    # 000 «Правила торговли»: «Он открывает торговлю заявкой «пики». Следующий игрок пасует, а третий
    # говорит «трефы». Первому игроку лучше сказать «трефы здесь» … (если противник скажет «бубны»)
    # сказать «бубны здесь»»; 003 «Торговля за прикуп»: with two left the earlier hand may hold.
    state = play(make(SOCHI), "6s", "pass", "6c")
    assert state.turn == 1 and "here" in calls(state)
    state.push("here")
    assert state.turn == 0 and "here" not in calls(state)  # the later hand must go up
    state.push("6d")
    assert "here" in calls(state)
    state.push("here")
    state.push("pass")
    assert state.phase is Phase.DISCARD and state.declarer == 1
    assert state.moves == ("6s", "pass", "6c", "here", "6d", "here", "pass")


def test_here_passes_to_the_other_when_not_used_at_once() -> None:
    # 003 «Торговля за прикуп»: «Если он это право при первой же возможности не использовал, то сказать
    # «здесь» может второй игрок» («Игрок З … мог сказать «здесь», но этого не сделал, поэтому «здесь»
    # сказал игрок Ю»).
    state = play(make(SOCHI), "6s", "pass", "6c", "6d")  # the first hand raised instead of «здесь»
    assert state.turn == 0 and "here" in calls(state)
    state.push("here")
    assert "here" not in calls(state)
    state.push("6h")
    assert "here" in calls(state)  # the right stays with the second player


def test_no_here_while_three_bid() -> None:
    # 003: «Когда в торговле остаётся двое» — not before.
    state = play(make(SOCHI), "6s")
    assert "here" not in calls(state)
    with pytest.raises(IllegalMove):
        state.push("here")


def test_kabal_misere_only_as_a_first_call() -> None:
    # 000 «Мизер кабальный»: «Желающий играть мизер должен объявить об этом своей первой заявкой. Если
    # игрок успел сделать любую другую заявку, он теряет право заказать мизер.»
    state = play(make(SOCHI), "6s", "6c", "6d")
    assert state.turn == 1 and "misere" not in calls(state)
    with pytest.raises(IllegalMove):
        state.push("misere")
    state.push("6h")
    assert state.turn == 2 and "misere" not in calls(state)  # seat 2 bid 6c
    state.push("pass")
    assert "misere" not in calls(state)  # seat 0 bid 6d
    assert "misere" in calls(play(make(SOCHI), "6s", "pass"))  # seat 0 has not bid yet


def test_misere_is_overcalled_only_by_nine() -> None:
    # 000 «Правила розыгрыша мизера»: «Если один из игроков заказал мизер, перебить это назначение может
    # только девятерная игра»; 003: «если был объявлен мизер, то после него нельзя объявить игру на взятки»
    # (by the misère's caller).
    state = play(make(SOCHI), "misere")
    assert calls(state) == {"pass", "9s"}
    jumps = play(make(Conventions.for_variant("sochi", jump_bids=True)), "misere")
    assert calls(jumps) == {"pass", "9s", "9c", "9d", "9h", "9nt", "10s", "10c", "10d", "10h", "10nt"}
    state.push("9s")
    state.push("pass")
    assert state.turn == 1 and calls(state) == {"pass"}  # the misère caller cannot bid a trick game
    state.push("pass")
    assert state.phase is Phase.DISCARD and state.declarer == 2


def test_three_passes_make_raspasy_and_a_lone_bid_wins() -> None:
    # 003: «Торговля прекращается, когда два игрока из трёх спасовали»; «В случае если все три игрока
    # сказали «пас» … «распасы»».
    assert play(make(SOCHI), "pass", "pass", "pass").phase is Phase.PLAY
    state = play(make(SOCHI), "pass", "pass")
    assert state.phase is Phase.AUCTION and state.turn == 0  # the third hand still speaks
    state.push("6s")
    assert state.phase is Phase.DISCARD and state.declarer == 0


# --- talon and declaration -------------------------------------------------------------------------------

def won_by_first_hand(conv: Conventions, bid: str = "6s") -> DealState:
    return play(make(conv), bid, "pass", "pass")


def test_declarer_takes_the_talon_discards_two_and_declares_not_below_the_bid() -> None:
    # 003 «Назначение игры»: «Смешив карты прикупа со своими, игрок должен снести любые 2 … назначить
    # окончательную игру, равную либо превосходящую по рангу объявление»; 000: a lower declaration «партнёры
    # должны указать ему на недопустимость».
    state = play(make(SOCHI), "6s", "6c", "pass", "6d", "pass")
    assert state.hands[1].bit_count() == 12 and [str(c) for c in state.shown_talon()] == ["7h", "8d"]
    assert len(list(state.legal_discards())) == 66
    with pytest.raises(IllegalMove):
        state.push("AhKh")  # not his cards
    state.push("7h8d")
    contracts = [str(c) for c in state.legal_contracts()]
    assert contracts[0] == "6d" and "misere" not in contracts and "6c" not in contracts
    with pytest.raises(IllegalMove, match="6d or higher"):
        state.push("6s")
    with pytest.raises(InvalidMove):
        state.push("6x")
    state.push("7s")
    assert state.phase is Phase.DEFENCE and state.turn == 2


def test_a_misere_stays_a_misere_and_is_not_whisted() -> None:
    # 003: «Если прикуп был взят на мизер, то игрок обязан играть мизер»; «мизер не вистуется».
    state = play(make(SOCHI), "misere", "pass", "pass", "7h8d")
    assert list(state.legal_contracts()) == [MISERE]
    state.push("misere")
    assert state.phase is Phase.PLAY


# --- defence ---------------------------------------------------------------------------------------------

def declared(conv: Conventions, contract: str) -> DealState:
    return play(won_by_first_hand(conv), "7h8d", contract)


def test_whisting_order_from_the_declarers_left_and_both_pass() -> None:
    # 003 «Вистование»: «Первым «вист» или «пас» объявляет игрок, находящийся слева от разыгрывающего»;
    # «В случае если на восьмерной и девятерной пасуют оба игрока, розыгрыш не производится.»
    state = declared(SOCHI, "8s")
    assert state.defenders == (2, 0) and state.turn == 2
    play(state, "pass", "pass")
    outcome = state.outcome()
    assert state.phase is Phase.OVER and outcome is not None and outcome.tricks is None
    entry = deal_json(state, ("Anna", "Boris", "Vera"))
    record = read_game({"format": "sheetscan.game/1", "variant": "sochi",
                        "players": ["Anna", "Boris", "Vera"], "pulka": 20, "deals": [entry]})
    # 000 price table: 8 = 6 to the pulka of the declarer (Boris, seat 1).
    assert replay(record).zones["Boris"].pulka == (6,)


def test_half_whist_and_return_whist() -> None:
    # 003 «Вистование»: «Если на шестерной либо семерной игре сидящий по левую руку от разыгрывающего
    # говорит «пас», то второй игрок … может «уйти за полвиста» … Ранее пасовавший может … возвратить
    # вист … игрок, пытавшийся уйти «за свои», теряет право вистовать и считается спасовавшим».
    conv = Conventions.for_variant("leningrad")
    state = declared(conv, "6s")
    state.push("pass")
    assert set(state.legal_defence()) == {Defence.WHIST, Defence.PASS, Defence.HALF}
    state.push("half")
    assert state.turn == 2 and set(state.legal_defence()) == {Defence.WHIST, Defence.PASS}
    state.push("whist")  # the return whist
    assert state.phase is Phase.CHOOSE_PLAY and state.turn == 2
    state.push("closed")
    outcome = state.outcome() or play_out(state)
    assert dict(outcome.defence) == {2: Defence.WHIST, 0: Defence.PASS}
    assert outcome.play is Play.CLOSED

    settled = play(declared(conv, "6s"), "pass", "half", "pass")
    assert settled.phase is Phase.OVER
    entry = deal_json(settled, ("Anna", "Boris", "Vera"))
    assert entry["defence"] == {"Vera": "pass", "Anna": "half"} and "tricks" not in entry
    record = read_game({"format": "sheetscan.game/1", "variant": "leningrad",
                        "players": ["Anna", "Boris", "Vera"], "pulka": 20, "deals": [entry]})
    # Half the duty of a 6 (4 → 2 tricks) at Leningrad's whist price for a 6 (004 table: 4) = 8 whists.
    assert replay(record).zones["Anna"].whists["Boris"] == (8,)


def test_no_half_whist_on_eight_or_without_the_option() -> None:
    # 003: «на восьмерной и девятерной за полвиста уйти нельзя».
    assert Defence.HALF not in set(play(declared(Conventions.for_variant("leningrad"), "8s"), "pass")
                                   .legal_defence())
    assert Defence.HALF not in set(play(declared(SOCHI, "6s"), "pass").legal_defence())


def test_stalingrad_six_spades_must_be_whisted() -> None:
    # 002 «Сталинград - если игроком был заказан контракт 6♠, то все остальные автоматически вистуют».
    conv = Conventions.for_variant("sochi", options={"stalingrad": True})
    state = declared(conv, "6s")
    assert list(state.legal_defence()) == [Defence.WHIST]
    with pytest.raises(IllegalMove, match="may say whist"):
        state.push("pass")
    play(state, "whist", "whist")
    assert state.phase is Phase.PLAY and state.play_mode is None  # two whisters play closed (003)
    assert set(declared(conv, "6c").legal_defence()) == {Defence.WHIST, Defence.PASS}


def test_checked_ten_is_not_whisted() -> None:
    # 003 «Вистование»: «Десятерная игра не вистуется, а проверяется».
    state = declared(Conventions.for_variant("piter"), "10s")
    assert state.phase is Phase.OVER
    outcome = state.outcome()
    assert outcome is not None and outcome.defence == () and outcome.tricks is None


def test_lone_whister_chooses_open_play_and_plays_both_hands() -> None:
    # 003 «Розыгрыш»: «Если же вистовал только один игрок, то игра на его выбор может осуществляться как
    # втёмную … так и всветлую … все ходы со своей руки и с руки спасовавшего игрока он делает сам»; the
    # Code's comment: open cards «уже перед его первым ходом».
    state = play(declared(SOCHI, "6s"), "pass", "whist")
    assert state.phase is Phase.CHOOSE_PLAY and state.turn == 0
    state.push("open")
    assert state.open_seats() == (2, 0) and state.controller(2) == 0 and state.controller(1) == 1
    closed_only = play(declared(Conventions.for_variant("sochi", open_whist=False), "6s"), "pass", "whist")
    assert list(closed_only.legal_plays()) == [Play.CLOSED]
    with pytest.raises(IllegalMove, match="open_whist"):
        closed_only.push("open")


def test_rostov_open_whist_opens_after_the_declarers_first_lead() -> None:
    # 002: «В случае открытой игры если первый ход принадлежит первой руке, то карты вистующего и пасующего
    # открываются только после первого хода игрока, в противном случае карты открываются сразу.»
    state = play(declared(Conventions.for_variant("rostov"), "6s"), "pass", "whist", "open")
    assert state.turn == state.declarer == 1 and state.open_seats() == ()
    state.push("Ac")
    assert state.open_seats() == (2, 0)


def test_misere_cards_open_after_the_declarers_first_lead() -> None:
    # 000 «Правила розыгрыша мизера»: «Если ход принадлежит разыгрывающему, он должен сделать его до того,
    # как противники «лягут» … Если первый ход принадлежит вистующим, они открывают карты до первого хода.»
    state = play(make(SOCHI), "misere", "pass", "pass", "7h8d", "misere")
    assert state.turn == 1 and state.open_seats() == ()
    state.push("7s")
    assert state.open_seats() == (2, 0)
    defender_leads = play(make(SOCHI), "pass", "misere", "pass", "Ah8d", "misere")
    assert defender_leads.declarer == 2 and defender_leads.open_seats() == (0, 1)


# --- play ------------------------------------------------------------------------------------------------

def test_follow_suit_else_trump_else_any() -> None:
    # 000 «Взятка»: «На ход в масть каждый игрок обязан класть карту той же масти. Если карт этой масти нет,
    # игрок обязан бить козырем. И если только у него нет ни масти хода, ни козырей, он может положить
    # любую карту.»
    state = play(declared(SOCHI, "6s"), "whist", "whist")
    state.push("Ac")  # the first hand leads clubs (003: «первый ход всегда делает игрок … слева от сдатчика»)
    assert {str(c) for c in state.legal_cards()} == {"Qc", "Jc", "Tc", "9c", "8c", "7c"}
    state.push("7c")
    # Seat 0 has no club and no spade (trump): any card.
    assert len(list(state.legal_cards())) == 10
    state.push("Jh")
    assert state.tricks[1] == 1 and state.turn == 1
    with pytest.raises(IllegalMove, match="may play"):
        state.push("Ah")
    with pytest.raises(InvalidMove):
        state.push("Zz")


def test_raspasy_talon_sets_the_suit_of_the_first_two_tricks() -> None:
    # 003 «Розыгрыш»: «Сначала открывается верхняя карта прикупа, в соответствии с мастью которой делает
    # свой первый ход игрок, находящийся слева от сдатчика. При отсутствии соответствующей масти он кладёт
    # любую карту. Остальные … также должны следовать масти карты прикупа … Затем открывается вторая карта
    # прикупа, и первый ход снова принадлежит игроку слева от сдатчика. Третий ход также должен сделать
    # сначала игрок первой руки. В дальнейшем – взявший взятку.»
    state = play(make(SOCHI), "pass", "pass", "pass")
    assert [str(c) for c in state.shown_talon()] == ["7h"]
    assert state.turn == 1 and len(list(state.legal_cards())) == 10  # no heart: any card
    state.push("7s")
    assert {str(c) for c in state.legal_cards()} == {"Ah", "Kh", "Qh"}  # hearts, set by the talon's 7♥
    play(state, "Qh", "Jh")
    assert state.tricks == (0, 0, 1) and state.turn == 1  # seat 2 took it, but the first hand plays first
    state.push("8s")
    assert {str(c) for c in state.legal_cards()} == {"Ad"}  # diamonds, set by the talon's 8♦
    assert [str(c) for c in state.shown_talon()] == ["7h", "8d"]
    play(state, "Ad", "7d")
    assert state.tricks == (0, 0, 2) and state.turn == 1  # and the third trick again
    play(state, "Ac", "Qc", "Kd")
    assert state.tricks == (0, 1, 2) and state.turn == 1
    play(state, "Kc", "Jc", "Qd")
    assert state.turn == 1  # from now on the winner leads


def test_rostov_never_opens_the_talon_on_raspasy() -> None:
    # 004 «Ростовка»: «прикуп на распасовке: не открывается никогда»; 002: «При распасах карты прикупа не
    # показываются и не участвуют в розыгрыше».
    state = play(make(Conventions.for_variant("rostov")), "pass", "pass", "pass")
    assert state.shown_talon() == ()
    play(state, "7s")
    assert len(list(state.legal_cards())) == 10  # no spade: any card, the talon's 7♥ does not count
    play(state, "Ah", "Jh")
    assert state.tricks == (0, 1, 0) and state.turn == 1  # the 7♠ led and won


# --- four players ----------------------------------------------------------------------------------------

HANDS_4 = ("AsKsQsJsTs9s8s7sAcKc", "AhKhQhQcJcTc9c8c7cAd", "JhTh9h8hKdQdJdTd9d7d", "-")


def test_four_players_the_dealer_sits_out() -> None:
    # 000 «История игры, количество игроков»: «При игре вчетвером сдающий не участвует в игре».
    conv = Conventions.for_variant("sochi", 4)
    state = make(conv, HANDS_4, dealer=3)
    assert state.order == (0, 1, 2) and state.turn == 0
    play(state, "pass", "pass", "pass")
    assert state.phase is Phase.PLAY and state.lead_suit == -1  # no talon leads with four (Decision)
    with pytest.raises(InvalidMove):
        make(conv, ("AsKsQsJsTs9s8s7sAcKc", "AhKhQhQcJcTc9c8c7cAd", "-", "JhTh9h8hKdQdJdTd9d7d"), dealer=3)


def test_four_players_dealer_may_return_the_whist_last() -> None:
    # 003: «При игре вчетвером право вернуть вист принадлежит также и сдатчику … один говорит «пас», второй
    # говорит «полвиста», первый снова говорит «пас» и только тогда спрашивают у сдатчика».
    conv = Conventions.for_variant("leningrad", 4)
    state = play(make(conv, HANDS_4, dealer=3), "6s", "pass", "pass", "7h8d", "6s")
    assert state.defenders == (1, 2)
    play(state, "pass", "half", "pass")
    assert state.turn == 3 and set(state.legal_defence()) == {Defence.WHIST, Defence.PASS}
    state.push("whist")
    assert state.phase is Phase.PLAY and state.play_mode is Play.OPEN
    assert state.controller(1) == 3 and state.controller(2) == 3
    outcome = play_out(state)
    # The half-whister «считается спасовавшим» once the whist is taken back.
    assert outcome.defence == ((1, Defence.PASS), (2, Defence.PASS), (3, Defence.WHIST))
    assert outcome.tricks is not None and [seat for seat, _ in outcome.tricks] == [0, 1, 2]


# --- the position ----------------------------------------------------------------------------------------

def test_text_form_round_trips_and_errors_show_it() -> None:
    state = play(make(SOCHI), "6s", "pass", "6c", "here", "pass", "7h8d", "6c", "whist", "pass", "open", "Ac")
    text = state.text()
    assert DealState.from_text(text) == state and DealState.from_text(text).text() == text
    with pytest.raises(IllegalMove) as caught:
        state.push("Kc")
    assert text in str(caught.value) and isinstance(caught.value, RuleViolationError)
    with pytest.raises(InvalidMove) as bad:
        DealState.from_text("dealer=0 hands=AsAs talon=7h8d rules=- moves=")
    assert isinstance(bad.value, InvalidInputError)


def test_pop_takes_back_exactly() -> None:
    state = make(SOCHI)
    texts = [state.text()]
    for token in ("6s", "pass", "6c", "here", "pass", "7h8d", "6c", "whist", "pass", "open", "Ac", "7c"):
        state.push(token)
        texts.append(state.text())
    while state.moves:
        texts.pop()
        state.pop()
        assert state.text() == texts[-1]
    assert state.phase is Phase.AUCTION and state.hands == make(SOCHI).hands


def play_out(state: DealState) -> Outcome:
    """Play the rest with the lowest legal card; return the outcome."""
    while state.phase is not Phase.OVER:
        state.push(str(next(state.legal_cards())))
    outcome = state.outcome()
    assert outcome is not None
    return outcome
