//! Online play through the Quantum Gomoku API server: finding it, seats and their
//! tokens, the commands sent to it and the live stream of the game.
//!
//! The page looks for the API only when the server that sent it says it is there
//! (a `quantum-gomoku-api` meta tag the server adds to its pages), so a page from a
//! plain static host makes no request and plays locally as before. Seat tokens are
//! kept in localStorage per game id, so a reload keeps the seat.

use quantum_gomoku::{Game, GameId, GameOptions, GameState, ObservationResult, Player, Position};
use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::storage;

/// Where the API is, as the page's server announced it (`/api/quantum-gomoku`),
/// or `None` when the page was not served by the API server.
pub fn api_base() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector("meta[name=quantum-gomoku-api]")
        .ok()??;
    let base = meta.get_attribute("content")?;
    // Only a path on the page's own origin: the page never talks to another site.
    (base.starts_with('/') && !base.starts_with("//")).then_some(base)
}

/// Which side this browser plays in an online game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Player(Player),
    /// A game made without seats (seed 003's `POST /games`): whoever has its id
    /// plays either colour, no token needed, as the seed's page does.
    Open,
    /// Only the id is known here: the game can be watched, not played.
    Watching,
}

impl Seat {
    /// The `data-value` of `qg-seat`: in a game without seats this browser acts
    /// for `to_move`, the colour whose turn it is.
    pub const fn as_str(self, to_move: Player) -> &'static str {
        match self {
            Seat::Player(Player::Black) => "BLACK",
            Seat::Player(Player::White) => "WHITE",
            Seat::Open => to_move.as_str(),
            Seat::Watching => "watching",
        }
    }

    /// Whether this browser may act for `player`.
    pub fn acts_for(self, player: Player) -> bool {
        match self {
            Seat::Player(p) => p == player,
            Seat::Open => true,
            Seat::Watching => false,
        }
    }
}

pub use crate::live::{Connection, Stream};

/// An online game as this browser takes part in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineGame {
    pub id: GameId,
    pub seat: Seat,
    /// The seat's token (none when watching).
    pub token: Option<String>,
}

/// Why the server did not do what the page asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The API's error code (`NOT_FOUND`, `SEAT_TAKEN`, ...), or `NETWORK` when the
    /// server could not be reached.
    pub code: String,
    pub message: String,
}

impl Refused {
    fn network(e: &JsValue) -> Refused {
        Refused {
            code: "NETWORK".to_owned(),
            message: e
                .as_string()
                .or_else(|| {
                    e.dyn_ref::<js_sys::Error>()
                        .map(|e| String::from(e.message()))
                })
                .unwrap_or_else(|| "the server could not be reached".to_owned()),
        }
    }
}

fn seat_key(id: &GameId) -> String {
    format!("games.quantum-gomoku.seat.{id}")
}

/// The seat this browser holds in game `id`, if it took one before.
pub fn saved_seat(id: &GameId) -> Option<OnlineGame> {
    let saved = storage::get(&seat_key(id))?;
    let (colour, token) = saved.split_once(':')?;
    let player = Player::parse(colour)?;
    (!token.is_empty()).then(|| OnlineGame {
        id: *id,
        seat: Seat::Player(player),
        token: Some(token.to_owned()),
    })
}

fn save_seat(game: &OnlineGame) {
    if let (Seat::Player(p), Some(token)) = (game.seat, &game.token) {
        storage::set(&seat_key(&game.id), &format!("{}:{token}", p.as_str()));
    }
}

/// Forgets the seat of a game that is gone.
pub fn forget_seat(id: &GameId) {
    storage::remove(&seat_key(id));
}

/// Sends one request and reads its JSON answer (or the API's refusal).
async fn request(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> Result<serde_json::Value, Refused> {
    let body = body.map(|b| b.to_string());
    let (ok, text) = crate::live::exchange(method, url, token, body.as_deref())
        .await
        .map_err(|e| Refused::network(&e))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| Refused {
        code: "INVALID_ANSWER".to_owned(),
        message: e.to_string(),
    })?;
    if ok {
        Ok(value)
    } else {
        Err(Refused {
            code: value["code"].as_str().unwrap_or("REFUSED").to_owned(),
            message: value["message"].as_str().unwrap_or_default().to_owned(),
        })
    }
}

/// Creates a seated game with this browser as black.
pub async fn create(base: &str, options: GameOptions) -> Result<OnlineGame, Refused> {
    let body = json!({
        "boardSize": options.board_size,
        "winLength": options.win_length,
        "playerId": "BLACK",
    });
    let answer = request("POST", &format!("{base}/seated-games"), None, Some(body)).await?;
    let parsed = (|| {
        let id = GameId::parse(answer["gameId"].as_str()?).ok()?;
        let player = Player::parse(answer["seat"]["playerId"].as_str()?)?;
        let token = answer["seat"]["token"].as_str()?.to_owned();
        Some(OnlineGame {
            id,
            seat: Seat::Player(player),
            token: Some(token),
        })
    })();
    let game = parsed.ok_or_else(|| Refused {
        code: "INVALID_ANSWER".to_owned(),
        message: "the server's answer has no game id or seat".to_owned(),
    })?;
    save_seat(&game);
    Ok(game)
}

/// Takes the open seat of game `id`, or watches it when both are taken; a game
/// without seats is played through the API with either colour ([`Seat::Open`]).
/// No game at all is refused (the page then plays locally).
pub async fn join(base: &str, id: GameId) -> Result<OnlineGame, Refused> {
    if let Some(saved) = saved_seat(&id) {
        return Ok(saved);
    }
    match request(
        "POST",
        &format!("{base}/games/{id}/seats"),
        None,
        Some(json!({})),
    )
    .await
    {
        Ok(answer) => {
            let player = answer["playerId"].as_str().and_then(Player::parse);
            let token = answer["token"].as_str().map(str::to_owned);
            match (player, token) {
                (Some(player), Some(token)) => {
                    let game = OnlineGame {
                        id,
                        seat: Seat::Player(player),
                        token: Some(token),
                    };
                    save_seat(&game);
                    Ok(game)
                }
                _ => Err(Refused {
                    code: "INVALID_ANSWER".to_owned(),
                    message: "the server's answer has no seat".to_owned(),
                }),
            }
        }
        Err(r) if r.code == "SEAT_TAKEN" => Ok(OnlineGame {
            id,
            seat: Seat::Watching,
            token: None,
        }),
        Err(r) if r.code == "NOT_SEATED" => Ok(OnlineGame {
            id,
            seat: Seat::Open,
            token: None,
        }),
        Err(r) => Err(r),
    }
}

/// What the page asks the server to do with the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Place(Player, Position),
    Observe(Player),
    Reset,
    Delete,
}

/// Sends `what` as the holder of `game`'s seat; the new state comes back through
/// the live stream.
pub async fn send(base: &str, game: &OnlineGame, what: Request) -> Result<(), Refused> {
    let id = game.id;
    let token = game.token.as_deref();
    let (method, path, body) = match what {
        Request::Place(player, p) => (
            "POST",
            format!("{base}/games/{id}/moves"),
            Some(json!({"playerId": player, "position": {"row": p.row, "col": p.col}})),
        ),
        Request::Observe(player) => (
            "POST",
            format!("{base}/games/{id}/observations"),
            Some(json!({"playerId": player})),
        ),
        Request::Reset => ("POST", format!("{base}/games/{id}/reset"), Some(json!({}))),
        Request::Delete => ("DELETE", format!("{base}/games/{id}"), None),
    };
    request(method, &path, token, body).await.map(|_| ())
}

/// One event of the live stream.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateEvent {
    game_state: GameState,
    options: GameOptions,
    last_observation: Option<ObservationResult>,
}

/// The game an event shows, or `None` for data that is not a consistent game.
pub fn game_of_event(data: &str) -> Option<Game> {
    let event: StateEvent = serde_json::from_str(data).ok()?;
    Game::from_public_state(event.options, event.game_state, event.last_observation).ok()
}

/// What the game's stream reports to the page.
pub type StreamEvent = crate::live::Live<Box<Game>>;

/// The live stream of a game (its `state` events); closed when dropped. After a
/// reconnection the server resends the current state if it changed meanwhile.
pub fn open_stream(base: &str, id: GameId, on_event: yew::Callback<StreamEvent>) -> Option<Stream> {
    Stream::open(
        &format!("{base}/games/{id}/events"),
        "state",
        |data| game_of_event(data).map(Box::new),
        on_event,
    )
}

/// The address of the page showing game `id`, to send to the other player.
pub fn share_link(id: &GameId) -> Option<String> {
    let location = web_sys::window()?.location();
    let origin = location.origin().ok()?;
    let path = location.pathname().ok()?;
    Some(format!("{origin}{path}#/quantum-gomoku?gameId={id}"))
}
