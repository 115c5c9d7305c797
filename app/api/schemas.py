"""The shapes of the HTTP API's answers (PROTOCOL.md §5, docs/server.md "The HTTP schema").

Every route declares its answer as one of these models and its refusals with `errors`, so the
OpenAPI document at ``/openapi.json`` is what the server does (a schema fuzzer checks it: see
tests/api/test_schema_fuzz.py). Answers are exactly their model's fields: a field the server
starts sending is declared here first, or the answer fails its own validation. A key a service
leaves out stays out of the answer (`Route`), so optional keys such as a room's `invite_code`
keep their meaning. Engine data (options, views, match logs' deals) stays free-form.

Also here, what makes the document true of requests: `api_router` (each router's routes and the
refusals all of them give), `document` (no string holds a NUL, as `edge.NoNul` enforces), the
rules the services enforce with their own codes said in the request schemas (`NAME_RULE`,
`room_rules`, ...), and `Integer`, a body's number as JSON Schema reads one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from pydantic.json_schema import JsonDict, JsonValue
from pydantic_core import PydanticCustomError

from app.bots.registry import LEVELS
from app.engine.games import GAMES
from app.refusals import Code
from app.services import accounts
from app.services.room_settings import MAX_GRACE_SECONDS, MAX_STAKE, MAX_TURN_SECONDS
from app.services.tournaments import MAX_ARRIVAL_SECONDS, MIN_ARRIVAL_SECONDS

Json = dict[str, Any]
MAX_OFFSET = 2**31 - 1  # paging further finds nothing; PostgreSQL's OFFSET is a bigint
MAX_TEXT = 64  # a query filter's or an id's length (ids are 32 characters)


def _json_integer(value: Any) -> Any:
    """A number as JSON Schema reads `integer` (2 and 2.0), never a boolean or a string: pydantic
    alone would take false as 0 and "2" as 2."""
    if isinstance(value, bool | str):
        raise ValueError("expected a number")
    return value


Integer = Annotated[int, BeforeValidator(_json_integer)]  # of a request body


# What the accounts service keeps, said in the schema of the fields that reach it; it refuses the
# rest itself, with the codes the client shows (400 `invalid_name`, `invalid_username`,
# `weak_password`), so these shape the document, not the validation. A name may come with spaces
# around it (stripped), and holds no control character.
NAME_RULE: JsonDict = {"maxLength": accounts.MAX_NAME}
USERNAME_RULE: JsonDict = {"pattern": f"^{accounts.USERNAME.pattern}$"}
PASSWORD_RULE: JsonDict = {"minLength": accounts.MIN_PASSWORD}



def room_rules(schema: JsonDict) -> None:
    """The rules of a new room the registry enforces, said in `RoomIn`'s schema: its game, its
    seats, stake, buy-in and timers (the registry refuses the rest with 400 and the rule's code;
    the seats a game takes, and its options, it checks per game)."""
    games: list[JsonValue] = list(sorted(GAMES))
    rules: dict[str, JsonDict] = {
        "game": {"enum": games},
        "seats": {"minimum": min(g.min_players for g in GAMES.values()),
                  "maximum": max(g.max_players for g in GAMES.values())},
        "stake": {"minimum": 0, "maximum": MAX_STAKE},
        "buy_in": {"minimum": 0, "maximum": MAX_STAKE},
        "turn_seconds": {"minimum": 0, "maximum": MAX_TURN_SECONDS},
        "grace_seconds": {"minimum": 0, "maximum": MAX_GRACE_SECONDS}}
    _add_rules(schema, rules)


def bot_rules(schema: JsonDict) -> None:
    """A computer player's level is one of the levels (`BotsIn`; else 400 `bad_level`)."""
    levels: list[JsonValue] = list(sorted(LEVELS))
    _add_rules(schema, {"level": {"enum": levels}})


def _add_rules(schema: JsonDict, rules: dict[str, JsonDict]) -> None:
    """Each rule said on its field, for the fields the model has (quick seat's body has but a
    part of a new room's)."""
    properties = schema["properties"]
    assert isinstance(properties, dict)  # noqa: S101 - a model's schema
    for name, rule in rules.items():
        if name not in properties:
            continue
        field = properties[name]
        assert isinstance(field, dict)  # noqa: S101
        field.update(rule)


class Route(APIRoute):
    """A route whose answer holds only the keys its service set (`response_model_exclude_unset`):
    validating an answer never adds a key. (Its 405's `Allow` is the edge's: every method of
    its path, `edge.allowed_methods`.)"""

    def __init__(self, path: str, endpoint: Any, **kwargs: Any) -> None:
        super().__init__(path, endpoint, **{**kwargs, "response_model_exclude_unset": True})


NO_NUL = "^[^\\u0000]*$"


def document(app: FastAPI) -> None:
    """Make `app`'s OpenAPI document say of every string what the edge and `In` enforce: it
    holds no NUL character; of every call that reads a token that it may be refused with 403
    (``suspended``: PROTOCOL.md §9); and of a 422 that it is in the error format
    (``invalid_input``, the edge's), not FastAPI's list."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = build()
            _no_nul(document)
            _suspended(document)
            _invalid_input(document)
        return build()

    app.openapi = openapi  # type: ignore[method-assign]


def _suspended(document: dict[str, Any]) -> None:
    forbidden = {"description": _MEANING[403],
                 "content": {"application/json": {"schema": {
                     "$ref": "#/components/schemas/ErrorOut"}}}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if operation.get("security"):
                operation["responses"].setdefault("403", forbidden)


def _invalid_input(document: dict[str, Any]) -> None:
    error_out = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if "422" in operation["responses"]:
                operation["responses"]["422"] = {"description": _MEANING[422],
                                                 "content": error_out}
    schemas = document.get("components", {}).get("schemas", {})
    for fastapis in ("HTTPValidationError", "ValidationError"):
        schemas.pop(fastapis, None)


def _no_nul(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _no_nul(item)
    elif isinstance(node, dict):
        if node.get("type") == "string" and not {"pattern", "format", "enum", "const"} & set(node):
            node["pattern"] = NO_NUL
        for value in node.values():
            _no_nul(value)


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


NUL_MESSAGE = "text may not contain the NUL character (U+0000)"


class In(BaseModel):
    """A request body. No field it declares holds a NUL character, at any depth (PostgreSQL can
    neither store nor compare one): the request is refused with 400 ``nul_character`` (the
    edge's `invalid_input` answer), as the schema says of every string. A key it does not
    declare is ignored, whatever it holds."""

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        if _holds_nul(value):
            raise PydanticCustomError(Code.NUL_CHARACTER.value, NUL_MESSAGE)
        return value


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(_holds_nul(item) for item in value)
    return False


# --- refusals ---------------------------------------------------------------------------------


class FieldError(BaseModel):
    """What is wrong with one part of a request its schema refuses (pydantic's error): its
    `type`, where it is (`loc`: ``["body", "seats"]``) and a sentence."""

    type: str
    loc: list[str | int]
    msg: str


class ErrorDetail(BaseModel):
    """A refusal: a stable `code` and a human `message`; some add fields (a 429's
    `retry_after`, a conflict's `options`, a 405's `allowed`, a 422's `errors`)."""

    model_config = ConfigDict(extra="allow")
    code: str
    message: str
    errors: list[FieldError] | None = None


class ErrorOut(BaseModel):
    """An error answer: every 4xx and 5xx under ``/api/``."""

    detail: ErrorDetail


_MEANING = {
    400: "Refused: the request breaks a rule (the code says which), or holds a NUL character",
    401: "No token, or an unknown or expired one (or wrong credentials)",
    403: "Not allowed for this player",
    404: "No such thing (or not visible to this player)",
    409: "Conflicts with the current state",
    413: "The request body is over 64 KiB",
    422: "The request does not fit its schema (`invalid_input`: `errors` says where)",
    429: "Too many attempts: wait Retry-After seconds",
    503: "Storage unavailable, a room between processes, or (readiness) the process cannot "
         "take actions: try again shortly",
}


def api_router(prefix: str, tag: str, *statuses: int) -> APIRouter:
    """A router of `Route`s whose every route declares 413 (the body limit applies to any
    request) and `statuses`, the refusals all its routes can give."""
    return APIRouter(prefix=prefix, tags=[tag], route_class=Route,
                     responses=errors(413, *statuses))


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route that refuses with these statuses, in the error format.
    (422, the request's own validation, FastAPI declares for routes with parameters; `document`
    puts it in the error format.)"""
    return {status: {"model": ErrorOut, "description": _MEANING[status]}
            for status in statuses}


# --- auth and me ------------------------------------------------------------------------------


class PlayerRef(Out):
    id: str
    name: str
    role: str


class TokenOut(Out):
    token: str
    player: PlayerRef


class LogoutOut(Out):
    logged_out: bool
    sockets_closed: int


class MeOut(Out):
    id: str
    name: str
    username: str | None
    role: str
    is_guest: bool
    balance: int
    escrow: int
    tables: dict[str, int]


class RenamedOut(Out):
    id: str
    name: str


class RatingChangeOut(Out):
    seat: int
    player_id: str | None
    rank: int
    before: float
    after: float
    delta: float
    mu: float
    sigma: float


class Opponent(Out):
    seat: int
    name: str
    player_id: str | None
    bot: str | None


class PlayedMatch(Out):
    """One match a player sat in, as their history shows it."""

    id: str
    game: str
    options: Json
    status: str
    rated: bool
    private: bool
    seat: int
    result: str
    # an extension: the player resigned and a stand-in played their seat out (docs/server.md)
    played_out: bool
    score: int | None
    totals: list[int] | None
    chips: int
    rating: RatingChangeOut | None
    opponents: list[Opponent]
    created_at: str
    finished_at: str | None


class MatchesPage(Out):
    matches: list[PlayedMatch]
    total: int
    limit: int
    offset: int


class AccuracyPoint(Out):
    match: str
    game: str
    finished_at: str | None
    accuracy: float  # 0-100, the seat's accuracy in the match's analysis (PROTOCOL.md §10)
    decisions: int


class AccuracyOut(Out):
    """My accuracy in my analysed matches, oldest first (an extension, docs/server.md)."""

    matches: list[AccuracyPoint]


class MyRoom(Out):
    id: str
    game: str
    options: Json
    status: str
    seats: int
    taken: int
    stake: int
    buy_in: int
    private: bool
    rated: bool
    host_id: str
    your_seat: int
    resigned: bool  # gave the seat up during the match: a stand-in plays it, they may watch
    invite_code: str | None
    created_at: str


class MyRoomsOut(Out):
    rooms: list[MyRoom]


class TopUpStatus(Out):
    amount: int
    period_seconds: float
    chips: int
    last_at: str | None
    next_at: str | None
    available: bool


class TopUpOut(Out):
    amount: int
    balance: int


# --- public history ---------------------------------------------------------------------------


class RatingOut(Out):
    rating: float
    mu: float
    sigma: float
    matches: int


class GameStats(Out):
    """A player's figures at a game. ``wins`` and ``losses`` (an extension) count a match by
    the ratings' own-play rule (docs/server.md), ``win_rate`` is wins over the two (null
    without either); ``matches`` counts every finished match they sat in."""

    game: str
    matches: int
    wins: int
    losses: int
    win_rate: float | None
    average_score: float | None
    chips: int
    rating: RatingOut | None


class ProfileOut(Out):
    id: str
    name: str
    is_guest: bool
    member_since: str
    games: list[GameStats]
    recent: list[PlayedMatch]


class BoardRow(Out):
    rank: int
    player_id: str
    name: str
    rating: float
    mu: float
    sigma: float
    matches: int


class MyRank(Out):
    """The caller's place: `rank` null until they have played enough rated matches (and only
    `matches` and a null `rating` before their first)."""

    rank: int | None
    rating: float | None
    mu: float | None = None
    sigma: float | None = None
    matches: int


class LeaderboardOut(Out):
    game: str
    min_matches: int
    total: int
    limit: int
    offset: int
    players: list[BoardRow]
    me: MyRank | None


PlayedFor = Literal["timeout", "stand_in"]


class StepError(Out):
    code: str
    message: str


class Step(Out):
    """A state of a replay: after the deal (`index` and `action` null) or after an action."""

    hand: int
    index: int | None
    seat: int | None
    action: Json | None
    state: Json
    # PROTOCOL.md §4: the server made this move for the seat's person (null: their own move)
    played_for: PlayedFor | None = None
    error: StepError | None = None  # only on a step the engine refused (never in a stored log)


class ReplayOut(Out):
    match: Json
    seat: int | None
    names: list[str]
    results: list[Json]
    steps: list[Step]
    error: str | None = None  # only when the match's first deal was never stored


class AnalysisSeat(Out):
    """A seat's figures over its player's own decisions (PROTOCOL.md §10, "Who decided")."""

    seat: int
    player: str | None  # the player's id; null for a computer player
    decisions: int
    accuracy: float | None  # null: the seat's player made no decision of their own
    loss: float
    # §10 extension (docs/analysis.md): the sum of the seat's luck over the hands; null in an
    # analysis stored before luck was worked out
    luck: float | None = None


class AnalysedLuck(Out):
    """§10 extension: a seat's luck in one hand, summed over its ``draws`` from the stock."""

    hand: int
    seat: int
    draws: int
    luck: float


Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class AnalysedDecision(Out):
    hand: int
    index: int
    seat: int
    played: Json
    best: Json
    loss: float
    grade: Grade
    # §10 "Who decided": the server made this move for the seat's person; graded for
    # information only, counted in no seat's figures
    played_for: PlayedFor | None = None


class AnalysisOut(Out):
    """PROTOCOL.md §10: a finished match's decisions, graded, and each seat's accuracy."""

    match: str
    seats: list[AnalysisSeat]
    decisions: list[AnalysedDecision]
    luck: list[AnalysedLuck] = []  # per hand and seat; empty in an analysis stored before luck


# --- games and health -------------------------------------------------------------------------


class GameOut(Out):
    key: str
    name: str
    description: str
    min_players: int
    max_players: int
    options_schema: Json
    options_defaults: Json


class GamesOut(Out):
    games: list[GameOut]


class HealthOut(Out):
    status: str
    dev_stacked_decks: bool
    stalled_rooms: list[str]
    restore_seconds: float
    cluster: Json | None = None  # only as one of several processes (docs/scaling.md)


class ReadyOut(Out):
    status: str  # "ready"; a process that is not ready answers 503 `not_ready` with `reasons`


# --- rooms ------------------------------------------------------------------------------------


class SeatOut(Out):
    seat: int
    name: str
    bot: str | None
    level: str | None
    player_id: str | None
    stand_in: str | None = None  # only while playing: why a stand-in plays the seat, or null


class RoomOut(Out):
    """A room as the lobby and the table header show it; `invite_code` only to its members
    (and to a caller with the code), `your_seat` in answers to one player."""

    id: str
    host_id: str
    game: str
    options: Json
    seats: int
    stake: int
    buy_in: int
    turn_seconds: int
    grace_seconds: int
    private: bool
    spectator_chat: bool
    rated: bool
    stand_in_for_absent: bool  # a tournament table: absent players' turns are played for them
    one_per_address: bool  # a second person from a seated person's address is refused a seat
    status: str
    match_id: str | None
    players: list[SeatOut | None]
    taken: int
    quick_seat: bool  # opened by quick seat: people only, starts by itself when full
    rematch: str | None
    # A tournament's table (docs/server.md "Tournament arrival"): its tournament, and while
    # it waits for its players, the moment (epoch seconds) its first hand is dealt at the latest.
    tournament: str | None = None
    deal_at: float | None = None
    invite_code: str | None = None
    your_seat: int | None = None


class LobbyOut(Out):
    rooms: list[RoomOut]


class JoinedOut(Out):
    seat: int
    room: RoomOut


class LeftOut(Out):
    left: bool


class BotsOut(Out):
    seats: list[int]
    room: RoomOut


# --- tournaments ------------------------------------------------------------------------------


def tournament_rules(schema: JsonDict) -> None:
    """The rules of a new tournament the service enforces with its own codes (400
    `bad_players`, `bad_table_seats`, `bad_entry`, `bad_prizes`, `bad_turn_seconds`), said in
    `TournamentIn`'s schema, and `bad_arrival_seconds`; the seats a game takes, and whether the
    prizes sum to 100 and fit the players, it checks per tournament."""
    games: list[JsonValue] = list(sorted(GAMES))
    _add_rules(schema, {
        "game": {"enum": games},
        "players": {"minimum": 2, "maximum": 64},
        "table_seats": {"minimum": 2, "maximum": 6},
        "entry": {"minimum": 0, "maximum": MAX_STAKE},
        "prizes": {"minItems": 1, "maxItems": 64, "items": {"type": "integer", "minimum": 1,
                                                            "maximum": 100}},
        "turn_seconds": {"minimum": 1, "maximum": MAX_TURN_SECONDS},
        "arrival_seconds": {"minimum": MIN_ARRIVAL_SECONDS, "maximum": MAX_ARRIVAL_SECONDS},
        "name": NAME_RULE})


class TournamentPlayer(Out):
    id: str
    name: str


class TournamentTableOut(Out):
    room: str | None  # null: a lone player, who advanced without playing
    players: list[str]
    winner: str | None
    opened_at: datetime | None  # when its room first opened (null: not yet, or a lone player)
    # GET /api/tournaments/{id} only (an extension of §8): who of its players has a socket
    # open on it, for each table that plays; null elsewhere.
    connected: list[str] | None = None


class TournamentRound(Out):
    round: int
    tables: list[TournamentTableOut]


class Standing(Out):
    place: int
    player: str
    name: str
    prize: int


class TournamentOut(Out):
    """A tournament (PROTOCOL.md §8): `prizes` in chips per place, 1st first, out of
    `prize_pool` (registered × entry)."""

    id: str
    name: str
    creator: str  # the creator's player id (an extension of §8: who may cancel)
    game: str
    options: Json
    status: str
    players: int
    table_seats: int
    entry: int
    prize_pool: int
    prizes: list[int]
    arrival_seconds: int  # a table's first deal waits at most this long for its players
    my_table: str | None  # the caller's table of the round now running, once open (§8)
    registered: list[TournamentPlayer]
    rounds: list[TournamentRound]
    standings: list[Standing]


class TournamentsOut(Out):
    tournaments: list[TournamentOut]


# --- admin ------------------------------------------------------------------------------------


class MatchSeatOut(Out):
    seat: int
    player_id: str | None
    bot: str | None
    name: str


class MatchSummary(Out):
    id: str
    room_id: str | None
    game: str
    options: Json
    players: int
    stake: int
    status: str
    winner: int | None
    totals: list[int] | None
    created_at: str
    finished_at: str | None
    seats: list[MatchSeatOut]


class MatchListOut(Out):
    matches: list[MatchSummary]


class AccountRef(Out):
    account: int
    kind: str
    player_id: str | None
    room_id: str | None
    seat: int | None


class TransferOut(Out):
    model_config = ConfigDict(populate_by_name=True)
    id: int
    key: str
    from_: AccountRef | None = Field(alias="from")
    to: AccountRef | None
    amount: int
    reason: str
    hand: int | None
    at: str


class ChatLine(Out):
    seat: int | None
    name: str
    text: str
    at: str


class MatchLogOut(Out):
    """The match log of PROTOCOL.md §4 with the match's summary, results, chips and chat."""

    game: str
    options: Json
    players: int
    hands: list[Json]
    match: MatchSummary
    results: list[Json]
    transfers: list[TransferOut]
    chat: list[ChatLine]


class StatesOut(Out):
    steps: list[Step]
    error: str | None = None  # only when the match's first deal was never stored


class PlayerRow(Out):
    id: str
    name: str
    username: str | None
    role: str
    is_guest: bool


class PlayersOut(Out):
    players: list[PlayerRow]


class LedgerOut(Out):
    player: PlayerRow
    balance: int
    transfers: list[TransferOut]


class AdminView(Out):
    id: str
    admin_id: str
    admin_name: str
    match_id: str
    route: str
    at: str


class ViewsOut(Out):
    views: list[AdminView]


# --- moderation (PROTOCOL.md §9) --------------------------------------------------------------


class BlocksOut(Out):
    blocked: list[str]


class CreatedOut(Out):
    id: str


class ReportRow(Out):
    id: str
    reporter: str
    player: str
    match: str | None
    reason: Literal["cheating", "collusion", "abuse", "other"]
    text: str
    status: Literal["open", "dismissed", "actioned"]
    note: str | None
    decided_by: str | None
    decided_at: str | None
    at: str


class ReportsOut(Out):
    reports: list[ReportRow]


class FairplayPair(Out):
    """PROTOCOL.md §9's PAIR (docs/fairplay.md: the signals, the score, the flag)."""

    players: list[str] = Field(min_length=2, max_length=2)
    matches: int
    score: float = Field(ge=0, le=1)
    flagged: bool
    reasons: list[Literal["chip_flow", "soft_play", "shared_address"]]
    evidence: list[str]  # match ids


class FairplayOut(Out):
    pairs: list[FairplayPair]


class SanctionOut(Out):
    id: str
    player: str
    kind: Literal["chat_mute", "suspension"]
    reason: str
    admin: str
    at: str
    ends_at: str
    lifted_at: str | None


class SanctionRow(SanctionOut):
    """A sanction as ``GET /api/admin/sanctions`` lists it: with the player's and the admin's
    names, and who lifted it early (null if nobody did)."""

    player_name: str
    admin_name: str
    lifted_by: str | None


class SanctionsOut(Out):
    sanctions: list[SanctionRow]


class CorrectionOut(Out):
    transfer: int
    amount: int
    balance: int


class AuditEntry(Out):
    """One admin action: who (``admin``), what (``action``), on whom (``player``), why
    (``reason``), when (``at``); ``subject`` names the report, sanction, transfer or match."""

    id: str
    admin: str
    admin_name: str
    action: str
    player: str | None
    subject: str | None
    reason: str
    at: str


class AuditOut(Out):
    actions: list[AuditEntry]
