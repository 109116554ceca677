//! Several instances on one PostgreSQL database: any instance serves any game,
//! a stream on one instance sees moves made through another (LISTEN/NOTIFY),
//! concurrent conflicting moves through both end in one serial order, and a
//! game survives `kill -9` of the server binary. Built only with the feature
//! `postgres-tests`, which `scripts/dev test` turns on after starting a
//! throwaway cluster and setting `QG_TEST_POSTGRES` (and `QG_TEST_STORAGE=postgres`).

mod common;

use common::*;
use quantum_gomoku_server::{ServerConfig, Storage};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A configuration on a fresh database of the test cluster.
fn pg_config() -> ServerConfig {
    let config = test_config();
    assert!(
        matches!(config.storage, Storage::Postgres(_)),
        "run with QG_TEST_STORAGE=postgres and QG_TEST_POSTGRES set (scripts/dev test does)"
    );
    config
}

/// Reads a stream until an event with id `version` arrives.
async fn wait_for_event(stream: &mut TcpStream, version: u64) -> bool {
    wait_for(stream, &format!("id: {version}\n")).await
}

/// Reads a stream until `want` arrives.
async fn wait_for(stream: &mut TcpStream, want: &str) -> bool {
    let mut text = String::new();
    let mut chunk = [0u8; 4096];
    let until = tokio::time::Instant::now() + PATIENCE;
    while !text.contains(want) {
        match tokio::time::timeout_at(until, stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => text.push_str(&String::from_utf8_lossy(&chunk[..n])),
            _ => return false,
        }
    }
    true
}

async fn open_stream(addr: std::net::SocketAddr, id: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("server accepts");
    let head = format!("GET {API}/games/{id}/events HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("write");
    stream
}

#[tokio::test]
async fn a_stream_on_one_instance_sees_a_move_and_a_deletion_made_through_another() {
    let config = pg_config();
    let a = start(config.clone()).await.addr;
    let b = start(config).await.addr;
    let id = create(a).await;
    // Any instance serves any game.
    assert_eq!(get(b, &format!("{API}/games/{id}")).await.status, 200);
    let mut on_b = open_stream(b, &id).await;
    assert!(
        wait_for_event(&mut on_b, 1).await,
        "the stream's first state"
    );
    assert_eq!(place(a, &id, "BLACK", 2, 2).await.status, 200);
    assert!(
        wait_for_event(&mut on_b, 2).await,
        "the move through A reached the stream on B"
    );
    let deleted = raw(a, "DELETE", &format!("{API}/games/{id}"), &[], b"").await;
    assert_eq!(deleted.status, 200);
    assert!(
        wait_for(&mut on_b, "event: deleted").await,
        "the deletion through A ended the stream on B"
    );
}

#[tokio::test]
async fn fifty_concurrent_conflicting_moves_through_two_instances_leave_one_serial_order() {
    let config = pg_config();
    let a = start(config.clone()).await.addr;
    let b = start(config).await.addr;
    let id = create(a).await;
    // 50 moves at once, half through each instance, black and white on distinct
    // cells: each is legal only at its colour's turn.
    let tasks: Vec<_> = (0..50i64)
        .map(|i| {
            let id = id.clone();
            let addr = if i % 2 == 0 { a } else { b };
            let player = if i % 4 < 2 { "BLACK" } else { "WHITE" };
            tokio::spawn(async move { place(addr, &id, player, i / 15, i % 15).await })
        })
        .collect();
    let mut accepted = 0u64;
    for task in tasks {
        let reply = task.await.expect("the request task");
        match reply.status {
            200 => accepted += 1,
            409 => assert_eq!(reply.json()["code"], "OUT_OF_TURN"),
            // Every writer lost its race 16 times: refused as a whole, nothing written.
            503 => assert_eq!(reply.json()["code"], "GAME_BUSY"),
            other => panic!(
                "unexpected {other}: {:?}",
                String::from_utf8_lossy(&reply.body)
            ),
        }
    }
    assert!(accepted >= 1);
    // The stored game is one serial order of the accepted moves: as many stones as
    // accepted moves, placed black, white, black... (the engine checks this when it
    // reads the game back, so a read that succeeds is a consistent game).
    let state: Value = get(b, &format!("{API}/games/{id}")).await.json()["gameState"].clone();
    assert_eq!(state["turnCount"], accepted);
    let mut turns: Vec<(u64, String)> = state["board"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|row| row.as_array().expect("cells").iter())
        .filter(|cell| !cell.is_null())
        .map(|s| {
            (
                s["turnPlaced"].as_u64().expect("a turn"),
                s["placedBy"].as_str().expect("a player").to_owned(),
            )
        })
        .collect();
    turns.sort();
    let expected: Vec<(u64, String)> = (1..=accepted)
        .map(|t| (t, if t % 2 == 1 { "BLACK" } else { "WHITE" }.to_owned()))
        .collect();
    assert_eq!(turns, expected);
}

#[tokio::test]
async fn a_game_on_postgres_survives_kill_9_of_the_server() {
    use tokio::io::AsyncBufReadExt;
    let Storage::Postgres(url) = pg_config().storage else {
        unreachable!("pg_config checked it");
    };
    let spawn = || {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_quantum-gomoku-server"))
            .args(["--port", "0", "--create-burst", "0", "--db", &url])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        async move {
            let mut lines = tokio::io::BufReader::new(stdout).lines();
            let line = tokio::time::timeout(PATIENCE, lines.next_line())
                .await
                .expect("the server says where it listens")
                .expect("stdout reads")
                .expect("a line");
            let addr: std::net::SocketAddr = line
                .rsplit("http://")
                .next()
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| panic!("no address in {line:?}"));
            (child, addr)
        }
    };
    let (mut first, addr) = spawn().await;
    let id = create(addr).await;
    for (player, row) in [("BLACK", 0), ("WHITE", 1), ("BLACK", 2)] {
        assert_eq!(place(addr, &id, player, row, 0).await.status, 200);
    }
    first.start_kill().expect("SIGKILL");
    let _ = first.wait().await;
    let (_second, addr) = spawn().await;
    let state = get(addr, &format!("{API}/games/{id}")).await.json()["gameState"].clone();
    assert_eq!(state["turnCount"], 3, "an acknowledged move was lost");
    assert_eq!(place(addr, &id, "WHITE", 3, 0).await.status, 200);
}

#[tokio::test]
async fn a_command_waiting_on_one_game_does_not_hold_up_another_game_on_the_same_instance() {
    let config = ServerConfig {
        // The held command waits for as long as the test holds the row.
        request_timeout: PATIENCE,
        ..pg_config()
    };
    let Storage::Postgres(url) = config.storage.clone() else {
        unreachable!("pg_config checked it");
    };
    let server = start(config).await;
    let addr = server.addr;
    let (held, other) = (create(addr).await, create(addr).await);
    // Another session locks the first game's row, so a command on it waits.
    let (outside, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("the test connects to the database");
    tokio::spawn(connection);
    outside.batch_execute("BEGIN").await.expect("begin");
    outside
        .execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&held])
        .await
        .expect("the row is locked");
    let waiting = {
        let held = held.clone();
        tokio::spawn(async move { place(addr, &held, "BLACK", 0, 0).await })
    };
    // Until the server's command is seen waiting for that lock.
    let until = tokio::time::Instant::now() + PATIENCE;
    loop {
        let row = outside
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
                &[],
            )
            .await
            .expect("pg_stat_activity");
        if row.get::<_, i64>(0) > 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the command on the locked game never waited for its row"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // With one connection for the instance this move would queue behind it.
    assert_eq!(place(addr, &other, "BLACK", 0, 0).await.status, 200);
    assert!(
        !waiting.is_finished(),
        "the held game's command went on while its row was locked"
    );
    outside.batch_execute("COMMIT").await.expect("commit");
    assert_eq!(waiting.await.expect("the request task").status, 200);
}

#[tokio::test]
async fn a_battle_line_room_is_served_by_either_instance_and_its_stream_crosses_instances() {
    let config = pg_config();
    let a = start(config.clone()).await.addr;
    let b = start(config).await.addr;
    let made = post_json(
        a,
        "/api/battle-line/rooms",
        &serde_json::json!({"name": "r", "nickname": "h"}),
    )
    .await;
    assert_eq!(made.status, 201);
    let made = made.json();
    let id = made["roomId"].as_str().expect("an id").to_owned();
    let host = made["token"].as_str().expect("a token").to_owned();
    let mut on_b = TcpStream::connect(b).await.expect("server accepts");
    let head = format!("GET /api/battle-line/rooms/{id}/events HTTP/1.0\r\nHost: {b}\r\n\r\n");
    on_b.write_all(head.as_bytes()).await.expect("write");
    assert!(
        wait_for_event(&mut on_b, 1).await,
        "the room's first version"
    );
    let joined = post_json(
        a,
        &format!("/api/battle-line/rooms/{id}/seats"),
        &serde_json::json!({"nickname": "g"}),
    )
    .await;
    assert_eq!(joined.status, 201);
    assert!(
        wait_for_event(&mut on_b, 2).await,
        "the join through A reached the stream on B"
    );
    // The same seat sends two different commands for version 2, one through each
    // instance: one is applied, the other is refused as stale with the new state.
    let auth = format!("Bearer {host}");
    let send = |addr, index: u8| {
        let auth = auth.clone();
        let path = format!("/api/battle-line/rooms/{id}/commands");
        async move {
            let body = serde_json::json!({"version": 2, "key": format!("k{index}"),
                "command": {"type": "pickCard", "index": index}})
            .to_string();
            raw(
                addr,
                "POST",
                &path,
                &[
                    ("Content-Type", "application/json"),
                    ("Authorization", &auth),
                ],
                body.as_bytes(),
            )
            .await
        }
    };
    let (one, two) = tokio::join!(send(a, 0), send(b, 1));
    let mut statuses = [one.status, two.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409]);
    let refused = if one.status == 409 { one } else { two };
    assert_eq!(refused.json()["code"], "STALE_VERSION");
    assert_eq!(refused.json()["details"]["version"], 3);
}
