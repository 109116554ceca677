//! An in-memory, bounded store of games with the HTTP API's semantics and error model.
//!
//! The server crate only moves bytes: it hands path ids and request bodies to
//! [`GameService`] and writes back the serialized response or [`ApiError`] with
//! [`ServiceError::http_status`]. Keeping the semantics here lets them be tested
//! without sockets. The service draws no ids: the caller passes each new game's
//! id, which a server takes from the operating system's secure random source.

use crate::game::{Game, ObservationResult, RuleError};
use crate::id::{GameId, InvalidId};
use crate::model::{Player, Position};
use crate::options::{GameOptions, OptionsError};
use crate::state::GameState;
use seeded_rng::Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// How many games the store keeps unless told otherwise; creating one more
/// evicts the least recently used, so memory stays bounded.
pub const DEFAULT_MAX_GAMES: usize = 1000;

/// Body of `POST /games`: optional new-game options (absent = defaults).
pub type NewGameRequest = GameOptions;

/// A position as sent by clients; signed so that negative values are an
/// `INVALID_POSITION` rather than a malformed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPosition {
    /// Row, 0-based.
    pub row: i64,
    /// Column, 0-based.
    pub col: i64,
}

/// Body of `POST /games/:id/moves`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoveRequest {
    /// Who moves.
    pub player_id: Player,
    /// Where.
    pub position: RawPosition,
}

/// Body of `POST /games/:id/observations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObservationRequest {
    /// Who observes.
    pub player_id: Player,
    /// Optional seed fixing the collapse.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `201 { gameId, gameState }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedResponse {
    /// The new id.
    pub game_id: GameId,
    /// The initial state.
    pub game_state: GameState,
}

/// `200 { gameState }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateResponse {
    /// The state after the request.
    pub game_state: GameState,
}

/// `200 { observationResult, gameState }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservationResponse {
    /// What the observation showed.
    pub observation_result: ObservationResult,
    /// The state after it.
    pub game_state: GameState,
}

/// `200 { success: true }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteResponse {
    /// Always true (a failed delete is an error).
    pub success: bool,
}

/// The API's error body: `{ code, message, details? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiError {
    /// Machine-readable code such as `NOT_FOUND`.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// Extra facts (the offending position, whose turn it is...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

/// Why a request was refused. A refused request changes nothing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ServiceError {
    /// The path id is not a UUID v1-v5.
    #[error(transparent)]
    InvalidId(#[from] InvalidId),
    /// No game has this id (never existed, deleted or evicted).
    #[error("no game with id {0}")]
    NotFound(GameId),
    /// A new game was given the id of a stored one (the caller draws another).
    #[error("the id {0} is already in use")]
    IdInUse(GameId),
    /// The rules refused the command.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The new-game options are invalid.
    #[error("invalid game options: {0}")]
    InvalidOptions(#[from] OptionsError),
    /// The body is not acceptable JSON for this request (malformed, wrong
    /// types, unknown fields, wrong content type, too large).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
}

impl ServiceError {
    /// The API error code.
    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::InvalidId(_) => "INVALID_ID",
            ServiceError::NotFound(_) => "NOT_FOUND",
            ServiceError::IdInUse(_) => "ID_IN_USE",
            ServiceError::Rule(e) => e.code(),
            ServiceError::InvalidOptions(_) => "INVALID_OPTIONS",
            ServiceError::InvalidRequest(_) => "INVALID_REQUEST",
        }
    }

    /// The HTTP status code.
    pub fn http_status(&self) -> u16 {
        match self {
            ServiceError::NotFound(_) => 404,
            ServiceError::IdInUse(_) => 409,
            ServiceError::Rule(e) => e.http_status(),
            ServiceError::InvalidId(_)
            | ServiceError::InvalidOptions(_)
            | ServiceError::InvalidRequest(_) => 400,
        }
    }

    /// Facts a client may use, beyond the message.
    fn details(&self) -> Option<serde_json::Value> {
        use serde_json::json;
        match self {
            ServiceError::InvalidId(InvalidId(id)) => Some(json!({ "id": id })),
            ServiceError::NotFound(id) | ServiceError::IdInUse(id) => Some(json!({ "id": id })),
            ServiceError::Rule(RuleError::InvalidPosition { row, col, size }) => {
                Some(json!({ "row": row, "col": col, "boardSize": size }))
            }
            ServiceError::Rule(RuleError::CellOccupied(p)) => {
                Some(json!({ "row": p.row, "col": p.col }))
            }
            ServiceError::Rule(RuleError::OutOfTurn { expected, got }) => {
                Some(json!({ "currentPlayer": expected, "playerId": got }))
            }
            ServiceError::Rule(RuleError::ObsNotAllowed { player, last_mover }) => {
                Some(json!({ "playerId": player, "lastMover": last_mover }))
            }
            ServiceError::Rule(RuleError::ObsLimitExceeded(p)) => Some(json!({ "playerId": p })),
            ServiceError::Rule(RuleError::GameOver(status)) => Some(json!({ "status": status })),
            _ => None,
        }
    }

    /// The error body.
    pub fn to_api_error(&self) -> ApiError {
        ApiError {
            code: self.code().to_owned(),
            message: self.to_string(),
            details: self.details(),
        }
    }
}

/// Parses a JSON request body, turning every failure into `INVALID_REQUEST`.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ServiceError> {
    serde_json::from_slice(body).map_err(|e| ServiceError::InvalidRequest(format!("body: {e}")))
}

/// A bounded in-memory store of games that evicts the least recently used.
#[derive(Debug, Clone)]
pub struct GameService {
    /// Each game with the sequence number of its latest use.
    games: HashMap<GameId, (u64, Game)>,
    /// Latest-use sequence number to game: the first entry is evicted first.
    order: BTreeMap<u64, GameId>,
    next_seq: u64,
    /// Forks each new game's generator (observation seeds the caller leaves out).
    rng: Rng,
    max_games: usize,
}

impl GameService {
    /// An empty store keeping at most `max_games` games (at least 1); each
    /// game's generator is forked from `seed`. Ids come from the caller.
    pub fn new(seed: u64, max_games: usize) -> GameService {
        GameService {
            games: HashMap::new(),
            order: BTreeMap::new(),
            next_seq: 0,
            rng: Rng::new(seed),
            max_games: max_games.max(1),
        }
    }

    /// Number of games held.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is held.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The most games held at once.
    pub fn max_games(&self) -> usize {
        self.max_games
    }

    /// Whether a game has this id.
    pub fn contains(&self, id: &GameId) -> bool {
        self.games.contains_key(id)
    }

    /// A game by id, for inspection (not counted as a use).
    pub fn game(&self, id: &str) -> Result<&Game, ServiceError> {
        let id = GameId::parse(id)?;
        self.games
            .get(&id)
            .map(|(_, g)| g)
            .ok_or(ServiceError::NotFound(id))
    }

    /// A game by id for a request, which makes it the most recently used
    /// (even if the rules then refuse the request: someone is playing it).
    fn use_game(&mut self, id: &str) -> Result<&mut Game, ServiceError> {
        let id = GameId::parse(id)?;
        let seq = self.next_seq;
        let (last, game) = self.games.get_mut(&id).ok_or(ServiceError::NotFound(id))?;
        self.order.remove(last);
        self.order.insert(seq, id);
        *last = seq;
        self.next_seq += 1;
        Ok(game)
    }

    /// `POST /games`: a new game named `id`, created at `now_ms` (Unix
    /// milliseconds). The least recently used game makes room when the store
    /// is full; an `id` already in use is refused with [`ServiceError::IdInUse`].
    pub fn create(
        &mut self,
        id: GameId,
        options: GameOptions,
        now_ms: u64,
    ) -> Result<CreatedResponse, ServiceError> {
        let options = options.validate()?;
        if self.games.contains_key(&id) {
            return Err(ServiceError::IdInUse(id));
        }
        let game = Game::with_id(id, options, self.rng.fork(), now_ms)?;
        while self.games.len() >= self.max_games {
            match self.order.pop_first() {
                Some((_, old)) => {
                    self.games.remove(&old);
                }
                None => break,
            }
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let game_state = game.state().clone();
        self.order.insert(seq, id);
        self.games.insert(id, (seq, game));
        Ok(CreatedResponse {
            game_id: id,
            game_state,
        })
    }

    /// `GET /games/:id`.
    pub fn get(&mut self, id: &str) -> Result<StateResponse, ServiceError> {
        Ok(StateResponse {
            game_state: self.use_game(id)?.state().clone(),
        })
    }

    /// `POST /games/:id/moves`.
    pub fn place(
        &mut self,
        id: &str,
        request: &MoveRequest,
    ) -> Result<StateResponse, ServiceError> {
        place_in(self.use_game(id)?, request)
    }

    /// `POST /games/:id/observations`.
    pub fn observe(
        &mut self,
        id: &str,
        request: &ObservationRequest,
    ) -> Result<ObservationResponse, ServiceError> {
        let game = self.use_game(id)?;
        let observation_result = game.observe(request.player_id, request.seed)?;
        Ok(ObservationResponse {
            observation_result,
            game_state: game.state().clone(),
        })
    }

    /// `POST /games/:id/reset`: same id and `createdAt`, fresh everything else.
    pub fn reset(&mut self, id: &str) -> Result<StateResponse, ServiceError> {
        let game = self.use_game(id)?;
        game.reset();
        Ok(StateResponse {
            game_state: game.state().clone(),
        })
    }

    /// `DELETE /games/:id`.
    pub fn delete(&mut self, id: &str) -> Result<DeleteResponse, ServiceError> {
        let gid = GameId::parse(id)?;
        let (seq, _) = self.games.remove(&gid).ok_or(ServiceError::NotFound(gid))?;
        self.order.remove(&seq);
        Ok(DeleteResponse { success: true })
    }
}

/// `POST /games/:id/moves` on a game at hand (the service's own or one a server loaded
/// from its store): a position off the board is `InvalidPosition`, after the turn and
/// status checks as for positions on it.
pub fn place_in(game: &mut Game, request: &MoveRequest) -> Result<StateResponse, ServiceError> {
    let size = game.options().board_size;
    let RawPosition { row, col } = request.position;
    let position = match (usize::try_from(row), usize::try_from(col)) {
        (Ok(r), Ok(c)) => Position::new(r, c),
        // Turn and status come first, as for on-board positions.
        _ => {
            game.check(crate::Command::Place {
                player: request.player_id,
                position: Position::new(0, 0),
            })
            .or_else(|e| match e {
                RuleError::CellOccupied(_) => Ok(()),
                other => Err(other),
            })?;
            return Err(RuleError::InvalidPosition { row, col, size }.into());
        }
    };
    game.place(request.player_id, position)?;
    Ok(StateResponse {
        game_state: game.state().clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> GameId {
        GameId::from_random_bytes([n; 16])
    }

    fn new_game(s: &mut GameService, n: u8) -> String {
        s.create(id(n), GameOptions::default(), 0)
            .expect("valid")
            .game_id
            .to_string()
    }

    #[test]
    fn least_recently_used_game_is_evicted_past_the_cap() {
        let mut s = GameService::new(1, 2);
        let a = new_game(&mut s, 1);
        let b = new_game(&mut s, 2);
        s.get(&a).expect("stored");
        let c = new_game(&mut s, 3);
        assert_eq!(s.len(), 2);
        assert!(matches!(s.get(&b), Err(ServiceError::NotFound(_))));
        assert!(s.get(&a).is_ok() && s.get(&c).is_ok());
    }

    #[test]
    fn a_refused_move_still_counts_as_a_use() {
        let mut s = GameService::new(1, 2);
        let a = new_game(&mut s, 1);
        let b = new_game(&mut s, 2);
        let out_of_turn = MoveRequest {
            player_id: Player::White,
            position: RawPosition { row: 0, col: 0 },
        };
        assert!(s.place(&a, &out_of_turn).is_err());
        new_game(&mut s, 3);
        assert!(s.game(&a).is_ok());
        assert!(s.game(&b).is_err());
    }

    #[test]
    fn an_id_in_use_is_refused_and_the_stored_game_kept() {
        let mut s = GameService::new(1, 4);
        let a = new_game(&mut s, 1);
        let before = s.game(&a).cloned().expect("stored");
        let err = s
            .create(id(1), GameOptions::new(5, 3), 9)
            .expect_err("id taken");
        assert_eq!((err.code(), err.http_status()), ("ID_IN_USE", 409));
        assert_eq!(s.game(&a).cloned().expect("stored"), before);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn oldest_game_is_evicted_past_the_cap_when_none_was_used() {
        let mut s = GameService::new(1, 2);
        let a = new_game(&mut s, 1);
        let b = new_game(&mut s, 2);
        let c = new_game(&mut s, 3);
        assert_eq!(s.len(), 2);
        assert!(matches!(s.get(&a), Err(ServiceError::NotFound(_))));
        assert!(s.get(&b).is_ok() && s.get(&c).is_ok());
    }

    #[test]
    fn delete_frees_a_slot_without_evicting_others() {
        let mut s = GameService::new(1, 2);
        let a = new_game(&mut s, 1);
        let b = new_game(&mut s, 2);
        s.delete(&a).expect("exists");
        new_game(&mut s, 3);
        assert!(s.get(&b).is_ok());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn errors_map_to_codes_and_statuses() {
        let e = ServiceError::from(RuleError::ObsLimitExceeded(Player::Black));
        assert_eq!((e.code(), e.http_status()), ("OBS_LIMIT_EXCEEDED", 409));
        let body = serde_json::to_value(e.to_api_error()).expect("plain data");
        assert_eq!(body["code"], "OBS_LIMIT_EXCEEDED");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
        let e = ServiceError::InvalidRequest("x".into());
        let body = serde_json::to_value(e.to_api_error()).expect("plain data");
        assert!(body.get("details").is_none());
    }

    #[test]
    fn body_parsing_refuses_unknown_fields_and_wrong_types() {
        assert!(
            parse_body::<MoveRequest>(br#"{"playerId":"BLACK","position":{"row":1,"col":2}}"#)
                .is_ok()
        );
        for bad in [
            &br#"{"playerId":"BLACK","position":{"row":1,"col":2},"x":1}"#[..],
            br#"{"playerId":"BLACK","position":{"row":"1","col":2}}"#,
            br#"{"playerId":"RED","position":{"row":1,"col":2}}"#,
            br#"{"playerId":"BLACK""#,
            b"",
        ] {
            assert!(matches!(
                parse_body::<MoveRequest>(bad),
                Err(ServiceError::InvalidRequest(_))
            ));
        }
    }
}
