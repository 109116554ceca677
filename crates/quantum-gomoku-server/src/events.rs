//! Live updates of games: `GET /games/:id/events`, a Server-Sent Events stream
//! of the game's state after every accepted command.
//!
//! Each event is `event: state`, `id: <version>` (1 when created, one more per
//! accepted command) and `data: {"version", "gameState", "options",
//! "lastObservation"}`. A client that
//! reconnects sends the last id it saw as `Last-Event-ID` and gets the current
//! state at once if it changed meanwhile (every event carries the whole state,
//! so the latest one is all a client needs), then the live events. Deleting the
//! game ends the stream with `event: deleted`. The events travel on one
//! broadcast channel per game within this process; a server started on the
//! same database file does not see them.

use crate::store::Store;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use quantum_gomoku::{Game, GameId};
use serde_json::json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::broadcast;

/// Events a slow stream may fall behind by before it skips to the current state.
const CHANNEL_CAPACITY: usize = 16;
/// A comment line this often keeps proxies from closing an idle stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How long a browser waits before reconnecting a dropped stream.
const RETRY: Duration = Duration::from_millis(500);

/// What a game's stream carries.
#[derive(Debug, Clone)]
pub(crate) enum Update {
    /// The state at `version`, as the event's JSON data.
    State { version: u64, data: Arc<str> },
    /// The game was deleted.
    Deleted,
}

/// The broadcast channels of the games someone watches.
#[derive(Debug, Default)]
pub(crate) struct Hub {
    channels: Mutex<HashMap<GameId, broadcast::Sender<Update>>>,
}

/// The event data of `game` at `version`: `{ version, gameState, options:
/// { boardSize, winLength }, lastObservation }`, all a page needs to show the
/// game (`quantum_gomoku::Game::from_public_state`).
pub(crate) fn state_data(version: u64, game: &Game) -> Arc<str> {
    json!({
        "version": version,
        "gameState": game.state(),
        "options": game.options(),
        "lastObservation": game.last_observation(),
    })
    .to_string()
    .into()
}

impl Hub {
    fn channels(&self) -> MutexGuard<'_, HashMap<GameId, broadcast::Sender<Update>>> {
        // The map holds only channels: a panic mid-update leaves it usable.
        self.channels.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A receiver of `id`'s updates from now on.
    pub(crate) fn subscribe(&self, id: GameId) -> broadcast::Receiver<Update> {
        let mut channels = self.channels();
        // Streams that ended leave their channel behind: drop those here.
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(id)
            .or_insert_with(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe()
    }

    /// Whether some stream of this process follows `id`.
    pub(crate) fn is_watched(&self, id: &GameId) -> bool {
        self.channels()
            .get(id)
            .is_some_and(|tx| tx.receiver_count() > 0)
    }

    /// Sends `update` to every stream of `id` (nothing if none is open).
    pub(crate) fn publish(&self, id: GameId, update: Update) {
        let mut channels = self.channels();
        if let Some(tx) = channels.get(&id)
            && tx.send(update).is_err()
        {
            channels.remove(&id);
        }
    }
}

/// Where a stream is.
struct Cursor {
    rx: broadcast::Receiver<Update>,
    store: Store,
    id: GameId,
    /// The version the client has (sent, or named by `Last-Event-ID`).
    seen: Option<u64>,
    /// The first event, sent before any live one.
    first: Option<Event>,
    ended: bool,
}

fn state_event(version: u64, data: &str) -> Event {
    Event::default()
        .event("state")
        .id(version.to_string())
        .data(data)
}

/// The stream of `id` for a client that has `last_seen`, starting from the
/// `current` version and its event data (read after `rx` was subscribed, so
/// nothing falls between).
pub(crate) fn stream(
    rx: broadcast::Receiver<Update>,
    store: Store,
    id: GameId,
    last_seen: Option<u64>,
    current: (u64, Arc<str>),
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (version, data) = current;
    let first = (last_seen != Some(version)).then(|| state_event(version, &data).retry(RETRY));
    let cursor = Cursor {
        rx,
        store,
        id,
        seen: if first.is_some() {
            Some(version)
        } else {
            last_seen
        },
        first,
        ended: false,
    };
    let events = futures_util::stream::unfold(cursor, |mut c| async move {
        if c.ended {
            return None;
        }
        if let Some(first) = c.first.take() {
            return Some((Ok(first), c));
        }
        loop {
            match c.rx.recv().await {
                Ok(Update::State { version, data }) => {
                    if c.seen.is_some_and(|seen| version <= seen) {
                        continue;
                    }
                    c.seen = Some(version);
                    return Some((Ok(state_event(version, &data)), c));
                }
                Ok(Update::Deleted) => {
                    c.ended = true;
                    return Some((Ok(Event::default().event("deleted").data("{}")), c));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too far behind: the current state replaces what was skipped.
                    match c.store.get(c.id.to_string()).await {
                        Ok((now, _)) if c.seen.is_none_or(|seen| now.version > seen) => {
                            c.seen = Some(now.version);
                            return Some((Ok(state_event(now.version, &now.event)), c));
                        }
                        Ok(_) => continue,
                        Err(_) => {
                            c.ended = true;
                            return Some((Ok(Event::default().event("deleted").data("{}")), c));
                        }
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> GameId {
        GameId::from_random_bytes([n; 16])
    }

    #[test]
    fn updates_reach_each_subscriber_of_their_game_only() {
        let hub = Hub::default();
        let mut a = hub.subscribe(id(1));
        let mut a2 = hub.subscribe(id(1));
        let mut b = hub.subscribe(id(2));
        hub.publish(
            id(1),
            Update::State {
                version: 2,
                data: "x".into(),
            },
        );
        for rx in [&mut a, &mut a2] {
            assert!(matches!(
                rx.try_recv(),
                Ok(Update::State { version: 2, .. })
            ));
        }
        assert!(b.try_recv().is_err());
    }

    #[test]
    fn channels_without_streams_are_dropped() {
        let hub = Hub::default();
        drop(hub.subscribe(id(1)));
        hub.publish(id(1), Update::Deleted);
        assert!(hub.channels().is_empty());
        drop(hub.subscribe(id(2)));
        let _kept = hub.subscribe(id(3));
        assert_eq!(hub.channels().len(), 1);
    }
}
