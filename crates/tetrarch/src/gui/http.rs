//! A small HTTP/1.1 server over `std::net`: one request per connection
//! (`Connection: close`), bodies by `Content-Length` only (a body sent
//! otherwise is refused: `Transfer-Encoding` gets 501). Enough for one
//! person's browser on 127.0.0.1. The head is parsed by `httparse`; reading
//! it, the workers and the deadlines are this module's (no server crate
//! bounds all three: docs/gui.md, "The HTTP server").
//!
//! Bounded whatever a client does (issue 26): a request line or header line
//! is read up to [`MAX_LINE`] bytes and the head up to [`MAX_HEAD`] (then
//! 414 / 431, without reading on); the body up to [`MAX_BODY`]; a fixed
//! pool of worker threads answers, fed by a bounded queue (a connection
//! that finds it full gets 503 at once); a whole request must arrive within
//! [`Limits::request_timeout`] (not per read: a byte every few seconds does
//! not keep a worker); a failing `accept` (no file descriptors left) backs
//! off instead of spinning.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{sync_channel, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest request body accepted (a pasted position or record).
pub const MAX_BODY: usize = 1 << 20;
/// Largest request head (request line and headers).
pub const MAX_HEAD: usize = 64 << 10;
/// Longest request line or header line.
pub const MAX_LINE: usize = 8 << 10;

/// How much the server takes on at once.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Worker threads (requests answered at once).
    pub workers: usize,
    /// Accepted connections waiting for a worker; past it, 503.
    pub queue: usize,
    /// Time for the whole request to arrive.
    pub request_timeout: Duration,
    /// Time for the whole response to be written.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { workers: 8, queue: 64, request_timeout: Duration::from_secs(10), write_timeout: Duration::from_secs(10) }
    }
}

/// A parsed request.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path without the query string.
    pub path: String,
    /// Query-string and form-body parameters, decoded, in order.
    pub params: Vec<(String, String)>,
    /// The headers, names in lowercase, in order.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
    /// The first header called `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// A response.
pub struct Response {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON answer.
    pub fn json(status: u16, body: String) -> Self {
        Response { status, content_type: "application/json; charset=utf-8", headers: vec![], body: body.into_bytes() }
    }
    /// A JSON error `{"error": …}`.
    pub fn error(status: u16, msg: &str) -> Self {
        #[derive(serde::Serialize)]
        struct Error<'a> {
            error: &'a str,
        }
        Self::json(status, serde_json::to_string(&Error { error: msg }).expect("a string serialises"))
    }
    /// A static file.
    pub fn file(content_type: &'static str, body: &'static str) -> Self {
        Response { status: 200, content_type, headers: vec![], body: body.as_bytes().to_vec() }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Decodes `%xx` and `+` of a URL-encoded component.
pub fn url_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(x) => {
                        out.push(x);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn parse_params(s: &str, into: &mut Vec<(String, String)>) {
    for pair in s.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        into.push((url_decode(k), url_decode(v)));
    }
}

/// Why a request cannot be read; [`RequestError::status`] is the answer's
/// status, the text its `error`.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// The request did not arrive in time (408).
    #[error("{what}: request timeout")]
    Timeout {
        /// `read` (the head) or `read body`.
        what: &'static str,
    },
    /// Reading failed (400).
    #[error("{what}: {source}")]
    Io {
        /// `read` (the head) or `read body`.
        what: &'static str,
        /// The socket's error.
        source: std::io::Error,
    },
    /// The request line is longer than [`MAX_LINE`] (414).
    #[error("request line longer than {MAX_LINE} bytes")]
    LongRequestLine,
    /// A header line is longer than [`MAX_LINE`] (431).
    #[error("header line longer than {MAX_LINE} bytes")]
    LongHeaderLine,
    /// The head is longer than [`MAX_HEAD`] (431).
    #[error("request head longer than {MAX_HEAD} bytes")]
    LongHead,
    /// More than [`MAX_HEADERS`] header fields (431).
    #[error("more than {MAX_HEADERS} header fields")]
    TooManyHeaders,
    /// The connection closed before the head ended (400).
    #[error("connection closed")]
    Closed,
    /// No method, or a target that is not a path (400).
    #[error("bad request line")]
    BadRequestLine,
    /// `httparse` refused the head (400).
    #[error("bad request: {0}")]
    Malformed(httparse::Error),
    /// A `Content-Length` that is no number (400).
    #[error("bad Content-Length")]
    BadContentLength,
    /// Two `Content-Length` headers that differ (400).
    #[error("two different Content-Length headers")]
    TwoContentLengths,
    /// A `Transfer-Encoding` (501).
    #[error("Transfer-Encoding is not supported: send the body with a Content-Length")]
    TransferEncoding,
    /// A body over [`MAX_BODY`] bytes (413).
    #[error("request body too large")]
    BodyTooLarge,
}

impl RequestError {
    /// The status of the answer.
    pub fn status(&self) -> u16 {
        match self {
            RequestError::Timeout { .. } => 408,
            RequestError::LongRequestLine => 414,
            RequestError::LongHeaderLine | RequestError::LongHead | RequestError::TooManyHeaders => 431,
            RequestError::TransferEncoding => 501,
            RequestError::BodyTooLarge => 413,
            RequestError::Io { .. }
            | RequestError::Closed
            | RequestError::BadRequestLine
            | RequestError::Malformed(_)
            | RequestError::BadContentLength
            | RequestError::TwoContentLengths => 400,
        }
    }
}

/// An I/O error while reading `what`: a timeout is 408, anything else 400.
fn io_error(what: &'static str, source: std::io::Error) -> RequestError {
    match source.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => RequestError::Timeout { what },
        _ => RequestError::Io { what, source },
    }
}

/// Reads one line (line end kept, and counted) of at most `max` bytes into `line`;
/// `Ok(false)` if it is longer (the rest is not read).
fn read_line_max(r: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> std::io::Result<bool> {
    line.clear();
    r.take(max as u64 + 1).read_until(b'\n', line)?;
    Ok(line.len() <= max)
}

/// Reads the request head (request line and headers, blank lines before
/// the request line skipped) up to and including the blank line that ends
/// it, limited while it is read: a line over [`MAX_LINE`] bytes is 414 (the
/// request line) or 431, a head over [`MAX_HEAD`] bytes 431, and nothing
/// past the limit is read.
fn read_head(r: &mut impl BufRead) -> Result<Vec<u8>, RequestError> {
    let mut head = Vec::new();
    let mut line = Vec::new();
    loop {
        let first = head.is_empty();
        let fits = read_line_max(r, &mut line, MAX_LINE).map_err(|e| io_error("read", e))?;
        if !fits {
            return Err(if first { RequestError::LongRequestLine } else { RequestError::LongHeaderLine });
        }
        if line.is_empty() {
            return Err(RequestError::Closed);
        }
        let blank = line == b"\r\n" || line == b"\n";
        if blank && first {
            continue; // blank lines before the request line (RFC 9112 §2.2)
        }
        head.extend_from_slice(&line);
        if blank {
            return Ok(head);
        }
        if head.len() > MAX_HEAD {
            return Err(RequestError::LongHead);
        }
    }
}

/// Most header fields a request may have (a browser sends about 15).
pub const MAX_HEADERS: usize = 64;

/// The parts of a request head that [`read_request`] needs.
struct Head {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    /// `Content-Length` (0 without one).
    len: usize,
    /// Whether the body is a form (`application/x-www-form-urlencoded`, `text/plain`).
    form: bool,
}

/// Parses a whole head (as [`read_head`] returns it) with `httparse`.
fn parse_head(head: &[u8]) -> Result<Head, RequestError> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut fields);
    match req.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(RequestError::BadRequestLine),
        Err(httparse::Error::TooManyHeaders) => return Err(RequestError::TooManyHeaders),
        Err(e) => return Err(RequestError::Malformed(e)),
    }
    let method = req.method.unwrap_or("").to_string();
    let target = req.path.unwrap_or("").to_string();
    if method.is_empty() || !target.starts_with('/') {
        return Err(RequestError::BadRequestLine);
    }
    let mut len = None;
    let mut form = false;
    let mut headers = Vec::with_capacity(req.headers.len());
    for h in req.headers.iter() {
        let (k, v) = (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).trim().to_string());
        if k == "content-length" {
            let n: usize = v.parse().map_err(|_| RequestError::BadContentLength)?;
            if len.is_some_and(|l| l != n) {
                return Err(RequestError::TwoContentLengths);
            }
            len = Some(n);
        } else if k == "transfer-encoding" {
            return Err(RequestError::TransferEncoding);
        } else if k == "content-type" {
            form = v.starts_with("application/x-www-form-urlencoded") || v.starts_with("text/plain");
        }
        headers.push((k, v));
    }
    Ok(Head { method, target, headers, len: len.unwrap_or(0), form })
}

/// Reads one request (from a socket, or bytes in tests and fuzzing); `Err`
/// says why a bad one is refused. Never holds more than [`MAX_HEAD`] +
/// [`MAX_BODY`] bytes of it, whatever the input.
pub fn read_request<R: Read>(stream: &mut R) -> Result<Request, RequestError> {
    let mut r = BufReader::new(stream);
    let head = parse_head(&read_head(&mut r)?)?;
    if head.len > MAX_BODY {
        return Err(RequestError::BodyTooLarge);
    }
    let mut body = vec![0; head.len];
    r.read_exact(&mut body).map_err(|e| io_error("read body", e))?;
    let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
    let mut req = Request { method: head.method, path: url_decode(path), params: Vec::new(), headers: head.headers };
    parse_params(query, &mut req.params);
    if head.form || head.len > 0 {
        parse_params(&String::from_utf8_lossy(&body), &mut req.params);
    }
    Ok(req)
}

/// Headers on every response: no framing by other pages (clickjacking),
/// no content sniffing, no `Referer` (the page's address carries its token).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", "frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
];

/// The bytes of a response: the head, and the body unless `head_only` (the
/// answer to `HEAD`, whose `Content-Length` is still the body's).
pub fn response_bytes(resp: &Response, head_only: bool) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len()
    );
    for (k, v) in SECURITY_HEADERS {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    for (k, v) in &resp.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    if !head_only {
        out.extend_from_slice(&resp.body);
    }
    out
}

/// Writes a response (no body for `head_only`) and closes.
pub fn write_response(stream: &mut impl Write, resp: &Response, head_only: bool) {
    let _ = stream.write_all(&response_bytes(resp, head_only));
    let _ = stream.flush();
}

/// A socket whose reads and writes all end by one deadline (timeouts set
/// per call to the time left), so a client trickling bytes cannot hold a
/// worker longer than that.
struct Deadline<'a> {
    s: &'a TcpStream,
    until: Instant,
}

impl Deadline<'_> {
    fn left(&self) -> std::io::Result<Duration> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "deadline passed"));
        }
        Ok(left)
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.s.set_read_timeout(Some(self.left()?))?;
        (&mut &*self.s).read(buf)
    }
}

impl Write for Deadline<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.s.set_write_timeout(Some(self.left()?))?;
        (&mut &*self.s).write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        (&mut &*self.s).flush()
    }
}

/// Reads one request from `stream` and answers it with `handle`, within
/// the limits' deadlines. A panic in `handle` is a 500.
fn answer(stream: TcpStream, limits: &Limits, handle: &(dyn Fn(&Request) -> Response + Send + Sync)) {
    let req = read_request(&mut Deadline { s: &stream, until: Instant::now() + limits.request_timeout });
    let head_only = matches!(&req, Ok(r) if r.method == "HEAD");
    let resp = match req {
        Ok(req) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&req)))
            .unwrap_or_else(|_| Response::error(500, "internal error")),
        Err(e) => Response::error(e.status(), &e.to_string()),
    };
    write_response(&mut Deadline { s: &stream, until: Instant::now() + limits.write_timeout }, &resp, head_only);
}

/// The host names a request may be addressed to (DNS-rebinding
/// protection): `127.0.0.1`, `localhost` and `[::1]`, each with `port`.
pub fn allowed_host(host: &str, port: u16) -> bool {
    let h = host.trim().to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|n| h == format!("{n}:{port}"))
}

/// Why a request is refused before it is answered (403).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// No `Host` header.
    #[error("forbidden: the request has no Host header")]
    NoHost,
    /// A `Host` that is not this server (DNS rebinding).
    #[error("forbidden: Host `{host}` is not 127.0.0.1:{port}, localhost:{port} or [::1]:{port} (DNS rebinding?)")]
    Host {
        /// The `Host` header.
        host: String,
        /// This server's port.
        port: u16,
    },
    /// A change asked by a page of another origin.
    #[error("forbidden: cross-origin request from `{0}`")]
    CrossOrigin(String),
}

/// Why the server cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A thread could not be started.
    #[error("cannot start the server's threads: {0}")]
    Threads(#[source] std::io::Error),
    /// The worker threads ended.
    #[error("the server's threads have ended")]
    WorkersEnded,
    /// The listener's address is unknown.
    #[error("{0}")]
    Io(#[source] std::io::Error),
}

/// Whether a request may be answered: its `Host` header names this server
/// (`127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`), and a request
/// that changes something (any method but `GET` and `HEAD`) carries no
/// `Origin` header, or one of `http://` and those hosts. `Err` says why not.
pub fn check_origin(req: &Request, port: u16) -> Result<(), Forbidden> {
    match req.header("host") {
        None => return Err(Forbidden::NoHost),
        Some(h) if !allowed_host(h, port) => return Err(Forbidden::Host { host: h.into(), port }),
        Some(_) => {}
    }
    if req.method != "GET" && req.method != "HEAD" {
        if let Some(o) = req.header("origin") {
            let ok = o.to_ascii_lowercase().strip_prefix("http://").is_some_and(|h| allowed_host(h, port));
            if !ok {
                return Err(Forbidden::CrossOrigin(o.into()));
            }
        }
    }
    Ok(())
}

/// Accepts connections for ever with the default [`Limits`].
pub fn serve(listener: TcpListener, handle: impl Fn(&Request) -> Response + Send + Sync + 'static) -> Result<(), ServeError> {
    serve_with(listener, Limits::default(), handle)
}

/// Accepts connections for ever and answers them on `limits.workers`
/// threads with `handle`; `Err` only if the workers cannot be started.
pub fn serve_with(
    listener: TcpListener,
    limits: Limits,
    handle: impl Fn(&Request) -> Response + Send + Sync + 'static,
) -> Result<(), ServeError> {
    let handle: Arc<dyn Fn(&Request) -> Response + Send + Sync> = Arc::new(handle);
    let (tx, rx) = sync_channel::<TcpStream>(limits.queue);
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..limits.workers.max(1) {
        let (rx, handle, limits) = (Arc::clone(&rx), Arc::clone(&handle), limits.clone());
        std::thread::Builder::new()
            .name(format!("gui worker {i}"))
            .spawn(move || loop {
                let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                match next {
                    Ok(stream) => answer(stream, &limits, &*handle),
                    Err(_) => return,
                }
            })
            .map_err(ServeError::Threads)?;
    }
    let mut backoff = Duration::ZERO;
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                backoff = Duration::ZERO;
                match tx.try_send(stream) {
                    Ok(()) => {}
                    Err(TrySendError::Full(stream)) => {
                        let busy = Response::error(503, "busy: too many connections, try again");
                        let until = Instant::now() + Duration::from_millis(200);
                        write_response(&mut Deadline { s: &stream, until }, &busy, false);
                    }
                    Err(TrySendError::Disconnected(_)) => return Err(ServeError::WorkersEnded),
                }
            }
            Err(_) => {
                // Out of file descriptors (or another transient error):
                // wait, longer each time up to 1 s, instead of spinning.
                backoff = (backoff * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                std::thread::sleep(backoff);
            }
        }
    }
    Ok(())
}
