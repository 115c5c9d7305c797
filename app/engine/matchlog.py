"""The match log (PROTOCOL.md §4) as a value, and the one fold that replays it.

``MatchLog.parse(obj)`` checks a JSON match log once (rules, dealers, deals, seats) and parses each
logged action once into the engine's :mod:`actions` values; ``to_json()`` prints it back.
``fold(log)`` replays it lazily, one :class:`Step` per deal and per action. Every driver of a
match goes through here: ``replay`` (the command and the admin steps), a live room's recovery,
self-play and the test player (which deal with :func:`deal_hand` and close a called window with
:func:`settle_calls` as they play, so the log they write folds to the state they reached).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .actions import Action, parse_action
from .deal import Deal, check_deal_sizes, parse_deal, shuffled_deal
from .errors import MalformedAction, RuleError, excerpt
from .fairdeal import DealSeeds, parse_client_seeds, parse_server_seed
from .flow import Events
from .game import apply, can_start_hand, close_call_window, new_match, next_dealer, start_hand
from .games import match_rules
from .rules import GameRules
from .state import State

_NOTHING: Mapping[str, Any] = MappingProxyType({})
# PROTOCOL.md §4: why the server made a move for a person's seat (their turn timer ran out; a
# stand-in played it while they were away, absent or had resigned).
PLAYED_FOR = ("timeout", "stand_in")


class InvalidMatchLog(ValueError):
    """The input is not a valid match log (exit status 1 of ``replay``)."""


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One logged action for ``seat``, parsed once.

    A malformed action is no reason to refuse the log (PROTOCOL.md §4: it is the replay's first
    rejection): ``action`` is then None, ``error`` says why and ``raw`` keeps what was logged.
    ``extra`` keeps the entry's other keys (an export's ``client_id`` and ``at``, and
    ``played_for`` where the server made the move for a person's seat: PROTOCOL.md §4).
    """

    seat: int
    action: Action | None
    extra: Mapping[str, Any] = field(default_factory=lambda: _NOTHING)
    raw: Any = None
    error: MalformedAction | None = None

    @classmethod
    def parse(cls, obj: object, where: str) -> LoggedAction:
        if not isinstance(obj, dict) or "action" not in obj:
            raise InvalidMatchLog(f"{where} must be an object with a seat and an action")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InvalidMatchLog(f"{where}.seat must be an integer, not {excerpt(seat)}")
        extra = _extra(obj, ("seat", "action"))
        if extra.get("played_for", "timeout") not in PLAYED_FOR:
            raise InvalidMatchLog(f"{where}.played_for must be one of {', '.join(PLAYED_FOR)}, "
                                  f"not {excerpt(extra['played_for'])}")
        try:
            return cls(seat, parse_action(obj["action"]), extra)
        except MalformedAction as exc:
            return cls(seat, None, extra, obj["action"], exc)

    @property
    def client_id(self) -> Any:
        """The client's id for the action, where the log recorded one (a live room's log)."""
        return self.extra.get("client_id")

    @property
    def played_for(self) -> str | None:
        """Why the server made this move for a person's seat (``timeout``, ``stand_in``), or
        None: the seat's own player's move (PROTOCOL.md §4)."""
        return self.extra.get("played_for")

    def action_json(self) -> Any:
        """The action as JSON: as parsed, or as logged when it did not parse."""
        return self.raw if self.action is None else self.action.to_json()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action_json(), **self.extra}


@dataclass(frozen=True, slots=True)
class HandLog:
    """One hand: its dealer (None: by the game's rule), how it is dealt, its actions.

    A hand is dealt by its ``deal``, by its ``seeds`` (PROTOCOL.md §7) or by the integer
    ``seed`` (Python's generator). A live hand logs its ``deal`` and ``seeds`` both: the deal is
    the truth, and the fold checks that the seeds give it. ``extra`` keeps the hand's other keys.
    """

    dealer: int | None
    deal: Deal | None
    actions: tuple[LoggedAction, ...] = ()
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _NOTHING)
    seeds: DealSeeds | None = None

    @classmethod
    def parse(cls, obj: object, rules: GameRules, where: str) -> HandLog:
        if not isinstance(obj, dict):
            raise InvalidMatchLog(f"{where} must be an object")
        dealer = obj.get("dealer")
        if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)
                                   or not 0 <= dealer < rules.players):
            raise InvalidMatchLog(f"{where}.dealer must be a seat 0..{rules.players - 1}, "
                                  f"not {excerpt(dealer)}")
        seeded = "server_seed" in obj or "client_seeds" in obj
        if ("deal" in obj) + ("seed" in obj) + (seeded and "deal" not in obj) != 1:
            raise InvalidMatchLog(f"{where}: give exactly one of 'deal', 'seed' and "
                                  "'server_seed' with 'client_seeds' (or 'deal' with both)")
        seed = obj.get("seed")
        if "seed" in obj and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidMatchLog(f"{where}.seed must be an integer, not {excerpt(seed)}")
        seeds = _parse_seeds(obj, rules, where) if seeded else None
        deal = None
        if "deal" in obj:
            try:
                deal = parse_deal(rules, obj["deal"])
            except RuleError as exc:
                raise InvalidMatchLog(f"{where}.deal: {exc.message}") from None
        actions = obj.get("actions", [])
        if not isinstance(actions, list):
            raise InvalidMatchLog(f"{where}.actions must be a list")
        return cls(dealer, deal,
                   tuple(LoggedAction.parse(a, f"{where}.actions[{i}]")
                         for i, a in enumerate(actions)),
                   seed, _extra(obj, ("dealer", "deal", "seed", "server_seed", "client_seeds",
                                      "actions")), seeds)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.dealer is None else {"dealer": self.dealer}
        if self.deal is not None:
            out["deal"] = self.deal.to_json()
        elif self.seeds is None:
            out["seed"] = self.seed
        if self.seeds is not None:
            out.update(self.seeds.to_json())
        out["actions"] = [a.to_json() for a in self.actions]
        out.update(self.extra)
        return out


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A whole match: the validated rules, the options as logged, and its hands in order."""

    rules: GameRules = field(repr=False)
    options: Mapping[str, Any]
    hands: tuple[HandLog, ...]

    @classmethod
    def of(cls, rules: GameRules, hands: tuple[HandLog, ...]) -> MatchLog:
        """The log of a match played under ``rules`` (options as set, defaults left out)."""
        return cls(rules, MappingProxyType(rules.options.model_dump(exclude_defaults=True)),
                   hands)

    @classmethod
    def parse(cls, obj: object) -> MatchLog:
        """Check a JSON match log, or raise :class:`InvalidMatchLog` naming the bad field.

        Keys beside ``game``, ``options``, ``players`` and ``hands`` (an admin's export adds the
        results, transfers and chat) are not part of the log and are left out.
        """
        if not isinstance(obj, dict):
            raise InvalidMatchLog("a match log is a JSON object")
        for key in ("game", "players", "hands"):
            if key not in obj:
                raise InvalidMatchLog(f"missing {excerpt(key)}")
        options = obj.get("options") or {}
        try:
            rules = match_rules(obj["game"], options, obj["players"])
        except RuleError as exc:
            raise InvalidMatchLog(f"{exc.code}: {exc.message}") from None
        hands = obj["hands"]
        if not isinstance(hands, list):
            raise InvalidMatchLog("hands must be a list of objects")
        return cls(rules, MappingProxyType(dict(options)),
                   tuple(HandLog.parse(h, rules, f"hands[{i}]") for i, h in enumerate(hands)))

    @property
    def game(self) -> str:
        return self.rules.key

    @property
    def players(self) -> int:
        return self.rules.players

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "players": self.players,
                "hands": [h.to_json() for h in self.hands]}


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: the state after a deal (``index`` None) or after an action.

    ``error`` set: the action was rejected, ``state`` is the state just before it, and this is
    the fold's last step.
    """

    hand: int
    index: int | None
    entry: LoggedAction | None
    state: State
    events: Events
    error: RuleError | None = None

    @property
    def seat(self) -> int | None:
        return None if self.entry is None else self.entry.seat


def fold(log: MatchLog) -> Iterator[Step]:
    """Replay ``log`` through the engine, lazily: a step for each deal and each action.

    A Call Rummy window closes inside ``apply`` at the next action that is not a call
    (OPT-CALL-4); at the end of a hand's actions a window with calls closes too
    (:func:`settle_calls`), and its events end that last action's step. Raises
    :class:`InvalidMatchLog` when a hand cannot be dealt where it stands.
    """
    st = new_match(log.rules)
    for h, hand in enumerate(log.hands):
        st = deal_hand(st, hand, h)
        yield Step(h, None, None, st, [])
        last = len(hand.actions) - 1
        for i, entry in enumerate(hand.actions):
            try:
                new, events = apply_logged(st, entry)
            except RuleError as exc:
                yield Step(h, i, entry, st, [], exc)
                return
            if i == last:
                new, closed = settle_calls(new)
                events += closed
            st = new
            yield Step(h, i, entry, st, events)


def final_state(log: MatchLog) -> State:
    """The state at the end of ``log``; raises the first rejected action's :class:`RuleError`
    (a log a server recorded never holds one)."""
    st = new_match(log.rules)
    for step in fold(log):
        if step.error is not None:
            raise step.error
        st = step.state
    return st


def deal_hand(st: State, hand: HandLog, h: int) -> State:
    """Start hand ``h`` of a match from its log entry: its dealer (or the game's), its deal."""
    if not can_start_hand(st):
        raise InvalidMatchLog(f"hands[{h}]: the previous hand has not ended or the game is over")
    dealer = next_dealer(st) if hand.dealer is None else hand.dealer
    return start_hand(st, _hand_deal(st.rules, dealer, hand, h), dealer)


def _hand_deal(rules: GameRules, dealer: int, hand: HandLog, h: int) -> Deal:
    """The logged deal (checked against its seeds, if given), else the one its seeds give."""
    seeded = None if hand.seeds is None else hand.seeds.deal(rules, dealer)
    if hand.deal is None:
        return seeded if seeded is not None else shuffled_deal(
            rules, dealer, random.Random(hand.seed))
    try:
        check_deal_sizes(rules, dealer, hand.deal)
    except RuleError as exc:
        raise InvalidMatchLog(f"hands[{h}].deal: {exc.message}") from None
    if seeded is not None and seeded != hand.deal:
        raise InvalidMatchLog(f"hands[{h}].deal is not the deal its server_seed and "
                              f"client_seeds give with dealer {dealer}")
    return hand.deal


def apply_logged(st: State, entry: LoggedAction) -> tuple[State, Events]:
    """``apply`` of a logged action; a malformed one raises its parse error."""
    if entry.action is None:
        assert entry.error is not None  # noqa: S101 - LoggedAction.parse sets one or the other
        raise entry.error
    return apply(st, entry.seat, entry.action)


def settle_calls(st: State) -> tuple[State, Events]:
    """Close a Call Rummy window that holds calls (OPT-CALL-4): where a hand's logged actions
    end, and when a driver's grace period is over, so that a hand won by a call is over."""
    if st.call is not None and st.call.calls:
        return close_call_window(st)
    return st, []


def _parse_seeds(obj: dict[str, Any], rules: GameRules, where: str) -> DealSeeds:
    """A hand's ``server_seed`` and ``client_seeds`` (PROTOCOL.md §7), both required."""
    for key in ("server_seed", "client_seeds"):
        if key not in obj:
            raise InvalidMatchLog(f"{where}: 'server_seed' and 'client_seeds' go together")
    try:
        server_seed = parse_server_seed(obj["server_seed"])
    except RuleError as exc:
        raise InvalidMatchLog(f"{where}.server_seed: {exc.message}") from None
    try:
        return DealSeeds(server_seed, parse_client_seeds(obj["client_seeds"], rules.players))
    except RuleError as exc:
        raise InvalidMatchLog(f"{where}.client_seeds: {exc.message}") from None


def _extra(obj: dict[str, Any], known: tuple[str, ...]) -> Mapping[str, Any]:
    extra = {k: v for k, v in obj.items() if k not in known}
    return MappingProxyType(extra) if extra else _NOTHING
