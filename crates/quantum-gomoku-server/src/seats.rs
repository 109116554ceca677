//! Seats of online games: who may move for which colour.
//!
//! A game created through `POST /seated-games` has two seats. Taking a seat
//! (creating the game, or joining it) hands out a token of 256 bits from the
//! OS's secure random source; the server keeps only its SHA-256, so a copy of
//! the database lets nobody move. Moves and observations of a seated game must
//! carry `Authorization: Bearer <token>` of the seat of the colour they act
//! for; reset and delete, the token of either seat. Anyone who knows the id may
//! still read and watch. Games created through seed 003's `POST /games` have no
//! seats and ignore the header, so the seed's contract holds for them unchanged.

use crate::error::Refusal;
use axum::http::{HeaderMap, StatusCode, header};
use base64::Engine;
use quantum_gomoku::Player;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

/// The SHA-256 of a seat token.
pub(crate) type TokenHash = [u8; 32];

/// The seats of a seated game: each colour's token hash, `None` while open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Seats {
    pub(crate) black: Option<TokenHash>,
    pub(crate) white: Option<TokenHash>,
}

impl Seats {
    /// Seats with `player`'s taken by `hash` and the other open.
    pub(crate) fn taken_by(player: Player, hash: TokenHash) -> Seats {
        let mut seats = Seats::default();
        *seats.seat_mut(player) = Some(hash);
        seats
    }

    pub(crate) fn seat(&self, player: Player) -> Option<&TokenHash> {
        match player {
            Player::Black => self.black.as_ref(),
            Player::White => self.white.as_ref(),
        }
    }

    pub(crate) fn seat_mut(&mut self, player: Player) -> &mut Option<TokenHash> {
        match player {
            Player::Black => &mut self.black,
            Player::White => &mut self.white,
        }
    }

    /// The first open seat, black before white.
    pub(crate) fn open(&self) -> Option<Player> {
        [Player::Black, Player::White]
            .into_iter()
            .find(|p| self.seat(*p).is_none())
    }
}

/// A token as the client receives it and its hash as the server keeps it.
#[derive(Debug, Clone)]
pub(crate) struct NewToken {
    pub(crate) token: String,
    pub(crate) hash: TokenHash,
}

/// A fresh seat token: 32 bytes of the OS's secure random source, base64url.
pub(crate) fn new_token() -> Result<NewToken, Refusal> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ENTROPY_UNAVAILABLE",
            format!("the operating system's random source failed: {e}"),
        )
    })?;
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let hash = hash_token(&token);
    Ok(NewToken { token, hash })
}

/// The hash the server keeps of `token`.
pub(crate) fn hash_token(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// The hash of the request's `Authorization: Bearer` token, if it has one
/// (any other form of the header counts as none).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<TokenHash> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| hash_token(token))
}

/// Who a command acts for, for the seat check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ActsFor {
    /// A move or observation: the seat of this colour.
    Seat(Player),
    /// Reset or delete: either seat.
    AnySeat,
}

/// Whether a request carrying `token` may act as `acts_for` on a game with
/// `seats` (`None`: the game has no seats, and anyone may, as in seed 003).
pub(crate) fn authorize(
    seats: Option<&Seats>,
    acts_for: ActsFor,
    token: Option<&TokenHash>,
) -> Result<(), Refusal> {
    let Some(seats) = seats else { return Ok(()) };
    let Some(token) = token else {
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "SEAT_TOKEN_REQUIRED",
            "this game has seats: send the seat's token as Authorization: Bearer <token>",
        ));
    };
    let allowed = match acts_for {
        ActsFor::Seat(player) => seats.seat(player) == Some(token),
        ActsFor::AnySeat => {
            seats.black.as_ref() == Some(token) || seats.white.as_ref() == Some(token)
        }
    };
    if allowed {
        return Ok(());
    }
    let details = match acts_for {
        ActsFor::Seat(player) => json!({ "playerId": player }),
        ActsFor::AnySeat => json!({}),
    };
    Err(Refusal::new(
        StatusCode::FORBIDDEN,
        "NOT_YOUR_SEAT",
        match acts_for {
            ActsFor::Seat(player) => format!("this token does not hold the {player:?} seat"),
            ActsFor::AnySeat => "this token holds no seat of this game".to_owned(),
        },
    )
    .with_details(details))
}

/// Body of `POST /seated-games`: the new game's options and the creator's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct SeatedGameRequest {
    #[serde(default)]
    pub(crate) board_size: Option<usize>,
    #[serde(default)]
    pub(crate) win_length: Option<usize>,
    /// The creator's colour (default black).
    #[serde(default)]
    pub(crate) player_id: Option<Player>,
}

/// Body of `POST /games/:id/seats`: the colour wanted (default: the open one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct JoinRequest {
    #[serde(default)]
    pub(crate) player_id: Option<Player>,
}

/// A seat handed out: its colour and the token (shown this once only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SeatGrant {
    pub(crate) player_id: Player,
    pub(crate) token: String,
}

/// Which seats of a game are taken (`GET /games/:id/seats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SeatsView {
    pub(crate) seated: bool,
    pub(crate) black_taken: bool,
    pub(crate) white_taken: bool,
}

impl SeatsView {
    pub(crate) fn of(seats: Option<&Seats>) -> SeatsView {
        SeatsView {
            seated: seats.is_some(),
            black_taken: seats.is_some_and(|s| s.black.is_some()),
            white_taken: seats.is_some_and(|s| s.white.is_some()),
        }
    }
}

/// Why a seat could not be taken.
pub(crate) fn no_seats(id: &quantum_gomoku::GameId) -> Refusal {
    Refusal::new(
        StatusCode::CONFLICT,
        "NOT_SEATED",
        format!("the game {id} was created without seats: anyone may play it"),
    )
    .with_details(json!({ "id": id }))
}

pub(crate) fn seat_taken(id: &quantum_gomoku::GameId, wanted: Option<Player>) -> Refusal {
    Refusal::new(
        StatusCode::CONFLICT,
        "SEAT_TAKEN",
        match wanted {
            Some(p) => format!("the {p:?} seat of the game {id} is taken"),
            None => format!("both seats of the game {id} are taken"),
        },
    )
    .with_details(json!({ "id": id, "playerId": wanted }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn tokens_are_long_random_and_kept_only_as_their_hash() {
        let a = new_token().expect("OS rng");
        let b = new_token().expect("OS rng");
        assert_ne!(a.token, b.token);
        assert_eq!(a.token.len(), 43);
        assert_eq!(a.hash, hash_token(&a.token));
        assert_ne!(a.hash[..], a.token.as_bytes()[..32]);
    }

    #[test]
    fn only_a_bearer_header_yields_a_token() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer abc"),
        );
        assert_eq!(bearer(&h), Some(hash_token("abc")));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  abc "),
        );
        assert_eq!(bearer(&h), Some(hash_token("abc")));
        for other in ["Basic abc", "Bearer", "Bearer ", "abc"] {
            h.insert(header::AUTHORIZATION, HeaderValue::from_static(other));
            assert_eq!(bearer(&h), None, "{other}");
        }
    }

    #[test]
    fn a_seat_accepts_its_own_token_only_and_unseated_games_accept_anyone() {
        let black = hash_token("b");
        let white = hash_token("w");
        let seats = Seats {
            black: Some(black),
            white: Some(white),
        };
        assert!(authorize(None, ActsFor::Seat(Player::Black), None).is_ok());
        let seat = |p, t| authorize(Some(&seats), ActsFor::Seat(p), t).map_err(|r| r.error.code);
        assert_eq!(seat(Player::Black, Some(&black)), Ok(()));
        assert_eq!(
            seat(Player::White, Some(&black)),
            Err("NOT_YOUR_SEAT".to_owned())
        );
        assert_eq!(
            seat(Player::White, None),
            Err("SEAT_TOKEN_REQUIRED".to_owned())
        );
        let any = |t| authorize(Some(&seats), ActsFor::AnySeat, t).map_err(|r| r.status);
        assert_eq!(any(Some(&white)), Ok(()));
        assert_eq!(any(Some(&hash_token("x"))), Err(StatusCode::FORBIDDEN));
        // An open seat accepts no token at all.
        let half = Seats::taken_by(Player::Black, black);
        assert_eq!(half.open(), Some(Player::White));
        assert!(authorize(Some(&half), ActsFor::Seat(Player::White), Some(&black)).is_err());
    }
}
