"""``state_for`` builds, from one seat's typed view alone, a state in which that seat has exactly
the legal actions it has in the true state — across all ten games and many playout states.

It never needs anything outside the view: the typed view holds what the wire view holds (whose
leaks tests/engine/test_views.py checks), and permuting the cards the seat cannot see (other
hands' unknown cards and the stock) changes neither the view nor the state built from it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.bots import make_bot
from app.bots.determinize import state_for
from app.bots.selfplay import play_match
from app.engine.deal import pack_for
from app.engine.games import GAMES, match_rules
from app.engine.moves import legal_actions
from app.engine.phom import locks_hold
from app.engine.state import Phase, State
from app.engine.views import SeatView, player_view, seat_view_of

from .playouts import conserved

# game -> (options, players, seat kinds); German seats are sensible (see test_engine_issues.py).
SETUPS: list[tuple[str, dict[str, Any], int, tuple[str, ...]]] = [
    ("standard", {"call_rummy": True, "borrowing": True}, 3, ("sensible", "random")),
    ("standard", {"throw_down": True, "block_rummy": True}, 2, ("random", "sensible")),
    ("standard", {"complete_rummy": True, "mandatory_discard": True}, 3, ("sensible",)),
    ("boat_house", {}, 3, ("sensible", "random")),
    ("kaluki", {"call_rummy": True}, 3, ("sensible", "random")),
    ("double_rum", {"call_rummy": True, "one_meld_per_turn": True}, 4, ("sensible", "random")),
    ("knock", {}, 3, ("sensible", "random")),
    ("continental", {"twos_wild": True}, 4, ("sensible", "random")),
    ("queen_city", {}, 4, ("sensible", "random")),
    ("phom", {"discard_penalties": True}, 4, ("sensible", "random")),
    ("german", {}, 3, ("sensible",)),
    ("nowrang", {}, 2, ("sensible", "random")),
]
MATCHES = 5
HANDS = 4
SAMPLE = 0.35  # share of states checked


def _legal(st: State, seat: int) -> set[str]:
    return {json.dumps(a.to_json(), sort_keys=True) for a in legal_actions(st, seat)}


def _others_called(st: State, seat: int) -> bool:
    """Other seats' pending calls are not in a view (the room settles them before the next
    player acts); their effect on the next player's draw is not this seat's knowledge."""
    return st.phase is Phase.CALL and st.call is not None and any(
        s != seat for s in st.call.calls)


def _same_as_wire(view: SeatView, st: State, seat: int) -> bool:
    """The typed view holds the wire view's facts and no more: its parts are ``player_view``
    less the client's prompts, and its melds and results are the table's."""
    wire = json.loads(json.dumps(player_view(st, seat)))
    prompts = {"draws": None, "throws": None, "aids": {}}
    return (json.loads(json.dumps({**view.table, **view.part})) == {**wire, **prompts}
            and [m.to_json() for m in view.melds] == wire["melds"]
            and json.loads(json.dumps([r.to_json() for r in view.results])) == wire["results"])


def _check_seat(st: State, seat: int, context: str) -> None:
    view = seat_view_of(st, seat)
    assert _same_as_wire(view, st, seat), context
    rebuilt = state_for(view, st.rules)
    assert conserved(rebuilt, Counter(pack_for(st.rules))), context
    assert rebuilt.hands[seat] == st.hands[seat], context
    assert [len(h) for h in rebuilt.hands] == [len(h) for h in st.hands], context
    assert len(rebuilt.stock) == len(st.stock), context
    assert rebuilt.discard == st.discard, context
    assert [m.to_json() for m in rebuilt.melds] == [m.to_json() for m in st.melds], context
    assert seat_view_of(rebuilt, seat) == view, f"the rebuilt state looks different: {context}"
    if not _others_called(st, seat):
        assert _legal(rebuilt, seat) == _legal(st, seat), f"seat {seat}: {context}"


@pytest.mark.parametrize(("game", "options", "players", "kinds"), SETUPS,
                         ids=[f"{g}-{p}p-{'-'.join(sorted(o)) or 'plain'}"
                              for g, o, p, _ in SETUPS])
def test_rebuilt_state_has_the_same_legal_actions(game: str, options: dict[str, Any],
                                                  players: int, kinds: tuple[str, ...]) -> None:
    rules = match_rules(game, options, players)
    checked = 0
    for match in range(MATCHES):
        seed = 500 + match
        rng = random.Random(seed)
        context = f"game={game} options={options} players={players} seed={seed}"
        bots = [make_bot(kinds[s % len(kinds)], seed * 100 + s) for s in range(players)]

        def observe(before: State, seat: int | None, action: Any, after: State,
                    rng: random.Random = rng, context: str = context) -> None:
            nonlocal checked
            for st in (before, after):
                if rng.random() < SAMPLE:
                    for s in range(players):
                        _check_seat(st, s, f"{context} seq {st.seq} after {action}")
                    checked += 1

        play_match(rules, bots, seed, HANDS, observe)
    assert checked >= 50


def test_every_game_is_covered() -> None:
    assert {g for g, *_ in SETUPS} == set(GAMES)


def test_the_view_is_all_it_needs() -> None:
    """Shuffling the cards seat 0 cannot see gives the same view and the same rebuilt state."""
    rules = match_rules("kaluki", {}, 3)
    seen = 0

    def observe(before: State, seat: int | None, action: Any, after: State) -> None:
        nonlocal seen
        if after.hand_over or after.seq % 5:
            return
        other = _shuffle_hidden(after, 0, random.Random(after.seq))
        assert seat_view_of(other, 0) == seat_view_of(after, 0)
        a = state_for(seat_view_of(after, 0), rules)
        b = state_for(seat_view_of(other, 0), rules)
        assert a.to_json() == b.to_json()
        seen += 1

    bots = [make_bot("sensible", s) for s in range(3)]
    play_match(rules, bots, 77, 2, observe)
    assert seen >= 10


def _shuffle_hidden(st: State, seat: int, rng: random.Random) -> State:
    """The same public table with the unseen cards of ``seat`` dealt differently."""
    new = st.copy()
    hidden: list[str] = list(new.stock)
    keep: list[list[str]] = []
    for s, hand in enumerate(new.hands):
        if s == seat:
            keep.append(hand)
            continue
        public = Counter(new.known[s]) | Counter(new.locked[s])
        rest = Counter(hand) - public
        hidden += list(rest.elements())
        keep.append(list(public.elements()))
    rng.shuffle(hidden)
    for s, hand in enumerate(new.hands):
        if s != seat:
            need = len(hand) - len(keep[s])
            keep[s] += hidden[:need]
            del hidden[:need]
    new.hands = keep
    new.stock = hidden
    return new


def test_sampled_worlds_hold_melds_for_locked_cards() -> None:
    """PHOM-6: a Phỏm seat that took a discard holds melds for its locked cards, in the true
    state and so in every world sampled from another seat's view (``state_for`` with a
    generator). Before the constraint, 3,147 of the 3,464 worlds this test samples broke it."""
    rules = match_rules("phom", {}, 4)
    worlds = 0

    def observe(before: State, seat: int | None, action: Any, after: State) -> None:
        nonlocal worlds
        if after.hand_over or after.phase is Phase.CALL:
            return
        for viewer in range(rules.players):
            locking = [s for s in range(rules.players)
                       if s != viewer and after.locked[s] and len(after.hands[s]) > len(
                           set(after.known[s]) | set(after.locked[s]))]
            if not locking:
                continue
            view = seat_view_of(after, viewer)
            rng = random.Random(after.seq * 10 + viewer)
            for _ in range(4):
                world = state_for(view, rules, rng)
                assert conserved(world, Counter(pack_for(rules)))
                for s in locking:
                    assert locks_hold(world.hands[s], world.locked[s], rules.meld), (
                        f"seat {s} locked {world.locked[s]} in {sorted(world.hands[s])}")
                worlds += 1

    bots = [make_bot("sensible", 60 + s) for s in range(4)]
    for seed in range(6):
        play_match(rules, bots, 600 + seed, 2, observe)
    assert worlds >= 40, worlds


def test_no_hand_dealt_yet() -> None:
    from app.engine.game import new_match

    rules = match_rules("standard", {}, 2)
    st = new_match(rules)
    rebuilt = state_for(seat_view_of(st, 0), rules)
    assert rebuilt.phase is Phase.DEAL and rebuilt.hands == []


def test_a_view_that_does_not_fit_the_rules_is_refused() -> None:
    """A card the pack does not hold (or one copy too many), or counts that do not add up."""
    from app.engine.deal import shuffled_deal
    from app.engine.game import new_match, start_hand

    rules = match_rules("standard", {}, 2)
    st = start_hand(new_match(rules), shuffled_deal(rules, 0, random.Random(4)), 0)
    view = seat_view_of(st, 0)
    state_for(view, rules)
    twice = view._replace(part={**view.part, "hand": [*view.part["hand"], view.part["hand"][0]]})
    with pytest.raises(ValueError, match="not in the pack"):
        state_for(twice, rules)
    with pytest.raises(ValueError, match="stock"):
        state_for(view._replace(table={**view.table, "stock_count": len(st.stock) + 1}), rules)
    with pytest.raises(ValueError, match="cannot fill"):
        counts = [len(st.stock) + 20 if s else len(h) for s, h in enumerate(st.hands)]
        state_for(view._replace(table={**view.table, "hand_counts": counts}), rules)
