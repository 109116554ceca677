//! The rules, one module per concern: command validation ([`validate`]), activation,
//! the chain and triggers ([`chain`]), the step interpreter ([`steps`]), card movement
//! and game events ([`movement`]), damage and state checks ([`checks`]) and the End
//! Phase ([`end_phase`]). This file holds the entry point and the loop that runs the
//! duel until the player must act.

mod chain;
mod checks;
mod end_phase;
mod movement;
mod steps;
mod validate;

pub(crate) use checks::win_rules;
pub(crate) use validate::printed_match;

use crate::card::{CardDef, Code, card};
use crate::command::{Command, Response};
use crate::effect::EffectKind;
use crate::error::RuleError;
use crate::event::Event;
use crate::state::{CardId, Duel, EndStep, Frame, FrameKind, Phase};

/// What the interpreter does after a step.
pub(crate) enum Flow {
    Next,
    /// A prompt is pending: stay on this step.
    Wait,
    /// Stop this program (the rest of its steps are skipped).
    Stop,
}

/// Sorts cards by `key`, cards with equal keys keeping their order (as `sort_by_key`
/// does), by an insertion sort over keys computed once each. The lists are a deck at most,
/// and this one small loop weighs far less in the browser bundle than the standard
/// library's sort, which is compiled anew for each key type.
pub(crate) fn sort_cards<K: Ord>(ids: &mut [CardId], key: impl Fn(CardId) -> K) {
    let mut keyed: Vec<(K, CardId)> = ids.iter().map(|&id| (key(id), id)).collect();
    for i in 1..keyed.len() {
        let mut j = i;
        while j > 0 && keyed[j - 1].0 > keyed[j].0 {
            keyed.swap(j - 1, j);
            j -= 1;
        }
    }
    for (slot, (_, id)) in ids.iter_mut().zip(keyed) {
        *slot = id;
    }
}

/// A card that must exist in the catalogue: instances are only ever created from known
/// codes (checked at set-up), so a missing definition is a broken invariant.
pub(crate) fn def_of(code: Code) -> &'static CardDef {
    match card(code) {
        Some(d) => d,
        // Set-up refuses unknown codes, so every instance has a definition.
        None => unreachable!("card {code} was admitted without a definition"),
    }
}

impl Duel {
    /// Applies a command: validates it first (nothing changes on error), then runs the
    /// duel until the player must act again. Returns what happened.
    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        self.validate(&cmd)?;
        Ok(self.apply_valid(&cmd))
    }

    /// Applies a command that [`Duel::validate`] accepted on this very position (the
    /// solver's listed choices, validated once as they were listed), without validating
    /// it again.
    pub(crate) fn apply_valid(&mut self, cmd: &Command) -> Vec<Event> {
        let record = !self.journal.off;
        if record {
            self.journal.events.clear();
            self.journal.moves.clear();
            self.log.push(cmd.clone());
        }
        match *cmd {
            Command::SummonMonster { card } => self.normal_summon(card, false),
            Command::SetMonster { card } => self.normal_summon(card, true),
            Command::SetSpellTrap { card } => self.set_spell_trap(card),
            Command::ActivateSpell { card } => {
                if let Some(idx) = self.effect_index(card, EffectKind::Activation) {
                    self.activate(card, idx);
                }
            }
            Command::ActivateEffect { card } => {
                if let Some(idx) = self.effect_index(card, EffectKind::Ignition) {
                    self.activate(card, idx);
                }
            }
            Command::SynchroSummon { card } => self.synchro_summon(card),
            Command::PassChain => self.resolving = true,
            Command::AdvancePhase => match self.phase {
                Phase::Draw => self.enter(Phase::Standby),
                Phase::Standby => self.enter(Phase::Main1),
                Phase::Main1 => self.enter(Phase::End),
                Phase::End => self.end_step = EndStep::Delayed,
            },
            Command::EndTurn => match self.phase {
                Phase::End => self.end_step = EndStep::Delayed,
                _ => self.enter(Phase::End),
            },
            Command::Respond(ref r) => self.respond(r),
        }
        self.run();
        if record {
            self.journal.events.clone()
        } else {
            Vec::new()
        }
    }

    pub(crate) fn enter(&mut self, phase: Phase) {
        self.phase = phase;
        if phase == Phase::End {
            self.end_step = EndStep::Open;
        }
        self.push_event(Event::PhaseChanged { phase });
    }

    pub(crate) fn push_event(&mut self, e: Event) {
        if !self.journal.off {
            self.journal.events.push(e);
        }
    }

    /// Runs frames, trigger chains, the chain and the End Phase until the player must act.
    pub(crate) fn run(&mut self) {
        loop {
            if self.outcome.is_some() {
                self.frames.clear();
                self.prompt = None;
                self.trigger_build = None;
                return;
            }
            if self.prompt.is_some() {
                return;
            }
            if let Some(frame) = self.frames.last() {
                if let Some(step) = frame.steps.get(frame.pc).cloned() {
                    match self.exec(step) {
                        Flow::Next => {
                            if let Some(f) = self.frames.last_mut() {
                                f.pc += 1;
                            }
                            if self.settings.exodia_wins_mid_effect {
                                self.exodia_check();
                            }
                        }
                        Flow::Wait => return,
                        Flow::Stop => {
                            if let Some(f) = self.frames.last_mut() {
                                f.pc = f.steps.len();
                            }
                        }
                    }
                    continue;
                }
                if let Some(frame) = self.frames.pop() {
                    self.finish(frame);
                }
                continue;
            }
            if self.trigger_build.is_some() {
                self.advance_trigger_build();
                continue;
            }
            if !self.chain.is_empty() {
                if !self.resolving {
                    // The chain waits for the player's response or pass.
                    return;
                }
                self.resolve_top_link();
                continue;
            }
            self.resolving = false;
            if !self.triggers.is_empty() {
                self.start_trigger_build();
                continue;
            }
            if self.phase == Phase::End && self.advance_end_phase() {
                continue;
            }
            return;
        }
    }

    /// What comes after a program has run to its end.
    fn finish(&mut self, frame: Frame) {
        match frame.kind {
            FrameKind::Activation(mut link) => {
                link.locals = frame.locals;
                self.push_link(link);
            }
            FrameKind::Resolution(link) => self.finish_resolution(link),
            FrameKind::Tribute { card, set } => self.place_normal_summon(card, set),
            FrameKind::EndPhase | FrameKind::HandLimit | FrameKind::Synchro { .. } => {}
        }
        self.state_check();
    }

    fn respond(&mut self, r: &Response) {
        let Some(prompt) = self.prompt.take() else {
            return;
        };
        match (prompt.state, r) {
            (crate::state::PromptState::Cards { into, .. }, Response::Cards(chosen)) => {
                let held = self.held_all(chosen);
                if let Some(frame) = self.frames.last_mut() {
                    frame.locals.regs.insert(into, held);
                    frame.locals.did = true;
                    frame.pc += 1;
                }
            }
            (crate::state::PromptState::Mode { card, effect, .. }, &Response::Option(i)) => {
                if let Some(Frame {
                    kind: FrameKind::Activation(link),
                    ..
                }) = self.frames.last_mut()
                {
                    link.mode = Some(i);
                }
                let code = self.cards[card.index()].code;
                self.push_event(Event::ModeChosen {
                    card: code,
                    effect,
                    mode: i,
                });
            }
            (crate::state::PromptState::UseTrigger { .. }, &Response::Option(i)) => {
                self.answer_use_trigger(i == 0);
            }
            (crate::state::PromptState::Order { of, .. }, &Response::Option(i)) => match of {
                crate::state::OrderOf::Triggers => self.answer_trigger_order(usize::from(i)),
                crate::state::OrderOf::EndPhase => self.run_delayed(usize::from(i)),
            },
            (crate::state::PromptState::Position { card }, &Response::Option(i)) => {
                let pos = if i == 0 {
                    crate::state::Position::Attack
                } else {
                    crate::state::Position::Defense
                };
                if let Some(frame) = self.frames.last_mut() {
                    frame.locals.positions.push((card, pos));
                }
            }
            // validate_response refused every other pairing.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_sort_as_a_stable_sort_would() {
        let mut rng = seeded_rng::Rng::new(7);
        for n in 0..40u16 {
            let mut ids: Vec<CardId> = (0..n).map(CardId).collect();
            rng.shuffle(&mut ids);
            let key = |id: CardId| (id.0 % 5, id.0.is_multiple_of(3));
            let mut ours = ids.clone();
            sort_cards(&mut ours, key);
            ids.sort_by_key(|&id| key(id));
            assert_eq!(ours, ids, "{n} cards");
        }
    }
}
