//! Connect Four games as Pascal Pons's digit strings: the columns played, 1-based, one digit per ply
//! (`4453…`), the notation his solver and the position databases built on it take.

use crate::record::GameRecord;

/// The digit string of a Connect Four game.
///
/// # Errors
/// A game that is not Connect Four, or a move that is not a single column digit.
pub fn digits(record: &GameRecord) -> Result<String, String> {
    let pons = format!("{} {}", record.game, record.variant)
        .parse::<games::GameSpec>()
        .is_ok_and(|s| s.record_formats().contains(&games::RecordFormat::Pons));
    if !pons {
        return Err(format!(
            "game {}: Pons's notation is for Connect Four, not {}",
            record.id, record.game
        ));
    }
    let mut out = String::with_capacity(record.moves.len());
    for (k, m) in record.moves.iter().enumerate() {
        match m.as_bytes() {
            [d @ b'1'..=b'9'] => out.push(char::from(*d)),
            _ => {
                return Err(format!(
                    "game {}: ply {} is {m:?}, not a column 1-9",
                    record.id,
                    k + 1
                ))
            }
        }
    }
    Ok(out)
}

/// One line per game, its digit string, in the order of `records` (a solver reads one position per
/// line).
///
/// # Errors
/// As [`digits`], for the first game that has none.
pub fn write(records: &[GameRecord]) -> Result<String, String> {
    let mut out = String::new();
    for r in records {
        out.push_str(&digits(r)?);
        out.push('\n');
    }
    Ok(out)
}
