//! Activation conditions: whether an effect's condition holds now, and Special Summon oaths.

use crate::effect::{Condition, Restriction, SelfInHand};
use crate::error::Unmet;
use crate::state::{CardId, Duel, Face, Locals, Player};

impl Duel {
    fn hand_count(&self, p: Player, this_card: Option<CardId>) -> usize {
        self.player(p)
            .hand
            .iter()
            .filter(|&&id| Some(id) != this_card)
            .count()
    }

    /// Whether `p` may Special Summon now (no oath forbids it).
    pub(crate) fn can_special_summon(&self, p: Player) -> bool {
        !self.restrictions.iter().any(|r| {
            r.controller == p
                && r.restriction == Restriction::NoSpecialSummon
                && self.turn <= r.until_turn
        })
    }

    pub(crate) fn check(
        &self,
        cond: &Condition,
        this: CardId,
        ctrl: Player,
        locals: &Locals,
    ) -> Result<(), Unmet> {
        match *cond {
            Condition::DeckAtLeast { who, n } => {
                let p = ctrl.resolve(who);
                let have = self.player(p).deck.len();
                if have >= usize::from(n) {
                    Ok(())
                } else if p == ctrl {
                    Err(Unmet::DeckTooSmall { need: n, have })
                } else {
                    Err(Unmet::OpponentDeckTooSmall { need: n, have })
                }
            }
            Condition::HandAtLeast { who, n, this_card } => {
                let p = ctrl.resolve(who);
                let excluded = match this_card {
                    SelfInHand::Counts => false,
                    SelfInHand::Excluded => true,
                    SelfInHand::BySetting => !self.settings.into_the_void_counts_itself,
                };
                let have = self.hand_count(p, excluded.then_some(this));
                if have >= usize::from(n) {
                    Ok(())
                } else if p == ctrl {
                    Err(Unmet::HandTooSmall { need: n, have })
                } else {
                    Err(Unmet::OpponentHandTooSmall { need: n, have })
                }
            }
            Condition::HandAtMostOthers { n } => {
                let have = self.hand_count(ctrl, Some(this));
                if have <= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::HandTooLarge { max: n, have })
                }
            }
            Condition::CanDrawUntil { hand } => {
                let others = self.hand_count(ctrl, Some(this));
                let need = usize::from(hand).saturating_sub(others);
                let have = self.player(ctrl).deck.len();
                if have >= need {
                    Ok(())
                } else {
                    Err(Unmet::DeckTooSmall {
                        need: need as u8,
                        have,
                    })
                }
            }
            Condition::Exists {
                zone,
                ref filter,
                n,
            } => {
                let count = self
                    .zone_cards_unordered(zone, this, ctrl, locals)
                    .into_iter()
                    .filter(|&id| self.matches(id, filter, locals))
                    .count();
                if count >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCards)
                }
            }
            Condition::OwnerCanSummon { zone, ref filter } => {
                let mut found = false;
                for id in self.zone_cards_unordered(zone, this, ctrl, locals) {
                    if !self.matches(id, filter, locals) {
                        continue;
                    }
                    found = true;
                    let owner = self.cards[id.index()].owner;
                    if self.can_special_summon(owner) && self.free_monster_slot(owner).is_some() {
                        return Ok(());
                    }
                }
                Err(if found {
                    Unmet::NoFreeZone
                } else {
                    Unmet::NoValidCards
                })
            }
            Condition::OthersInHand { ref filter, n } => {
                let have = self
                    .player(ctrl)
                    .hand
                    .iter()
                    .filter(|&&id| id != this && self.matches(id, filter, locals))
                    .count();
                if have >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::HandTooSmall { need: n, have })
                }
            }
            Condition::LpAtLeast { n } => {
                let have = self.player(ctrl).lp;
                if have >= n {
                    Ok(())
                } else {
                    Err(Unmet::LpTooLow { need: n, have })
                }
            }
            Condition::NoSpecialSummonThisTurn => {
                if self.player(ctrl).special_summoned_this_turn {
                    Err(Unmet::SpecialSummonedThisTurn)
                } else {
                    Ok(())
                }
            }
            Condition::FreeMonsterZones { n } => {
                let free = self
                    .player(ctrl)
                    .monsters
                    .iter()
                    .filter(|s| s.is_none())
                    .count();
                if free >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoFreeZone)
                }
            }
            Condition::CountersAtLeast { n } => {
                let have = self.cards[this.index()].counters;
                if have >= n {
                    Ok(())
                } else {
                    Err(Unmet::TooFewCounters { need: n, have })
                }
            }
            Condition::Holds { reg, n } => {
                if self.held_cards(locals, reg).len() >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCards)
                }
            }
            Condition::CanSelect {
                from,
                ref filter,
                min,
                max,
                ref constraint,
            } => {
                // Whether some selection exists does not depend on the cards' order.
                let mut candidates = self.zone_cards_unordered(from, this, ctrl, locals);
                candidates.retain(|&id| self.matches(id, filter, locals));
                if self.selection_exists(
                    &candidates,
                    usize::from(min),
                    usize::from(max),
                    constraint,
                    this,
                ) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCombination)
                }
            }
            Condition::ThisOnField => {
                let c = &self.cards[this.index()];
                if c.location.is_field() && c.face == Face::Up {
                    Ok(())
                } else {
                    Err(Unmet::NotOnField)
                }
            }
        }
    }
}
