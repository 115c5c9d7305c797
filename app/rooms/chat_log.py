"""The room's chat: each line stored before anyone is shown it, and the recent lines that a
(re)connecting client and a rematch room are given. Whom a line reaches is the seating policy's
(`app.seating_policy.shown`: never a player who blocked its speaker, PROTOCOL.md §9): each line
keeps its speaker and the players who blocked them, as the store read them when it stored the
line, rebuilt it after a restart or a takeover, or carried it into a rematch's room."""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

from app.refusals import Code, Refusal
from app.seating_policy import shown
from app.services import outage

from .connections import RECENT
from .store import ChatLine, MatchStore, RoomRecord

log = logging.getLogger(__name__)


class ChatLog:
    def __init__(self, record: RoomRecord, store: MatchStore) -> None:
        self.record = record
        self.store = store
        self.lines: deque[ChatLine] = deque(maxlen=RECENT)

    async def say(self, seat: int | None, player_id: str, name: str, text: str) -> ChatLine:
        """Store a line and return it, with the players who blocked its speaker. Spectators may
        chat only where the host allowed it; a player whose chat is muted is refused
        (``chat_muted``, by the store); a line that cannot be stored is refused
        (``storage_unavailable``)."""
        if seat is None and not self.record.settings.spectator_chat:
            raise Refusal(Code.SPECTATORS_CANNOT_CHAT,
                            "only seated players may chat in this room (the host did not "
                            "allow spectators to chat)")
        try:
            line = await self.store.add_chat(self.record, self.record.match_id, seat,
                                             player_id, name, text)
        except Exception as exc:
            if not outage.is_storage_outage(exc):
                raise
            log.warning("room %s: could not store a chat line: %r", self.record.id, exc)
            raise Refusal(outage.CODE, "the chat line could not be stored: " + outage.MESSAGE
                            ) from None
        self.lines.append(line)
        return line

    def recent(self, listener: str) -> list[dict[str, Any]]:
        """The recent lines ``listener`` is shown, as ``chat`` messages."""
        return [line.message() for line in self.lines
                if shown(listener, line.speaker, line.blockers)]

    def carried(self) -> list[dict[str, Any]]:
        """The recent lines for a rematch's room, each with its speaker (a command's answer,
        which may travel between processes)."""
        return [{"name": line.name, "text": line.text, "speaker": line.speaker}
                for line in self.lines]

    def restore(self, lines: list[ChatLine]) -> None:
        """The recent lines of a room rebuilt from the database."""
        self.lines.extend(lines)

    async def carry(self, lines: list[dict[str, Any]]) -> None:
        """A rematch room starts with the chat of the room it follows (`carried`): each line
        stored as this room's, speaker kept (with no seat, since the seats are new), so a
        restart keeps it too, and shown to whom its speaker's blockers allow."""
        self.lines.extend(await self.store.carry_chat(self.record, [
            ChatLine(None, str(line["name"]), str(line["text"]), line.get("speaker"))
            for line in lines[-RECENT:]]))
