//! Stand-ins: a burn whose Extra Deck holds monsters without effects that the deck's
//! cards tell apart only by how much damage they deal (Magical Scientist's Fusion
//! Monsters, Tributed to Catapult Turtle for half their ATK) is searched once more with
//! each of them replaced by the strongest of its kind, a game whose tree is far smaller
//! (one kind to choose where there were three).
//!
//! **Why a loss there is a loss here.** Take any line that wins the real duel and play
//! the same commands (the same card ids) in the one with stand-ins. A replaced monster
//! differs from its stand-in only in ATK, DEF, name, Attribute and Type, and
//! [`tells_apart_only_by_damage`] checks, on every card of the duel, that nothing reads
//! those but an Amount of half the ATK dealt as damage to the opponent: no filter reads
//! them where such a monster can be (a monster of the Extra Deck sent to the hand or the
//! deck goes back to the Extra Deck, so filters on the hand and the Main Deck never see
//! it), no rule reads the players' LP (Chicken Game's lower-LP rule), and no condition
//! reads the opponent's. So every command stays legal, every step does the same (the
//! shuffles sort the Main Deck, where these monsters never are, by what its cards are),
//! and the only difference is damage to the opponent, at least as much with stand-ins,
//! whose ATK is at least theirs. The opponent's LP is never higher there, so the line
//! (or its part up to the opponent's LP reaching 0) wins there too. If no line wins
//! with stand-ins (the search tried everything), none wins the real duel.
//!
//! The other way (stand-ins that are the weakest of their kind) a win there is a line
//! whose every step deals at most the real damage: played in the real duel, it wins
//! there as well. Such a line is still replayed through the real duel before it is
//! trusted.

use crate::card::{CardDef, Code, card};
use crate::effect::{Amount, Condition, Constraint, Filter, RuleDef, Source, Step, Who};
use crate::state::{CardInstance, Duel, Location, Outcome, Player, Reason};

/// Which member of a kind stands in for all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The highest ATK: a loss there proves a loss.
    Strongest,
    /// The lowest ATK: a win there is a win.
    Weakest,
}

/// The duel with every monster without effects in the player's Extra Deck replaced by the
/// strongest (or weakest) monster of its kind there (same card type, frame, Level and
/// Tuner or not, no effects and no rules); `None` unless the goal is to burn the
/// opponent, the duel's cards tell such monsters apart only by damage, and some card
/// changes (and always `None` without the crate's `stand-ins` feature).
pub fn stand_ins(d: &Duel, goal: Outcome, side: Side) -> Option<Duel> {
    // Without the feature (a page's bundle), never: the searches with stand-ins and
    // all of this go from the build.
    if cfg!(not(feature = "stand-ins")) || goal != Outcome::Win(Reason::Lp0) {
        return None;
    }
    // A plain monster of the player's Extra Deck.
    let plain = |c: &CardInstance| {
        card(c.code).filter(|def| {
            c.location == Location::ExtraDeck && c.owner == Player::You && is_plain(def)
        })
    };
    let mut relaxed = d.clone();
    let mut changed = false;
    for (i, c) in d.cards.iter().enumerate() {
        let Some(def) = plain(c) else { continue };
        let mut best = def;
        for other in d.cards.iter().filter_map(plain) {
            let better = match side {
                Side::Strongest => (other.atk(), other.code) > (best.atk(), best.code),
                Side::Weakest => (other.atk(), other.code) < (best.atk(), best.code),
            };
            if better && same_kind(other, def) {
                best = other;
            }
        }
        changed |= best.code != c.code;
        relaxed.cards[i].code = best.code;
    }
    // The piles' memos of the key read the cards' codes: the copy's piles, shared with
    // the duel's, forget theirs.
    #[cfg(feature = "pile-keys")]
    for ps in &mut relaxed.players {
        for pile in ps.piles_mut() {
            pile.make_mut();
        }
    }
    (changed && tells_apart_only_by_damage(d)).then_some(relaxed)
}

/// A monster with no effects and no rules.
fn is_plain(c: &CardDef) -> bool {
    c.monster.is_some() && c.effects.is_empty() && c.rules.is_empty()
}

/// Two plain monsters that differ at most in ATK, DEF, name, Attribute and Type.
fn same_kind(a: &CardDef, b: &CardDef) -> bool {
    let (Some(x), Some(y)) = (&a.monster, &b.monster) else {
        return false;
    };
    is_plain(a)
        && is_plain(b)
        && a.card_type == b.card_type
        && a.frame == b.frame
        && a.sub == b.sub
        && x.level == y.level
        && x.tuner == y.tuner
        && x.synchro == y.synchro
}

/// Whether the duel's cards read a monster's ATK, DEF, name, Attribute and Type only as
/// half its ATK in damage to the opponent, and never read the opponent's LP: see the
/// module's argument. Every effect of every card in the duel (and of the Tokens they
/// create) is looked at, step by step.
pub(crate) fn tells_apart_only_by_damage(d: &Duel) -> bool {
    d.cards.iter().all(|c| card_ok(c.code, 2))
}

/// Whether a card's rules and effects (and those of the Tokens it creates, `depth`
/// levels down) read what stand-ins change only as damage.
fn card_ok(code: Code, depth: u8) -> bool {
    let Some(def) = card(code) else {
        return false;
    };
    !def.rules
        .iter()
        .any(|r| matches!(r, RuleDef::LowerLpTakesNoDamage))
        && def
            .effects
            .iter()
            .all(|e| e.conditions.iter().all(condition_ok) && e.steps().all(|s| step_ok(s, depth)))
}

/// A filter that reads what a stand-in changes.
fn reads_stats(f: &Filter) -> bool {
    f.max_atk.is_some() || f.max_def.is_some() || f.name_contains_ja.is_some() || f.race.is_some()
}

/// A filter is harmless where no monster of the Extra Deck can be: the hand and the Main
/// Deck (such a monster sent there goes back to the Extra Deck).
fn filter_ok(from: Source, f: &Filter) -> bool {
    matches!(from, Source::Deck | Source::Hand) || !reads_stats(f)
}

fn amount_ok(a: &Amount) -> bool {
    !matches!(a, Amount::HalfAtk(_))
}

fn constraint_ok(c: &Constraint) -> bool {
    match c {
        Constraint::CountIsLevelOf { zone, filter } => filter_ok(*zone, filter),
        Constraint::SynchroMaterials => true,
    }
}

fn condition_ok(c: &Condition) -> bool {
    match c {
        Condition::Exists { zone, filter, .. } | Condition::OwnerCanSummon { zone, filter } => {
            filter_ok(*zone, filter)
        }
        Condition::OthersInHand { filter, .. } => filter_ok(Source::Hand, filter),
        Condition::CanSelect {
            from,
            filter,
            constraint,
            ..
        } => filter_ok(*from, filter) && constraint_ok(constraint),
        // Counts, the player's own LP, zones and registers.
        Condition::DeckAtLeast { .. }
        | Condition::HandAtLeast { .. }
        | Condition::HandAtMostOthers { .. }
        | Condition::CanDrawUntil { .. }
        | Condition::LpAtLeast { .. }
        | Condition::NoSpecialSummonThisTurn
        | Condition::FreeMonsterZones { .. }
        | Condition::CountersAtLeast { .. }
        | Condition::Holds { .. }
        | Condition::ThisOnField => true,
    }
}

/// Every variant is named, so a new step must say whether it reads what stand-ins change.
fn step_ok(s: &Step, depth: u8) -> bool {
    match s {
        Step::Damage {
            who: Who::Opponent,
            amount: _,
        } => true,
        Step::Damage { amount, .. }
        | Step::GainLp { amount, .. }
        | Step::PayLp { amount }
        | Step::Draw { n: amount, .. } => amount_ok(amount),
        Step::Select {
            from,
            filter,
            constraint,
            ..
        } => filter_ok(*from, filter) && constraint.as_ref().is_none_or(constraint_ok),
        Step::ExcavateUntil { filter, .. } => filter_ok(Source::Deck, filter),
        // A register may hold anything.
        Step::Split { filter, .. } => !reads_stats(filter),
        Step::AtEndPhase { steps } => steps.iter().all(|s| step_ok(s, depth)),
        Step::StopUnless { condition } => condition_ok(condition),
        Step::CreateToken { code, .. } => depth > 0 && card_ok(*code, depth - 1),
        Step::DrawUntil { .. }
        | Step::OpponentSelectHand { .. }
        | Step::Excavate { .. }
        | Step::OpponentDeclaresLevel
        | Step::Move { .. }
        | Step::MoveHand { .. }
        | Step::DestroySelf
        | Step::ShuffleDeck
        | Step::SpecialSummon { .. }
        | Step::Equip { .. }
        | Step::RemoveCounters { .. }
        | Step::ChangePosition { .. }
        | Step::Restrict { .. }
        | Step::IfYouDid
        | Step::UnlessYouDid
        | Step::Watch { .. } => true,
    }
}

#[cfg(all(test, feature = "stand-ins"))]
mod tests {
    use super::*;
    use crate::state::Settings;

    const SUNBIRD: Code = 46_696_593;
    const AQUA_DRAGON: Code = 86_164_529;
    const MAMMOTH: Code = 54_622_031;

    fn extra_codes(d: &Duel) -> Vec<Code> {
        let mut v: Vec<Code> = d
            .cards
            .iter()
            .filter(|c| c.location == Location::ExtraDeck)
            .map(|c| c.code)
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_burn_decks_fusions_stand_in_for_one_another_by_atk() {
        let d =
            Duel::with_settings("scientist-catapult-deck", 3, Settings::default()).expect("deals");
        assert_eq!(
            extra_codes(&d),
            [vec![SUNBIRD; 3], vec![MAMMOTH; 3], vec![AQUA_DRAGON; 3]].concat()
        );
        assert!(tells_apart_only_by_damage(&d));
        let burn = Outcome::Win(Reason::Lp0);
        let strong = stand_ins(&d, burn, Side::Strongest).expect("the fusions differ");
        assert_eq!(extra_codes(&strong), vec![SUNBIRD; 9]);
        let weak = stand_ins(&d, burn, Side::Weakest).expect("the fusions differ");
        assert_eq!(extra_codes(&weak), vec![MAMMOTH; 9]);
        // Only the Extra Deck changes.
        for (a, b) in d.cards.iter().zip(&strong.cards) {
            assert!(a.code == b.code || a.location == Location::ExtraDeck);
        }
        // Not for another goal.
        assert!(stand_ins(&d, Outcome::Win(Reason::Exodia), Side::Strongest).is_none());
    }

    #[test]
    fn no_stand_ins_where_cards_read_lp_or_what_a_monster_is() {
        // Chicken Game's rule reads the players' LP; Treasure Panda's constraint and
        // the other decks' Extra Decks (Synchro monsters with effects) change nothing.
        for deck in [
            "legacy-exodia-deck",
            "library-exodia-deck",
            "panda-exodia-deck",
        ] {
            let d = Duel::with_settings(deck, 0, Settings::default()).expect("deals");
            assert!(
                stand_ins(&d, Outcome::Win(Reason::Lp0), Side::Strongest).is_none(),
                "{deck}"
            );
        }
        let chicken = 67_616_300;
        let d = crate::Setup::new()
            .hand([chicken])
            .extra([SUNBIRD, MAMMOTH])
            .build()
            .expect("builds");
        assert!(!tells_apart_only_by_damage(&d));
        assert!(stand_ins(&d, Outcome::Win(Reason::Lp0), Side::Strongest).is_none());
    }
}
