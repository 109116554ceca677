//! Command-line entry point: parses the flags, starts logging, then serves until Ctrl-C or SIGTERM.

use quantum_gomoku_server::{DEFAULT_DATABASE, DbSync, ServerConfig, Storage, serve};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
quantum-gomoku-server: the Quantum Gomoku HTTP API

USAGE: quantum-gomoku-server [FLAGS]

  --port N                port to listen on (default: $PORT, else 3000)
  --bind ADDR             address to bind (default: $BIND, else 127.0.0.1; 0.0.0.0 for the LAN)
  --static-dir DIR        also serve the files of DIR at / (the built browser page);
                          dotfiles and symlinks leading out of DIR are never served

Games
  --db PATH               keep games in the SQLite database file PATH (created if
                          missing), so they survive restarts and crashes; `--db memory`
                          keeps them in process memory only (default: quantum-gomoku.sqlite3
                          in the working directory); `--db postgres://user@host/dbname`
                          keeps them on a PostgreSQL server that several instances of this
                          server can share (tables created if missing). Also --database
  --db-sync full|normal   full (default): each command is on disk (fsync) before its
                          answer; normal: in the OS's cache, still safe from the server's
                          crash or kill -9 but not from a power cut, many times faster
  --db-pool N             most PostgreSQL connections of this instance (default 8)
  --room-idle-minutes N   Battle Line rooms nobody changed for N minutes are removed
                          (default 30)
  --max-games N           games kept; creating one more evicts (deletes) the least
                          recently used (default 1000)
  --create-burst N        games one client address may create at once (default 10)
  --creates-per-minute N  creations a minute an address regains after its burst
                          (default 30); 0 in either turns the limit off
  --seed N                make observations sent without a seed reproducible from N
                          (for tests; game ids always come from the OS's random source)
  --allow-client-seed     accept the `seed` field of observations (for tests: a client
                          that picks the seed picks the outcome); refused with 400 otherwise

Requests
  --allow-origin ORIGIN   also accept writes from pages of ORIGIN (scheme://host[:port]);
                          repeatable. Writes (POST, DELETE) from other foreign pages get 403
  --body-limit BYTES      largest request body (default 16384)
  --header-timeout SECS   time to send a request head; also the idle keep-alive limit (default 10)
  --request-timeout SECS  time from a request head to its response, body included (default 10)
  --max-connections N     connections open at once; more get 503 (default 512)
  --shutdown-grace SECS   on Ctrl-C/SIGTERM, time for responses in progress (default 5)

Logging: RUST_LOG (default info), e.g. RUST_LOG=quantum_gomoku_server=debug.
";

#[derive(Debug)]
struct Args {
    addr: SocketAddr,
    config: ServerConfig,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag} {v:?} is not a number"))
}

fn seconds(flag: &str, v: &str) -> Result<Duration, String> {
    let secs: f64 = number(flag, v)?;
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{flag} {v:?} is not a positive number of seconds"))
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut port: u16 = match std::env::var("PORT") {
        Ok(p) => p
            .parse()
            .map_err(|_| format!("PORT={p:?} is not a port number"))?,
        Err(_) => 3000,
    };
    let mut bind = std::env::var("BIND").unwrap_or_else(|_| "127.0.0.1".to_owned());
    let mut config = ServerConfig {
        storage: Storage::Sqlite(PathBuf::from(DEFAULT_DATABASE)),
        ..ServerConfig::default()
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => {
                let v = value()?;
                port = v
                    .parse()
                    .map_err(|_| format!("--port {v:?} is not a port number"))?;
            }
            "--bind" => bind = value()?,
            "--static-dir" => config.static_dir = Some(PathBuf::from(value()?)),
            "--db" | "--database" => config.storage = Storage::parse(&value()?),
            "--db-sync" => {
                let v = value()?;
                config.db_sync = DbSync::parse(&v)
                    .ok_or_else(|| format!("--db-sync {v:?} is neither full nor normal"))?;
            }
            "--db-pool" => config.db_pool = number(&flag, &value()?)?,
            "--room-idle-minutes" => {
                let minutes: f64 = number(&flag, &value()?)?;
                config.room_idle = Duration::try_from_secs_f64(minutes * 60.0)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| {
                        format!("--room-idle-minutes {minutes} is not a positive time")
                    })?;
            }
            "--max-games" => config.max_games = number(&flag, &value()?)?,
            "--create-burst" => config.create_burst = number(&flag, &value()?)?,
            "--creates-per-minute" => config.creates_per_minute = number(&flag, &value()?)?,
            "--seed" => config.seed = Some(number(&flag, &value()?)?),
            "--allow-client-seed" => config.allow_client_seed = true,
            "--allow-origin" => config.allowed_origins.push(value()?),
            "--body-limit" => config.body_limit = number(&flag, &value()?)?,
            "--header-timeout" => config.header_timeout = seconds(&flag, &value()?)?,
            "--request-timeout" => config.request_timeout = seconds(&flag, &value()?)?,
            "--max-connections" => config.max_connections = number(&flag, &value()?)?,
            "--shutdown-grace" => config.shutdown_grace = seconds(&flag, &value()?)?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if config.max_games == 0 || config.max_connections == 0 || config.db_pool == 0 {
        return Err("--max-games, --max-connections and --db-pool must be at least 1".to_owned());
    }
    let ip = bind
        .parse()
        .map_err(|_| format!("bind address {bind:?} is not an IP address"))?;
    Ok(Args {
        addr: SocketAddr::new(ip, port),
        config,
    })
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM; never, if neither can be watched.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("shutting down");
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) if msg.is_empty() => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("error: {msg}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    if let Some(dir) = args.config.static_dir.as_ref().filter(|d| !d.is_dir()) {
        eprintln!("error: --static-dir {} is not a directory", dir.display());
        return ExitCode::from(2);
    }
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    let shown = listener.local_addr().map_or(args.addr, |a| a);
    match &args.config.storage {
        Storage::Memory => tracing::warn!("--db memory: games are lost when the server stops"),
        Storage::Sqlite(path) => tracing::info!("games are kept in {}", path.display()),
        Storage::Postgres(_) => tracing::info!("games are kept in PostgreSQL"),
    }
    println!("quantum-gomoku-server listening on http://{shown}");
    if args.config.seed.is_some() || args.config.allow_client_seed {
        tracing::warn!(
            "--seed or --allow-client-seed is set: observation outcomes can be predicted or chosen; use them only for tests"
        );
    }
    match serve(listener, args.config, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[&str]) -> Result<Args, String> {
        parse_args(list.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn flags_override_defaults() {
        let a = parse(&[
            "--port",
            "8080",
            "--bind",
            "0.0.0.0",
            "--static-dir",
            "dist",
            "--max-games",
            "7",
            "--seed",
            "5",
            "--allow-client-seed",
            "--create-burst",
            "3",
            "--creates-per-minute",
            "0",
            "--allow-origin",
            "https://a.example",
            "--allow-origin",
            "https://b.example",
            "--header-timeout",
            "1.5",
            "--request-timeout",
            "2",
            "--max-connections",
            "9",
            "--shutdown-grace",
            "0.25",
            "--body-limit",
            "100",
            "--db",
            "/tmp/games.db",
            "--db-sync",
            "normal",
        ])
        .expect("valid flags");
        assert_eq!(a.addr.port(), 8080);
        assert!(a.addr.ip().is_unspecified());
        let c = &a.config;
        assert_eq!(c.static_dir, Some(PathBuf::from("dist")));
        assert_eq!(c.max_games, 7);
        assert_eq!(c.seed, Some(5));
        assert!(c.allow_client_seed);
        assert_eq!((c.create_burst, c.creates_per_minute), (3, 0));
        assert_eq!(
            c.allowed_origins,
            ["https://a.example", "https://b.example"]
        );
        assert_eq!(c.header_timeout, Duration::from_millis(1500));
        assert_eq!(c.request_timeout, Duration::from_secs(2));
        assert_eq!(c.max_connections, 9);
        assert_eq!(c.shutdown_grace, Duration::from_millis(250));
        assert_eq!(c.body_limit, 100);
        assert_eq!(c.storage, Storage::Sqlite(PathBuf::from("/tmp/games.db")));
        assert_eq!(c.db_sync, DbSync::Normal);
        let memory = parse(&["--database", "memory"]).expect("valid flags");
        assert_eq!(memory.config.storage, Storage::Memory);
        for url in [
            "postgres://qg@db.example/games",
            "postgresql://qg@10.0.0.2:5432/games",
        ] {
            let pg = parse(&["--db", url]).expect("valid flags");
            assert_eq!(pg.config.storage, Storage::Postgres(url.to_owned()));
        }
    }

    #[test]
    fn defaults_are_safe_for_a_network() {
        let c = parse(&[]).expect("no flags").config;
        assert_eq!(c.seed, None);
        assert!(!c.allow_client_seed);
        assert!(c.create_burst > 0 && c.creates_per_minute > 0);
        assert!(c.allowed_origins.is_empty());
        // The command line keeps games on disk; only tests choose memory.
        assert_eq!(c.storage, Storage::Sqlite(PathBuf::from(DEFAULT_DATABASE)));
        assert_eq!(c.db_sync, DbSync::Full);
    }

    #[test]
    fn bad_flags_are_reported() {
        assert!(parse(&["--port", "http"]).is_err());
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--bind", "localhost:1"]).is_err());
        assert!(parse(&["--frobnicate"]).is_err());
        assert!(parse(&["--header-timeout", "0"]).is_err());
        assert!(parse(&["--header-timeout", "-1"]).is_err());
        assert!(parse(&["--max-connections", "0"]).is_err());
        assert!(parse(&["--seed", "x"]).is_err());
        assert!(parse(&["--db"]).is_err());
        assert!(parse(&["--db-sync", "off"]).is_err());
        assert_eq!(parse(&["--help"]).err().as_deref(), Some(""));
    }

    #[test]
    fn the_room_idle_time_is_given_in_minutes_and_must_be_positive() {
        let a = parse(&["--room-idle-minutes", "1.5"]).expect("valid");
        assert_eq!(a.config.room_idle, Duration::from_secs(90));
        assert!(parse(&["--room-idle-minutes", "0"]).is_err());
        assert!(parse(&["--room-idle-minutes", "-1"]).is_err());
        assert!(parse(&["--room-idle-minutes", "soon"]).is_err());
    }
}
