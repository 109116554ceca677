//! The Quantum Gomoku HTTP API (axum) over the engine's game service, plus optional static files.
//!
//! Every answer, including refusals of malformed requests, is JSON in the
//! API's error model `{ code, message, details? }`; nothing a client sends
//! can produce a 500 or stop the server.

mod static_files;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use quantum_gomoku::GameOptions;
use quantum_gomoku::service::{
    ApiError, GameService, MoveRequest, ObservationRequest, ServiceError, parse_body,
};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

pub use quantum_gomoku::service::DEFAULT_MAX_GAMES;

/// Largest request body accepted; API bodies are a few dozen bytes.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024;

/// Prefix of every API route.
pub const API_PREFIX: &str = "/api/quantum-gomoku";

/// How the server behaves (the listening address is chosen by the caller).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Most games kept in memory; creating more evicts the oldest.
    pub max_games: usize,
    /// Largest request body in bytes.
    pub body_limit: usize,
    /// A directory whose files are served at `/` (the built browser page).
    pub static_dir: Option<PathBuf>,
    /// Seed of game ids and observation seeds.
    pub seed: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_games: DEFAULT_MAX_GAMES,
            body_limit: DEFAULT_BODY_LIMIT,
            static_dir: None,
            seed: clock_seed(),
        }
    }
}

/// A seed from the clock, for servers that need not be reproducible.
pub fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // Fold the 128-bit nanosecond count and the pid so that two servers
    // started in the same instant still differ.
    (nanos as u64) ^ ((nanos >> 64) as u64) ^ (u64::from(std::process::id()) << 32)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[derive(Debug, Clone)]
struct AppState {
    service: Arc<Mutex<GameService>>,
    static_dir: Option<Arc<PathBuf>>,
}

impl AppState {
    fn service(&self) -> MutexGuard<'_, GameService> {
        // A poisoned lock only means a handler panicked mid-request; the
        // service's methods change nothing before they succeed, so the data
        // is still consistent and serving on is better than failing forever.
        self.service
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The router with every API route, error mapping and (optionally) static files.
pub fn router(config: &ServerConfig) -> Router {
    let state = AppState {
        service: Arc::new(Mutex::new(GameService::new(config.seed, config.max_games))),
        static_dir: config.static_dir.clone().map(Arc::new),
    };
    Router::new()
        .route(&format!("{API_PREFIX}/games"), post(create_game))
        .route(
            &format!("{API_PREFIX}/games/{{id}}"),
            get(get_game).delete(delete_game),
        )
        .route(&format!("{API_PREFIX}/games/{{id}}/moves"), post(place))
        .route(
            &format!("{API_PREFIX}/games/{{id}}/observations"),
            post(observe),
        )
        .route(&format!("{API_PREFIX}/games/{{id}}/reset"), post(reset))
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(fallback)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .with_state(state)
}

/// Serves `router(&config)` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(&config))
        .with_graceful_shutdown(shutdown)
        .await
}

fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        // Our response types are plain structs with string keys; this arm
        // exists so that even an impossible failure is reported in the model.
        Err(e) => error_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            &ApiError {
                code: "INTERNAL".to_owned(),
                message: format!("could not serialize the response: {e}"),
                details: None,
            },
        ),
    }
}

fn error_response(status: StatusCode, error: &ApiError) -> Response {
    let bytes = serde_json::to_vec(error).unwrap_or_else(|_| {
        br#"{"code":"INTERNAL","message":"could not serialize the error"}"#.to_vec()
    });
    (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

fn service_error(e: &ServiceError) -> Response {
    let status = StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
    error_response(status, &e.to_api_error())
}

fn respond<T: Serialize>(status: StatusCode, result: Result<T, ServiceError>) -> Response {
    match result {
        Ok(body) => json(status, &body),
        Err(e) => service_error(&e),
    }
}

fn invalid(message: String) -> ServiceError {
    ServiceError::InvalidRequest(message)
}

/// The path id, or a refusal in the error model.
fn path_id(path: Result<Path<String>, PathRejection>) -> Result<String, ServiceError> {
    path.map(|Path(id)| id)
        .map_err(|r| invalid(format!("path: {}", r.body_text())))
}

/// The body bytes, or a refusal (too large, unreadable).
fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ServiceError> {
    body.map_err(|r| invalid(format!("body: {}", r.body_text())))
}

/// Whether the request says its body is JSON.
fn require_json(headers: &HeaderMap) -> Result<(), ServiceError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if is_json {
        Ok(())
    } else {
        Err(invalid("Content-Type must be application/json".to_owned()))
    }
}

/// Parses a JSON body after checking its content type.
fn json_body<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ServiceError> {
    let bytes = body_bytes(body)?;
    require_json(headers)?;
    parse_body(&bytes)
}

async fn create_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let options = (|| {
        let bytes = body_bytes(body)?;
        // No body at all (the plain `curl -X POST`) means default options.
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(GameOptions::default());
        }
        require_json(&headers)?;
        parse_body::<GameOptions>(&bytes)
    })();
    let result = options.and_then(|o| state.service().create(o, now_ms()));
    respond(StatusCode::CREATED, result)
}

async fn get_game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = path_id(id).and_then(|id| state.service().get(&id));
    respond(StatusCode::OK, result)
}

async fn delete_game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let result = path_id(id).and_then(|id| state.service().delete(&id));
    respond(StatusCode::OK, result)
}

async fn place(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = path_id(id).and_then(|id| {
        quantum_gomoku::GameId::parse(&id)?;
        let request: MoveRequest = json_body(&headers, body)?;
        state.service().place(&id, &request)
    });
    respond(StatusCode::OK, result)
}

async fn observe(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = path_id(id).and_then(|id| {
        quantum_gomoku::GameId::parse(&id)?;
        let request: ObservationRequest = json_body(&headers, body)?;
        state.service().observe(&id, &request)
    });
    respond(StatusCode::OK, result)
}

async fn reset(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // Reset takes no body; an oversized one is still refused rather than ignored.
    let result = path_id(id).and_then(|id| {
        body_bytes(body)?;
        state.service().reset(&id)
    });
    respond(StatusCode::OK, result)
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        &ApiError {
            code: "METHOD_NOT_ALLOWED".to_owned(),
            message: format!("{method} is not allowed on {}", uri.path()),
            details: None,
        },
    )
}

fn no_route(uri: &Uri) -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        &ApiError {
            code: "NOT_FOUND".to_owned(),
            message: format!("no route for {}", uri.path()),
            details: None,
        },
    )
}

async fn fallback(State(state): State<AppState>, method: Method, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return no_route(&uri);
    }
    match (&state.static_dir, method) {
        (Some(dir), Method::GET | Method::HEAD) => static_files::serve(dir, uri.path())
            .await
            .unwrap_or_else(|| no_route(&uri)),
        _ => no_route(&uri),
    }
}
