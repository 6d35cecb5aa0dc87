//! The games of several results folders read as one pool, for `arena ratings dir1 dir2 …`: runs of
//! one family of tests played separately (say, a weight against the same opponents on three days)
//! rated together, without copying them into one folder as `arena merge` does.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::ResultsDir;
use crate::record::GameRecord;

/// Every game of `dirs`, in one list. With more than one folder, each game's id is prefixed with its
/// folder's position (`2:g0007` for the third folder; ids repeat between folders) and its pair number
/// shifted past the previous folders' pairs, so two folders' game pairs never mix in a head-to-head.
/// One folder's games come back unchanged.
///
/// # Errors
/// A folder without `games.csv` or with an unreadable one, and folders of different games or variants
/// (the error names both folders and what each holds).
pub fn read_games(dirs: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut all: Vec<GameRecord> = Vec::new();
    // The folder of the first game, and that game's kind, to name in an error.
    let mut kind: Option<(PathBuf, String, String)> = None;
    let mut pair_offset = 0u32;
    for (k, dir) in dirs.iter().enumerate() {
        let games = ResultsDir { path: dir.clone() }.read_existing_games()?;
        let mut max_pair = 0;
        for mut r in games {
            match &kind {
                None => kind = Some((dir.clone(), r.game.clone(), r.variant.clone())),
                Some((first_dir, game, variant)) if (game, variant) != (&r.game, &r.variant) => {
                    bail!(
                        "{} holds {} {} games but {} holds {} {} (game {}): ratings pool only \
                         games of one game and variant",
                        first_dir.display(),
                        game,
                        variant,
                        dir.display(),
                        r.game,
                        r.variant,
                        r.id
                    );
                }
                Some(_) => {}
            }
            max_pair = max_pair.max(r.pair);
            if dirs.len() > 1 {
                r.id = format!("{k}:{}", r.id);
                r.pair += pair_offset;
            }
            all.push(r);
        }
        pair_offset += max_pair + 1;
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn folder(root: &std::path::Path, name: &str, games: &[GameRecord]) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        super::super::write_games_csv(&dir.join("games.csv"), games).unwrap();
        dir
    }

    fn game(id: &str, pair: u32, first: &str, second: &str) -> GameRecord {
        GameRecord {
            id: id.to_string(),
            pair,
            ..GameRecord::example(first, second, GameResult::FirstWins)
        }
    }

    #[test]
    fn folders_pool_with_distinct_ids_and_pairs() {
        let tmp = tempfile::tempdir().unwrap();
        let a = folder(
            tmp.path(),
            "a",
            &[game("g0001", 1, "x", "y"), game("g0002", 1, "y", "x")],
        );
        let b = folder(
            tmp.path(),
            "b",
            &[game("g0001", 1, "x", "z"), game("g0002", 1, "z", "x")],
        );
        let one = read_games(std::slice::from_ref(&a)).unwrap();
        assert_eq!(one[0].id, "g0001");
        let both = read_games(&[a, b]).unwrap();
        let ids: Vec<(&str, u32)> = both.iter().map(|r| (r.id.as_str(), r.pair)).collect();
        assert_eq!(
            ids,
            [
                ("0:g0001", 1),
                ("0:g0002", 1),
                ("1:g0001", 3),
                ("1:g0002", 3)
            ]
        );
    }

    #[test]
    fn folders_of_different_games_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let a = folder(tmp.path(), "a", &[game("g0001", 1, "x", "y")]);
        let mut other = game("g0001", 1, "x", "y");
        other.variant = "9 7".to_string();
        let b = folder(tmp.path(), "b", &[other]);
        let err = read_games(&[a, b]).unwrap_err().to_string();
        assert!(err.contains("one game and variant"), "{err}");
        let missing = read_games(&[tmp.path().join("nope")]).unwrap_err();
        assert!(missing.to_string().contains("has no games.csv"));
    }
}
