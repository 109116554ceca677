//! The server's defences over real HTTP, one test per attack it must withstand:
//! guessable ids, chosen observation seeds, eviction floods, slow and idle
//! connections, static-file escapes, missing security headers, cross-site writes
//! and bare refusals.

mod common;

use common::*;
use quantum_gomoku::{GameId, Rng};
use quantum_gomoku_server::{MAX_URI_BYTES, ServerConfig};
use serde_json::Value;
use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Twelve stones two cells apart: no two touch, so no observation can make a
/// line and every observation shows a fresh collapse. White moves last.
const SPREAD: [(i64, i64); 12] = [
    (0, 0),
    (0, 2),
    (0, 4),
    (0, 6),
    (2, 0),
    (2, 2),
    (2, 4),
    (2, 6),
    (4, 0),
    (4, 2),
    (4, 4),
    (4, 6),
];

/// Plays `SPREAD` on a new game, then lets white observe five times; returns
/// the id and the five collapsed boards.
async fn five_observations(addr: std::net::SocketAddr) -> (String, Vec<Value>) {
    let id = create(addr).await;
    for (i, &(r, c)) in SPREAD.iter().enumerate() {
        let player = if i % 2 == 0 { "BLACK" } else { "WHITE" };
        assert_eq!(place(addr, &id, player, r, c).await.status, 200);
    }
    let mut boards = Vec::new();
    for _ in 0..5 {
        let r = observe(addr, &id, "WHITE", None).await;
        assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
        let v = r.json();
        assert_eq!(v["observationResult"]["isWinning"], false);
        boards.push(v["observationResult"]["resultBoard"].clone());
    }
    (id, boards)
}

#[tokio::test]
async fn ids_from_two_servers_with_the_same_seed_differ_and_do_not_follow_the_seed() {
    let a = start(test_config()).await.addr;
    let b = start(test_config()).await.addr;
    let (id_a, boards_a) = five_observations(a).await;
    let (id_b, boards_b) = five_observations(b).await;
    // The seed still fixes the gameplay generator: same moves, same collapses...
    assert_eq!(boards_a, boards_b);
    // ...but not the ids, which come from the OS.
    assert_ne!(id_a, id_b);
    let mut ids: HashSet<String> = HashSet::from([id_a, id_b]);
    for addr in [a, b] {
        for _ in 0..8 {
            assert!(ids.insert(create(addr).await), "an id repeated");
        }
    }
    // None of them is what the seeded generator (the old id source) gives.
    let mut seeded = Rng::new(7);
    let mut from_seed: HashSet<String> = (0..64)
        .map(|_| GameId::random(&mut seeded).to_string())
        .collect();
    let mut forks = Rng::new(7);
    for _ in 0..64 {
        from_seed.insert(GameId::random(&mut forks.fork()).to_string());
    }
    assert!(ids.is_disjoint(&from_seed));
    for id in &ids {
        assert!(GameId::parse(id).is_ok_and(|g| g.is_v4()), "{id}");
    }
}

#[tokio::test]
async fn without_a_seed_flag_unseeded_observations_are_not_reproducible() {
    let config = || ServerConfig {
        seed: None,
        ..test_config()
    };
    let a = start(config()).await.addr;
    let b = start(config()).await.addr;
    let (_, boards_a) = five_observations(a).await;
    let (_, boards_b) = five_observations(b).await;
    // One collapse of these twelve stones (six of 90/10, six of 70/30)
    // repeats on the other server with chance 0.82^6 * 0.58^6 < 0.012; five
    // in a row, below 3e-10.
    assert_ne!(boards_a, boards_b);
}

#[tokio::test]
async fn a_client_seed_is_refused_by_default_and_accepted_with_the_flag() {
    let config = |allow| ServerConfig {
        allow_client_seed: allow,
        ..test_config()
    };
    for allow in [false, true] {
        let addr = start(config(allow)).await.addr;
        let id = create(addr).await;
        assert_eq!(place(addr, &id, "BLACK", 7, 7).await.status, 200);
        let r = observe(addr, &id, "BLACK", Some(42)).await;
        if allow {
            assert_eq!(r.status, 200);
            assert_eq!(r.json()["gameState"]["blackObservationsRemaining"], 4);
        } else {
            assert_error(&r, 400, "INVALID_REQUEST");
            assert_eq!(r.json()["details"]["field"], "seed");
            assert!(
                r.json()["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("--allow-client-seed"))
            );
            // Refused means unchanged: the observation was not spent.
            let st = get(addr, &format!("{API}/games/{id}")).await.json();
            assert_eq!(st["gameState"]["blackObservationsRemaining"], 5);
            // Without the field the same player observes normally.
            assert_eq!(observe(addr, &id, "BLACK", None).await.status, 200);
        }
    }
}

#[tokio::test]
async fn creating_past_the_bound_evicts_the_least_recently_used_game_never_one_that_just_moved() {
    let addr = start(ServerConfig {
        max_games: 3,
        ..test_config()
    })
    .await
    .addr;
    let status = |id: String| async move { get(addr, &format!("{API}/games/{id}")).await.status };
    let (a, b, c) = (create(addr).await, create(addr).await, create(addr).await);
    // `a` is the oldest but has just moved: `b` is now the least recently used.
    assert_eq!(place(addr, &a, "BLACK", 1, 1).await.status, 200);
    let d = create(addr).await;
    assert_eq!(status(b).await, 404, "the least recently used game stayed");
    // Use order now c, a, d. `c` moves, so `a` (which moved before it) goes next.
    assert_eq!(place(addr, &c, "BLACK", 2, 2).await.status, 200);
    let e = create(addr).await;
    assert_eq!(status(a).await, 404, "the least recently used game stayed");
    for kept in [c, d, e] {
        assert_eq!(status(kept).await, 200, "a recently used game was evicted");
    }
}

#[tokio::test]
async fn a_creation_burst_from_one_address_is_limited_while_another_address_gets_through() {
    let addr = start(ServerConfig {
        create_burst: 3,
        creates_per_minute: 1,
        ..test_config()
    })
    .await
    .addr;
    let first = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    let second = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    let create_from = |from: IpAddr| async move {
        let stream = connect_from(from, addr).await;
        raw_on(stream, addr, "POST", &format!("{API}/games"), &[], b"").await
    };
    for _ in 0..3 {
        assert_eq!(create_from(first).await.status, 201);
    }
    let limited = create_from(first).await;
    assert_error(&limited, 429, "RATE_LIMITED");
    assert!(limited.header("retry-after").is_some());
    // Another client is not affected, and the limited one may still play.
    assert_eq!(create_from(second).await.status, 201);
    let id = create_from(second).await.json()["gameId"]
        .as_str()
        .expect("an id")
        .to_owned();
    let stream = connect_from(first, addr).await;
    let r = raw_on(stream, addr, "GET", &format!("{API}/games/{id}"), &[], b"").await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn a_client_that_waits_the_retry_after_it_was_given_is_served() {
    // One creation, then one more every 2 s.
    let addr = start(ServerConfig {
        create_burst: 1,
        creates_per_minute: 30,
        ..test_config()
    })
    .await
    .addr;
    assert_eq!(
        raw(addr, "POST", &format!("{API}/games"), &[], b"")
            .await
            .status,
        201
    );
    let limited = raw(addr, "POST", &format!("{API}/games"), &[], b"").await;
    assert_error(&limited, 429, "RATE_LIMITED");
    // The next creation is just under 2 s away: rounded up, not down to 1 (or 0).
    let retry: u64 = limited
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert_eq!(retry, 2);
    assert_eq!(limited.json()["details"]["retryAfterSeconds"], retry);
    tokio::time::sleep(Duration::from_secs(retry)).await;
    assert_eq!(
        raw(addr, "POST", &format!("{API}/games"), &[], b"")
            .await
            .status,
        201
    );
}

#[tokio::test]
async fn a_slow_header_connection_is_closed_after_the_header_timeout() {
    let addr = start(ServerConfig {
        header_timeout: Duration::from_secs(1),
        ..test_config()
    })
    .await
    .addr;
    let mut slow = TcpStream::connect(addr).await.expect("accepts");
    slow.write_all(b"GET /api/quantum-gomoku/games/x HTTP/1.1\r\nHost: a\r\n")
        .await
        .expect("write");
    let began = Instant::now();
    assert!(closed_within(&mut slow, PATIENCE).await, "still open");
    // It was the timeout that closed it, not an immediate refusal.
    assert!(began.elapsed() >= Duration::from_millis(500));
    // A connection that never sends a byte goes the same way.
    let mut silent = TcpStream::connect(addr).await.expect("accepts");
    assert!(closed_within(&mut silent, PATIENCE).await, "still open");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_header_timeout() {
    let addr = start(ServerConfig {
        header_timeout: Duration::from_secs(1),
        ..test_config()
    })
    .await
    .addr;
    let mut stream = TcpStream::connect(addr).await.expect("accepts");
    let request = format!("GET {API}/games/x HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    // The answer arrives and the connection stays open for the next request...
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(
        PATIENCE,
        tokio::io::AsyncReadExt::read(&mut stream, &mut buf),
    )
    .await
    .expect("an answer")
    .expect("readable");
    assert_error(&parse_reply(&buf[..n]), 400, "INVALID_ID");
    // ...until it has been idle for the header timeout.
    assert!(closed_within(&mut stream, PATIENCE).await, "still open");
}

#[tokio::test]
async fn a_slow_body_gets_408_in_the_error_model() {
    let addr = start(ServerConfig {
        request_timeout: Duration::from_secs(1),
        ..test_config()
    })
    .await
    .addr;
    let mut stream = TcpStream::connect(addr).await.expect("accepts");
    let head = format!(
        "POST {API}/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"boardSize\""
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let r = read_reply(&mut stream).await;
    assert_error(&r, 408, "REQUEST_TIMEOUT");
}

#[tokio::test]
async fn connections_over_the_limit_get_503_in_the_error_model() {
    let addr = start(ServerConfig {
        max_connections: 2,
        header_timeout: Duration::from_secs(5),
        ..test_config()
    })
    .await
    .addr;
    let mut held = vec![
        TcpStream::connect(addr).await.expect("accepts"),
        TcpStream::connect(addr).await.expect("accepts"),
    ];
    let r = get(addr, &format!("{API}/games/x")).await;
    assert_error(&r, 503, "TOO_MANY_CONNECTIONS");
    // A freed slot is usable again.
    drop(held.pop());
    let deadline = Instant::now() + PATIENCE;
    loop {
        let r = get(addr, &format!("{API}/games/x")).await;
        if r.status == 400 {
            break;
        }
        assert!(Instant::now() < deadline, "the freed slot never came back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn shutdown_does_not_wait_for_half_sent_or_idle_connections() {
    let mut server = start(ServerConfig {
        // Far longer than the test may take: only the shutdown may end them.
        header_timeout: Duration::from_secs(60),
        shutdown_grace: Duration::from_secs(60),
        ..test_config()
    })
    .await;
    let addr = server.addr;
    let mut half = TcpStream::connect(addr).await.expect("accepts");
    half.write_all(b"POST /api/quantum-gomoku/games HTTP/1.1\r\nHost: a\r\n")
        .await
        .expect("write");
    let mut idle = TcpStream::connect(addr).await.expect("accepts");
    let request = format!("GET {API}/games/x HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    idle.write_all(request.as_bytes()).await.expect("write");
    let mut buf = vec![0u8; 4096];
    let n = tokio::io::AsyncReadExt::read(&mut idle, &mut buf)
        .await
        .expect("an answer");
    assert!(n > 0);
    server.stop();
    let returned = tokio::time::timeout(PATIENCE, &mut server.done).await;
    assert!(
        matches!(returned, Ok(Ok(Ok(())))),
        "serve did not return: {returned:?}"
    );
    assert!(closed_within(&mut half, PATIENCE).await);
    assert!(closed_within(&mut idle, PATIENCE).await);
    assert!(TcpStream::connect(addr).await.is_err(), "still listening");
}

#[tokio::test]
async fn shutdown_lets_a_response_in_progress_finish() {
    let site = Site::new("shutdown");
    // Larger than what loopback socket buffers hold, so the response is
    // still being sent when the shutdown comes.
    let size = 32 * 1024 * 1024;
    std::fs::write(site.root.join("big.bin"), vec![7u8; size]).expect("write");
    let mut server = start(ServerConfig {
        static_dir: Some(site.root.clone()),
        shutdown_grace: Duration::from_secs(60),
        ..test_config()
    })
    .await;
    let addr = server.addr;
    let mut stream = TcpStream::connect(addr).await.expect("accepts");
    let request = format!("GET /big.bin HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut first = vec![0u8; 1024];
    let n = tokio::io::AsyncReadExt::read(&mut stream, &mut first)
        .await
        .expect("the response starts");
    server.stop();
    // Give the shutdown time to reach the connection before reading on.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut rest = Vec::new();
    tokio::time::timeout(
        PATIENCE,
        tokio::io::AsyncReadExt::read_to_end(&mut stream, &mut rest),
    )
    .await
    .expect("the response ends")
    .expect("readable");
    let mut all = first[..n].to_vec();
    all.extend_from_slice(&rest);
    let reply = parse_reply(&all);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body.len(), size, "the response was cut");
    let returned = tokio::time::timeout(PATIENCE, &mut server.done).await;
    assert!(matches!(returned, Ok(Ok(Ok(())))), "{returned:?}");
}

/// A static root with a page, a bundle, secrets and escape hatches, beside a
/// folder outside it.
struct Site {
    base: PathBuf,
    root: PathBuf,
}

impl Site {
    fn new(name: &str) -> Site {
        let base = std::env::temp_dir().join(format!("qg-site-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("dist");
        let outside = base.join("outside");
        for dir in [root.join(".git"), root.join("sub"), outside.clone()] {
            std::fs::create_dir_all(dir).expect("temp dir");
        }
        let write = |p: &Path, text: &str| std::fs::write(p, text).expect("write");
        write(&root.join("index.html"), INDEX);
        write(&root.join("sub/index.html"), "<html>sub</html>");
        write(&root.join("web-8f2a9c31d4e5b607_bg.wasm"), "\0asm");
        write(&root.join("style.css"), "body{}");
        write(&root.join("web-8f2a9c31d4e5b607.js"), "export default 1;");
        write(
            &root.join("sw.js"),
            "self.addEventListener('fetch', () => {});",
        );
        write(&root.join(".env"), "SECRET=1");
        write(&root.join(".git/config"), "[core]");
        write(&root.join("sub/.hidden"), "no");
        write(&outside.join("secret.txt"), "outside");
        write(&root.join("real.txt"), "inside");
        std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("leak.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(&outside, root.join("out")).expect("symlink");
        std::os::unix::fs::symlink(root.join("real.txt"), root.join("alias.txt")).expect("symlink");
        std::os::unix::fs::symlink(root.join(".env"), root.join("env.txt")).expect("symlink");
        Site { base, root }
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

/// What Trunk writes: linked styles, a preload, and an inline module loader.
const INDEX: &str = "<!doctype html><html><head><link rel=\"stylesheet\" href=\"/style.css\">\
<link rel=\"modulepreload\" href=\"/web-8f2a9c31d4e5b607.js\"></head><body>\
<script type=\"module\">\nimport init, * as bindings from '/web-8f2a9c31d4e5b607.js';\n\
const wasm = await init({ module_or_path: '/web-8f2a9c31d4e5b607_bg.wasm' });\n</script></body></html>";

async fn site_server(site: &Site) -> std::net::SocketAddr {
    start(ServerConfig {
        static_dir: Some(site.root.clone()),
        ..test_config()
    })
    .await
    .addr
}

#[tokio::test]
async fn a_symlink_out_of_the_static_root_and_dotfiles_are_404() {
    let site = Site::new("escape");
    let addr = site_server(&site).await;
    for path in [
        "/leak.txt",
        "/out/secret.txt",
        "/.env",
        "/.git/config",
        "/sub/.hidden",
        "/%2eenv",
        "/%2Egit/config",
        "/env.txt",
        "/sub/..%2f.env",
        "/.git/",
    ] {
        assert_error(&get(addr, path).await, 404, "NOT_FOUND");
    }
    // Symlinks that stay inside the root, and plain files, are served.
    assert_eq!(get(addr, "/alias.txt").await.body, b"inside");
    assert_eq!(get(addr, "/real.txt").await.body, b"inside");
    assert_eq!(
        get(addr, "/sub/").await.body,
        format!("<html>sub</html>{}", quantum_gomoku_server::API_META).into_bytes()
    );
}

#[tokio::test]
async fn static_files_carry_security_and_caching_headers() {
    let site = Site::new("headers");
    let addr = site_server(&site).await;
    let page = get(addr, "/").await;
    assert_eq!(page.status, 200);
    // The page as built, with the tag that tells it the API is here.
    let served = INDEX.replace(
        "</head>",
        &format!("{}</head>", quantum_gomoku_server::API_META),
    );
    assert_eq!(page.body, served.as_bytes());
    assert_eq!(
        page.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(page.header("cache-control").as_deref(), Some("no-cache"));
    let csp = page.header("content-security-policy").expect("a policy");
    let script_src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src "))
        .expect("script-src");
    assert!(script_src.starts_with("script-src 'self' 'wasm-unsafe-eval' 'sha256-"));
    assert!(!script_src.contains("unsafe-inline"), "{script_src}");
    assert!(csp.contains("frame-ancestors 'none'"));
    // The hash is the loader's: exactly the text between the script tags.
    let loader = INDEX
        .split("<script type=\"module\">")
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .expect("a loader");
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(loader));
    assert!(script_src.contains(&format!("'sha256-{hash}'")));
    // The page revalidates by ETag.
    let etag = page.header("etag").expect("an ETag");
    let again = raw(addr, "GET", "/", &[("If-None-Match", &etag)], b"").await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // A route of the page gets the page with the same headers.
    let route = get(addr, "/game/123e4567-e89b-42d3-a456-426614174000").await;
    assert_eq!((route.status, route.header("etag")), (200, Some(etag)));
    // Bundle files named by their hash are immutable; others revalidate.
    let wasm = get(addr, "/web-8f2a9c31d4e5b607_bg.wasm").await;
    assert_eq!(wasm.status, 200);
    assert_eq!(
        wasm.header("content-type").as_deref(),
        Some("application/wasm")
    );
    assert!(
        wasm.header("cache-control")
            .is_some_and(|c| c.contains("immutable") && c.contains("max-age=31536000"))
    );
    let css = get(addr, "/style.css").await;
    assert_eq!(css.header("cache-control").as_deref(), Some("no-cache"));
    assert_eq!(
        css.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    // Files are streamed by a range-capable file service.
    let part = raw(addr, "GET", "/style.css", &[("Range", "bytes=0-3")], b"").await;
    assert_eq!((part.status, part.body.as_slice()), (206, &b"body"[..]));
    // Scripts carry a policy a worker started from them can run under (a
    // worker runs under its own script's policy): same-origin imports and
    // fetches, wasm compilation, nothing inline, no framing.
    for script in ["/web-8f2a9c31d4e5b607.js", "/sw.js"] {
        let js = get(addr, script).await;
        assert_eq!(js.status, 200, "{script}");
        let csp = js.header("content-security-policy").expect("a policy");
        assert_eq!(csp, quantum_gomoku_server::SCRIPT_CSP, "{script}");
        assert!(csp.contains("default-src 'self'"));
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval'"));
        assert!(!csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"));
    }
    assert!(
        css.header("content-security-policy")
            .is_some_and(|c| c.contains("default-src 'none'"))
    );
    // API answers carry the security headers too, with a policy that loads nothing.
    let api = get(addr, &format!("{API}/games/x")).await;
    assert_eq!(
        api.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert!(
        api.header("content-security-policy").is_some_and(
            |c| c.contains("default-src 'none'") && c.contains("frame-ancestors 'none'")
        )
    );
}

#[tokio::test]
async fn a_text_plain_post_is_415_in_the_error_model() {
    let addr = server().await;
    let id = create(addr).await;
    for path in [
        format!("{API}/games"),
        format!("{API}/games/{id}/moves"),
        format!("{API}/games/{id}/observations"),
        format!("{API}/games/{id}/reset"),
    ] {
        for content_type in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
        ] {
            let r = raw(
                addr,
                "POST",
                &path,
                &[("Content-Type", content_type)],
                b"{}",
            )
            .await;
            assert_error(&r, 415, "UNSUPPORTED_MEDIA_TYPE");
        }
        // An empty text/plain POST (what a cross-site form or beacon can send) too.
        let r = raw(addr, "POST", &path, &[("Content-Type", "text/plain")], b"").await;
        assert_error(&r, 415, "UNSUPPORTED_MEDIA_TYPE");
    }
    // Nothing was reset or played by any of them.
    assert_eq!(place(addr, &id, "BLACK", 0, 0).await.status, 200);
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/reset"),
        &[("Content-Type", "text/plain")],
        b"",
    )
    .await;
    assert_eq!(r.status, 415);
    let st = get(addr, &format!("{API}/games/{id}")).await.json();
    assert_eq!(st["gameState"]["turnCount"], 1);
    // JSON with a charset parameter is JSON.
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/reset"),
        &[("Content-Type", "application/json; charset=utf-8")],
        b"",
    )
    .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_the_own_origin_and_allow_list_pass() {
    let addr = start(ServerConfig {
        allowed_origins: vec!["https://games.example.org".to_owned()],
        ..test_config()
    })
    .await
    .addr;
    let id = create(addr).await;
    assert_eq!(place(addr, &id, "BLACK", 0, 0).await.status, 200);
    let json_ct = ("Content-Type", "application/json");
    let reset = format!("{API}/games/{id}/reset");
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
        for (method, path) in [
            ("POST", reset.as_str()),
            ("POST", &format!("{API}/games")),
            ("DELETE", &format!("{API}/games/{id}")),
        ] {
            let r = raw(addr, method, path, &[json_ct, ("Origin", origin)], b"").await;
            assert_error(&r, 403, "FORBIDDEN_ORIGIN");
        }
    }
    let st = get(addr, &format!("{API}/games/{id}")).await.json();
    assert_eq!(
        st["gameState"]["turnCount"], 1,
        "a refused reset changed the game"
    );
    // Reading is not a write: a foreign page gets nothing it can read anyway
    // (no CORS headers), and the request is harmless.
    let own = format!("http://{addr}");
    for origin in [own.as_str(), "https://games.example.org"] {
        let r = raw(addr, "POST", &reset, &[json_ct, ("Origin", origin)], b"").await;
        assert_eq!(r.status, 200, "{origin}");
    }
}

#[tokio::test]
async fn request_heads_over_our_limits_answer_in_the_error_model() {
    let addr = server().await;
    let long_path = format!("{API}/games/{}", "a".repeat(MAX_URI_BYTES));
    assert_error(&get(addr, &long_path).await, 414, "URI_TOO_LONG");
    let big = "b".repeat(17 * 1024);
    let r = raw(
        addr,
        "GET",
        &format!("{API}/games/x"),
        &[("X-Big", &big)],
        b"",
    )
    .await;
    assert_error(&r, 431, "HEADERS_TOO_LARGE");
    let names: Vec<String> = (0..70).map(|i| format!("X-H{i}")).collect();
    let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
    let r = raw(addr, "GET", &format!("{API}/games/x"), &many, b"").await;
    assert_error(&r, 431, "HEADERS_TOO_LARGE");
}

#[tokio::test]
async fn refusals_hyper_makes_itself_keep_their_status_and_the_server_keeps_serving() {
    // These never reach the router, so their bodies are empty (see the README).
    let addr = server().await;
    let huge_path = format!("{API}/games/{}", "a".repeat(70 * 1024));
    let r = get(addr, &huge_path).await;
    assert!(matches!(r.status, 414 | 431), "{}", r.status);
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games"),
        &[("Content-Length", "abc")],
        b"",
    )
    .await;
    assert_eq!(r.status, 400);
    let names: Vec<String> = (0..200).map(|i| format!("X-H{i}")).collect();
    let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
    let r = raw(addr, "GET", &format!("{API}/games/x"), &many, b"").await;
    assert_eq!(r.status, 431);
    let id = create(addr).await;
    assert_eq!(get(addr, &format!("{API}/games/{id}")).await.status, 200);
}
