-- Names unique regardless of case (`ALICE` beside `alice`, a bot `Random` beside `random`): the inserts
-- already refuse such a name, and these indexes make the database refuse it too, also when two
-- registrations race. Names are ASCII (contest::valid_name), where lower() agrees on both databases.
-- A database that already holds two such names fails here, and `arena serve` names them
-- (Db::migrate).
CREATE UNIQUE INDEX users_name_regardless_of_case ON users (lower(name));
CREATE UNIQUE INDEX bots_name_regardless_of_case ON bots (lower(name));
