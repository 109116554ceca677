//! Admissible cuts: positions the solver may call lost without searching them, because
//! the card data shows that nothing left can reach the goal. Each cut is sound (it
//! never calls a winnable position lost; `tests/solver.rs` checks every one against an
//! exhaustive search), so a search that uses them still proves what it says.

use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;

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
        && d.delayed.iter().all(|e| {
            e.steps
                .iter()
                .all(|s| sends_hand_away(s) || back_to_deck(s))
        })
        && d.frames.iter().all(|f| f.steps.iter().all(harmless_step))
        && d.player(Player::You).lp > 0
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

/// The profiles of every card in the catalogue, computed once.
fn profiles() -> &'static HashMap<Code, (&'static CardDef, Profile)> {
    static PROFILES: OnceLock<HashMap<Code, (&'static CardDef, Profile)>> = OnceLock::new();
    PROFILES.get_or_init(|| {
        catalog()
            .iter()
            .map(|c| (c.code, (c, profile(c))))
            .collect()
    })
}

/// Whether `m` can move a card of definition `def` out of `from`: its filter is read on
/// what the card is only; what depends on its state counts as passed, which only makes
/// the cut weaker.
fn moves(def: &CardDef, m: &Mover, from: Zone) -> bool {
    (m.from == from || m.from == Zone::Any) && m.filter.is_none_or(|f| printed_match(def, f))
}

/// The zones a card of definition `def` can reach from `start`, by the moves of
/// `movers` and the game's own (summoning from the hand or the Extra Deck, sending from
/// the field to the graveyard by a Tribute or as material), as bits by `Zone`.
fn reach(def: &CardDef, start: Zone, movers: &[Mover]) -> u8 {
    let bit = |z: Zone| 1u8 << (z as u8);
    let mut seen = bit(start);
    let mut queue = vec![start];
    while let Some(z) = queue.pop() {
        let game: &[Zone] = match z {
            Zone::Hand | Zone::Extra => &[Zone::Field, Zone::Grave],
            Zone::Field => &[Zone::Grave],
            _ => &[],
        };
        let by_cards = movers
            .iter()
            .filter(|m| moves(def, m, z))
            .map(|m| m.to)
            .filter(|&t| t != Zone::Any);
        for t in game.iter().copied().chain(by_cards) {
            if seen & bit(t) == 0 {
                seen |= bit(t);
                queue.push(t);
            }
        }
    }
    seen
}

/// Your cards grouped by passcode and zone: what the cut reads does not tell copies in
/// one zone apart.
struct Class {
    def: &'static CardDef,
    profile: &'static Profile,
    zone: Zone,
    copies: u32,
    alive: bool,
}

/// For the Exodia goal: some missing piece can never reach the hand. The cards that
/// may still act are found first (those in the hand, on the field, in the Extra Deck,
/// and any card the moves of those can bring there, until nothing changes); then each
/// piece not in the hand needs a way there by their moves. A piece in the deck also
/// needs to be within reach of the draws those cards can make, unless one of them can
/// search it, shuffle the deck, reveal cards from it, draw without a bound, or bring a
/// card that draws back from the graveyard or banishment.
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
    let profiles = profiles();
    let mut classes: Vec<Class> = Vec::new();
    for c in &d.cards {
        if c.owner != you && c.controller != you {
            continue;
        }
        let (Some(zone), Some((def, profile))) = (zone_of(c.location), profiles.get(&c.code))
        else {
            continue;
        };
        if let Some(class) = classes
            .iter_mut()
            .find(|k| k.def.code == c.code && k.zone == zone)
        {
            class.copies += 1;
        } else {
            classes.push(Class {
                def,
                profile,
                zone,
                copies: 1,
                alive: matches!(zone, Zone::Hand | Zone::Field | Zone::Extra),
            });
        }
    }
    let mut movers: Vec<Mover> = Vec::new();
    let mut counted = vec![false; classes.len()];
    loop {
        for (i, k) in classes.iter().enumerate() {
            if k.alive && !counted[i] {
                counted[i] = true;
                for m in &k.profile.movers {
                    let known = movers.iter().any(|x| {
                        x.from == m.from
                            && x.to == m.to
                            && match (x.filter, m.filter) {
                                (None, None) => true,
                                (Some(a), Some(b)) => std::ptr::eq(a, b),
                                _ => false,
                            }
                    });
                    if !known {
                        movers.push(*m);
                    }
                }
            }
        }
        let mut changed = false;
        for k in classes.iter_mut().filter(|k| !k.alive) {
            let r = reach(k.def, k.zone, &movers);
            if r & (1 << Zone::Hand as u8 | 1 << Zone::Field as u8) != 0 {
                k.alive = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let searched = |def: &CardDef| {
        movers
            .iter()
            .any(|m| m.filter.is_some() && moves(def, m, Zone::Deck))
    };
    // Draws within reach: the alive cards outside the deck, then the deck from the top
    // as far as the draws reach, until that stops growing.
    let mut unbounded = false;
    let mut base = 0u32;
    for k in &classes {
        let p = k.profile;
        let draws_again = p.draws != Some(0) || p.unbounded;
        if k.alive && k.zone != Zone::Deck {
            unbounded |= p.unbounded;
            base += p.draws.unwrap_or(0) * k.copies;
        }
        if draws_again {
            // A card that draws, brought back from the graveyard or banishment, or
            // fetched from anywhere in the deck, draws again or beyond the top.
            unbounded |= movers.iter().any(|m| {
                matches!(m.from, Zone::Grave | Zone::Banished)
                    && m.to != Zone::Grave
                    && m.filter.is_none_or(|f| printed_match(k.def, f))
            });
            unbounded |= k.zone == Zone::Deck && searched(k.def);
        }
    }
    let deck = &d.player(you).deck;
    let mut drawn = 0usize;
    while !unbounded {
        let mut total = base;
        for &id in deck.iter().rev().take(drawn) {
            if let Some((_, p)) = d.instance(id).and_then(|c| profiles.get(&c.code)) {
                unbounded |= p.unbounded;
                total += p.draws.unwrap_or(0);
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
            let (Some(zone), Some((def, _))) = (zone_of(c.location), profiles.get(&c.code)) else {
                return true;
            };
            if reach(def, zone, &movers) & (1 << Zone::Hand as u8) == 0 {
                return true;
            }
            if !unbounded && zone == Zone::Deck && !searched(def) {
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
    you.hand.iter().chain(field).any(|&id| {
        d.instance(id)
            .and_then(|c| profiles().get(&c.code))
            .is_some_and(|(_, p)| {
                p.movers
                    .iter()
                    .any(|m| m.to == Zone::Hand && moves(def, m, Zone::Grave))
            })
    })
}

/// How many cards one use of a card's effects can bring to your hand, as far as the
/// data bounds it (draws, and one for each move to the hand), for the guides' order: a
/// hint, not a cut.
pub(crate) fn hand_gain(code: Code) -> i64 {
    profiles().get(&code).map_or(0, |(_, p)| {
        let to_hand = p.movers.iter().filter(|m| m.to == Zone::Hand).count() as i64;
        i64::from(p.draws.unwrap_or(3)) + to_hand
    })
}
