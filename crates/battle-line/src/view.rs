//! What one player may see: their own hand, the table, and only counts of hidden cards.

use crate::card::{Card, Tactic, Troop};
use crate::game::{Command, Flag, Game, Phase, Player, Prompt, Settings};
use serde::{Deserialize, Serialize};

/// The face-down cards of the other hand: troops and tactics have different backs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenHand {
    pub troops: usize,
    pub tactics: usize,
}

/// A player's view of the game, safe to render on a shared screen for that player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub viewer: Player,
    pub current: Player,
    pub phase: Phase,
    pub prompt: Prompt,
    pub settings: Settings,
    pub hand: Vec<Card>,
    pub opponent_hand: HiddenHand,
    pub troop_deck: usize,
    pub tactic_deck: usize,
    pub flags: Vec<Flag>,
    /// The guile area of each player (P0, P1).
    pub field: [Vec<Tactic>; 2],
    pub troop_discard: Vec<Troop>,
    pub tactic_discard: Vec<Tactic>,
    #[serde(rename = "cardsPlayedThisTurn")]
    pub cards_played_this_turn: Vec<Card>,
    #[serde(rename = "activeGuileTactic")]
    pub active_guile_tactic: Option<Tactic>,
    pub tactics_played: [u8; 2],
    /// Flags the viewer could prove now (a hint; the claim timing still applies).
    pub claimable: Vec<u8>,
    /// The viewer's legal commands (empty when it is not the viewer's turn).
    pub legal: Vec<Command>,
    pub winner: Option<Player>,
}

impl Game {
    /// The game as `viewer` may see it: the other hand and both deck orders hidden.
    pub fn view(&self, viewer: Player) -> PlayerView {
        PlayerView {
            viewer,
            current: self.current(),
            phase: self.phase(),
            prompt: self.prompt(),
            settings: self.settings(),
            hand: self.hand(viewer).to_vec(),
            opponent_hand: hidden(self.hand(viewer.opponent())),
            troop_deck: self.troop_deck_len(),
            tactic_deck: self.tactic_deck_len(),
            flags: self.flags().to_vec(),
            field: [
                self.field(Player::P0).to_vec(),
                self.field(Player::P1).to_vec(),
            ],
            troop_discard: self.troop_discard().to_vec(),
            tactic_discard: self.tactic_discard().to_vec(),
            cards_played_this_turn: self.cards_played_this_turn().to_vec(),
            active_guile_tactic: self.active_guile_tactic(),
            tactics_played: [
                self.tactics_played(Player::P0),
                self.tactics_played(Player::P1),
            ],
            claimable: if !self.is_over() {
                self.provable_flags(viewer)
            } else {
                Vec::new()
            },
            legal: if self.current() == viewer {
                self.legal_commands()
            } else {
                Vec::new()
            },
            winner: self.winner(),
        }
    }
}

/// The table as someone who holds no seat may see it (a watcher online): both hands
/// as counts, no legal commands, no hints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    pub current: Player,
    pub phase: Phase,
    pub settings: Settings,
    /// The face-down hands of P0 and P1.
    pub hands: [HiddenHand; 2],
    pub troop_deck: usize,
    pub tactic_deck: usize,
    pub flags: Vec<Flag>,
    /// The guile area of each player (P0, P1).
    pub field: [Vec<Tactic>; 2],
    pub troop_discard: Vec<Troop>,
    pub tactic_discard: Vec<Tactic>,
    #[serde(rename = "cardsPlayedThisTurn")]
    pub cards_played_this_turn: Vec<Card>,
    #[serde(rename = "activeGuileTactic")]
    pub active_guile_tactic: Option<Tactic>,
    pub tactics_played: [u8; 2],
    pub winner: Option<Player>,
}

fn hidden(hand: &[Card]) -> HiddenHand {
    let tactics = hand.iter().filter(|c| c.tactic().is_some()).count();
    HiddenHand {
        troops: hand.len() - tactics,
        tactics,
    }
}

impl Game {
    /// The table without either hand or deck order, for a watcher.
    pub fn table_view(&self) -> TableView {
        TableView {
            current: self.current(),
            phase: self.phase(),
            settings: self.settings(),
            hands: [hidden(self.hand(Player::P0)), hidden(self.hand(Player::P1))],
            troop_deck: self.troop_deck_len(),
            tactic_deck: self.tactic_deck_len(),
            flags: self.flags().to_vec(),
            field: [
                self.field(Player::P0).to_vec(),
                self.field(Player::P1).to_vec(),
            ],
            troop_discard: self.troop_discard().to_vec(),
            tactic_discard: self.tactic_discard().to_vec(),
            cards_played_this_turn: self.cards_played_this_turn().to_vec(),
            active_guile_tactic: self.active_guile_tactic(),
            tactics_played: [
                self.tactics_played(Player::P0),
                self.tactics_played(Player::P1),
            ],
            winner: self.winner(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Settings;

    #[test]
    fn view_hides_the_other_hand_and_deck_order() {
        let g = Game::new(5, Settings::default());
        let v = g.view(Player::P1);
        assert_eq!(v.hand, g.hand(Player::P1));
        assert_eq!(
            v.opponent_hand,
            HiddenHand {
                troops: 7,
                tactics: 0
            }
        );
        assert_eq!(v.troop_deck, 46);
        assert_eq!(v.tactic_deck, 10);
        assert!(v.legal.is_empty(), "not P1's turn");
        let json = serde_json::to_string(&v).expect("views serialize");
        for card in g.hand(Player::P0) {
            let Card::Troop(t) = card else { continue };
            // P0's cards must not appear in P1's view anywhere.
            let needle = serde_json::to_string(t).expect("troops serialize");
            assert!(!json.contains(&needle), "{t} leaked into P1's view");
        }
        assert!(
            !json.contains("troop_deck\":["),
            "deck order must not be serialized"
        );
    }

    #[test]
    fn the_table_view_shows_neither_hand() {
        let g = Game::new(9, Settings::default());
        let v = g.table_view();
        let seven = HiddenHand {
            troops: 7,
            tactics: 0,
        };
        assert_eq!(v.hands, [seven, seven]);
        assert_eq!((v.troop_deck, v.tactic_deck), (46, 10));
        let json = serde_json::to_string(&v).expect("views serialize");
        for player in Player::BOTH {
            for card in g.hand(player) {
                let Card::Troop(t) = card else { continue };
                let needle = serde_json::to_string(t).expect("troops serialize");
                assert!(!json.contains(&needle), "{t} of {player:?} leaked");
            }
        }
    }
}
