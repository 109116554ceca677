//! Online play's latencies on loopback: a move's round trip, and the time from
//! sending a move to its event arriving on another client's live stream.
//!
//! `cargo run --profile fast -p quantum-gomoku-server --example quantum-gomoku-server-stream
//! -- [--moves 400] [--postgres URL]` starts the server in this process once per store
//! (in memory, SQLite with `--db-sync full`, SQLite with `normal`, each on a fresh file
//! in the system's temporary folder, and PostgreSQL at URL when given), creates a seated game, joins its other seat, opens
//! its stream, then plays `--moves` moves one at a time on a kept-alive connection
//! (the board is reset when full), and prints the median, p99 and max of both.
//! With PostgreSQL it runs a second time with two instances on the database: the
//! moves go through the first, the stream is read from the second (the event
//! crosses instances by `NOTIFY` and one read of the game on the second).

use quantum_gomoku_server::{DbSync, ServerConfig, Storage, serve};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const API: &str = "/api/quantum-gomoku";
const SIZE: i64 = 15;

fn main() {
    let mut moves = 400usize;
    let mut postgres = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next();
        match (flag.as_str(), value) {
            ("--moves", Some(n)) if n.parse::<usize>().is_ok() => {
                moves = n.parse().unwrap_or(moves)
            }
            ("--postgres", Some(url)) => postgres = Some(url),
            _ => {
                eprintln!("usage: quantum-gomoku-server-stream [--moves N] [--postgres URL]");
                std::process::exit(2);
            }
        }
    }
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let dir = std::env::temp_dir().join(format!("qg-stream-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut stores = vec![
        ("memory", Storage::Memory, DbSync::Full, false),
        (
            "SQLite, --db-sync full",
            Storage::Sqlite(dir.join("full.sqlite3")),
            DbSync::Full,
            false,
        ),
        (
            "SQLite, --db-sync normal",
            Storage::Sqlite(dir.join("normal.sqlite3")),
            DbSync::Normal,
            false,
        ),
    ];
    if let Some(url) = postgres {
        stores.push((
            "PostgreSQL",
            Storage::Postgres(url.clone()),
            DbSync::Full,
            false,
        ));
        stores.push((
            "PostgreSQL, stream on another instance",
            Storage::Postgres(url),
            DbSync::Full,
            true,
        ));
    }
    println!("{moves} moves per store, one at a time, on loopback");
    for (name, storage, db_sync, two_instances) in stores {
        let config = ServerConfig {
            storage,
            db_sync,
            create_burst: 0,
            ..ServerConfig::default()
        };
        match runtime.block_on(run(config, moves, two_instances)) {
            Ok((round_trip, stream)) => println!(
                "{name}: move round trip {}; move sent -> event on another client's stream {}",
                summary(round_trip),
                summary(stream)
            ),
            Err(e) => println!("{name}: failed: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn summary(mut us: Vec<u128>) -> String {
    if us.is_empty() {
        return "no samples".to_owned();
    }
    us.sort_unstable();
    let at = |p: f64| {
        let i = ((us.len() - 1) as f64 * p).round() as usize;
        us[i] as f64 / 1000.0
    };
    format!(
        "median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

/// Starts a server in this process: its address, how to stop it, its task.
async fn launch(
    config: ServerConfig,
) -> Result<
    (
        SocketAddr,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<std::io::Result<()>>,
    ),
    String,
> {
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

/// Plays `moves` moves through one server; the stream is read from a second
/// server on the same store when `two_instances`.
async fn run(
    config: ServerConfig,
    moves: usize,
    two_instances: bool,
) -> Result<(Vec<u128>, Vec<u128>), String> {
    let (addr, stop, server) = launch(config.clone()).await?;
    let watcher = if two_instances {
        Some(launch(config).await?)
    } else {
        None
    };
    let watched = watcher.as_ref().map_or(addr, |(a, _, _)| *a);
    let mut conn = None;
    let (_, created) = exchange(
        &mut conn,
        addr,
        "POST",
        &format!("{API}/seated-games"),
        None,
        "{}",
    )
    .await?;
    let created: Value = serde_json::from_str(&created).map_err(|e| e.to_string())?;
    let id = created["gameId"].as_str().ok_or("no game id")?.to_owned();
    let black = created["seat"]["token"]
        .as_str()
        .ok_or("no token")?
        .to_owned();
    let (_, joined) = exchange(
        &mut conn,
        addr,
        "POST",
        &format!("{API}/games/{id}/seats"),
        None,
        "{}",
    )
    .await?;
    let joined: Value = serde_json::from_str(&joined).map_err(|e| e.to_string())?;
    let white = joined["token"].as_str().ok_or("no token")?.to_owned();

    // The stream is read by its own task, which stamps each event as it arrives.
    let mut events = Events::open(watched, &id).await?;
    let first = events.next().await?;
    let (tx, mut arrivals) = tokio::sync::mpsc::unbounded_channel::<(u64, Instant)>();
    let reader = tokio::spawn(async move {
        while let Ok(v) = events.next().await {
            if tx.send((v, Instant::now())).is_err() {
                break;
            }
        }
    });
    let mut version = first;
    let mut arrival = async |version: &mut u64| -> Result<Instant, String> {
        let (next, at) = tokio::time::timeout(Duration::from_secs(10), arrivals.recv())
            .await
            .map_err(|_| "no event within 10 s".to_owned())?
            .ok_or("the stream ended")?;
        if next != *version + 1 {
            return Err(format!("event {next} after {version}"));
        }
        *version = next;
        Ok(at)
    };
    let (mut round_trip, mut stream) = (Vec::new(), Vec::new());
    let mut turn = 0i64;
    for _ in 0..moves {
        if turn == SIZE * SIZE {
            let (status, _) = exchange(
                &mut conn,
                addr,
                "POST",
                &format!("{API}/games/{id}/reset"),
                Some(&black),
                "{}",
            )
            .await?;
            if status != 200 {
                return Err(format!("reset answered {status}"));
            }
            arrival(&mut version).await?;
            turn = 0;
        }
        let (player, token) = if turn % 2 == 0 {
            ("BLACK", &black)
        } else {
            ("WHITE", &white)
        };
        let body = format!(
            r#"{{"playerId":"{player}","position":{{"row":{},"col":{}}}}}"#,
            turn / SIZE,
            turn % SIZE
        );
        let sent = Instant::now();
        let (status, _) = exchange(
            &mut conn,
            addr,
            "POST",
            &format!("{API}/games/{id}/moves"),
            Some(token),
            &body,
        )
        .await?;
        let answered = sent.elapsed();
        if status != 200 {
            return Err(format!("a move answered {status}"));
        }
        let arrived = arrival(&mut version).await?.duration_since(sent);
        round_trip.push(answered.as_micros());
        stream.push(arrived.as_micros());
        turn += 1;
    }
    reader.abort();
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    if let Some((_, stop, server)) = watcher {
        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    }
    Ok((round_trip, stream))
}

/// A live stream read over HTTP/1.0 (raw event text, ended by close).
struct Events {
    stream: BufReader<TcpStream>,
}

impl Events {
    async fn open(addr: SocketAddr, id: &str) -> Result<Events, String> {
        let mut tcp = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        tcp.set_nodelay(true).map_err(|e| e.to_string())?;
        let head = format!("GET {API}/games/{id}/events HTTP/1.0\r\nHost: {addr}\r\n\r\n");
        tcp.write_all(head.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut stream = BufReader::new(tcp);
        let mut line = String::new();
        loop {
            line.clear();
            let n = stream
                .read_line(&mut line)
                .await
                .map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the stream closed before its head ended".to_owned());
            }
            if line == "\r\n" {
                return Ok(Events { stream });
            }
        }
    }

    /// The id of the next state event.
    async fn next(&mut self) -> Result<u64, String> {
        let mut line = String::new();
        let mut id = None;
        loop {
            line.clear();
            let read =
                tokio::time::timeout(Duration::from_secs(10), self.stream.read_line(&mut line))
                    .await
                    .map_err(|_| "no event within 10 s".to_owned())?
                    .map_err(|e| e.to_string())?;
            if read == 0 {
                return Err("the stream closed".to_owned());
            }
            let line = line.trim_end();
            if let Some(v) = line.strip_prefix("id:") {
                id = v.trim().parse().ok();
            } else if line.is_empty() && id.is_some() {
                return id.ok_or_else(|| "no id".to_owned());
            }
        }
    }
}

/// One request on the kept-alive connection (opened if needed); (status, body).
async fn exchange(
    conn: &mut Option<BufReader<TcpStream>>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Result<(u16, String), String> {
    if conn.is_none() {
        let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        *conn = Some(BufReader::new(stream));
    }
    let stream = conn.as_mut().ok_or("no connection")?;
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}\
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
    let status = line
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
    Ok((status, String::from_utf8_lossy(&text).into_owned()))
}
