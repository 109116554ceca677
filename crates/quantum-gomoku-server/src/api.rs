//! The six game endpoints: request bodies in, service answers or refusals out.

use crate::entropy;
use crate::error::Refusal;
use crate::store::Store;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use quantum_gomoku::service::{MoveRequest, ObservationRequest, ServiceError, parse_body};
use quantum_gomoku::{GameId, GameOptions};
use serde::Serialize;
use serde_json::json;
use std::time::{SystemTime, UNIX_EPOCH};

/// How often `POST /games` draws a fresh id when the one drawn is taken; with
/// 122 random bits a second draw already never happens in practice.
const ID_DRAWS: usize = 4;

#[derive(Debug, Clone)]
pub(crate) struct ApiState {
    store: Store,
    /// Unseeded observations use the games' seeded generators (reproducible
    /// runs for tests) instead of the OS's random source.
    reproducible: bool,
    allow_client_seed: bool,
}

impl ApiState {
    pub(crate) fn new(store: Store, reproducible: bool, allow_client_seed: bool) -> Self {
        ApiState {
            store,
            reproducible,
            allow_client_seed,
        }
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
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

fn respond<T: Serialize>(status: StatusCode, result: Result<T, Refusal>) -> Response {
    match result {
        Ok(body) => json(status, &body),
        Err(refusal) => refusal.into_response(),
    }
}

fn invalid(message: String) -> Refusal {
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

pub(crate) async fn create_game(
    State(state): State<ApiState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let bytes = body_bytes(body)?;
        // No body at all (the plain `curl -X POST`) means default options.
        let options = if bytes.iter().all(u8::is_ascii_whitespace) {
            GameOptions::default()
        } else {
            parse_body::<GameOptions>(&bytes)?
        };
        let mut created = Err(invalid("no id drawn".to_owned()));
        for _ in 0..ID_DRAWS {
            let id = entropy::game_id()?;
            let now = now_ms();
            created = state
                .store
                .run(
                    move |s| s.create(id, options, now),
                    move |d| d.create(id, options, now),
                )
                .await;
            if !matches!(&created, Err(r) if r.error.code == "ID_IN_USE") {
                break;
            }
        }
        created
    }
    .await;
    respond(StatusCode::CREATED, result)
}

pub(crate) async fn get_game(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        let copy = id.clone();
        state
            .store
            .run(move |s| s.get(&id), move |d| d.get(&copy))
            .await
    }
    .await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn delete_game(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        let copy = id.clone();
        state
            .store
            .run(move |s| s.delete(&id), move |d| d.delete(&copy))
            .await
    }
    .await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn place(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let id = path_id(id)?;
        GameId::parse(&id).map_err(ServiceError::from)?;
        let request: MoveRequest = parse_body(&body_bytes(body)?)?;
        let copy = id.clone();
        state
            .store
            .run(
                move |s| s.place(&id, &request),
                move |d| d.place(&copy, &request),
            )
            .await
    }
    .await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn observe(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
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
        let copy = id.clone();
        state
            .store
            .run(
                move |s| s.observe(&id, &request),
                move |d| d.observe(&copy, &request),
            )
            .await
    }
    .await;
    respond(StatusCode::OK, result)
}

pub(crate) async fn reset(
    State(state): State<ApiState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // Reset takes no body; an oversized one is still refused rather than ignored.
    let result = async {
        let id = path_id(id)?;
        body_bytes(body)?;
        let copy = id.clone();
        state
            .store
            .run(move |s| s.reset(&id), move |d| d.reset(&copy))
            .await
    }
    .await;
    respond(StatusCode::OK, result)
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
