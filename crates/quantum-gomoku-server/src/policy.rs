//! Request policies that wrap the routes: origin and content-type checks for
//! writes, limits on the request head, security headers, and the error model
//! for refusals that lower layers answer without a body.

use crate::error::Refusal;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::Arc;

/// Longest path and query accepted; the API's longest is under 100 bytes.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Most header bytes (names, values and separators) accepted.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Most header fields accepted.
pub const MAX_HEADER_COUNT: usize = 64;

/// The policy for API responses and everything that is not an HTML page:
/// nothing may load, and nothing may frame it.
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The policy for script files. A Web Worker or service worker runs under the
/// policy of its own script's response, not the page's: the workers import
/// the page's glue and compile its wasm (the computer players, the hint, the
/// offline cache), which [`API_CSP`] would forbid.
pub const SCRIPT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// Which `Origin`s may send state-changing requests besides the server's own.
#[derive(Debug, Clone, Default)]
pub(crate) struct OriginPolicy {
    /// Normalized `scheme://host[:port]` entries.
    allowed: Vec<String>,
}

impl OriginPolicy {
    pub(crate) fn new(allowed: &[String]) -> OriginPolicy {
        OriginPolicy {
            allowed: allowed.iter().filter_map(|o| normalize_origin(o)).collect(),
        }
    }

    /// Whether a request carrying `origin` and addressed to `host` may write.
    fn allows(&self, origin: &str, host: Option<&str>) -> bool {
        let Some(normalized) = normalize_origin(origin) else {
            // `null` (sandboxed frames, file: pages) and anything unparsable.
            return false;
        };
        if self.allowed.contains(&normalized) {
            return true;
        }
        // The server's own origin is whatever authority the client addressed:
        // a page it served sends the same host and port in both headers.
        let Some(host) = host else { return false };
        let (scheme, authority) = normalized.split_once("://").unwrap_or(("", ""));
        let default_port = if scheme == "https" { "443" } else { "80" };
        with_port(authority, default_port) == with_port(&host.to_ascii_lowercase(), default_port)
    }
}

/// `scheme://host[:port]` in lower case without a default port or trailing
/// slash, or `None` for `null`, paths, or schemes other than http(s).
fn normalize_origin(origin: &str) -> Option<String> {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, authority) = origin.split_once("://")?;
    if !matches!(scheme, "http" | "https")
        || authority.is_empty()
        || authority.contains(['/', '@', '?', '#'])
    {
        return None;
    }
    let default_port = if scheme == "https" { ":443" } else { ":80" };
    let authority = authority.strip_suffix(default_port).unwrap_or(authority);
    Some(format!("{scheme}://{authority}"))
}

/// `authority` with an explicit port (IPv6 literals keep their brackets).
fn with_port(authority: &str, default_port: &str) -> String {
    let has_port = match authority.rfind(']') {
        Some(end) => authority[end..].contains(':'),
        None => authority.contains(':'),
    };
    if has_port {
        authority.to_owned()
    } else {
        format!("{authority}:{default_port}")
    }
}

/// Refuses state-changing requests that a browser sent from a foreign page.
///
/// Browsers send `Origin` on every cross-origin request that is not a GET or
/// HEAD, so its absence means a same-origin page or a non-browser client.
pub(crate) async fn same_origin(
    State(policy): State<Arc<OriginPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return next.run(request).await;
    }
    let headers = request.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if !policy.allows(origin, host) {
            return Refusal::new(
                StatusCode::FORBIDDEN,
                "FORBIDDEN_ORIGIN",
                format!(
                    "requests from {origin:?} may not change games here \
                     (only this server's own pages and --allow-origin entries may)"
                ),
            )
            .with_details(json!({ "origin": origin }))
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether a request says it carries a body (a length above zero, or chunks).
fn has_body(headers: &HeaderMap) -> bool {
    let declared_length = headers
        .get(header::CONTENT_LENGTH)
        .map(|v| v.to_str().map_or("?", str::trim));
    headers.contains_key(header::TRANSFER_ENCODING) || declared_length.is_some_and(|n| n != "0")
}

/// Refuses a POST whose body is not declared as JSON (415).
///
/// A JSON content type cannot be sent cross-site without a CORS preflight,
/// which this server never grants, so forms and `no-cors` fetches from foreign
/// pages stop here. A POST with no body and no content type (the plain
/// `curl -X POST`) carries nothing to mislabel and passes; a foreign page
/// sending one is refused by [`same_origin`].
pub(crate) async fn json_only(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let headers = request.headers();
    let content_type = headers.get(header::CONTENT_TYPE);
    let is_json = content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if is_json || (content_type.is_none() && !has_body(headers)) {
        return next.run(request).await;
    }
    let got = content_type.map_or_else(
        || "none".to_owned(),
        |v| String::from_utf8_lossy(v.as_bytes()).into_owned(),
    );
    Refusal::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
        format!("POST bodies must be sent as Content-Type: application/json (got {got})"),
    )
    .with_details(json!({ "contentType": got }))
    .into_response()
}

/// Refuses request heads beyond the API's needs in the error model, well
/// below the limits where hyper refuses them itself with an empty body.
pub(crate) async fn head_limits(request: Request, next: Next) -> Response {
    let uri_len = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if uri_len > MAX_URI_BYTES {
        return Refusal::new(
            StatusCode::URI_TOO_LONG,
            "URI_TOO_LONG",
            format!("the request target has {uri_len} bytes; at most {MAX_URI_BYTES} are accepted"),
        )
        .into_response();
    }
    let headers = request.headers();
    let bytes: usize = headers
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum();
    if headers.len() > MAX_HEADER_COUNT || bytes > MAX_HEADER_BYTES {
        return Refusal::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "HEADERS_TOO_LARGE",
            format!(
                "{} header fields of {bytes} bytes; at most {MAX_HEADER_COUNT} fields \
                 and {MAX_HEADER_BYTES} bytes are accepted",
                headers.len()
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// Gives error responses that lower layers left without a body (request
/// timeout, file service, rate limiter) a body in the error model.
pub(crate) async fn json_errors(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    let bare = !response.headers().contains_key(header::CONTENT_TYPE);
    if !(bare && (status.is_client_error() || status.is_server_error())) {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    let reason = status.canonical_reason().unwrap_or("refused");
    let refusal = Refusal::new(
        status,
        Refusal::code_for(status),
        format!("{reason}: {path}"),
    );
    let body = refusal.into_response().into_body();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, body)
}

const NOSNIFF: (HeaderName, HeaderValue) = (
    header::X_CONTENT_TYPE_OPTIONS,
    HeaderValue::from_static("nosniff"),
);

/// Security headers on every response; an HTML page keeps the
/// Content-Security-Policy its file service computed for it.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(NOSNIFF.0, NOSNIFF.1);
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Game ids travel in page addresses (`/?gameId=`): never hand them to
    // another site through Referer.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(API_CSP));
    response
}

/// The fixed answer to a connection over the limit, written before hyper
/// ever sees it (so it is built by hand).
pub(crate) fn busy_response() -> Vec<u8> {
    let body = json!({
        "code": "TOO_MANY_CONNECTIONS",
        "message": "the server holds as many connections as it allows; retry shortly",
    })
    .to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\
         x-content-type-options: nosniff\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_normalize_and_match_the_addressed_host() {
        let p = OriginPolicy::new(&["https://games.example.org/".to_owned()]);
        assert!(p.allows("http://127.0.0.1:3000", Some("127.0.0.1:3000")));
        assert!(p.allows("http://Example.com", Some("example.com")));
        assert!(p.allows("http://example.com:80", Some("example.com")));
        assert!(p.allows("https://example.com", Some("example.com:443")));
        assert!(p.allows("http://[::1]:3000", Some("[::1]:3000")));
        assert!(p.allows("https://games.example.org", Some("10.0.0.5:3000")));
        assert!(!p.allows("http://evil.example", Some("127.0.0.1:3000")));
        assert!(!p.allows("http://127.0.0.1:3001", Some("127.0.0.1:3000")));
        assert!(!p.allows("http://[::1]", Some("[::1]:3000")));
        assert!(!p.allows("null", Some("127.0.0.1:3000")));
        assert!(!p.allows("http://127.0.0.1:3000", None));
        assert!(!p.allows("file://x", Some("x")));
    }

    #[test]
    fn body_presence_follows_the_framing_headers() {
        let mut h = HeaderMap::new();
        assert!(!has_body(&h));
        h.insert(header::CONTENT_LENGTH, HeaderValue::from_static("0"));
        assert!(!has_body(&h));
        h.insert(header::CONTENT_LENGTH, HeaderValue::from_static("12"));
        assert!(has_body(&h));
        let mut h = HeaderMap::new();
        h.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        assert!(has_body(&h));
    }

    #[test]
    fn the_busy_answer_is_complete_json() {
        let text = String::from_utf8(busy_response()).expect("ascii");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head");
        assert!(head.starts_with("HTTP/1.1 503"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert_eq!(v["code"], "TOO_MANY_CONNECTIONS");
    }
}
