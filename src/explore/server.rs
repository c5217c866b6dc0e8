//! A small HTTP/1.1 server on `std::net` for the explorer: GET and HEAD only, one request per
//! connection (`Connection: close`), the request head bounded in size ([`MAX_HEAD`]) and in
//! time (the whole head within [`READ_TIMEOUT`] of the connection, however slowly it drips), a
//! fixed set of paths (the embedded page assets and [`super::api`], which bounds the work of one
//! request), at most [`MAX_CONNECTIONS`] connections served at once (the next ones are read and
//! answered 503, not reset), and every handler run under `catch_unwind` so no request can stop
//! the server. It never opens a file: the file set was fixed when the [`Table`] was opened.
//!
//! It is written on `std::net` rather than on an HTTP crate because those limits sit below the
//! request: `tiny_http` accepts every connection and reads its head on its own threads (its
//! `ServerConfig` holds only the address and TLS settings, and its task pool adds a thread
//! whenever all are busy), so the application sees a request only after the head was read, with
//! no way to answer 503 at accept time or to set a deadline on reading the head; hyper/axum
//! would bring an async runtime for a server of one page.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::api::{self, Response};
use super::data::Table;

/// Longest request head (request line and headers) read, bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// Connections served at once; more are answered 503.
pub const MAX_CONNECTIONS: usize = 32;
/// How long a client may take to send its whole request head, counted from the connection.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection over [`MAX_CONNECTIONS`] may take to send its head before its 503.
const REJECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The page and its assets, embedded in the binary: (path, MIME type, bytes).
pub(crate) const ASSETS: [(&str, &str, &str); 3] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
];

/// Answer one request target (`/path?query`).
pub fn route(table: &Table, target: &str) -> Response {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if let Some((_, ty, body)) = ASSETS
        .iter()
        .find(|a| a.0 == path || (path == "/index.html" && a.0 == "/"))
    {
        return Response {
            status: 200,
            content_type: ty,
            body: body.as_bytes().to_vec(),
        };
    }
    if path.starts_with("/api/") {
        return api::handle(table, path, query);
    }
    Response::error(404, "not found", None)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

fn write_response(s: &mut TcpStream, r: &Response, head_only: bool) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data:; style-src 'self'; \
         script-src 'self'; connect-src 'self'; frame-ancestors 'none'\r\nConnection: close\r\n\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    s.write_all(head.as_bytes())?;
    if !head_only {
        s.write_all(&r.body)?;
    }
    s.flush()
}

/// A request's method, target and `Host` header (when it has one).
struct Head {
    method: String,
    target: String,
    host: Option<String>,
}

/// A socket read against a deadline: each read waits at most the time left, so a client that
/// sends a byte now and then still runs out of time when the deadline passes.
struct Deadline<'a> {
    s: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.s.set_read_timeout(Some(left))?;
        (&mut &*self.s).read(buf)
    }
}

/// Read the request head by `until`; `Err(response)` when it is malformed, too big or too slow.
fn read_head(s: &TcpStream, until: Instant) -> Result<Head, Response> {
    let mut reader = BufReader::new(Deadline { s, until }.take(MAX_HEAD as u64 + 1));
    let mut line = String::new();
    let mut total = 0usize;
    let mut first = None;
    let mut host = None;
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return Err(Response::error(400, "incomplete request", None)),
            Ok(n) => total += n,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(Response::error(400, "the request is not UTF-8", None))
            }
            Err(_) => return Err(Response::error(408, "request timed out", None)),
        }
        if total > MAX_HEAD {
            return Err(Response::error(431, "request head too large", None));
        }
        if first.is_none() {
            first = Some(line.trim_end().to_string());
        } else if line == "\r\n" || line == "\n" {
            break;
        } else if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("host") {
                host = Some(value.trim().to_string());
            }
        }
    }
    let first = first.unwrap_or_default();
    let mut parts = first.split(' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v)) if v.starts_with("HTTP/1.") && t.starts_with('/') => Ok(Head {
            method: m.to_string(),
            target: t.to_string(),
            host,
        }),
        _ => Err(Response::error(400, "malformed request line", None)),
    }
}

/// Which `Host` headers a request may carry. A page on another origin can make the user's
/// browser send requests here under its own host name once that name resolves to this
/// address (DNS rebinding); a server that answers only its own names gives such a page
/// nothing. Loopback names (`localhost`, `*.localhost`, a loopback address) and the bound
/// address are accepted; with `--allow-remote`, any name (the server is meant to be reached
/// by other names then).
#[derive(Debug, Clone)]
pub struct HostPolicy {
    /// Any `Host` is accepted (`--allow-remote`).
    pub any: bool,
    /// The address the server listens on.
    pub bound: std::net::IpAddr,
}

impl HostPolicy {
    /// Whether a request with this `Host` header value is answered.
    pub fn allows(&self, host: Option<&str>) -> bool {
        if self.any {
            return true;
        }
        let Some(host) = host else { return false };
        // Strip the port: `name:port`, `[v6]:port`, `[v6]`.
        let name = if let Some(rest) = host.strip_prefix('[') {
            match rest.split_once(']') {
                Some((inner, tail)) if tail.is_empty() || tail.starts_with(':') => inner,
                _ => return false,
            }
        } else {
            host.rsplit_once(':').map_or(host, |(n, _)| n)
        };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        match name.parse::<std::net::IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.bound,
            Err(_) => false,
        }
    }
}

fn serve_one(table: &Table, hosts: &HostPolicy, mut s: TcpStream) {
    let until = Instant::now() + READ_TIMEOUT;
    let _ = s.set_write_timeout(Some(READ_TIMEOUT));
    let (resp, head_only) = match read_head(&s, until) {
        Err(r) => (r, false),
        Ok(h) if !hosts.allows(h.host.as_deref()) => (
            Response::error(
                403,
                "this server answers only requests addressed to localhost or its own address \
                 (batchgen explore --allow-remote serves other names)",
                None,
            ),
            false,
        ),
        Ok(h) if h.method != "GET" && h.method != "HEAD" => (
            Response::error(405, "only GET and HEAD are served", None),
            false,
        ),
        Ok(h) => {
            let r =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(table, &h.target)))
                    .unwrap_or_else(|_| Response::error(500, "internal error", None));
            (r, h.method == "HEAD")
        }
    };
    let _ = write_response(&mut s, &resp, head_only);
    finish(&s);
}

/// Close our side, then drain (bounded) what the client still sends, so that closing with
/// unread input does not reset the connection before the client read the answer.
fn finish(s: &TcpStream) {
    let _ = s.shutdown(std::net::Shutdown::Write);
    let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = std::io::copy(&mut s.take(1 << 20), &mut std::io::sink());
}

/// A connection over the limit: read its head (briefly), answer 503 and close it cleanly.
/// Reading first matters: a socket closed with the request unread is reset, and the client
/// sees "connection reset" instead of the answer.
fn reject(mut s: TcpStream) {
    let _ = s.set_write_timeout(Some(REJECT_TIMEOUT));
    let _ = read_head(&s, Instant::now() + REJECT_TIMEOUT);
    let _ = write_response(
        &mut s,
        &Response::error(
            503,
            &format!("too many connections (at most {MAX_CONNECTIONS} at once); try again"),
            None,
        ),
        false,
    );
    finish(&s);
}

/// One slot of a counted pool, given back when dropped (also when its thread panics).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A slot of `count` if fewer than `max` are taken.
    fn take(count: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(count)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serve on `listener` until `stop` is set (polled every 50 ms; connections are accepted
/// by a blocking thread, so a request waits for nothing).
/// Requests whose `Host` header `hosts` refuses are answered 403 (see [`HostPolicy`]).
pub fn serve(
    table: Arc<Table>,
    listener: TcpListener,
    hosts: HostPolicy,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    listener.set_nonblocking(false)?;
    let hosts = Arc::new(hosts);
    let busy = Arc::new(AtomicUsize::new(0));
    let rejecting = Arc::new(AtomicUsize::new(0));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            // A connection that failed between arrival and accept: keep serving.
            let Ok(s) = conn else { continue };
            if let Some(slot) = Slot::take(&busy, MAX_CONNECTIONS) {
                let (t, h) = (Arc::clone(&table), Arc::clone(&hosts));
                std::thread::spawn(move || {
                    let _slot = slot;
                    serve_one(&t, &h, s);
                });
            } else if let Some(slot) = Slot::take(&rejecting, MAX_CONNECTIONS) {
                // Answered 503 on a thread of its own (bounded in number and time), so the
                // accepting thread never waits on a client.
                std::thread::spawn(move || {
                    let _slot = slot;
                    reject(s);
                });
            }
            // Beyond both limits the connection is closed unanswered.
        }
    });
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}
