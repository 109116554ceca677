//! The guile tactics' effects (Scout, Redeploy, Deserter, Traitor) and moving cards.

use crate::card::{Card, Tactic, TacticKind, Troop};
use crate::error::RuleError;

use super::{Deck, Destination, Event, Flag, Game, Phase, Player, Spot, flag_index};

impl Game {
    /// Whether a guile tactic would have something to act on for the current player.
    pub(super) fn guile_has_target(&self, t: Tactic) -> bool {
        let me = self.current;
        let opp = me.opponent();
        let open = |f: &&Flag| f.owner.is_none();
        match t {
            Tactic::Scout => self.any_deck(),
            Tactic::Redeploy => self
                .flags
                .iter()
                .filter(open)
                .any(|f| !f.slots(me).is_empty() || !f.tactic(me).is_empty()),
            Tactic::Deserter => self
                .flags
                .iter()
                .filter(open)
                .any(|f| !f.slots(opp).is_empty() || !f.tactic(opp).is_empty()),
            Tactic::Traitor => {
                self.flags
                    .iter()
                    .filter(open)
                    .any(|f| f.slots(opp).iter().any(|c| c.troop().is_some()))
                    && self.flags.iter().any(|f| f.open_for(me))
            }
            _ => false,
        }
    }

    /// Removes a card from its flag spot (the caller has validated the spot).
    fn take_from(&mut self, spot: Spot, card: Card) {
        match (spot, card) {
            (Spot::Slot { flag, owner }, _) => {
                self.flags[flag].slots_mut(owner).retain(|c| *c != card)
            }
            (Spot::TacticSlot { flag, owner }, Card::Tactic(t)) => {
                self.flags[flag].tactic_mut(owner).retain(|x| *x != t)
            }
            _ => {}
        }
        if let Spot::Slot { flag, .. } | Spot::TacticSlot { flag, .. } = spot {
            self.refresh(flag);
        }
    }

    /// Puts a card at flag `i` on `owner`'s side, into the slot its kind uses.
    fn put_at(&mut self, i: usize, owner: Player, card: Card) {
        match card {
            Card::Tactic(t) if t.kind() == TacticKind::Environment => {
                self.flags[i].tactic_mut(owner).push(t)
            }
            _ => self.flags[i].slots_mut(owner).push(card),
        }
        self.refresh(i);
    }

    /// Checks that `card` may go to flag `flag` on `owner`'s side, coming from flag `from`.
    fn check_destination(
        &self,
        card: Card,
        flag: u8,
        from: usize,
        owner: Player,
    ) -> Result<usize, RuleError> {
        let i = flag_index(flag)?;
        if i == from {
            return Err(RuleError::SameFlag { flag });
        }
        if card.fits_troop_slot() {
            self.open_slot(flag, owner)
        } else {
            self.open_flag(flag)
        }
    }

    /// A card on `owner`'s side of an unclaimed flag: its spot and flag index.
    pub(super) fn board_spot(&self, card: Card, owner: Player) -> Result<(Spot, usize), RuleError> {
        let spot = self.locate(card).ok_or(RuleError::NotOnBoard { card })?;
        let (flag, who) = match spot {
            Spot::Slot { flag, owner } | Spot::TacticSlot { flag, owner } => (flag, owner),
            Spot::Field { .. } => return Err(RuleError::NotOnBoard { card }),
        };
        if who != owner {
            return Err(if owner == self.current {
                RuleError::NotYourCard { card }
            } else {
                RuleError::NotOpponentsCard { card }
            });
        }
        if self.flags[flag].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag: flag as u8 });
        }
        Ok((spot, flag))
    }

    pub(super) fn move_card(&mut self, card: Card, flag: u8) -> Result<Vec<Event>, RuleError> {
        if !matches!(self.phase, Phase::Finish { .. }) {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let (spot, from) = self.board_spot(card, me)?;
        if !self.cards_played_this_turn.contains(&card) {
            return Err(RuleError::NotPlayedThisTurn { card });
        }
        let to = self.check_destination(card, flag, from, me)?;
        self.take_from(spot, card);
        self.put_at(to, me, card);
        Ok(vec![Event::CardMoved {
            player: me,
            card,
            from: from as u8,
            to: flag,
        }])
    }

    fn finish_guile(&mut self) {
        self.active_guile_tactic = None;
        self.phase = Phase::Finish { may_draw: true };
    }

    fn discard(&mut self, card: Card) {
        match card {
            Card::Troop(t) => self.troop_discard.push(t),
            Card::Tactic(t) => self.tactic_discard.push(t),
        }
    }

    pub(super) fn redeploy(
        &mut self,
        card: Card,
        to: Destination,
    ) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Redeploy,
            })
        {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let (spot, from) = self.board_spot(card, me)?;
        let event = match to {
            Destination::Discard => {
                self.take_from(spot, card);
                self.discard(card);
                Event::CardDiscarded {
                    card,
                    from: from as u8,
                }
            }
            Destination::Flag { flag } => {
                let i = self.check_destination(card, flag, from, me)?;
                self.take_from(spot, card);
                self.put_at(i, me, card);
                Event::CardMoved {
                    player: me,
                    card,
                    from: from as u8,
                    to: flag,
                }
            }
        };
        self.finish_guile();
        Ok(vec![event])
    }

    pub(super) fn desert(&mut self, card: Card) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Deserter,
            })
        {
            return Err(self.wrong_phase());
        }
        let (spot, from) = self.board_spot(card, self.current.opponent())?;
        self.take_from(spot, card);
        self.discard(card);
        self.finish_guile();
        Ok(vec![Event::CardDiscarded {
            card,
            from: from as u8,
        }])
    }

    pub(super) fn betray(&mut self, troop: Troop, flag: u8) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Traitor,
            })
        {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let card = Card::Troop(troop);
        let (spot, from) = self.board_spot(card, me.opponent())?;
        // The stolen troop may return to the same flag, on the thief's side.
        let i = self.open_slot(flag, me)?;
        self.take_from(spot, card);
        self.put_at(i, me, card);
        self.finish_guile();
        Ok(vec![Event::CardMoved {
            player: me,
            card,
            from: from as u8,
            to: flag,
        }])
    }

    pub(super) fn scout_draw(&mut self, deck: Deck) -> Result<Vec<Event>, RuleError> {
        let Phase::ScoutDraw { drawn } = self.phase else {
            return Err(self.wrong_phase());
        };
        if self.draw(deck).is_none() {
            return Err(RuleError::DeckEmpty { deck });
        }
        let drawn = drawn + 1;
        // With d cards drawn, d-1 go back so the hand ends at its size before Scout.
        self.phase = if drawn >= 3 || !self.any_deck() {
            match drawn - 1 {
                0 => Phase::Finish { may_draw: false },
                left => Phase::ScoutReturn { left },
            }
        } else {
            Phase::ScoutDraw { drawn }
        };
        Ok(vec![Event::CardDrawn {
            player: self.current,
            deck,
        }])
    }

    pub(super) fn scout_return(&mut self, card: Card) -> Result<Vec<Event>, RuleError> {
        let Phase::ScoutReturn { left } = self.phase else {
            return Err(self.wrong_phase());
        };
        let me = self.current;
        let pos = self.hands[me.index()]
            .iter()
            .position(|c| *c == card)
            .ok_or(RuleError::NotInHand { card })?;
        self.hands[me.index()].remove(pos);
        let deck = match card {
            Card::Troop(t) => {
                self.troop_deck.push(t);
                Deck::Troop
            }
            Card::Tactic(t) => {
                self.tactic_deck.push(t);
                Deck::Tactic
            }
        };
        self.phase = if left <= 1 {
            Phase::Finish { may_draw: false }
        } else {
            Phase::ScoutReturn { left: left - 1 }
        };
        Ok(vec![Event::CardReturned { player: me, deck }])
    }
}
