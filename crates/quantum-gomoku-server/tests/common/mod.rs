//! A server on a free loopback port and a minimal hand-written HTTP/1.1 client,
//! shared by the HTTP test files.
#![allow(dead_code)] // each test file uses a different subset

use quantum_gomoku_server::{ServerConfig, Storage, serve};
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub const API: &str = "/api/quantum-gomoku";

/// Longest any test waits for something that should happen at once.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A running server: its address and a way to stop it.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    pub done: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Sends the shutdown signal; `done` resolves when `serve` returns.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub async fn start(config: ServerConfig) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free loopback port");
    let addr = listener.local_addr().expect("bound");
    let (stop, stopped) = oneshot::channel::<()>();
    let done = tokio::spawn(serve(listener, config, async move {
        // A dropped `Server` (most tests keep only the address) never stops.
        if stopped.await.is_err() {
            std::future::pending::<()>().await;
        }
    }));
    Server {
        addr,
        stop: Some(stop),
        done,
    }
}

/// Where the tests' servers keep games: in memory, or with
/// `QG_TEST_STORAGE=sqlite` (how `scripts/dev test` runs the seed's acceptance
/// checks and the hardening checks a second time) each server in a fresh SQLite
/// file under one folder per test process.
pub fn test_storage() -> Storage {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    match std::env::var("QG_TEST_STORAGE").as_deref() {
        Ok("sqlite") => {}
        Ok("postgres") => {
            // A fresh database per server on the cluster QG_TEST_POSTGRES names
            // (`postgres://user@host:port/postgres`).
            let admin = std::env::var("QG_TEST_POSTGRES").expect("QG_TEST_POSTGRES");
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = format!("qg_test_{}_{n}", std::process::id());
            let url = admin
                .rsplit_once('/')
                .map(|(server, _)| format!("{server}/{name}"))
                .expect("a URL ending in a database name");
            // The synchronous client runs its own runtime: not on the test's thread.
            std::thread::spawn(move || {
                let mut client =
                    postgres::Client::connect(&admin, postgres::NoTls).expect("the test cluster");
                client
                    .batch_execute(&format!("CREATE DATABASE {name}"))
                    .expect("a test database");
            })
            .join()
            .expect("the database is created");
            return Storage::Postgres(url);
        }
        _ => return Storage::Memory,
    }
    let root = std::env::temp_dir().join("qg-test-stores");
    let dir = root.join(std::process::id().to_string());
    if NEXT.fetch_add(1, Ordering::Relaxed) == 0 {
        // Folders of earlier runs whose process has ended.
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let pid = entry.file_name();
            if !Path::new("/proc").join(&pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    std::fs::create_dir_all(&dir).expect("a folder for the test databases");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Storage::Sqlite(dir.join(format!("games-{n}.sqlite3")))
}

/// The configuration most tests use: reproducible observations, client seeds
/// accepted, no creation limit, short timeouts.
pub fn test_config() -> ServerConfig {
    ServerConfig {
        storage: test_storage(),
        seed: Some(7),
        allow_client_seed: true,
        max_games: 50,
        create_burst: 0,
        header_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..ServerConfig::default()
    }
}

pub async fn server() -> SocketAddr {
    start(test_config()).await.addr
}

pub struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", String::from_utf8_lossy(&self.body)))
    }

    /// The value of header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().skip(1).find_map(|line| {
            let (k, v) = line.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_owned())
        })
    }
}

/// A connection from the loopback address `from` (any 127.0.0.0/8 address
/// reaches the server, so tests can act as several clients).
pub async fn connect_from(from: IpAddr, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(from, 0))
        .expect("a loopback source address");
    socket.connect(addr).await.expect("server accepts")
}

/// Sends one request (`Connection: close`) and reads the whole answer.
pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let stream = TcpStream::connect(addr).await.expect("server accepts");
    raw_on(stream, addr, method, path, headers, body).await
}

pub async fn raw_on(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.expect("write head");
    // The server may answer (and close) before reading an oversized body.
    let _ = stream.write_all(body).await;
    read_reply(&mut stream).await
}

/// Reads until the server closes the connection and parses the answer.
pub async fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut buf)).await;
    parse_reply(&buf)
}

pub fn parse_reply(buf: &[u8]) -> Reply {
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| {
            panic!(
                "no complete response head in {:?}",
                String::from_utf8_lossy(buf)
            )
        });
    let headers = String::from_utf8_lossy(&buf[..split]).into_owned();
    let status = headers
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let mut body = buf[split + 4..].to_vec();
    if headers
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..eol]).trim(), 16)
            .expect("chunk size");
        if size == 0 {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[eol + 4 + size..];
    }
    out
}

/// Whether the server closed `stream` (end of file or reset) within `within`.
pub async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut sink = [0u8; 4096];
    let until_closed = async {
        loop {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, until_closed).await.is_ok()
}

pub async fn post_json(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    let bytes = body.to_string();
    raw(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        bytes.as_bytes(),
    )
    .await
}

pub async fn get(addr: SocketAddr, path: &str) -> Reply {
    raw(addr, "GET", path, &[], b"").await
}

pub async fn create(addr: SocketAddr) -> String {
    let r = raw(addr, "POST", &format!("{API}/games"), &[], b"").await;
    assert_eq!(r.status, 201, "{:?}", String::from_utf8_lossy(&r.body));
    r.json()["gameId"].as_str().expect("an id").to_owned()
}

pub async fn place(addr: SocketAddr, id: &str, player: &str, row: i64, col: i64) -> Reply {
    post_json(
        addr,
        &format!("{API}/games/{id}/moves"),
        &json!({"playerId": player, "position": {"row": row, "col": col}}),
    )
    .await
}

pub async fn observe(addr: SocketAddr, id: &str, player: &str, seed: Option<u64>) -> Reply {
    let body = match seed {
        Some(s) => json!({"playerId": player, "seed": s}),
        None => json!({"playerId": player}),
    };
    post_json(addr, &format!("{API}/games/{id}/observations"), &body).await
}

pub fn assert_error(r: &Reply, status: u16, code: &str) {
    assert_eq!(r.status, status, "{:?}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["code"], code);
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(
        r.headers
            .to_ascii_lowercase()
            .contains("content-type: application/json")
    );
}
