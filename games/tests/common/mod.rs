//! What the integration tests of `games` share: the example game modules of `modules/`.

use std::path::PathBuf;

/// The bytes of the example module `modules/out/<name>.wasm`, built by `modules/build.sh`; `None` (with
/// the reason printed) when it has not been built, unless `ARENA_REQUIRE_MODULES` is set (as `.ci/run`
/// sets it), which makes a missing module a failure.
pub fn example_module(name: &str) -> Option<(String, Vec<u8>)> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "modules",
        "out",
        &format!("{name}.wasm"),
    ]
    .iter()
    .collect();
    match std::fs::read(&path) {
        Ok(bytes) => Some((format!("{name}.wasm"), bytes)),
        Err(e) if std::env::var_os("ARENA_REQUIRE_MODULES").is_none() => {
            eprintln!("skipped: {} ({e}); run modules/build.sh", path.display());
            None
        }
        Err(e) => panic!("{}: {e}; modules/build.sh builds it", path.display()),
    }
}
