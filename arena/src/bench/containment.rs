//! `arena bench containment`: what each containment layer costs, in games per second of random bots
//! (nearly all process start and handshake, so the layers' cost shows at its largest). Each layer is
//! added to the one before; the rows are measured in turn, `rounds` times over, so a change in the
//! machine's load spreads over all of them.

use std::path::Path;

use anyhow::Result;

use crate::sandbox::Containment;

/// Which of the machine's layers a row uses.
#[derive(Clone, Copy)]
enum Kind {
    /// Process groups and the parent-death signal only ([`Containment::bare`]).
    Bare,
    /// The fallbacks: no cgroups, the subreaper.
    NoCgroups,
    /// Everything the machine offers ([`Containment::probe`]).
    All,
}

/// One row: a label, the config keys it adds, the layers it uses, and whether the random bots are given
/// as executables (`command`, isolated by default) rather than as built-in bots.
struct Layers {
    label: &'static str,
    extra: &'static str,
    kind: Kind,
    command: bool,
}

const LAYERS: &[Layers] = &[
    Layers {
        label: "process group + parent-death signal only (no limits, no suspension)",
        extra: "suspend_idle = false\nsandbox = \"none\"\n[limits]\nmemory_mb = 0\nprocesses = 0\nfile_mb = 0\nopen_files = 0\n",
        kind: Kind::Bare,
        command: false,
    },
    Layers {
        label: "+ rlimits and subreaper (default limits, no cgroups)",
        extra: "suspend_idle = false\n",
        kind: Kind::NoCgroups,
        command: false,
    },
    Layers {
        label: "+ a cgroup per bot (kill, memory, pids)",
        extra: "suspend_idle = false\n",
        kind: Kind::All,
        command: false,
    },
    Layers {
        label: "+ idle bot suspended (the default for built-in bots)",
        extra: "",
        kind: Kind::All,
        command: false,
    },
    Layers {
        label: "the bots as executables, `sandbox = \"none\"` (isolation turned off)",
        extra: "sandbox = \"none\"\n",
        kind: Kind::All,
        command: true,
    },
    Layers {
        label: "the bots as executables, the default: a bubblewrap sandbox each",
        extra: "",
        kind: Kind::All,
        command: true,
    },
];

/// Prints a Markdown table of games/s per layer and game, `games` games a measurement, each measured
/// `rounds` times (the layers alternating).
///
/// # Errors
/// A tournament that cannot run (the bubblewrap row is skipped, with a note, where bwrap is missing).
pub async fn run(exe: &Path, tmp: &Path, games: usize, rounds: usize) -> Result<()> {
    let cases = [
        ("tic-tac-toe 3×3", "name = \"tictactoe\""),
        ("Connect Four 7×6", "name = \"connect4\""),
    ];
    let probe = Containment::probe();
    let bwrap_ok = probe
        .bwrap
        .as_ref()
        .is_some_and(|b| crate::sandbox::bubblewrap::works(b, probe.bwrap_sizes).is_ok());
    drop(probe);
    let layers: Vec<&Layers> = LAYERS
        .iter()
        .filter(|l| bwrap_ok || !(l.command && l.extra.is_empty()))
        .collect();
    // figures[case][layer] = games/s of each round.
    let mut figures = vec![vec![Vec::new(); layers.len()]; cases.len()];
    for _ in 0..rounds.max(1) {
        for (c, (_, table)) in cases.iter().enumerate() {
            for (k, layer) in layers.iter().enumerate() {
                let containment = match layer.kind {
                    Kind::Bare => Containment::bare(),
                    Kind::NoCgroups => Containment::probe_layers(false),
                    Kind::All => Containment::probe(),
                };
                let (secs, _, played) = super::throughput_with(
                    exe,
                    tmp,
                    table,
                    games,
                    2,
                    super::Setup {
                        extra: layer.extra,
                        containment: Some(containment),
                        as_command: layer.command,
                    },
                )
                .await?;
                figures[c][k].push(played as f64 / secs);
            }
        }
    }
    crate::outln!(
        "| layers (each adds to the row above) | {} |",
        cases.map(|c| c.0).join(" | ")
    );
    crate::outln!("|---|{}", "---|".repeat(cases.len()));
    for (k, layer) in layers.iter().enumerate() {
        let cells: Vec<String> = (0..cases.len())
            .map(|c| {
                figures[c][k]
                    .iter()
                    .map(|g| format!("{g:.0}"))
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
            .collect();
        crate::outln!("| {} | {} |", layer.label, cells.join(" | "));
    }
    if !bwrap_ok {
        crate::outln!("(bubblewrap is not usable here: the default isolation's row is left out)");
    }
    // The cost of the default isolation: the last row against the one before it, by their means.
    if let [.., none, boxed] = layers.as_slice() {
        if none.command && boxed.command && bwrap_ok {
            let n = layers.len();
            for (c, case) in cases.iter().enumerate() {
                let mean =
                    |k: usize| figures[c][k].iter().sum::<f64>() / figures[c][k].len() as f64;
                crate::outln!(
                    "{}: the default isolation costs {:.1} % of games/s (mean of {} rounds)",
                    case.0,
                    100.0 * (1.0 - mean(n - 1) / mean(n - 2)),
                    figures[c][n - 1].len()
                );
            }
        }
    }
    crate::outln!("games/s of two random bots at concurrency 2, {games} games a measurement");
    Ok(())
}
