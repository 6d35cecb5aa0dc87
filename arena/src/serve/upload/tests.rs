use std::fs;
use std::io::{Cursor, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use tar::{EntryType, Header};
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use super::tree::{Tree, Unresolved};
use super::*;
use crate::config::ProtocolKind;

pub(super) type TarB = tar::Builder<GzEncoder<Vec<u8>>>;
pub(super) type ZipB = ZipWriter<Cursor<Vec<u8>>>;

const MANIFEST_TEXT: &[u8] = b"command = \"./bin/run.sh\"\n";
const SCRIPT: &[u8] = b"#!/bin/sh\necho hi\n";

/// A scratch folder holding the upload (`upload`) and the store root (`store`).
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn root(&self) -> PathBuf {
        self.dir.path().join("store")
    }
    fn store_with(&self, bytes: &[u8], name: &str, limits: &Limits) -> Result<Stored, UploadError> {
        let upload = self.dir.path().join("upload");
        fs::write(&upload, bytes).unwrap();
        store(&upload, name, &self.root(), limits)
    }
    fn store(&self, bytes: &[u8], name: &str) -> Stored {
        self.store_with(bytes, name, &Limits::default())
            .unwrap_or_else(|e| panic!("refused: {e}"))
    }
}

fn root_is_empty(root: &Path) -> bool {
    !root.exists() || fs::read_dir(root).unwrap().next().is_none()
}

/// The error storing `bytes` under `limits`, after checking that nothing is left in the store.
pub(super) fn refused_with(bytes: &[u8], limits: &Limits) -> UploadError {
    let f = Fixture::new();
    let err = f
        .store_with(bytes, "up", limits)
        .expect_err("the upload was accepted");
    assert!(root_is_empty(&f.root()), "left behind after: {err}");
    err
}

pub(super) fn refused(bytes: &[u8]) -> UploadError {
    refused_with(bytes, &Limits::default())
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

pub(super) fn tar_gz(build: impl FnOnce(&mut TarB)) -> Vec<u8> {
    let mut b = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
    build(&mut b);
    b.into_inner().unwrap().finish().unwrap()
}

pub(super) fn tar_file(b: &mut TarB, path: &str, mode: u32, data: &[u8]) {
    let mut h = Header::new_gnu();
    h.set_mode(mode);
    h.set_size(data.len() as u64);
    b.append_data(&mut h, path, data).unwrap();
}

/// An entry whose name, type and link name are written as raw bytes (tar::Builder refuses `..`).
pub(super) fn tar_raw(b: &mut TarB, name: &[u8], kind: EntryType, link: &[u8], data: &[u8]) {
    let mut h = Header::new_gnu();
    h.as_old_mut().name[..name.len()].copy_from_slice(name);
    h.set_entry_type(kind);
    h.set_mode(0o644);
    h.set_size(data.len() as u64);
    if !link.is_empty() {
        h.set_link_name_literal(link).unwrap();
    }
    h.set_cksum();
    b.append(&h, data).unwrap();
}

/// A tar.gz with a good manifest and script plus whatever `more` adds.
pub(super) fn good_tar(more: impl FnOnce(&mut TarB)) -> Vec<u8> {
    tar_gz(|b| {
        tar_file(b, MANIFEST, 0o644, MANIFEST_TEXT);
        tar_file(b, "bin/run.sh", 0o755, SCRIPT);
        more(b);
    })
}

fn zip(build: impl FnOnce(&mut ZipB)) -> Vec<u8> {
    let mut z = ZipWriter::new(Cursor::new(Vec::new()));
    build(&mut z);
    z.finish().unwrap().into_inner()
}

pub(super) fn zip_file(z: &mut ZipB, path: &str, mode: u32, data: &[u8]) {
    let options = SimpleFileOptions::default().unix_permissions(mode);
    z.start_file(path, options).unwrap();
    z.write_all(data).unwrap();
}

pub(super) fn good_zip(more: impl FnOnce(&mut ZipB)) -> Vec<u8> {
    zip(|z| {
        zip_file(z, MANIFEST, 0o644, MANIFEST_TEXT);
        zip_file(z, "bin/run.sh", 0o755, SCRIPT);
        more(z);
    })
}

#[test]
fn a_single_elf_is_stored_executable_under_its_hash() {
    let f = Fixture::new();
    let elf = fs::read("/bin/true").unwrap();
    let s = f.store(&elf, "C:\\fakepath\\my true!");
    let hash: String = Sha256::digest(&elf)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        (s.hash.as_str(), s.kind, s.bytes),
        (hash.as_str(), Kind::Executable, elf.len() as u64)
    );
    assert_eq!(s.dir, f.root().join(&hash));
    assert_eq!(s.manifest, Manifest::executable("mytrue"));
    assert_eq!(s.manifest.command, "./mytrue");
    assert_eq!(fs::read(s.dir.join("mytrue")).unwrap(), elf);
    assert_eq!((mode(&s.dir.join("mytrue")), mode(&s.dir)), (0o755, 0o755));
    assert_eq!(
        fs::read_dir(f.root()).unwrap().count(),
        1,
        "the temporary folder is gone"
    );
}

#[test]
fn a_script_is_stored_and_runs() {
    let f = Fixture::new();
    let s = f.store(SCRIPT, "bot.sh");
    let out = std::process::Command::new(s.dir.join("bot.sh"))
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"hi\n");
}

#[test]
fn file_names_are_sanitized() {
    for (given, kept) in [
        ("bot.sh", "bot.sh"),
        ("../../etc/passwd", "passwd"),
        ("..", "bot"),
        ("", "bot"),
        ("/", "bot"),
        ("é ü", "bot"),
        ("a b\0c", "abc"),
    ] {
        assert_eq!(sanitize_file_name(given), kept, "{given:?}");
    }
    assert_eq!(sanitize_file_name(&"x".repeat(100)).len(), 64);
}

#[test]
fn a_tar_gz_is_unpacked_with_its_manifest_folders_links_and_modes() {
    let manifest = concat!(
        "command = \"./run\"\nargs = [\"--fast\"]\n",
        "protocol = \"ugi\"\noptions = { depth = 4 }\n"
    );
    let bytes = tar_gz(|b| {
        tar_raw(b, b"./", EntryType::Directory, b"", b"");
        tar_file(b, "./arena-bot.toml", 0o644, manifest.as_bytes());
        tar_file(b, "bin/run.sh", 0o4755, SCRIPT);
        tar_file(b, "data/weights.txt", 0o2666, b"1 2 3");
        tar_raw(b, b"run", EntryType::Symlink, b"bin/run.sh", b"");
        tar_raw(b, b"data/bin", EntryType::Symlink, b"../bin", b"");
        tar_raw(b, b"data/deep/", EntryType::Directory, b"", b"");
    });
    let f = Fixture::new();
    let s = f.store(&bytes, "ignored.tgz");
    assert_eq!(s.kind, Kind::TarGz);
    assert_eq!(s.manifest.command, "./run");
    assert_eq!(s.manifest.args, ["--fast"]);
    assert_eq!(s.manifest.protocol, ProtocolKind::Ugi);
    assert_eq!(s.manifest.options["depth"], toml::Value::Integer(4));
    assert_eq!(mode(&s.dir.join("bin/run.sh")), 0o755, "setuid dropped");
    assert_eq!(
        mode(&s.dir.join("data/weights.txt")),
        0o644,
        "setgid dropped"
    );
    assert_eq!(
        (mode(&s.dir.join("bin")), mode(&s.dir.join("data/deep"))),
        (0o755, 0o755)
    );
    assert_eq!(
        fs::read_link(s.dir.join("run")).unwrap(),
        Path::new("bin/run.sh")
    );
    assert_eq!(fs::read(s.dir.join("data/bin/run.sh")).unwrap(), SCRIPT);
    let out = std::process::Command::new(s.dir.join("run"))
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"hi\n");
}

#[test]
fn a_zip_is_unpacked_with_its_folders_links_and_modes() {
    let bytes = good_zip(|z| {
        z.add_directory("empty/", SimpleFileOptions::default())
            .unwrap();
        zip_file(z, "data/w.txt", 0o600, b"w");
        z.add_symlink("data/run", "../bin/run.sh", SimpleFileOptions::default())
            .unwrap();
    });
    let f = Fixture::new();
    let s = f.store(&bytes, "x.zip");
    assert_eq!(
        (s.kind, s.manifest.command.as_str()),
        (Kind::Zip, "./bin/run.sh")
    );
    assert_eq!(s.manifest.protocol, ProtocolKind::Ugi);
    assert_eq!(mode(&s.dir.join("bin/run.sh")), 0o755);
    assert_eq!(mode(&s.dir.join("data/w.txt")), 0o644);
    assert!(s.dir.join("empty").is_dir());
    assert_eq!(fs::read(s.dir.join("data/run")).unwrap(), SCRIPT);
}

#[test]
fn the_same_upload_twice_reuses_its_folder() {
    let f = Fixture::new();
    let first = f.store(&good_tar(|_| {}), "a");
    let second = f.store(&good_tar(|_| {}), "b");
    assert_eq!(first, second);
    assert_eq!(fs::read_dir(f.root()).unwrap().count(), 1);
}

#[test]
fn the_manifest_must_be_at_the_root() {
    let none = tar_gz(|b| tar_file(b, "bin/run.sh", 0o755, SCRIPT));
    assert!(matches!(refused(&none), UploadError::NoManifest));
    let deeper = tar_gz(|b| {
        tar_file(b, "mybot/arena-bot.toml", 0o644, MANIFEST_TEXT);
        tar_file(b, "mybot/bin/run.sh", 0o755, SCRIPT);
    });
    let err = refused(&deeper);
    assert_eq!(
        err.to_string(),
        "arena-bot.toml must be at the archive's root; found it at `mybot/arena-bot.toml` \
         (pack the folder's contents, not the folder)"
    );
    assert!(matches!(err, UploadError::ManifestNotAtRoot { .. }));
}

fn with_manifest(text: &str) -> UploadError {
    refused(&tar_gz(|b| {
        tar_file(b, MANIFEST, 0o644, text.as_bytes());
        tar_file(b, "bin/run.sh", 0o755, SCRIPT);
        tar_file(b, "bin/data", 0o644, b"");
        tar_raw(b, b"out", EntryType::Symlink, b"bin/../bin/run.sh", b"");
    }))
}

#[test]
fn a_manifest_that_does_not_parse_is_refused_with_its_line() {
    let err = with_manifest("command = \"./bin/run.sh\"\nspeed = 3\n");
    assert!(matches!(err, UploadError::Manifest { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with("arena-bot.toml: line 2, column 1: unknown field `speed`"),
        "{text}"
    );
    assert!(matches!(
        with_manifest("args = []\n"),
        UploadError::Manifest { .. }
    ));
    assert!(matches!(
        with_manifest("command = \n"),
        UploadError::Manifest { .. }
    ));
}

#[test]
fn manifest_options_setoption_could_not_send_are_refused_at_upload() {
    for (options, says) in [
        (
            "options = { \"Hash Size\" = 4 }",
            "option name \"Hash Size\": one word",
        ),
        (
            "options = { book = \"a\\nquit\" }",
            "holds a control character",
        ),
        (
            "options = { depth = [1, 2] }",
            "a array is not an option value",
        ),
        (
            "protocol = \"codecup\"\noptions = { depth = 4 }",
            "a CodeCup bot is sent none",
        ),
    ] {
        let err = with_manifest(&format!("command = \"./bin/run.sh\"\n{options}\n"));
        assert!(matches!(err, UploadError::Manifest { .. }), "{err}");
        assert!(err.to_string().contains(says), "{says:?} not in {err}");
    }
    // Values setoption sends are kept.
    let ok = Manifest::parse("command = \"x\"\noptions = { depth = 4, book = \"a b\", on = true }")
        .unwrap();
    assert_eq!(ok.options.len(), 3);
}

#[test]
fn a_manifest_command_must_be_an_executable_inside() {
    for (command, reason) in [
        ("./missing", "is not in the archive"),
        ("bin/data", "is not executable"),
        ("../x", "`..`"),
        ("/bin/sh", "absolute"),
        ("./bin", "folder"),
        ("./", "root"),
        ("", "empty"),
    ] {
        let err = with_manifest(&format!("command = {command:?}\n"));
        match &err {
            UploadError::Command {
                command: c,
                reason: r,
            } if c == command && r.contains(reason) => {}
            other => panic!("{command}: {other}"),
        }
    }
    let f = Fixture::new();
    let ok = |command: &str| {
        let bytes = tar_gz(|b| {
            tar_file(
                b,
                MANIFEST,
                0o644,
                format!("command = {command:?}\n").as_bytes(),
            );
            tar_file(b, "bin/run.sh", 0o755, SCRIPT);
        });
        f.store(&bytes, "x").manifest.command
    };
    assert_eq!(ok("python3"), "python3", "a program on PATH is not checked");
    assert_eq!(ok("bin//./run.sh"), "./bin/run.sh");
}

#[test]
fn resolving_follows_links_as_the_kernel_does() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits::default();
    let mut tree = Tree::new(dir.path(), &limits);
    tree.add_dir("a/b").unwrap();
    tree.add_symlink("a/b/up", b"..").unwrap();
    tree.add_symlink("top", b"a/b/up/b").unwrap();
    assert_eq!(tree.resolve("top/up/b", true), Ok("a/b".to_string()));
    assert_eq!(tree.resolve("top/up", false), Ok("a/b/up".to_string()));
    assert_eq!(tree.resolve("a/b/up/../..", true), Err(Unresolved::Escapes));
    assert_eq!(tree.resolve("a/nothing", true), Err(Unresolved::Missing));
    tree.check_symlinks().unwrap();
}

#[test]
fn manifest_arguments_and_bare_commands_stay_inside_what_the_sandbox_shows() {
    // `..` as an argument would make the sandbox show the bot the whole store of uploads.
    for (args, arg) in [
        ("[\"-c\", \"cat ../*\", \"..\"]", ".."),
        ("[\"../../..\"]", "../../.."),
        ("[\"/etc\"]", "/etc"),
    ] {
        let err = with_manifest(&format!("command = \"./bin/run.sh\"\nargs = {args}\n"));
        match &err {
            UploadError::Arg { arg: a, .. } if a == arg => {}
            other => panic!("{args}: {other}"),
        }
    }
    // A bare command is looked up where the sandbox looks, not on the server's PATH.
    let err = with_manifest("command = \"no-such-program-xyz\"\n");
    assert!(
        matches!(&err, UploadError::Command { reason, .. } if reason.contains("/usr/bin")),
        "{err}"
    );
}
