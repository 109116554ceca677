//! Per-client-address limit on creating games (`governor`'s keyed limiter), so
//! no single client can churn the bounded store and push other players' games out.

use crate::error::Refusal;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::json;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// Who a request counts against: the peer's IPv4 address, or the /64 network
/// of an IPv6 peer (one host usually holds a whole /64, so counting single
/// IPv6 addresses would let it rotate past any limit).
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

/// The shared limiter state; [`spawn_cleanup`] keeps its memory bounded.
pub(crate) type CreateLimit = Arc<DefaultKeyedRateLimiter<IpAddr>>;

/// A limit of `burst` creations at once per client, refilled at
/// `per_minute` a minute; `None` when either is zero (no limit).
pub(crate) fn create_limit(burst: u32, per_minute: u32) -> Option<CreateLimit> {
    let burst = NonZeroU32::new(burst)?;
    if per_minute == 0 {
        return None;
    }
    let period = Duration::from_secs(60) / per_minute;
    let quota = Quota::with_period(period.max(Duration::from_nanos(1)))?.allow_burst(burst);
    Some(Arc::new(RateLimiter::keyed(quota)))
}

/// Whole seconds a client must wait so that its next try is no longer early:
/// the wait rounded up, and at least 1 (`Retry-After: 0` invites an
/// immediate retry that would be refused again).
pub(crate) fn retry_after_seconds(wait: Duration) -> u64 {
    let up = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    up.max(1)
}

/// Lets a creation through, or refuses it with 429 and a `Retry-After` after
/// which the same client's creation is accepted.
pub(crate) async fn limit_creations(
    State(limit): State<CreateLimit>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ConnectInfo(peer)) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .copied()
    else {
        return Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            "the client address is unknown",
        )
        .into_response();
    };
    match limit.check_key(&client_key(peer.ip())) {
        Ok(()) => next.run(request).await,
        Err(not_until) => {
            let wait = retry_after_seconds(not_until.wait_time_from(limit.clock().now()));
            let mut response = Refusal::new(
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMITED",
                format!("too many games created from this address; retry in {wait} s"),
            )
            .with_details(json!({ "retryAfterSeconds": wait }))
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(wait));
            response
        }
    }
}

/// Forgets clients whose quota is full again, every `every`, until dropped.
pub(crate) fn spawn_cleanup(limit: &CreateLimit, every: Duration) -> tokio::task::JoinHandle<()> {
    let limiter = Arc::clone(limit);
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

    #[test]
    fn retry_after_rounds_the_wait_up_and_is_never_zero() {
        assert_eq!(retry_after_seconds(Duration::from_millis(1_999)), 2);
        assert_eq!(retry_after_seconds(Duration::from_millis(1_001)), 2);
        assert_eq!(retry_after_seconds(Duration::from_secs(2)), 2);
        assert_eq!(retry_after_seconds(Duration::from_nanos(1)), 1);
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
    }
}
