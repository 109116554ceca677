//! Claims: whether a flag is proved, when a claim may be made, and the victories it brings.

use crate::card::TroopSet;
use crate::error::{ClaimRefusal, RuleError};
use crate::formation::{Strength, best_formation};

use super::{ClaimTiming, Event, FLAGS, Game, Phase, Player, Victory, flag_index};

impl Game {
    /// Whether `player` may claim `flag` now as far as the cards go (not checking
    /// whose turn it is). On success, the claimant's formation strength.
    pub fn check_claim(&self, flag: u8, player: Player) -> Result<Strength, ClaimRefusal> {
        let Ok(i) = flag_index(flag) else {
            return Err(ClaimRefusal::Incomplete);
        };
        let f = &self.flags[i];
        let rules = f.judging();
        let mine_cards = f.slots(player);
        if mine_cards.len() < rules.cards {
            return Err(ClaimRefusal::Incomplete);
        }
        let mine = best_formation(mine_cards, rules, TroopSet::EMPTY)
            .ok_or(ClaimRefusal::Incomplete)?
            .strength;
        let opp = player.opponent();
        let theirs_cards = f.slots(opp);
        if theirs_cards.len() >= rules.cards {
            let Some(theirs) =
                best_formation(theirs_cards, rules, TroopSet::EMPTY).map(|c| c.strength)
            else {
                return Ok(mine);
            };
            return if mine > theirs {
                Ok(mine)
            } else if mine < theirs {
                Err(ClaimRefusal::OpponentStronger { mine, theirs })
            } else {
                let me_at = f.completed_at[player.index()].unwrap_or(u32::MAX);
                let them_at = f.completed_at[opp.index()].unwrap_or(u32::MAX);
                if me_at < them_at {
                    Ok(mine)
                } else {
                    Err(ClaimRefusal::TieCompletedLater { strength: mine })
                }
            };
        }
        // The opponent is incomplete: they would complete later, so only a strictly
        // stronger completion beats us.
        match best_formation(theirs_cards, rules, self.unplayed_troops()) {
            Some(c) if c.strength > mine => Err(ClaimRefusal::OpponentCanBeat {
                mine,
                theirs: c.strength,
                cards: c.added,
            }),
            _ => Ok(mine),
        }
    }

    /// Unclaimed flags `player` could prove now (ignoring turn and timing).
    pub fn provable_flags(&self, player: Player) -> Vec<u8> {
        (0..FLAGS)
            .filter(|&f| {
                self.flags[usize::from(f)].owner.is_none() && self.check_claim(f, player).is_ok()
            })
            .collect()
    }

    /// Whether the claim timing lets the current player claim at this step of the turn
    /// (whether a given flag is provable is [`Game::check_claim`]). The page uses it to
    /// offer claim attempts that the engine may then refuse with a counterexample.
    pub fn claim_allowed_now(&self) -> bool {
        matches!(
            (self.settings.claim_timing, self.phase),
            (ClaimTiming::StartOfTurn, Phase::Play)
                | (ClaimTiming::AfterPlaying, Phase::Finish { .. })
                | (ClaimTiming::Anytime, Phase::Play | Phase::Finish { .. })
        )
    }

    fn victory(&self, p: Player) -> Option<Victory> {
        let owned: Vec<bool> = self.flags.iter().map(|f| f.owner == Some(p)).collect();
        if owned.windows(3).any(|w| w.iter().all(|o| *o)) {
            Some(Victory::Breakthrough)
        } else if owned.iter().filter(|o| **o).count() >= 5 {
            Some(Victory::Envelopment)
        } else {
            None
        }
    }

    pub(super) fn claim(&mut self, flag: u8) -> Result<Vec<Event>, RuleError> {
        let i = flag_index(flag)?;
        if !self.claim_allowed_now() {
            return Err(match self.phase {
                Phase::Play | Phase::Finish { .. } => RuleError::ClaimTiming {
                    timing: self.settings.claim_timing,
                },
                _ => self.wrong_phase(),
            });
        }
        if self.flags[i].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag });
        }
        let me = self.current;
        self.check_claim(flag, me)
            .map_err(|reason| RuleError::ClaimRefused { flag, reason })?;
        self.flags[i].owner = Some(me);
        self.stuck_passes = 0;
        let mut events = vec![Event::FlagClaimed { player: me, flag }];
        if let Some(by) = self.victory(me) {
            self.phase = Phase::GameOver { winner: me, by };
            self.active_guile_tactic = None;
            events.push(Event::GameWon { player: me, by });
        }
        Ok(events)
    }
}
