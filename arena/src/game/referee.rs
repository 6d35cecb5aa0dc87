//! The referee: plays one scheduled game between two bot processes and returns its record.
//!
//! It starts both bots, runs the handshake under the startup deadline, asks each for moves under its
//! clock, checks every move with the rules of the `games` crate, and ends the game by the rules, by
//! adjudication or by a forfeit naming its reason. The bots' processes are always shut down.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use games::{Game, GameSpec, GameVisitor, Outcome, Player};

use crate::analyze::judge::{self, Verdict};
use crate::config::ProtocolKind;
use crate::game::clock::{Charge, Clock};
use crate::game::process::{BotProcess, IoFailure, Transcript};
use crate::plan::schedule::ScheduledGame;
use crate::plan::{BotPlan, Plan};
use crate::protocol::{self, codecup, ugi};
use crate::record::{GameRecord, GameResult, MoveEval, Termination};
use crate::sandbox::Containment;

/// How long a bot may take to exit after `quit` before its process group is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A bot's fault that ends the game, or its resignation ([`Termination::Resign`]): how it lost and what
/// happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub termination: Termination,
    pub detail: String,
}

impl Forfeit {
    fn new(termination: Termination, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            termination,
            detail: detail.into(),
        }
    }

    fn from_io(failure: IoFailure, waiting_for: &str, allowed: Duration) -> Forfeit {
        match failure {
            IoFailure::Timeout => Forfeit::new(
                Termination::Timeout,
                format!("no {waiting_for} within {} ms", allowed.as_millis()),
            ),
            IoFailure::Exited(how) => Forfeit::new(
                Termination::Crash,
                in_context(&how, &format!("while the arena waited for {waiting_for}")),
            ),
            IoFailure::OverLimit(how) => Forfeit::new(
                Termination::Limit,
                in_context(&how, &format!("while the arena waited for {waiting_for}")),
            ),
            IoFailure::LineTooLong | IoFailure::NotUtf8(_) => {
                Forfeit::new(Termination::Protocol, failure.to_string())
            }
        }
    }
}

/// `how` a process ended with `context` after the way it ended and before the end of its stderr:
/// `exited with status 3 while the arena waited for move; its stderr ends: …`.
fn in_context(how: &str, context: &str) -> String {
    const STDERR: &str = crate::game::process::STDERR_ENDS;
    match how.split_once(STDERR) {
        Some((ended, stderr)) => format!("{ended} {context}{STDERR}{stderr}"),
        None => format!("{how} {context}"),
    }
}

/// One side of the board during a game.
struct Seat<'a> {
    bot: &'a BotPlan,
    process: Option<BotProcess>,
    clock: Clock,
    /// CodeCup: how many of the game's moves this bot has been told or has made.
    known: usize,
    /// Whether the bot has been asked for a move yet.
    asked: bool,
    /// Its answer to the last request (for the detail of a second answer).
    last_answer: Option<String>,
}

/// Where a game runs: the folders it writes and the containment of its bots.
#[derive(Clone)]
pub struct GameEnv {
    /// The transcript (`<id>.log`) and the bots' stderr go here; `None`: not kept.
    pub logs: Option<PathBuf>,
    /// The run's containment layers.
    pub containment: Arc<Containment>,
    /// Sandboxed bots get their working folders here (`<results dir>/sandbox`).
    pub work_root: Option<PathBuf>,
    /// The folder a sandboxed bot must not see (the results root: other bots' logs and folders).
    pub hide: Option<PathBuf>,
    /// Sees each game as it is played (the contest server's live board); `None`: nobody watches.
    pub watch: Option<Arc<dyn Watch>>,
    /// The CPUs the bots run on (`sched_setaffinity`): the run's, which the
    /// [`GamePool`](crate::run::pool::GamePool) shares out so that each game slot has its own
    /// ([`crate::sandbox::affinity`]); `None`: anywhere.
    pub affinity: Option<Vec<usize>>,
}

/// The position a game in progress has reached, as a watcher sees it.
#[derive(Clone, Debug)]
pub struct Position {
    /// The board as text (the game's `Display`: rows of the board).
    pub text: String,
    /// The board picture ([`Game::frame`]), which the live board draws.
    pub frame: games::Frame,
    /// Each side's clock, ms left (first, second); `None` for a side without a game clock.
    pub clocks_ms: [Option<u64>; 2],
    /// The side to move next; `None` once the game is over.
    pub to_move: Option<Player>,
}

impl Position {
    /// The position `pos` with the clocks of `seats`.
    fn of<G: Game>(pos: &G, seats: &[Seat<'_>; 2]) -> Position {
        Position {
            text: pos.to_string(),
            frame: pos.frame(),
            clocks_ms: [seats[0].clock.left_ms(), seats[1].clock.left_ms()],
            to_move: pos.outcome().is_none().then(|| pos.turn()),
        }
    }
}

/// An observer of the games in progress, called from each game's task after the opening, after
/// every ply, and at the end: keep it quick (the clock of the side to move is not running, but the
/// game waits).
pub trait Watch: Send + Sync + std::fmt::Debug {
    /// The game so far: `record` (its players and `moves`) and the position after them.
    fn moved(&self, record: &GameRecord, position: &Position);
    /// Game `id` is over (recorded or not).
    fn ended(&self, id: &str);
    /// Game `record` is over and about to be handed back; `evals` holds, for each move a bot made (as
    /// `record.move_ms`), the mover's last score before it ([`MoveEval`]), `None` when it sent none (or
    /// speaks CodeCup). Nothing by default: the live PGN's watch keeps them ([`crate::run`]).
    fn evaluated(&self, _record: &GameRecord, _evals: &[Option<MoveEval>]) {}
}

/// A game that could not be set up by the arena's fault, not a bot's: a cgroup or folder that could
/// not be made, or the contest server's game queue out of reach. The tournament stops (nothing
/// recorded is lost).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: {message}")]
pub struct SetupError {
    pub game: String,
    pub message: String,
    /// The failure is the game queue's database, not this machine's containment: the same run may
    /// be played again later (`serve::queue::Remote`, with the feature `server`).
    pub queue: bool,
}

/// The ending of a game whose module failed ([`Termination::Void`]): no result counts; `fault` names
/// the module and what it did.
fn void(fault: String) -> (GameResult, Termination, String) {
    (GameResult::Draw, Termination::Void, fault)
}

/// Plays `game` of `plan` in `env`. Whatever the bots do ends as a [`GameRecord`].
///
/// # Errors
/// A [`SetupError`] when the arena cannot contain a bot as the plan asks.
pub async fn play_game(
    plan: &Plan,
    game: &ScheduledGame,
    env: &GameEnv,
) -> Result<GameRecord, SetupError> {
    plan.spec
        .visit_with_setup(&game.setup, Referee { plan, game, env })
        .expect("the plan checked every opening's setup dots")
        .await
}

struct Referee<'a> {
    plan: &'a Plan,
    game: &'a ScheduledGame,
    env: &'a GameEnv,
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

impl<'a> GameVisitor for Referee<'a> {
    type Output = BoxFuture<'a, Result<GameRecord, SetupError>>;
    fn visit<G: Game>(self, start: G) -> Self::Output {
        Box::pin(self.run(start))
    }
}

/// The record of `game` of `plan` before any move: its players, time controls, opening and seed,
/// a draw by the rules with no move and no time used (the referee fills it in as the game goes; the
/// contest server records a game it does not play as this, voided).
pub fn unplayed_record(plan: &Plan, game: &ScheduledGame) -> GameRecord {
    let bots = [&plan.bots[game.first], &plan.bots[game.second]];
    GameRecord {
        id: game.id.clone(),
        round: game.round,
        pair: game.pair,
        game: plan.spec.kind().to_string(),
        variant: plan.spec.variant(),
        first: bots[0].name.clone(),
        second: bots[1].name.clone(),
        result: GameResult::Draw,
        termination: Termination::Normal,
        detail: String::new(),
        plies: 0,
        score: None,
        time_ms: [0, 0],
        time_control: bots.map(|b| b.time_control.to_string()),
        move_ms: Vec::new(),
        opening: game.opening.clone(),
        setup: game.setup.clone(),
        moves: Vec::new(),
        seed: game.seed,
        date: String::new(),
    }
}

impl<'a> Referee<'a> {
    async fn run<G: Game>(self, start: G) -> Result<GameRecord, SetupError> {
        let (plan, game) = (self.plan, self.game);
        let transcript = Transcript::new();
        let bots = [&plan.bots[game.first], &plan.bots[game.second]];
        let mut seats = bots.map(|bot| Seat {
            bot,
            process: None,
            clock: Clock::new(bot.time_control),
            known: 0,
            asked: false,
            last_answer: None,
        });
        let mut record = unplayed_record(plan, game);

        let start_score = start.score();
        let mut evals = Vec::new();
        // A copy of a module game's position shares its module (built-in games never fault): a fault
        // anywhere in the contest (a side to move, an outcome, a score read for an adjudication) voids
        // the game, whatever the contest made of the answers the failed module gave.
        let probe = start.clone();
        let outcome = self
            .contest(start, &mut seats, &transcript, &mut record, &mut evals)
            .await;
        let outcome = match (probe.fault(), outcome) {
            (_, Err(Fault::Setup(m))) => Err(Fault::Setup(m)),
            (Some(fault), _) => Ok(void(fault)),
            (None, o) => o,
        };
        if let Some(w) = &self.env.watch {
            w.ended(&game.id);
        }
        let outcome = match outcome {
            Err(Fault::Setup(message)) => {
                let [s0, s1] = &mut seats;
                tokio::join!(shutdown(s0), shutdown(s1));
                return Err(SetupError {
                    game: game.id.clone(),
                    message,
                    queue: false,
                });
            }
            Err(Fault::Bot(side, f)) => Err((side, f)),
            Ok(o) => Ok(o),
        };
        match outcome {
            Ok((result, termination, detail)) => {
                record.result = result;
                record.termination = termination;
                record.detail = detail;
            }
            // A built-in engine that stopped because the rules failed in its own process (its own
            // module instance or referee process, in a position the arena's did not reach): the
            // rules' failure, not the bot's.
            Err((side, forfeit))
                if bots[side.index()].builtin
                    && forfeit.detail.contains(bots::protocol::RULES_FAILED) =>
            {
                record.result = GameResult::Draw;
                record.termination = Termination::Void;
                record.detail = format!("{}: {}", bots[side.index()].name, forfeit.detail);
            }
            Err((side, forfeit)) => {
                record.result = GameResult::loss_of(side);
                record.termination = forfeit.termination;
                record.detail = format!("{}: {}", bots[side.index()].name, forfeit.detail);
            }
        }
        if !seats.iter().any(|s| s.asked) && record.termination.is_forfeit() {
            // Lost before any bot was asked for a move (in the handshake, or at the start): the opening
            // was never played to the bots, so it is kept as the game's opening but not as its moves.
            record.moves.clear();
            record.score = start_score;
        }
        record.plies = record.moves.len() as u32;
        record.time_ms = [seats[0].clock.used_ms(), seats[1].clock.used_ms()];
        record.date = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();

        let [s0, s1] = &mut seats;
        tokio::join!(shutdown(s0), shutdown(s1));
        if let Some(dir) = &self.env.logs {
            let _ = std::fs::write(dir.join(format!("{}.log", game.id)), transcript.text());
        }
        if let Some(w) = &self.env.watch {
            evals.truncate(record.move_ms.len());
            w.evaluated(&record, &evals);
        }
        Ok(record)
    }

    /// Starts the bots and plays the game. `Ok` is an ending by the rules or adjudication; `Err` names
    /// the side that forfeited, or the arena's own failure to set the game up.
    async fn contest<G: Game>(
        &self,
        mut pos: G,
        seats: &mut [Seat<'a>; 2],
        transcript: &Transcript,
        record: &mut GameRecord,
        evals: &mut Vec<Option<MoveEval>>,
    ) -> Result<(GameResult, Termination, String), Fault> {
        let (plan, game) = (self.plan, self.game);
        // Step 1. The opening (generated from the same rules, so it is legal). `made`: the moves
        // each side has made, the opening's included (a side may move twice in a row: Kalah).
        let mut made = [0usize; 2];
        for text in &game.opening {
            let m: G::Move = text.parse().expect("the schedule's opening parses");
            made[pos.turn().index()] += 1;
            let played = pos.play(m);
            if let Some(fault) = pos.fault() {
                record.moves.push(text.clone());
                return Ok(void(fault));
            }
            played.expect("the schedule's opening is legal");
            record.moves.push(text.clone());
        }
        record.score = pos.score();
        if let Some(w) = &self.env.watch {
            w.moved(record, &Position::of(&pos, seats));
        }

        // Step 2. Start both bots and shake hands, at the same time, under the startup deadline.
        let env = self.env;
        for (i, seat) in seats.iter_mut().enumerate() {
            let side = if i == 0 { "first" } else { "second" };
            let who = if i == 0 {
                Player::First
            } else {
                Player::Second
            };
            let stderr = env
                .logs
                .as_ref()
                .map(|d| d.join(format!("{}-{side}-{}.stderr", game.id, seat.bot.name)));
            let label = format!("{}-{side}-{}", game.id, seat.bot.name);
            let mut jail = env
                .containment
                .jail(
                    &seat.bot.limits,
                    seat.bot.sandbox,
                    &label,
                    env.work_root.as_deref(),
                    env.hide.as_deref(),
                )
                .map_err(Fault::Setup)?;
            if let Some(cpus) = &env.affinity {
                jail.pin(cpus).map_err(Fault::Setup)?;
            }
            match BotProcess::spawn(
                &seat.bot.name,
                &seat.bot.launch,
                stderr,
                transcript.clone(),
                jail,
            ) {
                Ok(p) => seat.process = Some(p),
                Err(e) => {
                    return Err(Fault::Bot(
                        who,
                        Forfeit::new(
                            Termination::Crash,
                            format!("could not start {}: {e}", seat.bot.launch.program.display()),
                        ),
                    ));
                }
            }
        }
        let game_line = ugi::game(&plan.spec);
        let [a, b] = seats;
        let (ra, rb) = tokio::join!(
            handshake(a, &game_line, game.seed),
            handshake(b, &game_line, game.seed)
        );
        ra.map_err(|f| Fault::Bot(Player::First, f))?;
        rb.map_err(|f| Fault::Bot(Player::Second, f))?;
        // CodeCup's rule: a bot sleeps while it is not its turn (it is woken to be told anything).
        if plan.suspend_idle {
            for seat in seats.iter_mut() {
                if let Some(p) = seat.process.as_mut() {
                    p.suspend(true);
                }
            }
        }

        // Step 3. Moves until the game ends. `own`: each bot's scores of its own moves, for
        // `[adjudication]`.
        let mut own: [Vec<Option<MoveEval>>; 2] = [Vec::new(), Vec::new()];
        // Who made the last move a bot chose (not the opening's): a side that moves again (Kalah) may
        // have written its next move already.
        let mut last_mover: Option<Player> = None;
        loop {
            // A game module that failed (trapped, looped, broke the ABI): nobody's fault but its own.
            if let Some(fault) = pos.fault() {
                return Ok(void(fault));
            }
            if let Some(outcome) = pos.outcome() {
                let grounded = record.moves.last().map(String::as_str) == Some("ground");
                let detail = match pos.score() {
                    Some([x, y]) => format!("score {x}:{y}"),
                    None => String::new(),
                };
                let termination = if grounded {
                    Termination::Ground
                } else {
                    Termination::Normal
                };
                return Ok((result_of(outcome), termination, detail));
            }
            if let Some(rule) = plan.adjudication.solver {
                if record.moves.len() >= rule.after as usize {
                    if let Some(verdict) = solve(plan.spec, &record.moves, rule.nodes).await? {
                        let result = verdict.result(pos.turn());
                        let detail = verdict.detail(result);
                        return Ok((result, Termination::Solved, detail));
                    }
                }
            }
            if let Some(limit) = plan.max_plies {
                if record.moves.len() >= limit as usize {
                    let (result, detail) = match pos.score() {
                        Some([x, y]) => (
                            GameResult::from_score([x, y]),
                            format!("{limit} plies; score {x}:{y}"),
                        ),
                        None => (GameResult::Draw, format!("{limit} plies")),
                    };
                    return Ok((result, Termination::Adjudicated, detail));
                }
            }
            if let Some(rule) = plan.adjudication.draw {
                if rule.draws(made, [own[0].as_slice(), own[1].as_slice()]) {
                    let (result, detail) = match pos.score() {
                        Some([x, y]) => (
                            GameResult::from_score([x, y]),
                            format!("{}; score {x}:{y}", rule.detail()),
                        ),
                        None => (GameResult::Draw, rule.detail()),
                    };
                    return Ok((result, Termination::Adjudicated, detail));
                }
            }
            if let Some(rule) = plan.adjudication.resign {
                // Recorded as the resignation of the side to move, as `bestmove resign` is (so the
                // re-refereeing of the record checks it the same way).
                let side = pos.turn();
                if rule.resigns(&own[side.index()]) {
                    return Err(Fault::Bot(
                        side,
                        Forfeit::new(Termination::Resign, rule.detail()),
                    ));
                }
            }
            let side = pos.turn();
            let clocks = [seats[0].clock.left_ms(), seats[1].clock.left_ms()];
            let incs = [
                seats[0].clock.control().inc_ms,
                seats[1].clock.control().inc_ms,
            ];
            let seat = &mut seats[side.index()];
            let again = last_mover == Some(side);
            let (text, spent, eval) =
                request_move(seat, &game.setup, &record.moves, clocks, incs, again)
                    .await
                    .map_err(|f| Fault::Bot(side, f))?;
            let m: G::Move = text.parse().map_err(|e| {
                Fault::Bot(side, Forfeit::new(Termination::Illegal, format!("{e}")))
            })?;
            let played = pos.play(m);
            if let Some(fault) = pos.fault() {
                record.moves.push(m.to_string());
                record.move_ms.push(spent);
                return Ok(void(fault));
            }
            played.map_err(|e| {
                Fault::Bot(
                    side,
                    Forfeit::new(Termination::Illegal, format!("move {text}: {e}")),
                )
            })?;
            // A side that moves again (Kalah) may have written its next move with this one: that line
            // is the answer to its next request, not a second answer to this one. Nor is it frozen
            // between its moves: a CodeCup bot gets no request for its next move (its own move is
            // all it would be told), so it may be thinking already.
            if pos.turn() != side || pos.outcome().is_some() {
                if plan.suspend_idle {
                    if let Some(p) = seat.process.as_mut() {
                        p.suspend(true);
                    }
                }
                second_answer(seat, &text).map_err(|f| Fault::Bot(side, f))?;
            }
            record.moves.push(m.to_string());
            record.move_ms.push(spent);
            made[side.index()] += 1;
            last_mover = Some(side);
            evals.push(eval);
            own[side.index()].push(eval);
            record.score = pos.score();
            seat.known = record.moves.len();
            if let Some(w) = &self.env.watch {
                w.moved(record, &Position::of(&pos, seats));
            }
        }
    }
}

/// A legal answer is the only one: a second answer the bot wrote with it (already read in with it) is a
/// protocol forfeit, not the answer to the next request.
fn second_answer(seat: &mut Seat<'_>, first: &str) -> Result<(), Forfeit> {
    let kind = seat.bot.protocol;
    let Some(process) = seat.process.as_mut() else {
        return Ok(());
    };
    while let Some(line) = process.buffered_line() {
        if protocol::is_answer(kind, &line) {
            return Err(Forfeit::new(
                Termination::Protocol,
                match kind {
                    ProtocolKind::Ugi => format!(
                        "two answers to one go: bestmove {first}, then {:?}",
                        line.trim()
                    ),
                    ProtocolKind::Codecup => {
                        format!("two moves for one turn: {first}, then {:?}", line.trim())
                    }
                },
            ));
        }
    }
    Ok(())
}

/// Why a game ended before its end by the rules: a bot's forfeit, or the arena's own failure.
enum Fault {
    Bot(Player, Forfeit),
    Setup(String),
}

/// The solver's verdict on the position `moves` reach ([`judge::judge`]), searched on a blocking thread
/// so that the bots' replies in other games are read (and timed) meanwhile.
async fn solve(spec: GameSpec, moves: &[String], nodes: u64) -> Result<Option<Verdict>, Fault> {
    let moves = moves.to_vec();
    tokio::task::spawn_blocking(move || judge::judge(&spec, &moves, nodes))
        .await
        .map_err(|e| Fault::Setup(format!("the solver failed: {e}")))?
        .map_err(|e| Fault::Setup(format!("the solver: {e}")))
}

fn result_of(outcome: Outcome) -> GameResult {
    GameResult::from_winner(outcome.winner())
}

/// Sends the protocol's quit word and ends the process group after [`QUIT_GRACE`].
async fn shutdown(seat: &mut Seat<'_>) {
    if let Some(p) = seat.process.take() {
        p.shutdown(Some(protocol::quit(seat.bot.protocol)), QUIT_GRACE)
            .await;
    }
}

/// The UGI handshake (`docs/protocol.md`): `ugi` → `ugiok`, options, `game`, `isready` → `readyok`,
/// `uginewgame`; `game_line` is the `game` command. CodeCup bots have none. Not charged to the clock.
async fn handshake(seat: &mut Seat<'_>, game_line: &str, seed: u64) -> Result<(), Forfeit> {
    if seat.bot.protocol == ProtocolKind::Codecup {
        return Ok(());
    }
    let allowed = Duration::from_millis(seat.bot.time_control.startup_ms);
    let deadline = Instant::now() + allowed;
    let process = seat.process.as_mut().expect("spawned");
    let io = |f: IoFailure, what: &str| Forfeit::from_io(f, what, allowed);
    process
        .send(ugi::UGI, deadline)
        .await
        .map_err(|f| io(f, "ugiok"))?;
    // The names of the options it declares, for the seed.
    let mut declared: Vec<String> = Vec::new();
    loop {
        let line = process
            .read_line(deadline)
            .await
            .map_err(|f| io(f, "ugiok"))?;
        match ugi::BotLine::read(&line) {
            ugi::BotLine::UgiOk => break,
            ugi::BotLine::BestMove(_) => {
                return Err(Forfeit::new(
                    Termination::Protocol,
                    format!("{:?} before ugiok (no go was sent)", line.trim()),
                ))
            }
            ugi::BotLine::OptionName(name) => declared.push(name),
            _ => {}
        }
    }
    let setoptions = ugi::setoptions(&seat.bot.options, &declared, seed);
    for line in setoptions
        .iter()
        .map(String::as_str)
        .chain([game_line, ugi::ISREADY])
    {
        process
            .send(line, deadline)
            .await
            .map_err(|f| io(f, "readyok"))?;
    }
    loop {
        let line = process
            .read_line(deadline)
            .await
            .map_err(|f| io(f, "readyok"))?;
        match ugi::BotLine::read(&line) {
            ugi::BotLine::ReadyOk => break,
            ugi::BotLine::BestMove(_) => {
                return Err(Forfeit::new(
                    Termination::Protocol,
                    format!("{:?} before readyok (no go was sent)", line.trim()),
                ))
            }
            _ => {}
        }
    }
    process
        .send(ugi::UGINEWGAME, deadline)
        .await
        .map_err(|f| io(f, "readyok"))
}

/// Asks the seat's bot for its move in the position after `moves` (played from the start with `setup`'s
/// dots), under its clock. Returns the move text, the time it took, ms (as charged to the clock), and
/// the last score the bot gave with it (a UGI `info … score …` line after the request's `readyok`).
/// `again`: the bot made the last move too (Kalah's extra move), so a CodeCup bot's move already
/// written is the answer to this request.
async fn request_move(
    seat: &mut Seat<'_>,
    setup: &games::Setup,
    moves: &[String],
    clocks: [Option<u64>; 2],
    incs: [u64; 2],
    again: bool,
) -> Result<(String, u64, Option<MoveEval>), Forfeit> {
    let allowed = seat.clock.allowance();
    // CodeCup has no handshake, so a bot's start-up and its first move cannot be told apart: the first
    // move also gets the startup time, not charged to the clock (as a UGI handshake is not).
    let grace = if seat.bot.protocol == ProtocolKind::Codecup && !seat.asked {
        Duration::from_millis(seat.bot.time_control.startup_ms)
    } else {
        Duration::ZERO
    };
    let first_request = !seat.asked;
    seat.asked = true;
    let process = seat.process.as_mut().expect("spawned");
    // An answer nobody asked for, left from the last request, would be taken for the answer to this one.
    // (A CodeCup bot that moves again may have written this move with its last one: read it below.)
    let early_ok = again && seat.bot.protocol == ProtocolKind::Codecup;
    while let Some(line) = (!early_ok).then(|| process.buffered_line()).flatten() {
        if protocol::is_answer(seat.bot.protocol, &line) {
            return Err(Forfeit::new(
                Termination::Protocol,
                format!(
                    "{:?} when it was not asked for a move (a second answer to the last request)",
                    line.trim()
                ),
            ));
        }
    }
    // Messages before the clock starts get the same allowance for the pipe.
    let write_deadline = Instant::now() + allowed;
    let send_failure = |f: IoFailure| match f {
        // The write failed because the bot is gone, not because its pipe was full.
        IoFailure::Exited(how) => Forfeit::new(
            Termination::Crash,
            in_context(
                &how,
                "before its next command (the arena's write to it failed)",
            ),
        ),
        IoFailure::OverLimit(how) => Forfeit::new(
            Termination::Limit,
            in_context(
                &how,
                "before its next command (the arena's write to it failed)",
            ),
        ),
        f => Forfeit::from_io(f, "room in its input pipe", allowed),
    };
    let request: Vec<String> = match seat.bot.protocol {
        ProtocolKind::Ugi => {
            // The sync point: `isready` goes first, so every line the bot wrote before `readyok` was
            // written before it read this request (a second answer to the last `go`, or an answer
            // before the first one), whatever its write pattern. Sent with the request, not waited
            // for, so it costs no round trip.
            let go = ugi::Go {
                time_ms: clocks,
                inc_ms: incs,
                // A per-move cap is a `movetime` only for a mover without a game clock.
                movetime_ms: if seat.clock.left_ms().is_none() {
                    seat.clock.control().max_move_ms
                } else {
                    None
                },
            };
            ugi::move_request(setup, moves, &go).into()
        }
        ProtocolKind::Codecup => codecup::move_request(moves, seat.known)
            .map(str::to_string)
            .collect(),
    };
    for line in &request {
        process
            .send(line, write_deadline)
            .await
            .map_err(send_failure)?;
    }
    let started = Instant::now();
    let deadline = started + allowed + grace;
    // UGI: lines before the request's `readyok` belong to an earlier request.
    let mut synced = seat.bot.protocol == ProtocolKind::Codecup;
    let mut eval = None;
    let reply = loop {
        let line = match process.read_line(deadline).await {
            Ok(line) => line,
            Err(f) => {
                // A bot that is gone stopped its clock when it went, not after the arena's wait for
                // its exit status.
                let until = process.gone_at().unwrap_or_else(Instant::now);
                let spent = until.saturating_duration_since(started);
                seat.clock.charge(spent.saturating_sub(grace));
                return Err(Forfeit::from_io(f, "move", allowed + grace));
            }
        };
        match seat.bot.protocol {
            ProtocolKind::Codecup => {
                if let Some(reply) = codecup::reply(&line) {
                    break reply.to_string();
                }
            }
            ProtocolKind::Ugi if !synced => {
                if ugi::BotLine::read(&line) == ugi::BotLine::ReadyOk {
                    synced = true;
                } else if protocol::is_answer(ProtocolKind::Ugi, &line) {
                    return Err(Forfeit::new(
                        Termination::Protocol,
                        match (first_request, &seat.last_answer) {
                            (false, Some(last)) => format!(
                                "two answers to one go: bestmove {last}, then {:?} (or isready, sent \
                                 before every move request, not answered first)",
                                line.trim()
                            ),
                            _ => format!(
                                "{:?} before its first go (or isready, sent before every move \
                                 request, not answered first)",
                                line.trim()
                            ),
                        },
                    ));
                }
            }
            ProtocolKind::Ugi => match ugi::BotLine::read(&line) {
                ugi::BotLine::BestMove(None) => {
                    return Err(Forfeit::new(
                        Termination::Protocol,
                        "bestmove without a move",
                    ))
                }
                ugi::BotLine::BestMove(Some(ugi::NO_MOVE)) => {
                    return Err(Forfeit::new(
                        Termination::Protocol,
                        "bestmove (none) in a game that is not over",
                    ))
                }
                ugi::BotLine::BestMove(Some(m)) => break m.to_string(),
                _ => {
                    if let Some(e) = ugi::info_eval(&line) {
                        eval = Some(e);
                    }
                }
            },
        }
    };
    let spent = started.elapsed().saturating_sub(grace);
    if seat.clock.charge(spent) == Charge::Flagged {
        // To the microsecond: whole milliseconds can read `took 500 ms, allowed 500 ms`.
        return Err(Forfeit::new(
            Termination::Timeout,
            format!(
                "took {:.3} ms, allowed {} ms",
                spent.as_secs_f64() * 1000.0,
                allowed.as_millis()
            ),
        ));
    }
    seat.last_answer = Some(reply.clone());
    // UGI's `bestmove resign` (no game's notation has such a move): a loss, not a forfeit. After the
    // clock's check: a resignation that comes too late is a timeout.
    if matches!(seat.bot.protocol, ProtocolKind::Ugi) && reply == ugi::RESIGN {
        return Err(Forfeit::new(Termination::Resign, "resigned"));
    }
    Ok((
        reply,
        spent.as_millis().min(u128::from(u64::MAX)) as u64,
        eval,
    ))
}
