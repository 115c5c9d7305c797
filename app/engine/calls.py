"""Call Rummy (OPT-CALL): the window on a discard, the calls, and the winning call's effect."""

from __future__ import annotations

from collections import Counter
from typing import cast

from ..refusals import Code
from . import scoring
from .actions import CallRummy
from .errors import IllegalAction
from .flow import Events, finish, meld_at
from .melds import Entry
from .state import CallWindow, Phase, State
from .table import check_may_lay_off, laid_off


def opens_window(st: State, card: str) -> bool:
    """OPT-CALL-1: could ``card`` be laid off on some meld on the table (the lay-off check
    itself, so a card that fits by moving an end joker counts, DOUBLE-6)?"""
    for meld in st.melds:
        try:
            laid_off(meld, [(card, None)], st.rules)
        except IllegalAction as exc:
            if exc.code == Code.DESIGNATION_REQUIRED:
                return True
            continue
        return True
    return False


def verify_call(st: State, seat: int, act: CallRummy) -> None:
    """OPT-CALL-2/3: a call is checked when it arrives ..."""
    window = st.call
    if window is None or st.phase is not Phase.CALL:
        if not st.rules.options.call_rummy:
            raise IllegalAction(Code.NOT_IN_THIS_GAME, "Call Rummy is not played in this room")
        raise IllegalAction(Code.CALL_WINDOW_CLOSED, "there is no discard to call now")
    if seat == window.discarder:
        raise IllegalAction(Code.CANNOT_CALL_OWN_DISCARD, "you cannot call your own discard")
    if seat in window.calls:
        raise IllegalAction(Code.ALREADY_CALLED, "you have already called this discard")
    check_may_lay_off(st, seat)  # OPT-CALL-2, OPT-LAYOFF-1
    laid_off(meld_at(st, act.meld), [called_entry(window, act)], st.rules)
    if act.discard not in st.hands[seat]:
        raise IllegalAction(Code.CARD_NOT_IN_HAND, f"{act.discard} is not in your hand")


def do_call(st: State, seat: int, act: CallRummy, events: Events) -> None:
    """... and kept until the window closes."""
    cast(CallWindow, st.call).calls[seat] = act  # verified: the window is open
    events.append({"type": "call", "seat": seat})


def called_entry(window: CallWindow, act: CallRummy) -> Entry:
    """The called card as laid off: the window's card, with the call's designation if any."""
    if act.card is None:
        return window.card, None
    if act.card[0] != window.card:
        raise IllegalAction(Code.CARD_NOT_AVAILABLE, f"the card to call is {window.card}")
    return act.card


def close_window(st: State, events: Events) -> None:
    """OPT-CALL-5/6: the first caller clockwise from the discarder's left takes the card."""
    window = st.call
    if window is None:
        return
    st.call = None
    st.phase = Phase.DRAW
    order = [(window.discarder + k) % st.players for k in range(1, st.players)]
    caller = next((s for s in order if s in window.calls), None)
    if caller is None:
        return
    act: CallRummy = window.calls[caller]
    st.discard.pop()  # the called card is the latest discard (OPT-CALL-9 with OPT-THROW)
    st.melds[act.meld] = laid_off(st.melds[act.meld], [called_entry(window, act)], st.rules)
    st.tabled[caller] = True  # OPT-CALL-9: counts as a lay-off
    st.hands[caller].remove(act.discard)
    st.known[caller] = list((Counter(st.known[caller]) & Counter(st.hands[caller])).elements())
    st.discard.append(act.discard)  # OPT-CALL-7: this discard opens no window
    events.append({"type": "rummy_call", "seat": caller, "card": window.card, "meld": act.meld,
                   "discard": act.discard})
    if not st.hands[caller]:
        finish(st, scoring.went_out_result(st, caller, doubled=False), events)
