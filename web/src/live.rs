//! The online pages' link to the game server: one HTTP exchange ([`exchange`]), and the
//! live stream of one game or room (Server-Sent Events): the page's own data events,
//! read by the page, with the connection's state and the end of the game. The browser's
//! `EventSource` reconnects by itself and sends the last event id it saw, so the server
//! can resend what changed meanwhile; one the stream opens anew (see [`Stream`]) starts
//! without it, and the server then sends the current version first.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Sends one request (a JSON `body` and a Bearer `token` when given) and answers whether
/// its status was a success, with the answer's text; `Err` with the browser's reason
/// when the server could not be reached.
pub async fn exchange(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Result<(bool, String), JsValue> {
    let window = web_sys::window().ok_or(JsValue::NULL)?;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new()?;
    if let Some(body) = body {
        headers.set("Content-Type", "application/json")?;
        init.set_body(&JsValue::from_str(body));
    }
    if let Some(token) = token {
        headers.set("Authorization", &format!("Bearer {token}"))?;
    }
    init.set_headers(&headers);
    let req = web_sys::Request::new_with_str_and_init(url, &init)?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_request(&req))
        .await?
        .dyn_into()?;
    let text = JsFuture::from(response.text()?)
        .await?
        .as_string()
        .unwrap_or_default();
    Ok((response.ok(), text))
}

/// The state of a live stream, as `qg-connection` and `bl-connection` show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connection {
    Connected,
    Reconnecting,
    Offline,
}

impl Connection {
    pub const fn as_str(self) -> &'static str {
        match self {
            Connection::Connected => "connected",
            Connection::Reconnecting => "reconnecting",
            Connection::Offline => "offline",
        }
    }
}

/// What a stream reports to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live<T> {
    /// One of the page's data events, as its reader read it.
    Data(T),
    Connection(Connection),
    /// The game or room is gone.
    Deleted,
}

/// An event handler kept for as long as the stream.
type Handler = Closure<dyn FnMut(web_sys::Event)>;

/// A live stream; closed when dropped.
///
/// The browser reconnects an `EventSource` by itself after a network error, but gives up
/// for good on an answer that is not a stream (a proxy's 502 while the server restarts)
/// or a cancelled request: the stream then opens a new one after a while (1 s, doubling
/// up to 30 s while it keeps failing). It also follows the browser's own `offline` and
/// `online` events, since an open stream does not notice a network that went away
/// (nothing arrives, nothing fails): going offline closes it and reports
/// [`Connection::Offline`], coming back opens it again. A stream opened again is reported
/// as [`Connection::Reconnecting`], then connected when it opens (the page then catches
/// up and sends again what did not get an answer).
pub struct Stream {
    shared: Rc<Shared>,
    window_handlers: Vec<(&'static str, Handler)>,
}

/// The stream's address, its current `EventSource` and the handlers every new one gets.
struct Shared {
    url: String,
    source: RefCell<Option<web_sys::EventSource>>,
    handlers: Vec<(String, Handler)>,
    /// Openings in a row that the browser gave up on (the next waits longer).
    failures: Cell<u32>,
    report: yew::Callback<Connection>,
}

impl Shared {
    /// Opens a new `EventSource` with the handlers (false when the browser refuses the URL).
    fn connect(&self) -> bool {
        let Ok(source) = web_sys::EventSource::new(&self.url) else {
            return false;
        };
        for (name, handler) in &self.handlers {
            // An event name the browser refuses would only mean no such events arrive.
            let _ = source.add_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
        }
        if let Some(old) = self.source.replace(Some(source)) {
            old.close();
        }
        true
    }

    fn close(&self) {
        if let Some(source) = self.source.take() {
            source.close();
        }
    }

    /// The browser gave up on the current `EventSource`: a new one, later, if it is still
    /// the current one then and the browser is online.
    fn reopen_later(&self, weak: Weak<Shared>) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let failures = self.failures.get();
        self.failures.set(failures.saturating_add(1));
        let delay = (1000i32 << failures.min(5)).min(30_000);
        let again = Closure::once_into_js(move || {
            let Some(shared) = weak.upgrade() else { return };
            let online = web_sys::window().is_none_or(|w| w.navigator().on_line());
            let closed = shared
                .source
                .borrow()
                .as_ref()
                .is_some_and(|s| s.ready_state() == web_sys::EventSource::CLOSED);
            if online && closed && shared.connect() {
                shared.report.emit(Connection::Reconnecting);
            }
        });
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(again.unchecked_ref(), delay);
    }
}

impl Stream {
    /// Opens the stream at `url`: each event named `data` is read by `read` (one it
    /// cannot read is skipped), a `deleted` event ends the game, and the connection's
    /// changes are reported. `None` when the browser refuses the URL.
    pub fn open<T: 'static>(
        url: &str,
        data: &str,
        read: fn(&str) -> Option<T>,
        on_event: yew::Callback<Live<T>>,
    ) -> Option<Stream> {
        let report = on_event.reform(Live::Connection);
        let shared = Rc::new_cyclic(|weak: &Weak<Shared>| {
            let mut handlers: Vec<(String, Handler)> = Vec::new();
            let cb = on_event.clone();
            handlers.push((
                data.to_owned(),
                Closure::new(move |e: web_sys::Event| {
                    let value = e
                        .dyn_ref::<web_sys::MessageEvent>()
                        .and_then(|m| m.data().as_string())
                        .and_then(|d| read(&d));
                    if let Some(value) = value {
                        cb.emit(Live::Data(value));
                    }
                }),
            ));
            let cb = on_event.clone();
            handlers.push((
                "deleted".to_owned(),
                Closure::new(move |_: web_sys::Event| cb.emit(Live::Deleted)),
            ));
            let (cb, w) = (report.clone(), weak.clone());
            handlers.push((
                "open".to_owned(),
                Closure::new(move |_: web_sys::Event| {
                    if let Some(shared) = w.upgrade() {
                        shared.failures.set(0);
                    }
                    cb.emit(Connection::Connected);
                }),
            ));
            let (cb, w) = (report.clone(), weak.clone());
            handlers.push((
                "error".to_owned(),
                Closure::new(move |e: web_sys::Event| {
                    // CONNECTING (0): the browser retries; CLOSED (2): it gave up.
                    let connecting = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::EventSource>().ok())
                        .is_some_and(|s| s.ready_state() == web_sys::EventSource::CONNECTING);
                    if connecting {
                        cb.emit(Connection::Reconnecting);
                    } else {
                        cb.emit(Connection::Offline);
                        if let Some(shared) = w.upgrade() {
                            shared.reopen_later(w.clone());
                        }
                    }
                }),
            ));
            Shared {
                url: url.to_owned(),
                source: RefCell::new(None),
                handlers,
                failures: Cell::new(0),
                report: report.clone(),
            }
        });
        if !shared.connect() {
            return None;
        }
        let mut window_handlers: Vec<(&'static str, Handler)> = Vec::new();
        let s = Rc::clone(&shared);
        window_handlers.push((
            "offline",
            Closure::new(move |_: web_sys::Event| {
                s.close();
                s.report.emit(Connection::Offline);
            }),
        ));
        let s = Rc::clone(&shared);
        window_handlers.push((
            "online",
            Closure::new(move |_: web_sys::Event| {
                s.failures.set(0);
                if s.connect() {
                    s.report.emit(Connection::Reconnecting);
                }
            }),
        ));
        if let Some(window) = web_sys::window() {
            for (name, handler) in &window_handlers {
                let _ =
                    window.add_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
            }
        }
        Some(Stream {
            shared,
            window_handlers,
        })
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("url", &self.shared.url)
            .finish_non_exhaustive()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.shared.close();
        if let Some(window) = web_sys::window() {
            for (name, handler) in &self.window_handlers {
                let _ = window
                    .remove_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
            }
        }
    }
}
