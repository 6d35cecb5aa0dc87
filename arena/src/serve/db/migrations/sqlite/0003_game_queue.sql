-- The game queue: the games of the checks and competitions being played, claimed by workers (the
-- server's own slots and `arena worker` processes) under a lease, and their results. Also each
-- upload's bytes, from which a worker on another machine stores the bot (verified by its hash), and
-- the workers' heartbeats.

-- An upload as received (its SHA-256 hex is the store's folder name).
CREATE TABLE blobs (
    hash  TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
);

-- A check (`check-<version id>`) or competition (`competition-<id>`) whose games are queued.
CREATE TABLE runs (
    run      TEXT PRIMARY KEY,
    -- 0: checks first, 1: competitions
    priority INTEGER NOT NULL,
    -- 1 while the server plays it (workers claim only its games), 0 once paused, cancelled or over
    active   INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE queue (
    run            TEXT NOT NULL REFERENCES runs (run),
    -- the schedule's game id (g0001)
    game           TEXT NOT NULL,
    -- JSON: the scheduled game (players, opening, seed)
    job            TEXT NOT NULL,
    -- queued | leased | done
    status         TEXT NOT NULL DEFAULT 'queued',
    -- 1 for the first lease, +1 for each reissue; a result is taken only from the latest
    attempt        INTEGER NOT NULL DEFAULT 0,
    worker         TEXT,
    -- a random token per lease: only its holder renews the lease or stores the result
    token          TEXT,
    lease_until_ms BIGINT,
    -- JSON: the game's record and logs
    result         TEXT,
    -- 1 once the server has taken the result
    delivered      INTEGER NOT NULL DEFAULT 0,
    queued_ms      BIGINT NOT NULL,
    done_ms        BIGINT,
    PRIMARY KEY (run, game)
);
-- a run's claimable games in the order they were queued; a worker's leases (its heartbeat)
CREATE INDEX queue_by_run ON queue (run, status, queued_ms);
CREATE INDEX queue_by_worker ON queue (worker, status);

CREATE TABLE workers (
    name         TEXT PRIMARY KEY,
    slots        INTEGER NOT NULL,
    started_ms   BIGINT NOT NULL,
    heartbeat_ms BIGINT NOT NULL,
    -- games finished (results taken) by this worker
    games        INTEGER NOT NULL DEFAULT 0,
    -- results refused: the game had been reissued to another worker
    refused      INTEGER NOT NULL DEFAULT 0
);
