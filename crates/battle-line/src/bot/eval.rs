//! How good a position is for one seat: each flag's chance of being won, from what that seat can see, combined by the flags' places in the line into a chance of winning the game.
//!
//! A flag's chance comes from the exact completion odds of [`crate::odds`]: the seat
//! holds its hand for sure and will draw some of the unseen troops; the other player
//! holds a hand of unseen troops and will draw some more, so its cards are a random
//! handful of the unseen pool as this seat sees it. Complete sides and provable claims
//! are judged exactly. The game chance treats flags as independent and counts, over all
//! 512 ways the nine flags can fall, those that give a breakthrough or an envelopment,
//! so a flag between two of the seat's likely flags is worth more than a lone one.

use crate::card::{Card, TroopSet};
use crate::formation::{FormationKind, Judging, Strength, best_formation, best_of_kind};
use crate::game::{Game, Player};
use crate::odds::{Goal, Supply};
use std::cell::OnceCell;

/// The formation kinds from the strongest down.
const KINDS: [FormationKind; 5] = [
    FormationKind::Wedge,
    FormationKind::Phalanx,
    FormationKind::Battalion,
    FormationKind::SkirmishLine,
    FormationKind::Host,
];

/// Knobs of the evaluation, tuned with the harness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Params {
    /// Draws a seat counts on for a side beyond the cards it still needs there.
    pub slack: usize,
    /// Sum difference that turns an equal kind into a 73% favourite.
    pub sum_scale: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            slack: 2,
            sum_scale: 3.0,
        }
    }
}

/// Chances of the best kind a side may reach: `at_least[i]` = P(kind ≥ KINDS[i]),
/// with the best sum seen for each kind.
#[derive(Debug, Clone, Copy)]
struct Outlook {
    at_least: [f64; 5],
    sums: [f64; 5],
    /// Cards still needed.
    missing: usize,
}

/// What a side without troops may become (from typical games): its exact odds would
/// need every colour and run, too slow for a search that asks thousands of times.
fn prior(side: &[Card], rules: Judging) -> Outlook {
    let missing = rules.cards.saturating_sub(side.len());
    if rules.fog {
        return Outlook {
            at_least: [0.0, 0.0, 0.0, 0.0, 1.0],
            sums: [0.0, 0.0, 0.0, 0.0, 19.0 + 4.0 * side.len() as f64],
            missing,
        };
    }
    let leader = side
        .iter()
        .any(|c| matches!(c, Card::Tactic(t) if t.is_leader()));
    let at_least = if leader {
        [0.35, 0.5, 0.75, 0.9, 1.0]
    } else if side.is_empty() {
        [0.12, 0.22, 0.5, 0.72, 1.0]
    } else {
        [0.18, 0.3, 0.6, 0.8, 1.0]
    };
    Outlook {
        at_least,
        sums: [18.0, 18.0, 21.0, 15.0, 17.0],
        missing,
    }
}

/// Whether a side has no troop (empty, or wild cards only).
fn troopless(side: &[Card]) -> bool {
    side.iter().all(|c| c.troop().is_none())
}

/// One seat's view of a position, for evaluation.
#[derive(Debug, Clone)]
pub(crate) struct Seat<'a> {
    pub game: &'a Game,
    pub me: Player,
    hand: TroopSet,
    pool: TroopSet,
    other_hand: usize,
    deck: usize,
    params: Params,
    /// Hand troops set aside for each flag: a card counts toward one flag only.
    alloc: [TroopSet; 9],
    /// Hand troops no started flag needs: they may help any flag.
    free: TroopSet,
    /// The other side's kind odds at each flag, computed on first use (the other side
    /// stays the same for every card this seat considers).
    theirs: [OnceCell<KindOdds>; 9],
}

impl<'a> Seat<'a> {
    /// The position as `me` sees it: only `me`'s hand and the unseen troops (the other
    /// hand and the deck together) are read.
    pub fn new(game: &'a Game, me: Player, params: Params) -> Seat<'a> {
        let hand = game.hand(me).iter().filter_map(|c| c.troop()).collect();
        let other_hand = game
            .hand(me.opponent())
            .iter()
            .filter(|c| c.troop().is_some())
            .count();
        let pool = game.unseen_troops(me);
        let (alloc, free) = allocate(game, me, hand, pool);
        Seat {
            game,
            me,
            hand,
            pool,
            other_hand,
            deck: game.troop_deck_len(),
            params,
            alloc,
            free,
            theirs: Default::default(),
        }
    }

    /// The hand troops flag `i` may count on.
    fn hand_for(&self, i: usize) -> TroopSet {
        self.alloc[i].union(self.free)
    }

    fn draws(&self, missing: usize) -> usize {
        self.deck.div_ceil(2).min(missing + self.params.slack)
    }

    fn my_supply(&self, missing: usize) -> Supply {
        Supply {
            hand: self.hand,
            pool: self.pool,
            draws: self.draws(missing),
        }
    }

    fn their_supply(&self, missing: usize) -> Supply {
        Supply {
            hand: TroopSet::EMPTY,
            pool: self.pool,
            draws: self.other_hand + self.draws(missing),
        }
    }

    /// P(this seat wins each flag).
    pub fn flag_chances(&self) -> [f64; 9] {
        let mut out = [0.0; 9];
        for (i, p) in out.iter_mut().enumerate() {
            *p = self.flag_chance(i);
        }
        out
    }

    /// The other side's kind odds at flag `i` (its cards are `theirs`).
    fn their_odds(&self, i: usize, theirs: &[Card], rules: Judging) -> &KindOdds {
        self.theirs[i].get_or_init(|| {
            let missing = rules.cards.saturating_sub(theirs.len());
            kind_odds(theirs, rules, self.their_supply(missing))
        })
    }

    /// P(this seat wins flag `i`).
    pub fn flag_chance(&self, i: usize) -> f64 {
        let f = &self.game.flags()[i];
        if let Some(p) = f.owner {
            return if p == self.me { 1.0 } else { 0.0 };
        }
        let other = self.me.opponent();
        let first = match f.completed_at {
            [Some(a), Some(b)] => Some((a < b) == (self.me == Player::P0)),
            _ => None,
        };
        self.side_chance(
            i,
            f.judging(),
            f.slots(self.me),
            f.slots(other),
            first,
            self.hand_for(i),
            self.game.unplayed_troops(),
        )
    }

    /// P(this seat wins flag `i` if it adds `card` there from its hand now).
    pub fn flag_chance_with(&self, i: usize, card: Card, unplayed: TroopSet) -> f64 {
        let f = &self.game.flags()[i];
        let mut mine: Vec<Card> = f.slots(self.me).to_vec();
        mine.push(card);
        let mut hand = self.hand_for(i);
        let mut unplayed = unplayed;
        if let Card::Troop(t) = card {
            hand.remove(t);
            unplayed.remove(t);
        }
        let their_first = f.completed_at[self.me.opponent().index()].is_some();
        self.side_chance(
            i,
            f.judging(),
            &mine,
            f.slots(self.me.opponent()),
            their_first.then_some(false),
            hand,
            unplayed,
        )
    }

    /// P(winning a flag judged by `rules` with these sides. `first`: whether this seat
    /// completed first, when both sides are complete. `unplayed`: the troops a claim
    /// proof holds against.
    #[allow(clippy::too_many_arguments)]
    fn side_chance(
        &self,
        flag: usize,
        rules: Judging,
        mine: &[Card],
        theirs: &[Card],
        first: Option<bool>,
        hand: TroopSet,
        unplayed: TroopSet,
    ) -> f64 {
        let n = rules.cards;
        let my_done = mine.len() >= n;
        let their_done = theirs.len() >= n;
        match (my_done, their_done) {
            (true, true) => {
                let (Some(a), Some(b)) = (strength(mine, rules), strength(theirs, rules)) else {
                    return 0.5;
                };
                if a != b {
                    f64::from(u8::from(a > b))
                } else {
                    f64::from(u8::from(first.unwrap_or(false)))
                }
            }
            (true, false) => {
                let Some(s) = strength(mine, rules) else {
                    return 0.0;
                };
                // The claim proof: nothing unplayed lets them beat it.
                match best_formation(theirs, rules, unplayed) {
                    Some(c) if c.strength > s => {}
                    _ => return 1.0,
                }
                if troopless(theirs) {
                    return 1.0 - prior_beat(&prior(theirs, rules), s, self.params.sum_scale);
                }
                let missing = n - theirs.len();
                let supply = self.their_supply(missing);
                let known = self.their_odds(flag, theirs, rules);
                1.0 - beat_chance(theirs, rules, s, supply, known)
            }
            (false, true) => {
                let Some(s) = strength(theirs, rules) else {
                    return 1.0;
                };
                match best_formation(mine, rules, unplayed) {
                    Some(c) if c.strength > s => {}
                    _ => return 0.0,
                }
                if troopless(mine) {
                    return prior_beat(&prior(mine, rules), s, self.params.sum_scale);
                }
                let missing = n - mine.len();
                let supply = Supply {
                    hand,
                    ..self.my_supply(missing)
                };
                beat_chance(mine, rules, s, supply, &kind_odds(mine, rules, supply))
            }
            (false, false) => {
                if mine.is_empty() && theirs.is_empty() {
                    return 0.5;
                }
                let me = if troopless(mine) {
                    prior(mine, rules)
                } else {
                    let missing = n - mine.len();
                    let supply = Supply {
                        hand,
                        ..self.my_supply(missing)
                    };
                    outlook(&kind_odds(mine, rules, supply))
                };
                let them = if troopless(theirs) {
                    prior(theirs, rules)
                } else {
                    outlook(self.their_odds(flag, theirs, rules))
                };
                compare(&me, &them, self.params.sum_scale)
            }
        }
    }
}

/// Sets hand troops aside for the started flags, those nearest to completion first:
/// each takes the hand cards its best possible completion uses. Returns the set-asides
/// and the cards left over.
fn allocate(game: &Game, me: Player, hand: TroopSet, pool: TroopSet) -> ([TroopSet; 9], TroopSet) {
    let mut alloc = [TroopSet::EMPTY; 9];
    let mut left = hand;
    let mut started: Vec<(usize, usize)> = game
        .flags()
        .iter()
        .enumerate()
        .filter(|(_, f)| f.owner.is_none())
        .filter_map(|(i, f)| {
            let side = f.slots(me);
            let missing = f.capacity().checked_sub(side.len())?;
            (missing > 0 && !side.is_empty()).then_some((missing, i))
        })
        .collect();
    started.sort_unstable();
    for (_, i) in started {
        let f = &game.flags()[i];
        if let Some(c) = best_formation(f.slots(me), f.judging(), left.union(pool)) {
            for t in c.added {
                if left.contains(t) {
                    left.remove(t);
                    alloc[i].insert(t);
                }
            }
        }
    }
    (alloc, left)
}

/// The strength of a complete side.
fn strength(side: &[Card], rules: Judging) -> Option<Strength> {
    best_formation(side, rules, TroopSet::EMPTY).map(|c| c.strength)
}

/// A side's chance of meeting each kind's condition (any sum), and the best sum it
/// could reach as that kind with every card it might get.
#[derive(Debug, Clone, Copy)]
struct KindOdds {
    p: [f64; 5],
    sums: [f64; 5],
    missing: usize,
}

fn kind_odds(side: &[Card], rules: Judging, supply: Supply) -> KindOdds {
    let all = supply.hand.union(supply.pool);
    let mut p = [0.0; 5];
    let mut sums = [0.0; 5];
    for (i, kind) in KINDS.into_iter().enumerate() {
        if rules.fog && kind != FormationKind::Host {
            continue;
        }
        let Some(best) = best_of_kind(side, rules, kind, all) else {
            continue;
        };
        sums[i] = f64::from(best.strength.sum);
        p[i] = supply.odds(side, rules, Goal::kind(kind));
    }
    KindOdds {
        p,
        sums,
        missing: rules.cards.saturating_sub(side.len()),
    }
}

/// The kind events combined: a wedge is also a battalion and a skirmish line, other
/// overlaps are taken as independent.
fn union(p: &[f64; 5]) -> f64 {
    let [w, ph, b, sk, h] = *p;
    let formations = 1.0 - (1.0 - w.max(b)) * (1.0 - ph) * (1.0 - (sk - w).max(0.0));
    1.0 - (1.0 - formations) * (1.0 - h)
}

fn outlook(k: &KindOdds) -> Outlook {
    let [w, ph, b, sk, h] = k.p;
    let color = w.max(b);
    let mut at_least = [
        w,
        1.0 - (1.0 - w) * (1.0 - ph),
        1.0 - (1.0 - color) * (1.0 - ph),
        1.0 - (1.0 - color) * (1.0 - ph) * (1.0 - (sk - w).max(0.0)),
        h,
    ];
    for i in 1..5 {
        at_least[i] = at_least[i].max(at_least[i - 1]);
    }
    Outlook {
        at_least,
        sums: k.sums,
        missing: k.missing,
    }
}

/// P(the incomplete `side` ends strictly stronger than `target`); `known` are the
/// side's kind odds with the same supply.
fn beat_chance(
    side: &[Card],
    rules: Judging,
    target: Strength,
    supply: Supply,
    known: &KindOdds,
) -> f64 {
    let mut p: [f64; 5] = [0.0; 5];
    for (i, kind) in KINDS.into_iter().enumerate() {
        if kind > target.kind {
            p[i] = known.p[i];
        } else if kind == target.kind && known.sums[i] > f64::from(target.sum) {
            let goal = Goal {
                kind,
                above: Some(target.sum),
            };
            p[i] = supply.odds(side, rules, goal);
        }
    }
    union(&p)
}

/// P(a side with outlook `o` ends strictly stronger than `target`).
fn prior_beat(o: &Outlook, target: Strength, scale: f64) -> f64 {
    let mut p = 0.0;
    for (i, kind) in KINDS.into_iter().enumerate() {
        let q = o.at_least[i] - if i > 0 { o.at_least[i - 1] } else { 0.0 };
        if kind > target.kind {
            p += q;
        } else if kind == target.kind {
            p += q * sigmoid((o.sums[i] - f64::from(target.sum) - 0.5) / scale);
        }
    }
    p
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// P(my side ends stronger than theirs), both still incomplete.
fn compare(me: &Outlook, them: &Outlook, scale: f64) -> f64 {
    // P(best kind = KINDS[i]); the sixth entry: the side cannot be completed.
    let q = |o: &Outlook| {
        let mut q = [0.0; 6];
        for (i, qi) in q.iter_mut().enumerate().take(5) {
            *qi = o.at_least[i] - if i > 0 { o.at_least[i - 1] } else { 0.0 };
        }
        q[5] = 1.0 - o.at_least[4];
        q
    };
    let (a, b) = (q(me), q(them));
    // Whoever needs fewer cards tends to complete first and wins exact ties.
    let tempo = 0.15 * (them.missing as f64 - me.missing as f64);
    let mut win = 0.0;
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            let pair = ai * bj;
            if pair == 0.0 {
                continue;
            }
            win += pair
                * if i == 5 && j == 5 {
                    0.5
                } else if i < j {
                    1.0
                } else if i > j {
                    0.0
                } else {
                    sigmoid((me.sums[i] - them.sums[i]) / scale + tempo)
                };
        }
    }
    win
}

/// For each set of flags a seat may end up with (bit i = flag i), whether that seat
/// wins: 1, 0, or ½ when both sides hold three adjacent flags (whoever claims first).
const fn win_table() -> [f64; 512] {
    const fn run(m: u32) -> bool {
        let mut i = 0;
        while i < 7 {
            if (m >> i) & 7 == 7 {
                return true;
            }
            i += 1;
        }
        false
    }
    let mut t = [0.0; 512];
    let mut mask = 0;
    while mask < 512 {
        let m = mask as u32;
        t[mask] = match (run(m), run(!m & 511)) {
            (true, false) => 1.0,
            (false, true) => 0.0,
            (true, true) => 0.5,
            (false, false) => {
                if m.count_ones() >= 5 {
                    1.0
                } else {
                    0.0
                }
            }
        };
        mask += 1;
    }
    t
}

static WIN: [f64; 512] = win_table();

/// For each flag i and each outcome of the other eight flags (bit j = the j-th other
/// flag): how much winning flag i changes the result.
const fn swing_table() -> [[f64; 256]; 9] {
    let mut t = [[0.0; 256]; 9];
    let mut i = 0;
    while i < 9 {
        let mut m = 0;
        while m < 256 {
            let low = m & ((1 << i) - 1);
            let high = (m >> i) << (i + 1);
            let without = low | high;
            t[i][m] = WIN[without | (1 << i)] - WIN[without];
            m += 1;
        }
        i += 1;
    }
    t
}

static SWING: [[f64; 256]; 9] = swing_table();

/// How much each flag moves the game chance: `w[i]` = chance if flag i is won minus
/// chance if it is lost. The game chance is linear in each flag's chance, so changing
/// flag i from `p[i]` to `q` changes it by exactly `(q - p[i]) * w[i]`.
pub(crate) fn flag_weights(p: &[f64; 9]) -> [f64; 9] {
    let mut w = [0.0; 9];
    for (i, wi) in w.iter_mut().enumerate() {
        let mut prob = [0.0f64; 256];
        prob[0] = 1.0;
        let mut bit = 0;
        for (j, &pj) in p.iter().enumerate() {
            if j == i {
                continue;
            }
            let half = 1usize << bit;
            for m in 0..half {
                prob[m | half] = prob[m] * pj;
                prob[m] *= 1.0 - pj;
            }
            bit += 1;
        }
        *wi = prob.iter().zip(&SWING[i]).map(|(a, b)| a * b).sum();
    }
    w
}

/// P(the seat wins the game) when it wins flag i with chance `p[i]`, independently.
pub(crate) fn game_chance(p: &[f64; 9]) -> f64 {
    let mut prob = [0.0f64; 512];
    prob[0] = 1.0;
    for (i, &pi) in p.iter().enumerate() {
        let half = 1usize << i;
        for m in 0..half {
            prob[m | half] = prob[m] * pi;
            prob[m] *= 1.0 - pi;
        }
    }
    prob.iter().zip(&WIN).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_weights_are_the_exact_swing_of_each_flag() {
        let p = [0.3, 0.9, 0.5, 0.1, 0.6, 0.5, 0.75, 0.2, 0.4];
        let w = flag_weights(&p);
        for i in 0..9 {
            let mut up = p;
            up[i] = 1.0;
            let mut down = p;
            down[i] = 0.0;
            assert!((w[i] - (game_chance(&up) - game_chance(&down))).abs() < 1e-12);
        }
    }
    #[test]
    fn the_game_chance_counts_breakthroughs_and_envelopments() {
        let mut p = [0.0; 9];
        assert_eq!(game_chance(&p), 0.0);
        // Three adjacent flags, while the other side holds none.
        p = [0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0];
        assert!((game_chance(&p) - 1.0).abs() < 1e-12);
        // Both sides with three adjacent flags: whoever claims first, even odds.
        p = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        assert!((game_chance(&p) - 0.5).abs() < 1e-12);
        // Five scattered flags: an envelopment.
        let scattered = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0];
        assert!((game_chance(&scattered) - 1.0).abs() < 1e-12);
        // Even odds everywhere: symmetric.
        assert!((game_chance(&[0.5; 9]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_flag_between_two_won_flags_is_worth_more_than_a_lone_one() {
        let base = [0.5, 0.5, 0.5, 0.9, 0.5, 0.9, 0.5, 0.5, 0.5];
        let gain = |i: usize| {
            let mut up = base;
            up[i] = 1.0;
            let mut down = base;
            down[i] = 0.0;
            game_chance(&up) - game_chance(&down)
        };
        assert!(gain(4) > gain(0), "{} vs {}", gain(4), gain(0));
    }
}
