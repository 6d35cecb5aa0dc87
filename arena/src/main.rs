//! `arena`: the command line. See `arena --help` and README.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use arena::config::Config;
use arena::plan::Plan;
use arena::report::{Report, ReportOptions};
use arena::stats::sprt::SprtDecision;
use arena::tournament::{self, RunOptions};
use arena::{out, outln};

#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Runs bot executables against each other at Dots, Connect Four and tic-tac-toe"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run (or resume) the tournaments of one or more config files, one after another.
    Run {
        /// TOML config files (see configs/).
        #[arg(required = true)]
        configs: Vec<PathBuf>,
        /// Start afresh: move an existing results folder aside (it is kept, never deleted).
        #[arg(long)]
        fresh: bool,
        /// Games played at once (overrides the config).
        #[arg(long)]
        concurrency: Option<usize>,
        /// The folder that holds each tournament's results folder.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Plain progress lines even on a terminal.
        #[arg(long)]
        no_progress: bool,
        /// Play only part K of N of each schedule (whole game pairs), into <name>.shard-K-of-N/; run the
        /// other parts elsewhere and join them with `arena merge`. `auto`: K and N from a Slurm job array
        /// or a Kubernetes Indexed Job (see deploy/). Not for SPRT matches, which stay on one machine.
        #[arg(long, value_name = "K/N|auto")]
        shard: Option<arena::shard::ShardRequest>,
        /// With --shard auto: the number of shards, when the scheduler does not say (a Kubernetes Indexed
        /// Job's completions); overrides the config's [shards] count.
        #[arg(long, value_name = "N", requires = "shard")]
        shard_count: Option<u32>,
        /// Print the standings every N recorded games (as cutechess's -ratinginterval).
        #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        report_every: Option<usize>,
    },
    /// Join the results folders of one tournament's shards (or copies from several machines) into one
    /// folder, then print its report. `arena run` on the merged folder resumes what is still missing.
    Merge {
        /// Results folders to read, e.g. results/c4.shard-1-of-2 results/c4.shard-2-of-2.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// The folder to merge into (created if missing; games it holds are kept), e.g. results/c4.
        #[arg(long)]
        into: PathBuf,
        /// Fail (exit status 1, after merging) when scheduled games are missing, as a scheduler's merge
        /// job should; without it the missing games are listed by shard and `arena run` resumes them.
        #[arg(long)]
        complete: bool,
    },
    /// Print the report of a results folder from its games.csv alone: standings with Elo ratings and 95%
    /// intervals, crosstable, LOS matrix, and head-to-head statistics (also rewrites standings.csv and
    /// crosstable.csv there). With several folders (of one game and variant), rates all their games
    /// together and writes nothing.
    Ratings {
        /// Results folders, e.g. results/connect4 (several: their games rated as one pool).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Rate this bot 0 (default: the `anchor` of the run's config.toml copy in the folder, the same in
        /// every folder given, else the mean rating is 0).
        #[arg(long)]
        anchor: Option<String>,
        /// Parametric bootstrap samples for the 95% intervals and the LOS matrix (at least 20: fewer give
        /// no meaningful 2.5% and 97.5% quantiles); the report states their Monte Carlo error.
        #[arg(
            long,
            default_value_t = arena::report::DEFAULT_BOOTSTRAP,
            value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(20..)
        )]
        bootstrap: usize,
        /// The seed of the bootstrap (the same seed and games give the same figures).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the head-to-head statistics of these two bots (game pairs, pentanomial, Elo, LOS), from
        /// BOT's side.
        #[arg(long, num_args = 2, value_names = ["BOT", "OPPONENT"])]
        pair: Vec<String>,
    },
    /// Judge every move of a results folder's games by the game-theoretic value (tic-tac-toe, Connect
    /// Four 7×6): per bot the share of value-losing moves, wins and draws thrown away; per game the first
    /// value-losing move. Writes <dir>/analysis.csv and <dir>/analysis-games.csv.
    Analyze {
        /// A tournament's results folder, e.g. results/tictactoe.
        dir: PathBuf,
        /// Nodes per search before a move counts as unsolved (never guessed).
        #[arg(long, default_value_t = arena::analyze::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Play a bot executable against a reference bot and report whether it behaves: its handshake, each
    /// game's ending, its slowest move, every forfeit with the end of its transcript. Exit status 0 when
    /// it forfeited no game, 1 when it did (or on an error). Example:
    /// `arena probe --game connect4 -- ./mybot --level 3`.
    Probe(ProbeArgs),
    /// Play a bot yourself in the terminal: the board after every move, both clocks, moves typed in the
    /// game's notation; the game is recorded like a tournament game in <results>/play-<time>/.
    Play(PlayArgs),
    /// Replay a recorded game by the rules and print its moves and the board (after the last ply, after
    /// ply N with --ply, or after every ply with --every). Also a Dots game of an SGF file (GM[40]), e.g.
    /// one played on zagram.org: `arena replay game.sgf`.
    Replay {
        /// A tournament's results folder, e.g. results/connect4, or an SGF file.
        dir: PathBuf,
        /// The game's id, as in games.csv (g0001); for an SGF file of several games, <stem>-<n>.
        id: Option<String>,
        /// Show the board after this many plies (0: the start position).
        #[arg(long)]
        ply: Option<usize>,
        /// Show the board after every ply.
        #[arg(long)]
        every: bool,
    },
    /// Show the containment layers this machine gives bot processes (cgroups, rlimits, subreaper,
    /// freezer, bubblewrap) and the default limits.
    Doctor,
    /// Write a results folder's games as records other programs read: SGF for Dots (one file per game),
    /// PGN for every game (games.pgn, for Ordo and BayesElo), Connect Four as Pons's digit strings
    /// (games.pons, one game per line).
    Export {
        /// A tournament's results folder, e.g. results/dots.
        dir: PathBuf,
        /// sgf, pgn or pons.
        #[arg(long, value_enum)]
        format: arena::formats::Format,
        /// The folder to write into (default: <dir>/export).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Only this game (its id in games.csv).
        #[arg(long)]
        game: Option<String>,
    },
    /// Tune a bot's options by SPSA (fishtest's): a `format = "tune"` config names the bot and, in
    /// `[tune]`, the options with their start, range, c_end and r_end (docs/tuning.md). Writes
    /// <results>/<name>/tune.csv (one row per iteration; a second run resumes from it), tune.svg and
    /// tuned.toml, then with `verify = true` an SPRT of the tuned against the start values.
    Tune {
        /// The tune config, e.g. configs/tune-alphabeta-connect4.toml.
        config: PathBuf,
        /// Stop once this many iterations are recorded (default: the config's `[tune] iterations`).
        #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..))]
        iterations: Option<u64>,
        /// The folder that holds the run's results folder.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Start afresh: move an existing results folder aside (it is kept, never deleted).
        #[arg(long)]
        fresh: bool,
        /// Plain progress lines even on a terminal.
        #[arg(long)]
        no_progress: bool,
    },
    /// Write <dir>/report.html from a results folder: standings with Elo and intervals, crosstable,
    /// forfeits, SPRT state, config, and every game replayable on a board; one self-contained file to
    /// open in a browser or put on a web server (`arena run` writes it at the end of every run).
    Report {
        /// A tournament's results folder, e.g. results/dots.
        dir: PathBuf,
    },
    /// Check config files and print their plans without playing.
    Check {
        #[arg(required = true)]
        configs: Vec<PathBuf>,
    },
    /// Serve a built-in reference bot on stdin/stdout (how configs' `builtin` bots are started).
    Bot {
        /// The bot, one of the reference bots (see README.md): random, minimax, alphabeta, ….
        name: String,
        /// The bot's own flags (see `arena bot <name> --help`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Solve positions: `arena solve connect4 [W H]` reads positions in Pascal Pons's notation (column
    /// digits 1–W, one position per line) on stdin and prints `position score nodes µs` for each; the
    /// 7×6 book answers positions near the start at once. Any size with W <= 9 and W × (H + 1) <= 64.
    Solve {
        /// The game: only connect4.
        #[arg(value_parser = ["connect4"])]
        game: String,
        /// Columns (default 7; give the rows too).
        #[arg(requires = "height")]
        width: Option<u32>,
        /// Rows (default 6).
        height: Option<u32>,
        /// A score for every column: `position s1 … sW nodes µs` (`-` for a full column), as Pons's -a.
        #[arg(long)]
        analyze: bool,
        /// Win, draw or loss only (1, 0, -1), which is quicker.
        #[arg(long)]
        weak: bool,
        /// Search without the opening book.
        #[arg(long)]
        no_book: bool,
    },
    /// Build the Connect Four opening book with the solver: every position of at most --all-depth plies,
    /// and the positions of at most --depth plies a perfect player meets on either side. Resumes from
    /// <out>.progress. Example: `nice arena book connect4 --depth 12 --threads 2 --out bots/data/connect4-book.bin`.
    Book {
        /// The game: only connect4.
        #[arg(value_parser = ["connect4"])]
        game: String,
        /// Columns (default 7, at most 7; give the rows too). The bots load only the 7×6 book.
        #[arg(requires = "height")]
        width: Option<u32>,
        /// Rows (default 6).
        height: Option<u32>,
        /// The deepest positions, plies.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Every position up to this many plies.
        #[arg(long, default_value_t = 2)]
        all_depth: u32,
        /// The book file to write [default: connect4-book.bin for 7×6, connect4-WxH-book.bin else].
        #[arg(long)]
        out: Option<PathBuf>,
        /// The solvers' transposition tables together, MiB.
        #[arg(long, default_value_t = 1024)]
        hash_mb: usize,
        /// Solvers working at once, each on a thread with its share of --hash-mb.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Plain lines even on a terminal.
        #[arg(long)]
        no_progress: bool,
    },
    /// Measure tournament throughput and the arena's overhead per move against a bare pipe round trip;
    /// `arena bench containment` the cost of each containment layer; `arena bench soak` a long
    /// tournament with the arena's fds, memory and processes sampled; `arena bench dots` the dots-tps
    /// article's table on its tactical positions.
    Bench {
        /// `containment`, `soak`, `dots` or `field` (planning and games/s for 10, 100, 300 bots);
        /// absent: the arena's throughput and round trip.
        #[arg(value_parser = ["dots", "containment", "soak", "field"])]
        what: Option<String>,
        /// dots: one line per position too.
        #[arg(long)]
        verbose: bool,
        /// Games per measured tournament (soak: the whole soak, default 5000; field: per field size,
        /// default 300).
        #[arg(long)]
        games: Option<usize>,
        /// Bare pipe round trips to time.
        #[arg(long, default_value_t = 20000)]
        round_trips: usize,
        /// containment: how many times each layer is measured, alternating.
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        /// soak, field: games played at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Run on a multi-threaded runtime with this many worker threads instead of the single-threaded
        /// one `arena run` uses (to compare the two).
        #[arg(long)]
        worker_threads: Option<usize>,
    },
}

/// `arena probe`'s flags (see [`Command::Probe`]).
#[derive(Debug, clap::Args)]
struct ProbeArgs {
    /// tictactoe, connect4 or dots.
    #[arg(long)]
    game: String,
    /// Columns (tic-tac-toe, Connect Four) or points across (Dots); default: the game's.
    #[arg(long)]
    width: Option<u32>,
    /// Rows, or points down; default: the game's.
    #[arg(long)]
    height: Option<u32>,
    /// Tic-tac-toe: stones in a row to win.
    #[arg(long)]
    k: Option<u32>,
    /// Dots: empty, cross (default) or four-crosses.
    #[arg(long)]
    start: Option<String>,
    /// The bot's protocol.
    #[arg(long, default_value = "ugi", value_parser = ["ugi", "codecup"])]
    protocol: String,
    /// An option sent with setoption, NAME=VALUE (repeatable; UGI only).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Games to play, even: game pairs, the bot moving first in one game of each.
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// The reference bot to play against.
    #[arg(long, default_value = "random")]
    opponent: String,
    /// Time per game, ms.
    #[arg(long, default_value_t = 10_000)]
    time_ms: u64,
    /// Increment per move, ms.
    #[arg(long, default_value_t = 100)]
    inc_ms: u64,
    /// A hard cap per move, ms.
    #[arg(long)]
    max_move_ms: Option<u64>,
    /// Deadline for the handshake, ms.
    #[arg(long, default_value_t = 5000)]
    startup_ms: u64,
    /// The seed of the schedule and of the opponent.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The bot's name in the results (default: the command's file name).
    #[arg(long)]
    name: Option<String>,
    /// The probe plays into <results>/probe-<name>/ (an earlier probe's folder is moved aside).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Plain progress lines even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// The bot's command and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// `arena play --game G [variant] --vs <bot>`.
#[derive(Debug, clap::Args)]
struct PlayArgs {
    /// The game and variant, e.g. "tictactoe", "connect4 7 6", "dots 20 20 cross" (quoted, or as words).
    #[arg(long, num_args = 1.., required = true, value_name = "GAME")]
    game: Vec<String>,
    /// The opponent: a built-in bot (random, minimax, alphabeta, c4-solver, dots-tps, …) or a path to a
    /// bot executable (with a `/`, e.g. ./mybot).
    #[arg(long)]
    vs: String,
    /// An engine option for the bot: --set NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Play second (default: you move first).
    #[arg(long)]
    second: bool,
    /// The bot's clock for the game, seconds.
    #[arg(long, default_value_t = 10.0)]
    bot_time: f64,
    /// The bot's increment per move, seconds.
    #[arg(long, default_value_t = 0.1)]
    bot_inc: f64,
    /// Your clock for the game, seconds (default: no clock, an hour per move at most).
    #[arg(long)]
    your_time: Option<f64>,
    /// Your increment per move, seconds.
    #[arg(long, default_value_t = 0.0)]
    your_inc: f64,
    /// The game's seed (sent to a bot that declares a `seed` option).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder that holds the game's results folder.
    #[arg(long, default_value = "results")]
    results: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bot { name, args } => return bots::cli::run(&name, &args),
        Command::Check { configs } => check(&configs),
        Command::Doctor => doctor(),
        Command::Ratings {
            dirs,
            anchor,
            bootstrap,
            seed,
            pair,
        } => ratings(
            &dirs,
            ReportOptions {
                anchor_required: anchor.is_some(),
                anchor,
                bootstrap,
                seed,
                sprt: None,
                tiebreaks: Vec::new(),
                pair: match pair.as_slice() {
                    [a, b] => Some((a.clone(), b.clone())),
                    _ => None,
                },
            },
        ),
        Command::Solve {
            game: _,
            width,
            height,
            analyze,
            weak,
            no_book,
        } => solve(bots::c4_solver::SolveOptions {
            width: width.unwrap_or(7),
            height: height.unwrap_or(6),
            analyze,
            weak,
            book: !no_book,
        }),
        Command::Book {
            game: _,
            width,
            height,
            depth,
            all_depth,
            out,
            hash_mb,
            threads,
            no_progress,
        } => arena::book::build_connect4(&arena::book::BookOptions {
            width: width.unwrap_or(7),
            height: height.unwrap_or(6),
            out: out.unwrap_or_else(|| match (width.unwrap_or(7), height.unwrap_or(6)) {
                (7, 6) => PathBuf::from("connect4-book.bin"),
                (w, h) => PathBuf::from(format!("connect4-{w}x{h}-book.bin")),
            }),
            threads,
            depth,
            all_depth,
            hash_mb,
            progress_bar: !no_progress,
        })
        .and_then(|s| {
            outln!(
                "{} entries ({} solved in this run) in {:.1} s",
                s.entries,
                s.solved,
                s.seconds
            );
            Ok(ExitCode::SUCCESS)
        }),
        Command::Analyze { dir, nodes } => analyze(&dir, nodes),
        Command::Replay {
            dir,
            id,
            ply,
            every,
        } => replay(&dir, id.as_deref(), ply, every),
        Command::Export {
            dir,
            format,
            out,
            game,
        } => arena::formats::export_results(&dir, format, out.as_deref(), game.as_deref())
            .and_then(|done| {
                match done.files.as_slice() {
                    [one] => outln!("exported {} games to {}", done.games, one.display()),
                    files => outln!(
                        "exported {} games to {} ({} files)",
                        done.games,
                        done.dir.display(),
                        files.len()
                    ),
                }
                Ok(ExitCode::SUCCESS)
            }),
        Command::Report { dir } => {
            arena::report::html::report_results(&dir).and_then(|(path, games)| {
                outln!("wrote {} ({games} games)", path.display());
                Ok(ExitCode::SUCCESS)
            })
        }
        Command::Probe(args) => probe(args),
        Command::Play(args) => play(args),
        Command::Run {
            configs,
            fresh,
            concurrency,
            results,
            no_progress,
            shard,
            shard_count,
            report_every,
        } => run(
            &configs,
            RunOptions {
                results_root: results,
                fresh,
                progress_bar: !no_progress,
                quiet: false,
                shard: None,
                report_every,
                containment: None,
            },
            concurrency,
            (shard, shard_count),
        ),
        Command::Merge {
            sources,
            into,
            complete,
        } => merge(&sources, &into, complete),
        Command::Tune {
            config,
            iterations,
            results,
            fresh,
            no_progress,
        } => tune(
            &config,
            arena::tune::TuneOptions {
                results_root: results,
                iterations,
                fresh,
                progress_bar: !no_progress,
                quiet: false,
                containment: None,
            },
        ),
        Command::Bench {
            what: Some(what),
            games,
            rounds,
            concurrency,
            ..
        } if what != "dots" => {
            let exe = std::env::current_exe().context("finding the arena executable");
            let tmp = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
            let result = exe.and_then(|exe| {
                runtime()?.block_on(async {
                    if what == "field" {
                        arena::bench::field::run(
                            &exe,
                            &tmp,
                            games.unwrap_or(300),
                            concurrency,
                            &[10, 100, 300],
                        )
                        .await
                    } else if what == "soak" {
                        arena::bench::soak::run(&exe, &tmp, games.unwrap_or(5000), concurrency)
                            .await
                    } else {
                        arena::bench::containment::run(&exe, &tmp, games.unwrap_or(200), rounds)
                            .await
                    }
                })
            });
            let _ = std::fs::remove_dir_all(&tmp);
            result.map(|()| ExitCode::SUCCESS)
        }
        Command::Bench {
            what: Some(_),
            verbose,
            ..
        } => match bots::dots_tps::bench::run(std::io::stdout().lock(), verbose) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(anyhow::Error::new(e).context("dots-tps benchmark"))
            }
            _ => Ok(ExitCode::SUCCESS),
        },
        Command::Bench {
            what: None,
            games,
            round_trips,
            worker_threads,
            ..
        } => {
            let rt = match worker_threads {
                None => runtime(),
                Some(n) => tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(n.max(1))
                    .enable_all()
                    .build()
                    .context("starting the async runtime"),
            };
            rt.and_then(|rt| rt.block_on(arena::bench::run(games.unwrap_or(200), round_trips)))
                .map(|()| ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn doctor() -> Result<ExitCode> {
    out!("{}", arena::sandbox::Containment::probe().report());
    Ok(ExitCode::SUCCESS)
}

fn play(args: PlayArgs) -> Result<ExitCode> {
    let spec: games::GameSpec = args.game.join(" ").parse().context("--game")?;
    let ms = |s: f64| (s * 1000.0).round().max(0.0) as u64;
    let me = std::process::id();
    let opts = arena::play::PlayOptions {
        spec,
        opponent: args.vs,
        options: args.set,
        side: if args.second {
            games::Player::Second
        } else {
            games::Player::First
        },
        bot_time_ms: ms(args.bot_time),
        bot_inc_ms: ms(args.bot_inc),
        your_time_ms: args.your_time.map(ms),
        your_inc_ms: ms(args.your_inc),
        seed: args.seed,
        input: PathBuf::from(format!("/proc/{me}/fd/0")),
        output: PathBuf::from(format!("/proc/{me}/fd/1")),
        results_root: args.results,
    };
    let (record, dir) = runtime()?.block_on(arena::play::play(&opts))?;
    outln!();
    out!("{}", arena::replay::replay(&record, None, false)?);
    let detail = if record.detail.is_empty() {
        String::new()
    } else {
        format!(" ({})", record.detail)
    };
    outln!(
        "{} {} {}: {}{detail}",
        record.first,
        record.result,
        record.second,
        record.termination.as_str()
    );
    outln!(
        "recorded as {} in {} (arena replay {} {})",
        record.id,
        dir.join("games.csv").display(),
        dir.display(),
        record.id
    );
    Ok(ExitCode::SUCCESS)
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    // One thread: the arena only moves lines between processes, and a single-threaded runtime answers
    // a bot's line without a cross-thread wake-up (see `arena bench` in docs/benchmarks.md).
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

fn load(path: &Path) -> Result<Plan> {
    let config = Config::load(path)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    Ok(Plan::new(&config, path, &exe)?)
}

fn tune(config: &Path, opts: arena::tune::TuneOptions) -> Result<ExitCode> {
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    let s = runtime()?.block_on(arena::tune::run(config, &exe, &opts))?;
    outln!(
        "{}: {} iterations recorded{}",
        s.dir.display(),
        s.iterations,
        if s.interrupted { " (interrupted)" } else { "" }
    );
    outln!("chart: {}", s.dir.join("tune.svg").display());
    outln!("tuned values ({}):", s.dir.join("tuned.toml").display());
    out!("{}", s.snippet);
    if let Some(v) = &s.verify {
        outln!("\nverify ({}):", v.dir.display());
        out!("{}", v.report.text());
    }
    Ok(if s.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn solve(opts: bots::c4_solver::SolveOptions) -> Result<ExitCode> {
    bots::c4_solver::check_solvable(opts.width, opts.height).map_err(anyhow::Error::msg)?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match bots::c4_solver::solve_lines_with(stdin, stdout, &opts) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other
            .context("solving positions")
            .map(|()| ExitCode::SUCCESS),
    }
}

fn analyze(dir: &Path, nodes: u64) -> Result<ExitCode> {
    let mut records = recorded_games(dir)?;
    records.sort_by(|a, b| a.id.cmp(&b.id));
    let analysis = arena::analyze::analyze(&records, arena::analyze::AnalyzeOptions { nodes })?;
    analysis.write(dir)?;
    outln!(
        "{} — {} — {} games (written to analysis.csv, analysis-games.csv)",
        dir.display(),
        analysis.game,
        records.len()
    );
    out!("{}", analysis.table());
    // The folder's page shows the analysis from now on.
    if dir.join(arena::report::html::FILE).exists() {
        let (page, _) = arena::report::html::report_results(dir)?;
        outln!("{} rewritten with the analysis", page.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(sources: &[PathBuf], into: &Path, complete: bool) -> Result<ExitCode> {
    let games = arena::results::merge(sources, into)?;
    // Rated as `arena run` and `arena ratings` rate this folder: by its config's anchor, if any.
    let opts = ReportOptions {
        anchor: recorded_anchor(into),
        ..ReportOptions::default()
    };
    let report = Report::new(&[], &games, &opts)?;
    report.write(into)?;
    outln!(
        "merged {} folders into {}: {} games",
        sources.len(),
        into.display(),
        games.len()
    );
    out!("{}", report.text());
    arena::report::html::report_results(into)?;
    // The games still missing, by shard, from the schedule of the merged folder's config copy.
    let plan = merged_plan(into, sources);
    let count = arena::results::missing::shard_count(sources);
    match plan.map(|plan| arena::results::missing::missing(&plan, &games, count)) {
        Ok(Some(missing)) if missing.is_empty() => outln!("every scheduled game is recorded"),
        Ok(Some(missing)) => {
            let total: usize = missing.iter().map(|m| m.ids.len()).sum();
            outln!("{total} scheduled games are missing:");
            for m in &missing {
                let shown: Vec<&str> = m.ids.iter().take(10).map(String::as_str).collect();
                let more = m.ids.len().saturating_sub(shown.len());
                outln!(
                    "  {}{} games: {}{}",
                    m.shard.map_or(String::new(), |s| format!(
                        "shard {}/{}: ",
                        s.index, s.count
                    )),
                    m.ids.len(),
                    shown.join(" "),
                    if more > 0 {
                        format!(" … and {more} more")
                    } else {
                        String::new()
                    }
                );
            }
            if complete {
                anyhow::bail!(
                    "{total} scheduled games are missing from {} (--complete)",
                    into.display()
                );
            }
            outln!(
                "(`arena run <config> --results {}` plays them into this folder when it is named as the \
                 tournament)",
                into.parent().map_or(".".into(), |p| p.display().to_string())
            );
        }
        Ok(None) => {}
        Err(e) if complete => {
            return Err(e.context("--complete: the merged folder's config.toml gives no schedule"))
        }
        Err(e) => outln!("(missing games not checked: {e:#})"),
    }
    Ok(ExitCode::SUCCESS)
}

/// The plan of a merged folder, from its `config.toml` copy, with relative paths resolved from where the
/// runs read their config (`config.origin` of the folder or of a source; else from the copy's folder).
fn merged_plan(into: &Path, sources: &[PathBuf]) -> Result<Plan> {
    let copy = into.join("config.toml");
    let text =
        std::fs::read_to_string(&copy).with_context(|| format!("reading {}", copy.display()))?;
    let origin = std::iter::once(into)
        .chain(sources.iter().map(PathBuf::as_path))
        .find_map(|d| std::fs::read_to_string(d.join(arena::results::CONFIG_ORIGIN)).ok())
        .map(|t| PathBuf::from(t.trim_end()))
        .unwrap_or(copy);
    let config = Config::parse(&text, &origin)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    Ok(Plan::new(&config, &origin, &exe)?)
}

/// The games recorded in the results folder `dir` (a last line cut short by a killed run is dropped,
/// as a resume would).
///
/// # Errors
/// A folder without `games.csv`, or one that cannot be read.
fn recorded_games(dir: &Path) -> Result<Vec<arena::record::GameRecord>> {
    arena::results::ResultsDir {
        path: dir.to_path_buf(),
    }
    .read_existing_games()
}

fn ratings(dirs: &[PathBuf], opts: ReportOptions) -> Result<ExitCode> {
    let records = arena::results::combine::read_games(dirs)?;
    // The folders' recorded anchor, when they agree.
    let recorded = dirs.iter().map(|d| recorded_anchor(d)).collect::<Vec<_>>();
    let common = recorded
        .windows(2)
        .all(|w| w[0] == w[1])
        .then(|| recorded[0].clone())
        .flatten();
    let opts = ReportOptions {
        anchor: opts.anchor.or(common),
        tiebreaks: arena::pairing::recorded_tiebreaks(&dirs[0]),
        ..opts
    };
    let report = Report::new(&[], &records, &opts)?;
    match dirs {
        [dir] => {
            report.write(dir)?;
            outln!("{} — {} games", dir.display(), records.len());
        }
        _ => outln!(
            "{} — {} games rated together (nothing written)",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" + "),
            records.len()
        ),
    }
    out!("{}", report.text());
    if let [dir] = dirs {
        // A knockout's bracket and a Swiss's rounds, as the run wrote them.
        for file in ["bracket.txt", "swiss.txt"] {
            if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
                outln!("\n{file}:\n{}", text.trim_end());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The `anchor` key of the config copy a run keeps in its results folder (`<dir>/config.toml`), so
/// `arena ratings` rates as the run did. `None` if the copy is missing, unreadable or has no anchor.
fn recorded_anchor(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("config.toml")).ok()?;
    let table: toml::Table = text.parse().ok()?;
    table.get("anchor")?.as_str().map(str::to_string)
}

fn probe(args: ProbeArgs) -> Result<ExitCode> {
    let options = args
        .set
        .iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .with_context(|| format!("--set {kv:?}: expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>>>()?;
    let (program, bot_args) = args.command.split_first().context("no bot command")?;
    let opts = &arena::probe::ProbeOptions {
        name_given: args.name.is_some(),
        name: args
            .name
            .unwrap_or_else(|| arena::probe::name_from_command(program, bot_args)),
        command: program.clone(),
        args: bot_args.to_vec(),
        protocol: if args.protocol == "codecup" {
            arena::config::ProtocolKind::Codecup
        } else {
            arena::config::ProtocolKind::Ugi
        },
        options,
        game: args.game,
        width: args.width,
        height: args.height,
        k: args.k,
        start: args.start,
        games: args.games,
        opponent: args.opponent,
        time_ms: args.time_ms,
        inc_ms: args.inc_ms,
        max_move_ms: args.max_move_ms,
        startup_ms: args.startup_ms,
        seed: args.seed,
    };
    let (results, bar) = (&args.results, !args.no_progress);
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    outln!(
        "probing {} ({}) at {} against {}: {} games, {} ms + {} ms per move",
        std::iter::once(&opts.command)
            .chain(&opts.args)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        if opts.protocol == arena::config::ProtocolKind::Codecup {
            "codecup"
        } else {
            "ugi"
        },
        opts.game,
        opts.opponent,
        opts.games,
        opts.time_ms,
        opts.inc_ms
    );
    let report = runtime()?.block_on(arena::probe::run(opts, &exe, results, bar))?;
    out!("{}", report.text());
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else if report.forfeits().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn replay(dir: &Path, id: Option<&str>, ply: Option<usize>, every: bool) -> Result<ExitCode> {
    let records = if dir.is_file() {
        arena::formats::sgf::read_records(dir)?
    } else {
        recorded_games(dir)?
    };
    let source = if dir.is_file() {
        dir.to_path_buf()
    } else {
        dir.join("games.csv")
    };
    let found = match (id, records.as_slice()) {
        (Some(id), _) => records.iter().find(|r| r.id == id),
        (None, [one]) if dir.is_file() => Some(one),
        (None, _) => None,
    };
    let Some(record) = found else {
        let mut ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
        ids.sort_unstable();
        let which = id.map_or("which game?".into(), |id| format!("no game {id:?}"));
        anyhow::bail!(
            "{which} in {}; its games are {}",
            source.display(),
            match ids.as_slice() {
                [] => "none".to_string(),
                [one] => one.to_string(),
                [first, .., last] => format!("{first} to {last} ({} games)", ids.len()),
            }
        );
    };
    let detail = if record.detail.is_empty() {
        String::new()
    } else {
        format!(", {}", record.detail)
    };
    outln!(
        "{} — {} {} — {} vs {}: {} ({}{detail}), {} plies",
        record.id,
        record.game,
        record.variant,
        record.first,
        record.second,
        record.result,
        record.termination.as_str(),
        record.plies
    );
    if !record.setup.is_empty() {
        outln!("setup: {}", record.setup);
    }
    out!("{}", arena::replay::replay(record, ply, every)?);
    Ok(ExitCode::SUCCESS)
}

fn check(configs: &[PathBuf]) -> Result<ExitCode> {
    for path in configs {
        let config = Config::load(path)?;
        if config.format == arena::config::Format::Tune {
            let exe = std::env::current_exe().context("finding the arena executable")?;
            out!(
                "{}",
                arena::tune::Tuning::new(&config, path, &exe)?.describe()
            );
            continue;
        }
        let plan = load(path)?;
        let games = arena::pairing::describe(&plan)
            .unwrap_or_else(|| format!("{} games", arena::schedule::schedule(&plan).len()));
        outln!(
            "{}: tournament {:?}, {}, {:?}, {games}, concurrency {}",
            path.display(),
            plan.name,
            plan.spec,
            plan.format,
            plan.concurrency
        );
        if let Some(s) = &plan.sprt {
            outln!(
                "  sprt: elo0 {} elo1 {} alpha {} beta {} {:?}, at most {} pairs",
                s.test.elo0,
                s.test.elo1,
                s.test.alpha,
                s.test.beta,
                s.test.model,
                s.max_pairs
            );
        }
        if !plan.openings.is_empty() {
            outln!(
                "  {} openings, {:?} order",
                plan.openings.len(),
                plan.opening_order
            );
        }
        for b in &plan.bots {
            outln!(
                "  {:<16} {} {}",
                b.name,
                b.launch.program.display(),
                b.launch.args.join(" ")
            );
            for (k, v) in &b.options {
                outln!("  {:<16}   setoption {k} = {v}", "");
            }
            outln!("  {:<16}   limits: {}", "", b.limits);
            if b.sandbox != arena::config::SandboxKind::None {
                outln!("  {:<16}   sandbox: {:?}", "", b.sandbox);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run(
    configs: &[PathBuf],
    opts: RunOptions,
    concurrency: Option<usize>,
    (shard, shard_count): (Option<arena::shard::ShardRequest>, Option<u32>),
) -> Result<ExitCode> {
    // Validate every config (and find its shard) before playing any, so a typo in the third file is
    // found at once.
    let env: std::collections::HashMap<String, String> = std::env::vars().collect();
    let mut plans = Vec::new();
    for path in configs {
        let mut plan = load(path)?;
        if let Some(c) = concurrency {
            anyhow::ensure!(c > 0, "--concurrency must be at least 1");
            plan.concurrency = c;
        }
        let shard = arena::shard::for_plan(shard, shard_count, &plan, &env)
            .with_context(|| format!("{}: --shard", path.display()))?;
        plans.push((plan, shard));
    }
    let rt = runtime()?;
    for (plan, shard) in plans {
        let name = plan.name.clone();
        let spec = plan.spec;
        if let Some(s) = shard.as_ref().filter(|s| s.scheduler.is_some()) {
            eprintln!(
                "{name}: shard {}/{} ({})",
                s.shard.index, s.shard.count, s.from
            );
        }
        let opts = RunOptions {
            shard: shard.map(|s| s.shard),
            ..opts.clone()
        };
        let summary = rt.block_on(tournament::run(Arc::new(plan), &opts))?;
        if summary.interrupted {
            eprintln!(
                "interrupted: {} of {} games recorded in {}; run again to resume",
                summary.recorded,
                summary.total,
                summary.dir.display()
            );
            return Ok(ExitCode::from(130));
        }
        if summary.played == 0 && summary.complete {
            outln!("tournament {name} is complete ({} games recorded); nothing to play. Use --fresh to start afresh.", summary.recorded);
        }
        outln!("\n{name} — {spec} — {}", summary.dir.display());
        out!("{}", summary.report.text());
        let (a, b) = summary
            .report
            .head_to_head
            .as_ref()
            .map(|h| (h.bot.as_str(), h.opponent.as_str()))
            .unwrap_or_default();
        match summary.sprt {
            Some(SprtDecision::AcceptH1) => outln!(
                "SPRT: H1 accepted: {a} is stronger than {b} (the games favour elo = elo1 over elo = elo0)"
            ),
            Some(SprtDecision::AcceptH0) => outln!(
                "SPRT: H0 accepted: {a} is not stronger than {b} by elo1 (the games favour elo = elo0)"
            ),
            Some(SprtDecision::Continue) => outln!(
                "SPRT: inconclusive after {} games (max_pairs reached)",
                summary.recorded
            ),
            None => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}
