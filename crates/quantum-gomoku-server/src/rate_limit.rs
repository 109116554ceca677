//! Per-client-address limit on creating games (`tower_governor`), so no single
//! client can churn the bounded store and push other players' games out.

use crate::error::Refusal;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode, header};
use axum::response::IntoResponse;
use governor::middleware::NoOpMiddleware;
use serde_json::json;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

/// Who a request counts against: the peer's IPv4 address, or the /64 network
/// of an IPv6 peer (one host usually holds a whole /64, so counting single
/// IPv6 addresses would let it rotate past any limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientNetwork;

/// The key [`ClientNetwork`] gives `addr`.
pub(crate) fn client_key(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(prefix))
            }
        },
        v4 => v4,
    }
}

impl KeyExtractor for ClientNetwork {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        req.extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| client_key(addr.ip()))
            .ok_or(GovernorError::UnableToExtractKey)
    }
}

/// The shared limiter state; [`spawn_cleanup`] keeps its memory bounded.
pub(crate) type CreateLimit = Arc<GovernorConfig<ClientNetwork, NoOpMiddleware>>;

/// A limit of `burst` creations at once per client, refilled at
/// `per_minute` a minute; `None` when either is zero (no limit).
pub(crate) fn create_limit(burst: u32, per_minute: u32) -> Option<CreateLimit> {
    if burst == 0 || per_minute == 0 {
        return None;
    }
    let period = Duration::from_secs(60) / per_minute;
    GovernorConfigBuilder::default()
        .period(period.max(Duration::from_nanos(1)))
        .burst_size(burst)
        .key_extractor(ClientNetwork)
        .finish()
        .map(Arc::new)
}

/// The refusal in the error model, with `Retry-After` kept.
pub(crate) fn refusal(error: GovernorError) -> Response<Body> {
    match error {
        GovernorError::TooManyRequests { wait_time, headers } => {
            let mut response = Refusal::new(
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMITED",
                format!("too many games created from this address; retry in {wait_time} s"),
            )
            .with_details(json!({ "retryAfterSeconds": wait_time }))
            .into_response();
            if let Some(retry) = headers.as_ref().and_then(|h| h.get(header::RETRY_AFTER)) {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, retry.clone());
            }
            response
        }
        GovernorError::UnableToExtractKey => Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            "the client address is unknown",
        )
        .into_response(),
        GovernorError::Other { code, msg, .. } => Refusal::new(
            code,
            Refusal::code_for(code),
            msg.unwrap_or_else(|| "refused".to_owned()),
        )
        .into_response(),
    }
}

/// Forgets clients whose quota is full again, every `every`, until dropped.
pub(crate) fn spawn_cleanup(limit: &CreateLimit, every: Duration) -> tokio::task::JoinHandle<()> {
    let limiter = Arc::clone(limit.limiter());
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn ipv6_clients_count_per_64_network_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("v6");
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().expect("v6");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("v6");
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().expect("v6");
        assert_eq!(client_key(mapped), IpAddr::V4(Ipv4Addr::new(10, 1, 2, 3)));
        let v4 = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
        assert_eq!(client_key(v4), v4);
    }

    #[test]
    fn zero_turns_the_limit_off() {
        assert!(create_limit(0, 10).is_none());
        assert!(create_limit(10, 0).is_none());
        assert!(create_limit(10, 30).is_some());
    }
}
