//! A game server's live stream of one game or room (Server-Sent Events), for the online
//! pages: the page's own data events, read by the page, with the connection's state and
//! the end of the game. The browser's `EventSource` reconnects by itself and sends the
//! last event id it saw, so the server can resend what changed meanwhile.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

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
