//! Battle Line rooms held by one server: memory per room (in memory), and the time to
//! come back after a restart with stored rooms in play (SQLite).
//!
//! `cargo run --profile fast -p quantum-gomoku-server --example battle-line-rooms --
//! [--rooms 2000] [--stored 1000]` starts the server in this process on loopback. In
//! memory it makes `--rooms` rooms, each joined, its first-player game played and its
//! match dealt, and prints the process's resident memory before and after. On a fresh
//! SQLite file (`--db-sync normal`) it makes `--stored` such rooms with four moves
//! played in each, stops the server, starts a new one on the file and prints the time
//! to its first answer and until every room's view has been read back by its seat.

use quantum_gomoku_server::{DbSync, ServerConfig, Storage, serve};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const BL: &str = "/api/battle-line";

fn main() {
    let (mut rooms, mut stored) = (2000usize, 1000usize);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let n = args.next().and_then(|v| v.parse().ok());
        match (flag.as_str(), n) {
            ("--rooms", Some(n)) => rooms = n,
            ("--stored", Some(n)) => stored = n,
            _ => {
                eprintln!("usage: battle-line-rooms [--rooms N] [--stored N]");
                std::process::exit(2);
            }
        }
    }
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    if let Err(e) = runtime.block_on(memory(rooms)) {
        println!("in memory: failed: {e}");
    }
    let dir = std::env::temp_dir().join(format!("bl-rooms-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    if let Err(e) = runtime.block_on(restart(stored, dir.join("rooms.sqlite3"))) {
        println!("SQLite restart: failed: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

type Running = (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
);

async fn launch(config: ServerConfig) -> Result<Running, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, config, async move {
        let _ = stopped.await;
    }));
    Ok((addr, stop, server))
}

fn config(storage: Storage) -> ServerConfig {
    ServerConfig {
        storage,
        db_sync: DbSync::Normal,
        create_burst: 0,
        ..ServerConfig::default()
    }
}

/// A room joined, its first-player game played and its match dealt: (id, tokens).
async fn started_room(
    conn: &mut Option<BufReader<TcpStream>>,
    addr: SocketAddr,
) -> Result<(String, [String; 2]), String> {
    let made = call(
        conn,
        addr,
        "POST",
        "/rooms",
        None,
        &json!({"name": "r", "nickname": "h"}),
    )
    .await?;
    let id = made["roomId"].as_str().ok_or("no room id")?.to_owned();
    let host = made["token"].as_str().ok_or("no token")?.to_owned();
    let joined = call(
        conn,
        addr,
        "POST",
        &format!("/rooms/{id}/seats"),
        None,
        &json!({"nickname": "g"}),
    )
    .await?;
    let guest = joined["token"].as_str().ok_or("no token")?.to_owned();
    let path = format!("/rooms/{id}/commands");
    let pick = |v: u64, i: u8, k: &str| json!({"version": v, "key": k, "command": {"type": "pickCard", "index": i}});
    call(conn, addr, "POST", &path, Some(&host), &pick(2, 0, "a")).await?;
    let both = call(conn, addr, "POST", &path, Some(&guest), &pick(3, 1, "b")).await?;
    let winner = if both["view"]["first"]["winner"] == "host" {
        &host
    } else {
        &guest
    };
    let order =
        json!({"version": 4, "key": "c", "command": {"type": "chooseOrder", "first": true}});
    call(conn, addr, "POST", &path, Some(winner), &order).await?;
    Ok((id, [host, guest]))
}

async fn memory(rooms: usize) -> Result<(), String> {
    let (addr, stop, server) = launch(config(Storage::Memory)).await?;
    let mut conn = None;
    call(&mut conn, addr, "GET", "/rooms", None, &Value::Null).await?;
    let before = rss_kb();
    let t0 = Instant::now();
    for _ in 0..rooms {
        started_room(&mut conn, addr).await?;
    }
    let took = t0.elapsed();
    let after = rss_kb();
    println!(
        "in memory: {rooms} rooms dealt in {:.1} s ({:.0} rooms/s, 5 requests each); RSS {:.1} -> {:.1} MB, \
         about {:.2} KB a room",
        took.as_secs_f64(),
        rooms as f64 / took.as_secs_f64(),
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        (after.saturating_sub(before)) as f64 / rooms as f64
    );
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    Ok(())
}

async fn restart(stored: usize, file: std::path::PathBuf) -> Result<(), String> {
    let storage = Storage::Sqlite(file);
    let (addr, stop, server) = launch(config(storage.clone())).await?;
    let mut conn = None;
    let mut seats = Vec::with_capacity(stored);
    for _ in 0..stored {
        let (id, tokens) = started_room(&mut conn, addr).await?;
        // Four moves: whoever has legal commands plays the first of them.
        for _ in 0..4 {
            for token in &tokens {
                let now = call(
                    &mut conn,
                    addr,
                    "GET",
                    &format!("/rooms/{id}"),
                    Some(token),
                    &Value::Null,
                )
                .await?;
                let Some(command) = now["view"]["match"]["legal"].get(0).cloned() else {
                    continue;
                };
                let body = json!({"version": now["version"], "key": format!("m{}", now["version"]),
                    "command": {"type": "play", "command": command}});
                call(
                    &mut conn,
                    addr,
                    "POST",
                    &format!("/rooms/{id}/commands"),
                    Some(token),
                    &body,
                )
                .await?;
                break;
            }
        }
        seats.push((id, tokens[0].clone()));
    }
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    drop(conn);

    let t0 = Instant::now();
    let (addr, stop, server) = launch(config(storage)).await?;
    let mut conn = None;
    let (id, token) = &seats[0];
    call(
        &mut conn,
        addr,
        "GET",
        &format!("/rooms/{id}"),
        Some(token),
        &Value::Null,
    )
    .await?;
    let first = t0.elapsed();
    for (id, token) in &seats {
        let view = call(
            &mut conn,
            addr,
            "GET",
            &format!("/rooms/{id}"),
            Some(token),
            &Value::Null,
        )
        .await?;
        if view["view"]["match"]["hand"]
            .as_array()
            .is_none_or(Vec::is_empty)
        {
            return Err(format!("room {id} came back without its match"));
        }
    }
    let all = t0.elapsed();
    println!(
        "SQLite restart with {stored} rooms in play (4 moves each): first answer after {:.1} ms, \
         every room's view read back by its seat after {:.0} ms",
        first.as_secs_f64() * 1000.0,
        all.as_secs_f64() * 1000.0
    );
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    Ok(())
}

/// One request on the kept-alive connection (opened if needed): its JSON answer,
/// or an error for a status other than 2xx.
async fn call(
    conn: &mut Option<BufReader<TcpStream>>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Result<Value, String> {
    if conn.is_none() {
        let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        *conn = Some(BufReader::new(stream));
    }
    let stream = conn.as_mut().ok_or("no connection")?;
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let head = format!(
        "{method} {BL}{path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .get_mut()
        .write_all(head.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut line = String::new();
    stream
        .read_line(&mut line)
        .await
        .map_err(|e| e.to_string())?;
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line {line:?}"))?;
    let mut length = 0usize;
    loop {
        line.clear();
        stream
            .read_line(&mut line)
            .await
            .map_err(|e| e.to_string())?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut text = vec![0u8; length];
    stream
        .read_exact(&mut text)
        .await
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&text);
    if !(200..300).contains(&status) {
        return Err(format!("{method} {path} answered {status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| e.to_string())
}
