-- The contest's accounts, bots and competitions. Times are Unix milliseconds; flags are 0 or 1.
-- Written in the SQL that SQLite and PostgreSQL share, so the PostgreSQL backend keeps these tables.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    -- argon2id PHC string
    password_hash TEXT NOT NULL,
    -- SHA-256 hex of the API token (the token itself is shown once)
    token_hash    TEXT NOT NULL UNIQUE,
    admin         INTEGER NOT NULL DEFAULT 0,
    created_ms    BIGINT NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 hex of the session cookie's value
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    -- the token every form of this session carries
    csrf       TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE bots (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE,
    owner          INTEGER NOT NULL REFERENCES users (id),
    -- the version that competitions take: the newest that passed its check
    active_version INTEGER,
    disqualified   INTEGER NOT NULL DEFAULT 0,
    created_ms     BIGINT NOT NULL
);

CREATE TABLE versions (
    id           INTEGER PRIMARY KEY,
    bot_id       INTEGER NOT NULL REFERENCES bots (id),
    number       INTEGER NOT NULL,
    -- SHA-256 hex of the upload: the store's folder name
    hash         TEXT NOT NULL,
    -- arena-bot.toml as stored (a single executable's is written by the server)
    manifest     TEXT NOT NULL,
    kind         TEXT NOT NULL,
    bytes        BIGINT NOT NULL,
    uploaded_ms  BIGINT NOT NULL,
    -- pending | running | passed | failed
    check_status TEXT NOT NULL DEFAULT 'pending',
    check_detail TEXT NOT NULL DEFAULT '',
    checked_ms   BIGINT,
    UNIQUE (bot_id, number)
);

CREATE TABLE competitions (
    id          INTEGER PRIMARY KEY,
    -- test | final
    kind        TEXT NOT NULL,
    -- scheduled | running | paused | finished | cancelled
    status      TEXT NOT NULL,
    created_ms  BIGINT NOT NULL,
    started_ms  BIGINT,
    finished_ms BIGINT
);

-- The bots of a competition, snapshotted when it is created.
CREATE TABLE entries (
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    name           TEXT NOT NULL,
    -- NULL for a reference bot
    bot_id         INTEGER REFERENCES bots (id),
    version_id     INTEGER REFERENCES versions (id),
    disqualified   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (competition_id, name)
);
