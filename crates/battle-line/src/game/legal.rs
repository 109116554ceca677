//! What the rules allow now: the legal commands, those of one card, the cards that have any.

use crate::card::{Card, Tactic, TacticKind};

use super::{Command, Deck, Destination, FLAGS, Game, Phase, Target, command_card};

impl Game {
    /// Every command the current player may issue now (claims only when provable).
    /// `SortHand` is listed for the current player only, though it is always accepted.
    pub fn legal_commands(&self) -> Vec<Command> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let me = self.current;
        let opp = me.opponent();
        out.push(Command::SortHand { player: me });
        if self.claim_allowed_now() {
            out.extend(
                self.provable_flags(me)
                    .into_iter()
                    .map(|flag| Command::ClaimFlag { flag }),
            );
        }
        let open_flags: Vec<u8> = (0..FLAGS)
            .filter(|&f| self.flags[usize::from(f)].owner.is_none())
            .collect();
        let slot_flags: Vec<u8> = (0..FLAGS)
            .filter(|&f| self.flags[usize::from(f)].open_for(me))
            .collect();
        let decks = [Deck::Troop, Deck::Tactic];
        match self.phase {
            Phase::Play => {
                let mut hand = self.hands[me.index()].clone();
                hand.sort();
                hand.dedup();
                for card in hand {
                    if let Card::Tactic(t) = card
                        && self.may_play_tactic(t).is_err()
                    {
                        continue;
                    }
                    match card {
                        c if c.fits_troop_slot() => {
                            out.extend(slot_flags.iter().map(|&flag| Command::PlayCard {
                                card,
                                target: Target::Flag { flag },
                            }))
                        }
                        Card::Tactic(t) if t.kind() == TacticKind::Environment => {
                            out.extend(open_flags.iter().map(|&flag| Command::PlayCard {
                                card,
                                target: Target::Flag { flag },
                            }))
                        }
                        Card::Tactic(t) => {
                            if self.guile_has_target(t) {
                                out.push(Command::PlayCard {
                                    card,
                                    target: Target::Field,
                                });
                            }
                        }
                        Card::Troop(_) => {}
                    }
                }
                if !self.troop_playable() {
                    out.push(Command::Pass);
                }
            }
            Phase::Guile { tactic } => {
                let side = if tactic == Tactic::Redeploy { me } else { opp };
                for &flag in &open_flags {
                    let f = &self.flags[usize::from(flag)];
                    let cards: Vec<Card> = f
                        .slots(side)
                        .iter()
                        .copied()
                        .chain(f.tactic(side).iter().map(|t| Card::Tactic(*t)))
                        .collect();
                    for card in cards {
                        match tactic {
                            Tactic::Redeploy => {
                                out.push(Command::ResolveRedeploy {
                                    card,
                                    to: Destination::Discard,
                                });
                                let dests = if card.fits_troop_slot() {
                                    &slot_flags
                                } else {
                                    &open_flags
                                };
                                out.extend(dests.iter().filter(|&&d| d != flag).map(|&d| {
                                    Command::ResolveRedeploy {
                                        card,
                                        to: Destination::Flag { flag: d },
                                    }
                                }));
                            }
                            Tactic::Deserter => out.push(Command::ResolveDeserter { card }),
                            _ => {
                                if let Card::Troop(t) = card {
                                    out.extend(
                                        slot_flags
                                            .iter()
                                            .map(|&d| Command::ResolveTraitor { card: t, flag: d }),
                                    );
                                }
                            }
                        }
                    }
                }
            }
            Phase::ScoutDraw { .. } => {
                out.extend(
                    decks
                        .into_iter()
                        .filter(|d| self.deck_len(*d) > 0)
                        .map(|deck| Command::ScoutDraw { deck }),
                );
            }
            Phase::ScoutReturn { .. } => {
                out.extend(
                    self.hands[me.index()]
                        .iter()
                        .map(|&card| Command::ScoutReturn { card }),
                );
            }
            Phase::Finish { may_draw } => {
                for &card in &self.cards_played_this_turn {
                    let Ok((_, from)) = self.board_spot(card, me) else {
                        continue;
                    };
                    let dests = if card.fits_troop_slot() {
                        &slot_flags
                    } else {
                        &open_flags
                    };
                    out.extend(
                        dests
                            .iter()
                            .filter(|&&d| usize::from(d) != from)
                            .map(|&flag| Command::MoveCard { card, flag }),
                    );
                }
                if may_draw && self.any_deck() {
                    out.extend(
                        decks
                            .into_iter()
                            .filter(|d| self.deck_len(*d) > 0)
                            .map(|deck| Command::DrawAndEndTurn { deck }),
                    );
                } else {
                    out.push(Command::EndTurn);
                }
            }
            Phase::GameOver { .. } | Phase::Stalemate => {}
        }
        out
    }

    /// The legal commands that act on `card` (play it, move it, or target it): what
    /// the page highlights as valid targets once the card is selected.
    pub fn commands_for_card(&self, card: Card) -> Vec<Command> {
        self.legal_commands()
            .into_iter()
            .filter(|c| command_card(*c) == Some(card))
            .collect()
    }

    /// Cards the current player may select now. Cards played on earlier turns are not
    /// selectable unless a guile tactic targets them (seed 001).
    pub fn selectable_cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = self
            .legal_commands()
            .into_iter()
            .filter_map(command_card)
            .collect();
        cards.sort();
        cards.dedup();
        cards
    }
}
