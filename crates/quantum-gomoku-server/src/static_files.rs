//! The built browser page from a directory: confined to it, no dotfiles,
//! streamed, with caching and a Content-Security-Policy the page satisfies.
//!
//! Files go through `tower_http`'s `ServeDir` (streaming, ranges,
//! `Last-Modified`) over a [`Confined`] backend that resolves symlinks and
//! refuses anything outside the root or under a name starting with a dot.
//! HTML pages are answered here instead: they are small, and their policy
//! must name the hash of the inline loader script Trunk writes into them.

use crate::policy::{MAX_URI_BYTES, SCRIPT_CSP};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use tower::ServiceExt;
use tower_http::services::ServeDir;
use tower_http::services::fs::{Backend, TokioBackend, TokioFile};

/// `Cache-Control` of files whose name carries a hash of their content: a new
/// build gives them new names, so a copy never goes stale.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of everything else: keep a copy, but revalidate each time.
const REVALIDATE: &str = "no-cache";
/// HTML pages larger than this are not served (Trunk's are about 1 KB).
const MAX_PAGE_BYTES: u64 = 1024 * 1024;

/// The parts of the page policy around the inline-script hashes.
const PAGE_CSP_HEAD: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
/// Yew writes `style` attributes (the board size, the estimate bars); style
/// sheets and elements still come only from this server.
const PAGE_CSP_TAIL: &str = "; style-src 'self'; style-src-attr 'unsafe-inline'; \
     img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The canonical static root and the rules every served path must pass.
#[derive(Debug, Clone)]
pub(crate) struct Confined {
    root: Arc<PathBuf>,
}

impl Confined {
    /// `path` with every symlink resolved, if it stays inside the root and
    /// no part of it below the root starts with a dot.
    async fn resolve(&self, path: PathBuf) -> io::Result<PathBuf> {
        let real = tokio::fs::canonicalize(&path).await?;
        let hidden = || io::Error::from(io::ErrorKind::NotFound);
        let below = real
            .strip_prefix(self.root.as_path())
            .map_err(|_| hidden())?;
        let dotted = below.components().any(|c| match c {
            Component::Normal(name) => name.as_encoded_bytes().first() == Some(&b'.'),
            _ => true,
        });
        if dotted { Err(hidden()) } else { Ok(real) }
    }
}

type Boxed<T> = Pin<Box<dyn Future<Output = io::Result<T>> + Send>>;

impl Backend for Confined {
    type File = TokioFile;
    type Metadata = std::fs::Metadata;
    type OpenFuture = Boxed<TokioFile>;
    type MetadataFuture = Boxed<std::fs::Metadata>;

    fn open(&self, path: PathBuf) -> Self::OpenFuture {
        let this = self.clone();
        Box::pin(async move {
            // The file opened is the resolved path, so a symlink swapped in
            // after the check is not followed out of the root.
            let real = this.resolve(path).await?;
            TokioBackend.open(real).await
        })
    }

    fn metadata(&self, path: PathBuf) -> Self::MetadataFuture {
        let this = self.clone();
        Box::pin(async move { tokio::fs::metadata(this.resolve(path).await?).await })
    }
}

/// An HTML page as last read, with what its headers need.
#[derive(Debug)]
struct Page {
    len: u64,
    modified: Option<SystemTime>,
    bytes: axum::body::Bytes,
    etag: HeaderValue,
    csp: HeaderValue,
}

/// The static file service.
#[derive(Debug)]
pub(crate) struct StaticFiles {
    confined: Confined,
    files: ServeDir<tower_http::services::fs::DefaultServeDirFallback, Confined>,
    pages: Mutex<HashMap<PathBuf, Arc<Page>>>,
}

impl StaticFiles {
    /// Serves `dir`, which must exist.
    pub(crate) fn new(dir: &Path) -> io::Result<StaticFiles> {
        let root = std::fs::canonicalize(dir)?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.display()),
            ));
        }
        let confined = Confined {
            root: Arc::new(root.clone()),
        };
        Ok(StaticFiles {
            files: ServeDir::with_backend(root, confined.clone()),
            confined,
            pages: Mutex::new(HashMap::new()),
        })
    }

    /// The answer to a GET or HEAD outside the API, or `None` for "no such file".
    pub(crate) async fn respond(&self, request: Request) -> Option<Response> {
        let path = request.uri().path().to_owned();
        match target(&path) {
            Target::Page(page) => return self.page(&page, request.headers()).await,
            Target::Refused => return None,
            Target::File => {}
        }
        let (parts, _) = request.into_parts();
        let head_only = Request::from_parts(parts.clone(), Body::empty());
        let response = match self.files.clone().oneshot(head_only).await {
            Ok(r) => r.map(Body::new),
            Err(never) => match never {},
        };
        if response.status() == StatusCode::NOT_FOUND {
            return if is_page_route(&path) {
                self.page(Path::new("index.html"), &parts.headers).await
            } else {
                None
            };
        }
        Some(with_cache_control(response, &path))
    }

    /// An HTML page below the root, with an `ETag` and its own policy.
    async fn page(&self, relative: &Path, request_headers: &HeaderMap) -> Option<Response> {
        let real = self
            .confined
            .resolve(self.confined.root.join(relative))
            .await
            .ok()?;
        let meta = tokio::fs::metadata(&real).await.ok()?;
        if !meta.is_file() || meta.len() > MAX_PAGE_BYTES {
            return None;
        }
        let modified = meta.modified().ok();
        let cached = self.pages_lock().get(&real).cloned();
        let page = match cached.filter(|p| p.len == meta.len() && p.modified == modified) {
            Some(page) => page,
            None => {
                let bytes = tokio::fs::read(&real).await.ok()?;
                let page = Arc::new(Page::new(bytes, meta.len(), modified)?);
                self.pages_lock().insert(real, Arc::clone(&page));
                page
            }
        };
        let fresh = request_headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|tags| etag_matches(tags, &page.etag));
        let headers = [
            (header::ETAG, page.etag.clone()),
            (header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)),
            (header::CONTENT_SECURITY_POLICY, page.csp.clone()),
        ];
        Some(if fresh {
            (StatusCode::NOT_MODIFIED, headers).into_response()
        } else {
            let content_type = (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            (StatusCode::OK, headers, [content_type], page.bytes.clone()).into_response()
        })
    }

    fn pages_lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Page>>> {
        // The map only caches; a panic mid-insert leaves it usable.
        self.pages.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What the server adds to every page it serves, so the page can tell that the
/// APIs (Quantum Gomoku's, Battle Line's) are on its own origin without a request (a page from a plain static host
/// has no such tag and never looks for the API).
pub const API_META: &str = "<meta name=\"quantum-gomoku-api\" content=\"/api/quantum-gomoku\">\
                            <meta name=\"battle-line-api\" content=\"/api/battle-line\">";

/// `html` with [`API_META`] before `</head>` (or at the end when there is none:
/// the tag is read once the document is parsed, wherever it stands).
fn with_api_meta(html: Vec<u8>) -> Vec<u8> {
    let lower = html.to_ascii_lowercase();
    let at = lower
        .windows(7)
        .position(|w| w == b"</head>")
        .unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + API_META.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(API_META.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

impl Page {
    fn new(bytes: Vec<u8>, len: u64, modified: Option<SystemTime>) -> Option<Page> {
        let bytes = with_api_meta(bytes);
        let digest = Sha256::digest(&bytes);
        let tag = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..18]);
        let etag = HeaderValue::from_str(&format!("\"{tag}\"")).ok()?;
        let html = String::from_utf8_lossy(&bytes);
        let csp = HeaderValue::from_str(&page_csp(&html)).ok()?;
        Some(Page {
            len,
            modified,
            bytes: bytes.into(),
            etag,
            csp,
        })
    }
}

/// Whether an `If-None-Match` list names `etag` (weak comparison, as RFC 9110 asks).
fn etag_matches(list: &str, etag: &HeaderValue) -> bool {
    let ours = etag.to_str().unwrap_or("");
    list.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == ours)
}

/// What a path outside the API asks for.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// An HTML page (a folder's `index.html` or a `.html` file), relative to the root.
    Page(PathBuf),
    /// A page path that no file may have (escapes, dotted segments).
    Refused,
    /// Anything else, for `ServeDir`.
    File,
}

fn target(url_path: &str) -> Target {
    let relative = url_path.trim_start_matches('/');
    let is_page = url_path.ends_with('/')
        || Path::new(relative)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !is_page {
        return Target::File;
    }
    if url_path.len() > MAX_URI_BYTES {
        return Target::Refused;
    }
    let mut out = PathBuf::new();
    for segment in relative.split('/').filter(|s| !s.is_empty()) {
        // Page names need no escapes; refusing them keeps this simple and
        // leaves no decoded `..` or separator to slip through.
        let safe = !segment.starts_with('.') && !segment.contains(['\\', ':', '%', '\0']);
        if !safe {
            return Target::Refused;
        }
        out.push(segment);
    }
    if url_path.ends_with('/') {
        out.push("index.html");
    }
    Target::Page(out)
}

/// The page policy: scripts from this server, plus each inline script of
/// `html` by its hash (Trunk's loader), never inline scripts in general.
fn page_csp(html: &str) -> String {
    let mut csp = PAGE_CSP_HEAD.to_owned();
    for script in inline_scripts(html) {
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script));
        csp.push_str(&format!(" 'sha256-{hash}'"));
    }
    csp.push_str(PAGE_CSP_TAIL);
    csp
}

/// The text of every `<script>` element of `html` that has no `src`.
fn inline_scripts(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script").map(|i| at + i) {
        let Some(open_end) = lower[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let Some(close) = lower[open_end..].find("</script").map(|i| open_end + i) else {
            break;
        };
        let tag = &lower[start..open_end];
        if !tag.contains(" src=") && !tag.contains("\nsrc=") {
            out.push(&html[open_end..close]);
        }
        at = close;
    }
    out
}

/// Whether a missing path is a route of the page, such as `/game/<id>`,
/// which the root `index.html` answers: no extension, and nothing that names
/// (or encodes) a dotted segment, so a refused `/.git/config` stays a 404.
fn is_page_route(url_path: &str) -> bool {
    let last = url_path.rsplit('/').next().unwrap_or("");
    let lower = url_path.to_ascii_lowercase();
    !last.contains('.') && !lower.contains("/.") && !lower.contains("%2e")
}

/// Whether a file name carries a content hash the way Trunk writes them:
/// `name-<hex>.ext`, `name-<hex>_bg.wasm`, with at least 12 hex digits.
fn is_hashed(file_name: &str) -> bool {
    let stem = file_name.split('.').next().unwrap_or("");
    let Some((_, tail)) = stem.rsplit_once('-') else {
        return false;
    };
    let hex = tail.split('_').next().unwrap_or("");
    (12..=16).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

fn with_cache_control(mut response: Response, url_path: &str) -> Response {
    let cacheable = matches!(
        response.status(),
        StatusCode::OK | StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED
    );
    if cacheable {
        let name = url_path.rsplit('/').next().unwrap_or("");
        let value = if is_hashed(name) {
            IMMUTABLE
        } else {
            REVALIDATE
        };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    if is_script(url_path) {
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(SCRIPT_CSP),
        );
    }
    response
}

/// Whether a path names a JavaScript file (which may start a worker).
fn is_script(url_path: &str) -> bool {
    let name = url_path.rsplit('/').next().unwrap_or("");
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("js") || e.eq_ignore_ascii_case("mjs"))
}

/// Whether the static service answers `method` (anything else is a 404 like
/// any unknown path, so the directory's contents are not hinted at).
pub(crate) fn serves(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_bundle_names_are_recognized_as_hashed() {
        assert!(is_hashed("web-8f2a9c31d4e5b607_bg.wasm"));
        assert!(is_hashed("web-8f2a9c31d4e5b607.js"));
        assert!(is_hashed("style-0a1b2c3d4e5f6a7b.css"));
        assert!(!is_hashed("index.html"));
        assert!(!is_hashed("favicon.ico"));
        assert!(!is_hashed("quantum-gomoku.css"));
        assert!(!is_hashed("web-notahash1234.js"));
    }

    #[test]
    fn page_paths_map_folders_to_their_index_and_refuse_dotted_segments() {
        let page = |p: &str| Target::Page(PathBuf::from(p));
        assert_eq!(target("/"), page("index.html"));
        assert_eq!(
            target("/quantum-gomoku/"),
            page("quantum-gomoku/index.html")
        );
        assert_eq!(target("/a.html"), page("a.html"));
        assert_eq!(target("/pkg/app.wasm"), Target::File);
        assert_eq!(target("/.git/"), Target::Refused);
        assert_eq!(target("/%2e%2e/x.html"), Target::Refused);
        assert_eq!(target("/../x.html"), Target::Refused);
    }

    #[test]
    fn the_policy_names_inline_scripts_by_hash_and_skips_external_ones() {
        let html = "<head><script type=\"module\">\nimport init from '/web-1.js';\n</script>\
                    <SCRIPT src=\"/x.js\"></SCRIPT></head>";
        let scripts = inline_scripts(html);
        assert_eq!(scripts, vec!["\nimport init from '/web-1.js';\n"]);
        let csp = page_csp(html);
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(scripts[0]));
        assert!(csp.contains(&format!("'sha256-{hash}'")));
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-"));
        assert!(csp.contains("frame-ancestors 'none'"));
        let script_src = csp
            .split(';')
            .find(|d| d.trim_start().starts_with("script-src"))
            .expect("a script-src directive");
        assert!(!script_src.contains("unsafe-inline"));
    }

    #[test]
    fn only_plain_extensionless_paths_fall_back_to_the_page() {
        assert!(is_page_route("/game/123e4567-e89b-42d3-a456-426614174000"));
        assert!(is_page_route("/anything"));
        assert!(!is_page_route("/missing.js"));
        assert!(!is_page_route("/.git/config"));
        assert!(!is_page_route("/%2Egit/config"));
        assert!(!is_page_route("/sub/.hidden"));
    }

    #[test]
    fn pages_get_the_api_tag_in_their_head_or_at_their_end() {
        let page = with_api_meta(b"<html><meta charset=utf-8></HEAD><body></body>".to_vec());
        let text = String::from_utf8(page).expect("utf-8");
        assert_eq!(
            text,
            format!("<html><meta charset=utf-8>{API_META}</HEAD><body></body>")
        );
        let headless = with_api_meta(b"<p>x".to_vec());
        assert_eq!(headless, format!("<p>x{API_META}").into_bytes());
    }

    #[test]
    fn etags_match_strong_weak_and_any() {
        let tag = HeaderValue::from_static("\"abc\"");
        assert!(etag_matches("\"abc\"", &tag));
        assert!(etag_matches("\"x\", W/\"abc\"", &tag));
        assert!(etag_matches("*", &tag));
        assert!(!etag_matches("\"abd\"", &tag));
    }
}
