//! `oppai-wrapper` as a program, with a stand-in for oppai-rs (a shell script): when oppai-rs answers
//! nonsense the wrapper ends with status 3 and the reason, and takes oppai-rs with it.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether process `pid` still runs (its `/proc` entry exists and it is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn a_wrapper_that_gives_up_ends_oppai_rs_too() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("oppai-wrapper-gives-up");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let fake = dir.join("fake-oppai");
    // It answers the first request with a line that is no answer, then stays (it ignores the end of
    // its input), as a hung oppai-rs would.
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nread line\necho 'not an answer'\nexec sleep 60\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut wrapper = Command::new(env!("CARGO_BIN_EXE_oppai-wrapper"))
        .arg("--oppai")
        .arg(&fake)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wrapper
        .stdin
        .take()
        .unwrap()
        .write_all(b"ugi\ngame dots 8 8 cross\nisready\nposition startpos\ngo movetime 500\n")
        .unwrap();
    let out = wrapper.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("oppai-wrapper: "), "{stderr}");
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Killed and reaped by the wrapper before it exited; a moment for /proc to agree.
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(pid),
        "the stand-in oppai-rs ({pid}) outlived the wrapper"
    );
}
