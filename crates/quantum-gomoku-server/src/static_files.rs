//! Serving the built browser page from a directory, refusing paths that leave it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::path::{Path, PathBuf};

/// The content type for a file name, by extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file under `dir` that `url_path` names, or `None` when the path tries
/// to climb out (`..`), is absolute in disguise, or uses escapes we do not
/// decode.
fn resolve(dir: &Path, url_path: &str) -> Option<PathBuf> {
    let mut out = dir.to_path_buf();
    let trimmed = url_path.trim_start_matches('/');
    for segment in trimmed.split('/').filter(|s| !s.is_empty()) {
        let safe = segment != "." && segment != ".." && !segment.contains(['\\', ':', '%', '\0']);
        if !safe {
            return None;
        }
        out.push(segment);
    }
    if trimmed.is_empty() || trimmed.ends_with('/') {
        out.push("index.html");
    }
    Some(out)
}

/// The file's response, or `None` when there is nothing to serve.
///
/// A path without an extension that names no file gets `index.html`, so the
/// page can be opened at any client-side route (for example `/?gameId=...`
/// or `/game/<id>`).
pub(crate) async fn serve(dir: &Path, url_path: &str) -> Option<Response> {
    let path = resolve(dir, url_path)?;
    let (path, bytes) = match tokio::fs::read(&path).await {
        Ok(bytes) => (path, bytes),
        Err(_) if path.extension().is_none() => {
            let index = dir.join("index.html");
            let bytes = tokio::fs::read(&index).await.ok()?;
            (index, bytes)
        }
        Err(_) => return None,
    };
    Some(
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, content_type(&path))],
            bytes,
        )
            .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_stays_inside_the_directory() {
        let dir = Path::new("/srv/dist");
        assert_eq!(
            resolve(dir, "/"),
            Some(PathBuf::from("/srv/dist/index.html"))
        );
        assert_eq!(
            resolve(dir, "/pkg/app.wasm"),
            Some(PathBuf::from("/srv/dist/pkg/app.wasm"))
        );
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
        assert_eq!(resolve(dir, "/a/%2e%2e/b"), None);
        assert_eq!(resolve(dir, "/a\\..\\b"), None);
    }

    #[test]
    fn content_types_cover_the_page_files() {
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        assert!(content_type(Path::new("index.html")).starts_with("text/html"));
    }
}
