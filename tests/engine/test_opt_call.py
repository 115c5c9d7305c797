"""Scenario tests for Call Rummy, OPT-CALL-1..9 (RULES.md §3.1), on Standard Rummy.

Base deal (3 players, dealer 0, seat 1 plays first):

- seat 0: AH 6S 7D 8S JC QS 3C  (45 points)
- seat 1: 2H 3H 4H 5H 9C TD KS  (melds 2H 3H 4H, then discards 5H, which fits that run)
- seat 2: 6C 7C 8C JD QD KD 4S  (two melds and a spare 4S)
- upcard 9H; stock 2C 2D 3D 4D 5S ...
"""

from __future__ import annotations

from typing import Any

from app.engine.actions import parse_action
from app.engine.cards import standard_pack
from app.engine.game import apply, close_call_window
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import act, discard, rejected, stacked

CALL = {"call_rummy": True}
HANDS = [
    ["AH", "6S", "7D", "8S", "JC", "QS", "3C"],
    ["2H", "3H", "4H", "5H", "9C", "TD", "KS"],
    ["6C", "7C", "8C", "JD", "QD", "KD", "4S"],
]
UPCARD = ["9H"]
STOCK = ["2C", "2D", "3D", "4D", "5S"]

DRAW = {"type": "draw", "source": "stock"}
TAKE = {"type": "draw", "source": "discard"}


def meld(*cards: str) -> dict[str, Any]:
    return {"type": "meld", "melds": [list(cards)]}


def call(meld_no: int, card: str) -> dict[str, Any]:
    return {"type": "call_rummy", "meld": meld_no, "discard": card}


def base(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", HANDS, options=CALL if options is None else options,
                   discard=UPCARD, stock_top=STOCK)


def after_callable_discard(options: dict[str, Any] | None = None) -> State:
    """Seat 1 draws 2C, melds 2H 3H 4H (meld 0) and discards 5H, which fits meld 0."""
    return act(base(options), 1, DRAW, meld("2H", "3H", "4H"), discard("5H"))


def late(options: dict[str, Any] | None = None) -> State:
    """Three melds on the table, seat 2 down to one card (4S), then seat 1 discards 5H.

    Melds: 0 = 2H 3H 4H (seat 1), 1 = 6C 7C 8C (seat 2), 2 = JD QD KD (seat 2).
    Hands afterwards: seat 0 AH 6S 7D 8S JC QS 3C (45), seat 1 9C TD KS 4D (33), seat 2 4S.
    """
    st = act(base(options), 1, DRAW, meld("2H", "3H", "4H"), discard("2C"))
    assert st.phase is Phase.DRAW  # 2C fits no meld: no window
    st = act(st, 2, DRAW, {"type": "meld", "melds": [["6C", "7C", "8C"], ["JD", "QD", "KD"]]},
             discard("2D"))
    st = act(st, 0, DRAW, discard("3D"))
    st = act(st, 1, DRAW, discard("5H"))
    assert st.hands == [["AH", "6S", "7D", "8S", "JC", "QS", "3C"], ["9C", "TD", "KS", "4D"],
                        ["4S"]]
    return st


def full_deal(hands: list[list[str]], upcard: list[str], stock_top: list[str]) -> dict[str, Any]:
    rest = standard_pack()
    for card in [c for h in hands for c in h] + upcard + stock_top:
        rest.remove(card)
    return {"hands": hands, "stock": stock_top + rest, "discard": upcard}


# --- OPT-CALL-1: when a window opens ------------------------------------------------------

def test_opt_call_1_window_opens_on_a_discard_that_fits_a_meld() -> None:
    """OPT-CALL-1: 5H could be laid off on 2H 3H 4H, so a window opens (phase ``call``)."""
    st = after_callable_discard()
    assert st.phase is Phase.CALL
    assert st.call is not None and st.call.card == "5H" and st.call.discarder == 1
    assert st.turn == 2
    assert st.to_json()["call_window"] == {"card": "5H", "discarder": 1, "callers": []}


def test_opt_call_1_no_window_on_a_discard_that_fits_nothing() -> None:
    """OPT-CALL-1: 9C fits no meld on the table: no window, a call is refused."""
    st = act(base(), 1, DRAW, meld("2H", "3H", "4H"), discard("9C"))
    assert st.phase is Phase.DRAW and st.call is None
    rejected(st, 2, call(0, "4S"), "call_window_closed")


def test_opt_call_1_no_window_on_the_upcard() -> None:
    """OPT-CALL-1: the initial upcard never opens a window."""
    st = base()
    assert st.phase is Phase.DRAW and st.call is None
    rejected(st, 0, call(0, "3C"), "call_window_closed")


def test_opt_call_1_8_no_window_on_the_going_out_discard() -> None:
    """OPT-CALL-1, OPT-CALL-8: 5H fits meld 0 but ends the hand; nobody can call it."""
    hands = [HANDS[0], ["2H", "3H", "4H", "9C", "9D", "9S", "5H"], HANDS[2]]
    st = stacked("standard", hands, options=CALL, discard=["2C"], stock_top=["9H"])
    st = act(st, 1, DRAW, {"type": "meld", "melds": [["2H", "3H", "4H"], ["9C", "9D", "9S", "9H"]]},
             discard("5H"))
    # Seat 1 went out: seat 0 holds 45, seat 2 holds 6+7+8+10+10+10+4 = 55.
    assert st.results[-1].winner == 1 and st.results[-1].scores == (0, 100, 0)
    assert st.call is None and st.phase is Phase.GAME_OVER  # 100 reaches the default target
    rejected(st, 2, call(0, "4S"), "hand_over")


def test_opt_call_off_by_default() -> None:
    """OPT-CALL: without ``call_rummy`` a discard opens no window and calls are refused."""
    st = after_callable_discard(options={})
    assert st.phase is Phase.DRAW
    rejected(st, 2, call(0, "4S"), "not_in_this_game")


# --- OPT-CALL-2: who may call -------------------------------------------------------------

def test_opt_call_2_next_player_may_call() -> None:
    """OPT-CALL-2: the player whose turn is next may call; his draw then closes the window."""
    st = act(after_callable_discard(), 2, call(0, "4S"))
    assert st.phase is Phase.CALL and st.to_json()["call_window"]["callers"] == [2]
    st = act(st, 2, DRAW)  # the winning call is applied before the draw
    assert [p.card for p in st.melds[0].cards] == ["2H", "3H", "4H", "5H"]
    assert st.discard[-1] == "4S"
    assert st.hands[2] == ["6C", "7C", "8C", "JD", "QD", "KD", "2D"]
    assert st.turn == 2 and st.phase is Phase.PLAY


def test_opt_call_2_other_player_may_call() -> None:
    """OPT-CALL-2: a player who is not next (seat 0) may call too."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    assert st.to_json()["call_window"]["callers"] == [0]


def test_opt_call_2_discarder_cannot_call_own_discard() -> None:
    """OPT-CALL-2: the discarder may not call his own discard."""
    rejected(after_callable_discard(), 1, call(0, "9C"), "cannot_call_own_discard")


# --- OPT-CALL-3: the call is checked when received -----------------------------------------

def test_opt_call_3_second_call_by_same_player_rejected() -> None:
    """OPT-CALL-3: one call per player and window (``already_called``)."""
    st = act(after_callable_discard(), 2, call(0, "4S"))
    rejected(st, 2, call(0, "KD"), "already_called")


def test_opt_call_3_card_that_does_not_fit_the_named_meld_rejected() -> None:
    """OPT-CALL-3: 5H cannot go on 6C 7C 8C (meld 1): ``invalid_meld``; costs nothing."""
    st = late()
    rejected(st, 0, call(1, "3C"), "invalid_meld")
    rejected(st, 0, call(2, "3C"), "invalid_meld")
    rejected(st, 0, call(7, "3C"), "no_such_meld")
    # No penalty: the same player may still make a valid call afterwards.
    st = act(st, 0, call(0, "3C"))
    assert st.to_json()["call_window"]["callers"] == [0]


def test_opt_call_3_discard_not_in_hand_rejected() -> None:
    """OPT-CALL-3: the card the caller will discard must be in his hand."""
    st = after_callable_discard()
    rejected(st, 0, call(0, "4S"), "card_not_in_hand")
    rejected(st, 0, call(0, "5H"), "card_not_in_hand")  # not even the called card itself
    st = act(st, 0, call(0, "3C"))
    assert st.to_json()["call_window"]["callers"] == [0]


def test_opt_call_3_nobody_obliged_to_call() -> None:
    """OPT-CALL-3/4: with no call the window closes and play goes on unchanged."""
    st = after_callable_discard()
    st, events = close_call_window(st)
    assert events == []
    assert st.phase is Phase.DRAW and st.turn == 2 and st.call is None
    assert st.discard[-1] == "5H" and len(st.melds[0].cards) == 3


# --- OPT-CALL-4: the window closes at the next draw ----------------------------------------

def test_opt_call_4_call_after_next_draw_rejected() -> None:
    """OPT-CALL-4: once seat 2 has drawn, the window is closed (``call_window_closed``)."""
    st = act(after_callable_discard(), 2, DRAW)
    assert st.phase is Phase.PLAY and st.call is None
    rejected(st, 0, call(0, "3C"), "call_window_closed")


def test_opt_call_4_close_call_window_applies_the_call() -> None:
    """OPT-CALL-4: ``close_call_window`` (the live grace period) resolves the window."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    st, events = close_call_window(st)
    assert [e["type"] for e in events] == ["rummy_call"]
    assert events[0] == {"type": "rummy_call", "seat": 0, "card": "5H", "meld": 0,
                         "discard": "3C"}
    assert st.phase is Phase.DRAW and st.turn == 2 and st.call is None
    rejected(st, 2, call(0, "4S"), "call_window_closed")


def test_opt_call_4_close_call_window_without_window_is_a_no_op() -> None:
    """OPT-CALL-4: closing when no window is open changes nothing."""
    st = base()
    new, events = close_call_window(st)
    assert events == [] and new.to_json() == st.to_json()


def test_opt_call_4_calls_accepted_until_the_draw() -> None:
    """OPT-CALL-4: several players may call while the window is open."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    st = act(st, 2, call(0, "4S"))
    assert st.to_json()["call_window"]["callers"] == [0, 2]
    assert st.phase is Phase.CALL


def test_opt_call_4_out_of_turn_draw_does_not_close_the_window() -> None:
    """OPT-CALL-4: an action refused (seat 0 drawing out of turn) leaves the window open."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    rejected(st, 0, DRAW, "not_your_turn")


def test_opt_call_4_refused_action_in_an_open_window_changes_nothing() -> None:
    """OPT-CALL-4, GEN-7: ``apply`` closes the window only on its copy; seat 2's discard before
    drawing is refused, the state is equal to what it was and seat 0's call is still pending."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    before = st.copy()
    rejected(st, 2, discard("4S"), "must_draw_first")
    rejected(st, 2, {"type": "meld", "melds": [["6C", "7C", "8C"]]}, "must_draw_first")
    assert st == before
    assert st.phase is Phase.CALL and st.call is not None and list(st.call.calls) == [0]
    assert st.discard[-1] == "5H" and len(st.melds[0].cards) == 3
    st = act(st, 2, DRAW)  # a legal draw then closes it with the call
    assert st.hands[0] == ["AH", "6S", "7D", "8S", "JC", "QS"] and st.discard[-1] == "3C"


def test_opt_call_4_6_draw_after_a_going_out_call_is_refused_and_changes_nothing() -> None:
    """OPT-CALL-4/6: seat 2's call goes out; his own draw would close the window and find the
    hand over, so it is refused (``hand_over``) with the window still open; closing it at the
    end of the grace period then ends the hand."""
    st = act(late(), 2, call(0, "4S"))
    before = st.copy()
    rejected(st, 2, DRAW, "hand_over")
    assert st == before and st.phase is Phase.CALL and st.results == []
    st, events = close_call_window(st)
    assert [e["type"] for e in events] == ["rummy_call", "hand_over"]
    assert st.results[-1].winner == 2


def test_opt_call_4_the_close_comes_first_in_the_events() -> None:
    """OPT-CALL-4, PROTOCOL §4: the winning call is applied before the draw that closes the
    window, and its event comes before the draw's."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    _, events = apply(st, 2, TAKE)
    assert [e["type"] for e in events] == ["rummy_call", "draw"]
    assert events[1]["card"] == "3C"  # seat 2 took the caller's discard


def test_opt_call_apply_takes_a_parsed_action() -> None:
    """PROTOCOL §3: ``apply`` takes a parsed action as it is; the result is the JSON's."""
    st = after_callable_discard()
    for action in (call(0, "3C"), DRAW):
        parsed = parse_action(action)
        a, a_events = apply(st, 0 if parsed.type == "call_rummy" else 2, parsed)
        b, b_events = apply(st, 0 if parsed.type == "call_rummy" else 2, action)
        assert a == b and a_events == b_events


# --- OPT-CALL-5: competing calls ---------------------------------------------------------

def test_opt_call_5_clockwise_order_beats_arrival_order() -> None:
    """OPT-CALL-5: seat 0 calls first, seat 2 later; seat 2 is first clockwise from seat 1."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    st = act(st, 2, call(0, "4S"))
    st, events = close_call_window(st)
    assert [e["seat"] for e in events if e["type"] == "rummy_call"] == [2]
    assert st.discard[-1] == "4S"
    assert "4S" not in st.hands[2]
    assert st.hands[0] == HANDS[0]  # the losing call costs nothing
    assert [p.card for p in st.melds[0].cards] == ["2H", "3H", "4H", "5H"]


def test_opt_call_5_four_players_winner_is_not_the_next_player() -> None:
    """OPT-CALL-5: discarder 1, callers 0 (first to arrive) and 3; order 2, 3, 0: seat 3 wins."""
    hands = HANDS + [["2S", "3S", "5D", "6D", "8D", "9S", "TS"]]
    st = stacked("standard", hands, options=CALL, discard=UPCARD, stock_top=STOCK)
    st = act(st, 1, DRAW, meld("2H", "3H", "4H"), discard("5H"))
    assert st.phase is Phase.CALL
    st = act(st, 0, call(0, "3C"))
    st = act(st, 3, call(0, "2S"))
    st = act(st, 2, TAKE)  # seat 2 takes the winning caller's discard
    assert st.hands[2][-1] == "2S" and st.taken == ["2S"]
    assert st.hands[3] == ["3S", "5D", "6D", "8D", "9S", "TS"]
    assert st.hands[0] == HANDS[0]
    assert [p.card for p in st.melds[0].cards] == ["2H", "3H", "4H", "5H"]


# --- OPT-CALL-6: effect --------------------------------------------------------------------

def test_opt_call_6_effect_and_next_player_takes_callers_discard() -> None:
    """OPT-CALL-6: seat 0 lays 5H off and discards 3C; seat 2 (next after seat 1) plays on
    and may take 3C from the discard pile."""
    st = act(after_callable_discard(), 0, call(0, "3C"))
    st = act(st, 2, TAKE)
    assert [p.card for p in st.melds[0].cards] == ["2H", "3H", "4H", "5H"]
    assert st.melds[0].owner == 1  # GEN-9: the meld keeps its owner
    assert st.hands[0] == ["AH", "6S", "7D", "8S", "JC", "QS"]
    assert st.hands[2] == ["6C", "7C", "8C", "JD", "QD", "KD", "4S", "3C"]
    assert st.discard == ["9H"]  # 5H went to the meld, 3C to seat 2
    assert st.turn == 2 and st.phase is Phase.PLAY
    rejected(st, 2, discard("3C"), "cannot_discard_taken_card")  # GEN-8 still applies


def test_opt_call_6_caller_goes_out_and_wins_with_exact_score() -> None:
    """OPT-CALL-6: seat 2 holds only 4S, calls 5H onto meld 0 and discards 4S: hand empty,
    he wins; seat 0 holds 45 and seat 1 holds 9C TD KS 4D = 33, so he scores 78."""
    st = act(late(), 2, call(0, "4S"))
    st, events = close_call_window(st)
    assert [e["type"] for e in events] == ["rummy_call", "hand_over"]
    result = st.results[-1]
    assert result.winner == 2 and result.reason == "went_out"
    assert result.scores == (0, 0, 78)
    assert st.totals == [0, 0, 78]
    assert st.phase is Phase.HAND_OVER and st.turn is None
    rejected(st, 0, DRAW, "hand_over")


def test_opt_call_6_going_out_call_beats_later_clockwise_caller() -> None:
    """OPT-CALL-5/6: seat 0 also calls, but seat 2 comes first from seat 1's left and goes out."""
    st = act(late(), 0, call(0, "3C"))
    st = act(st, 2, call(0, "4S"))
    st, _ = close_call_window(st)
    assert st.results[-1].winner == 2 and st.results[-1].scores == (0, 0, 78)
    assert st.hands[0] == ["AH", "6S", "7D", "8S", "JC", "QS", "3C"]


# --- OPT-CALL-7: no chains -----------------------------------------------------------------

def test_opt_call_7_callers_discard_opens_no_window() -> None:
    """OPT-CALL-7: seat 0's discard AH would fit 2H..5H, yet it opens no new window."""
    st = act(after_callable_discard(), 0, call(0, "AH"))
    st, _ = close_call_window(st)
    assert st.discard[-1] == "AH"
    assert st.phase is Phase.DRAW and st.call is None
    rejected(st, 2, call(0, "4S"), "call_window_closed")
    # The next ordinary discard that fits opens a window again (OPT-CALL-1).
    st = act(st, 2, DRAW, discard("2D"))
    assert st.phase is Phase.DRAW
    st = act(st, 0, DRAW, discard("6S"))
    assert st.phase is Phase.DRAW


# --- OPT-CALL-9: interactions --------------------------------------------------------------

def test_opt_call_9_layoff_restriction_applies_to_calls() -> None:
    """OPT-CALL-9, OPT-LAYOFF-1: a player who has not melded this hand may not call."""
    options = {"call_rummy": True, "layoff_requires_meld": True}
    st = after_callable_discard(options)
    rejected(st, 2, call(0, "4S"), "must_meld_first")
    rejected(st, 0, call(0, "3C"), "must_meld_first")


def test_opt_call_9_player_who_has_melded_may_call_under_layoff_restriction() -> None:
    """OPT-CALL-9, OPT-LAYOFF-1: seat 2 has melds, so his call is accepted and goes out."""
    st = late({"call_rummy": True, "layoff_requires_meld": True})
    rejected(st, 0, call(0, "3C"), "must_meld_first")
    st = act(st, 2, call(0, "4S"))
    st, _ = close_call_window(st)
    assert st.results[-1].scores == (0, 0, 78)


def test_opt_call_9_call_is_not_a_meld_for_one_meld_per_turn() -> None:
    """OPT-CALL-9: a won call does not use up the caller's one meld of his next turn."""
    options = {"call_rummy": True, "one_meld_per_turn": True}
    hands = [["AH", "6S", "7D", "8S", "JC", "QS", "3C"], HANDS[1],
             ["6C", "7C", "8C", "JD", "QD", "KD", "4S"]]
    st = stacked("standard", hands, options=options, discard=UPCARD, stock_top=STOCK)
    st = act(st, 1, DRAW, meld("2H", "3H", "4H"), discard("5H"))
    st = act(st, 2, call(0, "4S"))
    st = act(st, 2, DRAW, meld("6C", "7C", "8C"))
    rejected(st, 2, meld("JD", "QD", "KD"), "one_meld_per_turn")


# --- Replay (PROTOCOL.md §4): calls precede the next draw ----------------------------------

def test_opt_call_replay_calls_resolved_before_next_draw() -> None:
    """OPT-CALL-4/5, PROTOCOL §4: calls logged after the discard, before seat 2's draw; seat 2's
    call wins although seat 0's was logged first."""
    log = {
        "game": "standard", "options": CALL, "players": 3,
        "hands": [{
            "dealer": 0,
            "deal": full_deal(HANDS, UPCARD, STOCK),
            "actions": [
                {"seat": 1, "action": DRAW},
                {"seat": 1, "action": meld("2H", "3H", "4H")},
                {"seat": 1, "action": discard("5H")},
                {"seat": 0, "action": call(0, "3C")},
                {"seat": 2, "action": call(0, "4S")},
                {"seat": 2, "action": DRAW},
            ],
        }],
    }
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    state = out["state"]
    assert state["melds"][0]["cards"] == ["2H", "3H", "4H", "5H"]
    assert state["discard"] == ["9H", "4S"]
    assert state["hands"][2] == ["6C", "7C", "8C", "JD", "QD", "KD", "2D"]
    assert state["hands"][0] == HANDS[0]
    assert state["turn"] == 2 and state["phase"] == "play"
    assert out["hands"] == [{"ended": False, "winner": None, "reason": None,
                             "scores": [0, 0, 0]}]


def test_opt_call_replay_late_call_rejected() -> None:
    """OPT-CALL-4, PROTOCOL §4: a call logged after seat 2's draw is refused."""
    log = {
        "game": "standard", "options": CALL, "players": 3,
        "hands": [{
            "dealer": 0,
            "deal": full_deal(HANDS, UPCARD, STOCK),
            "actions": [
                {"seat": 1, "action": DRAW},
                {"seat": 1, "action": meld("2H", "3H", "4H")},
                {"seat": 1, "action": discard("5H")},
                {"seat": 2, "action": DRAW},
                {"seat": 0, "action": call(0, "3C")},
            ],
        }],
    }
    out = run_replay(log)
    assert out["ok"] is False
    assert out["rejected"]["hand"] == 0 and out["rejected"]["index"] == 4
    assert out["rejected"]["code"] == "call_window_closed"


def test_opt_call_replay_hand_won_by_a_call_then_next_hand() -> None:
    """OPT-CALL-6, PROTOCOL §4: a hand ending with a winning call (its last logged action) is
    over before the next hand's deal, so an exported log replays with the recorded result."""
    actions = [
        (1, DRAW), (1, meld("2H", "3H", "4H")), (1, discard("2C")),
        (2, DRAW), (2, {"type": "meld", "melds": [["6C", "7C", "8C"], ["JD", "QD", "KD"]]}),
        (2, discard("2D")),
        (0, DRAW), (0, discard("3D")),
        (1, DRAW), (1, discard("5H")),
        (2, call(0, "4S")),
    ]
    log = {
        "game": "standard", "options": CALL, "players": 3,
        "hands": [
            {"dealer": 0, "deal": full_deal(HANDS, UPCARD, STOCK),
             "actions": [{"seat": s, "action": a} for s, a in actions]},
            {"dealer": 1, "deal": full_deal([HANDS[1], HANDS[2], HANDS[0]], UPCARD, STOCK),
             "actions": [{"seat": 2, "action": DRAW}]},
        ],
    }
    out = run_replay(log)
    assert out["ok"] is True
    assert out["hands"][0] == {"ended": True, "winner": 2, "reason": "went_out",
                               "scores": [0, 0, 78]}
    assert out["totals"] == [0, 0, 78]


def test_opt_call_apply_does_not_mutate() -> None:
    """GEN-7: a call returns a new state; the previous state keeps its empty window."""
    st = after_callable_discard()
    new, _ = apply(st, 0, call(0, "3C"))
    assert st.call is not None and st.call.calls == {}
    assert new.call is not None and 0 in new.call.calls


def test_opt_call_4_uncalled_card_can_be_taken_by_next_player() -> None:
    """OPT-CALL-4: with no call, the next player's draw closes the window and he may take the
    discard itself."""
    st = act(after_callable_discard(), 2, TAKE)
    assert st.hands[2][-1] == "5H" and st.discard == ["9H"]
    assert len(st.melds[0].cards) == 3 and st.phase is Phase.PLAY
    rejected(st, 0, call(0, "3C"), "call_window_closed")
