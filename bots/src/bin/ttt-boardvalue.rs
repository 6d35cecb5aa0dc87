//! The `ttt-boardvalue` bot as its own executable: see [`bots::cli`].

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    bots::cli::run("ttt-boardvalue", &args)
}
