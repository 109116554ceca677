//! Where the API's games live: the engine's in-memory service, or a durable
//! store (SQLite by default) whose games survive a restart.
//!
//! The durable store keeps each game as the engine's saved form
//! ([`Game::to_json`], the same JSON the page keeps in localStorage, checked
//! for consistency when it is read back) with a version number. Every command
//! reads the game, applies itself with the engine and writes the result back
//! only if the version is still the one it read (`UPDATE ... WHERE version =
//! ?`), so two writers of one game, in this process or another one on the same
//! database, are serialized: the later one starts over from the new state and
//! gets the rules' normal refusal if its command is no longer legal. The rows
//! sit behind the small [`GameRepo`] trait so that another database (Postgres
//! for several instances) needs only that trait implemented.

use crate::error::Refusal;
use crate::events::state_data;
use crate::seats::{self, ActsFor, Seats, TokenHash};
use axum::http::StatusCode;
use quantum_gomoku::service::{
    CreatedResponse, DeleteResponse, GameService, MoveRequest, ObservationRequest,
    ObservationResponse, ServiceError, StateResponse, place_in,
};
use quantum_gomoku::{Game, GameId, GameOptions, Player, Rng};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The database file the command line uses unless `--db` names another.
pub const DEFAULT_DATABASE: &str = "quantum-gomoku.sqlite3";

/// Where games are kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Storage {
    /// In process memory (seed 003's service): lost when the process ends.
    #[default]
    Memory,
    /// In an SQLite database file, created if missing; games survive restarts.
    Sqlite(PathBuf),
    /// On a PostgreSQL server (`postgres://...`), shared by several instances.
    Postgres(String),
}

impl Storage {
    /// `memory` for [`Storage::Memory`], anything else is a database file path.
    pub fn parse(value: &str) -> Storage {
        if value == "memory" {
            Storage::Memory
        } else if value.starts_with("postgres://") || value.starts_with("postgresql://") {
            Storage::Postgres(value.to_owned())
        } else {
            Storage::Sqlite(PathBuf::from(value))
        }
    }
}

/// When an SQLite commit counts as done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DbSync {
    /// `synchronous=FULL`: on disk (fsync) before the answer is sent; survives
    /// a power cut or an OS crash as well as the server's own crash.
    #[default]
    Full,
    /// `synchronous=NORMAL` (WAL): in the OS's cache before the answer; the
    /// server's crash or `kill -9` still loses nothing, a power cut or an OS
    /// crash may lose the latest commits (the file stays consistent). Some ten
    /// times the write rate where fsync is slow.
    Normal,
}

impl DbSync {
    /// `full` or `normal`.
    pub fn parse(value: &str) -> Option<DbSync> {
        match value {
            "full" => Some(DbSync::Full),
            "normal" => Some(DbSync::Normal),
            _ => None,
        }
    }
}

/// Schema version kept in SQLite's `user_version`; a database written by a
/// newer server is refused rather than misread.
const SCHEMA_VERSION: i64 = 2;

/// The seats of seated games (schema version 2); removed with their game.
const SEATS_TABLE: &str = "CREATE TABLE seats (
         game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
         black BLOB,
         white BLOB
     );";

/// How long a write waits for another process holding the database's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How often a command starts over after losing a race to another writer.
const WRITE_ATTEMPTS: usize = 16;

/// Why the store could not answer (the rules' refusals are [`ServiceError`]s).
#[derive(Debug)]
pub(crate) enum StoreError {
    /// The database failed (I/O, disk full, locked longer than the timeout).
    Database(String),
    /// A stored game cannot be read back into a consistent game.
    Corrupt { id: GameId, reason: String },
    /// Other writers kept changing the game for [`WRITE_ATTEMPTS`] attempts.
    Contended(GameId),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "the game store failed: {e}"),
            StoreError::Corrupt { id, reason } => {
                write!(f, "the stored game {id} cannot be read: {reason}")
            }
            StoreError::Contended(id) => {
                write!(
                    f,
                    "the game {id} kept changing under this request; try again"
                )
            }
        }
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        let message = e.to_string();
        match e {
            StoreError::Database(_) => Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "STORAGE_UNAVAILABLE",
                message,
            ),
            StoreError::Corrupt { id, .. } => {
                Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "CORRUPT_GAME", message)
                    .with_details(json!({ "id": id }))
            }
            StoreError::Contended(id) => {
                Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "GAME_BUSY", message)
                    .with_details(json!({ "id": id }))
            }
        }
    }
}

/// A stored game as the database holds it, before it is checked.
#[derive(Debug)]
pub(crate) struct Record {
    /// The version (1 when created, one more per accepted command); `None`
    /// when the column holds something other than a positive integer.
    pub(crate) version: Option<u64>,
    /// The engine's saved form; `None` when the column is neither text nor blob.
    pub(crate) data: Option<Vec<u8>>,
}

/// The rows of a durable store. Every method is one transaction; none decodes
/// games (that is [`Durable`]'s job, the same for every database).
pub(crate) trait GameRepo: Send + std::fmt::Debug {
    /// The game `id`; reading it counts as a use for the least-recently-used bound.
    fn load(&mut self, id: &GameId) -> Result<Option<Record>, StoreError>;
    /// Stores a new game at version 1 (with `seats`, if it is seated), first
    /// removing the least recently used games so that at most `max_games`
    /// remain; `false` if `id` is taken.
    fn insert(
        &mut self,
        id: &GameId,
        data: &str,
        max_games: usize,
        seats: Option<&Seats>,
    ) -> Result<bool, StoreError>;
    /// The seats of the game `id`, or `None` if it has none (or does not exist).
    fn seats(&mut self, id: &GameId) -> Result<Option<Seats>, StoreError>;
    /// Gives the open seat `player` of the game `id` to `hash`; `false` if it
    /// was taken (or the game has no seats).
    fn claim(&mut self, id: &GameId, player: Player, hash: &TokenHash) -> Result<bool, StoreError>;
    /// Replaces the game if it is still at `version` (it then is at
    /// `version + 1`); `false` if another writer changed or deleted it first.
    fn replace(&mut self, id: &GameId, version: u64, data: &str) -> Result<bool, StoreError>;
    /// Removes the game; `false` if there was none.
    fn delete(&mut self, id: &GameId) -> Result<bool, StoreError>;
}

/// [`GameRepo`] on an SQLite database file (WAL journal; [`DbSync`] says
/// when a commit is done: by default on disk before its answer leaves, so
/// neither a crash nor a power cut loses an acknowledged move).
#[derive(Debug)]
pub(crate) struct SqliteRepo {
    conn: Connection,
}

/// The next value of the use counter (`last_used`), inside the statement that sets it.
const NEXT_USE: &str = "(SELECT COALESCE(MAX(last_used), 0) + 1 FROM games)";

impl SqliteRepo {
    /// Opens (creating if missing) the database at `path` and its schema.
    pub(crate) fn open(path: &Path, sync: DbSync) -> Result<SqliteRepo, StoreError> {
        let conn = Connection::open(path)?;
        SqliteRepo::init(conn, sync)
    }

    fn init(mut conn: Connection, sync: DbSync) -> Result<SqliteRepo, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        let level = match sync {
            DbSync::Full => "FULL",
            DbSync::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", level)?;
        // Evicting or deleting a game removes its seats (ON DELETE CASCADE).
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        match version {
            0 => {
                tx.execute_batch(
                    "CREATE TABLE games (
                         id TEXT PRIMARY KEY NOT NULL,
                         version INTEGER NOT NULL,
                         last_used INTEGER NOT NULL,
                         state TEXT NOT NULL
                     );
                     CREATE INDEX games_by_last_use ON games (last_used);",
                )?;
                tx.execute_batch(SEATS_TABLE)?;
                tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            }
            // A database of the first server: its games have no seats.
            1 => {
                tx.execute_batch(SEATS_TABLE)?;
                tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            }
            SCHEMA_VERSION => {}
            other => {
                return Err(StoreError::Database(format!(
                    "the database has schema version {other}; this server reads version \
                     {SCHEMA_VERSION}"
                )));
            }
        }
        tx.commit()?;
        Ok(SqliteRepo { conn })
    }
}

impl GameRepo for SqliteRepo {
    fn load(&mut self, id: &GameId) -> Result<Option<Record>, StoreError> {
        let record = self
            .conn
            .query_row(
                &format!(
                    "UPDATE games SET last_used = {NEXT_USE} WHERE id = ?1 RETURNING version, state"
                ),
                params![id.to_string()],
                |row| {
                    let version = row
                        .get_ref(0)?
                        .as_i64()
                        .ok()
                        .and_then(|v| u64::try_from(v).ok())
                        .filter(|v| *v > 0);
                    let data = row.get_ref(1)?.as_bytes().ok().map(<[u8]>::to_vec);
                    Ok(Record { version, data })
                },
            )
            .optional()?;
        Ok(record)
    }

    fn insert(
        &mut self,
        id: &GameId,
        data: &str,
        max_games: usize,
        seats: Option<&Seats>,
    ) -> Result<bool, StoreError> {
        let key = id.to_string();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let taken = tx
            .query_row(
                "SELECT 1 FROM games WHERE id = ?1",
                params![key],
                |_| Ok(()),
            )
            .optional()?
            .is_some();
        if taken {
            return Ok(false);
        }
        let count: i64 = tx.query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))?;
        let keep = i64::try_from(max_games.max(1)).unwrap_or(i64::MAX);
        if count >= keep {
            tx.execute(
                "DELETE FROM games WHERE id IN
                     (SELECT id FROM games ORDER BY last_used LIMIT ?1)",
                params![count - keep + 1],
            )?;
        }
        tx.execute(
            &format!(
                "INSERT INTO games (id, version, last_used, state) VALUES (?1, 1, {NEXT_USE}, ?2)"
            ),
            params![key, data],
        )?;
        if let Some(seats) = seats {
            tx.execute(
                "INSERT INTO seats (game_id, black, white) VALUES (?1, ?2, ?3)",
                params![key, seats.black.map(Vec::from), seats.white.map(Vec::from)],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    fn seats(&mut self, id: &GameId) -> Result<Option<Seats>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT black, white FROM seats WHERE game_id = ?1",
                params![id.to_string()],
                |row| {
                    let hash = |i: usize| -> rusqlite::Result<Result<Option<TokenHash>, ()>> {
                        Ok(match row.get_ref(i)? {
                            rusqlite::types::ValueRef::Null => Ok(None),
                            rusqlite::types::ValueRef::Blob(b) => {
                                TokenHash::try_from(b).map(Some).map_err(|_| ())
                            }
                            _ => Err(()),
                        })
                    };
                    Ok((hash(0)?, hash(1)?))
                },
            )
            .optional()?;
        match row {
            None => Ok(None),
            Some((Ok(black), Ok(white))) => Ok(Some(Seats { black, white })),
            Some(_) => Err(bad_seat(id)),
        }
    }

    fn claim(&mut self, id: &GameId, player: Player, hash: &TokenHash) -> Result<bool, StoreError> {
        let column = seat_column(player);
        let changed = self.conn.execute(
            &format!("UPDATE seats SET {column} = ?2 WHERE game_id = ?1 AND {column} IS NULL"),
            params![id.to_string(), hash.to_vec()],
        )?;
        Ok(changed == 1)
    }

    fn replace(&mut self, id: &GameId, version: u64, data: &str) -> Result<bool, StoreError> {
        let version = i64::try_from(version).map_err(|_| StoreError::Corrupt {
            id: *id,
            reason: "version out of range".to_owned(),
        })?;
        let changed = self.conn.execute(
            &format!(
                "UPDATE games SET state = ?3, version = version + 1, last_used = {NEXT_USE}
                 WHERE id = ?1 AND version = ?2"
            ),
            params![id.to_string(), version, data],
        )?;
        Ok(changed == 1)
    }

    fn delete(&mut self, id: &GameId) -> Result<bool, StoreError> {
        let changed = self
            .conn
            .execute("DELETE FROM games WHERE id = ?1", params![id.to_string()])?;
        Ok(changed == 1)
    }
}

/// An accepted command's answer and the game's version after it (1 when
/// created, one more per accepted command): the id of the live stream's event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Versioned<T> {
    pub(crate) answer: T,
    pub(crate) version: u64,
    /// The live stream's data for the game at this version.
    pub(crate) event: Arc<str>,
}

/// The API's commands over a [`GameRepo`], with the same answers and refusals
/// as the engine's in-memory [`GameService`].
#[derive(Debug)]
pub(crate) struct Durable {
    repos: Repos,
    /// Forks each new game's generator, as [`GameService`] does.
    rng: Mutex<Rng>,
    max_games: usize,
    /// `sqlite` or `postgres`, for the capabilities route.
    kind: &'static str,
}

/// Where a durable store's commands get their connection.
#[derive(Debug)]
enum Repos {
    /// One connection that commands take in turn (SQLite writes one at a time
    /// anyway).
    One(Mutex<Box<dyn GameRepo>>),
    /// A pool of PostgreSQL connections: commands on different games run at
    /// once, commands on one game are still serialized by its version.
    Pool(Arc<crate::pg::PgPool>),
}

/// One command's connection, given back when dropped.
enum RepoGuard<'a> {
    One(MutexGuard<'a, Box<dyn GameRepo>>),
    Pooled(Box<crate::pg::PgRepo>),
}

impl std::ops::Deref for RepoGuard<'_> {
    type Target = dyn GameRepo;
    fn deref(&self) -> &Self::Target {
        match self {
            RepoGuard::One(guard) => guard.as_ref(),
            RepoGuard::Pooled(repo) => repo.as_ref(),
        }
    }
}

impl std::ops::DerefMut for RepoGuard<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            RepoGuard::One(guard) => guard.as_mut(),
            RepoGuard::Pooled(repo) => repo.as_mut(),
        }
    }
}

impl Durable {
    pub(crate) fn new(repo: Box<dyn GameRepo>, seed: u64, max_games: usize) -> Durable {
        Durable {
            repos: Repos::One(Mutex::new(repo)),
            rng: Mutex::new(Rng::new(seed)),
            max_games: max_games.max(1),
            kind: "sqlite",
        }
    }

    /// A store on a PostgreSQL pool.
    pub(crate) fn pooled(pool: Arc<crate::pg::PgPool>, seed: u64, max_games: usize) -> Durable {
        Durable {
            repos: Repos::Pool(pool),
            rng: Mutex::new(Rng::new(seed)),
            max_games: max_games.max(1),
            kind: "postgres",
        }
    }

    /// A connection for one command (waiting for the pool's next free one).
    fn repo(&self) -> Result<RepoGuard<'_>, StoreError> {
        match &self.repos {
            // As for the in-memory service: every write is one transaction, so a
            // panic mid-request leaves nothing half-written.
            Repos::One(repo) => Ok(RepoGuard::One(
                repo.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
            )),
            Repos::Pool(pool) => pool.get().map(|repo| RepoGuard::Pooled(Box::new(repo))),
        }
    }

    fn fork_rng(&self) -> Rng {
        self.rng
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .fork()
    }

    fn decode(id: &GameId, record: &Record) -> Result<(u64, Game), StoreError> {
        let corrupt = |reason: String| StoreError::Corrupt { id: *id, reason };
        let version = record
            .version
            .ok_or_else(|| corrupt("its version is not a positive integer".to_owned()))?;
        let data = record
            .data
            .as_deref()
            .ok_or_else(|| corrupt("its state is not text".to_owned()))?;
        let text = std::str::from_utf8(data)
            .map_err(|e| corrupt(format!("its state is not UTF-8: {e}")))?;
        let game = Game::from_json(text).map_err(|e| corrupt(e.to_string()))?;
        if game.id() != *id {
            return Err(corrupt(format!("it holds the game {}", game.id())));
        }
        Ok((version, game))
    }

    fn encode(game: &Game) -> Result<String, Refusal> {
        game.to_json().map_err(|e| {
            Refusal::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "INTERNAL",
                format!("could not save the game: {e}"),
            )
        })
    }

    /// `POST /games` (or `/seated-games`, with `seats`) with a drawn id.
    pub(crate) fn create(
        &self,
        id: GameId,
        options: GameOptions,
        now_ms: u64,
        seats: Option<Seats>,
    ) -> Result<Versioned<CreatedResponse>, Refusal> {
        let options = options.validate().map_err(ServiceError::from)?;
        let rng = self.fork_rng();
        let game = Game::with_id(id, options, rng, now_ms).map_err(ServiceError::from)?;
        if !self
            .repo()?
            .insert(&id, &Self::encode(&game)?, self.max_games, seats.as_ref())?
        {
            return Err(ServiceError::IdInUse(id).into());
        }
        Ok(Versioned {
            answer: CreatedResponse {
                game_id: id,
                game_state: game.state().clone(),
            },
            version: 1,
            event: state_data(1, &game),
        })
    }

    /// `GET /games/:id`, with the game's seats.
    pub(crate) fn get(
        &self,
        id: &str,
    ) -> Result<(Versioned<StateResponse>, Option<Seats>), Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let mut repo = self.repo()?;
        let record = repo.load(&gid)?.ok_or(ServiceError::NotFound(gid))?;
        let (version, game) = Self::decode(&gid, &record)?;
        let seats = repo.seats(&gid)?;
        let answer = StateResponse {
            game_state: game.state().clone(),
        };
        let event = state_data(version, &game);
        Ok((
            Versioned {
                answer,
                version,
                event,
            },
            seats,
        ))
    }

    /// Applies `command` to the stored game, if `token` may act as `acts_for`,
    /// and writes the result as the next version; a refused command writes
    /// nothing. Starts over when another writer changed the game in between.
    fn update<T>(
        &self,
        id: &str,
        acts_for: ActsFor,
        token: Option<TokenHash>,
        mut command: impl FnMut(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<Versioned<T>, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let mut repo = self.repo()?;
        // A taken seat never changes hands, so one check covers every attempt.
        let mut checked = false;
        for _ in 0..WRITE_ATTEMPTS {
            let record = repo.load(&gid)?.ok_or(ServiceError::NotFound(gid))?;
            if !checked {
                seats::authorize(repo.seats(&gid)?.as_ref(), acts_for, token.as_ref())?;
                checked = true;
            }
            let (version, mut game) = Self::decode(&gid, &record)?;
            let answer = command(&mut game)?;
            if repo.replace(&gid, version, &Self::encode(&game)?)? {
                return Ok(Versioned {
                    answer,
                    version: version + 1,
                    event: state_data(version + 1, &game),
                });
            }
        }
        Err(StoreError::Contended(gid).into())
    }

    /// `POST /games/:id/moves`.
    pub(crate) fn place(
        &self,
        id: &str,
        request: &MoveRequest,
        token: Option<TokenHash>,
    ) -> Result<Versioned<StateResponse>, Refusal> {
        self.update(id, ActsFor::Seat(request.player_id), token, |game| {
            place_in(game, request)
        })
    }

    /// `POST /games/:id/observations`.
    pub(crate) fn observe(
        &self,
        id: &str,
        request: &ObservationRequest,
        token: Option<TokenHash>,
    ) -> Result<Versioned<ObservationResponse>, Refusal> {
        self.update(id, ActsFor::Seat(request.player_id), token, |game| {
            let observation_result = game.observe(request.player_id, request.seed)?;
            Ok(ObservationResponse {
                observation_result,
                game_state: game.state().clone(),
            })
        })
    }

    /// `POST /games/:id/reset`.
    pub(crate) fn reset(
        &self,
        id: &str,
        token: Option<TokenHash>,
    ) -> Result<Versioned<StateResponse>, Refusal> {
        self.update(id, ActsFor::AnySeat, token, |game| {
            game.reset();
            Ok(StateResponse {
                game_state: game.state().clone(),
            })
        })
    }

    /// `DELETE /games/:id` (also of a game whose stored form is corrupt).
    pub(crate) fn delete(
        &self,
        id: &str,
        token: Option<TokenHash>,
    ) -> Result<DeleteResponse, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let mut repo = self.repo()?;
        seats::authorize(repo.seats(&gid)?.as_ref(), ActsFor::AnySeat, token.as_ref())?;
        if repo.delete(&gid)? {
            Ok(DeleteResponse { success: true })
        } else {
            Err(ServiceError::NotFound(gid).into())
        }
    }

    /// `POST /games/:id/seats`: `wanted` (or the open seat) for `hash`.
    pub(crate) fn join(
        &self,
        id: &str,
        wanted: Option<Player>,
        hash: TokenHash,
    ) -> Result<Player, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let mut repo = self.repo()?;
        repo.load(&gid)?.ok_or(ServiceError::NotFound(gid))?;
        let seats = repo.seats(&gid)?.ok_or_else(|| seats::no_seats(&gid))?;
        let player = wanted
            .or_else(|| seats.open())
            .ok_or_else(|| seats::seat_taken(&gid, None))?;
        if repo.claim(&gid, player, &hash)? {
            Ok(player)
        } else {
            Err(seats::seat_taken(&gid, Some(player)))
        }
    }
}

/// Seed 003's in-memory service with what the server adds per game: the
/// version (for the live stream) and the seats.
#[derive(Debug)]
pub(crate) struct Memory {
    service: GameService,
    meta: HashMap<GameId, Meta>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Meta {
    version: u64,
    seats: Option<Seats>,
}

impl Memory {
    fn new(seed: u64, max_games: usize) -> Memory {
        Memory {
            service: GameService::new(seed, max_games),
            meta: HashMap::new(),
        }
    }

    fn create(
        &mut self,
        id: GameId,
        options: GameOptions,
        now_ms: u64,
        seats: Option<Seats>,
    ) -> Result<Versioned<CreatedResponse>, Refusal> {
        let answer = self.service.create(id, options, now_ms)?;
        // The service evicts on its own: forget what it no longer holds.
        if self.meta.len() >= self.service.max_games() {
            let service = &self.service;
            self.meta.retain(|id, _| service.contains(id));
        }
        self.meta.insert(id, Meta { version: 1, seats });
        let event = self.event(&id, 1)?;
        Ok(Versioned {
            answer,
            version: 1,
            event,
        })
    }

    /// The live stream's data for the stored game `id` at `version`.
    fn event(&self, id: &GameId, version: u64) -> Result<Arc<str>, Refusal> {
        let game = self.service.game(&id.to_string())?;
        Ok(state_data(version, game))
    }

    /// The game's id, once it is known to exist, with its meta.
    fn known(&self, id: &str) -> Result<(GameId, Meta), Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        if !self.service.contains(&gid) {
            return Err(ServiceError::NotFound(gid).into());
        }
        let meta = self.meta.get(&gid).copied().unwrap_or(Meta {
            version: 1,
            seats: None,
        });
        Ok((gid, meta))
    }

    fn get(&mut self, id: &str) -> Result<(Versioned<StateResponse>, Option<Seats>), Refusal> {
        let answer = self.service.get(id)?;
        let (gid, meta) = self.known(id)?;
        Ok((
            Versioned {
                answer,
                version: meta.version,
                event: self.event(&gid, meta.version)?,
            },
            meta.seats,
        ))
    }

    fn update<T>(
        &mut self,
        id: &str,
        acts_for: ActsFor,
        token: Option<TokenHash>,
        command: impl FnOnce(&mut GameService) -> Result<T, ServiceError>,
    ) -> Result<Versioned<T>, Refusal> {
        let (gid, meta) = self.known(id)?;
        seats::authorize(meta.seats.as_ref(), acts_for, token.as_ref())?;
        let answer = command(&mut self.service)?;
        let meta = self.meta.entry(gid).or_insert(Meta {
            version: 1,
            seats: None,
        });
        meta.version += 1;
        let version = meta.version;
        Ok(Versioned {
            answer,
            version,
            event: self.event(&gid, version)?,
        })
    }

    fn delete(&mut self, id: &str, token: Option<TokenHash>) -> Result<DeleteResponse, Refusal> {
        if let Ok((_, meta)) = self.known(id) {
            seats::authorize(meta.seats.as_ref(), ActsFor::AnySeat, token.as_ref())?;
        }
        let answer = self.service.delete(id)?;
        if let Ok(gid) = GameId::parse(id) {
            self.meta.remove(&gid);
        }
        Ok(answer)
    }

    fn join(
        &mut self,
        id: &str,
        wanted: Option<Player>,
        hash: TokenHash,
    ) -> Result<Player, Refusal> {
        let (gid, _) = self.known(id)?;
        let meta = self
            .meta
            .get_mut(&gid)
            .ok_or_else(|| seats::no_seats(&gid))?;
        let seats = meta.seats.as_mut().ok_or_else(|| seats::no_seats(&gid))?;
        let player = wanted
            .or_else(|| seats.open())
            .ok_or_else(|| seats::seat_taken(&gid, None))?;
        let seat = seats.seat_mut(player);
        if seat.is_some() {
            return Err(seats::seat_taken(&gid, Some(player)));
        }
        *seat = Some(hash);
        Ok(player)
    }
}

/// The games of one server: in memory, or durable (commands run on the
/// blocking pool, since they wait for the disk).
#[derive(Debug, Clone)]
pub(crate) enum Store {
    Memory(Arc<Mutex<Memory>>),
    Durable(Arc<Durable>),
}

/// A command the store runs, on either kind of store.
#[derive(Debug, Clone)]
pub(crate) enum Command {
    Place(MoveRequest),
    Observe(ObservationRequest),
    Reset,
}

/// What a command answers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    State(StateResponse),
    Observation(ObservationResponse),
}

impl Store {
    /// The store `storage` names; opening a database creates its file and schema.
    pub(crate) fn open(
        storage: &Storage,
        sync: DbSync,
        pool_size: u32,
        seed: u64,
        max_games: usize,
    ) -> std::io::Result<Store> {
        Ok(match storage {
            Storage::Memory => Store::Memory(Arc::new(Mutex::new(Memory::new(seed, max_games)))),
            Storage::Sqlite(path) => {
                let repo = SqliteRepo::open(path, sync).map_err(|e| {
                    std::io::Error::other(format!("database {}: {e}", path.display()))
                })?;
                Store::Durable(Arc::new(Durable::new(Box::new(repo), seed, max_games)))
            }
            Storage::Postgres(url) => {
                // The synchronous client blocks on a runtime of its own: connect on
                // a thread that is not driving the server's tasks.
                let url = url.clone();
                let pool = std::thread::spawn(move || crate::pg::PgPool::connect(&url, pool_size))
                    .join()
                    .map_err(|_| std::io::Error::other("the database connection failed"))?
                    .map_err(|e| std::io::Error::other(format!("database: {e}")))?;
                Store::Durable(Arc::new(Durable::pooled(Arc::new(pool), seed, max_games)))
            }
        })
    }

    /// Runs `memory` on the in-memory games, or `durable` on the blocking pool.
    async fn run<T: Send + 'static>(
        &self,
        memory: impl FnOnce(&mut Memory) -> Result<T, Refusal>,
        durable: impl FnOnce(&Durable) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        match self {
            Store::Memory(games) => {
                // A poisoned lock only means a handler panicked mid-request;
                // the service's methods change nothing before they succeed.
                let mut games = games
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                memory(&mut games)
            }
            Store::Durable(store) => {
                let store = Arc::clone(store);
                tokio::task::spawn_blocking(move || durable(&store))
                    .await
                    .unwrap_or_else(|e| {
                        Err(Refusal::new(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            "INTERNAL",
                            format!("the storage task failed: {e}"),
                        ))
                    })
            }
        }
    }

    /// The PostgreSQL pool, when the games are there (the rooms share it).
    pub(crate) fn pg_pool(&self) -> Option<Arc<crate::pg::PgPool>> {
        match self {
            Store::Durable(d) => match &d.repos {
                Repos::Pool(pool) => Some(Arc::clone(pool)),
                Repos::One(_) => None,
            },
            Store::Memory(_) => None,
        }
    }

    /// `memory`, `sqlite` or `postgres`.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Store::Memory(_) => "memory",
            Store::Durable(d) => d.kind,
        }
    }

    pub(crate) async fn create(
        &self,
        id: GameId,
        options: GameOptions,
        now_ms: u64,
        seats: Option<Seats>,
    ) -> Result<Versioned<CreatedResponse>, Refusal> {
        self.run(
            move |m| m.create(id, options, now_ms, seats),
            move |d| d.create(id, options, now_ms, seats),
        )
        .await
    }

    pub(crate) async fn get(
        &self,
        id: String,
    ) -> Result<(Versioned<StateResponse>, Option<Seats>), Refusal> {
        let copy = id.clone();
        self.run(move |m| m.get(&id), move |d| d.get(&copy)).await
    }

    /// Runs a move, observation or reset as the holder of `token`.
    pub(crate) async fn command(
        &self,
        id: String,
        command: Command,
        token: Option<TokenHash>,
    ) -> Result<Versioned<Answer>, Refusal> {
        let copy = id.clone();
        let on_memory = command.clone();
        self.run(
            move |m| match on_memory {
                Command::Place(r) => m.update(&id, ActsFor::Seat(r.player_id), token, |s| {
                    s.place(&id, &r).map(Answer::State)
                }),
                Command::Observe(r) => m.update(&id, ActsFor::Seat(r.player_id), token, |s| {
                    s.observe(&id, &r).map(Answer::Observation)
                }),
                Command::Reset => m.update(&id, ActsFor::AnySeat, token, |s| {
                    s.reset(&id).map(Answer::State)
                }),
            },
            move |d| {
                let wrap = |v: Versioned<_>, f: fn(_) -> Answer| Versioned {
                    answer: f(v.answer),
                    version: v.version,
                    event: v.event,
                };
                Ok(match command {
                    Command::Place(r) => wrap(d.place(&copy, &r, token)?, Answer::State),
                    Command::Observe(r) => {
                        let v = d.observe(&copy, &r, token)?;
                        Versioned {
                            answer: Answer::Observation(v.answer),
                            version: v.version,
                            event: v.event,
                        }
                    }
                    Command::Reset => wrap(d.reset(&copy, token)?, Answer::State),
                })
            },
        )
        .await
    }

    pub(crate) async fn delete(
        &self,
        id: String,
        token: Option<TokenHash>,
    ) -> Result<DeleteResponse, Refusal> {
        let copy = id.clone();
        self.run(
            move |m| m.delete(&id, token),
            move |d| d.delete(&copy, token),
        )
        .await
    }

    pub(crate) async fn join(
        &self,
        id: String,
        wanted: Option<Player>,
        hash: TokenHash,
    ) -> Result<Player, Refusal> {
        let copy = id.clone();
        self.run(
            move |m| m.join(&id, wanted, hash),
            move |d| d.join(&copy, wanted, hash),
        )
        .await
    }
}

/// The `seats` table's column of `player`'s token hash (both SQL stores).
pub(crate) fn seat_column(player: Player) -> &'static str {
    match player {
        Player::Black => "black",
        Player::White => "white",
    }
}

/// A stored seat that is not a token hash (both SQL stores).
pub(crate) fn bad_seat(id: &GameId) -> StoreError {
    StoreError::Corrupt {
        id: *id,
        reason: "a seat is not a 32-byte token hash".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quantum_gomoku::Player;
    use quantum_gomoku::service::RawPosition;

    fn id(n: u8) -> GameId {
        GameId::from_random_bytes([n; 16])
    }

    fn durable(max_games: usize) -> Durable {
        let conn = Connection::open_in_memory().expect("in-memory database");
        let repo = SqliteRepo::init(conn, DbSync::Full).expect("schema");
        Durable::new(Box::new(repo), 1, max_games)
    }

    fn black_at(row: i64, col: i64) -> MoveRequest {
        MoveRequest {
            player_id: Player::Black,
            position: RawPosition { row, col },
        }
    }

    #[test]
    fn the_least_recently_used_row_is_evicted_past_the_bound() {
        let d = durable(2);
        let (a, b, c) = (id(1), id(2), id(3));
        for g in [a, b] {
            d.create(g, GameOptions::default(), 0, None)
                .expect("created");
        }
        d.get(&a.to_string()).expect("stored");
        d.create(c, GameOptions::default(), 0, None)
            .expect("created");
        assert_eq!(
            d.get(&b.to_string()).map_err(|r| r.status),
            Err(StatusCode::NOT_FOUND)
        );
        assert!(d.get(&a.to_string()).is_ok() && d.get(&c.to_string()).is_ok());
    }

    #[test]
    fn a_taken_id_and_refused_commands_change_nothing() {
        let d = durable(4);
        let a = id(1);
        d.create(a, GameOptions::default(), 0, None)
            .expect("created");
        let taken = d
            .create(a, GameOptions::new(5, 3), 0, None)
            .expect_err("taken");
        assert_eq!(taken.error.code, "ID_IN_USE");
        let s = a.to_string();
        let before = d.get(&s).expect("stored").0.answer;
        let negative = d
            .place(&s, &black_at(-1, 0), None)
            .expect_err("off the board");
        assert_eq!(negative.error.code, "INVALID_POSITION");
        d.place(&s, &black_at(1, 1), None).expect("legal");
        let again = d
            .place(&s, &black_at(2, 2), None)
            .expect_err("white's turn");
        assert_eq!(again.error.code, "OUT_OF_TURN");
        assert_eq!(d.get(&s).expect("stored").0.answer.game_state.turn_count, 1);
        assert_eq!(d.get(&s).expect("stored").0.version, 2);
        assert_ne!(d.get(&s).expect("stored").0.answer, before);
    }

    #[test]
    fn a_stale_version_is_not_written() {
        let conn = Connection::open_in_memory().expect("in-memory database");
        let mut repo = SqliteRepo::init(conn, DbSync::Full).expect("schema");
        let a = id(1);
        assert!(repo.insert(&a, "{}", 10, None).expect("insert"));
        assert!(!repo.insert(&a, "{}", 10, None).expect("taken"));
        assert!(repo.replace(&a, 1, "x").expect("update"));
        assert!(!repo.replace(&a, 1, "y").expect("stale"));
        let r = repo.load(&a).expect("load").expect("row");
        assert_eq!((r.version, r.data.as_deref()), (Some(2), Some(&b"x"[..])));
        assert!(repo.delete(&a).expect("delete"));
        assert!(!repo.delete(&a).expect("gone"));
        assert!(!repo.replace(&a, 2, "z").expect("gone"));
    }

    #[test]
    fn a_seat_is_claimed_once_and_goes_with_its_evicted_game() {
        let conn = Connection::open_in_memory().expect("in-memory database");
        let mut repo = SqliteRepo::init(conn, DbSync::Full).expect("schema");
        let (a, b) = (id(1), id(2));
        let black = seats::hash_token("black");
        let white = seats::hash_token("white");
        let seated = Seats::taken_by(Player::Black, black);
        assert!(repo.insert(&a, "{}", 1, Some(&seated)).expect("insert"));
        assert_eq!(repo.seats(&a).expect("read"), Some(seated));
        assert!(repo.claim(&a, Player::White, &white).expect("claim"));
        assert!(!repo.claim(&a, Player::White, &black).expect("taken"));
        assert!(!repo.claim(&a, Player::Black, &white).expect("taken"));
        let both = repo.seats(&a).expect("read").expect("seated");
        assert_eq!((both.black, both.white), (Some(black), Some(white)));
        // A game without seats has none to claim.
        assert!(repo.insert(&b, "{}", 1, None).expect("insert evicting a"));
        assert_eq!(repo.seats(&a).expect("read"), None);
        assert_eq!(repo.seats(&b).expect("read"), None);
        assert!(!repo.claim(&b, Player::White, &white).expect("no seats"));
        let left: i64 = repo
            .conn
            .query_row("SELECT COUNT(*) FROM seats", [], |r| r.get(0))
            .expect("count");
        assert_eq!(left, 0);
    }

    #[test]
    fn a_database_of_the_first_schema_gains_the_seats_table_and_keeps_its_games() {
        let path = std::env::temp_dir().join(format!("qg-schema1-{}.sqlite3", std::process::id()));
        let _ = std::fs::remove_file(&path);
        {
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(
                "CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL,
                     last_used INTEGER NOT NULL, state TEXT NOT NULL);
                 CREATE INDEX games_by_last_use ON games (last_used);
                 INSERT INTO games VALUES ('x', 3, 1, '{}');
                 PRAGMA user_version = 1;",
            )
            .expect("a version-1 database");
        }
        let mut repo = SqliteRepo::open(&path, DbSync::Normal).expect("migrated");
        let version: i64 = repo
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        let games: i64 = repo
            .conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
            .expect("count");
        assert_eq!(games, 1);
        assert_eq!(repo.seats(&id(1)).expect("read"), None);
        drop(repo);
        let _ = std::fs::remove_file(&path);
    }
}
