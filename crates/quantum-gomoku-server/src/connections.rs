//! Accepting connections: hyper's HTTP/1.1 with a header timeout (which also
//! ends idle keep-alive connections), a connection limit, and a shutdown that
//! finishes requests being answered but never waits for half-sent ones.

use crate::policy::busy_response;
use axum::Router;
use axum::body::Body;
use axum::body::Bytes;
use axum::extract::ConnectInfo;
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

/// Largest request head hyper reads; beyond it hyper itself answers 431 with
/// an empty body. Our own, lower limits answer in the error model first.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Most header fields hyper parses (its own refusal above: 431, empty body).
const MAX_HEADERS: usize = 128;
/// Connections over the limit answered with a 503 at once; more are dropped.
const BUSY_ANSWERS_AT_ONCE: usize = 64;
/// How long a 503 to a connection over the limit may take.
const BUSY_ANSWER_TIME: Duration = Duration::from_secs(1);
/// Pause after an accept error such as "too many open files", so the loop
/// does not spin while the process has no descriptor to spare.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// The connection-level limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) header_timeout: Duration,
    pub(crate) max_connections: usize,
    pub(crate) shutdown_grace: Duration,
}

/// Serves `app` on `listener` until `shutdown` resolves, then finishes the
/// requests in flight (within the grace period) and returns.
pub(crate) async fn run(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    // At most u32::MAX, so that the final `acquire_many` can take them all.
    let max = limits
        .max_connections
        .clamp(1, Semaphore::MAX_PERMITS)
        .min(u32::MAX as usize);
    let slots = Arc::new(Semaphore::new(max));
    let busy_slots = Arc::new(Semaphore::new(BUSY_ANSWERS_AT_ONCE));
    let (stop, stopped) = watch::channel(false);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_header_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    if is_resource_error(&e) {
                        tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                    }
                    continue;
                }
            },
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::warn!(%remote, max, "connection limit reached; answering 503");
            turn_away(stream, &busy_slots);
            continue;
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%remote, error = %e, "could not disable Nagle's algorithm");
        }
        let http = http.clone();
        let app = app.clone();
        let stopped = stopped.clone();
        tokio::spawn(async move {
            connection(stream, remote, http, app, stopped, limits.shutdown_grace).await;
            drop(slot);
        });
    }
    drop(listener);
    // Receivers only read the flag, so sending fails only without any left.
    let _ = stop.send(true);
    // Every connection task holds a slot until it ends.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
}

fn is_resource_error(e: &std::io::Error) -> bool {
    // EMFILE, ENFILE, ENOBUFS, ENOMEM on Linux and the BSDs.
    matches!(e.raw_os_error(), Some(24 | 23 | 105 | 12 | 55))
}

/// Answers a connection over the limit with a 503 in the error model.
fn turn_away(mut stream: TcpStream, busy_slots: &Arc<Semaphore>) {
    let Ok(permit) = Arc::clone(busy_slots).try_acquire_owned() else {
        return;
    };
    tokio::spawn(async move {
        let answer = async {
            stream.write_all(&busy_response()).await?;
            stream.shutdown().await?;
            // Read what the client sent until it closes, so the kernel does
            // not reset the connection (and lose the answer) over unread bytes.
            let mut sink = [0u8; 1024];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<(), std::io::Error>(())
        };
        let _ = tokio::time::timeout(BUSY_ANSWER_TIME, answer).await;
        drop(permit);
    });
}

/// One connection: requests go to `app` with the peer's address attached.
async fn connection(
    stream: TcpStream,
    remote: SocketAddr,
    http: http1::Builder,
    app: Router,
    mut stopped: watch::Receiver<bool>,
    grace: Duration,
) {
    let (counter, in_flight) = watch::channel(0usize);
    let counter = Arc::new(counter);
    let service = tower::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(remote));
        let request_in_flight = InFlight::enter(Arc::clone(&counter));
        let app = app.clone();
        async move {
            let response = match app.oneshot(request).await {
                Ok(r) => r,
                Err(never) => match never {},
            };
            Ok::<_, Infallible>(response.map(|body| {
                Body::new(Tracked {
                    inner: body,
                    _in_flight: request_in_flight,
                })
            }))
        }
    });
    let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    let mut conn = std::pin::pin!(conn);
    let stop = async move {
        // The guard `wait_for` returns must not live across the awaits below.
        let _ = stopped.wait_for(|s| *s).await.map(|_| ());
    };
    tokio::select! {
        result = conn.as_mut() => log_end(remote, result),
        () = stop => {
            // Idle and half-sent connections end now; one whose response is
            // being produced or sent gets to finish it, then closes.
            if *in_flight.borrow() > 0 {
                conn.as_mut().graceful_shutdown();
                if let Ok(result) = tokio::time::timeout(grace, conn.as_mut()).await {
                    log_end(remote, result);
                }
            }
        }
    }
}

fn log_end(remote: SocketAddr, result: Result<(), hyper::Error>) {
    if let Err(e) = result {
        // Header timeouts and clients that hang up are routine on a public
        // network; they are logged, but not as warnings.
        tracing::info!(%remote, error = %e, "connection ended with an error");
    }
}

/// Counts a request as in flight from its arrival until its response body
/// has been sent or dropped.
#[derive(Debug)]
struct InFlight(Arc<watch::Sender<usize>>);

impl InFlight {
    fn enter(counter: Arc<watch::Sender<usize>>) -> InFlight {
        counter.send_modify(|n| *n += 1);
        InFlight(counter)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// A response body that keeps its request counted as in flight.
#[derive(Debug)]
struct Tracked {
    inner: Body,
    _in_flight: InFlight,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
