//! The End Phase: the player may still activate Quick-Play Spells; then "during the End
//! Phase" effects apply in the order the player chooses, then the hand size limit, then
//! the turn (and with it the attempt) ends.

use crate::effect::{Dest, Filter, Max, Purpose, Reg, Source, Step};
use crate::event::Event;
use crate::state::{
    Duel, EndStep, Frame, FrameKind, HAND_LIMIT, OrderOf, Outcome, Player, Prompt, PromptState,
    Reason,
};

impl Duel {
    /// Moves the End Phase on by one piece of work; `false` when the player must act or
    /// the turn is over.
    pub(crate) fn advance_end_phase(&mut self) -> bool {
        match self.end_step {
            EndStep::Open => {
                if self.can_activate_any() {
                    return false;
                }
                self.end_step = EndStep::Delayed;
                true
            }
            EndStep::Delayed => {
                match self.delayed.len() {
                    0 => self.end_step = EndStep::HandLimit,
                    1 => self.run_delayed(0),
                    _ => {
                        let items = self.delayed.iter().map(|d| d.source).collect();
                        self.prompt = Some(Prompt {
                            source: None,
                            state: PromptState::Order {
                                of: OrderOf::EndPhase,
                                items,
                            },
                        });
                    }
                }
                true
            }
            EndStep::HandLimit => {
                self.end_step = EndStep::Done;
                let hand = &self.player(Player::You).hand;
                let excess = hand.len().saturating_sub(HAND_LIMIT);
                if let (true, Some(&source)) = (excess > 0, hand.first()) {
                    self.frames.push(Frame {
                        kind: FrameKind::HandLimit,
                        source,
                        controller: Player::You,
                        steps: vec![
                            Step::Select {
                                from: Source::Hand,
                                filter: Filter::default(),
                                min: excess as u8,
                                max: Max::N(excess as u8),
                                into: Reg::A,
                                purpose: Purpose::Discard,
                                exclude_self: false,
                                constraint: None,
                            },
                            Step::Move {
                                reg: Reg::A,
                                to: Dest::Discard,
                            },
                        ]
                        .into(),
                        pc: 0,
                        locals: Default::default(),
                    });
                }
                true
            }
            EndStep::Done => {
                self.end(Outcome::Lose(Reason::TurnEnd));
                false
            }
        }
    }

    /// Applies the End Phase effect at `index` of the waiting ones.
    pub(crate) fn run_delayed(&mut self, index: usize) {
        if index >= self.delayed.len() {
            return;
        }
        let d = self.delayed.remove(index);
        self.push_event(Event::EndPhaseEffect {
            card: self.cards[d.source.index()].code,
        });
        self.frames.push(Frame {
            kind: FrameKind::EndPhase,
            source: d.source,
            controller: d.controller,
            steps: d.steps,
            pc: 0,
            locals: d.locals,
        });
    }
}
