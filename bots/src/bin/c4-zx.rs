//! The `c4-zx` bot as its own executable: see [`bots::cli`] and [`bots::c4_zx`].

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    bots::cli::run("c4-zx", &args)
}
