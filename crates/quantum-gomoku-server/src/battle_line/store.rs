//! Where Battle Line rooms live: beside the Quantum Gomoku games, in the same store
//! (process memory, the same SQLite file, or the same PostgreSQL database and pool).
//!
//! One row per room: its version (1 at creation, one more per accepted change),
//! whether the public list shows it, when it was last changed (for the idle
//! clean-up) and the room as JSON. A change is written only `WHERE version = <the
//! version read>`, so two writers of one room (two requests, two instances) are
//! serialized and the later one starts over from the new room.

use crate::pg::PgPool;
use crate::store::StoreError;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The rooms' table (SQLite; PostgreSQL's is in `pg.rs`'s schema).
const SQLITE_SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS bl_rooms (
        id TEXT PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL,
        listed INTEGER NOT NULL,
        touched INTEGER NOT NULL,
        state TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS bl_rooms_by_touch ON bl_rooms (touched);";

/// A stored room before it is decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) version: u64,
    pub(crate) state: String,
}

/// The rows of rooms. Every method is one statement or transaction.
pub(crate) trait RoomRepo: Send + std::fmt::Debug {
    fn load(&mut self, id: &str) -> Result<Option<Row>, StoreError>;
    /// Stores a new room at version 1; `false` if `id` is taken.
    fn insert(&mut self, id: &str, state: &str, listed: bool, now: i64)
    -> Result<bool, StoreError>;
    /// Replaces the room if it is still at `version`; `false` if another writer
    /// changed or removed it first.
    fn replace(
        &mut self,
        id: &str,
        version: u64,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError>;
    fn delete(&mut self, id: &str) -> Result<bool, StoreError>;
    /// Up to `limit` listed rooms, the most recently changed first: (id, state).
    fn listed(&mut self, limit: usize) -> Result<Vec<(String, String)>, StoreError>;
    /// Removes the rooms last changed before `before`; how many.
    fn sweep(&mut self, before: i64) -> Result<usize, StoreError>;
}

fn signed(version: u64) -> Result<i64, StoreError> {
    i64::try_from(version).map_err(|_| StoreError::Database("version out of range".to_owned()))
}

fn unsigned(version: i64) -> Result<u64, StoreError> {
    u64::try_from(version).map_err(|_| StoreError::Database("a negative version".to_owned()))
}

/// Rooms in process memory.
#[derive(Debug, Default)]
pub(crate) struct MemoryRooms {
    rows: HashMap<String, (Row, bool, i64)>,
}

impl RoomRepo for MemoryRooms {
    fn load(&mut self, id: &str) -> Result<Option<Row>, StoreError> {
        Ok(self.rows.get(id).map(|(row, _, _)| row.clone()))
    }

    fn insert(
        &mut self,
        id: &str,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        if self.rows.contains_key(id) {
            return Ok(false);
        }
        let row = Row {
            version: 1,
            state: state.to_owned(),
        };
        self.rows.insert(id.to_owned(), (row, listed, now));
        Ok(true)
    }

    fn replace(
        &mut self,
        id: &str,
        version: u64,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        match self.rows.get_mut(id) {
            Some(entry) if entry.0.version == version => {
                *entry = (
                    Row {
                        version: version + 1,
                        state: state.to_owned(),
                    },
                    listed,
                    now,
                );
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn delete(&mut self, id: &str) -> Result<bool, StoreError> {
        Ok(self.rows.remove(id).is_some())
    }

    fn listed(&mut self, limit: usize) -> Result<Vec<(String, String)>, StoreError> {
        let mut rows: Vec<_> = self
            .rows
            .iter()
            .filter(|(_, (_, listed, _))| *listed)
            .map(|(id, (row, _, touched))| (*touched, id.clone(), row.state.clone()))
            .collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        Ok(rows
            .into_iter()
            .take(limit)
            .map(|(_, id, state)| (id, state))
            .collect())
    }

    fn sweep(&mut self, before: i64) -> Result<usize, StoreError> {
        let count = self.rows.len();
        self.rows.retain(|_, (_, _, touched)| *touched >= before);
        Ok(count - self.rows.len())
    }
}

/// Rooms in the server's SQLite file, on a connection of their own.
#[derive(Debug)]
pub(crate) struct SqliteRooms {
    conn: Connection,
}

impl SqliteRooms {
    pub(crate) fn open(path: &Path, full_sync: bool) -> Result<SqliteRooms, StoreError> {
        SqliteRooms::init(Connection::open(path)?, full_sync)
    }

    fn init(conn: Connection, full_sync: bool) -> Result<SqliteRooms, StoreError> {
        conn.busy_timeout(Duration::from_secs(5))?;
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(
            None,
            "synchronous",
            if full_sync { "FULL" } else { "NORMAL" },
        )?;
        conn.execute_batch(SQLITE_SCHEMA)?;
        Ok(SqliteRooms { conn })
    }
}

impl RoomRepo for SqliteRooms {
    fn load(&mut self, id: &str) -> Result<Option<Row>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT version, state FROM bl_rooms WHERE id = ?1",
                params![id],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
            )
            .optional()?;
        row.map(|(v, state)| {
            Ok(Row {
                version: unsigned(v)?,
                state,
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
        let n = self.conn.execute(
            "INSERT INTO bl_rooms (id, version, listed, touched, state) VALUES (?1, 1, ?2, ?3, ?4)
             ON CONFLICT (id) DO NOTHING",
            params![id, listed, now, state],
        )?;
        Ok(n == 1)
    }

    fn replace(
        &mut self,
        id: &str,
        version: u64,
        state: &str,
        listed: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "UPDATE bl_rooms SET version = version + 1, listed = ?3, touched = ?4, state = ?5
             WHERE id = ?1 AND version = ?2",
            params![id, signed(version)?, listed, now, state],
        )?;
        Ok(n == 1)
    }

    fn delete(&mut self, id: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .execute("DELETE FROM bl_rooms WHERE id = ?1", params![id])?
            == 1)
    }

    fn listed(&mut self, limit: usize) -> Result<Vec<(String, String)>, StoreError> {
        let mut statement = self.conn.prepare(
            "SELECT id, state FROM bl_rooms WHERE listed ORDER BY touched DESC, id LIMIT ?1",
        )?;
        let rows = statement
            .query_map(params![i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn sweep(&mut self, before: i64) -> Result<usize, StoreError> {
        Ok(self
            .conn
            .execute("DELETE FROM bl_rooms WHERE touched < ?1", params![before])?)
    }
}

/// Where the rooms' commands get their connection.
#[derive(Debug)]
pub(crate) enum Rooms {
    One(Mutex<Box<dyn RoomRepo>>),
    Pool(Arc<PgPool>),
}

/// One command's connection.
pub(crate) enum RoomGuard<'a> {
    One(MutexGuard<'a, Box<dyn RoomRepo>>),
    Pooled(Box<crate::pg::PgRepo>),
}

impl std::ops::Deref for RoomGuard<'_> {
    type Target = dyn RoomRepo;
    fn deref(&self) -> &Self::Target {
        match self {
            RoomGuard::One(guard) => guard.as_ref(),
            RoomGuard::Pooled(repo) => repo.as_ref(),
        }
    }
}

impl std::ops::DerefMut for RoomGuard<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            RoomGuard::One(guard) => guard.as_mut(),
            RoomGuard::Pooled(repo) => repo.as_mut(),
        }
    }
}

impl Rooms {
    pub(crate) fn one(repo: impl RoomRepo + 'static) -> Rooms {
        Rooms::One(Mutex::new(Box::new(repo)))
    }

    pub(crate) fn repo(&self) -> Result<RoomGuard<'_>, StoreError> {
        match self {
            // Every write is one statement: a panic mid-request leaves nothing half-written.
            Rooms::One(repo) => Ok(RoomGuard::One(
                repo.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
            )),
            Rooms::Pool(pool) => pool.get().map(|r| RoomGuard::Pooled(Box::new(r))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> Vec<Box<dyn RoomRepo>> {
        let conn = Connection::open_in_memory().expect("in-memory database");
        vec![
            Box::new(MemoryRooms::default()),
            Box::new(SqliteRooms::init(conn, true).expect("schema")),
        ]
    }

    #[test]
    fn a_stale_version_is_not_written_and_idle_rooms_are_swept() {
        for mut repo in both() {
            assert!(repo.insert("a", "s1", true, 10).expect("insert"));
            assert!(!repo.insert("a", "x", true, 10).expect("taken"));
            assert!(repo.replace("a", 1, "s2", true, 20).expect("write"));
            assert!(!repo.replace("a", 1, "s3", true, 30).expect("stale"));
            assert_eq!(
                repo.load("a").expect("load"),
                Some(Row {
                    version: 2,
                    state: "s2".into()
                })
            );
            assert!(repo.insert("b", "private", false, 40).expect("insert"));
            assert!(repo.insert("c", "newer", true, 50).expect("insert"));
            assert_eq!(
                repo.listed(10).expect("list"),
                vec![("c".into(), "newer".into()), ("a".into(), "s2".into())]
            );
            assert_eq!(repo.sweep(45).expect("sweep"), 2, "{repo:?}");
            assert_eq!(repo.load("a").expect("load"), None);
            assert!(repo.load("c").expect("load").is_some());
            assert!(repo.delete("c").expect("delete"));
            assert!(!repo.delete("c").expect("gone"));
        }
    }
}
