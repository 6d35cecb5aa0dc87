-- Why the organiser disqualified a bot (shown to its author and on the competition pages); empty when
-- it is not disqualified.
ALTER TABLE bots ADD COLUMN disqualified_reason TEXT NOT NULL DEFAULT '';
