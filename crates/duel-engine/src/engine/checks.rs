//! LP, damage and the checks that end the duel (LP 0 at once; failed draws and Exodia
//! once the current effect has finished).

use crate::card::Code;
use crate::effect::{Restriction, RuleDef};
use crate::event::Event;
use crate::state::{Duel, Face, Outcome, Player, Reason};

use super::def_of;

impl Duel {
    /// Takes LP away (never below 0) and returns what is left; the caller reports why.
    pub(crate) fn lower_lp(&mut self, p: Player, amount: u32) -> u32 {
        let ps = self.player_mut(p);
        ps.lp = ps.lp.saturating_sub(amount);
        ps.lp
    }

    /// A cost: `p` pays LP (paying exactly all of it is allowed, and loses at once).
    pub(crate) fn pay_lp(&mut self, p: Player, amount: u32) {
        let lp = self.lower_lp(p, amount);
        self.happen();
        self.push_event(Event::LpPaid {
            player: p,
            amount,
            lp,
        });
        self.lp_check();
    }

    pub(crate) fn damage_prevented(&self, target: Player) -> bool {
        let by_restriction = self.restrictions.iter().any(|r| {
            matches!(r.restriction, Restriction::NoDamage { who, .. } if r.controller.resolve(who) == target)
                && self.turn <= r.until_turn
        });
        let by_rule = [Player::You, Player::Opponent].iter().any(|&p| {
            self.player(p).field_zone.is_some_and(|id| {
                let c = &self.cards[id.index()];
                c.face == Face::Up
                    && def_of(c.code).has_rule(|r| matches!(r, RuleDef::LowerLpTakesNoDamage))
                    && self.player(target).lp < self.player(target.other()).lp
            })
        });
        by_restriction || by_rule
    }

    /// Effect damage; returns whether it was dealt.
    pub(crate) fn damage(&mut self, p: Player, amount: u32) -> bool {
        if self.damage_prevented(p) {
            self.push_event(Event::DamagePrevented { player: p, amount });
            return false;
        }
        let lp = self.lower_lp(p, amount);
        self.happen();
        self.push_event(Event::Damaged {
            player: p,
            amount,
            lp,
        });
        self.lp_check();
        true
    }

    fn has_all_pieces(&self, p: Player) -> bool {
        let hand = &self.player(p).hand;
        let in_hand = |code: Code| hand.iter().any(|id| self.cards[id.index()].code == code);
        // Checked after every effect: the cards with such a rule are found by passcode
        // among a handful read from the catalogue once, not by each card's rules.
        win_rules()
            .iter()
            .any(|(card, pieces)| in_hand(*card) && pieces.iter().all(|&pc| in_hand(pc)))
    }

    pub(crate) fn exodia_check(&mut self) {
        match (
            self.has_all_pieces(Player::You),
            self.has_all_pieces(Player::Opponent),
        ) {
            (true, true) => self.end(Outcome::Draw(Reason::Exodia)),
            (true, false) => self.end(Outcome::Win(Reason::Exodia)),
            (false, true) => self.end(Outcome::Lose(Reason::Exodia)),
            (false, false) => {}
        }
    }

    /// LP 0 ends the duel at once, even in the middle of an effect.
    pub(crate) fn lp_check(&mut self) {
        let (you, opp) = (self.players[0].lp == 0, self.players[1].lp == 0);
        match (you, opp) {
            (true, true) => self.end(Outcome::Draw(Reason::Lp0)),
            (true, false) => self.end(Outcome::Lose(Reason::Lp0)),
            (false, true) => self.end(Outcome::Win(Reason::Lp0)),
            (false, false) => {}
        }
    }

    /// Checks after each finished effect. A player who had to draw from an empty deck
    /// has lost before Exodia is looked at: the failed draw is a loss by the game's rules
    /// at the moment it happens, while Exodia's win is only checked once the effect has
    /// finished (see the crate README).
    pub(crate) fn state_check(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        self.lp_check();
        if self.outcome.is_some() {
            return;
        }
        match (
            self.players[0].drew_from_empty,
            self.players[1].drew_from_empty,
        ) {
            (true, true) => self.end(Outcome::Draw(Reason::DeckOut)),
            (true, false) => self.end(Outcome::Lose(Reason::DeckOut)),
            (false, true) => self.end(Outcome::Win(Reason::DeckOut)),
            (false, false) => {}
        }
        if self.outcome.is_some() {
            return;
        }
        self.exodia_check();
    }

    pub(crate) fn end(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.push_event(Event::GameOver { outcome });
        }
    }
}

/// Every "win with all of these in hand" rule of the catalogue: its card and the pieces
/// it names.
pub(crate) fn win_rules() -> &'static [(Code, &'static [Code])] {
    static RULES: std::sync::OnceLock<Vec<(Code, &'static [Code])>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        crate::card::catalog()
            .iter()
            .flat_map(|c| {
                c.rules.iter().filter_map(move |r| match r {
                    RuleDef::WinWithAllInHand { pieces } => Some((c.code, pieces.as_slice())),
                    _ => None,
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;
    use crate::state::ActiveRestriction;

    const CHICKEN_GAME: Code = 67616300;

    fn blank(lp: [u32; 2], field: &[Code]) -> Duel {
        let mut s = Setup::new().lp(lp[0], lp[1]);
        for &c in field {
            s = s.face_up_spell(c);
        }
        s.build().expect("valid setup")
    }

    #[test]
    fn damage_lowers_lp_and_zero_lp_wins_at_once() {
        let mut d = blank([8000, 8000], &[]);
        d.damage(Player::Opponent, 3000);
        assert_eq!(d.lp(Player::Opponent), 5000);
        assert_eq!(d.outcome, None);
        d.damage(Player::Opponent, 9000);
        assert_eq!(d.lp(Player::Opponent), 0);
        assert_eq!(d.outcome, Some(Outcome::Win(Reason::Lp0)));
    }

    #[test]
    fn a_no_damage_restriction_prevents_damage_to_its_player_only() {
        let mut d = blank([8000, 8000], &[]);
        // Card of Demise: the opponent takes no damage for the rest of the turn.
        d.restrictions.push(ActiveRestriction {
            controller: Player::You,
            restriction: Restriction::NoDamage {
                who: crate::effect::Who::Opponent,
                until_opponent_turn_end: false,
            },
            until_turn: d.turn,
        });
        d.damage(Player::Opponent, 1000);
        assert_eq!(d.lp(Player::Opponent), 8000);
        d.damage(Player::You, 1000);
        assert_eq!(d.lp(Player::You), 7000);
    }

    #[test]
    fn chicken_game_protects_the_player_with_less_lp() {
        let mut d = blank([8000, 7000], &[CHICKEN_GAME]);
        d.damage(Player::Opponent, 500);
        assert_eq!(d.lp(Player::Opponent), 7000, "the opponent has less LP");
        d.damage(Player::You, 500);
        assert_eq!(d.lp(Player::You), 7500, "you have more LP");
        let mut even = blank([8000, 8000], &[CHICKEN_GAME]);
        even.damage(Player::Opponent, 500);
        assert_eq!(
            even.lp(Player::Opponent),
            7500,
            "equal LP: nobody is protected"
        );
    }

    #[test]
    fn restrictions_expire_after_their_last_turn() {
        let mut d = blank([8000, 8000], &[]);
        d.restrictions.push(ActiveRestriction {
            controller: Player::You,
            restriction: Restriction::NoDamage {
                who: crate::effect::Who::You,
                until_opponent_turn_end: true,
            },
            until_turn: 2,
        });
        assert!(d.damage_prevented(Player::You));
        d.turn = 3;
        assert!(!d.damage_prevented(Player::You));
    }
}
