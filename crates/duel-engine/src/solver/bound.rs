//! Admissible cuts: positions the solver may call lost without searching them, because
//! the card data shows that nothing left can reach the goal. Each cut is sound (it
//! never calls a winnable position lost; `tests/solver.rs` checks every one against an
//! exhaustive search), so a search that uses them still proves what it says.

use std::sync::OnceLock;

use crate::card::{CardDef, Code, catalog};
use crate::command::Command;
use crate::effect::{Amount, Dest, EffectKind, Filter, Reg, Source, Step, Who};
use crate::engine::printed_match;
use crate::state::{CardId, Duel, EndStep, Location, Outcome, Phase, Player, Reason};

/// Whether `d` can no longer reach `goal`, by one of the cuts below.
pub(crate) fn hopeless(d: &Duel, goal: Outcome) -> bool {
    match goal {
        // Read at open positions only: a prompt or a chain link is on its way to one.
        Outcome::Win(Reason::Exodia) => idle_end_phase(d) || (open(d) && exodia_out_of_reach(d)),
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
    /// again and again, cards brought back from the graveyard or banishment.
    unbounded: bool,
}

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

fn profile(def: &'static CardDef) -> Profile {
    let mut p = Profile {
        draws: Some(0),
        ..Profile::default()
    };
    for e in &def.effects {
        let mut regs: Vec<(Reg, Zone, Option<&'static Filter>)> = Vec::new();
        let before = p.draws;
        for_steps(e.steps(), &mut regs, &mut p);
        // An effect that can be used again and again draws without a bound: only a
        // card's own activation (the card leaves) or a once-per-turn effect is used once.
        let reusable = e.kind != EffectKind::Activation && e.once_per_turn.is_none();
        if reusable && p.draws != before {
            p.unbounded = true;
        }
    }
    p
}

fn for_steps(
    steps: impl Iterator<Item = &'static Step>,
    regs: &mut Vec<(Reg, Zone, Option<&'static Filter>)>,
    p: &mut Profile,
) {
    let reg_of = |regs: &Vec<(Reg, Zone, Option<&'static Filter>)>, r: Reg| {
        regs.iter()
            .rev()
            .find(|(x, _, _)| *x == r)
            .map(|&(_, z, f)| (z, f))
    };
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
                from, filter, into, ..
            } => {
                let (zone, f) = match from {
                    Source::Reg { reg } => match reg_of(regs, *reg) {
                        Some(x) => x,
                        None => continue,
                    },
                    other => match source_zone(*other) {
                        Some(z) => (z, Some(filter)),
                        None => continue,
                    },
                };
                regs.push((*into, zone, f));
            }
            // Revealing from the top reaches below the draws: no depth bound.
            Step::Excavate { into, .. } => {
                p.unbounded = true;
                regs.push((*into, Zone::Deck, None));
            }
            Step::ExcavateUntil { found, rest, .. } => {
                p.unbounded = true;
                regs.push((*found, Zone::Deck, None));
                regs.push((*rest, Zone::Deck, None));
            }
            Step::Split { reg, into, .. } => {
                if let Some((z, f)) = reg_of(regs, *reg) {
                    regs.push((*into, z, f));
                }
            }
            Step::Move { reg, to } => {
                if let Some((from, filter)) = reg_of(regs, *reg) {
                    p.movers.push(Mover {
                        from,
                        filter,
                        to: dest_zone(*to),
                    });
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
                if let Some((from, filter)) = reg_of(regs, *reg) {
                    p.movers.push(Mover {
                        from,
                        filter,
                        to: Zone::Field,
                    });
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
    /// The movers that bring it back from the graveyard or banishment somewhere other
    /// than the graveyard.
    revives: Movers,
}

/// Every move the catalogue's effects can make, once each (the same source, filter and
/// destination), and each card's [`CardTable`], by its place in the catalogue.
struct Tables {
    to: Vec<Zone>,
    cards: Vec<CardTable>,
    /// Every move has its bit in a [`Movers`]; with more moves than that, the cut never
    /// fires (the profiles still serve the guides).
    fits: bool,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let profiles: Vec<(&'static CardDef, Profile)> =
            catalog().iter().map(|c| (c, profile(c))).collect();
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
                let mut t = CardTable {
                    profile,
                    own,
                    out_of: [0; 7],
                    searches: 0,
                    revives: 0,
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
                    if matches!(m.from, Zone::Grave | Zone::Banished)
                        && m.to != Zone::Grave
                        && m.filter.is_none_or(|f| printed_match(def, f))
                    {
                        t.revives |= b;
                    }
                }
                t
            })
            .collect();
        Tables {
            fits: movers.len() <= Movers::BITS as usize,
            to: movers.iter().map(|m| m.to).collect(),
            cards,
        }
    })
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

    /// The zones a card can reach from `start` by the `active` movers and the game's own
    /// moves (summoning from the hand or the Extra Deck, sending from the field to the
    /// graveyard by a Tribute or as material), as bits by `Zone`.
    fn reach(&self, card: &CardTable, start: Zone, active: Movers) -> u8 {
        let mut seen = bit(start);
        let mut todo = seen;
        while todo != 0 {
            let z = ZONES[todo.trailing_zeros() as usize];
            todo &= todo - 1;
            let mut next = match z {
                Zone::Hand | Zone::Extra => bit(Zone::Field) | bit(Zone::Grave),
                Zone::Field => bit(Zone::Grave),
                _ => 0,
            };
            let mut by_cards = card.out_of[z as usize] & active;
            while by_cards != 0 {
                let i = by_cards.trailing_zeros() as usize;
                by_cards &= by_cards - 1;
                if let Some(&to) = self.to.get(i)
                    && to != Zone::Any
                {
                    next |= bit(to);
                }
            }
            let new = next & !seen;
            seen |= new;
            todo |= new;
        }
        seen
    }
}

/// For the Exodia goal: some missing piece can never reach the hand. The cards that
/// may still act are found first (those in the hand, on the field, in the Extra Deck,
/// and any card the moves of those can bring there, until nothing changes); then each
/// piece not in the hand needs a way there by their moves. A piece in the deck also
/// needs to be within reach of the draws those cards can make, unless one of them can
/// search it, shuffle the deck, reveal cards from it, draw without a bound, or bring a
/// card that draws back from the graveyard or banishment.
///
/// What each card's effects can move is read from the catalogue once ([`tables`]), so
/// a position costs a pass over its cards with a few bit operations each.
pub(crate) fn exodia_out_of_reach(d: &Duel) -> bool {
    let you = Player::You;
    let Some(pieces) = pieces_missing(d) else {
        return false;
    };
    if pieces.is_empty() {
        return false;
    }
    if pieces.iter().any(Vec::is_empty) {
        // A piece you do not own at all: no win.
        return true;
    }
    let t = tables();
    if !t.fits {
        return false;
    }
    // Your cards grouped by kind and zone (what the cut reads does not tell copies in
    // one zone apart), and whether each group may still act.
    let mut slot = vec![u16::MAX; t.cards.len() * ZONES.len()];
    let mut classes: Vec<(&CardTable, Zone, bool)> = Vec::with_capacity(32);
    let mut active: Movers = 0;
    for c in &d.cards {
        if c.owner != you && c.controller != you {
            continue;
        }
        let (Some(zone), Some(i)) = (zone_of(c.location), t.index(c.code)) else {
            continue;
        };
        let Some(s) = slot.get_mut(i * ZONES.len() + zone as usize) else {
            continue;
        };
        if *s != u16::MAX {
            continue;
        }
        *s = classes.len() as u16;
        let card = &t.cards[i];
        let alive = matches!(zone, Zone::Hand | Zone::Field | Zone::Extra);
        if alive {
            active |= card.own;
        }
        classes.push((card, zone, alive));
    }
    loop {
        let mut changed = false;
        for (card, zone, alive) in &mut classes {
            if !*alive && t.reach(card, *zone, active) & (bit(Zone::Hand) | bit(Zone::Field)) != 0 {
                *alive = true;
                active |= card.own;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Draws within reach: the alive cards outside the deck (each copy), then the deck
    // from the top as far as the draws reach, until that stops growing.
    let mut unbounded = false;
    for &(card, zone, _) in &classes {
        let p = &card.profile;
        if p.draws != Some(0) || p.unbounded {
            // A card that draws, brought back from the graveyard or banishment, or
            // fetched from anywhere in the deck, draws again or beyond the top.
            unbounded |= card.revives & active != 0;
            unbounded |= zone == Zone::Deck && card.searches & active != 0;
        }
    }
    let mut base = 0u32;
    for c in &d.cards {
        if c.owner != you && c.controller != you {
            continue;
        }
        let (Some(zone), Some(i)) = (zone_of(c.location), t.index(c.code)) else {
            continue;
        };
        let alive = slot
            .get(i * ZONES.len() + zone as usize)
            .and_then(|&s| classes.get(usize::from(s)))
            .is_some_and(|k| k.2);
        if alive && zone != Zone::Deck {
            let p = &t.cards[i].profile;
            unbounded |= p.unbounded;
            base += p.draws.unwrap_or(0);
        }
    }
    let deck = &d.player(you).deck;
    let mut drawn = 0usize;
    while !unbounded {
        let mut total = base;
        for &id in deck.iter().rev().take(drawn) {
            if let Some(card) = d.instance(id).and_then(|c| t.card(c.code)) {
                unbounded |= card.profile.unbounded;
                total += card.profile.draws.unwrap_or(0);
            }
        }
        let reach_now = (total as usize).min(deck.len());
        if reach_now <= drawn {
            break;
        }
        drawn = reach_now;
    }
    pieces.iter().any(|copies| {
        copies.iter().all(|&id| {
            let Some(c) = d.instance(id) else {
                return true;
            };
            let (Some(zone), Some(card)) = (zone_of(c.location), t.card(c.code)) else {
                return true;
            };
            if t.reach(card, zone, active) & bit(Zone::Hand) == 0 {
                return true;
            }
            if !unbounded && zone == Zone::Deck && card.searches & active == 0 {
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
}

/// Your win pieces not in your hand, each as the ids of its copies you own; `None` when
/// you own no card with a "win with all in hand" rule.
fn pieces_missing(d: &Duel) -> Option<Vec<Vec<CardId>>> {
    let you = Player::You;
    // The rule of the first card you own that has one, as its card and the pieces it
    // names (read from the catalogue once).
    let rules = crate::engine::win_rules();
    let (card, pieces) = d
        .cards
        .iter()
        .filter(|c| c.owner == you)
        .find_map(|c| rules.iter().find(|r| r.0 == c.code))?;
    let rule: Vec<Code> = std::iter::once(*card)
        .chain(pieces.iter().copied())
        .collect();
    let mut copies: Vec<Vec<CardId>> = vec![Vec::new(); rule.len()];
    for (i, c) in d.cards.iter().enumerate() {
        if c.owner != you {
            continue;
        }
        if let Some(slot) = rule.iter().position(|&code| code == c.code) {
            copies[slot].push(CardId(i as u16));
        }
    }
    let hand = &d.player(you).hand;
    copies.retain(|ids| !ids.iter().any(|id| hand.contains(id)));
    Some(copies)
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
