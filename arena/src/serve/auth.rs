//! Accounts, sessions and tokens: argon2id password hashes (RFC 9106, the `argon2` crate's defaults),
//! random API and session tokens (256 bits from the thread's CSPRNG, stored as SHA-256 hex so a
//! leaked database holds no usable token), and the CSRF token every form carries.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// How long a login lasts, ms (14 days).
pub const SESSION_MS: i64 = 14 * 24 * 3600 * 1000;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "arena_session";

/// The cookie that carries a logged-out form's CSRF token (the login and registration forms), which
/// the form's hidden `csrf` field must repeat.
pub const FORM_COOKIE: &str = "arena_form";

/// 32 random bytes as 64 hex digits.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// SHA-256 of `text` as 64 lowercase hex digits.
pub fn sha256_hex(text: &str) -> String {
    sha256_hex_bytes(text.as_bytes())
}

/// Lowercase hex SHA-256 of `bytes` (64 characters): an upload's hash, its store folder's name.
pub fn sha256_hex_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The argon2id PHC string of `password` with a random salt. CPU-heavy (tens of ms): call it off
/// the async threads (`spawn_blocking`).
///
/// # Errors
/// Never in practice (the parameters are the crate's defaults); reported as a string.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches the PHC string `hash` (false for a malformed hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// Whether `a` and `b` are equal, in time that depends on their lengths only.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A password a participant may choose: 8 to 200 characters.
pub fn password_ok(password: &str) -> Result<(), &'static str> {
    match password.chars().count() {
        0..8 => Err("the password must have at least 8 characters"),
        201.. => Err("the password must have at most 200 characters"),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct hors", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(h, hash_password("correct horse").unwrap(), "salted");
    }

    #[test]
    fn tokens_are_random_hex_and_compare_exactly() {
        let (a, b) = (random_token(), random_token());
        assert_eq!(a.len(), 64);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b));
        assert!(!same(&a, &a[1..]));
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
