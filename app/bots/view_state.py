"""Rebuild an engine :class:`State` from one seat's ``player_view`` (a *determinized* state).

A bot sees the game only through ``views.player_view(state, seat)``. To ask the engine which of
its own actions are legal it needs a :class:`State`; :func:`state_from_view` builds one from the
view alone. Everything public (melds, discard pile, counts, turn bookkeeping, the seat's own hand)
is copied; the cards this seat cannot see (the pack less its hand, the discard pile and the melds)
are dealt to the other hands (each seat's publicly known taken cards first, GEN-14) and to the
stock in one fixed canonical order, so the multiset of cards and every count are right. The
legality of this seat's own actions never depends on those hidden cards, so
``legal_actions(state_from_view(view, rules), seat)`` equals ``legal_actions(true_state, seat)``.

One thing the view does not carry: other seats' pending Rummy calls (OPT-CALL). A room closes
the call window before the next player acts, so a bot never decides with calls pending.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.engine.actions import CallRummy
from app.engine.cards import Placed, parse_entry, rank_of
from app.engine.deal import pack_for
from app.engine.errors import RuleError
from app.engine.melds import AceModel, Meld, MeldRules, form_meld
from app.engine.rules import GameRules
from app.engine.state import CallWindow, HandResult, Phase, State
from app.engine.table import laid_off

_RESULT_KEYS = frozenset({"ended", "winner", "reason", "scores", "revealed"})


def state_from_view(view: dict[str, Any], rules: GameRules) -> State:
    """A state consistent with ``view`` (the view of one seat) under ``rules``.

    Raises ``ValueError`` if the view does not fit the rules (its cards are not the game's pack,
    or the counts do not add up).
    """
    seat = view["seat"]
    st = State(rules=rules, phase=Phase(view["phase"]), dealer=view["dealer"],
               hand_no=view["hand_no"], totals=list(view["totals"]),
               results=_results(view["results"]),
               game_winner=view["game_winner"], turn=view["turn"])
    counts: list[int] = list(view["hand_counts"])
    if not counts:  # no hand dealt yet
        return st
    n = rules.players
    st.melds = [_meld(m, rules) for m in view["melds"]]
    st.discard = list(view["discard"])
    st.known = [list(k) for k in view["known"]]
    st.locked = [list(k) for k in view["locked"]]
    st.opened = list(view["opened"])
    st.tabled = list(view["opened"])  # lay-offs are not in the view; only scoring reads this
    st.shown = list(view["shown"])
    st.turns = list(view["turns"])
    st.hand_scores = list(view["hand_scores"])
    st.restocks = view.get("restocks", 0)  # not in the view yet (GEN-13 resolution)
    st.takes = [0] * n
    st.hands, st.stock = _deal_hidden(view, rules, seat, counts)
    _turn_state(st, view["turn_state"])
    st.tabled_at_turn_start = st.tabled[st.turn] if st.turn is not None else False
    st.call = _call_window(view, st, seat)
    return st


_PACKS: dict[tuple[int, int], tuple[list[str], dict[str, int], bool]] = {}


def _pack(rules: GameRules) -> tuple[list[str], dict[str, int], bool]:
    """The game's pack in pack order with each code once, how many of each it holds, and
    whether it holds one of each."""
    size = rules.pack_size()
    got = _PACKS.get(size)
    if got is None:
        pack = pack_for(rules)
        codes = list(dict.fromkeys(pack))
        got = _PACKS[size] = (codes, dict(Counter(pack)), len(codes) == len(pack))
    return got


def _deal_hidden(view: dict[str, Any], rules: GameRules, seat: int,
                 counts: list[int]) -> tuple[list[list[str]], list[str]]:
    """Own hand from the view; the unseen cards to the other hands (known cards first), then
    the stock, in pack order."""
    own = list(view["hand"])
    revealed = view.get("revealed") or []
    codes, pack, single = _pack(rules)
    used = Counter(own)
    used.update(view["discard"])
    used.update(c.partition(":")[0] for m in view["melds"] for c in m["cards"])
    if any(k > pack.get(c, 0) for c, k in used.items()):
        raise ValueError(f"cards not in the pack: {used - Counter(pack)}")
    hands: list[list[str]] = []
    for s, count in enumerate(counts):
        if s == seat:
            hands.append(own)
            continue
        if len(revealed) == len(counts) and len(revealed[s]) == count:
            first = Counter(revealed[s])  # the hand's end made this hand public
        elif view["known"][s] or view["locked"][s]:
            first = Counter(view["known"][s]) | Counter(view["locked"][s])
        else:
            hands.append([])
            continue
        if any(used[c] + k > pack.get(c, 0) for c, k in first.items()):
            raise ValueError(f"seat {s}'s known cards are not among the unseen cards")
        used.update(first)
        hands.append(list(first.elements()))
    get = used.get  # the unseen cards in the canonical order: pack order
    order = [c for c in codes if not get(c)] if single else [
        c for c in codes for _ in range(pack[c] - get(c, 0))]
    for s, count in enumerate(counts):
        if s != seat:
            need = count - len(hands[s])
            if need < 0 or need > len(order):
                raise ValueError(f"seat {s} holds {count} cards; the view cannot fill them")
            hands[s] += order[:need]
            del order[:need]
    if len(order) != view["stock_count"]:
        raise ValueError(f"{len(order)} unseen cards left for a stock of {view['stock_count']}")
    return hands, order


def _turn_state(st: State, turn: dict[str, Any]) -> None:
    st.taken = list(turn["taken"])
    st.drawn = turn["drawn"]
    st.melds_this_turn = turn["melds"]
    st.acted = turn["acted"]
    st.must_use = turn["must_use"]
    st.jokers_to_play = turn["jokers_to_play"]


def _call_window(view: dict[str, Any], st: State, seat: int) -> CallWindow | None:
    """The open window with no calls known; if this seat has called, a stand-in for its call
    (one of the calls it could make) so that a second call is refused as it would be."""
    raw = view["call_window"]
    if raw is None or st.phase is not Phase.CALL:
        return None
    window = CallWindow(raw["card"], raw["discarder"])
    if raw.get("called"):
        window.calls[seat] = _stand_in_call(st, seat, raw["card"])
    return window


def _stand_in_call(st: State, seat: int, card: str) -> CallRummy:
    for index, meld in enumerate(st.melds):
        try:
            laid_off(meld, [(card, None)], st.rules)  # the engine's own check (DOUBLE-6)
        except RuleError:
            continue
        return CallRummy(index, sorted(st.hands[seat])[0])
    return CallRummy(0, sorted(st.hands[seat])[0])


_MELDS: dict[tuple[tuple[str, ...], str, int, MeldRules], Meld] = {}


def _meld(raw: dict[str, Any], rules: GameRules) -> Meld:
    """Rebuild a table meld from its listing (``"JK:7H"``), keeping its owner and number (the
    rebuilt melds are remembered by listing, in a store emptied when it grows large)."""
    key = (tuple(raw["cards"]), raw["kind"], raw["owner"], rules.meld)
    got = _MELDS.get(key)
    if got is None:
        got = _rebuilt_meld(raw, rules)
        if len(_MELDS) >= 20_000:
            _MELDS.clear()
        _MELDS[key] = got
    return Meld(got.kind, got.cards, got.owner, got.start, id=raw["id"])


def _rebuilt_meld(raw: dict[str, Any], rules: GameRules) -> Meld:
    entries = [parse_entry(c) for c in raw["cards"]]
    placed = tuple(Placed(c, d if d is not None else c) for c, d in entries)
    try:
        meld = form_meld(entries, rules.meld, owner=raw["owner"])
        if meld.kind == raw["kind"] and meld.cards == placed:
            return meld
    except RuleError:
        pass
    # A listing form_meld does not accept as it stands: keep it exactly as the table shows it.
    start = _run_start(placed, rules) if raw["kind"] == "run" else 0
    return Meld(raw["kind"], placed, raw["owner"], start)


def _run_start(placed: tuple[Placed, ...], rules: GameRules) -> int:
    first = rank_of(placed[0].stands_for)
    if first == 1:
        if rules.meld.ace is AceModel.HIGH_ONLY:
            return 14
        if rules.meld.ace is AceModel.HIGH_OR_LOW and len(placed) > 1 \
                and rank_of(placed[1].stands_for) != 2:
            return 14
    return first


_LAST_RESULTS: list[Any] = [None, []]


def _results(raw: list[dict[str, Any]]) -> list[HandResult]:
    """The finished hands of the view; the last list parsed is kept, since every view of a
    hand repeats it."""
    if raw != _LAST_RESULTS[0]:
        _LAST_RESULTS[:] = [raw, [_result(r) for r in raw]]
    return list(_LAST_RESULTS[1])


def _result(raw: dict[str, Any]) -> HandResult:
    extra: dict[str, Any] = {}
    if "payments" in raw:
        extra["payments"] = tuple(tuple(p) for p in raw["payments"])
    detail = {k: v for k, v in raw.items() if k not in _RESULT_KEYS and k not in extra}
    return HandResult(raw["winner"], raw["reason"], tuple(raw["scores"]),
                      tuple(tuple(h) for h in raw.get("revealed", [])), detail, **extra)
