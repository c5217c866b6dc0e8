//! A small HTTP/1.1 server on `std::net` for the explorer: GET and HEAD only, one request per
//! connection (`Connection: close`), the request head bounded in size and time, a fixed set of
//! paths (the embedded page assets and [`super::api`]), a bounded number of connections served
//! at once, and every handler run under `catch_unwind` so no request can stop the server.
//! It never opens a file: the file set was fixed when the [`Table`] was opened.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::api::{self, Response};
use super::data::Table;

/// Longest request head (request line and headers) read, bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// Connections served at once; more are answered 503.
pub const MAX_CONNECTIONS: usize = 32;
/// How long a client may take to send its request head.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The page and its assets, embedded in the binary: (path, MIME type, bytes).
pub const ASSETS: [(&str, &str, &str); 3] = [
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

/// Read the request head; `Err(response)` when it is malformed, too big or too slow.
fn read_head(s: &TcpStream) -> Result<(String, String), Response> {
    let mut reader = BufReader::new(s.take(MAX_HEAD as u64 + 1));
    let mut line = String::new();
    let mut total = 0usize;
    let mut first = None;
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
        }
    }
    let first = first.unwrap_or_default();
    let mut parts = first.split(' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v)) if v.starts_with("HTTP/1.") && t.starts_with('/') => {
            Ok((m.to_string(), t.to_string()))
        }
        _ => Err(Response::error(400, "malformed request line", None)),
    }
}

fn serve_one(table: &Table, mut s: TcpStream) {
    let _ = s.set_read_timeout(Some(READ_TIMEOUT));
    let _ = s.set_write_timeout(Some(READ_TIMEOUT));
    let (resp, head_only) = match read_head(&s) {
        Err(r) => (r, false),
        Ok((m, _)) if m != "GET" && m != "HEAD" => (
            Response::error(405, "only GET and HEAD are served", None),
            false,
        ),
        Ok((m, target)) => {
            let r =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(table, &target)))
                    .unwrap_or_else(|_| Response::error(500, "internal error", None));
            (r, m == "HEAD")
        }
    };
    let _ = write_response(&mut s, &resp, head_only);
    // Close our side, then drain (bounded) what the client still sends, so that closing with
    // unread input does not reset the connection before the client read the answer.
    let _ = s.shutdown(std::net::Shutdown::Write);
    let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = std::io::copy(&mut (&s).take(1 << 20), &mut std::io::sink());
}

/// Serve on `listener` until `stop` is set (polled every 50 ms; connections are accepted
/// by a blocking thread, so a request waits for nothing).
pub fn serve(table: Arc<Table>, listener: TcpListener, stop: &AtomicBool) -> std::io::Result<()> {
    listener.set_nonblocking(false)?;
    let busy = Arc::new(AtomicUsize::new(0));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            // A connection that failed between arrival and accept: keep serving.
            let Ok(mut s) = conn else { continue };
            if busy.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                let _ = write_response(
                    &mut s,
                    &Response::error(503, "too many connections", None),
                    false,
                );
                continue;
            }
            busy.fetch_add(1, Ordering::SeqCst);
            let (t, b) = (Arc::clone(&table), Arc::clone(&busy));
            std::thread::spawn(move || {
                serve_one(&t, s);
                b.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}
