//! A cheap model of the sparring partner's replies: its worth of each card it may hold on each flag, tabled once from the public position, then any deal's hand ordered by that table.
//!
//! The partner values a play by the weighted flags it expects to win after it
//! ([`super::Sparring`]): each flag's chance from both sides' outlooks
//! ([`super::ladder`]), its own hand counted as sure cards. Computed in a deal of its
//! hand that costs about 4 ms, too slow for a tree's reply nodes. This model computes
//! the same chances once, from the public position alone, the mover's hand left out (its
//! side draws only what the partner counts it will draw from the deck): for every troop
//! the searcher cannot see and every flag open to the mover, the change of that flag's
//! chance when the troop is added to the mover's side there, times the flag's weight (the
//! partner's weights, from the flags' chances before the move). Morale cards, Fog and Mud
//! are tabled the same way, Deserter and Traitor by their best resolution, less what the
//! partner charges for a tactic. A deal's plays are then ordered by table look-ups
//! ([`ReplyModel::order`], a few microseconds), or by the table adjusted for the deal's
//! hand as the partner counts its hand ([`ReplyModel::order_in`], a few hundred).
//!
//! Nothing of a hand is read to build the table (the number of troops in the other
//! hand, the table and the unplayed troops are public), so any deal of the same public
//! position gives the same table (a test checks it).
//!
//! Checked with `battle-line-bench replies` (README, eighteenth round): where the deal
//! holds the partner's real card, the best 4 of [`ReplyModel::order_in`] hold its real
//! play 65-69% of the time, the table alone 63-65%, the partner's own valuation in the
//! deal 69-70%, the rollout policy 47-48%.

use super::hand_model::slot;
use super::ladder::{Outlook, counted, done_first, first_to_complete, proved, rank, win_chance};
use super::sparring::{Params, weights};
use crate::card::{Card, Tactic, TacticKind, TroopSet};
use crate::formation::{Judging, Strength, best_formation};
use crate::game::{Command, Flag, Game, Player, Target};
use crate::odds::Supply;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A side and the supply it is completed from: the key of the outlook cache.
type Key = (Vec<Card>, usize, bool, TroopSet, TroopSet, usize);

/// Outlooks computed so far, shared by the tables of one search (the same side from
/// the same supply is the same outlook whatever candidate was played before).
#[derive(Debug, Default, Clone)]
pub(crate) struct Outlooks {
    map: HashMap<Key, Rc<Outlook>>,
    /// The chances compared so far, by the two outlooks (which the map keeps alive, so
    /// their addresses stay theirs) and the tie-break between complete sides.
    chances: HashMap<(usize, usize, u64), f64>,
}

impl Outlooks {
    fn key(side: &[Card], rules: Judging, supply: Supply) -> Key {
        (
            side.to_vec(),
            rules.cards,
            rules.fog,
            supply.hand,
            supply.pool,
            supply.draws.min(supply.pool.len()),
        )
    }

    fn get(&mut self, side: &[Card], rules: Judging, supply: Supply) -> Rc<Outlook> {
        let key = Outlooks::key(side, rules, supply);
        self.map
            .entry(key)
            .or_insert_with(|| Rc::new(Outlook::of(side, rules, supply)))
            .clone()
    }
}

/// The public view from the mover's seat that the table is computed in.
struct Seat {
    me: Player,
    params: Params,
    /// Troops not on the table (the decks and both hands).
    unplayed: TroopSet,
    /// Troops in the other hand (a public count).
    their_hand: usize,
    /// Troops each player will still draw from the deck.
    my_draws: usize,
    their_draws: usize,
}

impl Seat {
    /// P(the mover wins flag `f` whose sides are `mine` and `theirs` judged by `rules`),
    /// with `taken` (a troop moved from the mover's hand to its side) out of the pool: the
    /// partner's flag chance (`sparring::Table::chance`) without the mover's hand.
    fn chance(
        &self,
        cache: &mut Outlooks,
        f: &Flag,
        mine: &[Card],
        theirs: &[Card],
        rules: Judging,
        taken: TroopSet,
    ) -> f64 {
        self.chance_of(cache, f, mine, theirs, rules, taken).0
    }

    /// [`Seat::chance`], and the outlooks it compared, if it came to that.
    fn chance_of(
        &self,
        cache: &mut Outlooks,
        f: &Flag,
        mine: &[Card],
        theirs: &[Card],
        rules: Judging,
        taken: TroopSet,
    ) -> (f64, Option<Sides>) {
        if let Some(owner) = f.owner {
            return (f64::from(u8::from(owner == self.me)), None);
        }
        let n = rules.cards;
        let pool = self.unplayed.difference(taken);
        if let Some(p) = proved(mine, theirs, rules, pool) {
            return (p, None);
        }
        let done_tie = match done_first(f.completed_at, self.me) {
            Some(t) => t,
            // A side completed now completes after one completed before.
            None if f.completed_at[0].is_some() != f.completed_at[1].is_some()
                && counted(mine) >= n
                && counted(theirs) >= n =>
            {
                f64::from(u8::from(f.completed_at[self.me.index()].is_some()))
            }
            None => 0.5,
        };
        let slack = self.params.slack;
        let supply = |side: &[Card], held: usize, deck: usize| {
            let draws = if side.is_empty() {
                n + slack
            } else {
                held + deck.min(n.saturating_sub(counted(side)) + slack)
            };
            Supply {
                hand: TroopSet::EMPTY,
                pool,
                draws,
            }
        };
        let t = cache.get(
            theirs,
            rules,
            supply(theirs, self.their_hand, self.their_draws),
        );
        let m = cache.get(mine, rules, supply(mine, 0, self.my_draws));
        let key = (
            Rc::as_ptr(&m) as usize,
            Rc::as_ptr(&t) as usize,
            done_tie.to_bits(),
        );
        let p = match cache.chances.get(&key) {
            Some(&p) => p,
            None => {
                let p = win_chance(
                    &m,
                    &t,
                    first_to_complete(&m, &t),
                    done_tie,
                    self.params.sum_scale,
                );
                cache.chances.insert(key, p);
                p
            }
        };
        let sides = Sides {
            mine: m,
            theirs: t,
            done_tie,
        };
        (p, Some(sides))
    }
}

/// The outlooks a flag's chance compared and its tie-break between complete sides.
#[derive(Debug, Clone)]
struct Sides {
    mine: Rc<Outlook>,
    theirs: Rc<Outlook>,
    done_tie: f64,
}

/// Worths closer to 0 than this count as 0 in a deal's order (the model's error on
/// plays that change nothing for the partner, which its valuation leaves in the rules'
/// order): 0.05 held 62.8% of the real plays in the best 4 on the bench's seeds 0-4 with
/// 8 deals, 0 61.6%, 0.15 62.3% (before the hand was left out of the table's draws).
const NO_CHANGE: f64 = 0.05;

/// A started flag of the mover, the hand troops its sure completion takes, and what
/// its chance loses without each of them.
type FlagLosses = (usize, TroopSet, Vec<(crate::card::Troop, f64)>);

/// The morale tactics, in the order of [`ReplyModel::morale`].
const MORALE: [Tactic; 4] = [
    Tactic::Alexander,
    Tactic::Darius,
    Tactic::CompanionCavalry,
    Tactic::ShieldBearers,
];

/// The mover's worth of each play it may make in a public position (see the module's
/// comment): the change in its weighted flags, tactics less their cost; a pass 0.
#[derive(Debug, Clone)]
pub(crate) struct ReplyModel {
    me: Player,
    /// The unplayed troops.
    unplayed: TroopSet,
    /// Each flag's sides (the mover's, the other's) and rules; `None` once claimed.
    flags: [Option<(Vec<Card>, Judging)>; 9],
    /// Each open flag's chance for the mover before its move, and its weight.
    before: [f64; 9],
    weights: [f64; 9],
    /// The other side's outlook at each unclaimed flag.
    theirs: [Option<Rc<Outlook>>; 9],
    /// The chance that a side of the mover sure to reach a strength wins the flag, by
    /// flag and rung, as they are asked for.
    sure_wins: RefCell<HashMap<(usize, usize), f64>>,
    /// Each flag's sides before the move.
    sides_before: [Option<Sides>; 9],
    /// The sides after a troop (by slot) is added to the mover's side of a flag, where
    /// that side is still incomplete.
    sides_after: HashMap<(usize, usize), Sides>,
    /// The chance of a flag (by slot of the troop added, 60 for none) whose mover's side
    /// is one card short and sure to reach a rung, as asked for.
    sure_chances: RefCell<HashMap<(usize, usize, usize), f64>>,
    /// `troops[slot][flag]`: a troop added to the mover's side of an open flag
    /// (`f64::NEG_INFINITY` where it cannot go or was not tabled).
    troops: Box<[[f64; 9]; 60]>,
    /// The same for each morale tactic of [`MORALE`].
    morale: [[f64; 9]; 4],
    fog: [f64; 9],
    mud: [f64; 9],
    deserter: f64,
    traitor: f64,
    redeploy: f64,
    scout: f64,
}

impl ReplyModel {
    /// The table for the player to move in `game`, for the troops of `troops` (those it
    /// may hold: the ones the searcher cannot see). Reads the flags, the unplayed troops,
    /// the deck's size and the number of troops in the other hand, nothing of a hand's
    /// cards.
    pub fn of(game: &Game, troops: TroopSet, cache: &mut Outlooks) -> ReplyModel {
        ReplyModel::of_pool(game, troops, game.unplayed_troops(), cache)
    }

    /// [`ReplyModel::of`] with `unplayed` as the troops not on the table (a search's
    /// tables below each of its candidates can share their outlooks when they count
    /// the root's, the candidate's own card among them).
    pub fn of_pool(
        game: &Game,
        troops: TroopSet,
        unplayed: TroopSet,
        cache: &mut Outlooks,
    ) -> ReplyModel {
        let me = game.current();
        let them = me.opponent();
        let params = Params::default();
        let count = |p: Player| game.hand(p).iter().filter(|c| c.troop().is_some()).count();
        let deck = game.troop_deck_len();
        let seat = Seat {
            me,
            params,
            unplayed,
            their_hand: count(them),
            my_draws: deck.div_ceil(2),
            their_draws: deck / 2,
        };
        let flags = game.flags();
        let mut before = [0.0; 9];
        let mut sides_before: [Option<Sides>; 9] = Default::default();
        for (i, f) in flags.iter().enumerate() {
            (before[i], sides_before[i]) = seat.chance_of(
                cache,
                f,
                f.slots(me),
                f.slots(them),
                f.judging(),
                TroopSet::EMPTY,
            );
        }
        let w = weights(&before, params);
        let mut theirs_outlooks: [Option<Rc<Outlook>>; 9] = Default::default();
        let mut sides: [Option<(Vec<Card>, Judging)>; 9] = Default::default();
        for (i, f) in flags.iter().enumerate() {
            if f.owner.is_some() {
                continue;
            }
            let rules = f.judging();
            sides[i] = Some((f.slots(me).to_vec(), rules));
            let theirs = f.slots(them);
            let n = rules.cards;
            let draws = if theirs.is_empty() {
                n + params.slack
            } else {
                seat.their_hand
                    + seat
                        .their_draws
                        .min(n.saturating_sub(counted(theirs)) + params.slack)
            };
            let supply = Supply {
                hand: TroopSet::EMPTY,
                pool: seat.unplayed,
                draws,
            };
            theirs_outlooks[i] = Some(cache.get(theirs, rules, supply));
        }
        let mut model = ReplyModel {
            me,
            unplayed: seat.unplayed,
            flags: sides,
            before,
            weights: w,
            theirs: theirs_outlooks,
            sure_wins: RefCell::default(),
            sides_before,
            sides_after: HashMap::new(),
            sure_chances: RefCell::default(),
            troops: Box::new([[f64::NEG_INFINITY; 9]; 60]),
            morale: [[f64::NEG_INFINITY; 9]; 4],
            fog: [f64::NEG_INFINITY; 9],
            mud: [f64::NEG_INFINITY; 9],
            deserter: f64::NEG_INFINITY,
            traitor: f64::NEG_INFINITY,
            redeploy: -params.tactic_cost - params.scout_value,
            scout: params.scout_value - params.tactic_cost,
        };
        let mut side: Vec<Card> = Vec::with_capacity(5);
        for (i, f) in flags.iter().enumerate() {
            if f.owner.is_some() {
                continue;
            }
            let rules = f.judging();
            let theirs = f.slots(them);
            if f.open_for(me) {
                for t in troops.iter_high_first() {
                    side.clear();
                    side.extend_from_slice(f.slots(me));
                    side.push(Card::Troop(t));
                    let mut taken = TroopSet::EMPTY;
                    taken.insert(t);
                    let (p, sides) = seat.chance_of(cache, f, &side, theirs, rules, taken);
                    model.troops[slot(t)][i] = w[i] * (p - before[i]);
                    if let Some(sides) = sides
                        && counted(&side) < rules.cards
                    {
                        model.sides_after.insert((slot(t), i), sides);
                    }
                }
                for (k, m) in MORALE.into_iter().enumerate() {
                    side.clear();
                    side.extend_from_slice(f.slots(me));
                    side.push(Card::Tactic(m));
                    let p = seat.chance(cache, f, &side, theirs, rules, TroopSet::EMPTY);
                    let cost = params.morale_cost
                        + if m.is_leader() {
                            params.leader_cost
                        } else {
                            0.0
                        };
                    model.morale[k][i] = w[i] * (p - before[i]) - cost;
                }
            }
            // Fog and Mud: the flag judged another way.
            let mine = f.slots(me);
            let env = |seat: &Seat, cache: &mut Outlooks, rules: Judging| {
                let p = seat.chance(cache, f, mine, theirs, rules, TroopSet::EMPTY);
                w[i] * (p - before[i]) - params.tactic_cost
            };
            if !rules.fog {
                model.fog[i] = env(&seat, cache, Judging { fog: true, ..rules });
            }
            if rules.cards == 3 {
                model.mud[i] = env(&seat, cache, Judging { cards: 4, ..rules });
            }
            // Deserter: one of the other side's cards discarded; Traitor: one of its
            // troops moved to the mover's best open flag for it.
            for (k, &card) in theirs.iter().enumerate() {
                let mut rest = theirs.to_vec();
                rest.remove(k);
                let p = seat.chance(cache, f, mine, &rest, rules, TroopSet::EMPTY);
                let removed = w[i] * (p - before[i]);
                model.deserter = model.deserter.max(removed - params.tactic_cost);
                let Card::Troop(t) = card else { continue };
                for (j, g) in flags.iter().enumerate() {
                    if !g.open_for(me) {
                        continue;
                    }
                    side.clear();
                    side.extend_from_slice(g.slots(me));
                    side.push(Card::Troop(t));
                    let (their_j, before_j) = if j == i {
                        (&rest[..], p)
                    } else {
                        (g.slots(them), before[j])
                    };
                    let q = seat.chance(cache, g, &side, their_j, g.judging(), TroopSet::EMPTY);
                    let placed = w[j] * (q - before_j);
                    model.traitor = model.traitor.max(removed + placed - params.tactic_cost);
                }
            }
        }
        model
    }

    /// The chance of flag `i` whose mover's side (`sides`, after troop slot `t` was
    /// added, 60 for none) is sure to reach `s` from the hand, otherwise `p`: for a side
    /// one card short, its ladder raised to 1 up to `s`'s rung, against the other side
    /// as the partner compares them; for a shorter one, the better of `p` and the chance
    /// of `s` as if complete.
    fn sure_chance(&self, i: usize, t: usize, sides: Option<&Sides>, s: Strength, p: f64) -> f64 {
        let key = (i, t, rank(s));
        if let Some(&q) = self.sure_chances.borrow().get(&key) {
            return q;
        }
        let exact = sides.and_then(|sides| {
            let theirs = &sides.theirs;
            let Outlook::Exact(surv) = &*sides.mine else {
                return None;
            };
            let mut raised = surv.clone();
            for x in raised.iter_mut().take(rank(s) + 1) {
                *x = 1.0;
            }
            let raised = Outlook::Exact(raised);
            let tie = first_to_complete(&raised, theirs);
            Some(win_chance(
                &raised,
                theirs,
                tie,
                sides.done_tie,
                Params::default().sum_scale,
            ))
        });
        let q = exact.unwrap_or_else(|| p.max(self.sure_win(i, s)));
        self.sure_chances.borrow_mut().insert(key, q);
        q
    }

    /// The mover's worth of `cmd` (the first command of a play), `None` for a command
    /// the table does not value.
    pub fn value(&self, cmd: Command) -> Option<f64> {
        let v = match cmd {
            Command::Pass => 0.0,
            Command::PlayCard {
                card: Card::Troop(t),
                target: Target::Flag { flag },
            } => self.troops[slot(t)][usize::from(flag)],
            Command::PlayCard {
                card: Card::Tactic(t),
                target,
            } => match (t.kind(), target) {
                (TacticKind::Morale, Target::Flag { flag }) => {
                    let k = MORALE.iter().position(|&m| m == t)?;
                    self.morale[k][usize::from(flag)]
                }
                (TacticKind::Environment, Target::Flag { flag }) if t == Tactic::Fog => {
                    self.fog[usize::from(flag)]
                }
                (TacticKind::Environment, Target::Flag { flag }) => self.mud[usize::from(flag)],
                (_, Target::Field) => match t {
                    Tactic::Scout => self.scout,
                    Tactic::Redeploy => self.redeploy,
                    Tactic::Deserter => self.deserter,
                    Tactic::Traitor => self.traitor,
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        Some(v)
    }

    /// The chance that the mover wins flag `i` with a side sure to reach `s` (it
    /// completes after the other side if that one is complete).
    fn sure_win(&self, i: usize, s: Strength) -> f64 {
        let key = (i, rank(s));
        if let Some(&p) = self.sure_wins.borrow().get(&key) {
            return p;
        }
        let p = match &self.theirs[i] {
            Some(t) => win_chance(
                &Outlook::Done(Some(s)),
                t,
                0.5,
                0.0,
                Params::default().sum_scale,
            ),
            None => 0.0,
        };
        self.sure_wins.borrow_mut().insert(key, p);
        p
    }

    /// `plays` of the mover in `world` (a deal of its hand) ordered by their worth, best
    /// first: the table's, adjusted for the hand as the partner counts it. The hand's
    /// troops are shared among its started flags as the partner shares them (the flags
    /// nearest completion first take the troops of their best completion); a started
    /// flag's chance is raised to what its best sure troop (by the table) or its sure
    /// completion gives, and a played troop's flag likewise after the play; a troop
    /// played away from a flag that counted on it costs that flag what it loses; the
    /// weights are set again from those chances; worths within [`NO_CHANGE`] of 0 count
    /// as 0.
    pub fn order_in(&self, world: &Game, plays: &[Command]) -> Vec<Command> {
        self.values_in(world, plays)
            .into_iter()
            .map(|(_, c)| c)
            .collect()
    }

    /// [`ReplyModel::order_in`] with the worths.
    pub fn values_in(&self, world: &Game, plays: &[Command]) -> Vec<(f64, Command)> {
        let me = self.me;
        let hand: TroopSet = world.hand(me).iter().filter_map(|c| c.troop()).collect();
        let pool = self.unplayed.difference(hand);
        // The partner's allocation of the hand to the started flags.
        let mut started: Vec<(usize, usize)> = Vec::new();
        for (i, f) in self.flags.iter().enumerate() {
            if let Some((side, rules)) = f
                && !side.is_empty()
                && counted(side) < rules.cards
            {
                started.push((rules.cards - counted(side), i));
            }
        }
        started.sort_unstable();
        let mut left = hand;
        let mut alloc = [TroopSet::EMPTY; 9];
        for &(_, i) in &started {
            let Some((side, rules)) = &self.flags[i] else {
                continue;
            };
            if let Some(c) = best_formation(side, *rules, left.union(pool)) {
                for t in c.added {
                    if left.contains(t) {
                        left.remove(t);
                        alloc[i].insert(t);
                    }
                }
            }
        }
        // A started flag's chance with its sure troops `sure`.
        // A started flag's chance with its sure troops `sure`, and the troops its sure
        // completion takes.
        let with_sure = |i: usize, sure: TroopSet| -> (f64, TroopSet) {
            let Some((side, rules)) = &self.flags[i] else {
                return (self.before[i], TroopSet::EMPTY);
            };
            // The best single sure troop on the side, as the table has it.
            let mut best = (self.before[i], TroopSet::EMPTY);
            for u in sure.iter_high_first() {
                let gain = self.troops[slot(u)][i];
                if gain.is_finite() && self.before[i] + gain / self.weights[i] > best.0 {
                    let mut used = TroopSet::EMPTY;
                    used.insert(u);
                    best = (self.before[i] + gain / self.weights[i], used);
                }
            }
            if let Some(c) = best_formation(side, *rules, sure) {
                let p = self.sure_chance(
                    i,
                    60,
                    self.sides_before[i].as_ref(),
                    c.strength,
                    self.before[i],
                );
                if p > best.0 {
                    best = (p, c.added.into_iter().collect());
                }
            }
            best
        };
        let mut before = self.before;
        // Each started flag's loss without each troop of its sure completion.
        let mut losses: Vec<FlagLosses> = Vec::new();
        for &(_, j) in &started {
            let sure = alloc[j].union(left);
            let (p, used) = with_sure(j, sure);
            before[j] = p;
            let mut lost = Vec::new();
            for t in used.iter_high_first() {
                let mut rest = sure;
                rest.remove(t);
                lost.push((t, p - with_sure(j, rest).0));
            }
            losses.push((j, used, lost));
        }
        // The flags' weights as the partner sets them, from its chances with its hand.
        let w = weights(&before, Params::default());
        for (j, _, lost) in &mut losses {
            for x in lost.iter_mut() {
                x.1 *= w[*j];
            }
        }
        let mut side: Vec<Card> = Vec::with_capacity(5);
        let value = |cmd: Command, side: &mut Vec<Card>| -> f64 {
            let table = self.value(cmd).unwrap_or(f64::NEG_INFINITY);
            let Command::PlayCard {
                card: Card::Troop(t),
                target: Target::Flag { flag },
            } = cmd
            else {
                return table;
            };
            let i = usize::from(flag);
            let Some((mine, rules)) = &self.flags[i] else {
                return table;
            };
            // The table's chance after the play, then the sure completion's.
            let mut after = self.before[i] + table / self.weights[i];
            side.clear();
            side.extend_from_slice(mine);
            side.push(Card::Troop(t));
            let mut sure = alloc[i].union(left);
            sure.remove(t);
            if counted(side) < rules.cards
                && let Some(c) = best_formation(side, *rules, sure)
            {
                let sides = self.sides_after.get(&(slot(t), i));
                after = self.sure_chance(i, slot(t), sides, c.strength, after);
            }
            let mut v = w[i] * (after - before[i]);
            // The other flags that counted on `t`.
            for (j, used, lost) in &losses {
                if *j != i && used.contains(t) {
                    v -= lost.iter().find(|(u, _)| *u == t).map_or(0.0, |x| x.1);
                }
            }
            v
        };
        let mut valued: Vec<(f64, Command)> = plays
            .iter()
            .map(|&c| {
                let v = value(c, &mut side);
                // Within the model's error of a pass: as the partner's many plays that
                // change nothing, in the rules' order.
                (if v.abs() < NO_CHANGE { 0.0 } else { v }, c)
            })
            .collect();
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        valued
    }

    /// `plays` ordered by their worth, best first (equal worths, and the plays the table
    /// does not value, last, in `plays`' order).
    pub fn order(&self, plays: &[Command]) -> Vec<Command> {
        let mut valued: Vec<(f64, Command)> = plays
            .iter()
            .map(|&c| (self.value(c).unwrap_or(f64::NEG_INFINITY), c))
            .collect();
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        valued.into_iter().map(|(_, c)| c).collect()
    }
}

/// The distinct first commands of the plays of the player to move in `world` (a card
/// put on a flag or into the guile area, or a pass), in the order the rules list them.
pub(crate) fn plays_of(world: &Game) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    for c in world.legal_commands() {
        if matches!(c, Command::PlayCard { .. } | Command::Pass) && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Positions of a game of the partner against itself where a card is to be played.
fn positions(seed: u64, every: usize) -> Vec<Game> {
    use crate::game::{Phase, Settings};
    let bot = crate::bot::Sparring::new();
    let mut game = Game::new(seed, Settings::default());
    let mut out = Vec::new();
    for ply in 0..600 {
        if game.is_over() {
            break;
        }
        if ply % every == 0 && game.phase() == Phase::Play {
            out.push(game.clone());
        }
        let cmd = bot.choose(&game).expect("a move");
        game.apply(cmd).expect("legal");
    }
    out
}

/// What [`time_tables`] measured: tables built from fresh outlooks, and built with the
/// outlooks shared by the tables below one root (their pools the root's unplayed troops).
#[derive(Debug, Clone, Copy, Default)]
pub struct TableTimes {
    pub moves: u32,
    pub tables: u32,
    pub fresh: std::time::Duration,
    pub shared: std::time::Duration,
}

/// Times the tables of the reply nodes below the searcher's first 8 plays (and its draw)
/// in every `every`-th position of the partner's games against itself, seeds `seeds`:
/// each node's table from fresh outlooks, then the 8 with shared outlooks
/// (`battle-line-bench tables`; a measurement, never called by a level).
pub fn time_tables(seeds: std::ops::Range<u64>, every: usize, clock: super::Clock) -> TableTimes {
    use crate::bot::knowledge::Knowledge;
    use crate::game::{Deck, Phase};
    let mut t = TableTimes::default();
    for seed in seeds {
        for game in positions(seed, every) {
            let know = Knowledge::of(&game, game.current());
            let mut nodes = Vec::new();
            for cmd in plays_of(&game) {
                if nodes.len() == 8 {
                    break;
                }
                let mut g = game.clone();
                if g.apply(cmd).is_err() {
                    continue;
                }
                let _ = g.apply(Command::DrawAndEndTurn { deck: Deck::Troop });
                if g.phase() == Phase::Play && g.current() != game.current() {
                    nodes.push(g);
                }
            }
            if nodes.is_empty() {
                continue;
            }
            t.moves += 1;
            let start = clock();
            for g in &nodes {
                let _ = ReplyModel::of(g, know.unseen(), &mut Outlooks::default());
            }
            t.fresh += start.elapsed();
            let start = clock();
            let mut cache = Outlooks::default();
            for g in &nodes {
                let _ = ReplyModel::of_pool(g, know.unseen(), game.unplayed_troops(), &mut cache);
            }
            t.shared += start.elapsed();
            t.tables += u32::try_from(nodes.len()).unwrap_or(u32::MAX);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::knowledge::Knowledge;
    use crate::game::Settings;

    /// The tabled part of a model (what [`ReplyModel::of`] computed from the position).
    fn tabled(m: &ReplyModel) -> Vec<f64> {
        let mut out: Vec<f64> = m.troops.iter().flatten().copied().collect();
        out.extend(m.morale.iter().flatten());
        out.extend(m.fog.iter().chain(&m.mud));
        out.extend([m.deserter, m.traitor, m.redeploy, m.scout]);
        out.extend(m.before.iter().chain(&m.weights));
        out
    }

    #[test]
    fn the_table_is_the_same_from_any_deal_of_the_public_position() {
        let mut looked = 0;
        for seed in [3, 4] {
            for game in positions(seed, 7).into_iter().take(6) {
                // The searcher's knowledge: the mover's hand is among what it cannot see.
                let know = Knowledge::of(&game, game.current().opponent());
                let deal = |d: u64| know.sample(&mut seeded_rng::Rng::new(d));
                let (a, b) = (deal(1), deal(2));
                assert_ne!(a.hand(a.current()), b.hand(b.current()), "two deals");
                let ta = tabled(&ReplyModel::of(&a, know.unseen(), &mut Outlooks::default()));
                let tb = tabled(&ReplyModel::of(&b, know.unseen(), &mut Outlooks::default()));
                let same = ta.iter().zip(&tb).all(|(x, y)| x.to_bits() == y.to_bits());
                assert!(
                    same && ta.len() == tb.len(),
                    "seed {seed}: the table read a hand"
                );
                // And from the real game itself, which holds the real hand.
                let real = tabled(&ReplyModel::of(
                    &game,
                    know.unseen(),
                    &mut Outlooks::default(),
                ));
                assert!(
                    real.iter()
                        .zip(&ta)
                        .all(|(x, y)| x.to_bits() == y.to_bits())
                );
                looked += 1;
            }
        }
        assert!(looked >= 8, "{looked} positions");
    }

    /// P0 holds red 10, 9, 8, 5 and blue 1, 2, 3; P1 greens 1-4 and yellows 5-7. P0 puts
    /// red 9 and 8 on flag 0, P1 green 1 and 2 on flag 5: P0 to move, red 10 in hand.
    fn built() -> Game {
        use crate::card::{Color, Troop};
        use crate::game::{Deal, Deck};
        let t = |color, value| Troop { color, value };
        let (red, blue, green, yellow) = (Color::Red, Color::Blue, Color::Green, Color::Yellow);
        let p0 = [
            (red, 10),
            (red, 9),
            (red, 8),
            (red, 5),
            (blue, 1),
            (blue, 2),
            (blue, 3),
        ]
        .map(|(c, v)| t(c, v));
        let p1 = [
            (green, 1),
            (green, 2),
            (green, 3),
            (green, 4),
            (yellow, 5),
            (yellow, 6),
            (yellow, 7),
        ]
        .map(|(c, v)| t(c, v));
        let mut top_first: Vec<Troop> = Vec::new();
        for i in 0..7 {
            top_first.push(p0[i]);
            top_first.push(p1[i]);
        }
        top_first.extend(
            Troop::all()
                .filter(|x| !top_first.contains(x))
                .collect::<Vec<_>>(),
        );
        top_first.reverse();
        let mut tactics = Tactic::ALL.to_vec();
        tactics.reverse();
        let deal = Deal {
            troops: top_first,
            tactics,
        };
        let mut game = Game::with_deal(Settings::default(), deal).expect("a full deal");
        for (card, flag) in [(p0[1], 0), (p1[0], 5), (p0[2], 0), (p1[1], 5)] {
            game.apply(Command::PlayCard {
                card: Card::Troop(card),
                target: Target::Flag { flag },
            })
            .expect("legal");
            game.apply(Command::DrawAndEndTurn { deck: Deck::Troop })
                .expect("legal");
        }
        game
    }

    #[test]
    fn on_a_built_position_the_model_ranks_the_partners_best_plays_first() {
        let game = built();
        let me = game.current();
        let know = Knowledge::of(&game, me.opponent());
        let model = ReplyModel::of(&game, know.unseen(), &mut Outlooks::default());
        let plays = plays_of(&game);
        let order = model.order_in(&game, &plays);
        assert_eq!(order.len(), plays.len(), "every play once");
        assert!(plays.iter().all(|p| order.contains(p)));
        // The partner starts a sure wedge of blues next to its red 8 and 9, whose red
        // 10 it keeps (counted as sure there): the model's best 4 are the partner's.
        let partner = crate::bot::Sparring::new().choose(&game).expect("a play");
        let blue = |value: u8, flag: u8| Command::PlayCard {
            card: Card::Troop(crate::card::Troop {
                color: crate::card::Color::Blue,
                value,
            }),
            target: Target::Flag { flag },
        };
        assert_eq!(partner, blue(1, 1));
        assert_eq!(order.first(), Some(&partner), "{:?}", &order[..4]);
        let best = crate::bot::ismcts::partner_order(&game);
        assert!(
            order[..4].iter().all(|c| best[..4].contains(c)),
            "{:?}",
            &order[..4]
        );
        // The table alone, without the hand, values the red 10 highest at flag 0 (the
        // wedge it completes), and every play is worth a finite amount.
        let at = |flag: u8| {
            model.value(Command::PlayCard {
                card: Card::Troop(crate::card::Troop {
                    color: crate::card::Color::Red,
                    value: 10,
                }),
                target: Target::Flag { flag },
            })
        };
        let top = at(0).expect("tabled");
        assert!((1..9).all(|f| at(f).is_none_or(|v| v < top)));
        assert!(
            plays
                .iter()
                .all(|&p| model.value(p).is_some_and(f64::is_finite))
        );
    }
}
