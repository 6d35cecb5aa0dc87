//! Opening books: `[openings] file = …` read into the lines a schedule hands to its game pairs.
//!
//! A book is a text file (one opening per line, moves in the game's notation, as cutechess's and
//! fastchess's `-openings file=…`), an SGF file of Dots games, or a folder of SGF files. Each SGF game
//! tree is one opening: its start dots (less the variant's own, e.g. the cross) become the opening's setup
//! dots and its main line the opening's moves, so real games played elsewhere, with their own start dots
//! such as zagram's four crosses at random points, serve as tournament starts.

use std::path::{Path, PathBuf};

use games::{Game, GameSpec, GameVisitor, Setup};

use crate::formats::sgf;

/// One opening of a book: setup dots put on the variant's start, then moves from there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// Dots on top of the variant's start (only from SGF books; empty for text lines).
    pub setup: Setup,
    /// Moves in the game's notation, played from the start with the setup.
    pub moves: Vec<String>,
}

/// Reads the book at `path` for games of `spec`, keeping at most `plies` moves of each line (cutechess's
/// `plies=`; all of them when `None`). A folder is read as every `*.sgf` file in it, in file-name order;
/// a file whose name ends in `.sgf` as SGF; any other file as text (empty lines and `#` comments skipped).
///
/// # Errors
/// A file or folder that cannot be read, an SGF game that is not a Dots game of `spec`'s board, a setup
/// that does not fit the start, a move that does not parse or is illegal, an opening after which the
/// game is over, or a book without openings; each with the file and its line or game number.
pub fn read(spec: GameSpec, path: &Path, plies: Option<u32>) -> Result<Vec<Opening>, String> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_sgf(p))
            .collect();
        v.sort();
        if v.is_empty() {
            return Err(format!("{}: no .sgf files in the folder", path.display()));
        }
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        // Each opening with where it stands in the file, for the error messages.
        let mut found: Vec<(String, Result<Opening, String>)> = Vec::new();
        if is_sgf(file) {
            let games = sgf::read(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            for (k, game) in games.iter().enumerate() {
                found.push((format!("game {}", k + 1), from_sgf(spec, game)));
            }
        } else {
            for (k, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let moves = line.split_whitespace().map(str::to_string).collect();
                let opening = Opening {
                    setup: Setup::default(),
                    moves,
                };
                found.push(((k + 1).to_string(), Ok(opening)));
            }
        }
        for (at, opening) in found {
            let opening = opening
                .map(|mut o| {
                    if let Some(n) = plies {
                        o.moves.truncate(n as usize);
                    }
                    o
                })
                .and_then(|o| check(spec, &o).map(|()| o))
                .map_err(|m| format!("{}:{at}: {m}", file.display()))?;
            out.push(opening);
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(out)
}

fn is_sgf(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// The opening of SGF game `game` in a tournament of `spec`.
fn from_sgf(spec: GameSpec, game: &sgf::SgfGame) -> Result<Opening, String> {
    let Some(games::dots::DotsVariant {
        width,
        height,
        start,
    }) = spec.variant_of()
    else {
        return Err(format!(
            "SGF openings are Dots games (GM[40]); the tournament plays {}",
            spec.kind()
        ));
    };
    if (game.width, game.height) != (width, height) {
        return Err(format!(
            "the game is {}×{}, the tournament's board {width}×{height}",
            game.width, game.height
        ));
    }
    Ok(Opening {
        setup: game.setup_over(start)?,
        moves: game.moves.clone(),
    })
}

/// Checks that `o` is legal from `spec`'s start and leaves the game on.
fn check(spec: GameSpec, o: &Opening) -> Result<(), String> {
    struct Check<'a>(&'a [String]);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self, mut pos: G) -> Result<(), String> {
            games::play_moves(&mut pos, self.0.iter().map(String::as_str))
                .map_err(|e| e.to_string())?;
            if pos.outcome().is_some() {
                return Err("the game is over after this opening".into());
            }
            Ok(())
        }
    }
    spec.visit_with_setup(&o.setup, Check(&o.moves))
        .map_err(|e| e.to_string())?
}
