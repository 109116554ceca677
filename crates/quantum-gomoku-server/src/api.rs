//! The six game endpoints: request bodies in, service answers or refusals out.

use crate::entropy;
use crate::error::Refusal;
use crate::events::{self, Hub, Update};
use crate::seats::{self, JoinRequest, SeatGrant, SeatedGameRequest, Seats, SeatsView};
use crate::store::{Answer, Command, Store, Versioned};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use quantum_gomoku::service::{
    CreatedResponse, MoveRequest, ObservationRequest, ServiceError, parse_body,
};
use quantum_gomoku::{GameId, GameOptions, GameState, Player};
use serde::Serialize;
use serde_json::json;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// How often `POST /games` draws a fresh id when the one drawn is taken; with
/// 122 random bits a second draw already never happens in practice.
const ID_DRAWS: usize = 4;

#[derive(Debug, Clone)]
pub(crate) struct ApiState {
    store: Store,
    /// The live streams of games.
    hub: Arc<Hub>,
    /// Unseeded observations use the games' seeded generators (reproducible
    /// runs for tests) instead of the OS's random source.
    reproducible: bool,
    allow_client_seed: bool,
}

impl ApiState {
    pub(crate) fn new(store: Store, reproducible: bool, allow_client_seed: bool) -> Self {
        ApiState {
            store,
            hub: Arc::new(Hub::default()),
            reproducible,
            allow_client_seed,
        }
    }

    /// The games and the live streams, for what runs beside the router.
    pub(crate) fn parts(&self) -> (Store, Arc<Hub>) {
        (self.store.clone(), Arc::clone(&self.hub))
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

pub(crate) fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (
            status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes,
        )
            .into_response(),
        // Our response types are plain structs with string keys; this arm
        // exists so that even an impossible failure is reported in the model.
        Err(e) => Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            format!("could not serialize the response: {e}"),
        )
        .into_response(),
    }
}

pub(crate) fn respond<T: Serialize>(status: StatusCode, result: Result<T, Refusal>) -> Response {
    match result {
        Ok(body) => json(status, &body),
        Err(refusal) => refusal.into_response(),
    }
}

pub(crate) fn invalid(message: String) -> Refusal {
    ServiceError::InvalidRequest(message).into()
}

/// The path id, or a refusal in the error model.
fn path_id(path: Result<Path<String>, PathRejection>) -> Result<String, Refusal> {
    path.map(|Path(id)| id)
        .map_err(|r| invalid(format!("path: {}", r.body_text())))
}

/// The body bytes, or a refusal (too large, unreadable). The content type was
/// checked before the handler ran (`policy::json_only`).
fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Refusal> {
    body.map_err(|r| invalid(format!("body: {}", r.body_text())))
}

/// Draws an id and creates a game under it (with `seats`, if seated).
async fn create_with(
    state: &ApiState,
    options: GameOptions,
    seats: Option<Seats>,
) -> Result<Versioned<CreatedResponse>, Refusal> {
    let mut created = Err(invalid("no id drawn".to_owned()));
    for _ in 0..ID_DRAWS {
        let id = entropy::game_id()?;
        created = state.store.create(id, options, now_ms(), seats).await;
        if !matches!(&created, Err(r) if r.error.code == "ID_IN_USE") {
            break;
        }
    }
    created
}

pub(crate) async fn create_game(
    State(state): State<ApiState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let bytes = body_bytes(body)?;
        // No body at all (the plain `curl -X POST`) means default options.
        let options = if is_empty(&bytes) {
            GameOptions::default()
        } else {
            parse_body::<GameOptions>(&bytes)?
        };
        Ok(create_with(&state, options, None).await?.answer)
    }
    .await;
    respond(StatusCode::CREATED, result)
}

fn is_empty(bytes: &Bytes) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// `201 { gameId, gameState, version, seat: { playerId, token } }`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SeatedCreated {
    game_id: GameId,
    game_state: GameState,
    version: u64,
    seat: SeatGrant,
}

/// `POST /seated-games`: a game with two seats, the creator in one of them.
pub(crate) async fn create_seated_game(
    State(state): State<ApiState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let bytes = body_bytes(body)?;
        let request = if is_empty(&bytes) {
            SeatedGameRequest::default()
        } else {
            parse_body::<SeatedGameRequest>(&bytes)?
        };
        let defaults = GameOptions::default();
        let options = GameOptions {
            board_size: request.board_size.unwrap_or(defaults.board_size),
            win_length: request.win_length.unwrap_or(defaults.win_length),
        };
        let player = request.player_id.unwrap_or(Player::Black);
        let token = seats::new_token()?;
        let created =
            create_with(&state, options, Some(Seats::taken_by(player, token.hash))).await?;
        Ok(SeatedCreated {
            game_id: created.answer.game_id,
            game_state: created.answer.game_state,
            version: created.version,
            seat: SeatGrant {
                player_id: player,
                token: token.token,
            },
        })
    }
    .await;
    respond(StatusCode::CREATED, result)
}

/// `POST /games/:id/seats`: the open seat (or the one asked for) of a seated game.
pub(crate) async fn join(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        GameId::parse(&id).map_err(ServiceError::from)?;
        let bytes = body_bytes(body)?;
        let request = if is_empty(&bytes) {
            JoinRequest::default()
        } else {
            parse_body::<JoinRequest>(&bytes)?
        };
        let token = seats::new_token()?;
        let player = state.store.join(id, request.player_id, token.hash).await?;
        Ok(SeatGrant {
            player_id: player,
            token: token.token,
        })
    }
    .await;
    respond(StatusCode::CREATED, result)
}

/// `GET /games/:id/seats`: which seats are taken (never the tokens).
pub(crate) async fn get_seats(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = async {
        let (_, seats) = state.store.get(path_id(id)?).await?;
        Ok(SeatsView::of(seats.as_ref()))
    }
    .await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn get_game(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = async { Ok(state.store.get(path_id(id)?).await?.0.answer) }.await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn delete_game(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        let deleted = state
            .store
            .delete(id.clone(), seats::bearer(&headers))
            .await?;
        if let Ok(gid) = GameId::parse(&id) {
            state.hub.publish(gid, Update::Deleted);
        }
        Ok(deleted)
    }
    .await;
    respond(StatusCode::OK, result)
}

/// Runs a move, observation or reset and tells the game's streams.
async fn command(
    state: &ApiState,
    id: String,
    command: Command,
    headers: &HeaderMap,
) -> Result<Answer, Refusal> {
    let gid = GameId::parse(&id).map_err(ServiceError::from)?;
    let done = state
        .store
        .command(id, command, seats::bearer(headers))
        .await?;
    state.hub.publish(
        gid,
        Update::State {
            version: done.version,
            data: done.event,
        },
    );
    Ok(done.answer)
}

fn respond_answer(result: Result<Answer, Refusal>) -> Response {
    match result {
        Ok(Answer::State(s)) => json(StatusCode::OK, &s),
        Ok(Answer::Observation(o)) => json(StatusCode::OK, &o),
        Err(refusal) => refusal.into_response(),
    }
}

pub(crate) async fn place(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        GameId::parse(&id).map_err(ServiceError::from)?;
        let request: MoveRequest = parse_body(&body_bytes(body)?)?;
        command(&state, id, Command::Place(request), &headers).await
    }
    .await;
    respond_answer(result)
}

pub(crate) async fn observe(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        GameId::parse(&id).map_err(ServiceError::from)?;
        let mut request: ObservationRequest = parse_body(&body_bytes(body)?)?;
        request.seed = match request.seed {
            // A client that picks the seed picks the collapse (a seed that
            // wins can be searched offline), so only test servers accept one.
            Some(_) if !state.allow_client_seed => {
                return Err(invalid(
                    "the seed field is refused: this server draws observation seeds itself \
                     (start it with --allow-client-seed to accept client seeds)"
                        .to_owned(),
                )
                .with_details(json!({ "field": "seed" })));
            }
            Some(seed) => Some(seed),
            // The game's own generator would do, but its state leaks through
            // the observation ids it also draws; the OS's source does not.
            None if state.reproducible => None,
            None => Some(entropy::seed()?),
        };
        command(&state, id, Command::Observe(request), &headers).await
    }
    .await;
    respond_answer(result)
}

pub(crate) async fn reset(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // Reset takes no body; an oversized one is still refused rather than ignored.
    let result = async {
        let id = path_id(id)?;
        body_bytes(body)?;
        command(&state, id, Command::Reset, &headers).await
    }
    .await;
    respond_answer(result)
}

/// `GET /games/:id/events`: the game's live stream (see [`events`]).
pub(crate) async fn game_events(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    let opened = async {
        let id = path_id(id)?;
        let gid = GameId::parse(&id).map_err(ServiceError::from)?;
        // Subscribed before reading, so no update falls in between.
        let rx = state.hub.subscribe(gid);
        let (current, _) = state.store.get(id).await?;
        let last_seen = headers
            .get("last-event-id")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        Ok::<_, Refusal>(
            events::stream(
                rx,
                state.store.clone(),
                gid,
                last_seen,
                (current.version, current.event),
            )
            .into_response(),
        )
    }
    .await;
    opened.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /capabilities`: what this server offers beyond seed 003's six
/// endpoints, so a page it serves can find its online mode.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Capabilities {
    api: &'static str,
    seats: bool,
    events: bool,
    storage: &'static str,
}

pub(crate) async fn capabilities(State(state): State<ApiState>) -> Response {
    json(
        StatusCode::OK,
        &Capabilities {
            api: "quantum-gomoku",
            seats: true,
            events: true,
            storage: state.store.kind(),
        },
    )
}

pub(crate) async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    Refusal::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        format!("{method} is not allowed on {}", uri.path()),
    )
    .into_response()
}

pub(crate) fn no_route(uri: &Uri) -> Response {
    Refusal::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!("no route for {}", uri.path()),
    )
    .into_response()
}
