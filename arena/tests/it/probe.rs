//! End to end: `arena probe` plays a bot executable against a reference bot and says whether it behaves.

use crate::common;

use common::{arena, games, text};

/// Runs `arena probe` with `flags`, then `--` and `bot` (the command line of the probed bot).
fn probe(dir: &std::path::Path, flags: &[&str], bot: &[&str]) -> std::process::Output {
    arena()
        .arg("probe")
        .args(flags)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .arg("--")
        .args(bot)
        .output()
        .unwrap()
}

#[test]
fn a_bot_that_plays_by_the_rules_behaves() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    let out = probe(
        tmp.path(),
        &["--game", "connect4", "--name", "ab", "--set", "depth=2"],
        &[exe, "bot", "alphabeta"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("handshake: id name alphabeta;"), "{stdout}");
    assert!(stdout.contains("verdict: ab behaves"), "{stdout}");
    let played = games(tmp.path(), "probe-ab");
    assert_eq!(played.len(), 4);
    // Game pairs: the bot moves first in one game of each pair, second in the other.
    assert_eq!(played.iter().filter(|g| g.first == "ab").count(), 2);
    assert!(played.iter().all(|g| !g.termination.is_forfeit()));
    // The probe's config is kept beside its games, and is a config `arena run` accepts.
    let config = tmp.path().join("results/probe-ab/config.toml");
    let check = arena().arg("check").arg(&config).output().unwrap();
    assert!(check.status.success(), "{}", text(&check));
}

#[test]
fn a_bot_that_crashes_is_reported_with_its_reason_transcript_and_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    let out = probe(
        tmp.path(),
        &["--game", "tictactoe", "--games", "2", "--name", "crasher"],
        &[exe, "bot", "faulty", "--crash-on-move", "2"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("crash: crasher: exited with status 3"),
        "{stdout}"
    );
    assert!(stdout.contains("the end of "), "{stdout}");
    assert!(
        stdout.contains("crasher < [exited with status 3]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verdict: crasher MISBEHAVES: it forfeited 2 of 2 games"),
        "{stdout}"
    );
}

#[test]
fn a_broken_probe_is_an_error_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = probe(tmp.path(), &["--game", "connect4"], &["./no/such/bot"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not exist"),
        "{}",
        text(&out)
    );
    let out = probe(
        tmp.path(),
        &["--game", "connect4", "--games", "3"],
        &["true"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--games 3 must be even"),
        "{}",
        text(&out)
    );
    assert!(!tmp.path().join("results").exists());
}

/// A Connect Four bot whose lines the referee accepts but which are not written exactly: two spaces in
/// `id  name`, a space before `option`, `ugiok ` and `readyok ` with a trailing space, ` bestmove N`
/// with a leading one. It plays the leftmost free column.
const LENIENT_BOT: &str = r#"import sys

width, height = 7, 6
heights = [0] * width


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ugi":
        send("id  name  lenient   bot")
        send(" option name depth type spin default 1 min 1 max 3")
        send("ugiok ")
    elif words[0] == "isready":
        send("readyok ")
    elif words[0] == "game":
        width, height = int(words[2]), int(words[3])
    elif words[0] == "position":
        heights = [0] * width
        for move in words[3:]:
            heights[int(move) - 1] += 1
    elif words[0] == "go":
        column = next(c for c in range(width) if heights[c] < height)
        send(" bestmove %d" % (column + 1))
    elif words[0] == "quit":
        break
"#;

#[test]
fn lenient_lines_the_referee_accepts_are_read_by_the_probe_too() {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("lenient.py");
    std::fs::write(&script, LENIENT_BOT).unwrap();
    let out = probe(
        tmp.path(),
        &["--game", "connect4", "--games", "2", "--name", "lenient"],
        &["python3", script.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("handshake: id name lenient bot; 1 option(s) (depth); ugiok after "),
        "{stdout}"
    );
    assert!(!stdout.contains("never came"), "{stdout}");
    let played = games(tmp.path(), "probe-lenient");
    assert_eq!(played.len(), 2);
    for g in &played {
        let side = g.moves_by(if g.first == "lenient" {
            ::games::Player::First
        } else {
            ::games::Player::Second
        });
        assert!(side > 0, "{g:?}");
        // The game's line counts the record's moves, and the transcript timed every one of them.
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&g.id))
            .unwrap_or_else(|| panic!("no line for {}: {stdout}", g.id));
        assert!(
            line.contains(&format!(", {side} moves, slowest ")),
            "{line}"
        );
        assert!(line.ends_with(" ms"), "{line}");
    }
    assert!(stdout.contains("verdict: lenient behaves"), "{stdout}");
}

#[test]
fn a_bot_named_like_its_opponent_is_renamed_unless_the_name_was_chosen() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    // `arena probe -- target/release/random`: an executable called `random` against `random`.
    let random = tmp.path().join("random");
    std::os::unix::fs::symlink(exe, &random).unwrap();
    let out = probe(
        tmp.path(),
        &["--game", "tictactoe", "--games", "2"],
        &[random.to_str().unwrap(), "bot", "random"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("name: random-probed (\"random\" is the opponent's name too"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verdict: random-probed behaves"),
        "{stdout}"
    );
    let played = games(tmp.path(), "probe-random-probed");
    assert_eq!(played.len(), 2);
    for g in &played {
        let mut names = [g.first.as_str(), g.second.as_str()];
        names.sort_unstable();
        assert_eq!(names, ["random", "random-probed"]);
    }

    // The arena itself playing `random`, no --name: it is named `arena`, and the probe succeeds.
    let out = probe(
        tmp.path(),
        &["--game", "tictactoe", "--games", "2"],
        &[exe, "bot", "random"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("verdict: arena behaves"),
        "{}",
        text(&out)
    );

    // An explicit --name equal to the opponent's is refused before any game.
    let out = probe(
        tmp.path(),
        &["--game", "tictactoe", "--games", "2", "--name", "random"],
        &[exe, "bot", "random"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("choose another --name"),
        "{}",
        text(&out)
    );
    assert!(!tmp.path().join("results/probe-random").exists());
}

/// Bots that never finish the handshake, each for another reason the probe names from what it
/// printed: UCI's `uciok` instead of `ugiok`, a move before being asked, nothing at all (Python's
/// `print` into a pipe is buffered until it flushes). The first two are shell scripts, which start at
/// once, well within the startup deadline.
#[test]
fn a_bot_stuck_in_the_handshake_is_told_its_likely_mistake() {
    let cases = [
        (
            "uci",
            "sh",
            "while read -r line; do\n  case \"$line\" in ugi*) echo 'id name uci bot'; echo uciok ;; esac\ndone\n",
            "it spoke UCI, not UGI",
        ),
        (
            "eager",
            "sh",
            "echo 'move 4'\nwhile read -r line; do :; done\n",
            "it printed `move 4` before being asked",
        ),
        (
            "unflushed",
            "python3",
            "import sys\nfor line in sys.stdin:\n    if line.split()[:1] == ['ugi']:\n        \
             print('id name quiet bot')\n        print('ugiok')\n",
            "it printed nothing: does it flush stdout",
        ),
    ];
    for (name, interpreter, script, hint) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(name);
        std::fs::write(&path, script).unwrap();
        let out = probe(
            tmp.path(),
            &[
                "--game",
                "connect4",
                "--games",
                "2",
                "--startup-ms",
                "1000",
                "--name",
                name,
            ],
            &[interpreter, path.to_str().unwrap()],
        );
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("timeout"), "{name}: {stdout}");
        assert!(
            stdout.contains(&format!("likely: {hint}")),
            "{name}: {stdout}"
        );
        for (other, _, _, other_hint) in cases {
            if other != name {
                assert!(!stdout.contains(other_hint), "{name}: {stdout}");
            }
        }
    }
}
