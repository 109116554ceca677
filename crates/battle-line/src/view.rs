//! What one player may see: their own hand, the table, and only counts of hidden cards.

use crate::card::{Card, Tactic, Troop};
use crate::game::{Command, Flag, Game, GameRecord, Phase, Player, Prompt, Settings};
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

impl Game {
    /// The cards of the other hand that `viewer` has seen: cards it put back on top of
    /// a deck with Scout that the other player then drew (and still holds). A seat may
    /// be shown these; everything else of the other hand stays a count.
    pub fn seen_in_other_hand(&self, viewer: Player) -> Vec<Card> {
        let record = self.record();
        let start = GameRecord {
            log: Vec::new(),
            ..record.clone()
        };
        let Ok(mut game) = Game::replay(&start) else {
            return Vec::new();
        };
        let other = viewer.opponent();
        let (mut returned, mut seen) = (Vec::new(), Vec::new());
        for command in &record.log {
            let before = game.hand(other).to_vec();
            let mover = game.current();
            if game.apply(*command).is_err() {
                // A log this game accepted replays: nothing to report otherwise.
                return Vec::new();
            }
            if let Command::ScoutReturn { card } = command
                && mover == viewer
            {
                returned.push(*card);
            }
            let after = game.hand(other);
            seen.extend(
                after
                    .iter()
                    .filter(|c| !before.contains(c) && returned.contains(c)),
            );
            // Played or discarded cards are public now; drawn back by the viewer, its own.
            seen.retain(|c| after.contains(c));
            returned.retain(|c| !game.hand(viewer).contains(c) && !after.contains(c));
        }
        seen
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

    /// A small generator for the random games of the test below.
    fn next(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    #[test]
    fn a_seat_sees_exactly_the_cards_it_scouted_back_that_the_other_then_drew() {
        let mut occurrences = 0;
        for seed in 0..150u64 {
            let mut g = Game::new(seed, Settings::default());
            let mut chooser = seed ^ 0x5eed;
            let mut returned: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
            for _ in 0..200 {
                let legal = g.legal_commands();
                if g.is_over() || legal.is_empty() {
                    break;
                }
                let pick = usize::try_from(next(&mut chooser)).unwrap_or(0) % legal.len();
                let command = legal[pick];
                if let Command::ScoutReturn { card } = command {
                    returned[g.current().index()].push(card);
                }
                g.apply(command).expect("a legal command applies");
                for viewer in Player::BOTH {
                    let seen = g.seen_in_other_hand(viewer);
                    for card in &seen {
                        assert!(g.hand(viewer.opponent()).contains(card), "seed {seed}");
                        assert!(returned[viewer.index()].contains(card), "seed {seed}");
                    }
                    // A card reaches a hand only by a draw: one the viewer put back
                    // and the other holds was drawn by the other, so it is seen.
                    for card in g.hand(viewer.opponent()) {
                        if returned[viewer.index()].contains(card) {
                            assert!(seen.contains(card), "seed {seed}: {card:?} unseen");
                        }
                    }
                    occurrences += seen.len();
                }
            }
        }
        assert!(
            occurrences > 0,
            "no game had a scouted card drawn by the other"
        );
    }
}
