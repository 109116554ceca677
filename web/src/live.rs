//! The online pages' link to the game server: one HTTP exchange ([`exchange`]), and the
//! live stream of one game or room (Server-Sent Events): the page's own data events,
//! read by the page, with the connection's state and the end of the game. The browser's
//! `EventSource` reconnects by itself and sends the last event id it saw, so the server
//! can resend what changed meanwhile.

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

/// A live stream; closed when dropped.
pub struct Stream {
    source: web_sys::EventSource,
    _handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
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
        let source = web_sys::EventSource::new(url).ok()?;
        let mut handlers = Vec::new();
        let mut listen = |name: &str, handler: Closure<dyn FnMut(web_sys::Event)>| {
            // An event name the browser refuses would only mean no such events arrive.
            let _ = source.add_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
            handlers.push(handler);
        };
        let cb = on_event.clone();
        listen(
            data,
            Closure::new(move |e: web_sys::Event| {
                let value = e
                    .dyn_ref::<web_sys::MessageEvent>()
                    .and_then(|m| m.data().as_string())
                    .and_then(|d| read(&d));
                if let Some(value) = value {
                    cb.emit(Live::Data(value));
                }
            }),
        );
        let cb = on_event.clone();
        listen(
            "deleted",
            Closure::new(move |_: web_sys::Event| cb.emit(Live::Deleted)),
        );
        let cb = on_event.clone();
        listen(
            "open",
            Closure::new(move |_: web_sys::Event| cb.emit(Live::Connection(Connection::Connected))),
        );
        let watched = source.clone();
        listen(
            "error",
            Closure::new(move |_: web_sys::Event| {
                // CONNECTING (0): the browser retries; CLOSED (2): it gave up.
                let state = if watched.ready_state() == web_sys::EventSource::CONNECTING {
                    Connection::Reconnecting
                } else {
                    Connection::Offline
                };
                on_event.emit(Live::Connection(state));
            }),
        );
        Some(Stream {
            source,
            _handlers: handlers,
        })
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("url", &self.source.url())
            .finish_non_exhaustive()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.source.close();
    }
}
