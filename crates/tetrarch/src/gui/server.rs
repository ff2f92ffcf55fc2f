//! The GUI served: [`bind`] and [`serve`] (the game behind a lock, its
//! ticker thread, the HTTP server of `http.rs`), and [`route`], which checks
//! every request (`Host`, `Origin`, method, token) and answers the page's
//! files or the API.

use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::auth::{cookie_name, same, token_given};
use super::error::GuiError;
use super::http::{self, Request, Response};
use super::state::Gui;
use crate::variants;

const INDEX_HTML: &str = include_str!("index.html");
const APP_JS: &str = include_str!("app.js");
const STYLE_CSS: &str = include_str!("style.css");

pub(super) fn lock(m: &Mutex<Gui>) -> MutexGuard<'_, Gui> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Answers one request (static files, or the API under the lock). A request
/// not addressed to this server by name (`Host`), a cross-origin request
/// that would change something (`Origin`), or one without the access token
/// (when there is one) gets 403 and changes nothing. `HEAD` is answered as
/// `GET` (the server sends no body); methods other than `GET`, `HEAD` and
/// `POST` are 405.
pub(super) fn route(gui: &Mutex<Gui>, req: &Request, port: u16, token: Option<&str>) -> Response {
    if let Err(e) = http::check_origin(req, port) {
        return Response::error(403, &e.to_string());
    }
    let method = match req.method.as_str() {
        "GET" | "HEAD" => "GET",
        "POST" => "POST",
        _ => return Response::error(405, "method not allowed"),
    };
    let mut set_cookie = None;
    if let Some(t) = token {
        let given = token_given(req, port);
        if !given.iter().any(|g| same(g, t)) {
            return Response::error(
                403,
                "forbidden: this server needs its access token: open the address `tetrarch gui` printed (with ?token=…)",
            );
        }
        if req.param("token").is_some_and(|g| same(g, t)) {
            set_cookie = Some(format!("{}={t}; Path=/; HttpOnly; SameSite=Strict", cookie_name(port)));
        }
    }
    // The access token is not a parameter of the API (`/api/setup/place`
    // has a `token` of its own: a set-up).
    let stripped;
    let req = match token {
        Some(t) if req.params.iter().any(|(k, v)| k == "token" && same(v, t)) => {
            stripped = Request {
                params: req.params.iter().filter(|(k, v)| !(k == "token" && same(v, t))).cloned().collect(),
                ..req.clone()
            };
            &stripped
        }
        _ => req,
    };
    let mut resp = match (method, req.path.as_str()) {
        ("GET", "/" | "/index.html") => Response::file("text/html; charset=utf-8", INDEX_HTML),
        ("GET", "/app.js") => Response::file("text/javascript; charset=utf-8", APP_JS),
        ("GET", "/style.css") => Response::file("text/css; charset=utf-8", STYLE_CSS),
        ("GET", "/favicon.ico") => Response { status: 404, content_type: "text/plain", headers: vec![], body: vec![] },
        ("GET", "/api/actions") => {
            // Listing the legal actions can take long and much memory (a
            // tall Quadranj stack: millions): it is done outside the game's
            // lock, one listing at a time.
            let job = {
                let mut g = lock(gui);
                g.tick();
                g.actions_job(req)
            };
            match job {
                Ok(job) => {
                    let _one = LISTING.lock().unwrap_or_else(|e| e.into_inner());
                    job.run()
                }
                Err(r) => r,
            }
        }
        (_, p) if p.starts_with("/api/") => {
            let mut g = lock(gui);
            g.tick();
            g.handle(req)
        }
        _ => Response::error(404, &format!("no such page `{}`", req.path)),
    };
    if let Some(c) = set_cookie {
        resp.headers.push(("Set-Cookie".into(), c));
    }
    resp
}

/// One `/api/actions` listing at a time (each may hold hundreds of MB).
static LISTING: Mutex<()> = Mutex::new(());

/// Binds 127.0.0.1:`port` (0: any free port) and returns the listener and
/// its URL (without a token).
pub fn bind(port: u16) -> std::io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let url = format!("http://127.0.0.1:{}/", listener.local_addr()?.port());
    Ok((listener, url))
}

/// Serves the GUI on `listener` for ever, starting with `variant`; with a
/// `token`, every request must carry it (docs/gui.md, "Security").
pub fn serve(listener: TcpListener, variant: &str, token: Option<String>) -> Result<(), GuiError> {
    let variant =
        variants().into_iter().find(|v| v.eq_ignore_ascii_case(variant)).ok_or_else(|| GuiError::unknown_variant(variant))?;
    let port = listener.local_addr().map_err(http::ServeError::Io)?.port();
    let mut g = Gui::new(variant);
    g.scorer.on = true;
    let gui = Arc::new(Mutex::new(g));
    // The ticker: engine replies are taken in and clocks run out even when
    // no page asks.
    let g2 = Arc::clone(&gui);
    std::thread::Builder::new()
        .name("gui ticker".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_millis(25));
            lock(&g2).tick();
        })
        .map_err(http::ServeError::Threads)?;
    Ok(http::serve(listener, move |req| route(&gui, req, port, token.as_deref()))?)
}
