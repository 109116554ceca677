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
use axum::http::StatusCode;
use quantum_gomoku::service::{
    CreatedResponse, DeleteResponse, GameService, MoveRequest, ObservationRequest,
    ObservationResponse, ServiceError, StateResponse, place_in,
};
use quantum_gomoku::{Game, GameId, GameOptions, Rng};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::json;
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
}

impl Storage {
    /// `memory` for [`Storage::Memory`], anything else is a database file path.
    pub fn parse(value: &str) -> Storage {
        if value == "memory" {
            Storage::Memory
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
const SCHEMA_VERSION: i64 = 1;

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
    /// Stores a new game at version 1, first removing the least recently used
    /// games so that at most `max_games` remain; `false` if `id` is taken.
    fn insert(&mut self, id: &GameId, data: &str, max_games: usize) -> Result<bool, StoreError>;
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

    fn insert(&mut self, id: &GameId, data: &str, max_games: usize) -> Result<bool, StoreError> {
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
        tx.commit()?;
        Ok(true)
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

/// The API's commands over a [`GameRepo`], with the same answers and refusals
/// as the engine's in-memory [`GameService`].
#[derive(Debug)]
pub(crate) struct Durable {
    inner: Mutex<DurableInner>,
    max_games: usize,
}

#[derive(Debug)]
struct DurableInner {
    repo: Box<dyn GameRepo>,
    /// Forks each new game's generator, as [`GameService`] does.
    rng: Rng,
}

impl Durable {
    pub(crate) fn new(repo: Box<dyn GameRepo>, seed: u64, max_games: usize) -> Durable {
        Durable {
            inner: Mutex::new(DurableInner {
                repo,
                rng: Rng::new(seed),
            }),
            max_games: max_games.max(1),
        }
    }

    fn inner(&self) -> MutexGuard<'_, DurableInner> {
        // As for the in-memory service: every write is one transaction, so a
        // panic mid-request leaves nothing half-written.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
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

    /// `POST /games` with a drawn id.
    pub(crate) fn create(
        &self,
        id: GameId,
        options: GameOptions,
        now_ms: u64,
    ) -> Result<CreatedResponse, Refusal> {
        let options = options.validate().map_err(ServiceError::from)?;
        let mut inner = self.inner();
        let rng = inner.rng.fork();
        let game = Game::with_id(id, options, rng, now_ms).map_err(ServiceError::from)?;
        if !inner
            .repo
            .insert(&id, &Self::encode(&game)?, self.max_games)?
        {
            return Err(ServiceError::IdInUse(id).into());
        }
        Ok(CreatedResponse {
            game_id: id,
            game_state: game.state().clone(),
        })
    }

    /// `GET /games/:id`.
    pub(crate) fn get(&self, id: &str) -> Result<StateResponse, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let record = self
            .inner()
            .repo
            .load(&gid)?
            .ok_or(ServiceError::NotFound(gid))?;
        let (_, game) = Self::decode(&gid, &record)?;
        Ok(StateResponse {
            game_state: game.state().clone(),
        })
    }

    /// Applies `command` to the stored game and writes the result as the next
    /// version; a refused command writes nothing. Starts over when another
    /// writer changed the game in between.
    fn update<T>(
        &self,
        id: &str,
        mut command: impl FnMut(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        let mut inner = self.inner();
        for _ in 0..WRITE_ATTEMPTS {
            let record = inner.repo.load(&gid)?.ok_or(ServiceError::NotFound(gid))?;
            let (version, mut game) = Self::decode(&gid, &record)?;
            let answer = command(&mut game)?;
            if inner.repo.replace(&gid, version, &Self::encode(&game)?)? {
                return Ok(answer);
            }
        }
        Err(StoreError::Contended(gid).into())
    }

    /// `POST /games/:id/moves`.
    pub(crate) fn place(&self, id: &str, request: &MoveRequest) -> Result<StateResponse, Refusal> {
        self.update(id, |game| place_in(game, request))
    }

    /// `POST /games/:id/observations`.
    pub(crate) fn observe(
        &self,
        id: &str,
        request: &ObservationRequest,
    ) -> Result<ObservationResponse, Refusal> {
        self.update(id, |game| {
            let observation_result = game.observe(request.player_id, request.seed)?;
            Ok(ObservationResponse {
                observation_result,
                game_state: game.state().clone(),
            })
        })
    }

    /// `POST /games/:id/reset`.
    pub(crate) fn reset(&self, id: &str) -> Result<StateResponse, Refusal> {
        self.update(id, |game| {
            game.reset();
            Ok(StateResponse {
                game_state: game.state().clone(),
            })
        })
    }

    /// `DELETE /games/:id` (also of a game whose stored form is corrupt).
    pub(crate) fn delete(&self, id: &str) -> Result<DeleteResponse, Refusal> {
        let gid = GameId::parse(id).map_err(ServiceError::from)?;
        if self.inner().repo.delete(&gid)? {
            Ok(DeleteResponse { success: true })
        } else {
            Err(ServiceError::NotFound(gid).into())
        }
    }
}

/// The games of one server: in memory, or durable (commands run on the
/// blocking pool, since they wait for the disk).
#[derive(Debug, Clone)]
pub(crate) enum Store {
    Memory(Arc<Mutex<GameService>>),
    Durable(Arc<Durable>),
}

impl Store {
    /// The store `storage` names; opening a database creates its file and schema.
    pub(crate) fn open(
        storage: &Storage,
        sync: DbSync,
        seed: u64,
        max_games: usize,
    ) -> std::io::Result<Store> {
        Ok(match storage {
            Storage::Memory => {
                Store::Memory(Arc::new(Mutex::new(GameService::new(seed, max_games))))
            }
            Storage::Sqlite(path) => {
                let repo = SqliteRepo::open(path, sync).map_err(|e| {
                    std::io::Error::other(format!("database {}: {e}", path.display()))
                })?;
                Store::Durable(Arc::new(Durable::new(Box::new(repo), seed, max_games)))
            }
        })
    }

    /// Runs a command: `memory` on the in-memory service, or `durable` on the
    /// blocking pool.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        memory: impl FnOnce(&mut GameService) -> Result<T, ServiceError>,
        durable: impl FnOnce(&Durable) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        match self {
            Store::Memory(service) => {
                // A poisoned lock only means a handler panicked mid-request;
                // the service's methods change nothing before they succeed.
                let mut service = service
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                memory(&mut service).map_err(Refusal::from)
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
            d.create(g, GameOptions::default(), 0).expect("created");
        }
        d.get(&a.to_string()).expect("stored");
        d.create(c, GameOptions::default(), 0).expect("created");
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
        d.create(a, GameOptions::default(), 0).expect("created");
        let taken = d.create(a, GameOptions::new(5, 3), 0).expect_err("taken");
        assert_eq!(taken.error.code, "ID_IN_USE");
        let s = a.to_string();
        let before = d.get(&s).expect("stored");
        let negative = d.place(&s, &black_at(-1, 0)).expect_err("off the board");
        assert_eq!(negative.error.code, "INVALID_POSITION");
        d.place(&s, &black_at(1, 1)).expect("legal");
        let again = d.place(&s, &black_at(2, 2)).expect_err("white's turn");
        assert_eq!(again.error.code, "OUT_OF_TURN");
        assert_eq!(d.get(&s).expect("stored").game_state.turn_count, 1);
        assert_ne!(d.get(&s).expect("stored"), before);
    }

    #[test]
    fn a_stale_version_is_not_written() {
        let conn = Connection::open_in_memory().expect("in-memory database");
        let mut repo = SqliteRepo::init(conn, DbSync::Full).expect("schema");
        let a = id(1);
        assert!(repo.insert(&a, "{}", 10).expect("insert"));
        assert!(!repo.insert(&a, "{}", 10).expect("taken"));
        assert!(repo.replace(&a, 1, "x").expect("update"));
        assert!(!repo.replace(&a, 1, "y").expect("stale"));
        let r = repo.load(&a).expect("load").expect("row");
        assert_eq!((r.version, r.data.as_deref()), (Some(2), Some(&b"x"[..])));
        assert!(repo.delete(&a).expect("delete"));
        assert!(!repo.delete(&a).expect("gone"));
        assert!(!repo.replace(&a, 2, "z").expect("gone"));
    }
}
