//! CodeCup (`docs/protocol.md`, "CodeCup"): no handshake; the first player reads `Start`, each player
//! then reads the opponent's move and writes its own, one per line; `Quit` ends the game.

/// The line that asks the first player for the game's first move.
pub const START: &str = "Start";
/// The line that ends the game.
pub const QUIT: &str = "Quit";

/// The lines of a move request: `Start` when nobody has moved yet, then the moves of `moves` from
/// index `known` on (those the bot has not been told or made itself), each on its own line.
pub fn move_request(moves: &[String], known: usize) -> impl Iterator<Item = &str> {
    let start = moves.is_empty().then_some(START);
    start
        .into_iter()
        .chain(moves[known.min(moves.len())..].iter().map(String::as_str))
}

/// The move in a line the bot wrote: the line without the whitespace around it; `None` for a blank
/// line, which is skipped.
pub fn reply(line: &str) -> Option<&str> {
    let text = line.trim();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_brings_the_bot_up_to_date() {
        let moves: Vec<String> = ["4", "3", "5"].map(String::from).to_vec();
        fn lines(moves: &[String], known: usize) -> Vec<&str> {
            move_request(moves, known).collect()
        }
        assert_eq!(lines(&[], 0), ["Start"]);
        assert_eq!(lines(&moves[..1], 0), ["4"]);
        assert_eq!(lines(&moves, 1), ["3", "5"]);
        assert_eq!(lines(&moves, 9), Vec::<&str>::new());
        assert_eq!(reply(" 4\t"), Some("4"));
        assert_eq!(reply(" "), None);
    }
}
