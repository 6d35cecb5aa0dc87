//! The refusals of [`super::store`]: each test asserts the exact variant, and (through
//! [`refused_with`]) that nothing is left under the store root.

use tar::{EntryType, Header};
use zip::write::SimpleFileOptions;

use super::tests::{good_tar, good_zip, refused, refused_with, tar_file, tar_raw, zip_file};
use super::tree::entry_path;
use super::{Kind, Limits, UploadError};

#[test]
fn uploads_that_are_no_bot_empty_or_too_large_are_refused() {
    assert!(matches!(refused(b"\x00\x01binary"), UploadError::NotABot));
    // Text is a script that lacks its `#!` line; the hint names an interpreter.
    let err = refused(b"print('1')\n");
    assert!(matches!(err, UploadError::NoShebang { .. }), "{err}");
    assert!(err.to_string().contains("#!/usr/bin/env python3"), "{err}");
    assert!(matches!(refused(b""), UploadError::Empty));
    let small = Limits {
        max_upload_bytes: 10,
        ..Limits::default()
    };
    let err = refused_with(b"#!/bin/sh\nx\n", &small);
    assert!(
        matches!(err, UploadError::TooLarge { bytes: 12, max: 10 }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the upload is 12 bytes; at most 10 bytes are accepted"
    );
    let err = refused(b"\x1f\x8bnot gzip");
    assert!(
        matches!(
            err,
            UploadError::Corrupt {
                kind: Kind::TarGz,
                ..
            }
        ),
        "{err}"
    );
}

fn assert_bad_path(err: UploadError, path: &str, word: &str) {
    match err {
        UploadError::BadPath { entry, reason } if entry == path && reason.contains(word) => {}
        other => panic!("not a bad path {path} ({word}): {other}"),
    }
}

#[test]
fn entry_paths_that_leave_the_archive_are_refused_in_tar_and_zip() {
    let tar = |name: &[u8]| good_tar(|b| tar_raw(b, name, EntryType::Regular, b"", b"x"));
    assert_bad_path(refused(&tar(b"../x")), "../x", "`..`");
    assert_bad_path(refused(&tar(b"a/../../x")), "a/../../x", "`..`");
    assert_bad_path(refused(&tar(b"/etc/x")), "/etc/x", "absolute");
    assert_bad_path(refused(&tar(b"a//x")), "a//x", "empty component");
    assert_bad_path(refused(&tar(b"a\\x")), "a\\x", "backslash");
    let long_name = "n".repeat(256);
    let bytes = good_tar(|b| tar_file(b, &long_name, 0o644, b""));
    assert_bad_path(refused(&bytes), &long_name, "longer than 255");
    let long_path = format!("{}x", "d/".repeat(512));
    let bytes = good_tar(|b| tar_file(b, &long_path, 0o644, b""));
    assert_bad_path(refused(&bytes), &long_path, "longer than 1,024");
    let zip = |name: &str| good_zip(|z| zip_file(z, name, 0o644, b"x"));
    assert_bad_path(refused(&zip("/etc/x")), "/etc/x", "absolute");
    assert_bad_path(refused(&zip("../x")), "../x", "`..`");
    let control = "control character";
    assert_bad_path(refused(&zip("a\0b")), "a\\0b", control);
    assert_bad_path(refused(&tar(b"a\x1bb")), "a\\u{1b}b", control);
    assert!(matches!(
        entry_path(b"\xff"),
        Err(UploadError::BadPath { .. })
    ));
    assert_eq!(entry_path(b"./a/./b/").unwrap().as_deref(), Some("a/b"));
    assert_eq!(entry_path(b"./").unwrap(), None);
}

fn assert_symlink(err: UploadError, word: &str) {
    match err {
        UploadError::Symlink { reason, .. } if reason.contains(word) => {}
        other => panic!("not a symlink refused ({word}): {other}"),
    }
}

#[test]
fn symlinks_that_leave_the_archive_are_refused_in_tar_and_zip() {
    let tar = |target: &[u8]| good_tar(|b| tar_raw(b, b"data/l", EntryType::Symlink, target, b""));
    assert_symlink(refused(&tar(b"../../etc/passwd")), "outside");
    assert_symlink(refused(&tar(b"/etc/passwd")), "absolute");
    assert_symlink(refused(&tar(b"../nothing")), "not in the archive");
    let zip = |target: &str| {
        good_zip(|z| {
            z.add_symlink("data/l", target, SimpleFileOptions::default())
                .unwrap()
        })
    };
    assert_symlink(refused(&zip("../../etc/passwd")), "outside");
    assert_symlink(refused(&zip("/etc/passwd")), "absolute");
    // Lexically `deep/x`, but `deep/up` is the root, so the kernel would reach `../x`.
    let through = good_tar(|b| {
        tar_raw(b, b"deep/up", EntryType::Symlink, b"..", b"");
        tar_raw(b, b"l", EntryType::Symlink, b"deep/up/../x", b"");
    });
    assert_symlink(refused(&through), "outside");
    let looping = good_tar(|b| {
        tar_raw(b, b"a", EntryType::Symlink, b"b", b"");
        tar_raw(b, b"b", EntryType::Symlink, b"a", b"");
    });
    assert_symlink(refused(&looping), "loops");
    // Inside, but 1,100 components to walk: refused before it costs more than 1,024 steps.
    let winding = good_tar(|b| {
        let mut h = Header::new_gnu();
        h.set_entry_type(EntryType::Symlink);
        h.set_size(0);
        h.set_mode(0o777);
        b.append_link(&mut h, "l", "bin/../".repeat(550)).unwrap();
    });
    assert_symlink(refused(&winding), "1,024 path components");
}

#[test]
fn entries_under_a_symlink_or_a_file_and_duplicates_are_refused() {
    let under_link = good_tar(|b| {
        tar_raw(b, b"l", EntryType::Symlink, b"bin", b"");
        tar_file(b, "l/x", 0o644, b"x");
    });
    let err = refused(&under_link);
    assert!(
        matches!(&err, UploadError::NotAFolder { entry, parent } if entry == "l/x" && parent == "l"),
        "{err}"
    );
    let file_after_folder = good_tar(|b| tar_file(b, "bin", 0o644, b"x"));
    let err = refused(&file_after_folder);
    assert!(
        matches!(&err, UploadError::NotAFolder { parent, .. } if parent == "bin"),
        "{err}"
    );
    let twice = good_tar(|b| tar_file(b, "./bin/run.sh", 0o644, b"x"));
    assert!(matches!(refused(&twice), UploadError::Duplicate { entry } if entry == "bin/run.sh"));
    // The zip writer refuses a name twice: rename one entry in place.
    let mut bytes = good_zip(|z| {
        zip_file(z, "dup1", 0o644, b"1");
        zip_file(z, "dup2", 0o644, b"2");
    });
    for at in (0..bytes.len() - 4).rev() {
        if &bytes[at..at + 4] == b"dup2" {
            bytes[at + 3] = b'1';
        }
    }
    let err = refused(&bytes);
    assert!(
        matches!(
            err,
            UploadError::ZipDuplicates {
                listed: 4,
                distinct: 3
            }
        ),
        "{err}"
    );
}

#[test]
fn hard_links_devices_and_fifos_are_refused() {
    for (kind, what) in [
        (EntryType::Link, "a hard link (to `bin/run.sh`)"),
        (EntryType::Char, "a character device"),
        (EntryType::Block, "a block device"),
        (EntryType::Fifo, "a fifo"),
    ] {
        let bytes = good_tar(|b| tar_raw(b, b"x", kind, b"bin/run.sh", b""));
        let err = refused(&bytes);
        assert!(
            matches!(&err, UploadError::Special { entry, what: w } if entry == "x" && w == what),
            "{err}"
        );
    }
    // The zip writer only takes permission bits: write the fifo's type into the last central header.
    let mut fifo = good_zip(|z| zip_file(z, "f", 0o644, b""));
    let central = (0..fifo.len())
        .rev()
        .find(|&i| fifo[i..].starts_with(b"PK\x01\x02"))
        .unwrap();
    fifo[central + 40..central + 42].copy_from_slice(&0o010_644u16.to_le_bytes());
    assert!(matches!(refused(&fifo), UploadError::Special { what, .. } if what == "a fifo"));
}

#[test]
fn encrypted_zip_entries_are_refused() {
    let mut bytes = good_zip(|z| zip_file(z, "secret", 0o644, b"s"));
    // Set bit 0 (encrypted) of the general purpose flags in the local and central headers of `secret`.
    let local = (0..bytes.len())
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x03\x04"))
        .unwrap();
    bytes[local + 6] |= 1;
    let central = (0..bytes.len())
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x01\x02"))
        .unwrap();
    bytes[central + 8] |= 1;
    assert!(matches!(refused(&bytes), UploadError::Encrypted { entry } if entry == "secret"));
}

#[test]
fn archives_that_unpack_past_the_cap_stop_there_in_zip_and_tar_gz() {
    let limits = Limits {
        max_unpacked_bytes: 1 << 20,
        ..Limits::default()
    };
    let zeros = vec![0u8; 50 << 20];
    let zip_bomb = good_zip(|z| zip_file(z, "zeros", 0o644, &zeros));
    let tar_bomb = good_tar(|b| tar_file(b, "zeros", 0o644, &zeros));
    for bomb in [zip_bomb, tar_bomb] {
        assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
        let err = refused_with(&bomb, &limits);
        assert!(
            matches!(err, UploadError::TooBigUnpacked { max: 1_048_576 }),
            "{err}"
        );
    }
    // A pax record the tar reader would hold in memory is capped with the stream.
    let pax = good_tar(|b| tar_raw(b, b"p", EntryType::XHeader, b"", &zeros));
    assert!(matches!(
        refused_with(&pax, &limits),
        UploadError::TooBigUnpacked { .. }
    ));
}

#[test]
fn archives_with_too_many_entries_are_refused() {
    let limits = Limits {
        max_files: 5,
        ..Limits::default()
    };
    let names = ["a", "b", "c", "d"];
    let tar = good_tar(|b| names.iter().for_each(|n| tar_file(b, n, 0o644, b"")));
    let zip = good_zip(|z| names.iter().for_each(|n| zip_file(z, n, 0o644, b"")));
    for bytes in [tar, zip] {
        let err = refused_with(&bytes, &limits);
        assert!(matches!(err, UploadError::TooManyFiles { max: 5 }), "{err}");
    }
}
