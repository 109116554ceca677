//! The step interpreter: each step of the effect language, implemented once.

use std::rc::Rc;

use crate::card::SpellType;
use crate::effect::{Dest, Max, Reg, Restriction, Step, SummonKind, SummonPosition};
use crate::event::{Event, GameEvent, MoveReason};
use crate::state::{
    ActiveRestriction, CardId, Delayed, Duel, Face, FrameKind, Held, Locals, Position, Prompt,
    PromptState,
};

use super::movement::{How, To};
use super::{Flow, def_of};

/// How a Special Summon step places its monsters.
#[derive(Debug, Clone, Copy)]
struct Summon {
    position: SummonPosition,
    owners_field: bool,
    together: bool,
}

impl Duel {
    /// Runs the current step of the top frame.
    pub(crate) fn exec(&mut self, step: Step) -> Flow {
        let Some(frame) = self.frames.last() else {
            return Flow::Stop;
        };
        let (src, ctrl) = (frame.source, frame.controller);
        // Moves made while paying for an activation are costs; the rules' own programs
        // (tributes, hand size) say so themselves.
        let reason = match frame.kind {
            FrameKind::Activation(_) => MoveReason::Cost,
            FrameKind::Tribute { .. } => MoveReason::Tribute,
            FrameKind::Synchro { .. } => MoveReason::Material,
            FrameKind::HandLimit => MoveReason::Rule,
            FrameKind::Resolution(_) | FrameKind::EndPhase => MoveReason::Effect,
        };
        let locals = frame.locals.clone();
        let did = match step {
            Step::Draw { who, n } => {
                let n = self.amount(n, &locals) as usize;
                self.draw(ctrl.resolve(who), n, Some(src)) == n
            }
            Step::DrawUntil { hand } => {
                let have = self.player(ctrl).hand.len();
                let n = usize::from(hand).saturating_sub(have);
                self.draw(ctrl, n, Some(src)) == n
            }
            Step::GainLp { who, amount } => {
                let amount = self.amount(amount, &locals);
                let p = ctrl.resolve(who);
                let ps = self.player_mut(p);
                ps.lp = ps.lp.saturating_add(amount);
                let lp = ps.lp;
                self.happen();
                self.push_event(Event::LpGained {
                    player: p,
                    amount,
                    lp,
                });
                true
            }
            Step::PayLp { amount } => {
                let amount = self.amount(amount, &locals);
                self.pay_lp(ctrl, amount);
                true
            }
            Step::Damage { who, amount } => {
                let amount = self.amount(amount, &locals);
                self.damage(ctrl.resolve(who), amount)
            }
            Step::Select {
                from,
                filter,
                min,
                max,
                into,
                purpose,
                exclude_self,
                constraint,
            } => {
                let candidates = self.zone_cards_where(from, src, ctrl, &locals, &|id| {
                    !(exclude_self && id == src) && self.matches(id, &filter, &locals)
                });
                let n = candidates.len();
                let max = match max {
                    Max::N(m) => usize::from(m).min(n),
                    Max::All => n,
                };
                let min = usize::from(min).min(max);
                if n == 0 {
                    self.push_event(Event::NoValidCards {
                        card: self.cards[src.index()].code,
                    });
                    self.set_reg(into, &[]);
                    self.set_did(false);
                    return Flow::Next;
                }
                let forced_ok = constraint
                    .as_ref()
                    .is_none_or(|c| self.constraint_holds(&candidates, c, src));
                if min == n && forced_ok {
                    // The choice is forced: take them all without asking.
                    self.set_reg(into, &candidates);
                    self.set_did(true);
                    return Flow::Next;
                }
                self.prompt = Some(Prompt {
                    source: self.prompt_source(),
                    state: PromptState::Cards {
                        candidates: candidates.into(),
                        min: min as u8,
                        max: max as u8,
                        purpose,
                        into,
                        constraint,
                    },
                });
                return Flow::Wait;
            }
            Step::OpponentSelectHand { n, into } => {
                let mut hand = self.player(ctrl.other()).hand.to_vec();
                self.rng.shuffle(&mut hand);
                hand.truncate(usize::from(n));
                let full = hand.len() == usize::from(n);
                self.set_reg(into, &hand);
                full
            }
            Step::Excavate { n, into } => {
                let deck = &self.player(ctrl).deck;
                let top: Vec<CardId> = deck.iter().rev().take(usize::from(n)).copied().collect();
                let cards = top.iter().map(|id| self.cards[id.index()].code).collect();
                let full = top.len() == usize::from(n);
                self.push_event(Event::Revealed {
                    player: ctrl,
                    cards,
                });
                self.set_reg(into, &top);
                full
            }
            Step::Move { reg, to } => {
                let ids = self.held_cards(&locals, reg);
                let wanted = locals.regs.get(&reg).map_or(0, <[Held]>::len);
                let (dest, discard, reason) = match to {
                    Dest::Hand => (To::Hand, false, reason),
                    Dest::Discard => (To::Graveyard, true, reason),
                    Dest::Graveyard => (To::Graveyard, false, reason),
                    Dest::Tribute => (To::Graveyard, false, MoveReason::Tribute),
                    Dest::Material => (To::Graveyard, false, MoveReason::Material),
                    Dest::Deck => (To::Deck, false, reason),
                    Dest::Banished => (To::Banished { face_down: false }, false, reason),
                    Dest::BanishedFaceDown => (To::Banished { face_down: true }, false, reason),
                };
                let how = How {
                    discard,
                    ..How::new(reason, Some(src))
                };
                let moved = self.move_cards(&ids, dest, how);
                let all = moved.len() == wanted;
                self.set_reg_moved(reg, &moved);
                all
            }
            Step::MoveHand { who, to, into } => {
                let ids = self.player(ctrl.resolve(who)).hand.clone();
                let (dest, discard) = match to {
                    Dest::Discard => (To::Graveyard, true),
                    Dest::Graveyard | Dest::Tribute | Dest::Material => (To::Graveyard, false),
                    Dest::Hand => (To::Hand, false),
                    Dest::Deck => (To::Deck, false),
                    Dest::Banished => (To::Banished { face_down: false }, false),
                    Dest::BanishedFaceDown => (To::Banished { face_down: true }, false),
                };
                let how = How {
                    discard,
                    ..How::new(reason, Some(src))
                };
                let moved = self.move_cards(&ids, dest, how);
                let all = moved.len() == ids.len();
                if let Some(reg) = into {
                    self.set_reg_moved(reg, &moved);
                }
                all
            }
            Step::DestroySelf => {
                if self.cards[src.index()].location.is_field() {
                    let moved = self.move_cards(
                        &[src],
                        To::Graveyard,
                        How::new(MoveReason::Destroy, Some(src)),
                    );
                    !moved.is_empty()
                } else {
                    false
                }
            }
            Step::ShuffleDeck => {
                let mut deck = std::mem::take(&mut self.player_mut(ctrl).deck).to_vec();
                // The shuffle's result depends only on what a player can tell apart:
                // which copy of a card went back to the deck, and where it was, change
                // nothing (the cards are put in a fixed order by what they are first).
                super::sort_cards(&mut deck, |id| self.cards[id.index()].kind_key());
                self.rng.shuffle(&mut deck);
                self.player_mut(ctrl).deck = deck.into();
                self.push_event(Event::Shuffled { player: ctrl });
                true
            }
            Step::SpecialSummon {
                reg,
                position,
                owners_field,
                together,
            } => {
                if !self.can_special_summon(ctrl) {
                    self.set_reg(reg, &[]);
                    false
                } else {
                    let how = Summon {
                        position,
                        owners_field,
                        together,
                    };
                    return self.special_summon(reg, how, &locals, src, ctrl);
                }
            }
            Step::CreateToken { code, position } => {
                if !self.can_special_summon(ctrl) || self.free_monster_slot(ctrl).is_none() {
                    false
                } else {
                    // The step runs again after the position is chosen: the Token
                    // made the first time is still waiting, off the field.
                    let waiting = self.held_cards(&locals, Reg::C).into_iter().find(|&id| {
                        let c = &self.cards[id.index()];
                        c.code == code && c.location == crate::state::Location::Vanished
                    });
                    let token = match waiting {
                        Some(t) => t,
                        None => self.create_token(code, ctrl),
                    };
                    self.set_reg(Reg::C, &[token]);
                    let how = Summon {
                        position,
                        owners_field: false,
                        together: false,
                    };
                    let mut with_token = locals.clone();
                    with_token.regs.insert(Reg::C, [self.held(token)]);
                    return self.special_summon(Reg::C, how, &with_token, src, ctrl);
                }
            }
            Step::ExcavateUntil {
                filter,
                found,
                rest,
            } => {
                let deck: Vec<CardId> = self.player(ctrl).deck.iter().rev().copied().collect();
                let hit = deck
                    .iter()
                    .position(|&id| self.matches(id, &filter, &locals));
                let upto = hit.map_or(deck.len(), |i| i + 1);
                let shown: Vec<CardId> = deck[..upto].to_vec();
                let cards = shown.iter().map(|id| self.cards[id.index()].code).collect();
                self.push_event(Event::Revealed {
                    player: ctrl,
                    cards,
                });
                let (hit_card, above): (Vec<CardId>, Vec<CardId>) = match hit {
                    Some(i) => (vec![shown[i]], shown[..i].to_vec()),
                    None => (Vec::new(), shown),
                };
                self.set_reg(found, &hit_card);
                self.set_reg(rest, &above);
                hit.is_some()
            }
            Step::Split { reg, filter, into } => {
                let (matching, others): (Vec<CardId>, Vec<CardId>) = self
                    .held_cards(&locals, reg)
                    .into_iter()
                    .partition(|&id| self.matches(id, &filter, &locals));
                let any = !matching.is_empty();
                self.set_reg(into, &matching);
                self.set_reg(reg, &others);
                any
            }
            Step::OpponentDeclaresLevel => {
                let level = self.likeliest_level(ctrl);
                if let Some(f) = self.frames.last_mut() {
                    f.locals.declared = Some(u32::from(level));
                }
                self.push_event(Event::LevelDeclared {
                    player: ctrl.other(),
                    level,
                });
                true
            }
            Step::Watch { effect } => {
                self.watchers.push(crate::state::Watcher {
                    card: src,
                    effect,
                    controller: ctrl,
                    turn: self.turn,
                });
                true
            }
            Step::Equip { reg } => self.equip(src, &locals, reg),
            Step::RemoveCounters { n } => {
                let c = &mut self.cards[src.index()];
                let full = c.counters >= n;
                c.counters = c.counters.saturating_sub(n);
                let (code, counters) = (c.code, c.counters);
                self.happen();
                self.push_event(Event::CountersChanged {
                    card: code,
                    counters,
                });
                full
            }
            Step::ChangePosition { to } => {
                let c = &mut self.cards[src.index()];
                if c.position.is_some() && c.face == Face::Up && c.position != Some(to) {
                    c.position = Some(to);
                    let code = c.code;
                    self.happen();
                    self.push_event(Event::PositionChanged {
                        card: code,
                        position: to,
                    });
                    true
                } else {
                    false
                }
            }
            Step::Restrict { restriction } => {
                let until_turn = match restriction {
                    Restriction::NoDamage {
                        until_opponent_turn_end: true,
                        ..
                    } => self.turn + 1,
                    _ => self.turn,
                };
                self.restrictions.push(ActiveRestriction {
                    controller: ctrl,
                    restriction,
                    until_turn,
                });
                self.push_event(Event::Restricted {
                    player: ctrl,
                    restriction,
                });
                true
            }
            Step::AtEndPhase { steps } => {
                self.delayed.push(Delayed {
                    source: src,
                    controller: ctrl,
                    steps: steps.into(),
                    locals,
                });
                true
            }
            Step::StopUnless { condition } => {
                if self.check(&condition, src, ctrl, &locals).is_err() {
                    self.push_event(Event::Fizzled {
                        card: self.cards[src.index()].code,
                    });
                    return Flow::Stop;
                }
                true
            }
            Step::IfYouDid => {
                if !locals.did {
                    return Flow::Stop;
                }
                true
            }
            Step::UnlessYouDid => {
                if locals.did {
                    return Flow::Stop;
                }
                true
            }
        };
        self.set_did(did);
        let seq = self.seq;
        if let Some(f) = self.frames.last_mut() {
            f.locals.last_seq = Some(seq);
        }
        Flow::Next
    }

    /// The Level the scarecrow opponent declares against you: the most common among the
    /// Normal Summonable monsters left in your deck (it knows the deck list, not the
    /// order), the lowest on a tie; 1 when none is left.
    fn likeliest_level(&self, p: crate::state::Player) -> u8 {
        let mut counts = [0u8; 13];
        for &id in &self.player(p).deck {
            let d = def_of(self.cards[id.index()].code);
            if d.is_monster() && !d.is_extra_deck() {
                let l = usize::from(d.level()).min(12);
                counts[l] = counts[l].saturating_add(1);
            }
        }
        (1u8..=12)
            .max_by_key(|&l| (counts[usize::from(l)], std::cmp::Reverse(l)))
            .filter(|&l| counts[usize::from(l)] > 0)
            .unwrap_or(1)
    }

    /// A new Token instance, not on the field yet (the summon puts it there).
    fn create_token(&mut self, code: crate::card::Code, p: crate::state::Player) -> CardId {
        let id = CardId(self.cards.len() as u16);
        let mut token = crate::state::CardInstance::new(code, p, Face::Up);
        token.location = crate::state::Location::Vanished;
        self.cards.push(token);
        id
    }

    /// Who asks a card prompt: the effect's card, or nobody for the rules' own programs.
    fn prompt_source(&self) -> Option<CardId> {
        self.frames.last().and_then(|f| match f.kind {
            FrameKind::HandLimit => None,
            _ => Some(f.source),
        })
    }

    fn set_reg(&mut self, reg: Reg, ids: &[CardId]) {
        self.set_held(reg, self.held_all(ids));
    }

    /// Puts the cards that moved in `reg`, as they are now.
    fn set_reg_moved(&mut self, reg: Reg, moved: &[GameEvent]) {
        let held: Rc<[Held]> = moved.iter().map(|e| self.held(e.card)).collect();
        self.set_held(reg, held);
    }

    fn set_held(&mut self, reg: Reg, held: Rc<[Held]>) {
        if let Some(f) = self.frames.last_mut() {
            f.locals.regs.insert(reg, held);
        }
    }

    fn set_did(&mut self, did: bool) {
        if let Some(f) = self.frames.last_mut() {
            f.locals.did = did;
        }
    }

    /// The register's cards that have not moved since they were put there.
    pub(crate) fn held_cards(&self, locals: &Locals, reg: Reg) -> Vec<CardId> {
        locals
            .regs
            .get(&reg)
            .map(|v| {
                v.iter()
                    .filter(|h| self.cards[h.id.index()].stamp == h.stamp)
                    .map(|h| h.id)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Draws up to `n` cards; drawing from an empty deck loses at the next state check.
    /// Returns how many were drawn.
    pub(crate) fn draw(&mut self, p: crate::state::Player, n: usize, by: Option<CardId>) -> usize {
        let deck = &self.player(p).deck;
        let ids: Vec<CardId> = deck.iter().rev().take(n).copied().collect();
        if ids.len() < n {
            self.player_mut(p).drew_from_empty = true;
        }
        if n == 0 {
            return 0;
        }
        if ids.is_empty() {
            self.push_event(Event::Drew {
                player: p,
                count: 0,
            });
            return 0;
        }
        self.move_cards(&ids, To::Hand, How::new(MoveReason::Draw, by))
            .len()
    }

    /// Special Summons the register's cards, asking each one's position first when the
    /// player chooses it (the step runs again after every answer). Within one step the
    /// monsters are summoned together (one event number).
    fn special_summon(
        &mut self,
        reg: Reg,
        how: Summon,
        locals: &Locals,
        src: CardId,
        ctrl: crate::state::Player,
    ) -> Flow {
        // Each monster goes to its owner's field or to yours, while zones are free.
        let mut free = [0usize; 2];
        for p in [crate::state::Player::You, crate::state::Player::Opponent] {
            free[p.index()] = self
                .player(p)
                .monsters
                .iter()
                .filter(|s| s.is_none())
                .count();
        }
        let mut placed: Vec<(CardId, crate::state::Player)> = Vec::new();
        for id in self.held_cards(locals, reg) {
            let p = if how.owners_field {
                self.cards[id.index()].owner
            } else {
                ctrl
            };
            if free[p.index()] > 0 {
                free[p.index()] -= 1;
                placed.push((id, p));
            }
        }
        if how.position == SummonPosition::Choose
            && let Some(&(card, _)) = placed
                .iter()
                .find(|(id, p)| *p == ctrl && !locals.positions.iter().any(|(c, _)| c == id))
        {
            self.prompt = Some(Prompt {
                source: Some(src),
                state: PromptState::Position { card },
            });
            return Flow::Wait;
        }
        let moves: Vec<(CardId, To)> = placed
            .into_iter()
            .map(|(id, p)| {
                let pos = match how.position {
                    SummonPosition::Attack => Position::Attack,
                    SummonPosition::Defense => Position::Defense,
                    SummonPosition::Choose => locals
                        .positions
                        .iter()
                        .find(|(c, _)| *c == id)
                        .map_or(Position::Attack, |(_, p)| *p),
                };
                let to = To::Monster {
                    player: p,
                    face: Face::Up,
                    position: pos,
                };
                (id, to)
            })
            .collect();
        let kind = match self.frames.last().map(|f| &f.kind) {
            Some(FrameKind::Synchro { .. }) => SummonKind::Synchro,
            _ => SummonKind::Special,
        };
        let summon = How {
            summon: Some(kind),
            ..How::new(MoveReason::Summon, Some(src))
        };
        let summoned = match locals.last_seq.filter(|_| how.together) {
            Some(seq) => self.move_each_at(&moves, summon, seq),
            None => self.move_each(&moves, summon),
        };
        let wanted = locals.regs.get(&reg).map_or(0, <[Held]>::len);
        let all = summoned.len() == wanted && wanted > 0;
        self.set_reg_moved(reg, &summoned);
        if let Some(f) = self.frames.last_mut() {
            f.locals.positions.clear();
        }
        self.set_did(all);
        let seq = self.seq;
        if let Some(f) = self.frames.last_mut() {
            f.locals.last_seq = Some(seq);
        }
        Flow::Next
    }

    /// Equips `src` to the register's first monster if it is still a face-up monster on
    /// the field.
    fn equip(&mut self, src: CardId, locals: &Locals, reg: Reg) -> bool {
        let Some(target) = self.held_cards(locals, reg).first().copied() else {
            return false;
        };
        let t = &self.cards[target.index()];
        let s = &self.cards[src.index()];
        let ok = matches!(t.location, crate::state::Location::MainMonsterZone(_))
            && t.face == Face::Up
            && s.location.is_field()
            && def_of(s.code).sub == Some(SpellType::Equip);
        if !ok {
            return false;
        }
        let (code, to) = (s.code, t.code);
        self.cards[src.index()].equipped_to = Some(target);
        self.happen();
        self.push_event(Event::Equipped { card: code, to });
        true
    }
}
