//! What a UI draws: a read-only view of a game with labels and enabled rules precomputed.

use crate::game::Game;
use crate::model::{Player, Position, ProbabilityType, Stone};
use crate::options::OBSERVATIONS_PER_PLAYER;
use crate::state::GameStatus;
use serde::Serialize;

/// One stone as drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoneView {
    /// Who placed it (unobserved stones are shaded by it).
    pub placed_by: Player,
    /// Its type.
    pub probability_type: ProbabilityType,
    /// The `data-prob` attribute: 90, 70, 30 or 10.
    pub data_prob: u8,
    /// The text shown on the stone ("90%"), `None` once observed: observed
    /// stones show only their colour.
    pub label: Option<String>,
    /// The `aria-label`, e.g. "BLACK P90".
    pub aria_label: String,
    /// The colour it collapsed to while an observation holds.
    pub observed_color: Option<Player>,
    /// Turn it was placed on.
    pub turn_placed: u32,
}

impl StoneView {
    fn new(stone: &Stone) -> StoneView {
        let data_prob = stone.probability_type.percent();
        StoneView {
            placed_by: stone.placed_by,
            probability_type: stone.probability_type,
            data_prob,
            label: stone
                .observed_color
                .is_none()
                .then(|| format!("{data_prob}%")),
            aria_label: format!("{} {}", stone.placed_by, stone.probability_type),
            observed_color: stone.observed_color,
            turn_placed: stone.turn_placed,
        }
    }
}

/// One cell as drawn (`data-testid="cell-<row>-<col>"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellView {
    /// Its position.
    pub position: Position,
    /// The `data-testid`.
    pub test_id: String,
    /// The stone, if any.
    pub stone: Option<StoneView>,
    /// Whether the current player may place here.
    pub playable: bool,
    /// Whether it belongs to the winning line of the last observation.
    pub in_winning_line: bool,
}

/// One side's observation counters (`obs-remaining-*`, `obs-used-*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerCounters {
    /// Observations left.
    pub remaining: u8,
    /// Observations made (`5 - remaining`).
    pub used: u8,
}

/// The observe button (`data-testid="observe"`), always shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObserveButton {
    /// The player it is labelled with: the last mover, or black before any move.
    pub player: Player,
    /// "Observe (BLACK)" or "Observe (WHITE)".
    pub label: String,
    /// Enabled exactly when the game is playing and that player may observe.
    pub enabled: bool,
}

/// The last observation as drawn: the collapsed colours and the winning line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservationView {
    /// Who observed.
    pub observed_by: Player,
    /// `turnCount` when it ran.
    pub turn_executed: u32,
    /// Collapsed colour per cell (`None` for empty cells).
    pub colours: Vec<Vec<Option<Player>>>,
    /// Who won, if anyone.
    pub winner: Option<Player>,
    /// The winning line, empty when there was none.
    pub winning_line: Vec<Position>,
}

/// Everything a page needs to render a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// Status.
    pub status: GameStatus,
    /// Who places next.
    pub current_player: Player,
    /// The winner, if finished.
    pub winner: Option<Player>,
    /// Who placed the latest stone.
    pub last_mover: Option<Player>,
    /// Stones placed.
    pub turn_count: u32,
    /// Creation time (ISO-8601).
    pub created_at: String,
    /// Board side.
    pub board_size: usize,
    /// Winning line length.
    pub win_length: usize,
    /// `cells[row][col]`.
    pub cells: Vec<Vec<CellView>>,
    /// Black's counters.
    pub black: PlayerCounters,
    /// White's counters.
    pub white: PlayerCounters,
    /// The type of the current player's next stone.
    pub next_probability_type: ProbabilityType,
    /// The observe button.
    pub observe: ObserveButton,
    /// Whether undo is possible.
    pub can_undo: bool,
    /// The latest observation since the start or last reset.
    pub last_observation: Option<ObservationView>,
}

fn counters(remaining: u8) -> PlayerCounters {
    PlayerCounters {
        remaining,
        used: OBSERVATIONS_PER_PLAYER.saturating_sub(remaining),
    }
}

impl Game {
    /// A read-only view for rendering.
    pub fn view(&self) -> GameView {
        let state = self.state();
        let last_observation = self.last_observation().map(|o| ObservationView {
            observed_by: o.observed_by,
            turn_executed: o.turn_executed,
            colours: o
                .result_board
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|c| c.and_then(|s| s.observed_color))
                        .collect()
                })
                .collect(),
            winner: o.winner,
            winning_line: o.winning_line.clone().unwrap_or_default(),
        });
        let line: &[Position] = last_observation.as_ref().map_or(&[], |o| &o.winning_line);
        let playing = state.status == GameStatus::Playing;
        let cells = state
            .board
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, cell)| {
                        let position = Position::new(r, c);
                        CellView {
                            position,
                            test_id: format!("cell-{r}-{c}"),
                            stone: cell.as_ref().map(StoneView::new),
                            playable: playing && cell.is_none(),
                            in_winning_line: line.contains(&position),
                        }
                    })
                    .collect()
            })
            .collect();
        let button_player = state.last_mover.unwrap_or(Player::Black);
        GameView {
            id: state.id.to_string(),
            status: state.status,
            current_player: state.current_player,
            winner: state.winner,
            last_mover: state.last_mover,
            turn_count: state.turn_count,
            created_at: state.created_at.clone(),
            board_size: self.options().board_size,
            win_length: self.options().win_length,
            cells,
            black: counters(state.black_observations_remaining),
            white: counters(state.white_observations_remaining),
            next_probability_type: self.next_probability_type(),
            observe: ObserveButton {
                player: button_player,
                label: format!("Observe ({button_player})"),
                enabled: self.observer() == Some(button_player),
            },
            can_undo: self.check(crate::Command::Undo).is_ok(),
            last_observation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameOptions;

    #[test]
    fn fresh_view_has_disabled_black_button_and_empty_cells() {
        let g = Game::new(GameOptions::default(), 1, 0).expect("valid options");
        let v = g.view();
        assert_eq!(v.observe.label, "Observe (BLACK)");
        assert!(!v.observe.enabled);
        assert_eq!(v.cells.len(), 15);
        assert_eq!(v.cells[3][4].test_id, "cell-3-4");
        assert!(
            v.cells
                .iter()
                .flatten()
                .all(|c| c.playable && c.stone.is_none())
        );
        assert_eq!(
            v.black,
            PlayerCounters {
                remaining: 5,
                used: 0
            }
        );
    }

    #[test]
    fn stone_labels_match_data_prob() {
        let mut g = Game::new(GameOptions::default(), 1, 0).expect("valid options");
        g.place(Player::Black, Position::new(1, 2)).expect("legal");
        let v = g.view();
        let s = v.cells[1][2].stone.as_ref().expect("a stone");
        assert_eq!(s.data_prob, 90);
        assert_eq!(s.label.as_deref(), Some("90%"));
        assert_eq!(s.aria_label, "BLACK P90");
        assert!(v.observe.enabled);
        assert!(!v.cells[1][2].playable);
    }
}
