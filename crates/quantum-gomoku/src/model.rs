//! The vocabulary of the game: sides, stone probability types, positions and stones.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A side of the game, which is also the colour a stone can collapse to.
///
/// One type serves both roles because the rules tie them: the black player wins
/// with a line of black stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Player {
    /// Moves first and places mostly-black stones.
    Black,
    /// Moves second and places mostly-white stones.
    White,
}

impl Player {
    /// The other side.
    pub const fn opponent(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// The JSON spelling (`"BLACK"`/`"WHITE"`), also used in UI labels.
    pub const fn as_str(self) -> &'static str {
        match self {
            Player::Black => "BLACK",
            Player::White => "WHITE",
        }
    }

    /// Parses the JSON spelling; anything else is `None`.
    pub fn parse(text: &str) -> Option<Player> {
        match text {
            "BLACK" => Some(Player::Black),
            "WHITE" => Some(Player::White),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How likely an unobserved stone is to collapse to black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProbabilityType {
    /// Black with probability 0.9.
    P90,
    /// Black with probability 0.7.
    P70,
    /// Black with probability 0.3.
    P30,
    /// Black with probability 0.1.
    P10,
}

impl ProbabilityType {
    /// The chance of collapsing to black, in percent (the UI's `data-prob`).
    pub const fn percent(self) -> u8 {
        match self {
            ProbabilityType::P90 => 90,
            ProbabilityType::P70 => 70,
            ProbabilityType::P30 => 30,
            ProbabilityType::P10 => 10,
        }
    }

    /// The chance of collapsing to black, as a probability.
    pub fn black_probability(self) -> f64 {
        f64::from(self.percent()) / 100.0
    }

    /// The type a player's `nth` stone (0-based, counted since the game
    /// started or was reset) gets: black alternates P90, P70; white P10, P30.
    pub const fn for_move(player: Player, nth: u32) -> ProbabilityType {
        let first = nth.is_multiple_of(2);
        match (player, first) {
            (Player::Black, true) => ProbabilityType::P90,
            (Player::Black, false) => ProbabilityType::P70,
            (Player::White, true) => ProbabilityType::P10,
            (Player::White, false) => ProbabilityType::P30,
        }
    }

    /// The name as in the JSON (`"P90"`...).
    pub const fn as_str(self) -> &'static str {
        match self {
            ProbabilityType::P90 => "P90",
            ProbabilityType::P70 => "P70",
            ProbabilityType::P30 => "P30",
            ProbabilityType::P10 => "P10",
        }
    }
}

impl fmt::Display for ProbabilityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A cell of the board, 0-based from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Row index, 0 at the top.
    pub row: usize,
    /// Column index, 0 at the left.
    pub col: usize,
}

impl Position {
    /// A position; whether it is on a board is checked by the game.
    pub const fn new(row: usize, col: usize) -> Position {
        Position { row, col }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A stone on the board. Its position is its index in the board array, as the
/// specification allows, so it is not repeated here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Stone {
    /// Who placed it.
    pub placed_by: Player,
    /// The turn number it was placed on: 1 for the first stone of the game.
    pub turn_placed: u32,
    /// Its chance of collapsing to black.
    pub probability_type: ProbabilityType,
    /// The colour it collapsed to, while an observation holds; `None` when unobserved.
    pub observed_color: Option<Player>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_alternates_per_player() {
        let black: Vec<_> = (0..4)
            .map(|n| ProbabilityType::for_move(Player::Black, n))
            .collect();
        let white: Vec<_> = (0..4)
            .map(|n| ProbabilityType::for_move(Player::White, n))
            .collect();
        use ProbabilityType::*;
        assert_eq!(black, vec![P90, P70, P90, P70]);
        assert_eq!(white, vec![P10, P30, P10, P30]);
    }

    #[test]
    fn stone_json_uses_the_specification_names() {
        let stone = Stone {
            placed_by: Player::White,
            turn_placed: 2,
            probability_type: ProbabilityType::P10,
            observed_color: None,
        };
        let json = serde_json::to_value(stone).expect("plain data serializes");
        assert_eq!(
            json,
            serde_json::json!({"placedBy":"WHITE","turnPlaced":2,"probabilityType":"P10","observedColor":null})
        );
    }

    #[test]
    fn player_parse_round_trips() {
        for p in [Player::Black, Player::White] {
            assert_eq!(Player::parse(p.as_str()), Some(p));
            assert_eq!(p.opponent().opponent(), p);
        }
        assert_eq!(Player::parse("black"), None);
    }
}
