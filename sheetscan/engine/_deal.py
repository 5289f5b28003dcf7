"""One deal as a push/pop state (python-chess `Board` style): auction, talon, defence and play.

Sources (../shared/rules/): 000 «Правила торговли», «Правила розыгрыша мизера», «Взятка. Правила
выкладывания карт»; 003 «Торговля за прикуп», «Назначение игры», «Вистование», «Розыгрыш» and the Code's
rules on полвиста / возвратный вист. Conventions that differ between companies are `Conventions` fields.

Cards are bit indices (`_bits`); every push stores a snapshot of the few mutable fields so `pop()` is
exact and cheap. The text form (`text()`) is the deal as dealt plus the actions so far; `from_text` reads
it back by replaying the actions, so a position round-trips and appears in every error.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from operator import attrgetter

from sheetscan.engine._bits import CARDS, SUIT_MASKS, card_index, card_text, hand_text, indices, parse_hand
from sheetscan.engine._conventions import Conventions
from sheetscan.engine._dealing import check_deal, deal_cards, playing_seats
from sheetscan.engine._defence import defence_step
from sheetscan.engine._outcome import Call, IllegalMove, InvalidMove, Outcome, Phase
from sheetscan.rules import LADDER, MISERE, Card, Contract, Defence, Play, Suit, parse_card, parse_contract

__all__ = ["DealState"]

PASS = -1
HERE = -2
MISERE_RANK = LADDER.index(MISERE)
_NINE_SPADES = LADDER.index(Contract(9, Suit.SPADES))
_TRUMP = tuple(-1 if c.trump is None else int(c.trump) for c in LADDER)
_LEVEL = tuple(c.level for c in LADDER)
_RANK_OF = {str(c): i for i, c in enumerate(LADDER)}
_WORDS = {"whist": Defence.WHIST, "pass": Defence.PASS, "half": Defence.HALF}
_PLAYS = {"open": Play.OPEN, "closed": Play.CLOSED}

# The mutable fields: saved before every push, restored by pop.
_FIELDS = (
    "phase", "turn", "hands", "bid", "holder", "passed", "bidders", "misere_seat", "here_seat",
    "here_moved", "calls", "declarer", "contract", "discard", "words", "whister", "play_mode", "leader",
    "trick", "lead_suit", "trick_no", "tricks", "played", "revealed", "voids", "_log_len",
)
_SNAPSHOT = attrgetter(*_FIELDS)


class DealState:
    """A deal in progress. Seats are table indices 0…n-1 clockwise; seat `dealer + 1` is the first hand.

    Use `legal_calls()` / `legal_cards()` (and `legal_discards()`, `legal_contracts()`,
    `legal_defence()`, `legal_plays()`) to see what may be done, `push_*` or `push(text)` to do it,
    `pop()` to take it back, and `outcome()` once `phase` is `OVER`.
    """

    def __init__(self, hands: Sequence[int], talon: tuple[int, int], dealer: int,
                 conventions: Conventions | None = None) -> None:
        self.conventions = conventions or Conventions()
        """The rules this deal is played by."""
        conv = self.conventions
        n = conv.players
        if len(hands) != n or not 0 <= dealer < n:
            raise InvalidMove(f"expected {n} hands and a dealer seat 0…{n - 1}", "")
        self.n = n
        """Players at the table (3 or 4)."""
        self.dealer = dealer
        """The dealer's seat (sits out when four play)."""
        self.initial_hands = tuple(hands)
        """The hands as dealt (bit masks; the dealer's is empty with four players)."""
        self.talon_cards = talon
        """The two talon cards (bit indices), top card first."""
        problem = check_deal(self.initial_hands, talon, dealer)
        if problem:
            raise InvalidMove(problem, "")
        self.order = tuple(playing_seats(dealer, n))
        """The three seats that play, from the first hand clockwise."""
        self._next = {seat: self.order[(i + 1) % 3] for i, seat in enumerate(self.order)}
        self._stack: list[tuple[object, ...]] = []
        self._moves: list[str] = []
        self._log: list[tuple[int, int]] = []
        self.phase = Phase.AUCTION
        """What kind of action comes next."""
        self.turn = self.order[0]
        """The seat to act (its controller acts for it in open play); -1 when the deal is over."""
        self.hands = tuple(hands)
        """Current hands as bit masks, by seat."""
        self.bid = -1
        """The standing bid's place on `LADDER`; -1 before anyone bids."""
        self.holder = -1
        """Who holds the standing bid (after «здесь», the one who said it)."""
        self.passed = 0
        """Seats that passed in the auction (bit per seat)."""
        self.bidders = 0
        """Seats that made a trick bid (bit per seat): they may no longer call a misère."""
        self.misere_seat = -1
        """Who called a misère; -1 if nobody."""
        self.here_seat = -1
        """Who may say «здесь» once two are left; -1 before."""
        self.here_moved = False
        """Whether the right to «здесь» has passed to the later hand (003)."""
        self.calls: tuple[tuple[int, int], ...] = ()
        """The auction so far: (seat, call code) with -1 pass, -2 «здесь», else the place on `LADDER`."""
        self.declarer = -1
        """The declarer's seat, once the auction is won; -1 before and on raspasy."""
        self.contract = -1
        """The declared contract's place on `LADDER`; -1 until declared."""
        self.discard = 0
        """The declarer's two put-away cards (bit mask)."""
        self.words: tuple[tuple[int, Defence], ...] = ()
        """What the defenders (and, with four, the dealer) said, in order."""
        self.whister = -1
        """The lone whister; -1 with two whisters, none, or before the defence ends."""
        self.play_mode: Play | None = None
        """Open or closed play of a lone whister; None otherwise."""
        self.leader = -1
        """Who led (or, on a talon-led raspasy trick, played first to) the current trick."""
        self.trick: tuple[tuple[int, int], ...] = ()
        """The current trick so far: (seat, card index) in order."""
        self.lead_suit = -1
        """The suit to follow in the current trick (set by the talon on raspasy); -1 before the lead."""
        self.trick_no = 0
        """Tricks completed."""
        self.tricks = (0,) * n
        """Tricks taken so far, by seat."""
        self.played = 0
        """Cards played so far (bit mask)."""
        self.revealed = False
        """Whether the defenders' cards lie face up (open whist, misère)."""
        self.voids = (0,) * n
        """Suits each seat has shown it lacks (bit s for suit s), as everyone at the table has seen."""
        self._log_len = 0

    # ----------------------------------------------------------------------------------- building
    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int, conventions: Conventions | None = None) -> DealState:
        """A deal from a shuffled deck, dealt two at a time with two cards to the talon (000, 002)."""
        conv = conventions or Conventions()
        hands, talon = deal_cards(rng, dealer, conv.players)
        return cls(hands, talon, dealer, conv)

    # ---------------------------------------------------------------------------------- text form
    def text(self) -> str:
        """The position: the deal as dealt, the conventions and every action so far (round-trips)."""
        hands = "/".join(hand_text(m) for m in self.initial_hands)
        talon = card_text(self.talon_cards[0]) + card_text(self.talon_cards[1])
        moves = " ".join(self._moves)
        text = f"dealer={self.dealer} hands={hands} talon={talon} rules={self.conventions} moves={moves}"
        return text.rstrip()

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"DealState({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealState) and other.text() == self.text()

    def __hash__(self) -> int:
        return hash(self.text())

    @classmethod
    def from_text(cls, text: str) -> DealState:
        """Read a position written by `text()`; raises `InvalidMove` / `IllegalMove` naming the problem."""
        head, sep, moves = text.strip().partition(" moves=")
        fields = dict(part.partition("=")[::2] for part in head.split())
        try:
            conv = Conventions.from_text(fields["rules"])
            hands = [parse_hand(h) for h in fields["hands"].split("/")]
            talon_text = fields["talon"]
            talon = (card_index(parse_card(talon_text[:2])), card_index(parse_card(talon_text[2:])))
            state = cls(hands, talon, int(fields["dealer"]), conv)
        except (KeyError, ValueError) as error:
            raise InvalidMove(f"cannot read the position ({error})", text) from None
        for token in moves.split() if sep else ():
            state.push(token)
        return state

    @property
    def moves(self) -> tuple[str, ...]:
        """Every action so far in its text form."""
        return tuple(self._moves)

    # ---------------------------------------------------------------------------------- push/pop
    def _save(self, token: str) -> None:
        self._log_len = len(self._log)
        self._stack.append(_SNAPSHOT(self))
        self._moves.append(token)

    def pop(self) -> str:
        """Take back the last action; returns its text form."""
        if not self._stack:
            raise IllegalMove("nothing to take back", self.text())
        for name, value in zip(_FIELDS, self._stack.pop(), strict=True):
            setattr(self, name, value)
        del self._log[self._log_len:]
        return self._moves.pop()

    def push(self, token: str) -> None:
        """Do an action given in its text form, read according to the phase (like python-chess push_san)."""
        phase = self.phase
        token = token.strip()
        if phase is Phase.AUCTION:
            self.push_call(self.parse_call(token))
        elif phase is Phase.DISCARD:
            if len(token) != 4:
                raise InvalidMove(f"discard {token!r}: expected two cards, e.g. 7h8d", self.text())
            self.push_discard(self._card(token[:2]), self._card(token[2:]))
        elif phase is Phase.DECLARE:
            try:
                contract = parse_contract(token)
            except ValueError as error:
                raise InvalidMove(str(error), self.text()) from None
            self.push_contract(contract)
        elif phase is Phase.DEFENCE:
            if token not in _WORDS:
                raise InvalidMove(f"{token!r}: a defender says whist, pass or half", self.text())
            self.push_defence(_WORDS[token])
        elif phase is Phase.CHOOSE_PLAY:
            if token not in _PLAYS:
                raise InvalidMove(f"{token!r}: the whister chooses open or closed", self.text())
            self.push_play(_PLAYS[token])
        elif phase is Phase.PLAY:
            self.push_card(self._card(token))
        else:
            raise IllegalMove(f"{token!r}: the deal is over", self.text())

    def _card(self, token: str) -> Card:
        try:
            return parse_card(token)
        except ValueError as error:
            raise InvalidMove(str(error), self.text()) from None

    def parse_call(self, token: str) -> Call:
        """Read a call's text form (`pass`, `here`, `6s`, `misere`) in this position."""
        if token == "pass":
            return Call(None)
        if token == "here":
            if self.bid < 0:
                raise IllegalMove("«здесь» with no bid to hold", self.text())
            return Call(LADDER[self.bid], here=True)
        try:
            return Call(parse_contract(token))
        except ValueError as error:
            raise InvalidMove(str(error), self.text()) from None

    # ----------------------------------------------------------------------------------- auction
    def _remaining(self) -> list[int]:
        return [s for s in self.order if not self.passed >> s & 1]

    def _call_codes(self) -> list[int]:
        """Legal call codes for the player to call: PASS, HERE, or ladder ranks."""
        seat = self.turn
        codes = [PASS]
        if seat == self.misere_seat:
            return codes  # 003: after one's own misère no trick bid («после него нельзя объявить игру»)
        conv = self.conventions
        bid = self.bid
        if (conv.here and bid >= 0 and bid != MISERE_RANK and self.holder != seat
                and self.here_seat == seat and len(self._remaining()) == 2):
            codes.append(HERE)
        kabal = conv.kabal_misere and self.bidders >> seat & 1
        if bid < MISERE_RANK and self.misere_seat < 0 and not kabal:
            codes.append(MISERE_RANK)
        low = bid + 1
        if bid == MISERE_RANK:
            low = LADDER.index(Contract(self.conventions.misere_overcall, Suit.SPADES))
        elif low == MISERE_RANK:
            low += 1
        high = len(LADDER) - 1 if conv.jump_bids else low
        codes.extend(r for r in range(low, min(high, len(LADDER) - 1) + 1) if r != MISERE_RANK)
        return codes

    def legal_calls(self) -> Iterator[Call]:
        """The calls the player to speak may make (pass first)."""
        if self.phase is not Phase.AUCTION:
            return
        for code in self._call_codes():
            if code == PASS:
                yield Call(None)
            elif code == HERE:
                yield Call(LADDER[self.bid], here=True)
            else:
                yield Call(LADDER[code])

    def push_call(self, call: Call) -> None:
        """Make a call; raises `IllegalMove` if it is not legal now."""
        if self.phase is not Phase.AUCTION:
            raise IllegalMove(f"call {call}: the auction is over", self.text())
        code = PASS if call.contract is None else HERE if call.here else LADDER.index(call.contract)
        if call.here and (call.contract is None or LADDER.index(call.contract) != self.bid):
            raise IllegalMove(f"«здесь» holds the standing bid, not {call.contract}", self.text())
        self._call(code)

    def _call(self, code: int) -> None:
        legal = self._call_codes()
        if code not in legal:
            shown = "here" if code == HERE else "pass" if code == PASS else str(LADDER[code])
            allowed = " ".join("here" if c == HERE else "pass" if c == PASS else str(LADDER[c])
                               for c in legal)
            raise IllegalMove(f"seat {self.turn} may not call {shown} (legal: {allowed})", self.text())
        seat = self.turn
        self._save("pass" if code == PASS else "here" if code == HERE else str(LADDER[code]))
        self.calls = (*self.calls, (seat, code))
        bit = 1 << seat
        if code == PASS:
            self.passed |= bit
            remaining = self._remaining()
            if len(remaining) == 2 and self.here_seat < 0:
                self.here_seat = remaining[0]  # the earlier hand of the two (003)
        else:
            if code != HERE and HERE in legal and self.conventions.here_passes and not self.here_moved:
                # 003: the earlier hand raised instead of saying «здесь»: the right passes to the other.
                self.here_seat = next(s for s in self._remaining() if s != seat)
                self.here_moved = True
            if code == MISERE_RANK:
                self.misere_seat = seat
            elif code != HERE:
                self.bidders |= bit
            if code != HERE:
                self.bid = code
            self.holder = seat
        remaining = self._remaining()
        if not remaining:
            self._start_play(raspasy=True)
        elif len(remaining) == 1 and self.holder == remaining[0]:
            self.declarer = self.holder
            self.phase = Phase.DISCARD
            self.turn = self.holder
            hands = list(self.hands)
            hands[self.holder] |= (1 << self.talon_cards[0]) | (1 << self.talon_cards[1])
            self.hands = tuple(hands)
        else:
            nxt = self._next[seat]
            while self.passed >> nxt & 1:
                nxt = self._next[nxt]
            self.turn = nxt

    # --------------------------------------------------------------------------- talon, contract
    def legal_discards(self) -> Iterator[tuple[Card, Card]]:
        """Every pair of cards the declarer may put away (any two of his twelve; 003 «Назначение игры»)."""
        if self.phase is not Phase.DISCARD:
            return
        cards = indices(self.hands[self.declarer])
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                yield CARDS[a], CARDS[b]

    def push_discard(self, first: Card, second: Card) -> None:
        """Put two cards away (the discard is shown to nobody)."""
        a, b = card_index(first), card_index(second)
        self._discard((1 << a) | (1 << b), f"{first}{second}")

    def _discard(self, mask: int, token: str) -> None:
        hand = self.hands[self.declarer] if self.phase is Phase.DISCARD else 0
        if self.phase is not Phase.DISCARD or mask.bit_count() != 2 or hand & mask != mask:
            raise IllegalMove(f"discard {token}: the declarer puts away two of his own twelve cards",
                              self.text())
        self._save(token)
        hands = list(self.hands)
        hands[self.declarer] = hand & ~mask
        self.hands = tuple(hands)
        self.discard = mask
        self.phase = Phase.DECLARE

    def legal_contracts(self) -> Iterator[Contract]:
        """The contracts the declarer may name: not below the bid; a misère stays a misère (003)."""
        if self.phase is not Phase.DECLARE:
            return
        if self.bid == MISERE_RANK:
            yield MISERE
            return
        for rank in range(self.bid, len(LADDER)):
            if rank != MISERE_RANK:
                yield LADDER[rank]

    def push_contract(self, contract: Contract) -> None:
        """Name the contract. 000 «Правила торговли»: one below the bid, or a misère after a trick bid (or
        the reverse), is pointed out and refused — `IllegalMove`."""
        rank = LADDER.index(contract)
        if self.phase is not Phase.DECLARE or contract not in self.legal_contracts():
            need = ("the misère" if self.bid == MISERE_RANK
                    else f"{LADDER[max(self.bid, 0)]} or higher, not a misère")
            raise IllegalMove(f"contract {contract}: the declarer must name {need}", self.text())
        self._save(str(contract))
        self.contract = rank
        if rank == MISERE_RANK:
            self._start_play(raspasy=False)
        elif self.conventions.ten_checked and contract.level == 10:
            self._finish()  # 003: «Десятерная игра не вистуется, а проверяется»
        else:
            self.phase = Phase.DEFENCE
            self.turn = self.defenders[0]

    @property
    def defenders(self) -> tuple[int, int]:
        """The declarer's two opponents, from his left (003 «Вистование»: «слева от разыгрывающего»)."""
        if self.declarer < 0:
            raise IllegalMove("there are no defenders before the auction is won, nor on raspasy", self.text())
        first = self._next[self.declarer]
        return first, self._next[first]

    # ------------------------------------------------------------------------------------ defence
    def _defence_step(self) -> tuple[int, tuple[Defence, ...], str]:
        """(seat to speak, what he may say, "") — or (whister, (), end) with end `two`, `lone` or `none`."""
        dealer = self.dealer if self.n == 4 else -1
        return defence_step(self.words, self.defenders, dealer, LADDER[self.contract], self.conventions)

    def legal_defence(self) -> Iterator[Defence]:
        """What the defender to speak may say."""
        if self.phase is Phase.DEFENCE:
            yield from self._defence_step()[1]

    def push_defence(self, word: Defence) -> None:
        """Say whist, pass or полвиста."""
        allowed = self._defence_step()[1] if self.phase is Phase.DEFENCE else ()
        if word not in allowed:
            shown = " ".join(w.value for w in allowed) or "nothing now"
            raise IllegalMove(f"defence {word.value}: seat {self.turn} may say {shown}", self.text())
        self._save(word.value)
        self.words = (*self.words, (self.turn, word))
        seat, allowed, end = self._defence_step()
        if not end:
            self.turn = seat
        elif end == "two":
            self._start_play(raspasy=False)
        elif end == "lone" and seat == self.dealer and self.n == 4:
            self.whister = seat
            self.play_mode = Play.OPEN  # Decision: the dealer who whists plays both defenders' hands open
            self._start_play(raspasy=False)
        elif end == "lone":
            self.whister = seat
            self.phase = Phase.CHOOSE_PLAY
            self.turn = seat
        else:
            self._finish()

    def legal_plays(self) -> Iterator[Play]:
        """Open or closed: the lone whister's choice (003 «Розыгрыш»)."""
        if self.phase is Phase.CHOOSE_PLAY:
            if self.conventions.open_whist:
                yield Play.OPEN
            yield Play.CLOSED

    def push_play(self, play: Play) -> None:
        """The lone whister chooses open or closed play."""
        if self.phase is not Phase.CHOOSE_PLAY:
            raise IllegalMove(f"{play.value}: only a lone whister chooses, before the first card",
                              self.text())
        if play not in self.legal_plays():
            raise IllegalMove(f"{play.value}: open whist is not played here (convention open_whist)",
                              self.text())
        self._save(play.value)
        self.play_mode = play
        self._start_play(raspasy=False)

    # --------------------------------------------------------------------------------------- play
    def _start_play(self, raspasy: bool) -> None:
        self.phase = Phase.PLAY
        # 003 «Розыгрыш»: «первый ход всегда делает игрок, сидящий слева от сдатчика».
        self.leader = self.turn = self.order[0]
        self.lead_suit = self._forced_suit(0) if raspasy else -1
        misere = self.contract == MISERE_RANK
        opening = misere or self.play_mode is Play.OPEN
        # 000/003: the misère's opponents lie down at once unless the declarer leads first, then after his
        # card; open whist: before the first card (003, the Code's comment), or as the misère (002).
        declarer_leads = self.leader == self.declarer
        late = declarer_leads and (misere or self.conventions.open_after_declarer_lead)
        self.revealed = opening and not late

    def _forced_suit(self, trick_no: int) -> int:
        if trick_no < 2 and self.declarer < 0 and self.n == 3 and self.conventions.raspasy_talon_leads:
            return self.talon_cards[trick_no] >> 3
        return -1

    @property
    def trump(self) -> int:
        """The trump suit (0…3), or -1 for no trump, misère and raspasy."""
        return _TRUMP[self.contract] if self.contract >= 0 else -1

    def legal_mask(self) -> int:
        """The cards the player to play may play, as a bit mask (follow suit, else trump, else any)."""
        if self.phase is not Phase.PLAY:
            return 0
        hand = self.hands[self.turn]
        suit = self.lead_suit
        if suit >= 0:
            follow = hand & SUIT_MASKS[suit]
            if follow:
                return follow
            trump = self.trump
            if trump >= 0 and hand & SUIT_MASKS[trump]:
                return hand & SUIT_MASKS[trump]
        return hand

    def legal_cards(self) -> Iterator[Card]:
        """The cards the player to play may play."""
        for i in indices(self.legal_mask()):
            yield CARDS[i]

    def push_card(self, card: Card) -> None:
        """Play a card; raises `IllegalMove` if it is not the player's or does not follow the rules."""
        self.play_index(card_index(card))

    def play_index(self, index: int) -> None:
        """Play the card with this bit index (the fast path bots use; checked like `push_card`)."""
        if not self.legal_mask() >> index & 1:
            raise IllegalMove(f"card {card_text(index)}: seat {self.turn} may play "
                              f"{hand_text(self.legal_mask())}", self.text())
        seat = self.turn
        self._save(card_text(index))
        self._log.append((seat, index))
        hands = list(self.hands)
        hands[seat] &= ~(1 << index)
        self.hands = tuple(hands)
        self.played |= 1 << index
        trick = (*self.trick, (seat, index))
        suit = self.lead_suit
        if len(trick) == 1 and suit < 0:
            self.lead_suit = index >> 3
        elif index >> 3 != suit:
            voids = list(self.voids)
            voids[seat] |= 1 << suit
            self.voids = tuple(voids)
        if not self.revealed and (self.contract == MISERE_RANK or self.play_mode is Play.OPEN):
            self.revealed = True  # the declarer has led: now the defenders lie down (000 «мизера»)
        if len(trick) < 3:
            self.trick = trick
            self.turn = self._next[seat]
            return
        winner = self._winner(trick)
        counts = list(self.tricks)
        counts[winner] += 1
        self.tricks = tuple(counts)
        self.trick = ()
        self.trick_no += 1
        if self.trick_no == 10:
            self._finish()
            return
        forced = self._forced_suit(self.trick_no)
        # 003: on raspasy with talon leads the first hand leads the first three tricks.
        talon_led = self.trick_no < 3 and self._forced_suit(0) >= 0
        self.leader = self.turn = self.order[0] if talon_led else winner
        self.lead_suit = forced

    def _winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        suit = self.lead_suit
        trump = self.trump
        best, best_key = trick[0][0], -1
        for seat, index in trick:
            s = index >> 3
            key = 100 + index if s == trump else index if s == suit else -1
            if key > best_key:
                best, best_key = seat, key
        return best

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.turn = -1

    # ------------------------------------------------------------------------------------ queries
    def controller(self, seat: int) -> int:
        """Who decides for `seat`: in open play the lone whister plays the passer's cards too (003)."""
        if self.phase is Phase.PLAY and self.play_mode is Play.OPEN and self.whister >= 0 and \
                seat in self.defenders:
            return self.whister
        return seat

    def shown_talon(self) -> tuple[Card, ...]:
        """The talon cards everyone has seen by now: both once the declarer took them (003 «Назначение
        игры»: «Он должен открыть его на всеобщее обозрение»); on raspasy with talon leads the top card
        from the first trick and the second from the second (003 «Розыгрыш»); otherwise none."""
        if self.declarer >= 0 and self.phase is not Phase.AUCTION:
            return CARDS[self.talon_cards[0]], CARDS[self.talon_cards[1]]
        if self.phase is Phase.AUCTION or self._forced_suit(0) < 0:
            return ()
        return tuple(CARDS[i] for i in self.talon_cards[:min(2, self.trick_no + 1)])

    def open_seats(self) -> tuple[int, ...]:
        """Seats whose cards lie face up now (open whist, the misère's opponents)."""
        return self.defenders if self.revealed else ()

    @property
    def log(self) -> tuple[tuple[int, int], ...]:
        """The cards played: (seat, card index) in order."""
        return tuple(self._log)

    def outcome(self) -> Outcome | None:
        """How the deal ended, once it is over; None before."""
        if self.phase is not Phase.OVER:
            return None
        played = self.trick_no == 10
        if self.declarer < 0:
            seats = self.order
            return Outcome("raspasy", None, None, (), None, tuple((s, self.tricks[s]) for s in sorted(seats)))
        contract = LADDER[self.contract]
        tricks = tuple((s, self.tricks[s]) for s in sorted(self.order)) if played else None
        if contract.is_misere:
            return Outcome("misere", self.declarer, contract, (), None, tricks)
        final: dict[int, Defence] = {}
        for seat, word in self.words:
            if seat == self.dealer and self.n == 4 and word is Defence.PASS:
                continue  # the dealer's silent pass changes nothing and is not written
            final[seat] = word
        if Defence.WHIST in final.values():
            # 003: after a returned whist «игрок, пытавшийся уйти «за свои», … считается спасовавшим».
            final = {seat: Defence.PASS if word is Defence.HALF else word for seat, word in final.items()}
        return Outcome("game", self.declarer, contract, tuple(final.items()), self.play_mode if
                       self.whister >= 0 else None, tricks)


