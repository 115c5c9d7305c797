"""A simple seeded legal-move player and a match driver for playout tests.

The player (:func:`choose`) sees the game only through ``legal_actions(state, seat)`` for its own
seat, and through ``apply`` of its own candidate moves (how many cards it would keep; what the
face-up discard it could take would allow): it never reads another seat's hand, the stock, or
anything else of the state. So whatever it does is legal by construction, and a playout
exercises exactly the moves the engine itself proposes.

:func:`play_match` plays a whole match with that player and records it as a
:class:`~app.engine.matchlog.MatchLog`: each hand is dealt by ``deal_hand`` from the ``HandLog``
it is logged as, so the log folds to the state the player reached.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.engine.actions import Action
from app.engine.cards import rank_of
from app.engine.deal import shuffled_deal
from app.engine.errors import RuleError
from app.engine.fairdeal import DealSeeds
from app.engine.game import apply, can_start_hand, new_match, next_dealer
from app.engine.games import match_rules
from app.engine.matchlog import HandLog, LoggedAction, MatchLog, deal_hand, settle_calls
from app.engine.moves import legal_actions
from app.engine.state import State

TABLE_MOVES = frozenset({"declare", "meld", "lay_off", "borrow", "call_rummy"})
MAX_ACTIONS_PER_HAND = 2000
CALL_PROBABILITY = 0.7     # a seat that may call Rummy does so this often
RANDOM_DISCARD = 0.15      # otherwise the least connected card is discarded
STOCK_DRAW = 0.9           # a draw is from the stock this often, else any legal draw

# observe(before, seat, action, after, events) is called after every applied action.
Observer = Callable[[State, int, Action, State, list[dict[str, Any]]], None]


def _neighbours(card: str, cards: list[str]) -> int:
    """Cards of ``cards`` of the same rank, or of the same suit within two ranks of ``card``."""
    if card == "JK":
        return len(cards)  # a joker fits anywhere: keep it
    rank, suit = rank_of(card), card[1]
    return sum(1 for other in cards if other != card and other != "JK" and (
        rank_of(other) == rank or (other[1] == suit and abs(rank_of(other) - rank) <= 2)))


def choose(state: State, seat: int, rng: random.Random) -> Action | None:
    """A legal action for ``seat`` now, or None if it has none.

    Table moves (declare, meld, lay off, borrow, call Rummy) first, at random among them, but only
    those that go out or keep enough cards to go out later (:func:`_keeps_enough`); else, when
    discarding, the card with the fewest neighbours among the cards it may discard (holding more
    than four, sometimes a random one); else (drawing) the discard if it can be used on the table
    at once, otherwise mostly the stock, sometimes any legal draw.
    """
    actions = legal_actions(state, seat)
    if not actions:
        return None
    table = [a for a in actions if a.type in TABLE_MOVES and _keeps_enough(state, seat, a)]
    if table:
        return rng.choice(table)
    discards = [a for a in actions if a.type == "discard"]
    if discards and (len(discards) <= 4 or rng.random() >= RANDOM_DISCARD):
        cards = [a.card for a in discards]  # type: ignore[union-attr]
        return min(discards, key=lambda a: (_neighbours(a.card, cards), rng.random()))
    draws = [a for a in actions if a.type == "draw"]
    taking = [a for a in draws if a.source == "discard"]  # type: ignore[union-attr]
    sample = rng.sample(taking, min(len(taking), 3))  # Throw Down offers the whole area
    useful = [a for a in sample if _fits(state, seat, a)]
    if useful:
        return rng.choice(useful)
    stock = [a for a in draws if a.source == "stock"]  # type: ignore[union-attr]
    if stock and rng.random() < STOCK_DRAW:
        return stock[0]
    return rng.choice(actions)


def _keeps_enough(state: State, seat: int, move: Action) -> bool:
    """Whether after ``move`` (and the discard that ends the turn) the player holds at least two
    cards (three with mandatory discard) between turns, or can still go out this turn.

    A single card can go out only by a lay-off, and when every player is down to a card that fits
    no meld the hand can never end (GEN-13 restocks for ever), so the player avoids that.
    """
    keep = 3 if state.rules.mandatory_discard else 2
    if move.type == "call_rummy":  # takes a card, lays it off and discards: one card fewer
        left = len(state.hands[seat]) - 1
        return left == 0 or left >= keep
    after, _ = apply(state, seat, move)
    left = len(after.hands[seat]) - 1  # the discard still to come
    return left >= keep or _can_go_out(after, seat)


def _can_go_out(state: State, seat: int) -> bool:
    """Whether the player can still go out this turn (a small search over its own moves)."""
    if state.hand_over:
        return True
    moves = legal_actions(state, seat)
    if len(state.hands[seat]) == 1 and any(m.type == "discard" for m in moves):
        return True
    return any(_can_go_out(apply(state, seat, m)[0], seat)
               for m in moves if m.type in TABLE_MOVES)


def _fits(state: State, seat: int, draw: Action) -> bool:
    """Whether the face-up discard that ``draw`` takes could go on the table at once (by a move
    the player would make).

    A look-ahead through ``apply`` and ``legal_actions`` of the player's own seat: taking a
    discard reveals nothing that is not public, unlike a stock draw.
    """
    try:
        after, _ = apply(state, seat, draw)
    except RuleError:
        return False
    if after.hand_over or not after.taken:
        return False
    card = after.taken[-1]
    return any(card in _placed_cards(move) and _keeps_enough(after, seat, move)
               for move in legal_actions(after, seat))


def _placed_cards(move: Action) -> set[str]:
    """The cards a table move puts on the table (empty for any other action)."""
    data = move.to_json()
    listed = {"meld": "melds", "declare": "melds", "lay_off": "cards", "borrow": "into"}
    found = data.get(listed.get(move.type, ""), [])
    entries = [e for m in found for e in m] if move.type in ("meld", "declare") else found
    return {e.partition(":")[0] for e in entries}


def _calls(state: State, seat: int) -> list[Action]:
    return [a for a in legal_actions(state, seat) if a.type == "call_rummy"]


def play_match(game: str, options: dict[str, Any], players: int, seed: int, max_hands: int,
               observe: Observer | None = None,
               seeds: Callable[[int], DealSeeds] | None = None) -> tuple[State, MatchLog]:
    """Play up to ``max_hands`` hands (fewer if the game ends); return the state and match log.

    Hand ``h`` is dealt by ``shuffled_deal(rules, dealer, random.Random(seed * 1000 + h))``, or
    with ``seeds`` by ``seeds(h)`` (PROTOCOL.md §7), logged beside the deal as a live room does.
    In a Call Rummy window every seat but the discarder, clockwise from the discarder's left,
    may call (when ``legal_actions`` offers a call); then the window closes as a live room's
    grace period ends (``settle_calls``) and the next player acts. Raises AssertionError if a
    hand runs over ``MAX_ACTIONS_PER_HAND`` actions or gets stuck.
    """
    rng = random.Random(seed)
    rules = match_rules(game, options, players)
    st = new_match(rules)
    hands: list[HandLog] = []

    def act(seat: int, action: Action, actions: list[LoggedAction]) -> None:
        nonlocal st
        before = st
        st, events = apply(st, seat, action)
        actions.append(LoggedAction(seat, action))
        if observe is not None:
            observe(before, seat, action, st, events)

    for h in range(max_hands):
        if not can_start_hand(st):
            break
        dealer = next_dealer(st)
        hand_seeds = None if seeds is None else seeds(h)
        hand = HandLog(dealer, shuffled_deal(rules, dealer, random.Random(seed * 1000 + h))
                       if hand_seeds is None else hand_seeds.deal(rules, dealer))
        st = deal_hand(st, hand, h)
        actions: list[LoggedAction] = []
        called_on = -1  # seq at which the current call window got its round of calls
        while not st.hand_over:
            assert len(actions) <= MAX_ACTIONS_PER_HAND, (
                f"hand {h} did not end in {MAX_ACTIONS_PER_HAND} actions "
                f"(game={game} options={options} players={players} seed={seed})")
            if st.phase.value == "call" and st.call is not None and called_on != st.seq:
                discarder = st.call.discarder
                for k in range(1, players):
                    caller = (discarder + k) % players
                    calls = _calls(st, caller)
                    if calls and rng.random() < CALL_PROBABILITY:
                        act(caller, rng.choice(calls), actions)
                called_on = st.seq
            # The grace period ends (OPT-CALL-4): a winning call is applied now; the log's fold
            # applies it the same way (the next action, or the end of the hand's actions).
            st, _ = settle_calls(st)
            if st.hand_over:
                break
            seat = st.turn
            assert seat is not None, f"no seat to act in phase {st.phase.value}"
            action = choose(st, seat, rng)
            assert action is not None, (
                f"seat {seat} has no legal action in phase {st.phase.value} (hand {h}, "
                f"game={game} options={options} players={players} seed={seed})")
            act(seat, action, actions)
        hands.append(HandLog(dealer, hand.deal, tuple(actions), seeds=hand_seeds))
    return st, MatchLog.of(rules, tuple(hands))
