//! The fast player that plays rollouts to the end: greedy, from its own seat's knowledge, a few microseconds per move.
//!
//! Each side of a flag is worth the best formation it can still reach, discounted for
//! every card it still needs: a card in hand a little, an unseen card by the chance
//! that it reaches that player (its share of the unseen cards it will still draw, so
//! the discount grows as the deck runs out; the other player's hand counts as draws
//! for it). A flag that can already be proven is worth a bonus. A move is worth its
//! change at its flag (the flag's place in the line can weigh it too, `position`, off
//! by default: it made the playouts weaker). Troops, morale cards, Deserter and Traitor
//! are played (a guile tactic is worth its best resolution's change over the flags it
//! touches, less what spending a tactic costs); the root search decides the other
//! tactics. With `ways` (a variant, off by default), a side of troops short of cards is
//! worth every way it can still be completed ([`super::ways`]) instead. The worths are
//! computed on bit masks ([`super::reach`]), wild cards
//! included, without allocating; the strength found for a side's worth also decides
//! its claim proofs, and the other side's is found once per move.

use super::easy::strength_value;
use super::eval::flag_weights;
use super::reach::reach_side;
use super::ways::{Pool, ways_from};
use crate::card::{Card, Color, Tactic, TacticKind, Troop, TroopSet};
use crate::formation::{Judging, Strength, best_formation};
use crate::game::{Command, Deck, Game, Phase, Player, Target};
use seeded_rng::Rng;
use std::cell::Cell;

/// Knobs of the playout player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Playout {
    /// What playing a morale card costs, in formation points.
    pub morale_cost: f64,
    /// Random noise added to each move's worth (keeps rollouts varied).
    pub noise: f64,
    /// The discount per missing card that is in hand.
    pub sure_discount: f64,
    /// An unseen card's discount is this times its chance of arriving, at most
    /// `unseen_discount`.
    pub arrival_scale: f64,
    /// The largest discount per missing unseen card (the discount itself without
    /// `arrival_scale`).
    pub unseen_discount: f64,
    /// What a flag that can be proven is worth beyond its formation.
    pub provable_bonus: f64,
    /// How much a flag's place in the line weighs its moves: 0 not at all, 1 fully
    /// (by how much winning it changes the chance of winning the game).
    pub position: f64,
    /// Whether Deserter and Traitor are played (the root search always weighs them).
    pub guile: bool,
    /// What playing Deserter or Traitor costs, in formation points: much more than a
    /// morale card, so a playout keeps them for a real swing (at 9 the search won
    /// 82.2% of 600 games against easy at 360 playouts, at 30 it won 85.8%).
    pub guile_cost: f64,
    /// Whether a side of troops short of cards is worth every way it can be completed
    /// ([`super::ways`]): the chance of each formation kind, best first, each card
    /// not in hand arriving with `ways_scale` times its share of the draws (at most 1),
    /// times `sure_discount` per missing card. Otherwise (and for sides with wild
    /// cards, under Fog, or complete) the best reachable formation, discounted.
    pub ways: bool,
    /// See `ways`.
    pub ways_scale: f64,
    /// With `Some(n)`, [`Playout::run`]'s turn limit stops a rollout only once the
    /// troop deck holds at most `n` cards: while the deck is fuller the rollout plays
    /// on, turn by turn, because the evaluation that scores a cut rollout misjudges
    /// positions far from the end (cut after 4 turns of each player, the search lost 8
    /// points; README, *What was tried for hard*). `None`: the turn limit alone.
    pub low_deck: Option<usize>,
    /// The noise of one seat's moves when it is not `noise`: a contender's rollouts
    /// with the other player's play more varied or sharper than the searching
    /// player's (issue 23, twenty-fifth round). `None`: both seats alike.
    #[cfg(feature = "contenders")]
    pub seat_noise: Option<(Player, f64)>,
}

impl Default for Playout {
    fn default() -> Playout {
        Playout {
            morale_cost: 9.0,
            noise: 1.2,
            sure_discount: 0.92,
            arrival_scale: 2.4,
            unseen_discount: 0.95,
            provable_bonus: 70.0,
            position: 0.0,
            guile: true,
            guile_cost: 30.0,
            ways: false,
            ways_scale: 1.0,
            low_deck: None,
            #[cfg(feature = "contenders")]
            seat_noise: None,
        }
    }
}

/// The cards of a hand [`Playout::each_play`] keeps in place (a larger hand, never
/// seen, is kept on the heap).
const HAND_ROOM: usize = 16;

/// Score points that make a flag a 73% favourite, for the position weights.
const POSITION_SCALE: f64 = 40.0;

/// The best strength `side` (with `extra`) can reach from `avail` (its strength when
/// complete).
fn best_strength(
    side: &[Card],
    extra: Option<Card>,
    rules: Judging,
    avail: TroopSet,
) -> Option<Strength> {
    match reach_side(side, extra, rules.cards, rules.fog, avail, TroopSet::EMPTY) {
        Some(r) => r.map(|r| r.strength),
        None => {
            let all: Vec<Card> = side.iter().chain(extra.iter()).copied().collect();
            best_formation(&all, rules, avail).map(|c| c.strength)
        }
    }
}

/// Whether a complete `mine` wins against `theirs` whatever unplayed troops come (the
/// claim rule); `first`: `mine` completed first.
fn provable(
    mine: &[Card],
    theirs: &[Card],
    rules: Judging,
    unplayed: TroopSet,
    first: bool,
) -> bool {
    if mine.len() < rules.cards {
        return false;
    }
    let Some(s) = best_strength(mine, None, rules, TroopSet::EMPTY) else {
        return false;
    };
    if theirs.len() >= rules.cards {
        let t = best_strength(theirs, None, rules, TroopSet::EMPTY);
        return Some(s) > t || (Some(s) == t && first);
    }
    best_strength(theirs, None, rules, unplayed).is_none_or(|t| t <= s)
}

/// The first listed command other than sorting a hand.
fn first_listed(game: &Game) -> Option<Command> {
    game.legal_commands()
        .into_iter()
        .find(|c| !matches!(c, Command::SortHand { .. }))
}

/// Whether `me` completed its side of `flag` before the other side.
fn completed_first(flag: &crate::game::Flag, me: Player) -> bool {
    match flag.completed_at {
        [Some(a), Some(b)] => (a < b) == (me == Player::P0),
        _ => false,
    }
}

/// The other side of a flag as the player to move sees it: its cards, its worth and,
/// once complete, its strength (all the same whatever that player adds to its own side).
#[derive(Debug, Clone, Copy)]
struct Theirs<'a> {
    side: &'a [Card],
    worth: f64,
    strength: Option<Strength>,
}

impl Theirs<'_> {
    const NONE: Theirs<'static> = Theirs {
        side: &[],
        worth: 0.0,
        strength: None,
    };
}

/// Every open flag's score before a move, its other side, and the flags' weights.
struct Outlook<'a> {
    sight: Sight,
    before: [f64; 9],
    theirs: [Theirs<'a>; 9],
    weights: [f64; 9],
}

/// What one player sees and counts on, for one move.
struct Sight {
    hand: TroopSet,
    unseen: TroopSet,
    unplayed: TroopSet,
    mine_discount: f64,
    their_discount: f64,
    /// The powers 0 to 4 of `sure_discount`, `mine_discount` and `their_discount`
    /// ([`powers`]: the same numbers as `powi`), for the discounts per missing card.
    sure_powers: [f64; 5],
    mine_powers: [f64; 5],
    their_powers: [f64; 5],
    /// With `ways`: the pools the player's sides (the unseen troops and its hand, the
    /// hand sure) and the other player's (the unseen troops) are completed from,
    /// counted once for the move, each unseen card reaching that player with its share
    /// of the draws (`ways_scale` times).
    pools: Option<[Pool; 2]>,
    /// The worths of empty sides found so far (with `ways`), by [`empty_key`]: whose
    /// side, the card being added and the rules. The same at every flag with the same
    /// rules, and many flags are empty. Kept in place (no allocation each move); a
    /// worth found once the room is full is worked out again each time (the same
    /// number).
    empty: EmptyWorths,
}

/// How many worths of empty sides a move keeps: one per card of the hand and per
/// rules (ordinary or Mud) for the player to move, and the other player's.
const EMPTY_KEPT: usize = 24;

/// See `Sight::empty`.
struct EmptyWorths {
    len: Cell<usize>,
    kept: [Cell<(u32, f64)>; EMPTY_KEPT],
}

impl EmptyWorths {
    fn new() -> EmptyWorths {
        EmptyWorths {
            len: Cell::new(0),
            kept: std::array::from_fn(|_| Cell::new((0, 0.0))),
        }
    }

    fn get(&self, key: u32) -> Option<f64> {
        self.kept[..self.len.get()]
            .iter()
            .map(Cell::get)
            .find(|e| e.0 == key)
            .map(|e| e.1)
    }

    fn keep(&self, key: u32, worth: f64) {
        let len = self.len.get();
        if len < EMPTY_KEPT {
            self.kept[len].set((key, worth));
            self.len.set(len + 1);
        }
    }
}

/// The key of an empty side's worth in `Sight::empty`: whose side (the other
/// player's?), the card being added, the rules; a different number for each.
fn empty_key(theirs: bool, extra: Option<Card>, rules: Judging) -> u32 {
    let card = match extra {
        None => 0,
        Some(Card::Troop(t)) => 1 + t.color as u32 * 10 + u32::from(t.value),
        Some(Card::Tactic(t)) => 200 + t as u32,
    };
    u32::from(theirs) | card << 1 | (rules.cards.min(255) as u32) << 10 | u32::from(rules.fog) << 18
}

/// `x.powi(m)` for `m` from 0 to 4, to the last bit: the runtime's `powi` multiplies
/// by repeated squaring, these same products (1, x, x*x, x*(x*x), (x*x)*(x*x)).
fn powers(x: f64) -> [f64; 5] {
    let x2 = x * x;
    [1.0, x, x2, x * x2, x2 * x2]
}

/// `x.powi(m)` from `x`'s [`powers`] when `m` is among them.
fn power(table: &[f64; 5], x: f64, m: i32) -> f64 {
    match usize::try_from(m) {
        Ok(i) if i < table.len() => table[i],
        _ => x.powi(m),
    }
}

impl Playout {
    fn sight(&self, game: &Game, me: Player) -> Sight {
        let hand: TroopSet = game.hand(me).iter().filter_map(|c| c.troop()).collect();
        let unseen = game.unseen_troops(me);
        let u = unseen.len().max(1) as f64;
        let draws = game.troop_deck_len().div_ceil(2) as f64;
        let other_hand = game
            .hand(me.opponent())
            .iter()
            .filter(|c| c.troop().is_some())
            .count() as f64;
        let mine_arrival = (self.ways_scale * draws / u).min(1.0);
        let their_arrival = (self.ways_scale * (draws + other_hand) / u).min(1.0);
        let (mine_discount, their_discount) = if self.arrival_scale > 0.0 {
            (
                (self.arrival_scale * draws / u).min(self.unseen_discount),
                (self.arrival_scale * (draws + other_hand) / u).min(self.unseen_discount),
            )
        } else {
            (self.unseen_discount, self.unseen_discount)
        };
        let pools = self.ways.then(|| {
            let mine = Pool::new(unseen.union(hand), hand, mine_arrival);
            // The other player's: the unseen troops, counted from the first pool.
            let theirs = if unseen.intersection(hand).is_empty() {
                mine.others(their_arrival)
            } else {
                Pool::new(unseen, TroopSet::EMPTY, their_arrival)
            };
            [mine, theirs]
        });
        Sight {
            hand,
            unseen,
            unplayed: game.unplayed_troops(),
            mine_discount,
            their_discount,
            sure_powers: powers(self.sure_discount),
            mine_powers: powers(mine_discount),
            their_powers: powers(their_discount),
            pools,
            empty: EmptyWorths::new(),
        }
    }

    /// [`Playout::potential`] of `side` for the player to move (`theirs`: for the other
    /// player) as `sight` sees it, an empty side's worth under `ways` found once.
    fn side_worth(
        &self,
        sight: &Sight,
        theirs: bool,
        (side, extra): (&[Card], Option<Card>),
        rules: Judging,
        avail: TroopSet,
        sure: TroopSet,
    ) -> (f64, Option<Strength>) {
        let discount = if theirs {
            (sight.their_discount, &sight.their_powers)
        } else {
            (sight.mine_discount, &sight.mine_powers)
        };
        if let Some(pools) = &sight.pools {
            // The pool counted for the move, less the card being added.
            let (pool, taken) = match (theirs, extra) {
                (true, _) => (&pools[1], None),
                (false, Some(Card::Troop(t))) => (&pools[0], Some(t)),
                (false, _) => (&pools[0], None),
            };
            debug_assert_eq!(pool.available(taken), avail);
            if side.is_empty() {
                let key = empty_key(theirs, extra, rules);
                if let Some(worth) = sight.empty.get(key) {
                    return (worth, None);
                }
                if let Some(worth) = self.ways_worth(side, extra, rules, (pool, taken), sight) {
                    sight.empty.keep(key, worth);
                    return (worth, None);
                }
            } else if let Some(worth) = self.ways_worth(side, extra, rules, (pool, taken), sight) {
                return (worth, None);
            }
        }
        self.potential((side, extra), rules, avail, sure, discount, sight)
    }

    /// A side's worth by every way it can be completed (`ways`), or `None` for a side
    /// this does not judge (wild cards, Fog, complete or over full).
    fn ways_worth(
        &self,
        side: &[Card],
        extra: Option<Card>,
        rules: Judging,
        (pool, taken): (&Pool, Option<Troop>),
        sight: &Sight,
    ) -> Option<f64> {
        if !self.ways || rules.fog {
            return None;
        }
        let mut troops = [Troop {
            color: Color::Red,
            value: 1,
        }; 5];
        let mut len = 0;
        for card in side.iter().chain(extra.iter()) {
            match card {
                Card::Troop(t) if len < rules.cards => {
                    troops[len] = *t;
                    len += 1;
                }
                _ => return None,
            }
        }
        if len >= rules.cards {
            return None;
        }
        let w = ways_from(&troops[..len], rules.cards, false, pool, taken);
        let (mut worth, mut rest) = (0.0, 1.0);
        for kind in (0..5).rev() {
            let weight = w.weight[kind];
            if weight <= 1e-12 {
                continue;
            }
            let chance = weight.min(1.0);
            let value = kind as f64 * 30.0 + w.sum[kind] / weight * 3.0 / rules.cards as f64;
            worth += rest * chance * value;
            rest *= 1.0 - chance;
        }
        let missing = (rules.cards - len) as i32;
        Some(worth * power(&sight.sure_powers, self.sure_discount, missing))
    }

    /// A side's worth: its best reachable formation, discounted per card still needed
    /// (`unsure_discount` per card not in hand), and that formation's strength. `extra`
    /// is a card being added. (With `ways`, [`Playout::side_worth`] judges sides of
    /// troops short of cards by every way to complete them first.)
    fn potential(
        &self,
        (side, extra): (&[Card], Option<Card>),
        rules: Judging,
        avail: TroopSet,
        sure: TroopSet,
        (unsure_discount, unsure_powers): (f64, &[f64; 5]),
        sight: &Sight,
    ) -> (f64, Option<Strength>) {
        if let Some(side_reach) = reach_side(side, extra, rules.cards, rules.fog, avail, sure) {
            let Some(r) = side_reach else {
                return (0.0, None);
            };
            let have = side.len() + usize::from(extra.is_some());
            let missing = rules.cards.saturating_sub(have) as i32;
            let unsure = i32::from(r.unsure);
            let worth = strength_value(r.strength, rules.cards)
                * power(&sight.sure_powers, self.sure_discount, missing - unsure)
                * power(unsure_powers, unsure_discount, unsure);
            return (worth, Some(r.strength));
        }
        // More cards than the flag judges (Mud moved away): the best subset.
        let all: Vec<Card> = side.iter().chain(extra.iter()).copied().collect();
        let Some(c) = best_formation(&all, rules, avail) else {
            return (0.0, None);
        };
        let factor = c.added.iter().fold(1.0, |acc, t| {
            acc * if sure.contains(*t) {
                self.sure_discount
            } else {
                unsure_discount
            }
        });
        (
            strength_value(c.strength, rules.cards) * factor,
            Some(c.strength),
        )
    }

    /// The score of flag `i` for `me` with `mine` as its side: its worth minus the
    /// other side's worth, plus or minus the bonus for a side that can be proven.
    /// `theirs` is the other side's worth and, once complete, its strength (both the
    /// same whatever `me` plays).
    fn score(
        &self,
        game: &Game,
        i: usize,
        me: Player,
        mine: (&[Card], Option<Card>),
        theirs: Theirs,
        sight: &Sight,
    ) -> f64 {
        let f = &game.flags()[i];
        let rules = f.judging();
        let their_side = theirs.side;
        let (mut sure, mut avail, mut unplayed) =
            (sight.hand, sight.unseen.union(sight.hand), sight.unplayed);
        if let Some(Card::Troop(t)) = mine.1 {
            sure.remove(t);
            avail.remove(t);
            unplayed.remove(t);
        }
        let (worth, reached) = self.side_worth(sight, false, mine, rules, avail, sure);
        let mut v = worth - theirs.worth;
        let complete = mine.0.len() + usize::from(mine.1.is_some()) >= rules.cards;
        let their_complete = their_side.len() >= rules.cards;
        if !complete && !their_complete {
            return v;
        }
        // A side completed now is the second one.
        let first =
            mine.1.is_none() && completed_first(f, me) || mine.1.is_some() && !their_complete;
        // The claim rule, as in `provable`: a complete side against a complete one, or
        // against the best the other side can still reach from the unplayed troops.
        if complete && let Some(s) = reached {
            let proven = if their_complete {
                Some(s) > theirs.strength || Some(s) == theirs.strength && first
            } else {
                best_strength(their_side, None, rules, unplayed).is_none_or(|t| t <= s)
            };
            if proven {
                v += self.provable_bonus;
            }
        }
        if their_complete && let Some(t) = theirs.strength {
            let proven = if complete {
                Some(t) > reached || Some(t) == reached && !first
            } else {
                best_strength(mine.0, mine.1, rules, unplayed).is_none_or(|m| m <= t)
            };
            if proven {
                v -= self.provable_bonus;
            }
        }
        v
    }

    /// The first flag the player to move can claim now, by the claim rule.
    fn claim(&self, game: &Game) -> Option<Command> {
        if !game.claim_allowed_now() {
            return None;
        }
        let me = game.current();
        let unplayed = game.unplayed_troops();
        game.flags().iter().enumerate().find_map(|(i, f)| {
            if f.owner.is_some() || f.slots(me).len() < f.capacity() {
                return None;
            }
            let first = f.slots(me.opponent()).len() < f.capacity() || completed_first(f, me);
            provable(
                f.slots(me),
                f.slots(me.opponent()),
                f.judging(),
                unplayed,
                first,
            )
            .then_some(Command::ClaimFlag { flag: i as u8 })
        })
    }

    /// The command for the player to move.
    pub fn command(&self, game: &Game, rng: &mut Rng) -> Option<Command> {
        let me = game.current();
        if let Some(claim) = self.claim(game) {
            return Some(claim);
        }
        match game.phase() {
            Phase::Play => Some(self.play(game, me, rng)),
            Phase::ScoutDraw { .. } => Some(Command::ScoutDraw {
                deck: if game.troop_deck_len() > 0 {
                    Deck::Troop
                } else {
                    Deck::Tactic
                },
            }),
            Phase::Finish { may_draw } => Some(
                match (
                    may_draw,
                    game.troop_deck_len() > 0,
                    game.tactic_deck_len() > 0,
                ) {
                    (true, true, _) => Command::DrawAndEndTurn { deck: Deck::Troop },
                    (true, false, true) => Command::DrawAndEndTurn { deck: Deck::Tactic },
                    _ => Command::EndTurn,
                },
            ),
            Phase::Guile { tactic } => self
                .best_guile(game, me, tactic, &self.outlook(game, me))
                .map(|(_, c)| c)
                .or_else(|| first_listed(game)),
            // Other guile steps and Scout's returns only follow the root search's own
            // moves: take the first listed option.
            _ => first_listed(game),
        }
    }

    /// What playing `card` costs, or `None` when the playout does not play it.
    fn card_cost(&self, game: &Game, card: Card, tactics_ok: bool) -> Option<f64> {
        match card {
            Card::Troop(_) => Some(0.0),
            Card::Tactic(t) if t.kind() == TacticKind::Morale && tactics_ok => {
                // A second leader is refused.
                if t.is_leader() && game.leader_played(game.current()) {
                    return None;
                }
                Some(self.morale_cost)
            }
            Card::Tactic(_) => None,
        }
    }

    /// The other side of a flag, as `sight` sees it.
    fn theirs<'a>(&self, side: &'a [Card], rules: Judging, sight: &Sight) -> Theirs<'a> {
        let (worth, _) = self.side_worth(
            sight,
            true,
            (side, None),
            rules,
            sight.unseen,
            TroopSet::EMPTY,
        );
        let strength = (side.len() >= rules.cards)
            .then(|| best_strength(side, None, rules, TroopSet::EMPTY))
            .flatten();
        Theirs {
            side,
            worth,
            strength,
        }
    }

    /// Every flag's score for `me` before its move, and what the moves are weighed by.
    fn outlook<'a>(&self, game: &'a Game, me: Player) -> Outlook<'a> {
        let opp = me.opponent();
        let sight = self.sight(game, me);
        let mut before = [0.0f64; 9];
        let mut theirs = [Theirs::NONE; 9];
        let mut chance = [0.5f64; 9];
        for (i, f) in game.flags().iter().enumerate() {
            if let Some(owner) = f.owner {
                chance[i] = f64::from(u8::from(owner == me));
                continue;
            }
            theirs[i] = self.theirs(f.slots(opp), f.judging(), &sight);
            before[i] = self.score(game, i, me, (f.slots(me), None), theirs[i], &sight);
            if self.position > 0.0 {
                chance[i] = 1.0 / (1.0 + (-before[i] / POSITION_SCALE).exp());
            }
        }
        let weights = if self.position > 0.0 {
            let w = flag_weights(&chance);
            let open: Vec<f64> = (0..9)
                .filter(|&i| game.flags()[i].owner.is_none())
                .map(|i| w[i])
                .collect();
            let mean = open.iter().sum::<f64>() / open.len().max(1) as f64;
            if mean > 1e-9 {
                w.map(|x| 1.0 + self.position * (x / mean - 1.0))
            } else {
                [1.0; 9]
            }
        } else {
            [1.0; 9]
        };
        Outlook {
            sight,
            before,
            theirs,
            weights,
        }
    }

    /// The best resolution of Deserter or Traitor for `me` and its gain over the flags
    /// it changes, or `None` when the tactic has nothing to act on (or is another one).
    fn best_guile(
        &self,
        game: &Game,
        me: Player,
        tactic: Tactic,
        o: &Outlook,
    ) -> Option<(f64, Command)> {
        let mut best: Option<(f64, Command)> = None;
        self.each_guile(game, me, tactic, o, |v, c| {
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c));
            }
        });
        best
    }

    /// Calls `keep` with every resolution of Deserter or Traitor for `me` and its gain
    /// over the flags it changes (nothing for other tactics). Deserter discards one of
    /// the other side's troop or morale cards; Traitor moves one of its troops to `me`'s
    /// side of a flag with room.
    fn each_guile(
        &self,
        game: &Game,
        me: Player,
        tactic: Tactic,
        o: &Outlook,
        mut keep: impl FnMut(f64, Command),
    ) {
        if !matches!(tactic, Tactic::Deserter | Tactic::Traitor) {
            return;
        }
        let opp = me.opponent();
        let flags = game.flags();
        let mut rest: Vec<Card> = Vec::with_capacity(4);
        for (i, f) in flags.iter().enumerate() {
            if f.owner.is_some() {
                continue;
            }
            let side = f.slots(opp);
            let rules = f.judging();
            for (k, &card) in side.iter().enumerate() {
                rest.clear();
                rest.extend(
                    side.iter()
                        .enumerate()
                        .filter(|&(x, _)| x != k)
                        .map(|(_, &c)| c),
                );
                let left = self.theirs(&rest, rules, &o.sight);
                let mine = f.slots(me);
                let here = (self.score(game, i, me, (mine, None), left, &o.sight) - o.before[i])
                    * o.weights[i];
                if tactic == Tactic::Deserter {
                    keep(here, Command::ResolveDeserter { card });
                    continue;
                }
                let Card::Troop(troop) = card else { continue };
                for (j, g) in flags.iter().enumerate() {
                    if !g.open_for(me) {
                        continue;
                    }
                    let v = if j == i {
                        (self.score(game, i, me, (mine, Some(card)), left, &o.sight) - o.before[i])
                            * o.weights[i]
                    } else {
                        let there = self.score(
                            game,
                            j,
                            me,
                            (g.slots(me), Some(card)),
                            o.theirs[j],
                            &o.sight,
                        );
                        here + (there - o.before[j]) * o.weights[j]
                    };
                    keep(
                        v,
                        Command::ResolveTraitor {
                            card: troop,
                            flag: j as u8,
                        },
                    );
                }
            }
        }
    }

    /// The noise of `me`'s moves.
    fn noise_of(&self, me: Player) -> f64 {
        #[cfg(feature = "contenders")]
        if let Some((seat, noise)) = self.seat_noise
            && seat == me
        {
            return noise;
        }
        #[cfg(not(feature = "contenders"))]
        let _ = me;
        self.noise
    }

    fn play(&self, game: &Game, me: Player, rng: &mut Rng) -> Command {
        let mut best: Option<(f64, Command)> = None;
        let noise = self.noise_of(me);
        self.each_play(
            game,
            me,
            || rng.next_f64() * noise,
            |v, c| {
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, c));
                }
            },
        );
        if let Some((_, c)) = best {
            return c;
        }
        // No troop to play: pass if allowed, else anything listed (a tactic).
        let legal = game.legal_commands();
        if legal.contains(&Command::Pass) {
            return Command::Pass;
        }
        first_listed(game).unwrap_or(Command::Pass)
    }

    /// Calls `keep` with every play the policy weighs for `me` and its worth: each card
    /// it plays at each open flag (the change of that flag's score, less the card's
    /// cost), then Deserter and Traitor (their best resolution's gain, less
    /// `guile_cost`). `noise` is added to each worth, drawn in that order.
    fn each_play(
        &self,
        game: &Game,
        me: Player,
        mut noise: impl FnMut() -> f64,
        mut keep: impl FnMut(f64, Command),
    ) {
        let opp = me.opponent();
        let tactics_ok = game.tactics_played(me) <= game.tactics_played(opp);
        // The cards it plays and their costs, in place for a hand of ordinary size (no
        // allocation each move), sorted, each once.
        let costs = game
            .hand(me)
            .iter()
            .filter_map(|&c| self.card_cost(game, c, tactics_ok).map(|cost| (c, cost)));
        let mut room = [(Card::Tactic(Tactic::Fog), 0.0); HAND_ROOM];
        let mut spilled = Vec::new();
        let cards: &mut [(Card, f64)] = if game.hand(me).len() <= HAND_ROOM {
            let mut len = 0;
            for c in costs {
                room[len] = c;
                len += 1;
            }
            &mut room[..len]
        } else {
            spilled.extend(costs);
            &mut spilled
        };
        cards.sort_unstable_by_key(|a| a.0);
        let mut distinct = 0;
        for i in 0..cards.len() {
            if distinct == 0 || cards[distinct - 1].0 != cards[i].0 {
                cards[distinct] = cards[i];
                distinct += 1;
            }
        }
        let cards = &cards[..distinct];
        let o = self.outlook(game, me);
        for (i, f) in game.flags().iter().enumerate() {
            if !f.open_for(me) {
                continue;
            }
            for &(card, cost) in cards {
                let after = self.score(
                    game,
                    i,
                    me,
                    (f.slots(me), Some(card)),
                    o.theirs[i],
                    &o.sight,
                );
                let v = (after - o.before[i]) * o.weights[i] - cost + noise();
                keep(
                    v,
                    Command::PlayCard {
                        card,
                        target: Target::Flag { flag: i as u8 },
                    },
                );
            }
        }
        // Deserter and Traitor, worth their best resolution.
        if tactics_ok && self.guile {
            for &card in game.hand(me) {
                let Card::Tactic(t) = card else { continue };
                if let Some((gain, _)) = self.best_guile(game, me, t, &o) {
                    let v = gain - self.guile_cost + noise();
                    keep(
                        v,
                        Command::PlayCard {
                            card,
                            target: Target::Field,
                        },
                    );
                }
            }
        }
    }

    /// The player to move's `n` best plays by the policy's worth without its noise,
    /// best first (ties in the order the policy weighs them): the replies a search
    /// tries in place of the policy's one. Empty when the policy would not choose a
    /// play here (another phase, a claim to make first, or nothing it plays).
    pub fn best_plays(&self, game: &Game, n: usize) -> Vec<Command> {
        if game.phase() != Phase::Play || self.claim(game).is_some() {
            return Vec::new();
        }
        let mut scored: Vec<(f64, Command)> = Vec::new();
        self.each_play(game, game.current(), || 0.0, |v, c| scored.push((v, c)));
        // Stable: equal worths keep the policy's order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored.into_iter().take(n).map(|(_, c)| c).collect()
    }

    /// Plays until the game ends, `turns` more turns have ended (and, with `low_deck`,
    /// the troop deck has run that low), or both players have passed in a row (each
    /// turn a pass and its end): then nothing changes any more (this player passes
    /// only when it has no troop, morale card, Deserter or Traitor to play and no
    /// claim, and a pass draws nothing), although the game itself goes on while a
    /// tactic could still be played.
    pub fn run(&self, game: &mut Game, turns: usize, rng: &mut Rng) {
        let mut ended = 0;
        let mut passes = 0;
        for _ in 0..2000 {
            if game.is_over() || passes >= 2 {
                return;
            }
            if ended >= turns && self.low_deck.is_none_or(|n| game.troop_deck_len() <= n) {
                return;
            }
            let who = game.current();
            let Some(cmd) = self.command(game, rng) else {
                return;
            };
            passes = match cmd {
                Command::Pass => passes + 1,
                Command::EndTurn => passes,
                _ => 0,
            };
            if game.apply(cmd).is_err() {
                // Never expected; fall back to the first listed command.
                let Some(c) = first_listed(game) else {
                    return;
                };
                if game.apply(c).is_err() {
                    return;
                }
            }
            if game.current() != who {
                ended += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::RandomPlayer;
    use crate::game::Settings;

    /// The commands of `log` after `from`, without the turn ends.
    fn moves(log: &[Command], from: usize) -> Vec<Command> {
        log[from..]
            .iter()
            .copied()
            .filter(|c| *c != Command::EndTurn)
            .collect()
    }

    /// Positions from random play where the player to move may play Deserter or
    /// Traitor, with that card.
    fn guile_positions(seeds: std::ops::Range<u64>) -> Vec<(Game, Card)> {
        let mut found = Vec::new();
        for seed in seeds {
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for _ in 0..120 {
                let legal = game.legal_commands();
                for t in [Tactic::Deserter, Tactic::Traitor] {
                    let play = Command::PlayCard {
                        card: Card::Tactic(t),
                        target: Target::Field,
                    };
                    if legal.contains(&play) {
                        found.push((game.clone(), Card::Tactic(t)));
                    }
                }
                let Some(c) = random.choose(&game) else { break };
                game.apply(c).expect("listed");
            }
        }
        found
    }

    #[test]
    fn the_discounts_powers_are_powi_to_the_last_bit() {
        let mut rng = Rng::new(5);
        let knobs = Playout::default();
        let mut xs = vec![knobs.sure_discount, knobs.unseen_discount, 0.0, 1.0];
        xs.extend((0..20_000).map(|_| rng.next_f64() * 1.2));
        for x in xs {
            let x = std::hint::black_box(x);
            let table = powers(x);
            for m in 0..7 {
                let m = std::hint::black_box(m);
                assert_eq!(
                    power(&table, x, m).to_bits(),
                    x.powi(m).to_bits(),
                    "{x}^{m}"
                );
            }
        }
    }

    #[cfg(feature = "contenders")]
    #[test]
    fn a_seats_own_noise_changes_only_that_seats_plays() {
        // P1 plays without noise, P0 with a noise that swamps every worth: P1's plays
        // are the quiet policy's, P0's are not always.
        let quiet = Playout {
            noise: 0.0,
            ..Playout::default()
        };
        let mixed = Playout {
            seat_noise: Some((Player::P0, 1000.0)),
            ..quiet
        };
        let (mut same, mut differ) = (0, 0);
        for seed in 50..54 {
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for ply in 0..300 {
                if game.is_over() {
                    break;
                }
                if game.phase() == Phase::Play {
                    let a = quiet.command(&game, &mut Rng::new(ply));
                    let b = mixed.command(&game, &mut Rng::new(ply));
                    if game.current() == Player::P1 {
                        assert_eq!(a, b);
                        same += 1;
                    } else {
                        differ += usize::from(a != b);
                    }
                }
                let cmd = random.choose(&game).expect("a move");
                game.apply(cmd).expect("legal");
            }
        }
        assert!(same > 20 && differ > 5, "{same} {differ}");
    }

    #[test]
    fn the_best_plays_are_legal_distinct_and_start_with_the_policys_choice_without_noise() {
        let mut checked = 0;
        for seed in 40..44 {
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for ply in 0..300 {
                if game.is_over() {
                    break;
                }
                for policy in [
                    Playout::default(),
                    Playout {
                        ways: true,
                        ..Playout::default()
                    },
                ] {
                    let best = policy.best_plays(&game, 4);
                    if game.phase() != Phase::Play || policy.claim(&game).is_some() {
                        assert!(best.is_empty(), "{best:?}");
                        continue;
                    }
                    let legal = game.legal_commands();
                    assert!(best.iter().all(|c| legal.contains(c)), "{best:?}");
                    assert!(best.len() <= 4);
                    let distinct = best.iter().enumerate().all(|(i, c)| !best[..i].contains(c));
                    assert!(distinct, "{best:?}");
                    let quiet = Playout {
                        noise: 0.0,
                        ..policy
                    };
                    let own = quiet.command(&game, &mut Rng::new(ply));
                    match best.first() {
                        Some(first) => assert_eq!(own, Some(*first)),
                        // Nothing the policy plays: it passes or plays what is listed.
                        None => assert!(own.is_some_and(|c| legal.contains(&c))),
                    }
                    checked += 1;
                }
                let cmd = random.choose(&game).expect("a move");
                game.apply(cmd).expect("legal");
            }
        }
        assert!(checked >= 50, "only {checked} positions");
    }

    #[test]
    fn deserter_and_traitor_gains_match_the_flag_scores_after_the_move() {
        let playout = Playout::default();
        let positions = guile_positions(0..60);
        assert!(positions.len() > 50, "only {} positions", positions.len());
        let mut checked = 0;
        for (game, card) in positions {
            let me = game.current();
            let Card::Tactic(tactic) = card else {
                unreachable!()
            };
            let o = playout.outlook(&game, me);
            let mut options = Vec::new();
            playout.each_guile(&game, me, tactic, &o, |v, c| options.push((v, c)));
            let mut played = game.clone();
            played
                .apply(Command::PlayCard {
                    card,
                    target: Target::Field,
                })
                .expect("listed");
            let legal = played.legal_commands();
            for (gain, resolution) in &options {
                // Every option is a legal resolution, worth what the scores say after it.
                assert!(legal.contains(resolution), "{resolution:?}");
                let mut after = played.clone();
                after.apply(*resolution).expect("legal");
                let a = playout.outlook(&after, me);
                let change: f64 = (0..9).map(|i| a.before[i] - o.before[i]).sum();
                assert!(
                    (change - gain).abs() < 1e-9,
                    "{resolution:?}: gain {gain}, scores changed by {change}"
                );
                checked += 1;
            }
            // The playout resolves the tactic with its best option.
            let best = options
                .iter()
                .copied()
                .reduce(|b, x| if x.0 > b.0 { x } else { b })
                .map(|(_, c)| c);
            let mut rng = Rng::new(0);
            assert_eq!(
                playout.command(&played, &mut rng),
                best.or_else(|| first_listed(&played))
            );
        }
        assert!(checked > 200, "only {checked} resolutions checked");
    }

    #[test]
    fn playouts_play_deserter_and_traitor_for_both_players() {
        let playout = Playout::default();
        let mut resolved = [[0; 2]; 2];
        for seed in 0..200u64 {
            // Random play first: it draws tactics, which playouts do not.
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for _ in 0..30 {
                let Some(c) = random.choose(&game) else { break };
                game.apply(c).expect("listed");
            }
            let start = game.log().len();
            let mut who = game.current();
            let mut rng = Rng::new(seed);
            playout.run(&mut game, 200, &mut rng);
            for c in &game.log()[start..] {
                match c {
                    Command::ResolveDeserter { .. } => resolved[who.index()][0] += 1,
                    Command::ResolveTraitor { .. } => resolved[who.index()][1] += 1,
                    Command::EndTurn | Command::DrawAndEndTurn { .. } => who = who.opponent(),
                    _ => {}
                }
            }
        }
        assert!(
            resolved.iter().flatten().all(|&n| n > 0),
            "resolutions by player (Deserter, Traitor): {resolved:?}"
        );
    }

    #[test]
    fn a_playout_stops_once_both_players_have_passed_in_a_row() {
        // Deserter and Traitor end most of the stuck positions below, so the playout
        // here plays neither, to reach them.
        let playout = Playout {
            guile: false,
            ..Playout::default()
        };
        let mut stopped_on_passes = 0;
        for seed in 0..300u64 {
            // Long random play leaves positions where neither side has a troop to play.
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for _ in 0..(60 + seed % 4 * 30) {
                let Some(c) = random.choose(&game) else { break };
                game.apply(c).expect("listed");
            }
            let start = game.log().len();
            let mut rng = Rng::new(seed);
            playout.run(&mut game, 200, &mut rng);
            if game.is_over() {
                continue;
            }
            let played = moves(game.log(), start);
            // Not over within 200 turns: only because the last two moves were passes.
            assert!(
                played.ends_with(&[Command::Pass, Command::Pass]),
                "seed {seed}: {:?}",
                &played[played.len().saturating_sub(4)..]
            );
            // No two passes in a row before the end.
            assert!(
                !played[..played.len() - 1]
                    .windows(2)
                    .any(|w| w == [Command::Pass, Command::Pass]),
                "seed {seed}"
            );
            stopped_on_passes += 1;
        }
        assert!(
            stopped_on_passes > 0,
            "some playout reached a stuck position"
        );
    }

    #[test]
    fn a_playout_with_a_low_deck_stop_plays_on_until_the_troop_deck_runs_low() {
        // The stop is the turn limit's, moved on to the first turn's start where the
        // troop deck holds at most `low` cards: the same moves as turn-by-turn runs of
        // the plain policy stopped there.
        let low = 20;
        let plain = Playout::default();
        let lowered = Playout {
            low_deck: Some(low),
            ..plain
        };
        let mut played_on = 0;
        for seed in 0..40u64 {
            let mut game = Game::new(seed, Settings::default());
            let mut random = RandomPlayer::new(seed);
            for _ in 0..(seed % 5 * 8) {
                let Some(c) = random.choose(&game) else { break };
                game.apply(c).expect("listed");
            }
            let turns = 3;
            let mut stopped = game.clone();
            lowered.run(&mut stopped, turns, &mut Rng::new(seed));
            let mut stepped = game.clone();
            let mut rng = Rng::new(seed);
            let mut ended = 0;
            while !stepped.is_over()
                && (ended < turns || stepped.troop_deck_len() > low)
                && !moves(stepped.log(), 0).ends_with(&[Command::Pass, Command::Pass])
            {
                let before = stepped.log().len();
                plain.run(&mut stepped, 1, &mut rng);
                assert!(stepped.log().len() > before, "seed {seed}: no progress");
                ended += 1;
            }
            assert_eq!(stopped.log(), stepped.log(), "seed {seed}");
            if !stopped.is_over()
                && !moves(stopped.log(), 0).ends_with(&[Command::Pass, Command::Pass])
            {
                assert!(stopped.troop_deck_len() <= low, "seed {seed}");
            }
            // Where the plain limit would have stopped with a fuller deck, it played on.
            let mut limited = game.clone();
            plain.run(&mut limited, turns, &mut Rng::new(seed));
            if limited.troop_deck_len() > low
                && !limited.is_over()
                && !moves(limited.log(), 0).ends_with(&[Command::Pass, Command::Pass])
            {
                assert!(stopped.log().len() > limited.log().len(), "seed {seed}");
                assert!(stopped.log().starts_with(limited.log()), "seed {seed}");
                played_on += 1;
            }
        }
        assert!(played_on > 10, "only {played_on} playouts played on");
    }
}
