//! Load benchmark: a mixed API workload over keep-alive connections against the
//! server in a child process on loopback, bounded in requests and time.
//!
//! `cargo run --profile fast -p quantum-gomoku-server --example quantum-gomoku-server-bench
//! -- [--connections 32] [--requests 200000] [--seconds 20] [--fill 1000] [--db PATH [--db-sync-normal]]`
//! first fills the store (in memory, or with `--db` the SQLite file PATH, which is
//! removed first) with `--fill` games of six stones each (untimed), then runs the
//! workload and prints requests/s, latency percentiles, errors and the
//! server's resident memory.

use quantum_gomoku_server::{API_PREFIX, DbSync, ServerConfig, Storage, serve};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;

struct Options {
    connections: usize,
    requests: u64,
    seconds: u64,
    fill: u64,
    db: Option<String>,
    sync_normal: bool,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        connections: 32,
        requests: 200_000,
        seconds: 20,
        fill: 1000,
        db: None,
        sync_normal: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--db" {
            o.db = Some(args.next().ok_or("--db needs a value")?);
            continue;
        }
        if flag == "--db-sync-normal" {
            o.sync_normal = true;
            continue;
        }
        let mut value = || -> Result<u64, String> {
            let v = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            v.parse()
                .map_err(|_| format!("{flag} {v:?} is not a number"))
        };
        match flag.as_str() {
            "--connections" => o.connections = usize::try_from(value()?).unwrap_or(1).max(1),
            "--requests" => o.requests = value()?.max(1),
            "--seconds" => o.seconds = value()?.max(1),
            "--fill" => o.fill = value()?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--serve") {
        child_server();
        return;
    }
    let options = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let mut command = Command::new(exe);
    command.arg("--serve");
    command.env(
        "QG_BENCH_MAX_GAMES",
        options
            .fill
            .max(quantum_gomoku_server::DEFAULT_MAX_GAMES as u64)
            .to_string(),
    );
    if let Some(db) = &options.db {
        for file in [db.clone(), format!("{db}-wal"), format!("{db}-shm")] {
            let _ = std::fs::remove_file(file);
        }
        command.args(["--db", db]);
        if options.sync_normal {
            command.arg("--db-sync-normal");
        }
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("piped");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints its address");
    let addr: SocketAddr = line.trim().parse().expect("an address");
    let pid = child.id();
    let idle_rss = rss_kib(pid, "VmRSS");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let filling = std::time::Instant::now();
    let fill_errors = runtime.block_on(fill(addr, &options));
    let fill_time = filling.elapsed();
    let full_rss = rss_kib(pid, "VmRSS");
    let report = runtime.block_on(load(addr, &options));
    let rss = rss_kib(pid, "VmRSS");
    let peak = rss_kib(pid, "VmHWM");
    // Closing its stdin tells the server to shut down.
    drop(child.stdin.take());
    let _ = child.wait();
    println!(
        "quantum-gomoku-server, mixed workload, {} connections, loopback, games {}",
        options.connections,
        options
            .db
            .as_deref()
            .map_or("in memory".to_owned(), |d| format!(
                "in SQLite file {d}, synchronous={}",
                if options.sync_normal {
                    "NORMAL"
                } else {
                    "FULL"
                }
            ))
    );
    println!(
        "requests  {} in {:.2} s",
        report.done,
        report.elapsed.as_secs_f64()
    );
    println!(
        "rate      {:.0} requests/s",
        report.done as f64 / report.elapsed.as_secs_f64()
    );
    println!(
        "latency   p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        report.percentile(0.50),
        report.percentile(0.99),
        report.percentile(1.0)
    );
    println!("errors    {}", report.errors + fill_errors);
    println!(
        "fill      {} games created with six stones each in {:.2} s: {:.0} games/s (7 requests each)",
        options.fill,
        fill_time.as_secs_f64(),
        options.fill as f64 / fill_time.as_secs_f64()
    );
    println!(
        "server RSS idle {:.1} MB, {} games stored {:.1} MB, after the load {:.1} MB, peak {:.1} MB",
        idle_rss / 1024.0,
        options.fill,
        full_rss / 1024.0,
        rss / 1024.0,
        peak / 1024.0
    );
}

/// Resident memory of process `pid` in KiB (Linux), or NaN elsewhere.
fn rss_kib(pid: u32, field: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(f64::NAN)
}

/// The server as it runs in production, on a free loopback port, until stdin closes.
fn child_server() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        println!("{}", listener.local_addr().expect("bound"));
        let storage = match std::env::args().nth(2).as_deref() {
            Some("--db") => Storage::parse(&std::env::args().nth(3).expect("a path")),
            _ => Storage::Memory,
        };
        let db_sync = if std::env::args().nth(4).as_deref() == Some("--db-sync-normal") {
            DbSync::Normal
        } else {
            DbSync::Full
        };
        // Room for every game of the fill (`--fill` above the default bound).
        let max_games = std::env::var("QG_BENCH_MAX_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(quantum_gomoku_server::DEFAULT_MAX_GAMES);
        let config = ServerConfig {
            storage,
            db_sync,
            max_games,
            // The load generator is one address creating thousands of games.
            create_burst: 0,
            ..ServerConfig::default()
        };
        let stdin_closed = async {
            let mut stdin = AsyncBufReader::new(tokio::io::stdin());
            let mut sink = String::new();
            while stdin.read_line(&mut sink).await.is_ok_and(|n| n > 0) {}
        };
        serve(listener, config, stdin_closed).await.expect("serves");
    });
}

struct Report {
    done: u64,
    errors: u64,
    elapsed: Duration,
    latencies_us: Vec<u32>,
}

impl Report {
    fn percentile(&self, p: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return f64::NAN;
        }
        let i = ((self.latencies_us.len() - 1) as f64 * p).round() as usize;
        f64::from(self.latencies_us[i]) / 1000.0
    }
}

/// Creates `o.fill` games of six stones each (the store's memory when full);
/// returns the number of failed requests.
async fn fill(addr: SocketAddr, o: &Options) -> u64 {
    let next = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..o.connections)
        .map(|_| {
            let next = Arc::clone(&next);
            let total = o.fill;
            tokio::spawn(async move {
                let (mut conn, mut errors) = (None, 0u64);
                while next.fetch_add(1, Ordering::Relaxed) < total {
                    let mut id = String::new();
                    // A round's creation and its six moves, without the reads.
                    for step in [0, 1, 3, 5, 7, 9, 11] {
                        let (method, path, body, expect) = request(step, &id, 0);
                        match exchange(&mut conn, addr, method, &path, body.as_deref()).await {
                            Ok((status, text)) if status == expect => {
                                if step == 0 {
                                    id = game_id(&text);
                                }
                            }
                            _ => {
                                errors += 1;
                                conn = None;
                                break;
                            }
                        }
                    }
                }
                errors
            })
        })
        .collect();
    let mut errors = 0;
    for w in workers {
        errors += w.await.expect("worker");
    }
    errors
}

fn game_id(created: &str) -> String {
    created
        .split("\"gameId\":\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or("")
        .to_owned()
}

async fn load(addr: SocketAddr, o: &Options) -> Report {
    let budget = Arc::new(AtomicU64::new(o.requests));
    let deadline = Instant::now() + Duration::from_secs(o.seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..o.connections)
        .map(|w| {
            let budget = Arc::clone(&budget);
            tokio::spawn(worker(addr, w, budget, deadline))
        })
        .collect();
    let mut report = Report {
        done: 0,
        errors: 0,
        elapsed: Duration::ZERO,
        latencies_us: Vec::new(),
    };
    for w in workers {
        let (done, errors, latencies) = w.await.expect("worker");
        report.done += done;
        report.errors += errors;
        report.latencies_us.extend(latencies);
    }
    report.elapsed = started.elapsed();
    report.latencies_us.sort_unstable();
    report
}

/// One keep-alive connection playing rounds of: create, six moves with a read
/// after each, an observation, a read, a reset, a delete (17 requests).
async fn worker(
    addr: SocketAddr,
    w: usize,
    budget: Arc<AtomicU64>,
    deadline: Instant,
) -> (u64, u64, Vec<u32>) {
    let mut conn = None;
    let (mut done, mut errors, mut latencies) = (0u64, 0u64, Vec::new());
    let mut round = 0usize;
    'rounds: loop {
        let mut id = String::new();
        for step in 0..17 {
            if Instant::now() >= deadline
                || budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_err()
            {
                break 'rounds;
            }
            let (method, path, body, expect) = request(step, &id, w + round);
            let began = Instant::now();
            let result = exchange(&mut conn, addr, method, &path, body.as_deref()).await;
            latencies.push(u32::try_from(began.elapsed().as_micros()).unwrap_or(u32::MAX));
            done += 1;
            match result {
                Ok((status, text)) if status == expect => {
                    if step == 0 {
                        id = game_id(&text);
                    }
                }
                _ => {
                    errors += 1;
                    conn = None;
                    // Without a game the rest of the round would only fail.
                    continue 'rounds;
                }
            }
        }
        round += 1;
    }
    (done, errors, latencies)
}

/// The request of `step` in a round on game `id`; `salt` varies the cells.
fn request(step: usize, id: &str, salt: usize) -> (&'static str, String, Option<String>, u16) {
    let games = format!("{API_PREFIX}/games");
    let player = |i: usize| {
        if i.is_multiple_of(2) {
            "BLACK"
        } else {
            "WHITE"
        }
    };
    match step {
        0 => ("POST", games, None, 201),
        1..=12 => {
            let i = (step - 1) / 2;
            if step % 2 == 1 {
                let cell = (salt * 7 + i * 31) % 225;
                let body = format!(
                    r#"{{"playerId":"{}","position":{{"row":{},"col":{}}}}}"#,
                    player(i),
                    cell / 15,
                    cell % 15
                );
                ("POST", format!("{games}/{id}/moves"), Some(body), 200)
            } else {
                ("GET", format!("{games}/{id}"), None, 200)
            }
        }
        13 => {
            let body = r#"{"playerId":"WHITE"}"#.to_owned();
            (
                "POST",
                format!("{games}/{id}/observations"),
                Some(body),
                200,
            )
        }
        14 => ("GET", format!("{games}/{id}"), None, 200),
        15 => ("POST", format!("{games}/{id}/reset"), None, 200),
        _ => ("DELETE", format!("{games}/{id}"), None, 200),
    }
}

/// Sends one request on the kept-alive connection (opening one if needed)
/// and reads the answer by its Content-Length.
async fn exchange(
    conn: &mut Option<AsyncBufReader<TcpStream>>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> std::io::Result<(u16, String)> {
    if conn.is_none() {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        *conn = Some(AsyncBufReader::new(stream));
    }
    let Some(stream) = conn.as_mut() else {
        return Err(std::io::Error::other("no connection"));
    };
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.get_mut().write_all(head.as_bytes()).await?;
    let mut line = String::new();
    stream.read_line(&mut line).await?;
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
    let mut length = 0usize;
    loop {
        line.clear();
        stream.read_line(&mut line).await?;
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
    stream.read_exact(&mut text).await?;
    Ok((status, String::from_utf8_lossy(&text).into_owned()))
}
