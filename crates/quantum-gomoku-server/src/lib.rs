//! The Quantum Gomoku HTTP API (axum on hyper) over the engine's game service,
//! plus optional static files, hardened for an open network.
//!
//! Every answer the router gives, including refusals, is JSON in the API's
//! error model `{ code, message, details? }`; nothing a client sends can
//! produce a panic or stop the server. Game ids and unseeded observation seeds
//! come from the operating system's secure random source; creating games is
//! rate-limited per client address; slow and idle connections are closed;
//! writes from foreign pages are refused.

mod api;
mod battle_line;
mod connections;
mod entropy;
mod error;
mod events;
mod pg;
mod policy;
mod rate_limit;
mod seats;
mod static_files;
mod store;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::Response;
use axum::routing::{get, post};
use static_files::StaticFiles;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::timeout::TimeoutLayer;

pub use policy::{API_CSP, MAX_HEADER_BYTES, MAX_HEADER_COUNT, MAX_URI_BYTES, SCRIPT_CSP};
pub use quantum_gomoku::service::DEFAULT_MAX_GAMES;

/// PostgreSQL connections one instance opens at most (`--db-pool`).
pub const DEFAULT_DB_POOL: u32 = 8;
pub use static_files::API_META;
pub use store::{DEFAULT_DATABASE, DbSync, Storage};

/// Largest request body accepted; API bodies are a few dozen bytes.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024;

/// Prefix of every API route.
pub const API_PREFIX: &str = "/api/quantum-gomoku";

/// How often the rate limiter forgets clients whose quota is full again.
const RATE_LIMIT_CLEANUP: Duration = Duration::from_secs(60);

/// How the server behaves (the listening address is chosen by the caller).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where games are kept: in memory (the default here, for tests) or in an
    /// SQLite database file (the command line's default) that survives restarts.
    pub storage: Storage,
    /// When an SQLite commit counts as done (and its answer may leave).
    pub db_sync: DbSync,
    /// Most PostgreSQL connections one instance opens at once (its pool), so
    /// commands on different games do not wait for each other.
    pub db_pool: u32,
    /// Battle Line rooms nobody changed for this long are removed.
    pub room_idle: Duration,
    /// Most games kept; creating more evicts the least recently used.
    pub max_games: usize,
    /// Largest request body in bytes.
    pub body_limit: usize,
    /// A directory whose files are served at `/` (the built browser page).
    pub static_dir: Option<PathBuf>,
    /// `Some(seed)`: the games' generators, and so the collapses of
    /// observations sent without a seed, follow from `seed` (reproducible
    /// runs for tests). `None`: every unseeded observation takes a fresh seed
    /// from the OS. Ids come from the OS either way. Battle Line matches are then
    /// all dealt from `seed` too (so tests can replay them locally).
    pub seed: Option<u64>,
    /// Accept the `seed` field of observations (off: it is refused with 400,
    /// since a client that picks the seed picks the outcome).
    pub allow_client_seed: bool,
    /// Games one client address may create at once before the limit applies
    /// (0 turns the limit off).
    pub create_burst: u32,
    /// Creations a minute one client address regains after its burst (0 turns
    /// the limit off).
    pub creates_per_minute: u32,
    /// Origins besides the server's own whose pages may change games
    /// (`scheme://host[:port]`).
    pub allowed_origins: Vec<String>,
    /// Time a client has to send a request's head, counted from the
    /// connection's start or the end of the previous response (so it is also
    /// the limit on idle keep-alive connections).
    pub header_timeout: Duration,
    /// Time a request may take from its head to its response (reading the
    /// body included); 408 after it.
    pub request_timeout: Duration,
    /// Most connections open at once; more are answered 503 and closed.
    pub max_connections: usize,
    /// After the shutdown signal, how long responses in progress may take.
    pub shutdown_grace: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            storage: Storage::Memory,
            db_sync: DbSync::Full,
            db_pool: DEFAULT_DB_POOL,
            room_idle: Duration::from_secs(30 * 60),
            max_games: DEFAULT_MAX_GAMES,
            body_limit: DEFAULT_BODY_LIMIT,
            static_dir: None,
            seed: None,
            allow_client_seed: false,
            create_burst: 10,
            creates_per_minute: 30,
            allowed_origins: Vec::new(),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(10),
            max_connections: 512,
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

/// The router and what must run beside it.
struct App {
    router: Router,
    limit: Option<rate_limit::CreateLimit>,
    /// With Postgres: the database to listen to, and where its writes go.
    listen: Option<(String, store::Store, Arc<events::Hub>)>,
    /// The Battle Line rooms and their live streams.
    rooms: battle_line::BlState,
}

/// The Battle Line rooms, in the same store as the games.
fn open_rooms(
    config: &ServerConfig,
    games: &store::Store,
) -> std::io::Result<battle_line::store::Rooms> {
    use battle_line::store::{MemoryRooms, Rooms, SqliteRooms};
    Ok(match &config.storage {
        store::Storage::Memory => Rooms::one(MemoryRooms::default()),
        store::Storage::Sqlite(path) => Rooms::one(
            SqliteRooms::open(path, config.db_sync == DbSync::Full)
                .map_err(|e| std::io::Error::other(format!("database {}: {e}", path.display())))?,
        ),
        store::Storage::Postgres(_) => Rooms::Pool(
            games
                .pg_pool()
                .ok_or_else(|| std::io::Error::other("the PostgreSQL store has no pool"))?,
        ),
    })
}

fn app(config: &ServerConfig) -> std::io::Result<App> {
    let service_seed = match config.seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(std::io::Error::other)?,
    };
    let state = api::ApiState::new(
        store::Store::open(
            &config.storage,
            config.db_sync,
            config.db_pool,
            service_seed,
            config.max_games,
        )?,
        config.seed.is_some(),
        config.allow_client_seed,
    );
    let rooms = battle_line::BlState {
        rooms: Arc::new(open_rooms(config, &state.parts().0)?),
        hub: Arc::new(battle_line::RoomHub::default()),
        deal_seed: config.seed,
    };
    let listen = match &config.storage {
        store::Storage::Postgres(url) => {
            let (store, hub) = state.parts();
            Some((url.clone(), store, hub))
        }
        _ => None,
    };
    let limit = rate_limit::create_limit(config.create_burst, config.creates_per_minute);
    let mut create = post(api::create_game);
    let mut create_seated = post(api::create_seated_game);
    if let Some(limit) = &limit {
        // One quota for both kinds of game.
        create = create.layer(from_fn_with_state(
            Arc::clone(limit),
            rate_limit::limit_creations,
        ));
        create_seated = create_seated.layer(from_fn_with_state(
            Arc::clone(limit),
            rate_limit::limit_creations,
        ));
    }
    let origins = Arc::new(policy::OriginPolicy::new(&config.allowed_origins));
    let battle_line_api = battle_line::routes(rooms.clone(), limit.as_ref())
        .route_layer(from_fn(policy::json_only))
        .route_layer(from_fn_with_state(
            Arc::clone(&origins),
            policy::same_origin,
        ))
        .method_not_allowed_fallback(api::method_not_allowed);
    let api = Router::new()
        .route(&format!("{API_PREFIX}/games"), create)
        .route(&format!("{API_PREFIX}/seated-games"), create_seated)
        .route(
            &format!("{API_PREFIX}/capabilities"),
            get(api::capabilities),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}/seats"),
            get(api::get_seats).post(api::join),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}/events"),
            get(api::game_events),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}"),
            get(api::get_game).delete(api::delete_game),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}/moves"),
            post(api::place),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}/observations"),
            post(api::observe),
        )
        .route(
            &format!("{API_PREFIX}/games/{{id}}/reset"),
            post(api::reset),
        )
        // Route layers run only for matched routes, before the rate limit:
        // a refused foreign write costs its sender no creation.
        .route_layer(from_fn(policy::json_only))
        .route_layer(from_fn_with_state(origins, policy::same_origin))
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(state);
    let files = match &config.static_dir {
        Some(dir) => Some(Arc::new(StaticFiles::new(dir)?)),
        None => None,
    };
    let router = api
        .merge(battle_line_api)
        .fallback(fallback)
        .with_state(files)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .layer(from_fn(policy::head_limits))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(from_fn(policy::json_errors))
        .layer(from_fn(policy::security_headers));
    Ok(App {
        router,
        limit,
        listen,
        rooms,
    })
}

/// The router with every API route, policy layer and (optionally) static files.
///
/// The creation rate limit keys on the peer address that [`serve`] attaches
/// to each request; without it creations are refused (500 in the error model).
pub fn router(config: &ServerConfig) -> std::io::Result<Router> {
    app(config).map(|a| a.router)
}

/// Serves the API on `listener` until `shutdown` resolves, then lets
/// responses in progress finish (within [`ServerConfig::shutdown_grace`]),
/// closes every other connection and returns.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let App {
        router,
        limit,
        listen,
        rooms,
    } = app(&config)?;
    let listener_task =
        listen.map(|(url, store, hub)| pg::spawn_listener(url, store, hub, Arc::clone(&rooms.hub)));
    let room_cleanup = battle_line::spawn_cleanup(Arc::clone(&rooms.rooms), config.room_idle);
    let cleanup = limit
        .as_ref()
        .map(|l| rate_limit::spawn_cleanup(l, RATE_LIMIT_CLEANUP));
    let limits = connections::Limits {
        header_timeout: config.header_timeout,
        max_connections: config.max_connections,
        shutdown_grace: config.shutdown_grace,
    };
    connections::run(listener, router, limits, shutdown).await;
    if let Some(task) = listener_task {
        task.abort();
    }
    if let Some(task) = cleanup {
        task.abort();
    }
    room_cleanup.abort();
    Ok(())
}

async fn fallback(State(files): State<Option<Arc<StaticFiles>>>, request: Request) -> Response {
    let uri = request.uri().clone();
    if uri.path().starts_with("/api/") || !static_files::serves(request.method()) {
        return api::no_route(&uri);
    }
    match files {
        Some(files) => files
            .respond(request)
            .await
            .unwrap_or_else(|| api::no_route(&uri)),
        None => api::no_route(&uri),
    }
}
