//! Synchro materials and card selections under a constraint: valid, why not, and possible.

use crate::card::Frame as CardFrame;
use crate::effect::{Constraint, Filter, Source};
use crate::error::{RuleError, SynchroMiss, Unmet};
use crate::state::{CardId, Duel, Face, Locals, Location, Player, ZONE_SLOTS};

use crate::engine::def_of;

impl Duel {
    pub(super) fn validate_synchro(&self, id: CardId) -> Result<(), RuleError> {
        let c = self.own_card(id)?;
        let def = def_of(c.code);
        if c.location != Location::ExtraDeck || def.frame != CardFrame::Synchro {
            return Err(RuleError::NotASynchro);
        }
        self.open_main_phase()?;
        if !self.can_special_summon(Player::You) {
            return Err(RuleError::Unmet(Unmet::CannotSpecialSummon));
        }
        let materials = self.zone_cards(Source::MonsterZone, id, Player::You, &Locals::default());
        let materials: Vec<CardId> = materials
            .into_iter()
            .filter(|&m| self.cards[m.index()].face == Face::Up)
            .collect();
        // Synchro Material holds exactly one Tuner: without one, no choice can fit.
        let tuner = |m: &CardId| def_of(self.cards[m.index()].code).is_tuner();
        if materials.iter().any(tuner)
            && self.selection_exists(&materials, 2, ZONE_SLOTS, &Constraint::SynchroMaterials, id)
        {
            Ok(())
        } else {
            Err(RuleError::Unmet(Unmet::NoValidCombination))
        }
    }

    /// Whether `chosen` satisfies a selection constraint (`src`: the card that asks).
    pub(crate) fn constraint_holds(&self, chosen: &[CardId], c: &Constraint, src: CardId) -> bool {
        match c {
            Constraint::CountIsLevelOf { zone, filter } => {
                level_bit(chosen.len()) & self.zone_levels(*zone, filter, src) != 0
            }
            Constraint::SynchroMaterials => self.synchro_miss(chosen, src).is_none(),
        }
    }

    /// The Levels of the cards of `zone` that match `filter`, one bit each (bit `n` for
    /// Level `n`), as a count-is-level constraint reads them: which card has which Level
    /// matters, not the zone's order, so the zone is read as stored.
    fn zone_levels(&self, zone: Source, filter: &Filter, src: CardId) -> u32 {
        let ctrl = self.cards[src.index()].controller;
        self.zone_cards_unordered(zone, src, ctrl, &Locals::default())
            .into_iter()
            .filter(|&id| self.matches(id, filter, &Locals::default()))
            .fold(0, |bits, id| {
                bits | level_bit(usize::from(def_of(self.cards[id.index()].code).level()))
            })
    }

    /// A test of many choices of cards against one constraint (`None`: none), as
    /// [`Duel::constraint_holds`] answers for each, with what the constraint reads of the
    /// duel read once: the Levels of a count-is-level zone. For a search that tries
    /// every choice of a prompt.
    pub(crate) fn constraint_test<'a>(
        &'a self,
        c: Option<&'a Constraint>,
        src: Option<CardId>,
    ) -> impl Fn(&[CardId]) -> bool + 'a {
        let levels = match (c, src) {
            (Some(Constraint::CountIsLevelOf { zone, filter }), Some(src)) => {
                Some(self.zone_levels(*zone, filter, src))
            }
            _ => None,
        };
        move |chosen: &[CardId]| match (c, src, levels) {
            (_, _, Some(levels)) => level_bit(chosen.len()) & levels != 0,
            (Some(c), Some(src), None) => self.constraint_holds(chosen, c, src),
            _ => true,
        }
    }

    /// What `chosen` lacks as Synchro Material for the Synchro monster `src` (a Tuner,
    /// the number of non-Tuners, the Level total), or `None` when it fits.
    pub(crate) fn synchro_miss(&self, chosen: &[CardId], src: CardId) -> Option<SynchroMiss> {
        let synchro = def_of(self.cards[src.index()].code);
        let Some(rule) = synchro.monster.as_ref().and_then(|m| m.synchro) else {
            // Not a Synchro monster: nothing fits; say the first thing it would need.
            return Some(SynchroMiss::NoTuner);
        };
        let tuners = chosen
            .iter()
            .filter(|&&id| def_of(self.cards[id.index()].code).is_tuner())
            .count();
        let others = (chosen.len() - tuners.min(1)).min(usize::from(u8::MAX)) as u8;
        let levels: u32 = chosen
            .iter()
            .map(|&id| u32::from(def_of(self.cards[id.index()].code).level()))
            .sum();
        if tuners == 0 {
            Some(SynchroMiss::NoTuner)
        } else if tuners > 1 {
            Some(SynchroMiss::TooManyTuners {
                have: tuners.min(usize::from(u8::MAX)) as u8,
            })
        } else if others < rule.non_tuners_min {
            Some(SynchroMiss::TooFewNonTuners {
                need: rule.non_tuners_min,
                have: others,
            })
        } else if let Some(max) = rule.non_tuners_max.filter(|&m| others > m) {
            Some(SynchroMiss::TooManyNonTuners { max, have: others })
        } else if levels != u32::from(synchro.level()) {
            Some(SynchroMiss::Levels {
                need: synchro.level(),
                have: levels,
            })
        } else {
            None
        }
    }

    /// Whether some choice of `min`..=`max` of the candidates satisfies the constraint.
    pub(crate) fn selection_exists(
        &self,
        candidates: &[CardId],
        min: usize,
        max: usize,
        c: &Constraint,
        src: CardId,
    ) -> bool {
        let max = max.min(candidates.len());
        if let Constraint::CountIsLevelOf { zone, filter } = c {
            // Only the number chosen matters: the zone's Levels are read once.
            let levels = self.zone_levels(*zone, filter, src);
            return (min..=max).any(|n| level_bit(n) & levels != 0);
        }
        // Few candidates (at most the monster zones): try every subset.
        let n = candidates.len().min(16);
        (0u32..(1 << n)).any(|mask| {
            let k = mask.count_ones() as usize;
            if k < min || k > max {
                return false;
            }
            let chosen: Vec<CardId> = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| candidates[i])
                .collect();
            self.constraint_holds(&chosen, c, src)
        })
    }
}

/// Bit `n` of a set of Levels (none for a number past the bits: no card has such a Level).
fn level_bit(n: usize) -> u32 {
    u32::try_from(n)
        .ok()
        .and_then(|n| 1u32.checked_shl(n))
        .unwrap_or(0)
}
