//! A small HTTP/1.1 client for `arena bench serve` and the server's tests: one connection per
//! request (`Connection: close`), chunked bodies decoded, cookies left to the caller. Not for the
//! open internet: no TLS, no redirects.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use anyhow::{bail, Context, Result};

/// An answer: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    ///
    /// # Errors
    /// A body that is not JSON (with the body).
    pub fn json(&self) -> Result<serde_json::Value> {
        serde_json::from_slice(&self.body).with_context(|| format!("not JSON: {}", self.text()))
    }

    /// The first header `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of the cookie `name` that the answer sets.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n == "set-cookie")
            .find_map(|(_, v)| {
                let first = v.split(';').next()?;
                let (n, value) = first.split_once('=')?;
                (n.trim() == name).then(|| value.trim().to_string())
            })
    }
}

/// Sends `method path` with `headers` and `body` to `addr` and reads the whole answer (60 s at most).
///
/// # Errors
/// No connection, or an answer that is not HTTP.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<Answer> {
    let mut s = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(head.as_bytes())?;
    // The server may answer (413) before reading the whole body, and close: not an error here.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse(&raw)
}

fn parse(raw: &[u8]) -> Result<Answer> {
    let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        bail!("no HTTP header in {:?}", String::from_utf8_lossy(raw));
    };
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .context("no HTTP status line")?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(nl) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..nl]).trim(), 16)
                .context("a chunk size")?;
            if size == 0 || rest.len() < nl + 4 + size {
                break;
            }
            out.extend_from_slice(&rest[nl + 2..nl + 2 + size]);
            rest = &rest[nl + 4 + size..];
        }
        body = out;
    }
    Ok(Answer {
        status,
        headers,
        body,
    })
}

/// A `multipart/form-data` body of text `fields` and one `file` (field name, file name, bytes), and
/// its content type.
pub fn multipart(fields: &[(&str, &str)], file: Option<(&str, &str, &[u8])>) -> (String, Vec<u8>) {
    let boundary = "arenaBoundary7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (n, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{n}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    if let Some((n, file_name, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{n}\"; filename=\"{file_name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_answer_is_decoded_and_cookies_found() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1; Path=/\r\n\
                    Set-Cookie: b=2; HttpOnly\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let a = parse(raw).unwrap();
        assert_eq!((a.status, a.text().as_str()), (200, "abcde"));
        assert_eq!(a.cookie("b").as_deref(), Some("2"));
        assert_eq!(a.cookie("c"), None);
        assert!(parse(b"garbage").is_err());
    }
}
