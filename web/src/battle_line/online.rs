//! Battle Line online through the game server: finding it, rooms, seat tokens, the
//! commands sent and the room's version stream.
//!
//! The page looks for the server only when the server that sent it says it is there
//! (a `battle-line-api` meta tag), so a page from a plain static host makes no
//! request. A seat's token is kept in localStorage per room, so a reload, a closed
//! tab or a restarted phone comes back to the same seat. The server sends each seat
//! its own view only: this module never holds the other player's cards.

use battle_line::{Card, Command, Flag, HiddenHand, Player};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::storage;

/// Where the API is, as the page's server announced it (`/api/battle-line`), or
/// `None` when the page was not served by the game server.
pub fn api_base() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector("meta[name=battle-line-api]")
        .ok()??;
    let base = meta.get_attribute("content")?;
    // Only a path on the page's own origin: the page never talks to another site.
    (base.starts_with('/') && !base.starts_with("//")).then_some(base)
}

/// Whether `id` looks like a room id (12 characters of the server's alphabet).
pub fn valid_room_id(id: &str) -> bool {
    id.len() == 12
        && id
            .bytes()
            .all(|b| b"0123456789abcdefghjkmnpqrstvwxyz".contains(&b))
}

fn token_key(room: &str) -> String {
    format!("games.battle-line.room.{room}")
}

/// The seat token this browser holds in `room`, if it took a seat there.
pub fn saved_token(room: &str) -> Option<String> {
    storage::get(&token_key(room)).filter(|t| !t.is_empty())
}

fn save_token(room: &str, token: &str) {
    storage::set(&token_key(room), token);
}

/// Forgets the seat of a room that is left or gone.
pub fn forget_token(room: &str) {
    storage::remove(&token_key(room));
}

/// Why the server did not do what the page asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The API's error code (`ROOM_FULL`, `STALE_VERSION`, ...), or `NETWORK` when
    /// the server could not be reached.
    pub code: String,
    pub message: String,
    pub details: Details,
}

/// What a refusal may carry besides its code (typed: the page reads no free JSON).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct Details {
    /// The field a refused name was given in (`name`, `nickname`).
    pub field: Option<String>,
    /// The room's current version and this seat's view of it (refused commands).
    pub version: Option<u64>,
    pub view: Option<Box<RoomView>>,
}

/// A refusal as the API writes it.
#[derive(Debug, Deserialize)]
struct ApiError {
    #[serde(default)]
    code: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    details: Option<Details>,
}

impl Refused {
    fn network(e: &JsValue) -> Refused {
        Refused {
            code: "NETWORK".to_owned(),
            message: e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "the server could not be reached".to_owned()),
            details: Details::default(),
        }
    }

    fn answer(message: &str) -> Refused {
        Refused {
            code: "INVALID_ANSWER".to_owned(),
            message: message.to_owned(),
            details: Details::default(),
        }
    }

    /// A refusal made by the page itself (e.g. a malformed room id).
    pub fn local(code: &str) -> Refused {
        Refused {
            code: code.to_owned(),
            message: String::new(),
            details: Details::default(),
        }
    }

    /// The room's current state a refusal of a command carries, to adopt at once.
    pub fn current(&self) -> Option<(u64, RoomView)> {
        Some((
            self.details.version?,
            (**self.details.view.as_ref()?).clone(),
        ))
    }
}

/// The first-player game as this seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstCards {
    /// The values, `None` while face down.
    pub cards: [Option<u8>; 3],
    /// The card the host and the guest picked.
    pub picks: [Option<u8>; 2],
    /// `host` or `guest`, once both picked.
    pub winner: Option<String>,
}

/// What the page reads of the engine's `PlayerView` (the server's answer for a
/// seat; the fields the page does not show are not read, which keeps their
/// decoders out of the bundle): its own hand, the other as counts, the flags and
/// its legal commands.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SeatView {
    pub viewer: Player,
    pub current: Player,
    pub hand: Vec<Card>,
    pub opponent_hand: HiddenHand,
    pub troop_deck: usize,
    pub tactic_deck: usize,
    pub flags: Vec<Flag>,
    pub legal: Vec<Command>,
    pub winner: Option<Player>,
}

/// What the page reads of the engine's `TableView` (a watcher's answer).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TableView {
    pub hands: [HiddenHand; 2],
    pub flags: Vec<Flag>,
    pub winner: Option<Player>,
}

/// The room as the server showed it to this browser.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomView {
    pub name: String,
    pub private: bool,
    pub nicknames: [Option<String>; 2],
    /// `host`, `guest`, or `None` when watching.
    pub you: Option<String>,
    /// `P0`, `P1`, `pending` (seated, order not chosen yet) or `watching`.
    pub seat: String,
    /// `firstPlayer`, `choosing`, `playing` or `abandoned`.
    pub stage: String,
    pub first: Option<FirstCards>,
    /// The match from this seat (its hand, the other as counts, its legal commands).
    #[serde(rename = "match")]
    pub game: Option<Box<SeatView>>,
    /// The match for a watcher: the table only.
    pub table: Option<Box<TableView>>,
    pub left: Option<String>,
    /// Cards of the other hand this seat has seen (put back with Scout, then drawn).
    #[serde(default)]
    pub seen: Vec<Card>,
}

/// A public room of the lobby's list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedRoom {
    pub room_id: String,
    pub name: String,
    pub host: String,
    pub seats: u8,
    pub full: bool,
}

/// A seat taken (made or joined): the room, the seat's token and the room's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Entered {
    pub room: String,
    pub token: String,
    pub version: u64,
    pub view: RoomView,
}

/// Sends one request and reads its answer as `T` (or the API's refusal).
async fn request<T: serde::de::DeserializeOwned>(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<String>,
) -> Result<T, Refused> {
    let (ok, text) = crate::live::exchange(method, url, token, body.as_deref())
        .await
        .map_err(|e| Refused::network(&e))?;
    if ok {
        serde_json::from_str(&text).map_err(|e| Refused::answer(&e.to_string()))
    } else {
        let error: ApiError =
            serde_json::from_str(&text).map_err(|e| Refused::answer(&e.to_string()))?;
        Err(Refused {
            code: error.code,
            message: error.message,
            details: error.details.unwrap_or_default(),
        })
    }
}

fn body<T: Serialize>(value: &T) -> Option<String> {
    serde_json::to_string(value).ok()
}

/// A room's state as the API answers it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default)]
    room_id: Option<String>,
    #[serde(default)]
    token: Option<String>,
    version: u64,
    view: RoomView,
}

fn entered(answer: Answer, room: Option<&str>) -> Result<Entered, Refused> {
    let room = room
        .map(str::to_owned)
        .or(answer.room_id)
        .ok_or_else(|| Refused::answer("the answer has no room id"))?;
    let token = answer
        .token
        .ok_or_else(|| Refused::answer("the answer has no seat token"))?;
    save_token(&room, &token);
    Ok(Entered {
        room,
        token,
        version: answer.version,
        view: answer.view,
    })
}

#[derive(Debug, Deserialize)]
struct RoomList {
    rooms: Vec<ListedRoom>,
}

/// The public rooms.
pub async fn list(base: &str) -> Result<Vec<ListedRoom>, Refused> {
    let list: RoomList = request("GET", &format!("{base}/rooms"), None, None).await?;
    Ok(list.rooms)
}

#[derive(Debug, Serialize)]
struct CreateBody<'a> {
    name: &'a str,
    nickname: &'a str,
    private: bool,
}

#[derive(Debug, Serialize)]
struct JoinBody<'a> {
    nickname: &'a str,
}

/// Makes a room with this browser in the host's seat.
pub async fn create(
    base: &str,
    name: &str,
    nickname: &str,
    private: bool,
) -> Result<Entered, Refused> {
    let sent = body(&CreateBody {
        name,
        nickname,
        private,
    });
    let answer = request("POST", &format!("{base}/rooms"), None, sent).await?;
    entered(answer, None)
}

/// Takes the open seat of `room`.
pub async fn join(base: &str, room: &str, nickname: &str) -> Result<Entered, Refused> {
    let sent = body(&JoinBody { nickname });
    let answer = request("POST", &format!("{base}/rooms/{room}/seats"), None, sent).await?;
    entered(answer, Some(room))
}

/// The room as this seat (or a watcher, without a token) sees it now.
pub async fn fetch(
    base: &str,
    room: &str,
    token: Option<&str>,
) -> Result<(u64, RoomView), Refused> {
    let answer: Answer = request("GET", &format!("{base}/rooms/{room}"), token, None).await?;
    Ok((answer.version, answer.view))
}

/// What a seat asks of the room (the server's `RoomCommand`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum RoomCommand {
    /// One of the first-player game's three cards.
    PickCard { index: u8 },
    /// The first-player game's winner goes first or second.
    ChooseOrder { first: bool },
    /// A command of the match.
    Play { command: Command },
}

#[derive(Debug, Serialize)]
struct CommandBody<'a> {
    version: u64,
    key: &'a str,
    command: RoomCommand,
}

/// Sends `command` against `version` with the idempotency `key`; a lost answer is
/// sent again with the same key (applied once), up to three times.
pub async fn send(
    base: &str,
    room: &str,
    token: &str,
    version: u64,
    key: &str,
    command: RoomCommand,
) -> Result<(u64, RoomView), Refused> {
    let url = format!("{base}/rooms/{room}/commands");
    let sent = body(&CommandBody {
        version,
        key,
        command,
    });
    let mut last = None;
    for attempt in 0..3u32 {
        if attempt > 0 {
            sleep_ms(500 * attempt).await;
        }
        match request::<Answer>("POST", &url, Some(token), sent.clone()).await {
            Ok(answer) => return Ok((answer.version, answer.view)),
            Err(r) if r.code == "NETWORK" => last = Some(r),
            Err(r) => return Err(r),
        }
    }
    Err(last.unwrap_or_else(|| Refused::network(&JsValue::NULL)))
}

#[derive(Debug, Deserialize)]
struct Left {}

/// Leaves the room (the seat's token is forgotten here).
pub async fn leave(base: &str, room: &str, token: &str) -> Result<(), Refused> {
    request::<Left>(
        "POST",
        &format!("{base}/rooms/{room}/leave"),
        Some(token),
        Some("{}".to_owned()),
    )
    .await?;
    forget_token(room);
    Ok(())
}

async fn sleep_ms(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                i32::try_from(ms).unwrap_or(i32::MAX),
            );
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// A fresh idempotency key for one click (unique, not secret).
pub fn new_key() -> String {
    // Whole numbers only: printing a float would link float formatting in.
    let now = js_sys::Date::now() as u64;
    let noise = (js_sys::Math::random() * 4_294_967_296.0) as u32;
    format!("{now}-{noise}")
}

pub use crate::live::{Connection, Stream};

/// What the room's stream reports to the page: the room's new version (the page then
/// reads its own view).
pub type StreamEvent = crate::live::Live<u64>;

#[derive(Debug, Deserialize)]
struct VersionEvent {
    version: u64,
}

/// The room's version stream (its `version` events); closed when dropped.
pub fn open_stream(base: &str, room: &str, on_event: yew::Callback<StreamEvent>) -> Option<Stream> {
    Stream::open(
        &format!("{base}/rooms/{room}/events"),
        "version",
        |data| {
            serde_json::from_str::<VersionEvent>(data)
                .ok()
                .map(|v| v.version)
        },
        on_event,
    )
}
