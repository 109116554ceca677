//! [`GameRepo`] on a PostgreSQL server (`--db postgres://...`), so several
//! instances of the server can share one store.
//!
//! The rows and their meaning are the SQLite store's: one row per game with a
//! version, written only `WHERE version = <the version read>`, so concurrent
//! writers on different instances are serialized by the database and the loser
//! starts over from the new state. Uses are counted by a sequence. Each accepted
//! write also sends `NOTIFY qg_games, '<id> <version>'`, which other instances
//! may listen to for their live streams. Each instance keeps a pool of
//! connections (`r2d2`), so its commands on different games run at once.

use crate::battle_line::store::{RoomRepo, Row};
use crate::battle_line::{RoomHub, RoomUpdate};
use crate::events::{Hub, Update};
use crate::seats::{Seats, TokenHash};
use crate::store::{GameRepo, Record, Store, StoreError, bad_seat, seat_column};
use futures_util::StreamExt;
use postgres::NoTls;
use quantum_gomoku::{GameId, Player};
use r2d2_postgres::PostgresConnectionManager;
use r2d2_postgres::r2d2::{Pool, PooledConnection};
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinHandle;
use tokio_postgres::AsyncMessage;

/// The channel of the notifications sent after each write.
pub(crate) const CHANNEL: &str = "qg_games";

const SCHEMA: &str = "
    CREATE SEQUENCE IF NOT EXISTS qg_game_use;
    CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        version BIGINT NOT NULL,
        last_used BIGINT NOT NULL,
        state TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS games_by_last_use ON games (last_used);
    CREATE TABLE IF NOT EXISTS seats (
        game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        black BYTEA,
        white BYTEA
    );
    CREATE TABLE IF NOT EXISTS bl_rooms (
        id TEXT PRIMARY KEY,
        version BIGINT NOT NULL,
        listed BOOLEAN NOT NULL,
        touched BIGINT NOT NULL,
        state TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS bl_rooms_by_touch ON bl_rooms (touched);";

/// The channel of the notifications sent after each write of a Battle Line room.
pub(crate) const ROOM_CHANNEL: &str = "bl_rooms";

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// The pool's kind of connection.
type Manager = PostgresConnectionManager<NoTls>;

/// How long a command waits for a free connection before it is answered 503.
const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// The instance's connections to the database (`r2d2`): a command takes one
/// for its duration, so commands on different games run at once.
pub(crate) struct PgPool {
    /// Always `Some` until dropped.
    pool: Option<Pool<Manager>>,
}

impl Drop for PgPool {
    fn drop(&mut self) {
        // The synchronous client runs its own runtime to close a connection,
        // which must not happen on a thread that drives the server's tasks.
        if let Some(pool) = self.pool.take() {
            let _ = std::thread::spawn(move || drop(pool));
        }
    }
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool").finish_non_exhaustive()
    }
}

impl PgPool {
    /// Creates the schema at `url` if it is missing and opens a pool of at most
    /// `size` connections (one at first, more as commands overlap). Call it
    /// from a thread that drives no tasks.
    pub(crate) fn connect(url: &str, size: u32) -> Result<PgPool, StoreError> {
        let config: postgres::Config = url.parse()?;
        let mut client = config.connect(NoTls)?;
        // Two instances starting at once may both try to create the schema.
        let mut tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock(2424)", &[])?;
        tx.batch_execute(SCHEMA)?;
        tx.commit()?;
        drop(client);
        let pool = Pool::builder()
            .max_size(size.max(1))
            .min_idle(Some(1))
            .connection_timeout(CHECKOUT_TIMEOUT)
            .build(PostgresConnectionManager::new(config, NoTls))
            .map_err(|e| StoreError::Database(e.to_string()))?;
        Ok(PgPool { pool: Some(pool) })
    }

    /// A connection for one command.
    pub(crate) fn get(&self) -> Result<PgRepo, StoreError> {
        let pool = self
            .pool
            .as_ref()
            .ok_or_else(|| StoreError::Database("the pool is closed".to_owned()))?;
        let client = pool
            .get()
            .map_err(|e| StoreError::Database(format!("no free database connection: {e}")))?;
        Ok(PgRepo { client })
    }
}

/// One pooled connection, given back to the pool when dropped.
pub(crate) struct PgRepo {
    client: PooledConnection<Manager>,
}

impl std::fmt::Debug for PgRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgRepo").finish_non_exhaustive()
    }
}

fn hash(value: Option<Vec<u8>>) -> Result<Option<TokenHash>, ()> {
    value
        .map(|v| TokenHash::try_from(v.as_slice()).map_err(|_| ()))
        .transpose()
}

impl GameRepo for PgRepo {
    fn load(&mut self, id: &GameId) -> Result<Option<Record>, StoreError> {
        let row = self.client.query_opt(
            "UPDATE games SET last_used = nextval('qg_game_use') WHERE id = $1
             RETURNING version, state",
            &[&id.to_string()],
        )?;
        Ok(row.map(|row| Record {
            version: row
                .try_get::<_, i64>(0)
                .ok()
                .and_then(|v| u64::try_from(v).ok())
                .filter(|v| *v > 0),
            data: row.try_get::<_, String>(1).ok().map(String::into_bytes),
        }))
    }

    fn insert(
        &mut self,
        id: &GameId,
        data: &str,
        max_games: usize,
        seats: Option<&Seats>,
    ) -> Result<bool, StoreError> {
        let key = id.to_string();
        let keep = i64::try_from(max_games.max(1)).unwrap_or(i64::MAX);
        let mut tx = self.client.transaction()?;
        let inserted = tx.execute(
            "INSERT INTO games (id, version, last_used, state)
             VALUES ($1, 1, nextval('qg_game_use'), $2) ON CONFLICT (id) DO NOTHING",
            &[&key, &data],
        )?;
        if inserted != 1 {
            return Ok(false);
        }
        // The least recently used games beyond the bound, the new one excluded;
        // rows another instance is writing are skipped, not waited for.
        tx.execute(
            "DELETE FROM games WHERE id IN (
                 SELECT id FROM games WHERE id <> $1 ORDER BY last_used
                 LIMIT GREATEST((SELECT COUNT(*) FROM games) - $2, 0)
                 FOR UPDATE SKIP LOCKED)",
            &[&key, &keep],
        )?;
        if let Some(seats) = seats {
            tx.execute(
                "INSERT INTO seats (game_id, black, white) VALUES ($1, $2, $3)",
                &[
                    &key,
                    &seats.black.map(|h| h.to_vec()),
                    &seats.white.map(|h| h.to_vec()),
                ],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    fn replace(&mut self, id: &GameId, version: u64, data: &str) -> Result<bool, StoreError> {
        let version = i64::try_from(version).map_err(|_| StoreError::Corrupt {
            id: *id,
            reason: "version out of range".to_owned(),
        })?;
        // The write and its notification are one statement, so one transaction:
        // a committed move is never answered as a failure for want of its NOTIFY.
        let rows = self.client.query(
            "WITH written AS (
                 UPDATE games SET state = $3, version = version + 1,
                     last_used = nextval('qg_game_use')
                 WHERE id = $1 AND version = $2
                 RETURNING version)
             SELECT pg_notify($4, $1 || ' ' || version) FROM written",
            &[&id.to_string(), &version, &data, &CHANNEL],
        )?;
        Ok(rows.len() == 1)
    }

    fn delete(&mut self, id: &GameId) -> Result<bool, StoreError> {
        let rows = self.client.query(
            "WITH gone AS (DELETE FROM games WHERE id = $1 RETURNING id)
             SELECT pg_notify($2, id || ' 0') FROM gone",
            &[&id.to_string(), &CHANNEL],
        )?;
        Ok(rows.len() == 1)
    }

    fn seats(&mut self, id: &GameId) -> Result<Option<Seats>, StoreError> {
        let row = self.client.query_opt(
            "SELECT black, white FROM seats WHERE game_id = $1",
            &[&id.to_string()],
        )?;
        let Some(row) = row else { return Ok(None) };
        let black = hash(row.try_get(0).ok().flatten());
        let white = hash(row.try_get(1).ok().flatten());
        match (black, white) {
            (Ok(black), Ok(white)) => Ok(Some(Seats { black, white })),
            _ => Err(bad_seat(id)),
        }
    }

    fn claim(&mut self, id: &GameId, player: Player, hash: &TokenHash) -> Result<bool, StoreError> {
        let column = seat_column(player);
        let changed = self.client.execute(
            &format!("UPDATE seats SET {column} = $2 WHERE game_id = $1 AND {column} IS NULL"),
            &[&id.to_string(), &hash.to_vec()],
        )?;
        Ok(changed == 1)
    }
}

impl RoomRepo for PgRepo {
    fn load(&mut self, id: &str) -> Result<Option<Row>, StoreError> {
        let row = self
            .client
            .query_opt("SELECT version, state FROM bl_rooms WHERE id = $1", &[&id])?;
        row.map(|r| {
            let version: i64 = r.try_get(0)?;
            Ok(Row {
                version: u64::try_from(version)
                    .map_err(|_| StoreError::Database("a negative version".to_owned()))?,
                state: r.try_get(1)?,
            })
        })
        .transpose()
    }

    fn insert(
        &mut self,
        id: &str,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let rows = self.client.query(
            "WITH made AS (
                 INSERT INTO bl_rooms (id, version, listed, touched, state)
                 VALUES ($1, 1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id)
             SELECT pg_notify($5, id || ' 1') FROM made",
            &[&id, &listed, &now, &state, &ROOM_CHANNEL],
        )?;
        Ok(rows.len() == 1)
    }

    fn replace(
        &mut self,
        id: &str,
        version: u64,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let version = i64::try_from(version)
            .map_err(|_| StoreError::Database("version out of range".to_owned()))?;
        // The write and its notification are one statement (see `replace` of games).
        let rows = self.client.query(
            "WITH written AS (
                 UPDATE bl_rooms SET version = version + 1, listed = $3, touched = $4, state = $5
                 WHERE id = $1 AND version = $2 RETURNING version)
             SELECT pg_notify($6, $1 || ' ' || version) FROM written",
            &[&id, &version, &listed, &now, &state, &ROOM_CHANNEL],
        )?;
        Ok(rows.len() == 1)
    }

    fn delete(&mut self, id: &str) -> Result<bool, StoreError> {
        let rows = self.client.query(
            "WITH gone AS (DELETE FROM bl_rooms WHERE id = $1 RETURNING id)
             SELECT pg_notify($2, id || ' 0') FROM gone",
            &[&id, &ROOM_CHANNEL],
        )?;
        Ok(rows.len() == 1)
    }

    fn listed(&mut self, limit: usize) -> Result<Vec<(String, String)>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.client.query(
            "SELECT id, state FROM bl_rooms WHERE listed ORDER BY touched DESC, id LIMIT $1",
            &[&limit],
        )?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    fn sweep(&mut self, before: i64) -> Result<usize, StoreError> {
        let n = self
            .client
            .execute("DELETE FROM bl_rooms WHERE touched < $1", &[&before])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }
}

/// Feeds the live streams of this instance with the writes of every instance:
/// listens on [`CHANNEL`] and, for each game someone here watches, reads the
/// game and publishes it (the streams skip versions they already sent).
/// Reconnects after a lost connection.
pub(crate) fn spawn_listener(
    url: String,
    store: Store,
    hub: Arc<Hub>,
    rooms: Arc<RoomHub>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if let Err(e) = listen(&url, &store, &hub, &rooms).await {
                tracing::warn!("listening for other instances' writes failed: {e}");
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

async fn listen(
    url: &str,
    store: &Store,
    hub: &Hub,
    rooms: &RoomHub,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(String, String)>();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if tx
                        .send((n.channel().to_owned(), n.payload().to_owned()))
                        .is_err()
                    {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    client
        .batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {ROOM_CHANNEL}"))
        .await?;
    while let Some((channel, payload)) = rx.recv().await {
        let Some((id, version)) = payload.split_once(' ') else {
            continue;
        };
        if channel == ROOM_CHANNEL {
            // A room's stream carries only its version: publish it as it is.
            let Ok(version) = version.parse::<u64>() else {
                continue;
            };
            if rooms.is_watched(id) {
                let update = if version == 0 {
                    RoomUpdate::Deleted
                } else {
                    RoomUpdate::Version(version)
                };
                rooms.publish(id, update);
            }
            continue;
        }
        let (Ok(gid), Ok(version)) = (GameId::parse(id), version.parse::<u64>()) else {
            continue;
        };
        if !hub.is_watched(&gid) {
            continue;
        }
        if version == 0 {
            hub.publish(gid, Update::Deleted);
            continue;
        }
        if let Ok((now, _)) = store.get(id.to_owned()).await {
            hub.publish(
                gid,
                Update::State {
                    version: now.version,
                    data: now.event,
                },
            );
        }
    }
    driver.abort();
    Ok(())
}
