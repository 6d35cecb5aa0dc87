-- Why a competition stopped by itself (a resume refused, a game the arena could not set up): shown to
-- everyone on its page and in the API; empty otherwise.
ALTER TABLE competitions ADD COLUMN detail TEXT NOT NULL DEFAULT '';
