//! The server's accept loop: HTTP/1.1 connections from hyper with the deadlines and caps that
//! `axum::serve` lacks, so that slow or idle clients (slowloris) cannot hold the server's sockets.
//!
//! - A request's head must arrive within `[server] header_timeout_s` (hyper's header read timeout,
//!   which also bounds an idle keep-alive connection waiting for its next request).
//! - A request's body may not pause longer than `[server] body_timeout_s`, and a request must be read
//!   and answered within it (tower-http's body timeout and request timeout: 408).
//! - A connection lasts at most `[server] connection_timeout_s`, however busy (a client that never
//!   reads its answers, or trickles requests).
//! - At most `[server] max_connections` connections are open at once (more wait in the kernel's
//!   backlog), and at most `max_connections_per_address` from one address: beyond it a new
//!   connection is closed at once (not counted behind a proxy, whose address is everyone's).
//! - Every request carries its peer address ([`ConnectInfo`]) for the per-address login limit; an
//!   IPv6 client counts as its /64 ([`bucket`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::serve::contest::ServerConfig;

/// How long open requests may go on once the server is told to stop, s.
const DRAIN_S: u64 = 10;

/// Serves `router` on `listener` until `stop` turns true, with `limits`' deadlines and caps; then
/// lets open requests finish for up to 10 s.
///
/// # Errors
/// None in practice: a failed `accept` (out of descriptors) is logged and retried after 100 ms.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &ServerConfig,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    // A body's bytes may not pause longer than `body_timeout_s`, and a request may not take longer
    // than that to be read and answered (a handler reads its body inside this deadline).
    let router = router
        .layer(RequestBodyTimeoutLayer::new(Duration::from_secs(
            limits.body_timeout_s,
        )))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(limits.body_timeout_s),
        ));
    let lifetime = Duration::from_secs(limits.connection_timeout_s);
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = Arc::new(PerAddress {
        cap: limits.max_connections_per_address,
        open: Mutex::new(HashMap::new()),
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(limits.header_timeout_s))
        // A head larger than this (64 KiB) is refused with 431.
        .max_buf_size(64 * 1024);
    let graceful = GracefulShutdown::new();
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&open).acquire_owned() => p.expect("the semaphore is never closed"),
            _ = crate::run::pool::stopped(&mut stop) => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it was taken.
                    crate::errln!("arena serve: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = crate::run::pool::stopped(&mut stop) => break,
        };
        let counted = if limits.behind_proxy {
            None
        } else {
            match per_address.enter(bucket(peer.ip())) {
                Some(c) => Some(c),
                // Over its address's cap: closed unanswered.
                None => continue,
            }
        };
        let _ = stream.set_nodelay(true);
        let service = router
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = graceful
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        tokio::spawn(async move {
            // A client that goes away mid-request is its own affair. One that keeps its connection
            // past `connection_timeout_s` (a reader that never reads, a trickle of requests) loses
            // it: dropping the connection closes its socket.
            let _ = tokio::time::timeout(lifetime, connection).await;
            drop(counted);
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(Duration::from_secs(DRAIN_S)) => {}
    }
    Ok(())
}

/// The open connections of each address, capped.
struct PerAddress {
    cap: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerAddress {
    /// Counts a connection from `ip`; `None` when `ip` already has `cap` open.
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<Counted> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_default();
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Counted {
            of: Arc::clone(self),
            ip,
        })
    }
}

/// One counted connection: uncounted when dropped.
struct Counted {
    of: Arc<PerAddress>,
    ip: IpAddr,
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self.of.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// The address a request came from, as the limits count it ([`bucket`]): its peer's, or behind a
/// proxy (`[server] behind_proxy`) whose peer is this machine (a loopback address), the last address
/// of its `X-Forwarded-For` (the one the proxy itself added), read from the header's bytes. A last
/// entry that is no address (a client's forgery the proxy passed on) counts as one address of its own
/// for all such requests, never as the proxy's. `None` when the peer is unknown (a unit test's
/// request).
pub fn client_address(request: &axum::http::request::Parts, behind_proxy: bool) -> Option<IpAddr> {
    let peer = request
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(a)| a.ip())?;
    if !(behind_proxy && peer.is_loopback()) {
        return Some(bucket(peer));
    }
    let Some(last) = request
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
    else {
        return Some(bucket(peer));
    };
    let entry = last
        .as_bytes()
        .rsplit(|&b| b == b',')
        .next()
        .unwrap_or_default();
    let parsed = std::str::from_utf8(entry)
        .ok()
        .and_then(|e| e.trim().parse::<IpAddr>().ok());
    // The unspecified address stands for every unreadable entry.
    Some(bucket(
        parsed.unwrap_or(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)),
    ))
}

/// The address the limits count for `ip`: an IPv4 address (an IPv4-mapped IPv6 one made IPv4)
/// itself, an IPv6 address its /64 network, since one client holds a whole /64.
pub fn bucket(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Who sent a request, as a handler's argument: its address ([`client_address`] under the contest's
/// `behind_proxy`) and whether it came over HTTPS (`X-Forwarded-Proto: https` from the proxy), when
/// its cookies must be `Secure`.
pub struct Client {
    pub address: Option<IpAddr>,
    pub https: bool,
}

impl axum::extract::FromRequestParts<Arc<crate::serve::App>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<crate::serve::App>,
    ) -> Result<Client, std::convert::Infallible> {
        let behind_proxy = app.contest.config.server.behind_proxy;
        let https = behind_proxy
            && parts
                .headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
        Ok(Client {
            address: client_address(parts, behind_proxy),
            https,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_cap_of_connections_and_more_once_one_closes() {
        let of = Arc::new(PerAddress {
            cap: 2,
            open: Mutex::new(HashMap::new()),
        });
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = of.enter(a).unwrap();
        let _second = of.enter(a).unwrap();
        assert!(of.enter(a).is_none(), "a third from one address");
        let _other = of.enter(b).expect("another address has its own cap");
        drop(first);
        assert!(of.enter(a).is_some(), "one closed, one more may open");
    }

    fn parts(forwarded: &[u8], peer: [u8; 4]) -> axum::http::request::Parts {
        let request = axum::http::Request::builder()
            .header(
                "x-forwarded-for",
                axum::http::HeaderValue::from_bytes(forwarded).unwrap(),
            )
            .extension(ConnectInfo(SocketAddr::from((peer, 9))))
            .body(())
            .unwrap();
        request.into_parts().0
    }

    #[test]
    fn behind_a_proxy_the_address_is_the_last_forwarded_one() {
        let local = parts(b"1.2.3.4, 5.6.7.8", [127, 0, 0, 1]);
        assert_eq!(
            client_address(&local, true),
            Some("5.6.7.8".parse().unwrap())
        );
        assert_eq!(
            client_address(&local, false),
            Some("127.0.0.1".parse().unwrap()),
            "a forged header counts only behind a proxy"
        );
        // The header counts only from the proxy on this machine.
        let remote = parts(b"5.6.7.8", [10, 0, 0, 7]);
        assert_eq!(
            client_address(&remote, true),
            Some("10.0.0.7".parse().unwrap())
        );
        // An unreadable last entry (bytes that are no text, a port) is not the proxy's address.
        for forged in [&b"1.2.3.4, \xff\xfe"[..], b"1.2.3.4:80"] {
            assert_eq!(
                client_address(&parts(forged, [127, 0, 0, 1]), true),
                Some("::".parse().unwrap()),
                "{forged:?}"
            );
        }
    }

    #[test]
    fn an_ipv6_client_counts_as_its_slash_64() {
        assert_eq!(
            bucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd".parse().unwrap()),
            "2001:db8:1:2::".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            bucket("::ffff:10.1.2.3".parse().unwrap()),
            "10.1.2.3".parse::<IpAddr>().unwrap()
        );
    }
}
