//! Commands: the entry point that applies them, playing from hand, passing and the turn's end.

use crate::card::{Card, Tactic, TacticKind};
use crate::error::RuleError;

use super::{Command, Deck, Event, Game, Phase, Player, Target, flag_index};

impl Game {
    /// Applies a command for the current player. A refused command changes nothing.
    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        let events = self.step(cmd)?;
        self.log.push(cmd);
        Ok(events)
    }

    /// Every command only validates before it mutates, so an `Err` leaves `self` as it was.
    fn step(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        if let Command::SortHand { player } = cmd {
            self.hands[player.index()].sort();
            return Ok(vec![Event::HandSorted { player }]);
        }
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        match cmd {
            Command::SortHand { .. } => Ok(Vec::new()),
            Command::ClaimFlag { flag } => self.claim(flag),
            Command::PlayCard { card, target } => self.play(card, target),
            Command::MoveCard { card, flag } => self.move_card(card, flag),
            Command::ResolveRedeploy { card, to } => self.redeploy(card, to),
            Command::ResolveDeserter { card } => self.desert(card),
            Command::ResolveTraitor { card, flag } => self.betray(card, flag),
            Command::ScoutDraw { deck } => self.scout_draw(deck),
            Command::ScoutReturn { card } => self.scout_return(card),
            Command::Pass => self.pass(),
            Command::DrawAndEndTurn { deck } => self.draw_and_end(deck),
            Command::EndTurn => self.end_turn_command(),
        }
    }

    pub(super) fn wrong_phase(&self) -> RuleError {
        RuleError::WrongPhase { phase: self.phase }
    }

    pub(super) fn open_flag(&self, flag: u8) -> Result<usize, RuleError> {
        let i = flag_index(flag)?;
        if self.flags[i].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag });
        }
        Ok(i)
    }

    pub(super) fn open_slot(&self, flag: u8, p: Player) -> Result<usize, RuleError> {
        let i = self.open_flag(flag)?;
        if !self.flags[i].open_for(p) {
            return Err(RuleError::SlotFull { flag });
        }
        Ok(i)
    }

    pub(super) fn may_play_tactic(&self, t: Tactic) -> Result<(), RuleError> {
        let me = self.current.index();
        if self.tactics_played[me] > self.tactics_played[1 - me] {
            return Err(RuleError::TacticLimit);
        }
        if t.is_leader() && self.leader_played[me] {
            return Err(RuleError::SecondLeader);
        }
        Ok(())
    }

    fn play(&mut self, card: Card, target: Target) -> Result<Vec<Event>, RuleError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let pos = self.hands[me.index()]
            .iter()
            .position(|c| *c == card)
            .ok_or(RuleError::NotInHand { card })?;
        if let Card::Tactic(t) = card {
            self.may_play_tactic(t)?;
        }
        enum Place {
            Slot(usize),
            TacticSlot(usize),
            Field(Tactic),
        }
        let place = match (card, target) {
            (c, Target::Flag { flag }) if c.fits_troop_slot() => {
                Place::Slot(self.open_slot(flag, me)?)
            }
            (Card::Tactic(t), Target::Flag { flag }) if t.kind() == TacticKind::Environment => {
                Place::TacticSlot(self.open_flag(flag)?)
            }
            (Card::Tactic(t), Target::Field) if t.kind() == TacticKind::Guile => {
                if !self.guile_has_target(t) {
                    return Err(RuleError::NoTarget { tactic: t });
                }
                Place::Field(t)
            }
            _ => return Err(RuleError::WrongPlace { card }),
        };
        // Validation done: mutate.
        self.stuck_passes = 0;
        self.hands[me.index()].remove(pos);
        self.cards_played_this_turn.push(card);
        if let Card::Tactic(t) = card {
            self.tactics_played[me.index()] += 1;
            if t.is_leader() {
                self.leader_played[me.index()] = true;
            }
        }
        match place {
            Place::Slot(i) => {
                self.flags[i].slots_mut(me).push(card);
                self.refresh(i);
                self.phase = Phase::Finish { may_draw: true };
            }
            Place::TacticSlot(i) => {
                if let Card::Tactic(t) = card {
                    self.flags[i].tactic_mut(me).push(t);
                }
                self.refresh(i);
                self.phase = Phase::Finish { may_draw: true };
            }
            Place::Field(t) => {
                self.field[me.index()].push(t);
                if t == Tactic::Scout {
                    self.phase = Phase::ScoutDraw { drawn: 0 };
                } else {
                    self.active_guile_tactic = Some(t);
                    self.phase = Phase::Guile { tactic: t };
                }
            }
        }
        Ok(vec![Event::CardPlayed {
            player: me,
            card,
            target,
        }])
    }

    /// Recomputes whether each side of flag `i` is complete. A side that just became
    /// complete gets the next tick; the player making the change is ticked last, so a
    /// side completed by the opponent's earlier play keeps its precedence.
    pub(super) fn refresh(&mut self, i: usize) {
        let cap = self.flags[i].capacity();
        for p in [self.current.opponent(), self.current] {
            let complete = self.flags[i].slots(p).len() >= cap;
            let at = &mut self.flags[i].completed_at[p.index()];
            if !complete {
                *at = None;
            } else if at.is_none() {
                *at = Some(self.tick);
                self.tick += 1;
            }
        }
    }

    pub(super) fn draw(&mut self, deck: Deck) -> Option<Card> {
        let me = self.current.index();
        let card = match deck {
            Deck::Troop => self.troop_deck.pop().map(Card::Troop),
            Deck::Tactic => self.tactic_deck.pop().map(Card::Tactic),
        }?;
        self.hands[me].push(card);
        Some(card)
    }

    /// Whether the current player could play some troop card (the pass rule).
    pub fn troop_playable(&self) -> bool {
        let me = self.current;
        self.hands[me.index()]
            .iter()
            .any(|c| matches!(c, Card::Troop(_)))
            && self.flags.iter().any(|f| f.open_for(me))
    }

    fn pass(&mut self) -> Result<Vec<Event>, RuleError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase());
        }
        if self.troop_playable() {
            return Err(RuleError::TroopPlayable);
        }
        let player = self.current;
        let stuck = self.provable_flags(player).is_empty()
            && self
                .legal_commands()
                .iter()
                .all(|c| matches!(c, Command::Pass | Command::SortHand { .. }));
        self.stuck_passes = if stuck {
            self.stuck_passes.saturating_add(1)
        } else {
            0
        };
        if self.stuck_passes >= 2 {
            // The position repeats forever: nothing the other player did since its own
            // stuck pass changed the table.
            self.phase = Phase::Stalemate;
            return Ok(vec![Event::Passed { player }, Event::Stalemate]);
        }
        self.phase = Phase::Finish { may_draw: false };
        Ok(vec![Event::Passed { player }])
    }

    fn draw_and_end(&mut self, deck: Deck) -> Result<Vec<Event>, RuleError> {
        if self.phase != (Phase::Finish { may_draw: true }) {
            return Err(self.wrong_phase());
        }
        if self.draw(deck).is_none() {
            return Err(RuleError::DeckEmpty { deck });
        }
        let player = self.current;
        let mut events = vec![Event::CardDrawn { player, deck }];
        events.push(self.end_turn());
        Ok(events)
    }

    fn end_turn_command(&mut self) -> Result<Vec<Event>, RuleError> {
        match self.phase {
            Phase::Finish { may_draw } if !may_draw || !self.any_deck() => {
                Ok(vec![self.end_turn()])
            }
            Phase::Finish { .. } => Err(RuleError::MustDraw),
            _ => Err(self.wrong_phase()),
        }
    }

    fn end_turn(&mut self) -> Event {
        self.cards_played_this_turn.clear();
        self.active_guile_tactic = None;
        self.current = self.current.opponent();
        self.phase = Phase::Play;
        Event::TurnEnded { next: self.current }
    }
}
