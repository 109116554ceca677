//! Battle Line online over HTTP: rooms (create, list, join by id, full, names),
//! the first-player game, whole matches refereed by the server with each seat
//! served only its own hand, stale versions, idempotency keys, leaving, the
//! version stream, idle clean-up, and a room that survives `kill -9` of the server.
//! Games in memory, or as `QG_TEST_STORAGE` says (SQLite, PostgreSQL).

mod common;

use ::battle_line::{Command, Game, Player, Settings};
use common::*;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const BL: &str = "/api/battle-line";

/// One request with an optional seat token and JSON body.
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a.as_str()));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    raw(
        addr,
        method,
        &format!("{BL}{path}"),
        &headers,
        body.as_bytes(),
    )
    .await
}

/// A room made by "host": (id, host token).
async fn make_room(addr: SocketAddr, private: bool) -> (String, String) {
    let r = call(
        addr,
        "POST",
        "/rooms",
        None,
        Some(json!({"name": "部屋_1", "nickname": "あきら", "private": private})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["version"], 1);
    assert_eq!(v["view"]["you"], "host");
    (
        v["roomId"].as_str().expect("an id").to_owned(),
        v["token"].as_str().expect("a token").to_owned(),
    )
}

async fn join(addr: SocketAddr, id: &str, nickname: &str) -> Reply {
    call(
        addr,
        "POST",
        &format!("/rooms/{id}/seats"),
        None,
        Some(json!({ "nickname": nickname })),
    )
    .await
}

async fn view(addr: SocketAddr, id: &str, token: Option<&str>) -> Value {
    let r = call(addr, "GET", &format!("/rooms/{id}"), token, None).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

async fn send(
    addr: SocketAddr,
    id: &str,
    token: &str,
    version: u64,
    key: &str,
    command: Value,
) -> Reply {
    call(
        addr,
        "POST",
        &format!("/rooms/{id}/commands"),
        Some(token),
        Some(json!({ "version": version, "key": key, "command": command })),
    )
    .await
}

/// A room with both seats taken and the first-player game played (the guest
/// picks card 1, the host card 0; the winner goes first): (id, host, guest,
/// the host's seat).
async fn started(addr: SocketAddr) -> (String, String, String, Player) {
    let (id, host) = make_room(addr, true).await;
    let guest = join(addr, &id, "Bo").await.json()["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let pick = |i: u8| json!({"type": "pickCard", "index": i});
    assert_eq!(send(addr, &id, &host, 2, "p1", pick(0)).await.status, 200);
    let r = send(addr, &id, &guest, 3, "p2", pick(1)).await;
    assert_eq!(r.status, 200);
    let first = &r.json()["view"]["first"];
    let cards: Vec<u64> = first["cards"]
        .as_array()
        .expect("revealed")
        .iter()
        .map(|c| c.as_u64().expect("a value"))
        .collect();
    let winner = first["winner"].as_str().expect("a winner").to_owned();
    assert_eq!(winner == "host", cards[0] > cards[1]);
    let chooser = if winner == "host" { &host } else { &guest };
    let r = send(
        addr,
        &id,
        chooser,
        4,
        "c",
        json!({"type": "chooseOrder", "first": true}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let host_seat = if winner == "host" {
        Player::P0
    } else {
        Player::P1
    };
    (id, host, guest, host_seat)
}

fn hand(v: &Value) -> Vec<Value> {
    v["view"]["match"]["hand"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn rooms_are_listed_when_public_joined_by_id_and_a_full_room_is_refused() {
    let addr = server().await;
    let (private, _) = make_room(addr, true).await;
    let (public, _) = make_room(addr, false).await;
    let list = call(addr, "GET", "/rooms", None, None).await.json();
    let ids: Vec<&str> = list["rooms"]
        .as_array()
        .expect("rooms")
        .iter()
        .map(|r| r["roomId"].as_str().expect("an id"))
        .collect();
    assert!(ids.contains(&public.as_str()) && !ids.contains(&private.as_str()));
    let listed = &list["rooms"][0];
    assert_eq!(
        (&listed["host"], &listed["seats"], &listed["full"]),
        (&json!("あきら"), &json!(1), &json!(false))
    );
    // A private room is joined by its id.
    let joined = join(addr, &private, "ゲスト_2").await;
    assert_eq!(joined.status, 201);
    assert_eq!(joined.json()["view"]["you"], "guest");
    assert_eq!(joined.json()["view"]["nicknames"][1], "ゲスト_2");
    assert_error(&join(addr, &private, "Cy").await, 409, "ROOM_FULL");
    // Names: 1-16 letters, digits or _; anything else changes nothing.
    for bad in ["", "abcdefghijklmnopq", "a b", "<script>"] {
        let r = join(addr, &public, bad).await;
        assert_error(&r, 400, "INVALID_NAME");
        assert_eq!(r.json()["details"]["field"], "nickname");
    }
    let r = call(
        addr,
        "POST",
        "/rooms",
        None,
        Some(json!({"name": "no spaces", "nickname": "a"})),
    )
    .await;
    assert_error(&r, 400, "INVALID_NAME");
    assert_eq!(view(addr, &public, None).await["version"], 1);
    assert_error(
        &call(addr, "GET", "/rooms/NOT-AN-ID", None, None).await,
        400,
        "INVALID_ROOM_ID",
    );
    assert_error(
        &call(addr, "GET", "/rooms/000000000000", None, None).await,
        404,
        "ROOM_NOT_FOUND",
    );
}

#[tokio::test]
async fn each_seat_sees_its_own_hand_and_the_other_as_a_count_and_a_watcher_neither() {
    let addr = server().await;
    let (id, host, guest, _) = started(addr).await;
    let host_view = view(addr, &id, Some(&host)).await;
    let guest_view = view(addr, &id, Some(&guest)).await;
    let watcher = view(addr, &id, None).await;
    let host_hand = hand(&host_view);
    let guest_hand = hand(&guest_view);
    assert_eq!((host_hand.len(), guest_hand.len()), (7, 7));
    assert_eq!(host_view["view"]["match"]["opponent_hand"]["troops"], 7);
    let texts = [
        ("guest", guest_view.to_string()),
        ("watcher", watcher.to_string()),
    ];
    for card in &host_hand {
        let card = card.to_string();
        for (who, text) in &texts {
            assert!(
                !text.contains(&card),
                "the host's {card} in the {who}'s answer"
            );
        }
    }
    for card in &guest_hand {
        assert!(!host_view.to_string().contains(&card.to_string()));
        assert!(!watcher.to_string().contains(&card.to_string()));
    }
    assert_eq!(watcher["view"]["seat"], "watching");
    assert!(watcher["view"]["match"].is_null());
    assert_eq!(watcher["view"]["table"]["hands"][0]["troops"], 7);
    // Nothing that would tell the deck order is served.
    for text in [&host_view, &guest_view, &watcher].map(Value::to_string) {
        assert!(!text.contains("seed") && !text.contains("\"log\""));
    }
    // A token of no seat watches; commands need a seat's token.
    let r = send(
        addr,
        &id,
        "not-a-token",
        5,
        "k",
        json!({"type": "play", "command": "Pass"}),
    )
    .await;
    assert_error(&r, 403, "NOT_YOUR_SEAT");
    let r = call(
        addr,
        "POST",
        &format!("/rooms/{id}/commands"),
        None,
        Some(json!({"version": 5, "key": "k", "command": {"type": "play", "command": "Pass"}})),
    )
    .await;
    assert_error(&r, 401, "SEAT_TOKEN_REQUIRED");
}

#[tokio::test]
async fn a_stale_version_is_refused_with_the_current_state_and_a_repeated_key_applies_once() {
    let addr = server().await;
    let (id, host, guest, host_seat) = started(addr).await;
    let (mover, other) = if host_seat == Player::P0 {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let now = view(addr, &id, Some(mover)).await;
    let version = now["version"].as_u64().expect("a version");
    let legal = now["view"]["match"]["legal"][0].clone();
    let command = json!({"type": "play", "command": legal});
    // Sent against an old version: refused, with the state to adopt.
    let stale = send(addr, &id, mover, version - 1, "a", command.clone()).await;
    assert_error(&stale, 409, "STALE_VERSION");
    assert_eq!(stale.json()["details"]["version"], version);
    assert_eq!(stale.json()["details"]["view"], now["view"]);
    // Applied once, however often it is sent with its key.
    let first = send(addr, &id, mover, version, "once", command.clone()).await;
    assert_eq!(
        first.status,
        200,
        "{}",
        String::from_utf8_lossy(&first.body)
    );
    assert_eq!(first.json()["replayed"], false);
    let again = send(addr, &id, mover, version, "once", command).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["replayed"], true);
    assert_eq!(again.json()["version"], version + 1);
    assert_eq!(view(addr, &id, None).await["version"], version + 1);
    // The other seat may not act for the mover, and a refused rule changes nothing.
    let r = send(
        addr,
        &id,
        other,
        version + 1,
        "b",
        json!({"type": "play", "command": {"DrawAndEndTurn": {"deck": "Troop"}}}),
    )
    .await;
    assert!(r.status == 409, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["details"]["version"], version + 1);
    assert_eq!(view(addr, &id, None).await["version"], version + 1);
}

/// A small generator for choosing among legal commands (the test's own, seeded).
fn pick(state: &mut u64, len: usize) -> usize {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    usize::try_from(*state >> 33).unwrap_or(0) % len
}

#[tokio::test]
async fn random_legal_games_through_the_api_end_as_the_same_commands_played_locally() {
    // The test server deals every match from its --seed (7), so the same commands
    // can be played on a local game.
    let addr = server().await;
    for round in 0..2u64 {
        let (id, host, guest, host_seat) = started(addr).await;
        let mut local = Game::new(7, Settings::default());
        let mut chooser = 0x9e37_79b9 + round;
        let mut step = 0;
        while !local.is_over() && step < 400 {
            let current = local.current();
            let token = if current == host_seat { &host } else { &guest };
            let seen = view(addr, &id, Some(token)).await;
            let legal: Vec<Command> =
                serde_json::from_value(seen["view"]["match"]["legal"].clone()).expect("commands");
            assert_eq!(legal, local.legal_commands(), "step {step}");
            let command = legal[pick(&mut chooser, legal.len())];
            local.apply(command).expect("legal locally");
            let r = send(
                addr,
                &id,
                token,
                seen["version"].as_u64().expect("a version"),
                &format!("s{step}"),
                json!({"type": "play", "command": command}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            step += 1;
        }
        for (token, seat) in [(&host, host_seat), (&guest, host_seat.opponent())] {
            let served = view(addr, &id, Some(token)).await["view"].clone();
            assert_eq!(
                served["match"],
                serde_json::to_value(local.view(seat)).expect("a view")
            );
            assert_eq!(
                served["seen"],
                serde_json::to_value(local.seen_in_other_hand(seat)).expect("cards")
            );
        }
    }
}

#[tokio::test]
async fn leaving_before_the_match_opens_the_seat_and_the_host_leaving_ends_the_room() {
    let addr = server().await;
    let (id, host) = make_room(addr, false).await;
    let guest = join(addr, &id, "Bo").await.json()["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let r = call(
        addr,
        "POST",
        &format!("/rooms/{id}/leave"),
        Some(&guest),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        join(addr, &id, "Cy").await.status,
        201,
        "the seat is open again"
    );
    let r = call(
        addr,
        "POST",
        &format!("/rooms/{id}/leave"),
        Some(&host),
        None,
    )
    .await;
    assert_eq!(r.json()["deleted"], true);
    assert_error(
        &call(addr, "GET", &format!("/rooms/{id}"), None, None).await,
        404,
        "ROOM_NOT_FOUND",
    );
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

async fn open_stream(addr: SocketAddr, id: &str, last: Option<u64>) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("server accepts");
    let last = last.map_or_else(String::new, |v| format!("Last-Event-ID: {v}\r\n"));
    let head = format!("GET {BL}/rooms/{id}/events HTTP/1.0\r\nHost: {addr}\r\n{last}\r\n");
    stream.write_all(head.as_bytes()).await.expect("write");
    stream
}

#[tokio::test]
async fn the_stream_sends_each_new_version_and_a_reconnect_gets_what_it_missed() {
    let addr = server().await;
    let (id, _) = make_room(addr, false).await;
    let mut stream = open_stream(addr, &id, None).await;
    assert!(
        wait_for(&mut stream, "id: 1\n").await,
        "the current version first"
    );
    assert_eq!(join(addr, &id, "Bo").await.status, 201);
    assert!(wait_for(&mut stream, "id: 2\n").await, "the join");
    drop(stream);
    // A client that saw version 1 reconnects: version 2 at once.
    let mut again = open_stream(addr, &id, Some(1)).await;
    assert!(wait_for(&mut again, "event: version\nid: 2\n").await);
    // The events carry versions only, never a view.
    let mut text = String::new();
    let _ = tokio::time::timeout(Duration::from_millis(200), async {
        let mut chunk = [0u8; 4096];
        if let Ok(n) = again.read(&mut chunk).await {
            text.push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    })
    .await;
    assert!(!text.contains("hand"));
}

#[tokio::test]
async fn rooms_nobody_changed_for_the_idle_time_are_removed() {
    let config = quantum_gomoku_server::ServerConfig {
        room_idle: Duration::from_millis(300),
        ..test_config()
    };
    let addr = start(config).await.addr;
    let (id, _) = make_room(addr, false).await;
    let until = tokio::time::Instant::now() + PATIENCE;
    loop {
        let r = call(addr, "GET", &format!("/rooms/{id}"), None, None).await;
        if r.status == 404 {
            break;
        }
        assert!(tokio::time::Instant::now() < until, "the idle room stayed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_room_in_play_survives_kill_9_of_the_server_on_sqlite() {
    use tokio::io::AsyncBufReadExt;
    let dir = std::env::temp_dir().join(format!("bl-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let db = dir.join("rooms.sqlite3");
    let db = db.to_str().expect("a UTF-8 path").to_owned();
    let spawn = || {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_quantum-gomoku-server"))
            .args(["--port", "0", "--create-burst", "0", "--db", &db])
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
            let addr: SocketAddr = line
                .rsplit("http://")
                .next()
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| panic!("no address in {line:?}"));
            (child, addr)
        }
    };
    let (mut first, addr) = spawn().await;
    let (id, host, guest, _) = started(addr).await;
    let before = (
        view(addr, &id, Some(&host)).await,
        view(addr, &id, Some(&guest)).await,
    );
    first.start_kill().expect("SIGKILL");
    let _ = first.wait().await;
    let (_second, addr) = spawn().await;
    // Both seats' tokens still hold their seats, at the same version and state.
    assert_eq!(view(addr, &id, Some(&host)).await, before.0);
    assert_eq!(view(addr, &id, Some(&guest)).await, before.1);
    let _ = std::fs::remove_dir_all(&dir);
}
