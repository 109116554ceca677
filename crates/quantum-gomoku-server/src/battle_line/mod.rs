//! Battle Line online (`/api/battle-line`): rooms made and joined by id or from the
//! public list, the first-player game, then the match refereed here with
//! `crates/battle-line`, each seat served only its own view.
//!
//! - `GET /rooms` -> `{ rooms: [{ roomId, name, host, seats, full }] }`: public rooms
//!   (a match left by a player is no longer listed), most recently changed first.
//! - `POST /rooms` `{ name, nickname, private? }` -> 201 `{ roomId, token, version,
//!   view }`: the creator holds the host's seat.
//! - `POST /rooms/{id}/seats` `{ nickname }` -> 201 `{ token, version, view }`, or
//!   409 `ROOM_FULL`.
//! - `GET /rooms/{id}` (with the seat's `Authorization: Bearer`, or none to watch)
//!   -> `{ roomId, version, view }`.
//! - `POST /rooms/{id}/commands` `{ version, key, command }` with the seat's token:
//!   `command` is `{ type: "pickCard", index }`, `{ type: "chooseOrder", first }` or
//!   `{ type: "play", command: <engine command> }`. A key this seat sent before is
//!   not applied again: 200 with `replayed: true` and the current view. A `version`
//!   other than the room's is refused 409 `STALE_VERSION`, and every refusal of a
//!   command carries the current `{ version, view }` in `details`, so the client
//!   adopts it at once.
//! - `POST /rooms/{id}/leave` with the seat's token.
//! - `GET /rooms/{id}/events`: Server-Sent Events `event: version`, `id: <version>`,
//!   `data: { version }` after every change (`event: deleted` when the room goes).
//!   Events carry no view: each client reads its own with its token.
//!
//! The deal's seed and the first-player cards come from the OS's random source;
//! the stored room (seed and command log) never leaves the server.

pub(crate) mod room;
pub(crate) mod store;

use crate::api::{invalid, respond};
use crate::entropy;
use crate::error::Refusal;
use crate::seats;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use quantum_gomoku::service::parse_body;
use room::{Room, RoomCommand, RoomError, RoomView, Side};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use store::Rooms;
use tokio::sync::broadcast;

/// Where the routes live.
pub const API_PREFIX: &str = "/api/battle-line";

/// Rooms the public list shows at most.
const LISTED: usize = 50;
/// How often a change starts over after losing a race to another writer.
const WRITE_ATTEMPTS: usize = 16;
/// Room ids: 12 characters of this alphabet (60 bits from the OS's random source).
const ID_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const ID_LEN: usize = 12;
/// A comment line this often keeps proxies from closing an idle stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What a room's stream carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RoomUpdate {
    Version(u64),
    Deleted,
}

/// The broadcast channels of the rooms someone watches in this process.
#[derive(Debug, Default)]
pub(crate) struct RoomHub {
    channels: Mutex<HashMap<String, broadcast::Sender<RoomUpdate>>>,
}

impl RoomHub {
    fn channels(&self) -> MutexGuard<'_, HashMap<String, broadcast::Sender<RoomUpdate>>> {
        self.channels.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn subscribe(&self, id: &str) -> broadcast::Receiver<RoomUpdate> {
        let mut channels = self.channels();
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    /// Sends `update` to the streams of `id` in this process.
    pub(crate) fn publish(&self, id: &str, update: RoomUpdate) {
        let mut channels = self.channels();
        if let Some(tx) = channels.get(id)
            && tx.send(update).is_err()
        {
            channels.remove(id);
        }
    }

    /// Whether a stream of this process follows `id`.
    pub(crate) fn is_watched(&self, id: &str) -> bool {
        self.channels()
            .get(id)
            .is_some_and(|tx| tx.receiver_count() > 0)
    }
}

/// The rooms, their live streams and the idle limit.
#[derive(Debug, Clone)]
pub(crate) struct BlState {
    pub(crate) rooms: Arc<Rooms>,
    pub(crate) hub: Arc<RoomHub>,
    /// For tests only (`--seed`): every match is dealt from this seed, so a test can
    /// play the same commands locally. `None`: each deal's seed comes from the OS.
    pub(crate) deal_seed: Option<u64>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn refusal(e: &RoomError) -> Refusal {
    let status = match e {
        RoomError::BadName { .. } | RoomError::NoSuchCard => StatusCode::BAD_REQUEST,
        RoomError::Corrupt(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::CONFLICT,
    };
    let refused = Refusal::new(status, e.code(), e.to_string());
    match e {
        RoomError::BadName { field } => refused.with_details(json!({ "field": field })),
        RoomError::Rule(rule) => refused.with_details(json!({ "rule": rule })),
        _ => refused,
    }
}

/// A room id drawn from the OS's random source.
fn new_room_id() -> Result<String, Refusal> {
    let mut bytes = [0u8; ID_LEN];
    getrandom::fill(&mut bytes).map_err(|e| {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ENTROPY_UNAVAILABLE",
            format!("the operating system's random source failed: {e}"),
        )
    })?;
    Ok(bytes
        .iter()
        .map(|b| char::from(ID_ALPHABET[usize::from(b % 32)]))
        .collect())
}

/// The path's room id, checked before any storage is touched.
fn room_id(path: Result<Path<String>, PathRejection>) -> Result<String, Refusal> {
    let Path(id) = path.map_err(|r| invalid(format!("path: {}", r.body_text())))?;
    let ok = id.len() == ID_LEN && id.bytes().all(|b| ID_ALPHABET.contains(&b));
    if ok {
        Ok(id)
    } else {
        Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ROOM_ID",
            format!(
                "a room id is {ID_LEN} characters of {}",
                "0-9 a-z (no i, l, o, u)"
            ),
        )
        .with_details(json!({ "field": "roomId" })))
    }
}

fn not_found(id: &str) -> Refusal {
    Refusal::new(
        StatusCode::NOT_FOUND,
        "ROOM_NOT_FOUND",
        format!("there is no room {id}"),
    )
    .with_details(json!({ "roomId": id }))
}

/// Three different values from 1 to 10 for the first-player game, from the OS.
fn first_player_cards() -> Result<[u8; 3], Refusal> {
    let mut cards = [0u8; 3];
    let mut filled = 0;
    while filled < 3 {
        let mut byte = [0u8; 1];
        getrandom::fill(&mut byte).map_err(|e| {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "ENTROPY_UNAVAILABLE",
                format!("the operating system's random source failed: {e}"),
            )
        })?;
        // 250 = 25 x 10: no value is likelier than another.
        if byte[0] >= 250 {
            continue;
        }
        let value = byte[0] % 10 + 1;
        if !cards[..filled].contains(&value) {
            cards[filled] = value;
            filled += 1;
        }
    }
    Ok(cards)
}

fn hex(hash: &seats::TokenHash) -> String {
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

fn decode(id: &str, state: &str) -> Result<Room, Refusal> {
    serde_json::from_str(state).map_err(|e| refusal(&RoomError::Corrupt(format!("{id}: {e}"))))
}

fn encode(room: &Room) -> Result<String, Refusal> {
    serde_json::to_string(room).map_err(|e| {
        Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            format!("could not save the room: {e}"),
        )
    })
}

/// Whether the public list shows `room`.
fn listed(room: &Room) -> bool {
    !room.private && !matches!(room.stage, room::Stage::Abandoned { .. })
}

/// What a change of a room does.
enum Change<T> {
    /// Write the changed room.
    Write(T),
    /// Remove the room.
    Delete(T),
    /// Nothing to write (an idempotent repeat).
    Keep(T),
}

/// Runs `f` on the stored room `id` and writes its result as the next version,
/// starting over when another writer got there first. Blocking: call it on the
/// blocking pool. Answers with `f`'s value, the version after and the room.
fn change<T>(
    rooms: &Rooms,
    id: &str,
    mut f: impl FnMut(&mut Room, u64) -> Result<Change<T>, Refusal>,
) -> Result<(T, u64, Option<Room>), Refusal> {
    for _ in 0..WRITE_ATTEMPTS {
        let mut repo = rooms.repo()?;
        let row = repo.load(id)?.ok_or_else(|| not_found(id))?;
        let mut room = decode(id, &row.state)?;
        match f(&mut room, row.version)? {
            Change::Keep(t) => return Ok((t, row.version, Some(room))),
            Change::Delete(t) => {
                repo.delete(id)?;
                return Ok((t, 0, None));
            }
            Change::Write(t) => {
                if repo.replace(id, row.version, &encode(&room)?, listed(&room), now_ms())? {
                    return Ok((t, row.version + 1, Some(room)));
                }
            }
        }
    }
    Err(Refusal::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "ROOM_BUSY",
        format!("the room {id} kept changing under this request; try again"),
    ))
}

/// Runs blocking storage work on tokio's blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            format!("the storage task failed: {e}"),
        ))
    })
}

fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Refusal> {
    body.map_err(|r| invalid(format!("body: {}", r.body_text())))
}

fn view_of(room: &Room, side: Option<Side>) -> Result<RoomView, Refusal> {
    room.view(side).map_err(|e| refusal(&e))
}

/// The seat the request's token holds in `room`: 401 without a token, 403 with
/// one that holds no seat here.
fn seat_of(room: &Room, token: Option<&seats::TokenHash>) -> Result<Side, Refusal> {
    let token = token.ok_or_else(|| {
        Refusal::new(
            StatusCode::UNAUTHORIZED,
            "SEAT_TOKEN_REQUIRED",
            "this needs the seat's token (Authorization: Bearer)",
        )
    })?;
    room.side_of(&hex(token)).ok_or_else(|| {
        Refusal::new(
            StatusCode::FORBIDDEN,
            "NOT_YOUR_SEAT",
            "this token holds no seat of this room",
        )
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    name: String,
    nickname: String,
    #[serde(default)]
    private: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    nickname: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandRequest {
    version: u64,
    key: String,
    command: RoomCommand,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Seated {
    room_id: String,
    token: String,
    version: u64,
    view: RoomView,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Current {
    room_id: String,
    version: u64,
    view: RoomView,
    replayed: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Listed {
    room_id: String,
    name: String,
    host: String,
    seats: usize,
    full: bool,
}

async fn list_rooms(State(state): State<BlState>) -> Response {
    let rooms = Arc::clone(&state.rooms);
    let result = blocking(move || {
        let rows = rooms.repo()?.listed(LISTED)?;
        // A row that cannot be read is left out of the list (it answers on its own).
        let rooms: Vec<Listed> = rows
            .into_iter()
            .filter_map(|(id, state)| {
                let room: Room = serde_json::from_str(&state).ok()?;
                let seats = room.seats.iter().flatten().count();
                let host = room.seats[0].as_ref()?.nickname.clone();
                let full = room.is_full();
                Some(Listed {
                    room_id: id,
                    name: room.name,
                    host,
                    seats,
                    full,
                })
            })
            .collect();
        Ok(json!({ "rooms": rooms }))
    })
    .await;
    respond(StatusCode::OK, result)
}

async fn create_room(
    State(state): State<BlState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let request: CreateRequest = parse_body(&body_bytes(body)?)?;
        let token = seats::new_token()?;
        let room = Room::new(
            &request.name,
            &request.nickname,
            request.private,
            hex(&token.hash),
            first_player_cards()?,
        )
        .map_err(|e| refusal(&e))?;
        let rooms = Arc::clone(&state.rooms);
        blocking(move || {
            let data = encode(&room)?;
            for _ in 0..4 {
                let id = new_room_id()?;
                if rooms.repo()?.insert(&id, &data, listed(&room), now_ms())? {
                    return Ok(Seated {
                        view: view_of(&room, Some(Side::Host))?,
                        room_id: id,
                        token: token.token,
                        version: 1,
                    });
                }
            }
            Err(Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "ID_IN_USE",
                "no free room id was drawn; try again",
            ))
        })
        .await
    }
    .await;
    respond(StatusCode::CREATED, result)
}

async fn join_room(
    State(state): State<BlState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = room_id(id)?;
        let request: JoinRequest = parse_body(&body_bytes(body)?)?;
        let token = seats::new_token()?;
        let hash = hex(&token.hash);
        let rooms = Arc::clone(&state.rooms);
        let key = id.clone();
        let (view, version, _) = blocking(move || {
            change(&rooms, &key, |room, _| {
                room.join(&request.nickname, hash.clone())
                    .map_err(|e| refusal(&e))?;
                Ok(Change::Write(view_of(room, Some(Side::Guest))?))
            })
        })
        .await?;
        state.hub.publish(&id, RoomUpdate::Version(version));
        Ok(Seated {
            room_id: id,
            token: token.token,
            version,
            view,
        })
    }
    .await;
    respond(StatusCode::CREATED, result)
}

async fn get_room(
    State(state): State<BlState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let id = room_id(id)?;
        let token = seats::bearer(&headers).map(|h| hex(&h));
        let rooms = Arc::clone(&state.rooms);
        blocking(move || {
            let row = rooms.repo()?.load(&id)?.ok_or_else(|| not_found(&id))?;
            let room = decode(&id, &row.state)?;
            // A token that holds no seat here watches, as no token does.
            let side = token.and_then(|t| room.side_of(&t));
            Ok(Current {
                view: view_of(&room, side)?,
                room_id: id,
                version: row.version,
                replayed: false,
            })
        })
        .await
    }
    .await;
    respond(StatusCode::OK, result)
}

async fn command(
    State(state): State<BlState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = room_id(id)?;
        let request: CommandRequest = parse_body(&body_bytes(body)?)?;
        if !room::check_key(&request.key) {
            return Err(
                invalid("key must be 1 to 64 visible ASCII characters".to_owned())
                    .with_details(json!({ "field": "key" })),
            );
        }
        let token = seats::bearer(&headers);
        let seed = match state.deal_seed {
            Some(seed) => seed,
            None => entropy::seed()?,
        };
        let rooms = Arc::clone(&state.rooms);
        let key = id.clone();
        let ((view, replayed), version, _) = blocking(move || {
            change(&rooms, &key, |room, version| {
                let side = seat_of(room, token.as_ref())?;
                // The same command sent again (a retry after a lost answer) applies once.
                if room.seen(side, &request.key) {
                    return Ok(Change::Keep((view_of(room, Some(side))?, true)));
                }
                let current = |room: &Room| -> Result<serde_json::Value, Refusal> {
                    Ok(json!({ "version": version, "view": view_of(room, Some(side))? }))
                };
                if request.version != version {
                    return Err(Refusal::new(
                        StatusCode::CONFLICT,
                        "STALE_VERSION",
                        format!(
                            "the room is at version {version}, not {}: here is its state",
                            request.version
                        ),
                    )
                    .with_details(current(room)?));
                }
                if let Err(e) = room.apply(side, request.command, &request.key, seed) {
                    let mut refused = refusal(&e);
                    let mut details = current(room)?;
                    if let Some(extra) = refused.error.details.take() {
                        details["refusal"] = extra;
                    }
                    return Err(refused.with_details(details));
                }
                Ok(Change::Write((view_of(room, Some(side))?, false)))
            })
        })
        .await?;
        if !replayed {
            state.hub.publish(&id, RoomUpdate::Version(version));
        }
        Ok(Current {
            room_id: id,
            version,
            view,
            replayed,
        })
    }
    .await;
    respond(StatusCode::OK, result)
}

async fn leave(
    State(state): State<BlState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let id = room_id(id)?;
        let token = seats::bearer(&headers);
        let rooms = Arc::clone(&state.rooms);
        let key = id.clone();
        let (_, version, room) = blocking(move || {
            change(&rooms, &key, |room, _| {
                let side = seat_of(room, token.as_ref())?;
                Ok(if room.leave(side) {
                    Change::Delete(())
                } else {
                    Change::Write(())
                })
            })
        })
        .await?;
        let update = if room.is_some() {
            RoomUpdate::Version(version)
        } else {
            RoomUpdate::Deleted
        };
        state.hub.publish(&id, update);
        Ok(json!({ "left": true, "deleted": room.is_none() }))
    }
    .await;
    respond(StatusCode::OK, result)
}

fn version_event(version: u64) -> Event {
    Event::default()
        .event("version")
        .id(version.to_string())
        .data(json!({ "version": version }).to_string())
}

async fn events(
    State(state): State<BlState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    let opened = async {
        let id = room_id(id)?;
        // Subscribed before reading, so no change falls in between.
        let rx = state.hub.subscribe(&id);
        let rooms = Arc::clone(&state.rooms);
        let key = id.clone();
        let current = blocking(move || {
            let row = rooms.repo()?.load(&key)?.ok_or_else(|| not_found(&key))?;
            Ok(row.version)
        })
        .await?;
        let last_seen = headers
            .get("last-event-id")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let first = (last_seen != Some(current))
            .then(|| version_event(current).retry(Duration::from_millis(500)));
        let seen = if first.is_some() {
            Some(current)
        } else {
            last_seen
        };
        let cursor = (rx, first, seen, false, state.rooms.clone(), id);
        let stream = futures_util::stream::unfold(
            cursor,
            |(mut rx, mut first, mut seen, ended, rooms, id)| async move {
                if ended {
                    return None;
                }
                if let Some(event) = first.take() {
                    return Some((
                        Ok::<_, std::convert::Infallible>(event),
                        (rx, None, seen, false, rooms, id),
                    ));
                }
                loop {
                    let version = match rx.recv().await {
                        Ok(RoomUpdate::Version(v)) => v,
                        Ok(RoomUpdate::Deleted) => {
                            let gone = Event::default().event("deleted").data("{}");
                            return Some((Ok(gone), (rx, None, seen, true, rooms, id)));
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            let (r, key) = (Arc::clone(&rooms), id.clone());
                            let now = blocking(move || Ok(r.repo()?.load(&key)?)).await;
                            match now {
                                Ok(Some(row)) => row.version,
                                _ => {
                                    let gone = Event::default().event("deleted").data("{}");
                                    return Some((Ok(gone), (rx, None, seen, true, rooms, id)));
                                }
                            }
                        }
                        Err(broadcast::error::RecvError::Closed) => return None,
                    };
                    if seen.is_some_and(|s| version <= s) {
                        continue;
                    }
                    seen = Some(version);
                    return Some((
                        Ok(version_event(version)),
                        (rx, None, seen, false, rooms, id),
                    ));
                }
            },
        );
        Ok::<_, Refusal>(
            Sse::new(stream)
                .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
                .into_response(),
        )
    }
    .await;
    opened.unwrap_or_else(IntoResponse::into_response)
}

/// Removes the rooms nobody changed for `idle`, every `idle / 4` (at most a minute).
pub(crate) fn spawn_cleanup(rooms: Arc<Rooms>, idle: Duration) -> tokio::task::JoinHandle<()> {
    let every = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(60));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            let rooms = Arc::clone(&rooms);
            let before = now_ms() - i64::try_from(idle.as_millis()).unwrap_or(i64::MAX);
            let swept = blocking(move || Ok(rooms.repo()?.sweep(before)?)).await;
            match swept {
                Ok(0) => {}
                Ok(n) => tracing::info!("removed {n} idle Battle Line rooms"),
                Err(e) => tracing::warn!("the idle room clean-up failed: {}", e.error.message),
            }
        }
    })
}

/// The Battle Line routes (without the policy layers, which the caller adds).
pub(crate) fn routes<S: Clone + Send + Sync + 'static>(
    state: BlState,
    limit: Option<&crate::rate_limit::CreateLimit>,
) -> Router<S> {
    let mut create = post(create_room);
    if let Some(limit) = limit {
        create = create.layer(axum::middleware::from_fn_with_state(
            Arc::clone(limit),
            crate::rate_limit::limit_creations,
        ));
    }
    Router::new()
        .route(
            &format!("{API_PREFIX}/rooms"),
            get(list_rooms).merge(create),
        )
        .route(&format!("{API_PREFIX}/rooms/{{id}}"), get(get_room))
        .route(&format!("{API_PREFIX}/rooms/{{id}}/seats"), post(join_room))
        .route(
            &format!("{API_PREFIX}/rooms/{{id}}/commands"),
            post(command),
        )
        .route(&format!("{API_PREFIX}/rooms/{{id}}/leave"), post(leave))
        .route(&format!("{API_PREFIX}/rooms/{{id}}/events"), get(events))
        .with_state(state)
}
