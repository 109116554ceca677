//! The durable store over real HTTP: games in an SQLite file survive a restart,
//! deletions and evictions remove rows, concurrent writers are serialized by
//! the version check, and a corrupt stored game is a typed error, not a panic.

mod common;

use common::*;
use quantum_gomoku_server::{ServerConfig, Storage, router};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh folder under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "qg-store-{}-{}-{name}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    fn db(&self) -> PathBuf {
        self.0.join("games.sqlite3")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sqlite_config(db: &Path) -> ServerConfig {
    ServerConfig {
        storage: Storage::Sqlite(db.to_path_buf()),
        ..test_config()
    }
}

async fn stop(mut server: Server) {
    server.stop();
    tokio::time::timeout(PATIENCE, server.done)
        .await
        .expect("the server stops")
        .expect("the server task ends")
        .expect("serve returns Ok");
}

fn state(r: &Reply) -> Value {
    assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
    r.json()["gameState"].clone()
}

/// The stored version and number of rows, read straight from the file.
fn stored_version(db: &Path, id: &str) -> Option<i64> {
    let conn = rusqlite::Connection::open(db).expect("the database opens");
    conn.query_row("SELECT version FROM games WHERE id = ?1", [id], |r| {
        r.get(0)
    })
    .ok()
}

fn stored_rows(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).expect("the database opens");
    conn.query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .expect("a count")
}

fn corrupt(db: &Path, id: &str, column: &str, sql_value: &str) {
    let conn = rusqlite::Connection::open(db).expect("the database opens");
    let changed = conn
        .execute(
            &format!("UPDATE games SET {column} = {sql_value} WHERE id = ?1"),
            [id],
        )
        .expect("the update runs");
    assert_eq!(changed, 1);
}

#[tokio::test]
async fn a_game_survives_a_restart_on_the_same_database_file_and_goes_on() {
    let dir = TempDir::new("restart");
    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let id = create(addr).await;
    state(&place(addr, &id, "BLACK", 7, 7).await);
    state(&place(addr, &id, "WHITE", 7, 8).await);
    let observed = observe(addr, &id, "WHITE", Some(42)).await;
    assert_eq!(observed.status, 200);
    state(&place(addr, &id, "BLACK", 3, 3).await);
    let before = state(&get(addr, &format!("{API}/games/{id}")).await);
    assert_eq!(before["turnCount"], 3);
    stop(server).await;
    assert!(dir.db().is_file());

    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let after = state(&get(addr, &format!("{API}/games/{id}")).await);
    assert_eq!(after, before);
    // It goes on from where it was: White to move, Black out of turn.
    assert_error(&place(addr, &id, "BLACK", 0, 0).await, 409, "OUT_OF_TURN");
    let next = state(&place(addr, &id, "WHITE", 0, 0).await);
    assert_eq!(next["turnCount"], 4);
    assert_eq!(next["createdAt"], before["createdAt"]);
    assert_eq!(next["whiteObservationsRemaining"], 4);
    // Created, three moves, an observation, a fourth move: version 6.
    assert_eq!(stored_version(&dir.db(), &id), Some(6));
    let reset = post_json(addr, &format!("{API}/games/{id}/reset"), &Value::Null).await;
    assert_eq!(state(&reset)["turnCount"], 0);
    stop(server).await;

    let server = start(sqlite_config(&dir.db())).await;
    let again = state(&get(server.addr, &format!("{API}/games/{id}")).await);
    assert_eq!(again["turnCount"], 0);
    assert_eq!(again["createdAt"], before["createdAt"]);
    stop(server).await;
}

#[tokio::test]
async fn a_deleted_game_stays_deleted_after_a_restart() {
    let dir = TempDir::new("delete");
    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let gone = create(addr).await;
    let kept = create(addr).await;
    state(&place(addr, &gone, "BLACK", 1, 1).await);
    let r = raw(addr, "DELETE", &format!("{API}/games/{gone}"), &[], b"").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["success"], true);
    assert_eq!(stored_version(&dir.db(), &gone), None);
    stop(server).await;

    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    assert_error(
        &get(addr, &format!("{API}/games/{gone}")).await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &raw(addr, "DELETE", &format!("{API}/games/{gone}"), &[], b"").await,
        404,
        "NOT_FOUND",
    );
    assert_error(&place(addr, &gone, "WHITE", 2, 2).await, 404, "NOT_FOUND");
    assert_eq!(
        state(&get(addr, &format!("{API}/games/{kept}")).await)["turnCount"],
        0
    );
    assert_eq!(stored_rows(&dir.db()), 1);
    stop(server).await;
}

#[tokio::test]
async fn concurrent_moves_from_two_servers_on_one_database_are_serialized() {
    let dir = TempDir::new("concurrent");
    // Two servers, two connections to one file: their writes race for real.
    let a = start(sqlite_config(&dir.db())).await;
    let b = start(sqlite_config(&dir.db())).await;
    let id = create(a.addr).await;
    let moves = 40_i64;
    let mut tasks = Vec::new();
    for i in 0..moves {
        let addr = if i % 2 == 0 { a.addr } else { b.addr };
        let player = if (i / 2) % 2 == 0 { "BLACK" } else { "WHITE" };
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            place(addr, &id, player, i / 9, i % 9).await
        }));
    }
    let mut accepted = Vec::new();
    for task in tasks {
        let r = task.await.expect("the request task ends");
        match r.status {
            200 => accepted.push(r.json()["gameState"]["turnCount"].clone()),
            400 | 409 => {
                let code = r.json()["code"].clone();
                assert!(
                    code == "OUT_OF_TURN" || code == "CELL_OCCUPIED" || code == "GAME_OVER",
                    "unexpected refusal {code}"
                );
            }
            s => panic!(
                "status {s}: {:?} (a race must end in a rules refusal, never a 5xx)",
                String::from_utf8_lossy(&r.body)
            ),
        }
    }
    assert!(!accepted.is_empty());
    // Each accepted move saw a different turn: the answers form one serial order.
    let turns: BTreeSet<i64> = accepted.iter().filter_map(Value::as_i64).collect();
    let n = i64::try_from(accepted.len()).expect("few moves");
    assert_eq!(turns, (1..=n).collect::<BTreeSet<_>>());
    for addr in [a.addr, b.addr] {
        let st = state(&get(addr, &format!("{API}/games/{id}")).await);
        assert_eq!(st["turnCount"], n);
        let stones = st["board"]
            .as_array()
            .expect("rows")
            .iter()
            .flat_map(|row| row.as_array().expect("cells").iter())
            .filter(|c| !c.is_null())
            .count();
        assert_eq!(i64::try_from(stones).expect("few"), n);
    }
    assert_eq!(stored_version(&dir.db(), &id), Some(1 + n));
    stop(a).await;
    stop(b).await;
}

#[tokio::test]
async fn concurrent_moves_on_one_server_bump_the_version_once_each() {
    let dir = TempDir::new("versions");
    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let id = create(addr).await;
    let mut tasks = Vec::new();
    for i in 0..20_i64 {
        let id = id.clone();
        // Everyone tries Black's first move: exactly one wins.
        tasks.push(tokio::spawn(async move {
            place(addr, &id, "BLACK", i / 5, i % 5).await
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("the request task ends").status);
    }
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1);
    assert!(statuses.iter().all(|s| *s == 200 || *s == 409));
    assert_eq!(stored_version(&dir.db(), &id), Some(2));
    stop(server).await;
}

#[tokio::test]
async fn a_corrupt_stored_game_is_a_typed_error_and_can_still_be_deleted() {
    let dir = TempDir::new("corrupt");
    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let healthy = create(addr).await;
    let cases = [
        ("state", "'not json'"),
        // Valid JSON but not a game.
        ("state", "'{\"options\":1}'"),
        // A game whose counters contradict its board.
        ("state", "json_set(state, '$.state.turnCount', 7)"),
        ("state", "X'FFFE00'"),
        ("state", "NULL"),
        ("version", "'abc'"),
    ];
    for (column, value) in cases {
        let id = create(addr).await;
        state(&place(addr, &id, "BLACK", 2, 2).await);
        if value == "NULL" {
            // The column is NOT NULL: a zero-length blob is the nearest thing.
            corrupt(&dir.db(), &id, column, "X''");
        } else {
            corrupt(&dir.db(), &id, column, value);
        }
        let what = format!("{column} = {value}");
        for r in [
            get(addr, &format!("{API}/games/{id}")).await,
            place(addr, &id, "WHITE", 3, 3).await,
            observe(addr, &id, "WHITE", Some(1)).await,
            post_json(addr, &format!("{API}/games/{id}/reset"), &Value::Null).await,
        ] {
            assert_error(&r, 500, "CORRUPT_GAME");
            assert_eq!(r.json()["details"]["id"], id.as_str(), "{what}");
        }
        let r = raw(addr, "DELETE", &format!("{API}/games/{id}"), &[], b"").await;
        assert_eq!(r.status, 200, "{what}");
        assert_error(
            &get(addr, &format!("{API}/games/{id}")).await,
            404,
            "NOT_FOUND",
        );
    }
    // A game stored under another game's id is corrupt too.
    let first = create(addr).await;
    let second = create(addr).await;
    let conn = rusqlite::Connection::open(dir.db()).expect("the database opens");
    conn.execute(
        "UPDATE games SET state = (SELECT state FROM games WHERE id = ?2) WHERE id = ?1",
        [&first, &second],
    )
    .expect("the update runs");
    assert_error(
        &get(addr, &format!("{API}/games/{first}")).await,
        500,
        "CORRUPT_GAME",
    );
    // The others are untouched and the server goes on serving.
    state(&place(addr, &healthy, "BLACK", 0, 0).await);
    state(&get(addr, &format!("{API}/games/{second}")).await);
    stop(server).await;
}

#[tokio::test]
async fn eviction_past_the_bound_deletes_the_least_recently_used_row() {
    let dir = TempDir::new("evict");
    let server = start(ServerConfig {
        max_games: 2,
        ..sqlite_config(&dir.db())
    })
    .await;
    let addr = server.addr;
    let old = create(addr).await;
    let used = create(addr).await;
    // `old` moves after `used` was created, so `used` is now the idlest.
    state(&place(addr, &old, "BLACK", 1, 1).await);
    let new = create(addr).await;
    assert_eq!(stored_rows(&dir.db()), 2);
    assert_eq!(stored_version(&dir.db(), &used), None);
    assert_error(
        &get(addr, &format!("{API}/games/{used}")).await,
        404,
        "NOT_FOUND",
    );
    state(&get(addr, &format!("{API}/games/{old}")).await);
    state(&get(addr, &format!("{API}/games/{new}")).await);
    stop(server).await;
}

#[tokio::test]
async fn the_seed_contract_holds_on_sqlite() {
    let dir = TempDir::new("contract");
    let server = start(sqlite_config(&dir.db())).await;
    let addr = server.addr;
    let id = create(addr).await;
    assert_error(
        &get(addr, &format!("{API}/games/not-a-uuid")).await,
        400,
        "INVALID_ID",
    );
    assert_error(
        &get(
            addr,
            &format!("{API}/games/123e4567-e89b-42d3-a456-426614174000"),
        )
        .await,
        404,
        "NOT_FOUND",
    );
    assert_error(&place(addr, &id, "WHITE", 0, 0).await, 409, "OUT_OF_TURN");
    assert_error(
        &place(addr, &id, "BLACK", -1, 0).await,
        400,
        "INVALID_POSITION",
    );
    assert_error(
        &place(addr, &id, "BLACK", 15, 0).await,
        400,
        "INVALID_POSITION",
    );
    state(&place(addr, &id, "BLACK", 0, 0).await);
    assert_error(&place(addr, &id, "WHITE", 0, 0).await, 400, "CELL_OCCUPIED");
    assert_error(
        &observe(addr, &id, "WHITE", Some(3)).await,
        409,
        "OBS_NOT_ALLOWED",
    );
    let r = observe(addr, &id, "BLACK", Some(3)).await;
    assert_eq!(r.status, 200);
    assert!(r.json()["observationResult"].is_object());
    // Refused commands wrote nothing: created, one move, one observation.
    assert_eq!(stored_version(&dir.db(), &id), Some(3));
    stop(server).await;
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_refused_at_start() {
    let dir = TempDir::new("garbage");
    std::fs::write(dir.db(), vec![b'x'; 4096]).expect("a file");
    let err = router(&sqlite_config(&dir.db())).expect_err("not a database");
    assert!(err.to_string().contains("games.sqlite3"), "{err}");
    // A folder that does not exist cannot hold the database either.
    let missing = dir.0.join("no/such/folder/games.sqlite3");
    assert!(router(&sqlite_config(&missing)).is_err());
}

/// The server binary on a free port with `--db db`, and its address.
async fn spawn_binary(db: &Path, sync: &str) -> (tokio::process::Child, std::net::SocketAddr) {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_quantum-gomoku-server"))
        .args(["--port", "0", "--bind", "127.0.0.1", "--create-burst", "0"])
        .arg("--db")
        .arg(db)
        .args(["--db-sync", sync])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(PATIENCE, lines.next_line())
        .await
        .expect("the server says where it listens")
        .expect("stdout reads")
        .expect("a line");
    let addr = line
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

#[tokio::test]
async fn kill_9_loses_no_acknowledged_move() {
    // `normal` leaves the fsync to the OS, which still has every commit when
    // only the process dies.
    for sync in ["full", "normal"] {
        let dir = TempDir::new(&format!("kill9-{sync}"));
        let (mut child, addr) = spawn_binary(&dir.db(), sync).await;
        let id = create(addr).await;
        let mut last = Value::Null;
        for (i, player) in ["BLACK", "WHITE", "BLACK", "WHITE", "BLACK"]
            .into_iter()
            .enumerate()
        {
            let i = i64::try_from(i).expect("few moves");
            last = state(&place(addr, &id, player, i, 2 * i).await);
        }
        // SIGKILL right after the last answer: no shutdown, no flush.
        child.kill().await.expect("the server is killed");

        let (mut child, addr) = spawn_binary(&dir.db(), sync).await;
        let after = state(&get(addr, &format!("{API}/games/{id}")).await);
        assert_eq!(after, last, "--db-sync {sync}");
        assert_eq!(after["turnCount"], 5);
        state(&place(addr, &id, "WHITE", 14, 14).await);
        child.kill().await.expect("the server is killed");
    }
}
