//! Commands the depth-first search need not try, because another line does at least as
//! well without them: putting a card from the hand onto the field where, as the card
//! data of the duel shows, nothing will ever read it there; ending a turn that can only
//! lose; activating a card in the End Phase rather than just before it.
//!
//! - **Setting a Spell or Trap** (not a Field Spell). A card Set in the first turn is
//!   only ever activated later in the Main Phase (a Set Quick-Play Spell or Trap cannot
//!   be activated the turn it was Set), and a line that does so can activate it from the
//!   hand at the same moment instead, into the zone the Set left free. Meanwhile the
//!   card is in the hand instead of on the field, which changes nothing when no effect of
//!   the duel looks at face-down Spells and Traps on the field, and every effect that
//!   reads the hand is *monotone*: a larger hand only adds choices (discard 2, shuffle any
//!   number back, "at least 3 cards in hand"). A hand moved away as a whole in the End
//!   Phase (Into the Void) sends the card to the graveyard with it, where a card too many
//!   only adds choices as well, and a Set card can do nothing any more by then.
//! - **Normal Summoning or Setting a monster without effects** (an Exodia piece, a Normal
//!   Monster). It stays in the hand instead, and the Normal Summon stays unused, when no
//!   effect of the duel looks at monsters on the field (for a face-down Set: at
//!   face-down ones), no monster of the duel needs Tributes or Synchro Materials, and no
//!   effect watches monsters leave the field; the hand's readers are monotone as above.
//! - **Ending the turn** from the Main Phase when nothing could happen in the End Phase
//!   ([`super::bound::ending_is_idle`]): that command can only lose.
//! - **Activating a card in the End Phase**, when the search started before it. The
//!   End Phase is entered from an open Main Phase whose position differs only in its
//!   phase, and the search tries every command there. What the End Phase allows (Spell
//!   Speed 2, before its effects apply) the Main Phase allows too, no step reads the
//!   phase, and entering the End Phase changes nothing else: so a line "end the turn,
//!   activate A, ..., end the turn" gives the line "activate A, ..., end the turn, end
//!   the turn" from that Main Phase, which reaches the same End Phase with the same cards
//!   and is no longer (one command shorter when that End Phase offers nothing to
//!   activate). A search that starts in the End Phase has its Main Phase behind it and
//!   keeps these commands.
//!
//! So a winning line that plays such a command gives a winning line without it: the
//! first three rewrites make it one command shorter, the last keeps its length and moves
//! commands out of the End Phase, so applied over and over they end with a line that
//! plays none of them. The search stays a proof. One exception for the shortest line:
//! a Quick-Play Spell left in the hand can answer a chain, so the activations after it
//! wait for the player's pass where, Set, it would let them resolve at once; the search
//! for the shortest line keeps those Sets ([`Dominance::for_shortest`]). The conditions
//! are read once per search from every card of the duel (a deck with Reload or Card of
//! Demise, whose effects prefer a smaller hand, keeps every Set). `tests/solver_soundness.rs` checks each rule against an exhaustive
//! enumeration that tries everything.

use crate::card::{CardDef, Frame, SpellType, card};
use crate::command::Command;
use crate::effect::{Condition, Constraint, Dest, RuleDef, Source, Step, TriggerOn, Who};
use crate::state::{CardId, Duel, EndStep, Phase};

/// Which commands a search of one duel may leave out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Dominance {
    /// Setting a Spell or Trap that is not a Field Spell.
    set_spell_trap: bool,
    /// ... a Quick-Play Spell among them (see [`Dominance::for_shortest`]).
    quick_play_sets: bool,
    /// Setting a monster without effects.
    set_plain_monster: bool,
    /// Normal Summoning a monster without effects.
    summon_plain_monster: bool,
    /// Activating a card in the End Phase (the search started before it).
    end_phase_activations: bool,
}

/// What the effects of a duel's cards read or need, gathered from the card data.
#[derive(Debug, Default)]
struct Readers {
    /// An effect prefers a smaller hand, or moves the whole hand before the End Phase.
    hand_size: bool,
    /// An effect looks at the Spell & Trap Zones without asking for face-up cards.
    face_down_spell_traps: bool,
    /// An effect looks at monsters on the field.
    monsters: bool,
    /// ... without asking for face-up ones.
    face_down_monsters: bool,
    /// A monster needs Tributes or Materials, or an effect watches monsters leave the field.
    uses_monsters: bool,
}

impl Readers {
    fn zone(&mut self, zone: Source, face_up: Option<bool>) {
        let hidden_too = face_up != Some(true);
        match zone {
            Source::SpellTrapZone => self.face_down_spell_traps |= hidden_too,
            Source::MonsterZone | Source::EitherMonsterZone => {
                self.monsters = true;
                self.face_down_monsters |= hidden_too;
            }
            Source::EquippedMonster => {
                self.monsters = true;
                self.face_down_monsters = true;
            }
            Source::Hand
            | Source::Deck
            | Source::Graveyard
            | Source::Banished
            | Source::ExtraDeck
            | Source::OpponentGraveyard
            | Source::EitherGraveyard
            | Source::EitherBanished
            | Source::This
            | Source::Reg { .. } => {}
        }
    }

    fn condition(&mut self, c: &Condition) {
        match c {
            Condition::HandAtMostOthers { .. } | Condition::CanDrawUntil { .. } => {
                self.hand_size = true;
            }
            Condition::Exists { zone, filter, .. }
            | Condition::OwnerCanSummon { zone, filter }
            | Condition::CanSelect {
                from: zone, filter, ..
            } => {
                self.zone(*zone, filter.face_up);
                if let Condition::CanSelect { constraint, .. } = c {
                    self.constraint(constraint);
                }
            }
            Condition::DeckAtLeast { .. }
            | Condition::HandAtLeast { .. }
            | Condition::OthersInHand { .. }
            | Condition::LpAtLeast { .. }
            | Condition::NoSpecialSummonThisTurn
            | Condition::FreeMonsterZones { .. }
            | Condition::CountersAtLeast { .. }
            | Condition::Holds { .. }
            | Condition::ThisOnField => {}
        }
    }

    fn constraint(&mut self, c: &Constraint) {
        match c {
            Constraint::CountIsLevelOf { zone, filter } => self.zone(*zone, filter.face_up),
            Constraint::SynchroMaterials => self.uses_monsters = true,
        }
    }

    fn steps<'a>(&mut self, steps: impl Iterator<Item = &'a Step>, at_end_phase: bool) {
        for s in steps {
            match s {
                Step::DrawUntil { .. } => self.hand_size = true,
                Step::MoveHand { who, to, into } => {
                    // The whole hand away in the End Phase, remembered nowhere: see the
                    // module's doc. Anything else reads the hand's size.
                    let end_of_turn = at_end_phase
                        && into.is_none()
                        && matches!(to, Dest::Discard | Dest::Graveyard);
                    self.hand_size |= *who == Who::You && !end_of_turn;
                }
                Step::Select {
                    from,
                    filter,
                    constraint,
                    ..
                } => {
                    self.zone(*from, filter.face_up);
                    if let Some(c) = constraint {
                        self.constraint(c);
                    }
                }
                Step::StopUnless { condition } => self.condition(condition),
                Step::AtEndPhase { steps } => self.steps(steps.iter(), true),
                Step::Draw { .. }
                | Step::GainLp { .. }
                | Step::PayLp { .. }
                | Step::Damage { .. }
                | Step::OpponentSelectHand { .. }
                | Step::Excavate { .. }
                | Step::ExcavateUntil { .. }
                | Step::Split { .. }
                | Step::OpponentDeclaresLevel
                | Step::Move { .. }
                | Step::DestroySelf
                | Step::ShuffleDeck
                | Step::SpecialSummon { .. }
                | Step::CreateToken { .. }
                | Step::Equip { .. }
                | Step::RemoveCounters { .. }
                | Step::ChangePosition { .. }
                | Step::Restrict { .. }
                | Step::IfYouDid
                | Step::UnlessYouDid
                | Step::Watch { .. } => {}
            }
        }
    }

    fn card(&mut self, def: &CardDef) {
        let main_deck_monster = matches!(def.frame, Frame::Normal | Frame::Effect);
        self.uses_monsters |=
            (main_deck_monster && def.tributes_needed() > 0) || def.frame == Frame::Synchro;
        for e in &def.effects {
            if let Some(t) = &e.trigger {
                self.uses_monsters |= matches!(
                    t.on,
                    TriggerOn::OtherSynchroSummoned | TriggerOn::WatchedMonsterToGraveyard
                );
            }
            for c in e
                .conditions
                .iter()
                .chain(e.modes.iter().flat_map(|m| &m.conditions))
            {
                self.condition(c);
            }
            self.steps(e.steps(), false);
        }
    }
}

impl Dominance {
    /// The commands a search from `d` may leave out, read from every card of the duel
    /// (both players', wherever they are, and the Tokens their effects create) and from
    /// the phase the search starts in.
    pub(crate) fn of(d: &Duel) -> Dominance {
        let mut readers = Readers::default();
        for def in super::bound::duel_cards(d) {
            readers.card(def);
        }
        let hand_ok = !readers.hand_size;
        let monsters_unused = hand_ok && !readers.uses_monsters;
        Dominance {
            set_spell_trap: hand_ok && !readers.face_down_spell_traps,
            quick_play_sets: true,
            set_plain_monster: monsters_unused && !readers.face_down_monsters,
            summon_plain_monster: monsters_unused && !readers.monsters,
            end_phase_activations: d.phase != Phase::End,
        }
    }

    /// What a search for the shortest line may leave out, from `d`: Sets of Quick-Play
    /// Spells are kept when the duel asks the player before each chain resolves. In the
    /// hand such a card can answer a chain, so each activation waits for the player's
    /// pass (a command of its own); Set, it cannot be activated this turn, and with
    /// nothing else to answer with the activations resolve at once. So the Set can make
    /// a line shorter, though never a lost duel won (found by
    /// `a_line_proved_shortest_is_as_short_as_an_exhaustive_enumeration_finds`: Set Hand
    /// Destruction, then Terraforming and Chicken Game without a pass each).
    pub(crate) fn for_shortest(self, d: &Duel) -> Dominance {
        Dominance {
            quick_play_sets: !d.settings.chain_confirmation,
            ..self
        }
    }

    /// Whether the only commands a search need try at `d` are those that end the turn:
    /// an open End Phase below a start before it, where every activation is left out.
    /// Such a position offers no choice.
    pub(crate) fn only_ending(&self, d: &Duel) -> bool {
        self.end_phase_activations
            && d.phase == Phase::End
            && d.end_step == EndStep::Open
            && super::key::quiet(d)
    }

    /// Whether a search may leave out `c` at `d`.
    pub(crate) fn drops(&self, d: &Duel, c: &Command) -> bool {
        let def = |id: CardId| d.instance(id).and_then(|i| card(i.code));
        if self.only_ending(d) {
            return !matches!(c, Command::EndTurn | Command::AdvancePhase);
        }
        match c {
            Command::SetSpellTrap { card } => {
                self.set_spell_trap
                    && def(*card).is_some_and(|c| {
                        let quick_play = c.is_spell() && c.sub == Some(SpellType::QuickPlay);
                        !c.is_field_spell() && (self.quick_play_sets || !quick_play)
                    })
            }
            Command::SetMonster { card } => {
                self.set_plain_monster && def(*card).is_some_and(plain_monster)
            }
            Command::SummonMonster { card } => {
                self.summon_plain_monster && def(*card).is_some_and(plain_monster)
            }
            // Not playing it does better: it can only lose.
            Command::EndTurn | Command::AdvancePhase => super::bound::ending_is_idle(d),
            _ => false,
        }
    }
}

/// A monster that does nothing on the field: no effects, and no rule but winning from
/// the hand (an Exodia piece).
fn plain_monster(def: &CardDef) -> bool {
    def.is_monster()
        && def.effects.is_empty()
        && def
            .rules
            .iter()
            .all(|r| matches!(r, RuleDef::WinWithAllInHand { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    const EXODIA: u32 = 33_396_948;
    const RIGHT_ARM: u32 = 70_903_634;
    const POT_OF_GREED: u32 = 55_144_522;
    const UPSTART_GOBLIN: u32 = 70_368_879;
    const CHICKEN_GAME: u32 = 67_616_300;
    const RELOAD: u32 = 22_589_918;
    const CARD_OF_DEMISE: u32 = 59_750_328;
    const BROKEN_BAMBOO_SWORD: u32 = 41_587_307;
    const CATAPULT_TURTLE: u32 = 95_727_991;
    const HAND_DESTRUCTION: u32 = 74_519_184;

    fn duel(hand: &[u32], deck: &[u32]) -> Duel {
        Setup::new()
            .hand(hand.iter().copied())
            .deck(deck.iter().copied())
            .build()
            .expect("a position")
    }

    fn card_in_hand(d: &Duel, code: u32) -> CardId {
        d.player(crate::state::Player::You)
            .hand
            .iter()
            .copied()
            .find(|&id| d.instance(id).is_some_and(|c| c.code == code))
            .expect("in hand")
    }

    #[test]
    fn sets_and_plain_summons_are_left_out_when_nothing_reads_them() {
        let d = duel(
            &[UPSTART_GOBLIN, RIGHT_ARM, CHICKEN_GAME],
            &[POT_OF_GREED, EXODIA],
        );
        let rule = Dominance::of(&d);
        let set = |code| Command::SetSpellTrap {
            card: card_in_hand(&d, code),
        };
        let arm = card_in_hand(&d, RIGHT_ARM);
        assert!(rule.drops(&d, &set(UPSTART_GOBLIN)));
        assert!(rule.drops(&d, &Command::SummonMonster { card: arm }));
        assert!(rule.drops(&d, &Command::SetMonster { card: arm }));
        // A Field Spell Set in the Field Zone would be replaced by another one.
        assert!(!rule.drops(&d, &set(CHICKEN_GAME)));
        // Activations are never left out.
        assert!(!rule.drops(
            &d,
            &Command::ActivateSpell {
                card: card_in_hand(&d, UPSTART_GOBLIN)
            }
        ));
    }

    #[test]
    fn ending_the_turn_is_left_out_only_when_nothing_could_happen_in_the_end_phase() {
        let end = Command::EndTurn;
        let d = duel(&[UPSTART_GOBLIN, RIGHT_ARM], &[POT_OF_GREED, EXODIA]);
        assert!(Dominance::of(&d).drops(&d, &end));
        // A Quick-Play Spell in hand can still be activated in the End Phase.
        let d = duel(&[HAND_DESTRUCTION, RIGHT_ARM], &[POT_OF_GREED, EXODIA]);
        assert!(!Dominance::of(&d).drops(&d, &end));
    }

    #[test]
    fn activations_in_the_end_phase_are_left_out_below_a_main_phase_only() {
        let d = duel(
            &[HAND_DESTRUCTION, RIGHT_ARM, UPSTART_GOBLIN],
            &[POT_OF_GREED, EXODIA, UPSTART_GOBLIN],
        );
        let rule = Dominance::of(&d);
        let mut end = d.clone();
        end.apply(Command::EndTurn).expect("the turn ends");
        let destruction = Command::ActivateSpell {
            card: card_in_hand(&end, HAND_DESTRUCTION),
        };
        assert_eq!(end.validate(&destruction), Ok(()));
        assert!(rule.drops(&end, &destruction));
        assert!(!rule.drops(&end, &Command::EndTurn));
        // In the Main Phase the activation is tried.
        let main = Command::ActivateSpell {
            card: card_in_hand(&d, HAND_DESTRUCTION),
        };
        assert!(!rule.drops(&d, &main));
        // A search that starts in the End Phase has no Main Phase to do it in.
        assert!(!Dominance::of(&end).drops(&end, &destruction));
    }

    #[test]
    fn a_card_that_prefers_a_smaller_hand_keeps_every_set_and_summon() {
        for reader in [RELOAD, CARD_OF_DEMISE] {
            // Anywhere in the duel: the deck's bottom card counts.
            let d = duel(&[UPSTART_GOBLIN, RIGHT_ARM], &[reader, POT_OF_GREED]);
            let rule = Dominance::of(&d);
            assert!(
                !rule.set_spell_trap && !rule.set_plain_monster && !rule.summon_plain_monster,
                "{reader}"
            );
        }
    }

    #[test]
    fn monsters_on_the_field_matter_where_an_effect_reads_or_tributes_them() {
        // Broken Bamboo Sword equips a face-up monster: a summoned Right Arm is a target,
        // a Set one is not.
        let d = duel(&[RIGHT_ARM, BROKEN_BAMBOO_SWORD], &[POT_OF_GREED]);
        let arm = card_in_hand(&d, RIGHT_ARM);
        let rule = Dominance::of(&d);
        assert!(!rule.drops(&d, &Command::SummonMonster { card: arm }));
        assert!(rule.drops(&d, &Command::SetMonster { card: arm }));
        // Catapult Turtle needs a Tribute (and Tributes monsters).
        let d = duel(&[RIGHT_ARM], &[CATAPULT_TURTLE]);
        let arm = card_in_hand(&d, RIGHT_ARM);
        let rule = Dominance::of(&d);
        assert!(!rule.drops(&d, &Command::SummonMonster { card: arm }));
        assert!(!rule.drops(&d, &Command::SetMonster { card: arm }));
    }
}
