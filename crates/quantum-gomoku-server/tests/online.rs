//! Online play over real HTTP: seats and their tokens, the capabilities route,
//! and the live stream of a game (`GET /games/:id/events`), in memory and on
//! SQLite; games without seats keep seed 003's contract.

mod common;

use common::*;
use quantum_gomoku_server::{ServerConfig, Storage};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long the other browser may wait for a move it did not make (issue 24).
const LIVE: Duration = Duration::from_millis(200);

async fn post_as(addr: SocketAddr, path: &str, token: Option<&str>, body: &Value) -> Reply {
    let bytes = body.to_string();
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(auth) = &auth {
        headers.push(("Authorization", auth));
    }
    raw(addr, "POST", path, &headers, bytes.as_bytes()).await
}

async fn move_as(
    addr: SocketAddr,
    id: &str,
    token: Option<&str>,
    player: &str,
    row: i64,
    col: i64,
) -> Reply {
    post_as(
        addr,
        &format!("{API}/games/{id}/moves"),
        token,
        &json!({"playerId": player, "position": {"row": row, "col": col}}),
    )
    .await
}

async fn observe_as(addr: SocketAddr, id: &str, token: Option<&str>, player: &str) -> Reply {
    post_as(
        addr,
        &format!("{API}/games/{id}/observations"),
        token,
        &json!({"playerId": player, "seed": 3}),
    )
    .await
}

/// Creates a seated game with the creator as `player`: (id, token).
async fn create_seated(addr: SocketAddr, player: &str) -> (String, String) {
    let r = post_as(
        addr,
        &format!("{API}/seated-games"),
        None,
        &json!({"playerId": player, "boardSize": 9}),
    )
    .await;
    assert_eq!(r.status, 201, "{:?}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["seat"]["playerId"], player);
    assert_eq!(v["version"], 1);
    assert_eq!(v["gameState"]["board"].as_array().map(Vec::len), Some(9));
    let id = v["gameId"].as_str().expect("an id").to_owned();
    let token = v["seat"]["token"].as_str().expect("a token").to_owned();
    (id, token)
}

async fn join(addr: SocketAddr, id: &str, body: &Value) -> Reply {
    post_as(addr, &format!("{API}/games/{id}/seats"), None, body).await
}

async fn turn_count(addr: SocketAddr, id: &str) -> u64 {
    get(addr, &format!("{API}/games/{id}")).await.json()["gameState"]["turnCount"]
        .as_u64()
        .expect("a turn count")
}

#[tokio::test]
async fn a_seated_game_takes_moves_only_with_the_token_of_the_movers_seat() {
    let addr = server().await;
    let (id, black) = create_seated(addr, "BLACK").await;
    assert_error(
        &move_as(addr, &id, None, "BLACK", 4, 4).await,
        401,
        "SEAT_TOKEN_REQUIRED",
    );
    let wrong = move_as(addr, &id, Some("not-the-token"), "BLACK", 4, 4).await;
    assert_error(&wrong, 403, "NOT_YOUR_SEAT");
    assert_eq!(
        turn_count(addr, &id).await,
        0,
        "a refused move changed the game"
    );
    assert_eq!(
        move_as(addr, &id, Some(&black), "BLACK", 4, 4).await.status,
        200
    );
    // White's seat is open: nobody, black included, may move for it yet.
    assert_error(
        &move_as(addr, &id, Some(&black), "WHITE", 0, 0).await,
        403,
        "NOT_YOUR_SEAT",
    );
    let joined = join(addr, &id, &json!({})).await;
    assert_eq!(joined.status, 201);
    assert_eq!(joined.json()["playerId"], "WHITE");
    let white = joined.json()["token"].as_str().expect("a token").to_owned();
    assert_ne!(white, black);
    assert_eq!(
        move_as(addr, &id, Some(&white), "WHITE", 0, 0).await.status,
        200
    );
    // Observations are the seat's too.
    let stolen = observe_as(addr, &id, Some(&black), "WHITE").await;
    assert_error(&stolen, 403, "NOT_YOUR_SEAT");
    assert_error(
        &observe_as(addr, &id, None, "WHITE").await,
        401,
        "SEAT_TOKEN_REQUIRED",
    );
    let seen = observe_as(addr, &id, Some(&white), "WHITE").await;
    assert_eq!(
        seen.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&seen.body)
    );
    assert!(seen.json()["observationResult"].is_object());
}

#[tokio::test]
async fn someone_with_only_the_id_can_read_and_watch_but_not_move_join_reset_or_delete() {
    let addr = server().await;
    let (id, white) = create_seated(addr, "WHITE").await;
    let joined = join(addr, &id, &json!({"playerId": "BLACK"})).await;
    assert_eq!(joined.json()["playerId"], "BLACK");
    let black = joined.json()["token"].as_str().expect("a token").to_owned();
    assert_eq!(
        move_as(addr, &id, Some(&black), "BLACK", 1, 1).await.status,
        200
    );
    // Both seats are taken.
    assert_error(&join(addr, &id, &json!({})).await, 409, "SEAT_TAKEN");
    assert_error(
        &join(addr, &id, &json!({"playerId": "WHITE"})).await,
        409,
        "SEAT_TAKEN",
    );
    // Reading the game and its seats needs no token, and shows none.
    let read = get(addr, &format!("{API}/games/{id}")).await;
    assert_eq!(read.status, 200);
    assert_eq!(read.json()["gameState"]["turnCount"], 1);
    let seats = get(addr, &format!("{API}/games/{id}/seats")).await;
    assert_eq!(
        seats.json(),
        json!({"seated": true, "blackTaken": true, "whiteTaken": true})
    );
    for t in [&black, &white] {
        assert!(!String::from_utf8_lossy(&seats.body).contains(t.as_str()));
        assert!(!String::from_utf8_lossy(&read.body).contains(t.as_str()));
    }
    assert_error(
        &move_as(addr, &id, None, "WHITE", 2, 2).await,
        401,
        "SEAT_TOKEN_REQUIRED",
    );
    let reset = post_as(addr, &format!("{API}/games/{id}/reset"), None, &json!({})).await;
    assert_error(&reset, 401, "SEAT_TOKEN_REQUIRED");
    let delete = raw(
        addr,
        "DELETE",
        &format!("{API}/games/{id}"),
        &[("Authorization", "Bearer guess")],
        b"",
    )
    .await;
    assert_error(&delete, 403, "NOT_YOUR_SEAT");
    assert_eq!(turn_count(addr, &id).await, 1);
    // Either seat may reset or delete.
    let reset = post_as(
        addr,
        &format!("{API}/games/{id}/reset"),
        Some(&white),
        &json!({}),
    )
    .await;
    assert_eq!(reset.status, 200);
    assert_eq!(reset.json()["gameState"]["turnCount"], 0);
    let auth = format!("Bearer {black}");
    let delete = raw(
        addr,
        "DELETE",
        &format!("{API}/games/{id}"),
        &[("Authorization", &auth)],
        b"",
    )
    .await;
    assert_eq!(delete.status, 200);
    assert_eq!(get(addr, &format!("{API}/games/{id}")).await.status, 404);
}

#[tokio::test]
async fn a_game_without_seats_ignores_tokens_and_answers_exactly_as_seed_003() {
    let addr = server().await;
    let created = raw(addr, "POST", &format!("{API}/games"), &[], b"").await;
    assert_eq!(created.status, 201);
    let keys: Vec<String> = created
        .json()
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["gameId", "gameState"]);
    let id = created.json()["gameId"].as_str().expect("an id").to_owned();
    let moved = move_as(addr, &id, Some("anything"), "BLACK", 1, 1).await;
    assert_eq!(moved.status, 200);
    let keys: Vec<String> = moved
        .json()
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["gameState"]);
    assert_eq!(move_as(addr, &id, None, "WHITE", 2, 2).await.status, 200);
    assert_error(&join(addr, &id, &json!({})).await, 409, "NOT_SEATED");
    assert_eq!(
        get(addr, &format!("{API}/games/{id}/seats")).await.json(),
        json!({"seated": false, "blackTaken": false, "whiteTaken": false})
    );
    assert_eq!(turn_count(addr, &id).await, 2);
}

#[tokio::test]
async fn bad_seat_requests_get_typed_errors_and_change_nothing() {
    let addr = server().await;
    let bad_body = post_as(
        addr,
        &format!("{API}/seated-games"),
        None,
        &json!({"playerId": "RED"}),
    )
    .await;
    assert_error(&bad_body, 400, "INVALID_REQUEST");
    let unknown = post_as(
        addr,
        &format!("{API}/seated-games"),
        None,
        &json!({"seats": 3}),
    )
    .await;
    assert_error(&unknown, 400, "INVALID_REQUEST");
    let options = post_as(
        addr,
        &format!("{API}/seated-games"),
        None,
        &json!({"boardSize": 2}),
    )
    .await;
    assert_error(&options, 400, "INVALID_OPTIONS");
    assert_error(&join(addr, "nope", &json!({})).await, 400, "INVALID_ID");
    let missing = "123e4567-e89b-42d3-a456-426614174000";
    assert_error(&join(addr, missing, &json!({})).await, 404, "NOT_FOUND");
    let (id, _) = create_seated(addr, "BLACK").await;
    assert_error(
        &join(addr, &id, &json!({"playerId": "GREEN"})).await,
        400,
        "INVALID_REQUEST",
    );
    assert_error(
        &join(addr, &id, &json!({"playerId": "BLACK"})).await,
        409,
        "SEAT_TAKEN",
    );
    // The white seat is still open after those refusals.
    assert_eq!(
        join(addr, &id, &json!({})).await.json()["playerId"],
        "WHITE"
    );
    // A join is a write: a foreign page may not take a seat.
    let foreign = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/seats"),
        &[
            ("Origin", "http://evil.example"),
            ("Content-Type", "application/json"),
        ],
        b"{}",
    )
    .await;
    assert_error(&foreign, 403, "FORBIDDEN_ORIGIN");
}

#[tokio::test]
async fn the_capabilities_route_names_the_online_features_and_the_storage() {
    let config = test_config();
    let storage = match config.storage {
        Storage::Memory => "memory",
        Storage::Sqlite(_) => "sqlite",
        Storage::Postgres(_) => "postgres",
    };
    let addr = start(config).await.addr;
    let r = get(addr, &format!("{API}/capabilities")).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({"api": "quantum-gomoku", "seats": true, "events": true, "storage": storage})
    );
}

/// A live stream read over HTTP/1.0 (the body is the raw event text, ended by close).
struct Events {
    stream: TcpStream,
    buf: String,
    status: u16,
    head: String,
}

/// One event: its `event:`, `id:` and `data:` fields.
#[derive(Debug)]
struct Sse {
    event: String,
    id: Option<u64>,
    data: Value,
}

impl Events {
    async fn open(addr: SocketAddr, id: &str, last_event_id: Option<u64>) -> Events {
        let mut stream = TcpStream::connect(addr).await.expect("server accepts");
        let mut head = format!(
            "GET {API}/games/{id}/events HTTP/1.0\r\nHost: {addr}\r\nAccept: text/event-stream\r\n"
        );
        if let Some(last) = last_event_id {
            head.push_str(&format!("Last-Event-ID: {last}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await.expect("write");
        let mut events = Events {
            stream,
            buf: String::new(),
            status: 0,
            head: String::new(),
        };
        while !events.buf.contains("\r\n\r\n") {
            if !events.fill(PATIENCE).await {
                break;
            }
        }
        let (head, rest) = events.buf.split_once("\r\n\r\n").map_or_else(
            || (events.buf.clone(), String::new()),
            |(h, r)| (h.to_owned(), r.to_owned()),
        );
        events.status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        events.head = head;
        events.buf = rest;
        events
    }

    /// Reads more bytes; false on close or after `within`.
    async fn fill(&mut self, within: Duration) -> bool {
        let mut chunk = [0u8; 4096];
        match tokio::time::timeout(within, self.stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => {
                self.buf.push_str(&String::from_utf8_lossy(&chunk[..n]));
                true
            }
            _ => false,
        }
    }

    /// The next event (comments skipped) within `within`, if any.
    async fn next(&mut self, within: Duration) -> Option<Sse> {
        let until = Instant::now() + within;
        loop {
            while let Some((block, rest)) = self
                .buf
                .split_once("\n\n")
                .map(|(b, r)| (b.to_owned(), r.to_owned()))
            {
                self.buf = rest;
                let mut event = String::from("message");
                let mut id = None;
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("id:") {
                        id = v.trim().parse().ok();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim());
                    }
                }
                if block
                    .lines()
                    .all(|l| l.starts_with(':') || l.starts_with("retry:") || l.is_empty())
                {
                    continue;
                }
                let data = serde_json::from_str(&data).expect("JSON data");
                return Some(Sse { event, id, data });
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.fill(left).await {
                return None;
            }
        }
    }
}

#[tokio::test]
async fn the_stream_sends_the_state_then_every_accepted_command_within_200_ms() {
    let addr = server().await;
    let (id, black) = create_seated(addr, "BLACK").await;
    let white = join(addr, &id, &json!({})).await.json()["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let mut watcher = Events::open(addr, &id, None).await;
    assert_eq!(watcher.status, 200);
    assert!(
        watcher
            .head
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream")
    );
    let first = watcher.next(PATIENCE).await.expect("the current state");
    assert_eq!((first.event.as_str(), first.id), ("state", Some(1)));
    assert_eq!(first.data["version"], 1);
    assert_eq!(first.data["gameState"]["turnCount"], 0);
    let sent = Instant::now();
    let answer = move_as(addr, &id, Some(&black), "BLACK", 3, 3).await;
    assert_eq!(answer.status, 200);
    let moved = watcher.next(PATIENCE).await.expect("the move");
    let latency = sent.elapsed();
    assert!(
        latency < LIVE,
        "the move reached the stream after {latency:?}"
    );
    assert_eq!(moved.id, Some(2));
    assert_eq!(moved.data["gameState"], answer.json()["gameState"]);
    // A refused command sends nothing; the next accepted one is the next version.
    assert_error(
        &move_as(addr, &id, Some(&black), "BLACK", 4, 4).await,
        409,
        "OUT_OF_TURN",
    );
    assert_eq!(
        move_as(addr, &id, Some(&white), "WHITE", 4, 4).await.status,
        200
    );
    let seen = observe_as(addr, &id, Some(&white), "WHITE").await;
    assert_eq!(seen.status, 200);
    let after_move = watcher.next(PATIENCE).await.expect("white's move");
    assert_eq!(after_move.id, Some(3));
    let after_observation = watcher.next(PATIENCE).await.expect("the observation");
    assert_eq!(after_observation.id, Some(4));
    assert_eq!(
        after_observation.data["gameState"],
        seen.json()["gameState"]
    );
    // Each event holds what a page needs to draw the game.
    assert_eq!(
        after_observation.data["options"],
        json!({"boardSize": 9, "winLength": 3})
    );
    assert_eq!(
        after_observation.data["lastObservation"],
        seen.json()["observationResult"]
    );
    assert!(moved.data["lastObservation"].is_null());
}

#[tokio::test]
async fn a_stream_resumed_with_last_event_id_gets_the_state_it_missed_and_nothing_it_has() {
    let addr = server().await;
    let id = create(addr).await;
    assert_eq!(place(addr, &id, "BLACK", 1, 1).await.status, 200);
    assert_eq!(place(addr, &id, "WHITE", 2, 2).await.status, 200);
    // The client saw version 1 before its connection dropped: it gets version 3.
    let mut behind = Events::open(addr, &id, Some(1)).await;
    let caught_up = behind.next(PATIENCE).await.expect("the current state");
    assert_eq!(caught_up.id, Some(3));
    assert_eq!(caught_up.data["gameState"]["turnCount"], 2);
    // A client that is up to date gets nothing until the next change.
    let mut current = Events::open(addr, &id, Some(3)).await;
    assert!(current.next(Duration::from_millis(300)).await.is_none());
    assert_eq!(place(addr, &id, "BLACK", 3, 3).await.status, 200);
    assert_eq!(current.next(PATIENCE).await.expect("the move").id, Some(4));
    assert_eq!(behind.next(PATIENCE).await.expect("the move").id, Some(4));
}

#[tokio::test]
async fn deleting_a_game_ends_its_streams_with_a_deleted_event() {
    let addr = server().await;
    let id = create(addr).await;
    let mut watcher = Events::open(addr, &id, None).await;
    assert_eq!(watcher.next(PATIENCE).await.expect("the state").id, Some(1));
    let deleted = raw(addr, "DELETE", &format!("{API}/games/{id}"), &[], b"").await;
    assert_eq!(deleted.status, 200);
    let last = watcher.next(PATIENCE).await.expect("the deletion");
    assert_eq!(last.event, "deleted");
    assert!(!watcher.fill(PATIENCE).await, "the stream stays open");
}

#[tokio::test]
async fn the_stream_of_a_missing_or_malformed_game_is_refused_in_the_error_model() {
    let addr = server().await;
    let missing = get(
        addr,
        &format!("{API}/games/123e4567-e89b-42d3-a456-426614174000/events"),
    )
    .await;
    assert_error(&missing, 404, "NOT_FOUND");
    assert_error(
        &get(addr, &format!("{API}/games/x/events")).await,
        400,
        "INVALID_ID",
    );
}

#[tokio::test]
async fn seats_streams_and_capabilities_work_on_sqlite_and_seats_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("qg-online-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let config = || ServerConfig {
        storage: Storage::Sqlite(dir.join("games.sqlite3")),
        ..test_config()
    };
    let mut first = start(config()).await;
    let addr = first.addr;
    assert_eq!(
        get(addr, &format!("{API}/capabilities")).await.json()["storage"],
        "sqlite"
    );
    let (id, black) = create_seated(addr, "BLACK").await;
    let mut watcher = Events::open(addr, &id, None).await;
    assert_eq!(watcher.next(PATIENCE).await.expect("the state").id, Some(1));
    assert_eq!(
        move_as(addr, &id, Some(&black), "BLACK", 0, 0).await.status,
        200
    );
    assert_eq!(watcher.next(PATIENCE).await.expect("the move").id, Some(2));
    drop(watcher);
    first.stop();
    let _ = tokio::time::timeout(PATIENCE, &mut first.done).await;
    let second = start(config()).await;
    let addr = second.addr;
    // The stored version goes on: a client resuming from 2 is up to date.
    let mut resumed = Events::open(addr, &id, Some(2)).await;
    assert!(resumed.next(Duration::from_millis(300)).await.is_none());
    let white = join(addr, &id, &json!({})).await;
    assert_eq!(white.json()["playerId"], "WHITE");
    let white = white.json()["token"].as_str().expect("a token").to_owned();
    assert_error(
        &move_as(addr, &id, Some(&black), "WHITE", 1, 1).await,
        403,
        "NOT_YOUR_SEAT",
    );
    assert_eq!(
        move_as(addr, &id, Some(&white), "WHITE", 1, 1).await.status,
        200
    );
    assert_eq!(resumed.next(PATIENCE).await.expect("the move").id, Some(3));
    assert_error(&join(addr, &id, &json!({})).await, 409, "SEAT_TAKEN");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_stream_stays_open_past_the_request_timeout() {
    let addr = start(ServerConfig {
        request_timeout: Duration::from_millis(500),
        ..test_config()
    })
    .await
    .addr;
    let id = create(addr).await;
    let mut watcher = Events::open(addr, &id, None).await;
    assert_eq!(watcher.next(PATIENCE).await.expect("the state").id, Some(1));
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(place(addr, &id, "BLACK", 0, 0).await.status, 200);
    assert_eq!(watcher.next(PATIENCE).await.expect("the move").id, Some(2));
}
