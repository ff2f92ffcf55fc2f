//! A tiny HTTP/1.1 server over `std::net`: one request per connection
//! (`Connection: close`), a thread per connection, bodies by
//! `Content-Length` only. Enough for one person's browser on 127.0.0.1.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

/// Largest request body accepted (a pasted position or record).
const MAX_BODY: usize = 1 << 20;
/// Largest request head (request line and headers).
const MAX_HEAD: usize = 64 << 10;

/// A parsed request.
#[derive(Debug, Default)]
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
        let mut s = String::from("{\"error\":");
        tetrarch_core::view::json_str(&mut s, msg);
        s.push('}');
        Self::json(status, s)
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
        409 => "Conflict",
        413 => "Payload Too Large",
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

/// Reads one request (from a socket, or bytes in tests and fuzzing); `Err`
/// with a status and message for a bad one.
pub fn read_request<R: Read>(stream: &mut R) -> Result<Request, (u16, String)> {
    let mut r = BufReader::new(stream);
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = r.read_until(b'\n', &mut line).map_err(|e| (400, format!("read: {e}")))?;
        if n == 0 {
            return Err((400, "connection closed".into()));
        }
        if line == b"\r\n" || line == b"\n" {
            break;
        }
        head.extend_from_slice(&line);
        if head.len() > MAX_HEAD {
            return Err((413, "request head too large".into()));
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.lines();
    let first = lines.next().unwrap_or("");
    let mut parts = first.split(' ');
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    if method.is_empty() || !target.starts_with('/') {
        return Err((400, "bad request line".into()));
    }
    let mut len = 0usize;
    let mut form = false;
    let mut headers = Vec::new();
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            headers.push((k.clone(), v.to_string()));
            if k == "content-length" {
                len = v.parse().map_err(|_| (400, "bad Content-Length".to_string()))?;
            } else if k == "content-type" {
                form = v.starts_with("application/x-www-form-urlencoded") || v.starts_with("text/plain");
            }
        }
    }
    if len > MAX_BODY {
        return Err((413, "request body too large".into()));
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).map_err(|e| (400, format!("read body: {e}")))?;
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let mut req = Request { method, path: url_decode(path), params: Vec::new(), headers };
    parse_params(query, &mut req.params);
    if form || len > 0 {
        parse_params(&String::from_utf8_lossy(&body), &mut req.params);
    }
    Ok(req)
}

/// Writes a response and closes.
pub fn write_response(stream: &mut TcpStream, resp: &Response) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len()
    );
    for (k, v) in &resp.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&resp.body);
    let _ = stream.flush();
}

/// The host names a request may be addressed to (DNS-rebinding
/// protection): `127.0.0.1`, `localhost` and `[::1]`, each with `port`.
pub fn allowed_host(host: &str, port: u16) -> bool {
    let h = host.trim().to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|n| h == format!("{n}:{port}"))
}

/// Whether a request may be answered: its `Host` header names this server
/// (`127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`), and a request
/// that changes something (any method but `GET` and `HEAD`) carries no
/// `Origin` header, or one of `http://` and those hosts. `Err` says why not.
pub fn check_origin(req: &Request, port: u16) -> Result<(), String> {
    match req.header("host") {
        None => return Err("forbidden: the request has no Host header".into()),
        Some(h) if !allowed_host(h, port) => {
            return Err(format!(
                "forbidden: Host `{h}` is not 127.0.0.1:{port}, localhost:{port} or [::1]:{port} (DNS rebinding?)"
            ))
        }
        Some(_) => {}
    }
    if req.method != "GET" && req.method != "HEAD" {
        if let Some(o) = req.header("origin") {
            let ok = o.to_ascii_lowercase().strip_prefix("http://").is_some_and(|h| allowed_host(h, port));
            if !ok {
                return Err(format!("forbidden: cross-origin request from `{o}`"));
            }
        }
    }
    Ok(())
}

/// Accepts connections for ever, answering each on its own thread with
/// `handle`.
pub fn serve(listener: TcpListener, handle: impl Fn(&Request) -> Response + Send + Sync + 'static) {
    let handle = std::sync::Arc::new(handle);
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let handle = std::sync::Arc::clone(&handle);
        std::thread::spawn(move || {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let resp = match read_request(&mut stream) {
                Ok(req) => handle(&req),
                Err((status, msg)) => Response::error(status, &msg),
            };
            write_response(&mut stream, &resp);
        });
    }
}
