//! Command-line entry point: parses the port, bind address and static directory, then serves.

use quantum_gomoku_server::{DEFAULT_MAX_GAMES, ServerConfig, serve};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
quantum-gomoku-server: the Quantum Gomoku HTTP API

USAGE: quantum-gomoku-server [--port N] [--bind ADDR] [--static-dir DIR] [--max-games N] [--seed N]

  --port N          port to listen on (default: $PORT, else 3000)
  --bind ADDR       address to bind (default: $BIND, else 127.0.0.1; 0.0.0.0 for the LAN)
  --static-dir DIR  also serve the files of DIR at / (the built browser page)
  --max-games N     games kept in memory before the oldest is evicted (default 1000)
  --seed N          fix the seed of game ids and observations (default: from the clock)
";

#[derive(Debug)]
struct Args {
    addr: SocketAddr,
    config: ServerConfig,
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
        max_games: DEFAULT_MAX_GAMES,
        ..ServerConfig::default()
    };
    while let Some(flag) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match flag.as_str() {
            "--port" => {
                let v = value("--port")?;
                port = v
                    .parse()
                    .map_err(|_| format!("--port {v:?} is not a port number"))?;
            }
            "--bind" => bind = value("--bind")?,
            "--static-dir" => config.static_dir = Some(PathBuf::from(value("--static-dir")?)),
            "--max-games" => {
                let v = value("--max-games")?;
                config.max_games = v
                    .parse()
                    .map_err(|_| format!("--max-games {v:?} is not a number"))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                config.seed = v
                    .parse()
                    .map_err(|_| format!("--seed {v:?} is not a number"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let ip = bind
        .parse()
        .map_err(|_| format!("bind address {bind:?} is not an IP address"))?;
    Ok(Args {
        addr: SocketAddr::new(ip, port),
        config,
    })
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
    println!("quantum-gomoku-server listening on http://{shown}");
    let shutdown = async {
        // Without a signal handler the server simply runs until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    match serve(listener, args.config, shutdown).await {
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
        ])
        .expect("valid flags");
        assert_eq!(a.addr.port(), 8080);
        assert!(a.addr.ip().is_unspecified());
        assert_eq!(a.config.static_dir, Some(PathBuf::from("dist")));
        assert_eq!(a.config.max_games, 7);
    }

    #[test]
    fn bad_flags_are_reported() {
        assert!(parse(&["--port", "http"]).is_err());
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--bind", "localhost:1"]).is_err());
        assert!(parse(&["--frobnicate"]).is_err());
        assert_eq!(parse(&["--help"]).err().as_deref(), Some(""));
    }
}
