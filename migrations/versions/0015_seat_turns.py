"""Who played a match's seats (PROTOCOL.md §10, "Who decided"; docs/server.md, "History,
profiles and ratings"): each seat of a match that is over keeps the turns its player played
(`own_turns`), the turns the server played for them (`played_for_turns`) and whether its person
resigned (`resigned`), written when the match ends, so that a profile counts a match by the
ratings' own-play rule without reading its actions.

The matches already over are filled in from their logs: a turn is a run of one seat's actions
in a hand, played for the person when any of its actions has `played_for` (as
`app/services/ratings.py`'s `turns_by_seat` counts them); a seat was resigned when its room's
seat still names its person with a computer player playing it (a resignation is for good).
Hand-written and static like 0001.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OVER = "SELECT id FROM matches WHERE status IN ('finished', 'abandoned')"

# Each seat's turns in each match that is over: own and played for.
TURNS = f"""
WITH ordered AS (
  SELECT a.match_id, a.hand_no, a.seq, a.seat,
         CASE WHEN a.played_for IS NULL THEN 0 ELSE 1 END AS played,
         CASE WHEN LAG(a.seat) OVER (PARTITION BY a.match_id, a.hand_no ORDER BY a.seq) = a.seat
              THEN 0 ELSE 1 END AS starts
  FROM match_actions a
  WHERE a.seat IS NOT NULL AND a.match_id IN ({OVER})
), runs AS (
  SELECT match_id, hand_no, seat, played,
         SUM(starts) OVER (PARTITION BY match_id, hand_no ORDER BY seq
                           ROWS UNBOUNDED PRECEDING) AS run
  FROM ordered
), turns AS (
  SELECT match_id, seat, MAX(played) AS played FROM runs GROUP BY match_id, hand_no, run, seat
)
SELECT match_id, seat, SUM(1 - played) AS own, SUM(played) AS played_for
FROM turns GROUP BY match_id, seat
"""

RESIGNED = f"""
UPDATE match_seats SET resigned = CASE WHEN EXISTS (
    SELECT 1 FROM matches m JOIN room_seats r ON r.room_id = m.room_id
    WHERE m.id = match_seats.match_id AND r.seat = match_seats.seat
      AND r.player_id = match_seats.player_id AND r.bot IS NOT NULL) THEN true ELSE false END
WHERE match_id IN ({OVER})
"""


def upgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("own_turns", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("played_for_turns", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("resigned", sa.Boolean(), nullable=True))
    bind = op.get_bind()
    turns = [{"match": m, "seat": seat, "own": own, "played_for": played_for}
             for m, seat, own, played_for in bind.execute(sa.text(TURNS))]
    if turns:
        bind.execute(sa.text(
            "UPDATE match_seats SET own_turns = :own, played_for_turns = :played_for"
            " WHERE match_id = :match AND seat = :seat"), turns)
    bind.execute(sa.text(  # a seat that never acted
        f"UPDATE match_seats SET own_turns = 0, played_for_turns = 0"
        f" WHERE own_turns IS NULL AND match_id IN ({OVER})"))
    bind.execute(sa.text(RESIGNED))


def downgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:  # SQLite: copies the table without them
        batch.drop_column("resigned")
        batch.drop_column("played_for_turns")
        batch.drop_column("own_turns")
