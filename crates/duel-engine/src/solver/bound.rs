//! Admissible cuts: positions the solver may call lost without searching them, because
//! the card data shows that nothing left can reach the goal. Each cut is sound (it
//! never calls a winnable position lost; `tests/solver.rs` checks every one against an
//! exhaustive search), so a search that uses them still proves what it says.

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::card::{CardDef, Code, Frame, card, catalog};
use crate::command::Command;
use crate::effect::{
    Amount, Condition, Constraint, Dest, EffectKind, Filter, Max, OncePerTurn, Reg, Source, Step,
    TriggerOn, Who,
};
use crate::engine::printed_match;
use crate::state::{
    CardId, CardInstance, Duel, EndStep, Face, Location, OptKey, Outcome, Phase, Player, Reason,
};

/// Whether `d` can no longer reach `goal`, by one of the cuts below (`facts`: those of
/// the duel's cards, [`Facts::of`]).
pub(crate) fn hopeless(d: &Duel, goal: Outcome, facts: &Facts) -> bool {
    match goal {
        // Read at open positions only: a prompt or a chain link is on its way to one.
        Outcome::Win(Reason::Exodia) => {
            idle_end_phase(d) || (open(d) && exodia_out_of_reach(d, facts))
        }
        Outcome::Win(Reason::Lp0) => idle_end_phase(d),
        _ => false,
    }
}

/// No prompt, chain link or running effect.
fn open(d: &Duel) -> bool {
    d.prompt.is_none() && d.chain.is_empty() && d.frames.is_empty()
}

/// The End Phase of the first turn with nothing left to do but its end: no card can be
/// activated any more (only ending the turn is legal, or an End Phase effect is already
/// applying), and the End Phase effects still to apply only send the hand away or put
/// cards back into the deck (Magical Scientist's monsters going back to the Extra Deck).
/// From here the turn ends without a draw, a search or damage, so neither Exodia nor
/// LP 0 can come; and the order of those effects, which the player chooses, need not be
/// searched.
fn idle_end_phase(d: &Duel) -> bool {
    if d.phase != Phase::End || !d.chain.is_empty() || !d.triggers.is_empty() {
        return false;
    }
    if d.trigger_build.is_some() {
        return false;
    }
    let only_end = match d.end_step {
        EndStep::Open => {
            d.prompt.is_none()
                && d.frames.is_empty()
                && d.legal_commands()
                    .iter()
                    .all(|c| matches!(c, Command::EndTurn | Command::AdvancePhase))
        }
        // Applying End Phase effects, discarding for the hand size or done: no card can be
        // activated between them. A running End Phase program is one of the delayed
        // effects checked below (or the hand-size discard).
        EndStep::Delayed | EndStep::HandLimit | EndStep::Done => true,
    };
    only_end
        && delayed_harmless(d)
        && d.frames.iter().all(|f| f.steps.iter().all(harmless_step))
        && d.player(Player::You).lp > 0
}

/// Whether ending the turn from `d` can only lead to an End Phase of
/// [`idle_end_phase`], told without playing it: an open Main Phase with no trigger
/// waiting, nothing in your hand or on your field that could be activated in the End
/// Phase (only Spell Speed 2 can: a Quick-Play Spell or a Trap, not one Set this turn),
/// and End Phase effects still to apply that only send the hand away or put cards back
/// into the deck. Ending the turn then loses whatever the goal, so a search need not try
/// it (and a position whose only other commands are answers offers no choice).
pub(crate) fn ending_is_idle(d: &Duel) -> bool {
    let you = d.player(Player::You);
    // Monsters have no effects of Spell Speed 2: only the hand and the Spell & Trap
    // Zones can hold one.
    let quick = |id: &CardId| {
        d.instance(*id)
            .and_then(|c| crate::card::card(c.code))
            .is_some_and(|def| def.activation_speed() >= 2)
    };
    let set_before = |id: &&CardId| d.instance(**id).is_some_and(|c| !c.placed_this_turn);
    d.phase == Phase::Main1
        && super::key::quiet(d)
        && you.lp > 0
        && delayed_harmless(d)
        && !you.hand.iter().any(quick)
        && !you
            .spell_trap
            .iter()
            .flatten()
            .filter(set_before)
            .any(quick)
}

/// Every End Phase effect still to apply only sends the hand away or puts cards back into
/// the deck.
fn delayed_harmless(d: &Duel) -> bool {
    d.delayed.iter().all(|e| {
        e.steps
            .iter()
            .all(|s| sends_hand_away(s) || back_to_deck(s))
    })
}

/// A step that only sends the player's hand to the graveyard.
fn sends_hand_away(s: &Step) -> bool {
    matches!(
        s,
        Step::MoveHand {
            to: Dest::Discard | Dest::Graveyard,
            ..
        }
    )
}

/// A step that only puts cards into the deck (or the Extra Deck), or shuffles it: no
/// effect starts when a card goes there.
fn back_to_deck(s: &Step) -> bool {
    matches!(s, Step::Move { to: Dest::Deck, .. } | Step::ShuffleDeck)
}

/// A step of a running End Phase program that cannot draw, search or deal damage:
/// sending the hand away, putting cards back into the deck, or choosing cards of the
/// hand and discarding them (the hand-size discard). A discard starts no trigger.
fn harmless_step(s: &Step) -> bool {
    sends_hand_away(s)
        || back_to_deck(s)
        || matches!(
            s,
            Step::Select {
                from: Source::Hand,
                ..
            } | Step::Move {
                to: Dest::Discard,
                ..
            }
        )
}

/// Where a card is, as far as moving it to the hand goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Zone {
    Deck,
    Hand,
    Grave,
    Banished,
    Field,
    Extra,
    /// Wherever the card whose effect this is happens to be ("this card").
    Any,
}

fn zone_of(l: Location) -> Option<Zone> {
    Some(match l {
        Location::Deck => Zone::Deck,
        Location::Hand => Zone::Hand,
        Location::MainMonsterZone(_) | Location::SpellTrapZone(_) | Location::FieldZone => {
            Zone::Field
        }
        Location::Graveyard => Zone::Grave,
        Location::Banished => Zone::Banished,
        Location::ExtraDeck => Zone::Extra,
        Location::Vanished => return None,
    })
}

/// A move some step of an effect can make: cards from `from` that match `filter`
/// (`None`: any card) to `to`.
#[derive(Debug, Clone, Copy)]
struct Mover {
    from: Zone,
    filter: Option<&'static Filter>,
    to: Zone,
}

/// What one card's effects can do, read from its steps (costs, resolutions, modes and
/// End Phase steps alike, whether or not their conditions could hold: a relaxation).
#[derive(Debug, Default)]
struct Profile {
    movers: Vec<Mover>,
    /// The most cards its effects can draw for you in one use each (`None`: no bound
    /// read from the data, e.g. "draw as many as you shuffled").
    draws: Option<u32>,
    /// Something that can change where cards are in the deck, or reuse draws without a
    /// bound the data shows: a shuffle, a draw of a computed number, an effect usable
    /// again and again, a card that can bring itself back.
    unbounded: bool,
    /// Each effect's use, in the card's order (for the once-per-turn marks of a position).
    uses: Vec<EffectUse>,
    /// The most cards one use of each effect brings back from the graveyard or
    /// banishment (anywhere but the graveyard), in all; [`MANY`] without a bound.
    revives: u32,
    /// What it can bring back: (zone, filter) of each such move.
    revive_from: Vec<(Zone, Option<&'static Filter>)>,
    /// The most cards one use of each effect takes from the deck by a filter (a search,
    /// to the hand, the field or elsewhere), in all; [`MANY`] without a bound.
    fetches: u32,
    /// The filters of those searches.
    fetch_by: Vec<&'static Filter>,
    /// One of its effects moves the card itself out of the graveyard or back to the hand
    /// or the deck, so that it can be used again.
    returns_itself: bool,
}

/// One effect of a card, as the draw bound counts its uses.
#[derive(Debug, Clone, Copy)]
struct EffectUse {
    kind: EffectKind,
    once: Option<OncePerTurn>,
    /// The most cards one use draws.
    draws: u32,
}

/// A count without a bound read from the data ("as many as possible").
const MANY: u32 = u32::MAX;

fn source_zone(s: Source) -> Option<Zone> {
    Some(match s {
        Source::Hand => Zone::Hand,
        Source::Deck => Zone::Deck,
        Source::Graveyard | Source::EitherGraveyard => Zone::Grave,
        Source::Banished | Source::EitherBanished => Zone::Banished,
        Source::ExtraDeck => Zone::Extra,
        Source::MonsterZone
        | Source::SpellTrapZone
        | Source::EitherMonsterZone
        | Source::EquippedMonster => Zone::Field,
        // "This card" moves only itself, and a win piece has no such effect.
        Source::This => return None,
        // The opponent's cards are never yours to win with.
        Source::OpponentGraveyard => return None,
        Source::Reg { .. } => return None,
    })
}

fn dest_zone(d: Dest) -> Zone {
    match d {
        Dest::Hand => Zone::Hand,
        Dest::Discard | Dest::Graveyard | Dest::Tribute | Dest::Material => Zone::Grave,
        Dest::Deck => Zone::Deck,
        Dest::Banished | Dest::BanishedFaceDown => Zone::Banished,
    }
}

/// A card's [`Profile`]. With `leaving` false, the effects that wait for a monster to be
/// sent from the field to the graveyard count as doing nothing (no card of the duel can
/// send one there, see [`monsters_can_leave_field`]).
fn profile(def: &'static CardDef, leaving: bool) -> Profile {
    let mut p = Profile {
        draws: Some(0),
        ..Profile::default()
    };
    for e in &def.effects {
        let waits_for_leaving = e.trigger.as_ref().is_some_and(|t| {
            matches!(
                t.on,
                TriggerOn::SentFromFieldToGraveyard | TriggerOn::WatchedMonsterToGraveyard
            )
        });
        if waits_for_leaving && !leaving {
            p.uses.push(EffectUse {
                kind: e.kind,
                once: e.once_per_turn,
                draws: 0,
            });
            continue;
        }
        let mut regs: Vec<Held> = Vec::new();
        let (draws, revives, fetches) = (p.draws, p.revives, p.fetches);
        for_steps(e.steps(), &mut regs, &mut p);
        // An effect that can be used again and again draws (brings back, searches)
        // without a bound: only a card's own activation (the card leaves) or a
        // once-per-turn effect is used once.
        let reusable = e.kind != EffectKind::Activation && e.once_per_turn.is_none();
        if reusable && p.draws != draws {
            p.unbounded = true;
        }
        if reusable && p.revives != revives {
            p.revives = MANY;
        }
        if reusable && p.fetches != fetches {
            p.fetches = MANY;
        }
        p.uses.push(EffectUse {
            kind: e.kind,
            once: e.once_per_turn,
            draws: match (p.draws, draws) {
                (Some(after), Some(before)) => after - before,
                _ => 0,
            },
        });
    }
    p
}

/// A register of an effect being read: where its cards come from, the filter they
/// passed (`None`: any card) and how many it holds at most.
#[derive(Debug, Clone, Copy)]
struct Held {
    reg: Reg,
    from: Zone,
    filter: Option<&'static Filter>,
    n: u32,
}

/// A move of a register's cards to `to`: a mover, and a revival or a search to count.
fn moved(p: &mut Profile, h: Held, to: Zone) {
    if h.from == Zone::Any {
        // "This card": a card that can bring itself back uses itself again and again.
        p.unbounded |= to != Zone::Grave;
        p.returns_itself |= to != Zone::Grave;
        return;
    }
    p.movers.push(Mover {
        from: h.from,
        filter: h.filter,
        to,
    });
    if matches!(h.from, Zone::Grave | Zone::Banished) && to != Zone::Grave {
        p.revives = p.revives.saturating_add(h.n);
        p.revive_from.push((h.from, h.filter));
    }
    // A search takes cards out of the deck wherever they are (bringing the cards below
    // them nearer the top), to use them or not.
    if h.from == Zone::Deck
        && to != Zone::Deck
        && let Some(f) = h.filter
    {
        p.fetches = p.fetches.saturating_add(h.n);
        p.fetch_by.push(f);
    }
}

fn for_steps(steps: impl Iterator<Item = &'static Step>, regs: &mut Vec<Held>, p: &mut Profile) {
    let reg_of = |regs: &Vec<Held>, r: Reg| regs.iter().rev().find(|h| h.reg == r).copied();
    for s in steps {
        match s {
            Step::Draw { who: Who::You, n } => {
                p.movers.push(Mover {
                    from: Zone::Deck,
                    filter: None,
                    to: Zone::Hand,
                });
                match n {
                    Amount::Fixed(n) => p.draws = p.draws.map(|d| d + n),
                    _ => p.unbounded = true,
                }
            }
            Step::DrawUntil { hand } => {
                p.movers.push(Mover {
                    from: Zone::Deck,
                    filter: None,
                    to: Zone::Hand,
                });
                p.draws = p.draws.map(|d| d + u32::from(*hand));
            }
            Step::Select {
                from,
                filter,
                into,
                max,
                ..
            } => {
                let n = match max {
                    Max::N(n) => u32::from(*n),
                    Max::All => MANY,
                };
                let held = match from {
                    Source::Reg { reg } => match reg_of(regs, *reg) {
                        Some(h) => Held { n: n.min(h.n), ..h },
                        None => continue,
                    },
                    // "This card" moves only itself: no mover (a win piece has no such
                    // effect), but a card that returns itself is a draw used again.
                    Source::This => Held {
                        reg: *into,
                        from: Zone::Any,
                        filter: None,
                        n: 1,
                    },
                    other => match source_zone(*other) {
                        Some(z) => Held {
                            reg: *into,
                            from: z,
                            filter: Some(filter),
                            n,
                        },
                        None => continue,
                    },
                };
                regs.push(Held { reg: *into, ..held });
            }
            // Revealing from the top reaches below the draws: no depth bound.
            Step::Excavate { into, n } => {
                p.unbounded = true;
                regs.push(Held {
                    reg: *into,
                    from: Zone::Deck,
                    filter: None,
                    n: u32::from(*n),
                });
            }
            Step::ExcavateUntil { found, rest, .. } => {
                p.unbounded = true;
                for reg in [*found, *rest] {
                    regs.push(Held {
                        reg,
                        from: Zone::Deck,
                        filter: None,
                        n: MANY,
                    });
                }
            }
            Step::Split { reg, into, .. } => {
                if let Some(h) = reg_of(regs, *reg) {
                    regs.push(Held { reg: *into, ..h });
                }
            }
            Step::Move { reg, to } => {
                if let Some(h) = reg_of(regs, *reg) {
                    moved(p, h, dest_zone(*to));
                }
            }
            Step::MoveHand {
                who: Who::You, to, ..
            } => {
                p.movers.push(Mover {
                    from: Zone::Hand,
                    filter: None,
                    to: dest_zone(*to),
                });
            }
            Step::SpecialSummon { reg, .. } => {
                if let Some(h) = reg_of(regs, *reg) {
                    moved(p, h, Zone::Field);
                }
            }
            Step::ShuffleDeck | Step::RemoveCounters { .. } => p.unbounded = true,
            Step::AtEndPhase { steps } => for_steps(steps.iter(), regs, p),
            _ => {}
        }
    }
}

/// Whether `m` can move a card of definition `def` out of `from`: its filter is read on
/// what the card is only; what depends on its state counts as passed, which only makes
/// the cut weaker.
fn moves(def: &CardDef, m: &Mover, from: Zone) -> bool {
    (m.from == from || m.from == Zone::Any) && m.filter.is_none_or(|f| printed_match(def, f))
}

/// A set of the catalogue's movers ([`Tables::movers`]), as bits.
type Movers = u128;

/// Zones to reach ([`Tables::reaches`]), as bits by `Zone`, and the movers that move
/// cards there.
#[derive(Debug, Clone, Copy)]
struct Goal {
    zones: u8,
    movers: Movers,
}

/// Zones as bits, by `Zone`.
const fn bit(z: Zone) -> u8 {
    1 << (z as u8)
}

const ZONES: [Zone; 7] = [
    Zone::Deck,
    Zone::Hand,
    Zone::Grave,
    Zone::Banished,
    Zone::Field,
    Zone::Extra,
    Zone::Any,
];

/// What the cut reads of one card of the catalogue, worked out once.
struct CardTable {
    profile: Profile,
    /// The movers its own effects make.
    own: Movers,
    /// For each zone (by `Zone`): the movers that can move it out of there.
    out_of: [Movers; 7],
    /// The movers that can fetch it from the deck by a filter (a search).
    searches: Movers,
    /// Every effect is "only 1 per turn" by name: used once, the card is [`spent`].
    once_by_name: bool,
    /// For a card all of whose effects are activations that each need cards in your
    /// deck (a draw, a search, a look at the top cards): what each one needs, one of which
    /// must hold to activate it ([`dead_over`]); empty for any other card.
    deck_needs: Vec<Vec<DeckNeed>>,
}

/// What an activation needs in your deck, as its conditions say: at least this many
/// cards, or this many passing a filter (by catalogue index, whether the card passes).
#[derive(Debug, Clone)]
enum DeckNeed {
    Cards(u8),
    Passing(Vec<bool>, u8),
}

/// [`CardTable::deck_needs`] of `def`.
fn deck_needs(def: &'static CardDef) -> Vec<Vec<DeckNeed>> {
    let needs: Vec<Vec<DeckNeed>> = def
        .effects
        .iter()
        .map(|e| {
            if e.kind != EffectKind::Activation {
                return Vec::new();
            }
            e.conditions
                .iter()
                .filter_map(|c| match c {
                    Condition::DeckAtLeast { who: Who::You, n } => Some(DeckNeed::Cards(*n)),
                    Condition::Exists {
                        zone: Source::Deck,
                        filter,
                        n,
                    } => Some(DeckNeed::Passing(
                        catalog().iter().map(|c| printed_match(c, filter)).collect(),
                        *n,
                    )),
                    _ => None,
                })
                .collect()
        })
        .collect();
    if needs.is_empty() || needs.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    needs
}

/// Whether a card of `table` can never be activated once only the cards `under` are
/// left in your deck (or fewer): each of its activations needs more cards there than
/// that, or more of them passing a filter (read only when `scan`). Always `false`
/// unless no card of the duel can put cards into the deck
/// ([`Facts::deck_only_shrinks`]). Read for a card that gets to the hand by being drawn,
/// whose deck from then on holds at most the cards now under it as long as no shuffle
/// happens (the cut has no bound then), and for any card with the whole deck.
#[inline]
fn dead_over(d: &Duel, facts: &Facts, table: &CardTable, under: &[CardId], scan: bool) -> bool {
    if table.deck_needs.is_empty() || !facts.deck_only_shrinks {
        return false;
    }
    let t = tables_for(facts.leaves_field);
    table.deck_needs.iter().all(|needs| {
        needs.iter().any(|need| match need {
            DeckNeed::Cards(n) => under.len() < usize::from(*n),
            DeckNeed::Passing(..) if !scan => false,
            DeckNeed::Passing(passes, n) => {
                let n = usize::from(*n);
                let passing = under
                    .iter()
                    .filter(|&&id| {
                        d.instance(id)
                            .and_then(|c| facts.index(t, id.index(), c))
                            .and_then(|i| passes.get(i).copied())
                            .unwrap_or(false)
                    })
                    .take(n)
                    .count();
                passing < n
            }
        })
    })
}

/// Whether a step puts cards into a deck (the Main Deck or the Extra Deck).
fn puts_into_deck(s: &Step) -> bool {
    match s {
        Step::Move { to: Dest::Deck, .. } | Step::MoveHand { to: Dest::Deck, .. } => true,
        Step::AtEndPhase { steps } => steps.iter().any(puts_into_deck),
        _ => false,
    }
}

/// Every move the catalogue's effects can make, once each (the same source, filter and
/// destination), and each card's [`CardTable`], by its place in the catalogue.
struct Tables {
    /// By `Zone`: the movers that move cards there.
    into: [Movers; 7],
    /// The hand, and the hand or the field, as goals of [`Tables::reaches`].
    hand: Goal,
    hand_or_field: Goal,
    cards: Vec<CardTable>,
    /// Every move has its bit in a [`Movers`]; with more moves than that, the cut never
    /// fires (the profiles still serve the guides).
    fits: bool,
}

/// The tables of every card's effects (`leaving`: with those that wait for a monster to
/// leave the field for the graveyard; see [`profile`]).
fn tables_for(leaving: bool) -> &'static Tables {
    static ALL: OnceLock<Tables> = OnceLock::new();
    static STAYING: OnceLock<Tables> = OnceLock::new();
    let cell = if leaving { &ALL } else { &STAYING };
    cell.get_or_init(|| Tables::new(leaving))
}

/// The tables with every effect, for the guides.
fn tables() -> &'static Tables {
    tables_for(true)
}

impl Tables {
    fn new(leaving: bool) -> Tables {
        let profiles: Vec<(&'static CardDef, Profile)> =
            catalog().iter().map(|c| (c, profile(c, leaving))).collect();
        let mut movers: Vec<Mover> = Vec::new();
        let same = |x: &Mover, m: &Mover| {
            x.from == m.from
                && x.to == m.to
                && match (x.filter, m.filter) {
                    (None, None) => true,
                    (Some(a), Some(b)) => std::ptr::eq(a, b),
                    _ => false,
                }
        };
        let mut owns = Vec::with_capacity(profiles.len());
        for (_, p) in &profiles {
            let mut own: Movers = 0;
            for m in &p.movers {
                let i = match movers.iter().position(|x| same(x, m)) {
                    Some(i) => i,
                    None => {
                        movers.push(*m);
                        movers.len() - 1
                    }
                };
                own |= one(i);
            }
            owns.push(own);
        }
        let cards: Vec<CardTable> = profiles
            .into_iter()
            .zip(owns)
            .map(|((def, profile), own)| {
                let once_by_name = !profile.uses.is_empty()
                    && profile
                        .uses
                        .iter()
                        .all(|u| u.once == Some(OncePerTurn::Name));
                let mut t = CardTable {
                    profile,
                    own,
                    out_of: [0; 7],
                    searches: 0,
                    once_by_name,
                    deck_needs: deck_needs(def),
                };
                for (i, m) in movers.iter().enumerate() {
                    let b = one(i);
                    for z in ZONES {
                        if moves(def, m, z) {
                            t.out_of[z as usize] |= b;
                        }
                    }
                    if m.filter.is_some() && moves(def, m, Zone::Deck) {
                        t.searches |= b;
                    }
                }
                t
            })
            .collect();
        let mut into = [0; 7];
        for (i, m) in movers.iter().enumerate() {
            // "Wherever this card is" is no destination.
            if m.to != Zone::Any
                && let Some(into) = into.get_mut(m.to as usize)
            {
                *into |= one(i);
            }
        }
        let goal = |zones: u8| Goal {
            zones,
            movers: into
                .iter()
                .enumerate()
                .filter(|&(z, _)| zones & (1 << z) != 0)
                .fold(0, |all, (_, &m)| all | m),
        };
        Tables {
            fits: movers.len() <= Movers::BITS as usize,
            hand: goal(bit(Zone::Hand)),
            hand_or_field: goal(bit(Zone::Hand) | bit(Zone::Field)),
            into,
            cards,
        }
    }
}

/// The bit of the `i`-th move (none past the width of [`Movers`]).
fn one(i: usize) -> Movers {
    u32::try_from(i)
        .ok()
        .and_then(|i| (1 as Movers).checked_shl(i))
        .unwrap_or(0)
}

impl Tables {
    /// A card's place in the catalogue (and in [`Tables::cards`]).
    fn index(&self, code: Code) -> Option<usize> {
        crate::card::index(code)
    }

    fn card(&self, code: Code) -> Option<&CardTable> {
        self.cards.get(self.index(code)?)
    }

    /// Whether a card can reach one of the zones of `goal` from `start` by the `active`
    /// movers and the game's own moves (summoning from the hand or the Extra Deck,
    /// sending from the field to the graveyard by a Tribute or as material). Most cards
    /// are told by their first move: one that takes them there, or none at all.
    #[inline]
    fn reaches(&self, card: &CardTable, start: Zone, active: Movers, goal: Goal) -> bool {
        if bit(start) & goal.zones != 0 {
            return true;
        }
        let by_cards = card.out_of.get(start as usize).map_or(0, |&m| m & active);
        if by_cards & goal.movers != 0 {
            return true;
        }
        if by_cards == 0 && !matches!(start, Zone::Hand | Zone::Extra | Zone::Field) {
            return false;
        }
        self.reaches_further(card, start, active, goal.zones)
    }

    /// [`Tables::reaches`], zone by zone.
    #[inline(never)]
    fn reaches_further(&self, card: &CardTable, start: Zone, active: Movers, goal: u8) -> bool {
        let mut seen = bit(start);
        let mut todo = seen;
        while seen & goal == 0 {
            let Some(&z) = ZONES.get(todo.trailing_zeros() as usize) else {
                return false;
            };
            todo &= todo - 1;
            let mut next = match z {
                Zone::Hand | Zone::Extra => bit(Zone::Field) | bit(Zone::Grave),
                Zone::Field => bit(Zone::Grave),
                _ => 0,
            };
            let by_cards = card.out_of.get(z as usize).map_or(0, |&m| m & active);
            if by_cards != 0 {
                for (to, &into) in self.into.iter().enumerate() {
                    if by_cards & into != 0 {
                        next |= 1 << to;
                    }
                }
            }
            let new = next & !seen;
            seen |= new;
            todo |= new;
        }
        true
    }
}

/// Every card that can take part in a duel: its cards, wherever they are and whoever owns
/// them, and the Tokens their effects create.
pub(crate) fn duel_cards(d: &Duel) -> Vec<&'static CardDef> {
    let mut codes: Vec<Code> = d.cards.iter().map(|c| c.code).collect();
    codes.sort_unstable();
    codes.dedup();
    let mut defs: Vec<&'static CardDef> = codes.iter().filter_map(|&c| card(c)).collect();
    let tokens: Vec<Code> = defs
        .iter()
        .flat_map(|def| def.effects.iter())
        .flat_map(|e| e.steps())
        .filter_map(|s| match s {
            Step::CreateToken { code, .. } => Some(*code),
            _ => None,
        })
        .collect();
    for def in tokens.into_iter().filter_map(card) {
        if !defs.iter().any(|d| std::ptr::eq(*d, def)) {
            defs.push(def);
        }
    }
    defs
}

/// Whether some card of the duel can send a monster from the field to the graveyard: a
/// monster that needs Tributes, a Synchro Monster (its Materials), an effect that picks
/// monsters on the field (to Tribute, destroy, equip or move them), or a monster's
/// effect that destroys or moves itself. The game sends nothing else there: spells
/// leave the field by its rules (after resolving, a Field Spell replaced, an equip card
/// without a monster) and nothing else picks cards on the field.
fn monsters_can_leave_field(defs: &[&'static CardDef]) -> bool {
    fn moves_monsters(s: &Step, monster: bool) -> bool {
        match s {
            Step::Select {
                from, constraint, ..
            } => {
                matches!(
                    from,
                    Source::MonsterZone | Source::EitherMonsterZone | Source::EquippedMonster
                ) || (monster && *from == Source::This)
                    || matches!(constraint, Some(Constraint::SynchroMaterials))
            }
            Step::DestroySelf => monster,
            Step::AtEndPhase { steps } => steps.iter().any(|s| moves_monsters(s, monster)),
            _ => false,
        }
    }
    defs.iter().any(|def| {
        let main_deck_monster = matches!(def.frame, Frame::Normal | Frame::Effect);
        (main_deck_monster && def.tributes_needed() > 0)
            || def.frame == Frame::Synchro
            || def
                .effects
                .iter()
                .flat_map(|e| e.steps())
                .any(|s| moves_monsters(s, def.is_monster()))
    })
}

/// `n` uses of `each` (none when `each` is 0; `None` when `n` has no bound).
fn times(n: u32, each: u32) -> Option<u32> {
    match (n, each) {
        (_, 0) => Some(0),
        (MANY, _) => None,
        _ => Some(n.saturating_mul(each)),
    }
}

/// The larger, where `None` (no bound) is the largest.
fn most(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    Some(a?.max(b?))
}

/// What the Exodia cut reads of a duel's cards as a whole, worked out once per search
/// (a search's positions all hold the same cards).
///
/// - Whether a monster can ever be sent from the field to the graveyard
///   ([`monsters_can_leave_field`]); if not, effects that wait for it never happen
///   (Sangan's search, in a deck with nothing that Tributes or destroys).
/// - What a search adds to the draws' reach: one use of a card that takes `n` cards from
///   the deck by a filter brings the cards below them `n` nearer the top, and draws at
///   most `n` times the most a card of the duel that passes it draws (the fetched card's
///   own searches and revivals are counted with it, as a card of the deck).
/// - What revivals can bring back, for the position's count of them
///   ([`exodia_out_of_reach`]). A card that brings cards back from the graveyard or
///   banishment (Magical Stone Excavation) is used from outside the graveyard once per
///   copy before it is in the graveyard itself, and used again only if another revival
///   brings it back. So follow the revivals in chains: each begins with a copy used from
///   outside the graveyard, each link a revival of a card that revives, and it ends with
///   a revival of something else. When a reviver that brings back a reviver brings back
///   only that one card (`single`), and reviving a reviver draws nothing by itself, a
///   chain draws at most what its last link brings back: `n` times the most one use of a
///   card it can bring back draws (with its searches). There are at most as many chains
///   as revivers' copies outside the graveyard and banishment, and the cards in the
///   graveyard draw nothing by themselves.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    leaves_field: bool,
    /// By catalogue index: the most cards one use of this card brings back (0: not a
    /// reviver), and the duel's cards (by catalogue index) it can bring back.
    revives: Vec<(u32, Vec<usize>)>,
    /// By catalogue index: what one use of a copy adds to the draws' reach by its
    /// searches (`fetch` in [`Facts::of`]: how much nearer the top it brings the deck's
    /// cards, and the most the cards it takes can draw, together), `None` when that has
    /// no bound, when the card can shuffle, reveal or draw without one, or when it
    /// revives and chains of revivals are not single.
    adds: Vec<Option<u32>>,
    /// By catalogue index: what one revival of this card draws, its draws and its
    /// searches (`None`: no bound).
    worth: Vec<Option<u32>>,
    /// The revivers among the duel's cards, by catalogue index.
    revivers: Vec<usize>,
    /// By catalogue index, for a reviver: the cards it can bring back (`revives`), the
    /// one whose revival draws most first (no bound before any), so that the first of
    /// them in the graveyard is the best ([`Tally::chain_draws`]); and those of them
    /// that are revivers.
    best_first: Vec<Vec<usize>>,
    revives_revivers: Vec<Vec<usize>>,
    /// By card id, for the duel's first cards: its code and its place in the catalogue
    /// (`u16::MAX`: none), so that the cut need not look the code up ([`Facts::index`]).
    /// A position of the search holds these same cards first, and after them only the
    /// Tokens created since.
    places: Vec<(Code, u16)>,
    /// The "win with all in hand" rule of the first of those you own that has one.
    rule: Option<KnownRule>,
    /// The revivals left can be counted in chains ([`revivals_short`]): every reviver
    /// among the duel's cards brings back a bounded number of cards, one that can bring
    /// back a reviver brings back one card, and no card brings itself back.
    revivals_counted: bool,
    /// No card of the duel can put cards into a deck: a deck only loses cards, so a card
    /// drawn from it finds under it at most the cards under it now ([`dead_over`]).
    deck_only_shrinks: bool,
}

/// A win rule among a search's first cards ([`Facts::rule`]): its card, the pieces it
/// names, and by place (see [`Rule`]) your copies among those cards.
#[derive(Debug, Clone)]
struct KnownRule {
    card: Code,
    pieces: &'static [Code],
    copies: Vec<Vec<CardId>>,
}

impl Facts {
    pub(crate) fn of(d: &Duel) -> Facts {
        let defs = duel_cards(d);
        let leaves_field = monsters_can_leave_field(&defs);
        let t = tables_for(leaves_field);
        let n = t.cards.len();
        let all: Vec<(usize, &'static CardDef)> = defs
            .iter()
            .filter_map(|&def| Some((t.index(def.code)?, def)))
            .collect();
        let profile = |i: usize| &t.cards[i].profile;
        let passing = |filters: &[Option<&'static Filter>]| -> Vec<usize> {
            all.iter()
                .filter(|(_, def)| {
                    filters
                        .iter()
                        .any(|f| f.is_none_or(|f| printed_match(def, f)))
                })
                .map(|&(j, _)| j)
                .collect()
        };
        let mut fetch = vec![Some(0); n];
        let mut revives = vec![(0, Vec::new()); n];
        for &(i, _) in &all {
            let p = profile(i);
            if p.fetches > 0 {
                let filters: Vec<_> = p.fetch_by.iter().map(|&f| Some(f)).collect();
                // Each card taken brings the deck's cards below it one nearer the top,
                // and draws what it draws.
                let each = passing(&filters)
                    .into_iter()
                    .map(|j| profile(j).draws.unwrap_or(0))
                    .max()
                    .unwrap_or(0);
                fetch[i] = times(p.fetches, each.saturating_add(1));
            }
            if p.revives > 0 {
                let filters: Vec<_> = p.revive_from.iter().map(|&(_, f)| f).collect();
                revives[i] = (p.revives, passing(&filters));
            }
        }
        let rule = Rule::first(d.cards.iter()).map(|(card, pieces)| {
            let all_of = Rule {
                card,
                pieces,
                known: &[],
                from: 0,
            };
            let copies = (0..all_of.len())
                .map(|j| all_of.copies(d, j).collect())
                .collect();
            KnownRule {
                card,
                pieces,
                copies,
            }
        });
        let worth: Vec<Option<u32>> = t
            .cards
            .iter()
            .enumerate()
            .map(|(j, card)| {
                let draws = card.profile.draws.unwrap_or(0);
                fetch
                    .get(j)
                    .copied()
                    .flatten()
                    .map(|f| f.saturating_add(draws))
            })
            .collect();
        let is_reviver = |j: usize| revives.get(j).is_some_and(|r| r.0 > 0);
        let single = all.iter().all(|&(i, _)| {
            revives.get(i).is_none_or(|(count, can)| {
                can.iter().all(|&j| {
                    !is_reviver(j) || (*count == 1 && worth.get(j).copied().flatten() == Some(0))
                })
            })
        });
        let adds = t
            .cards
            .iter()
            .enumerate()
            .map(|(i, card)| {
                let unbound = card.profile.unbounded || (is_reviver(i) && !single);
                fetch.get(i).copied().flatten().filter(|_| !unbound)
            })
            .collect();
        let revivers = (0..n).filter(|&i| is_reviver(i)).collect();
        let best_first = revives
            .iter()
            .map(|(_, can)| {
                let mut can = can.clone();
                let w = |j: &usize| worth.get(*j).copied().flatten();
                // `None` (no bound) the largest, then by what it draws.
                can.sort_by_key(|j| std::cmp::Reverse(w(j).map_or(u64::MAX, u64::from)));
                can
            })
            .collect();
        let revives_revivers = revives
            .iter()
            .map(|(_, can)| can.iter().copied().filter(|&j| is_reviver(j)).collect())
            .collect();
        let revivals_counted = all.iter().all(|&(i, _)| {
            let (count, can) = &revives[i];
            !profile(i).returns_itself
                && *count != MANY
                && (*count <= 1 || !can.iter().any(|&j| is_reviver(j)))
        });
        let deck_only_shrinks = !defs
            .iter()
            .flat_map(|def| def.effects.iter())
            .flat_map(|e| e.steps())
            .any(puts_into_deck);
        let places = d
            .cards
            .iter()
            .map(|c| {
                let i = t.index(c.code).and_then(|i| u16::try_from(i).ok());
                (c.code, i.unwrap_or(u16::MAX))
            })
            .collect();
        Facts {
            leaves_field,
            revives,
            adds,
            worth,
            revivers,
            best_first,
            revives_revivers,
            places,
            rule,
            revivals_counted,
            deck_only_shrinks,
        }
    }

    /// The place in the catalogue of the card `c` of id `id` (a card of a position of the
    /// search): read from [`Facts::places`] when it has the code seen there, else looked
    /// up.
    fn index(&self, t: &Tables, id: usize, c: &CardInstance) -> Option<usize> {
        match self.places.get(id) {
            Some(&(code, i)) if code == c.code && i != u16::MAX => Some(usize::from(i)),
            _ => t.index(c.code),
        }
    }

    /// The rule [`exodia_out_of_reach`] reads in `d` (a position of the search): that of
    /// the first card you own that has one, with your copies of its places.
    fn rule(&self, d: &Duel) -> Option<Rule<'_>> {
        if let Some(known) = &self.rule {
            return Some(Rule {
                card: known.card,
                pieces: known.pieces,
                known: &known.copies,
                from: self.places.len(),
            });
        }
        // None among the cards the search began with: the first among those created
        // since, whose copies may be anywhere.
        let (card, pieces) = Rule::first(d.cards.iter().skip(self.places.len()))?;
        Some(Rule {
            card,
            pieces,
            known: &[],
            from: 0,
        })
    }

    /// What one revival of the card at catalogue index `j` can draw: its draws and its
    /// searches (`None`: no bound).
    fn worth(&self, j: usize) -> Option<u32> {
        self.worth.get(j).copied().flatten()
    }

    /// Whether the card at catalogue index `i` brings cards back.
    fn is_reviver(&self, i: usize) -> bool {
        self.revives.get(i).is_some_and(|r| r.0 > 0)
    }
}

/// The most cards one card draws from where it is: a card face-up on the field has used
/// its activation (only its other effects are left), an effect used once this turn by its
/// copy or its name draws no more.
fn draws_left(d: &Duel, c: &CardInstance, id: CardId, p: &Profile) -> u32 {
    let face_up_on_field = c.location.is_field() && c.face == Face::Up;
    p.uses
        .iter()
        .enumerate()
        .filter(|(k, u)| {
            let used = match u.once {
                Some(OncePerTurn::Name) => d.used_opt.contains(&OptKey::Name(c.code)),
                Some(OncePerTurn::Card) => {
                    u8::try_from(*k).is_ok_and(|k| d.used_opt.contains(&OptKey::Card(id, k)))
                }
                None => false,
            };
            let activated = face_up_on_field && u.kind == EffectKind::Activation;
            !(used || activated)
        })
        .map(|(_, u)| u.draws)
        .sum()
}

/// Whether every effect of a card is "only 1 per turn" by name and that name was used
/// this turn: the card does nothing more this turn, wherever it goes.
fn spent(d: &Duel, code: Code, card: &CardTable) -> bool {
    card.once_by_name && d.used_opt.contains(&OptKey::Name(code))
}

/// For the Exodia goal: some missing piece can never reach the hand, or more of them lie
/// in the graveyard and banishment than the revivals left can bring back
/// ([`revivals_short`]). The cards that
/// may still act are found first (those in the hand, on the field, in the Extra Deck,
/// and any card the moves of those can bring there, until nothing changes; a card spent
/// for the turn moves nothing); then each piece not in the hand needs a way there by
/// their moves. A piece in the deck also needs to be within reach of the draws left,
/// unless some card can search it or, while a card that may act can shuffle the deck,
/// reveal cards from it or draw without a bound. The draws left: what each copy in the
/// hand, on the field and in the Extra Deck has left this turn, then the deck's from the
/// top as far as the draws reach, until that stops growing; what searches add; and the
/// chains of revivals ([`Facts`]), each begun by a reviver's copy outside the graveyard
/// and banishment, worth at most its count times the most one use of a card it can
/// bring back draws, among the cards that are or can get to the graveyard by then (not
/// those below the draws' reach). Where no card of the duel puts cards into the deck, a
/// card whose every activation needs more cards in the deck than it holds (Pot of Greed
/// with one card left) does nothing, wherever it is; and one in the deck, reached by the
/// draws, needs what it asks for among the cards under it, which are all its deck can
/// hold once it is drawn (Pot of Duality just above the last card, Terraforming with no
/// Field Spell under it). Only the count is read for a card outside the deck: the
/// filters would cost a pass over the deck at every position for a rare cut.
///
/// What each card's effects can move is read from the catalogue once ([`tables_for`]),
/// so a position costs a pass over its cards with a few bit operations each.
pub(crate) fn exodia_out_of_reach(d: &Duel, facts: &Facts) -> bool {
    // The buffers of the last call on this thread, or new ones when they are in use
    // (never: nothing here calls back) or the thread is going away.
    SCRATCH
        .try_with(|cell| {
            let mut s = cell.try_borrow_mut().ok()?;
            Some(out_of_reach_with(d, facts, &mut s))
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| out_of_reach_with(d, facts, &mut Scratch::new()))
}

/// What [`exodia_out_of_reach`] works in, kept from one call to the next on a thread so
/// that a call allocates nothing once they have grown to a duel's size; each call
/// clears what it uses first.
struct Scratch {
    /// By catalogue index and zone: the class of your cards of that kind there
    /// (`u16::MAX`: none).
    slot: Vec<u16>,
    classes: Vec<Class<'static>>,
    /// Your cards in the hand, on the field and in the Extra Deck, in the order of the
    /// duel's cards: each one's id and class.
    outside: Vec<(CardId, u16)>,
    /// [`Tally::chains`].
    chains: Vec<usize>,
    /// [`Tally::there`].
    there: Vec<bool>,
    /// By card id: its `slot` entry, for your cards (`u32::MAX`: none read).
    by_id: Vec<u32>,
    /// The deck's cards from the top: each one's `slot` entry (`u32::MAX`: a card with
    /// none, which the cut does not read).
    in_deck: Vec<u32>,
}

impl Scratch {
    const fn new() -> Scratch {
        Scratch {
            slot: Vec::new(),
            classes: Vec::new(),
            outside: Vec::new(),
            chains: Vec::new(),
            there: Vec::new(),
            in_deck: Vec::new(),
            by_id: Vec::new(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch::new()) };
}

/// [`exodia_out_of_reach`] in the buffers `s`.
fn out_of_reach_with(d: &Duel, facts: &Facts, s: &mut Scratch) -> bool {
    let you = Player::You;
    let Some(rule) = facts.rule(d) else {
        return false;
    };
    let hand = &d.player(you).hand;
    let mut any_missing = false;
    for j in rule.missing(d, hand) {
        if rule.copies(d, j).next().is_none() {
            // A piece you do not own at all: no win.
            return true;
        }
        any_missing = true;
    }
    if !any_missing {
        return false;
    }
    let t = tables_for(facts.leaves_field);
    if !t.fits {
        return false;
    }
    let Scratch {
        slot,
        classes,
        outside,
        chains,
        there,
        in_deck,
        by_id,
    } = s;
    // Your cards grouped by kind and zone (what the cut reads does not tell copies in
    // one zone apart), and whether each group may still act.
    slot.clear();
    slot.resize(t.cards.len() * ZONES.len(), u16::MAX);
    classes.clear();
    outside.clear();
    // What a revival can still bring back: the cards in the graveyard and banishment,
    // and those that can get there (used within reach).
    there.clear();
    there.resize(t.cards.len(), false);
    by_id.clear();
    by_id.resize(d.cards.len(), u32::MAX);
    // The revivers' copies outside the graveyard and banishment, not spent for the turn
    // ([`revivals_short`]).
    let mut revivers_out = 0usize;
    let mut active: Movers = 0;
    let deck = &d.player(you).deck;
    // A card that needs more in the deck than it holds now never acts this turn, wherever
    // it is: the deck only loses cards, and a shuffle changes no count.
    let dead_now = |card: &CardTable| dead_over(d, facts, card, deck, false);
    for (id, c) in d.cards.iter().enumerate() {
        if c.owner != you && c.controller != you {
            continue;
        }
        let (Some(zone), Some(i)) = (zone_of(c.location), facts.index(t, id, c)) else {
            continue;
        };
        let (Some(s), Some(card)) = (
            slot.get_mut(i * ZONES.len() + zone as usize),
            t.cards.get(i),
        ) else {
            continue;
        };
        let alive = matches!(zone, Zone::Hand | Zone::Field | Zone::Extra);
        if !matches!(zone, Zone::Grave | Zone::Banished)
            && facts.is_reviver(i)
            && !spent(d, c.code, card)
        {
            revivers_out += 1;
        }
        if *s == u16::MAX {
            *s = classes.len() as u16;
            let spent = spent(d, c.code, card) || dead_now(card);
            if alive && !spent {
                active |= card.own;
            }
            if matches!(zone, Zone::Grave | Zone::Banished)
                && !spent
                && let Some(there) = there.get_mut(i)
            {
                *there = true;
            }
            classes.push(Class {
                card,
                index: i,
                zone,
                alive,
                spent,
            });
        }
        if let Some(b) = by_id.get_mut(id) {
            *b = u32::from(*s);
        }
        if alive {
            outside.push((CardId(id as u16), *s));
        }
    }
    if revivals_short(d, t, facts, &rule, hand, revivers_out) {
        return true;
    }
    // The classes that may act, until the movers they bring stop growing (whether a
    // class can get to the hand or the field depends on those only).
    loop {
        let before = active;
        for k in classes.iter_mut() {
            if !k.alive && t.reaches(k.card, k.zone, active, t.hand_or_field) {
                k.alive = true;
                if !k.spent {
                    active |= k.card.own;
                }
            }
        }
        if active == before {
            break;
        }
    }
    // A piece no move can bring to the hand is out of reach whatever the draws: every
    // answer below is this one or implied by it, so it comes first, before the draws'
    // count. Otherwise, where the draws have no bound, the answer is no.
    if out_of_reach_unbounded(d, t, facts, &rule, hand, active) {
        return true;
    }
    let fetchable = |k: &Class<'_>| k.zone == Zone::Deck && k.card.searches & active != 0;
    // Whether a card that may act can shuffle the deck, reveal from it or draw without a
    // bound, or a search or revival it begins has no bound. A card in the graveyard or
    // banishment acts only once brought back (its draws are the revival's), but can
    // shuffle as soon as it can be.
    let unbound = |k: &Class<'_>| !k.spent && facts.adds.get(k.index).is_none_or(Option::is_none);
    if classes
        .iter()
        .any(|k| unbound(k) && k.alive && (k.zone != Zone::Deck || fetchable(k)))
    {
        return false;
    }
    // With the deck's top `drawn` within the draws' reach, a missing piece is out of
    // reach when each copy is: no move brings it to the hand, or it lies in the deck
    // below them with nothing to search it. So the cut answers yes exactly while the
    // draws reach no deeper than `deepest`: the largest, among the missing pieces, of
    // the depth of the copy nearest the top (a copy out of reach counts as infinitely
    // deep, one in reach by other means as above the top).
    let deepest: i64 = rule
        .missing(d, hand)
        .map(|j| {
            rule.copies(d, j)
                .map(|id| {
                    let Some(c) = d.instance(id) else {
                        return i64::MAX;
                    };
                    let (Some(zone), Some(card)) = (
                        zone_of(c.location),
                        facts.index(t, id.index(), c).and_then(|i| t.cards.get(i)),
                    ) else {
                        return i64::MAX;
                    };
                    if !t.reaches(card, zone, active, t.hand) {
                        return i64::MAX;
                    }
                    if zone == Zone::Deck && card.searches & active == 0 {
                        return deck
                            .iter()
                            .rev()
                            .position(|&x| x == id)
                            .and_then(|depth| i64::try_from(depth).ok())
                            .unwrap_or(i64::MAX);
                    }
                    -1
                })
                .min()
                .unwrap_or(i64::MAX)
        })
        .max()
        .unwrap_or(-1);
    let cut_at = |drawn: usize| i64::try_from(drawn).is_ok_and(|drawn| drawn <= deepest);
    // The same, piece by piece, as it was read before: what debug builds check it
    // against.
    #[cfg(debug_assertions)]
    let cut_each_piece = |drawn: usize| {
        rule.missing(d, hand).any(|j| {
            rule.copies(d, j).all(|id| {
                let Some(c) = d.instance(id) else {
                    return true;
                };
                let (Some(zone), Some(card)) = (
                    zone_of(c.location),
                    facts.index(t, id.index(), c).and_then(|i| t.cards.get(i)),
                ) else {
                    return true;
                };
                if !t.reaches(card, zone, active, t.hand) {
                    return true;
                }
                if zone == Zone::Deck && card.searches & active == 0 {
                    let depth = deck
                        .iter()
                        .rev()
                        .position(|&x| x == id)
                        .unwrap_or(usize::MAX);
                    return depth >= drawn;
                }
                false
            })
        })
    };
    if !cut_at(0) {
        // Every missing piece has a copy that can come without the draws.
        #[cfg(debug_assertions)]
        assert!(!cut_each_piece(0));
        return false;
    }
    // The cards used within the draws' reach: every copy outside the deck, the deck's
    // top `drawn` and what a search can fetch. Each copy's draws left and searches,
    // and the revivers' copies that begin chains, counted as the reach grows.
    chains.clear();
    let mut tally = Tally {
        total: 0,
        chains,
        there,
        unbounded: false,
        changed: true,
    };
    for &(id, s) in outside.iter() {
        if let (Some(c), Some(k)) = (d.instance(id), classes.get(usize::from(s))) {
            tally.count(d, facts, c, id, k, true, true);
        }
    }
    // Below the reach, a card a search can fetch adds its searches and revivals (what
    // it draws then is counted with the search); within it, each card adds its draws
    // too.
    let slot_of = |id: CardId| {
        let c = d.instance(id)?;
        let zone = zone_of(c.location)?;
        let i = facts.index(t, id.index(), c)?;
        slot.get(i * ZONES.len() + zone as usize).copied()
    };
    in_deck.clear();
    in_deck.extend(deck.iter().rev().map(|&id| {
        // Read in the pass above, for your cards.
        match by_id.get(id.index()) {
            Some(&s) if s != u32::MAX => s,
            _ => slot_of(id).map_or(u32::MAX, u32::from),
        }
    }));
    let card_at = |id: CardId, s: u32| {
        let c = d.instance(id)?;
        let k = classes.get(usize::from(u16::try_from(s).ok()?))?;
        Some((c, k))
    };
    for (&id, &s) in deck.iter().rev().zip(in_deck.iter()) {
        if let Some((c, k)) = card_at(id, s)
            && fetchable(k)
        {
            tally.count(d, facts, c, id, k, false, true);
        }
    }
    let mut drawn = 0usize;
    let mut chain_draws = None;
    loop {
        if tally.unbounded {
            return false;
        }
        // Read again only when the chains or what they can bring back changed.
        if tally.changed || chain_draws.is_none() {
            chain_draws = Some(tally.chain_draws(facts));
            tally.changed = false;
        }
        #[cfg(debug_assertions)]
        assert_eq!(chain_draws, Some(tally.chain_draws_each(facts)));
        let Some(Some(chains)) = chain_draws else {
            return false;
        };
        let reach_now = (tally.total.saturating_add(chains) as usize).min(deck.len());
        if reach_now <= drawn {
            break;
        }
        if !cut_at(reach_now) {
            // The reach only grows.
            #[cfg(debug_assertions)]
            assert!(!cut_each_piece(reach_now));
            return false;
        }
        let fresh = in_deck.get(drawn..reach_now).unwrap_or_default();
        for (depth, &s) in (drawn..).zip(fresh) {
            // Drawn, it finds under it at most what is under it now (no shuffle happens
            // while the draws have a bound): one that needs more there does nothing. One
            // that a search can take sooner was counted above.
            let Some((under, &id)) = deck
                .len()
                .checked_sub(depth + 1)
                .and_then(|at| Some((deck.get(..at)?, deck.get(at)?)))
            else {
                continue;
            };
            let Some((c, k)) = card_at(id, s) else {
                continue;
            };
            if !fetchable(k) && dead_over(d, facts, k.card, under, true) {
                continue;
            }
            tally.count(d, facts, c, id, k, true, !fetchable(k));
        }
        drawn = reach_now;
    }
    #[cfg(debug_assertions)]
    assert_eq!(cut_at(drawn), cut_each_piece(drawn));
    cut_at(drawn)
}

/// For the Exodia goal: more missing pieces lie in the graveyard and banishment, every
/// copy of each, than the revivals left can bring back. Such a piece leaves there only
/// by a card's effect that moves cards out of the graveyard or banishment (a reviver:
/// Dark Factory of Mass Production, Magical Stone Excavation, ...). Follow the revivals
/// in chains as [`Facts`] does for the draws: each begins with a use of a reviver's copy
/// outside the graveyard and banishment (not spent for the turn), each link brings back
/// one reviver, which then begins the next link (a reviver that can bring back a
/// reviver brings back one card: [`Facts::revivals_counted`]), and the last link brings
/// back at most its count of pieces. So a chain brings back at most the largest count
/// of a reviver that can take one of those pieces, and there are at most as many
/// chains as those copies (`chains`, counted in [`out_of_reach_with`]'s pass over the
/// cards).
fn revivals_short(
    d: &Duel,
    t: &Tables,
    facts: &Facts,
    rule: &Rule<'_>,
    hand: &[CardId],
    chains: usize,
) -> bool {
    if !facts.revivals_counted {
        return false;
    }
    let gone_for_now = |id: CardId| {
        d.instance(id)
            .is_some_and(|c| matches!(c.location, Location::Graveyard | Location::Banished))
    };
    let (mut gone, mut most) = (0u32, 0u32);
    for j in rule.missing(d, hand) {
        if !rule.copies(d, j).all(gone_for_now) {
            continue;
        }
        gone += 1;
        let Some(piece) = rule.code(j).and_then(|code| t.index(code)) else {
            continue;
        };
        for &r in &facts.revivers {
            if let Some((count, can)) = facts.revives.get(r)
                && can.contains(&piece)
            {
                most = most.max(*count);
            }
        }
    }
    if gone == 0 {
        return false;
    }
    u64::from(gone) > (chains as u64).saturating_mul(u64::from(most))
}

/// What [`exodia_out_of_reach`] has counted of the cards used within the draws' reach.
struct Tally<'s> {
    /// Their draws left and what their searches add.
    total: u32,
    /// The revivers' copies among them, by catalogue index: each begins a chain.
    chains: &'s mut Vec<usize>,
    /// By catalogue index: a card of that kind is, or can get to, the graveyard.
    there: &'s mut [bool],
    /// One of them can shuffle, reveal or draw without a bound.
    unbounded: bool,
    /// `chains` or `there` changed since [`Tally::chain_draws`] last read them.
    changed: bool,
}

impl Tally<'_> {
    fn mark_there(&mut self, i: usize) {
        if let Some(there) = self.there.get_mut(i)
            && !*there
        {
            *there = true;
            self.changed = true;
        }
    }

    fn is_there(&self, i: usize) -> bool {
        self.there.get(i).copied().unwrap_or(false)
    }

    /// Counts one copy: its draws left (`draws`), and (`rest`) its searches, the chain
    /// it may begin and whether it has a bound.
    #[allow(clippy::too_many_arguments)]
    fn count(
        &mut self,
        d: &Duel,
        facts: &Facts,
        c: &CardInstance,
        id: CardId,
        k: &Class<'_>,
        draws: bool,
        rest: bool,
    ) {
        if k.spent {
            return;
        }
        if draws {
            self.total = self
                .total
                .saturating_add(draws_left(d, c, id, &k.card.profile));
        }
        if !rest {
            return;
        }
        self.mark_there(k.index);
        match facts.adds.get(k.index).copied().flatten() {
            Some(f) => self.total = self.total.saturating_add(f),
            None => self.unbounded = true,
        }
        if facts.is_reviver(k.index) {
            self.chains.push(k.index);
            self.changed = true;
        }
    }

    /// What the chains of revivals draw: each worth its reviver's count times the most
    /// a card it can bring back (and that is there) draws; one that can bring back a
    /// reviver that is there may go on to any of them. `None`: no bound.
    fn chain_draws(&self, facts: &Facts) -> Option<u32> {
        if self.chains.is_empty() {
            return Some(0);
        }
        // The most one use brings back draws: that of the first card there in the
        // reviver's best-first order (`None` before any bound, so the first is the most).
        let worth = |i: usize| {
            let (n, _) = facts.revives.get(i)?;
            let best = facts
                .best_first
                .get(i)
                .and_then(|can| can.iter().find(|&&j| self.is_there(j)))
                .map_or(Some(0), |&j| most(Some(0), facts.worth(j)));
            best.and_then(|b| times(*n, b))
        };
        let mut longest = None;
        let mut sum = 0u32;
        for (n, &i) in self.chains.iter().enumerate() {
            // The copies of one reviver begin chains worth the same: each kind once.
            if self.chains.iter().take(n).any(|&x| x == i) {
                continue;
            }
            let copies = self.chains.iter().skip(n).filter(|&&x| x == i).count();
            let copies = u32::try_from(copies).unwrap_or(u32::MAX);
            let goes_on = facts
                .revives_revivers
                .get(i)
                .is_some_and(|can| can.iter().any(|&j| self.is_there(j)));
            let each = if goes_on {
                *longest.get_or_insert_with(|| {
                    facts
                        .revivers
                        .iter()
                        .filter(|&&i| self.is_there(i))
                        .map(|&i| worth(i))
                        .fold(Some(0), most)
                })
            } else {
                worth(i)
            };
            sum = sum.saturating_add(each?.saturating_mul(copies));
        }
        Some(sum)
    }

    /// [`Tally::chain_draws`] chain by chain, over every card each reviver can bring
    /// back, as it was read before: what debug builds check it against.
    #[cfg(debug_assertions)]
    fn chain_draws_each(&self, facts: &Facts) -> Option<u32> {
        let worth = |i: usize| {
            let (n, can) = facts.revives.get(i)?;
            let best = can
                .iter()
                .filter(|&&j| self.is_there(j))
                .map(|&j| facts.worth(j))
                .fold(Some(0), most);
            best.and_then(|b| times(*n, b))
        };
        let longest = facts
            .revivers
            .iter()
            .filter(|&&i| self.is_there(i))
            .map(|&i| worth(i))
            .fold(Some(0), most);
        let mut sum = 0u32;
        for &i in self.chains.iter() {
            let goes_on = facts.revives.get(i).is_some_and(|(_, can)| {
                can.iter().any(|&j| self.is_there(j) && facts.is_reviver(j))
            });
            sum = sum.saturating_add(if goes_on { longest } else { worth(i) }?);
        }
        Some(sum)
    }
}

/// Your cards of one kind in one zone, as the Exodia cut groups them.
struct Class<'t> {
    card: &'t CardTable,
    /// Its place in the catalogue.
    index: usize,
    zone: Zone,
    /// It may still act: it is in the hand, on the field or in the Extra Deck, or the
    /// moves of cards that may act can bring it there.
    alive: bool,
    /// Spent for the turn ([`spent`]).
    spent: bool,
}

/// [`exodia_out_of_reach`] where the draws left have no bound: only a piece that no move
/// can bring to the hand is out of reach.
fn out_of_reach_unbounded(
    d: &Duel,
    t: &Tables,
    facts: &Facts,
    rule: &Rule<'_>,
    hand: &[CardId],
    active: Movers,
) -> bool {
    rule.missing(d, hand).any(|j| {
        rule.copies(d, j).all(|id| {
            d.instance(id).is_none_or(|c| {
                let (Some(zone), Some(card)) = (
                    zone_of(c.location),
                    facts.index(t, id.index(), c).and_then(|i| t.cards.get(i)),
                ) else {
                    return true;
                };
                !t.reaches(card, zone, active, t.hand)
            })
        })
    })
}

/// The "win with all in hand" rule of the first card you own that has one, as the Exodia
/// cut reads it: its card and the pieces it names (its places: 0 the card, then the
/// pieces in order), and your copies of each.
#[derive(Debug, Clone, Copy)]
struct Rule<'f> {
    card: Code,
    pieces: &'static [Code],
    /// By place: the ids of your copies among the duel's first cards (those before
    /// `from`), worked out once ([`Facts::of`]).
    known: &'f [Vec<CardId>],
    /// Your copies from this card on are looked for in the position.
    from: usize,
}

impl Rule<'_> {
    /// The rule of the first of `cards` you own that has one.
    fn first<'c>(
        mut cards: impl Iterator<Item = &'c CardInstance>,
    ) -> Option<(Code, &'static [Code])> {
        let rules = crate::engine::win_rules();
        cards
            .find_map(|c| {
                (c.owner == Player::You)
                    .then(|| rules.iter().find(|r| r.0 == c.code))
                    .flatten()
            })
            .copied()
    }

    /// Its places: the card and each piece.
    fn len(&self) -> usize {
        self.pieces.len().saturating_add(1)
    }

    /// The codes by place: the card, then the pieces.
    fn codes(&self) -> impl Iterator<Item = Code> + '_ {
        std::iter::once(self.card).chain(self.pieces.iter().copied())
    }

    /// The code of place `j`.
    fn code(&self, j: usize) -> Option<Code> {
        self.codes().nth(j)
    }

    /// The first place that names `code` (a card counts for the first only).
    fn place_of(&self, code: Code) -> Option<usize> {
        self.codes().position(|x| x == code)
    }

    /// The ids of your copies of place `j`, in the order of the duel's cards.
    fn copies<'a>(&'a self, d: &'a Duel, j: usize) -> impl Iterator<Item = CardId> + 'a {
        let known = self.known.get(j).map_or(&[][..], Vec::as_slice);
        let later = d
            .cards
            .iter()
            .enumerate()
            .skip(self.from)
            .filter(move |(_, c)| c.owner == Player::You && self.place_of(c.code) == Some(j))
            .map(|(i, _)| CardId(i as u16));
        known.iter().copied().chain(later)
    }

    /// The places none of whose copies is in your hand (`hand`): the pieces missing.
    fn missing<'a>(&'a self, d: &'a Duel, hand: &'a [CardId]) -> impl Iterator<Item = usize> + 'a {
        (0..self.len()).filter(move |&j| !self.copies(d, j).any(|id| hand.contains(&id)))
    }
}

/// Whether a card you hold or control has an effect that can bring a card of `def` back
/// from the graveyard to the hand (Dark Factory of Mass Production, for a Normal
/// Monster): read from the same profiles as the cut.
pub(crate) fn back_from_grave(d: &Duel, def: &CardDef) -> bool {
    let you = d.player(Player::You);
    let field = you
        .monsters
        .iter()
        .chain(&you.spell_trap)
        .chain(std::iter::once(&you.field_zone))
        .flatten();
    let t = tables();
    you.hand.iter().chain(field).any(|&id| {
        d.instance(id)
            .and_then(|c| t.card(c.code))
            .is_some_and(|card| {
                card.profile
                    .movers
                    .iter()
                    .any(|m| m.to == Zone::Hand && moves(def, m, Zone::Grave))
            })
    })
}

/// How many cards one use of a card's effects can bring to your hand, as far as the
/// data bounds it (draws, and one for each move to the hand), for the guides' order: a
/// hint, not a cut.
pub(crate) fn hand_gain(code: Code) -> i64 {
    tables().card(code).map_or(0, |card| {
        let p = &card.profile;
        let to_hand = p.movers.iter().filter(|m| m.to == Zone::Hand).count() as i64;
        i64::from(p.draws.unwrap_or(3)) + to_hand
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;
    use crate::event::Event;
    use crate::state::Settings;
    use seeded_rng::Rng;

    const EXODIA: Code = 33_396_948;
    const RIGHT_ARM: Code = 70_903_634;
    const LEFT_ARM: Code = 7_902_349;
    const RIGHT_LEG: Code = 8_124_921;
    const LEFT_LEG: Code = 44_519_536;
    const POT_OF_GREED: Code = 55_144_522;
    const GRACEFUL_CHARITY: Code = 79_571_449;
    const STONE_EXCAVATION: Code = 98_494_543;
    const TOON_WORLD: Code = 15_259_703;
    const SANGAN: Code = 26_202_165;

    #[test]
    fn a_monster_leaves_the_field_for_the_graveyard_only_where_the_cards_say_it_can() {
        // Random games of every preset deck: a monster sent from a Monster Zone to the
        // graveyard only ever happens in a duel whose cards can do it; in the two Exodia
        // decks without Tributes, Synchro Monsters or effects on monsters, never.
        for deck in crate::decks() {
            let start = Duel::with_settings(&deck.id, 0, Settings::default()).expect("deals");
            let leaves = Facts::of(&start).leaves_field;
            let expected = !matches!(deck.id.as_str(), "exodia-deck" | "legacy-exodia-deck");
            assert_eq!(leaves, expected, "{}", deck.id);
            let mut seen = false;
            for seed in 0..150 {
                let mut d =
                    Duel::with_settings(&deck.id, seed, Settings::default()).expect("deals");
                let mut rng = Rng::new(seed);
                while d.outcome().is_none() {
                    let options = crate::solver::choices(&d);
                    if options.is_empty() {
                        break;
                    }
                    let cmd = options[rng.index(options.len())].clone();
                    let Ok(events) = d.apply(cmd) else { break };
                    seen |= events.iter().any(|e| {
                        matches!(
                            e,
                            Event::Moved {
                                from: Location::MainMonsterZone(_),
                                to: Location::Graveyard,
                                ..
                            }
                        )
                    });
                }
            }
            assert!(!seen || leaves, "{}: a monster left the field", deck.id);
        }
    }

    #[test]
    fn the_catalogue_places_kept_by_card_id_are_those_the_catalogue_gives() {
        // `Facts` keeps the place in the catalogue of each card the search starts with;
        // along random games of every preset deck (Tokens created on the way too), every
        // card of every position gets the place the catalogue's lookup gives.
        let mut later = 0;
        for deck in crate::decks() {
            for seed in 0..30 {
                let start =
                    Duel::with_settings(&deck.id, seed, Settings::default()).expect("deals");
                let facts = Facts::of(&start);
                let t = tables_for(facts.leaves_field);
                let mut d = start.clone();
                let mut rng = Rng::new(seed ^ 0x5c);
                loop {
                    for (id, c) in d.cards.iter().enumerate() {
                        assert_eq!(
                            facts.index(t, id, c),
                            crate::card::index(c.code),
                            "{} seed {seed} card {id}",
                            deck.id
                        );
                    }
                    later = later.max(d.cards.len() - start.cards.len());
                    let options = crate::solver::choices(&d);
                    if d.outcome().is_some() || options.is_empty() {
                        break;
                    }
                    let cmd = options[rng.index(options.len())].clone();
                    if d.apply(cmd).is_err() {
                        break;
                    }
                }
            }
        }
        assert!(later > 0, "no game created a card");
        // A card whose code is not the one kept for its id is looked up.
        let d = last_piece_under(1, &[], &[]);
        let facts = Facts::of(&d);
        let t = tables_for(facts.leaves_field);
        let mut other = d.cards[0];
        other.code = if other.code == SANGAN {
            POT_OF_GREED
        } else {
            SANGAN
        };
        assert_eq!(facts.index(t, 0, &other), crate::card::index(other.code));
        other.code = 1;
        assert_eq!(facts.index(t, 0, &other), None);
    }

    #[test]
    fn the_cut_with_the_searchs_first_facts_is_the_cut_read_afresh_at_each_position() {
        // `Facts` keeps the win rule and the pieces' copies of the duel a search starts
        // from; along random games of every preset deck, the cut it gives is the cut of
        // facts read from the position itself, and it cuts some.
        let mut cuts = 0;
        for deck in crate::decks().iter().filter(|d| d.playable) {
            for seed in 0..40 {
                let start =
                    Duel::with_settings(&deck.id, seed, Settings::default()).expect("deals");
                let first = Facts::of(&start);
                let mut d = start.clone();
                let mut rng = Rng::new(seed ^ 0x7a);
                while d.outcome().is_none() {
                    let cut = exodia_out_of_reach(&d, &first);
                    assert_eq!(
                        cut,
                        exodia_out_of_reach(&d, &Facts::of(&d)),
                        "{} seed {seed}",
                        deck.id
                    );
                    cuts += usize::from(cut);
                    let options = crate::solver::choices(&d);
                    if options.is_empty() {
                        break;
                    }
                    let cmd = options[rng.index(options.len())].clone();
                    if d.apply(cmd).is_err() {
                        break;
                    }
                }
            }
        }
        assert!(cuts > 0, "no position of the games was cut");
    }

    /// Four pieces in hand with `hand`, the fifth under `above` cards of the deck that
    /// draw nothing (Toon World), and `graveyard` in the graveyard.
    fn last_piece_under(above: usize, hand: &[Code], graveyard: &[Code]) -> Duel {
        let mut deck = vec![TOON_WORLD; above];
        deck.push(LEFT_LEG);
        Setup::new()
            .hand(
                [EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG]
                    .into_iter()
                    .chain(hand.iter().copied()),
            )
            .deck(deck)
            .graveyard(graveyard.iter().copied())
            .build()
            .expect("builds")
    }

    #[test]
    fn a_revival_draws_what_the_best_card_it_can_bring_back_draws_once_per_copy() {
        // Magical Stone Excavation can bring back Pot of Greed: two draws, which reach a
        // piece under one card but not under two...
        let cut = |above, hand: &[Code], graveyard: &[Code]| {
            let d = last_piece_under(above, hand, graveyard);
            exodia_out_of_reach(&d, &Facts::of(&d))
        };
        assert!(!cut(1, &[STONE_EXCAVATION], &[POT_OF_GREED]));
        assert!(cut(2, &[STONE_EXCAVATION], &[POT_OF_GREED]));
        // ... three with Graceful Charity there to bring back instead, not both.
        assert!(!cut(
            2,
            &[STONE_EXCAVATION],
            &[POT_OF_GREED, GRACEFUL_CHARITY]
        ));
        assert!(cut(
            3,
            &[STONE_EXCAVATION],
            &[POT_OF_GREED, GRACEFUL_CHARITY]
        ));
        // A second copy begins a second chain.
        assert!(!cut(
            5,
            &[STONE_EXCAVATION, STONE_EXCAVATION],
            &[POT_OF_GREED, GRACEFUL_CHARITY]
        ));
        assert!(cut(
            6,
            &[STONE_EXCAVATION, STONE_EXCAVATION],
            &[POT_OF_GREED, GRACEFUL_CHARITY]
        ));
        // A card that draws in the hand may be used, then brought back.
        assert!(!cut(3, &[STONE_EXCAVATION, POT_OF_GREED], &[]));
        assert!(cut(4, &[STONE_EXCAVATION, POT_OF_GREED], &[]));
        // Without anything to bring back, the excavation draws nothing.
        assert!(cut(1, &[STONE_EXCAVATION], &[]));
    }

    #[test]
    fn sangan_searches_nothing_where_no_monster_can_leave_the_field() {
        // Sangan's search would reach the piece wherever it lies; with nothing in the duel
        // that sends a monster from the field to the graveyard, it never happens.
        let d = last_piece_under(6, &[SANGAN, POT_OF_GREED], &[]);
        let facts = Facts::of(&d);
        assert!(!facts.leaves_field);
        assert!(exodia_out_of_reach(&d, &facts));
        assert!(!exodia_out_of_reach(
            &d,
            &Facts {
                leaves_field: true,
                ..facts
            }
        ));
    }
}
