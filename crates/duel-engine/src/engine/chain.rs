//! Activation and the chain: playing cards from the hand, Normal Summons, activating
//! cards and effects, chain links and their resolution, and trigger effects (collected
//! from game events, asked about, ordered and put on a new chain once the chain in
//! which their events happened has resolved).

use crate::card::SpellType;
use crate::effect::{Dest, EffectKind, Filter, Max, Purpose, Reg, Step, Timing, TriggerOn};
use crate::event::{Event, GameEvent, MoveReason};
use crate::state::{
    CardId, ChainLink, Duel, Face, Frame, FrameKind, Held, Locals, Location, OrderOf,
    PendingTrigger, Player, Position, Program, Prompt, PromptState, TriggerBuild,
};

use super::def_of;
use super::movement::{How, To};
use super::validate::opt_key;

impl Duel {
    // ------------------------------------------------------------- summons

    pub(crate) fn normal_summon(&mut self, id: CardId, set: bool) {
        let need = def_of(self.cards[id.index()].code).tributes_needed();
        self.player_mut(Player::You).normal_summon_used += 1;
        if need == 0 {
            self.place_normal_summon(id, set);
            return;
        }
        self.frames.push(Frame {
            kind: FrameKind::Tribute { card: id, set },
            source: id,
            controller: Player::You,
            steps: vec![
                Step::Select {
                    from: crate::effect::Source::MonsterZone,
                    filter: Filter {
                        tributable: Some(true),
                        ..Filter::default()
                    },
                    min: need as u8,
                    max: Max::N(need as u8),
                    into: Reg::A,
                    purpose: Purpose::Tribute,
                    exclude_self: false,
                    constraint: None,
                },
                Step::Move {
                    reg: Reg::A,
                    to: Dest::Tribute,
                },
            ]
            .into(),
            pc: 0,
            locals: Locals::default(),
        });
    }

    /// Puts a Normal Summoned (face-up Attack) or Set (face-down Defense) monster on the field.
    pub(crate) fn place_normal_summon(&mut self, id: CardId, set: bool) {
        let (face, position, reason, summon) = if set {
            (Face::Down, Position::Defense, MoveReason::Set, None)
        } else {
            (
                Face::Up,
                Position::Attack,
                MoveReason::Summon,
                Some(crate::effect::SummonKind::Normal),
            )
        };
        let how = How {
            summon,
            ..How::new(reason, Some(id))
        };
        self.move_cards(
            &[id],
            To::Monster {
                player: Player::You,
                face,
                position,
            },
            how,
        );
    }

    /// Starts a Synchro Summon: the materials are chosen and sent to the graveyard, then
    /// the monster is summoned (a game action: no chain).
    pub(crate) fn synchro_summon(&mut self, id: CardId) {
        let mut locals = Locals::default();
        locals.regs.insert(Reg::C, [self.held(id)]);
        self.frames.push(Frame {
            kind: FrameKind::Synchro { card: id },
            source: id,
            controller: Player::You,
            steps: vec![
                Step::Select {
                    from: crate::effect::Source::MonsterZone,
                    filter: Filter {
                        face_up: Some(true),
                        ..Filter::default()
                    },
                    min: 2,
                    max: Max::N(crate::state::ZONE_SLOTS as u8),
                    into: Reg::A,
                    purpose: Purpose::SynchroMaterial,
                    exclude_self: false,
                    constraint: Some(crate::effect::Constraint::SynchroMaterials),
                },
                Step::Move {
                    reg: Reg::A,
                    to: Dest::Material,
                },
                Step::SpecialSummon {
                    reg: Reg::C,
                    position: crate::effect::SummonPosition::Choose,
                    owners_field: false,
                    together: false,
                },
            ]
            .into(),
            pc: 0,
            locals,
        });
    }

    pub(crate) fn set_spell_trap(&mut self, id: CardId) {
        self.place_spell(id, Face::Down, MoveReason::Set);
    }

    /// Puts a spell/trap from the hand on the field; a field spell replaces the old one.
    fn place_spell(&mut self, id: CardId, face: Face, reason: MoveReason) {
        let owner = self.cards[id.index()].controller;
        let to = if def_of(self.cards[id.index()].code).is_field_spell() {
            if let Some(old) = self.player(owner).field_zone {
                self.move_cards(&[old], To::Graveyard, How::new(MoveReason::Rule, Some(id)));
            }
            To::FieldZone {
                player: owner,
                face,
            }
        } else {
            To::SpellTrap {
                player: owner,
                face,
            }
        };
        self.move_cards(&[id], to, How::new(reason, Some(id)));
    }

    // ---------------------------------------------------------- activation

    /// Activates effect `idx` of a card: plays a spell from the hand (or flips a Set
    /// one), uses up its once-per-turn limit and runs its costs; the link joins the
    /// chain when they are done.
    pub(crate) fn activate(&mut self, id: CardId, idx: u8) {
        let code = self.cards[id.index()].code;
        let def = def_of(code);
        let eff = &def.effects[usize::from(idx)];
        if eff.kind == EffectKind::Activation {
            if self.cards[id.index()].location == Location::Hand {
                self.place_spell(id, Face::Up, MoveReason::Play);
            } else {
                // A Set card on the field (never one in a pile: the piles' memos of the
                // solver's key read the cards' faces).
                debug_assert!(self.cards[id.index()].location.is_field());
                self.cards[id.index()].face = Face::Up;
            }
        }
        if let Some(key) = opt_key(id, code, idx, eff.once_per_turn) {
            self.used_opt.push(key);
        }
        let controller = self.cards[id.index()].controller;
        self.push_event(Event::Activated {
            player: controller,
            card: code,
            kind: eff.kind,
            link: self.chain.len() as u8 + 1,
        });
        let spell_card = eff.kind == EffectKind::Activation && def.is_spell();
        let witnesses = if spell_card {
            self.counter_holders()
        } else {
            Vec::new()
        };
        let link = ChainLink {
            card: id,
            controller,
            effect: idx,
            mode: None,
            speed: if eff.kind == EffectKind::Activation {
                def.activation_speed()
            } else {
                1
            },
            no_responses: eff.no_responses,
            spell_card,
            witnesses,
            locals: Locals::default(),
        };
        self.frames.push(Frame {
            kind: FrameKind::Activation(link),
            source: id,
            controller,
            steps: Program::Card(&eff.cost),
            pc: 0,
            locals: Locals::default(),
        });
        if !eff.modes.is_empty() {
            let options = self.available_modes(id, def, idx);
            self.prompt = Some(Prompt {
                source: Some(id),
                state: PromptState::Mode {
                    card: id,
                    effect: idx,
                    options,
                },
            });
        }
    }

    /// Face-up cards on the field that take Spell Counters.
    fn counter_holders(&self) -> Vec<Held> {
        self.players
            .iter()
            .flat_map(|p| p.monsters.iter().chain(p.spell_trap.iter()).flatten())
            .filter(|&&id| {
                let c = &self.cards[id.index()];
                c.face == Face::Up && def_of(c.code).spell_counter_max().is_some()
            })
            .map(|&id| self.held(id))
            .collect()
    }

    /// A link whose costs are paid joins the chain; the player may then respond, unless
    /// more simultaneous triggers are still being put on the chain.
    pub(crate) fn push_link(&mut self, link: ChainLink) {
        let no_responses = link.no_responses;
        self.chain.push(link);
        if self
            .trigger_build
            .as_ref()
            .is_some_and(|b| !b.ready.is_empty())
        {
            return;
        }
        self.resolving =
            no_responses || !self.settings.chain_confirmation || !self.can_activate_any();
    }

    /// Whether the player could activate some card now (respond to the chain, or act in
    /// the End Phase).
    pub(crate) fn can_activate_any(&self) -> bool {
        self.cards.iter().enumerate().any(|(i, c)| {
            c.controller == Player::You
                && (c.location == Location::Hand || c.location.is_field())
                && self.validate_card_activation(CardId(i as u16)).is_ok()
        })
    }

    pub(crate) fn resolve_top_link(&mut self) {
        let number = self.chain.len() as u8;
        let Some(link) = self.chain.pop() else {
            return;
        };
        let code = self.cards[link.card.index()].code;
        let eff = &def_of(code).effects[usize::from(link.effect)];
        let steps = match link.mode {
            Some(m) => eff
                .modes
                .get(usize::from(m))
                .map_or(&[][..], |m| m.resolve.as_slice()),
            None => eff.resolve.as_slice(),
        };
        self.push_event(Event::Resolving {
            card: code,
            link: number,
        });
        let locals = link.locals.clone();
        self.frames.push(Frame {
            kind: FrameKind::Resolution(link.clone()),
            source: link.card,
            controller: link.controller,
            steps: Program::Card(steps),
            pc: 0,
            locals,
        });
    }

    /// After a link resolved: Spell Counters for a resolved Spell Card, then a Normal or
    /// Quick-Play Spell (or an Equip Spell that equipped nothing) leaves the field.
    pub(crate) fn finish_resolution(&mut self, link: ChainLink) {
        if link.spell_card {
            for w in &link.witnesses {
                let c = &self.cards[w.id.index()];
                if c.stamp != w.stamp || !c.location.is_field() || c.face != Face::Up {
                    continue;
                }
                let Some(max) = def_of(c.code).spell_counter_max() else {
                    continue;
                };
                if c.counters < max {
                    let code = c.code;
                    let counters = c.counters + 1;
                    self.cards[w.id.index()].counters = counters;
                    self.push_event(Event::CountersChanged {
                        card: code,
                        counters,
                    });
                }
            }
        }
        let c = &self.cards[link.card.index()];
        let def = def_of(c.code);
        let card_activation = def.effects[usize::from(link.effect)].kind == EffectKind::Activation;
        let unequipped = def.sub == Some(SpellType::Equip) && c.equipped_to.is_none();
        if card_activation
            && c.location.is_field()
            && c.face == Face::Up
            && (def.leaves_after_resolving() || unequipped)
        {
            self.move_cards(
                &[link.card],
                To::Graveyard,
                How::new(MoveReason::Rule, Some(link.card)),
            );
        }
    }

    // ------------------------------------------------------------ triggers

    /// Records the trigger effects a game event starts.
    pub(crate) fn collect_triggers(&mut self, ev: &GameEvent) {
        let own = def_of(ev.code);
        for (i, eff) in own.effects.iter().enumerate() {
            let Some(t) = &eff.trigger else { continue };
            let fires = match &t.on {
                TriggerOn::SentFromFieldToGraveyard => {
                    ev.from.is_field() && ev.to == Location::Graveyard
                }
                TriggerOn::Summoned { how } => {
                    ev.summon.is_some_and(|k| how.iter().any(|&p| k.matches(p)))
                }
                TriggerOn::OtherSynchroSummoned | TriggerOn::WatchedMonsterToGraveyard => false,
            };
            if fires {
                self.pend(ev.card, i as u8, ev.seq);
            }
        }
        self.fire_watchers(ev);
        if ev.summon == Some(crate::effect::SummonKind::Synchro) {
            let watchers: Vec<(CardId, u8)> = self
                .players
                .iter()
                .flat_map(|p| p.monsters.iter().flatten())
                .filter(|&&id| id != ev.card && self.cards[id.index()].face == Face::Up)
                .flat_map(|&id| {
                    def_of(self.cards[id.index()].code)
                        .effects
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| {
                            e.trigger
                                .as_ref()
                                .is_some_and(|t| t.on == TriggerOn::OtherSynchroSummoned)
                        })
                        .map(move |(i, _)| (id, i as u8))
                })
                .collect();
            for (id, i) in watchers {
                self.pend(id, i, ev.seq);
            }
        }
    }

    /// Armed watchers whose event this is fire, once each: a monster sent from the
    /// watcher's side of the field to the watcher's own graveyard (ruling 5.8, Last Will:
    /// a monster it controls but the opponent owns goes to the opponent's graveyard and
    /// does not count).
    fn fire_watchers(&mut self, ev: &GameEvent) {
        if !matches!(ev.from, Location::MainMonsterZone(_)) || ev.to != Location::Graveyard {
            return;
        }
        let turn = self.turn;
        // A card in a graveyard is its owner's: `to_player` names whose graveyard it is.
        let fires = |w: &crate::state::Watcher| {
            w.turn == turn && w.controller == ev.from_player && w.controller == ev.to_player
        };
        let fired: Vec<_> = self.watchers.iter().filter(|w| fires(w)).cloned().collect();
        if fired.is_empty() {
            return;
        }
        self.watchers.retain(|w| !fires(w));
        for w in fired {
            self.pend(w.card, w.effect, ev.seq);
        }
    }

    fn pend(&mut self, card: CardId, effect: u8, seq: u32) {
        let c = &self.cards[card.index()];
        self.triggers.push(PendingTrigger {
            card,
            stamp: c.stamp,
            effect,
            seq,
            controller: c.controller,
        });
    }

    /// The chain has closed: triggers that can still be activated are sorted into
    /// mandatory and optional ones; an optional "when" trigger whose event was not the
    /// last thing that happened has missed its timing.
    pub(crate) fn start_trigger_build(&mut self) {
        let pending = std::mem::take(&mut self.triggers);
        let mut build = TriggerBuild::default();
        for t in pending {
            if !self.trigger_can_activate(&t) {
                continue;
            }
            let code = self.cards[t.card.index()].code;
            let Some(def) = def_of(code).effects[usize::from(t.effect)].trigger.as_ref() else {
                continue;
            };
            if def.optional && def.timing == Timing::When && t.seq != self.last_happening {
                self.push_event(Event::MissedTiming { card: code });
                continue;
            }
            if def.optional {
                build.ask.push(t);
            } else {
                build.mandatory.push(t);
            }
        }
        self.trigger_build = Some(build);
    }

    /// The card has not moved since its event and the effect's conditions hold.
    fn trigger_can_activate(&self, t: &PendingTrigger) -> bool {
        let c = &self.cards[t.card.index()];
        c.stamp == t.stamp
            && self
                .validate_effect(t.card, def_of(c.code), t.effect)
                .is_ok()
    }

    /// One piece of work on the trigger chain: ask, order, or activate the next trigger.
    pub(crate) fn advance_trigger_build(&mut self) {
        let Some(build) = self.trigger_build.as_mut() else {
            return;
        };
        if let Some(t) = build.ask.first() {
            let card = t.card;
            self.prompt = Some(Prompt {
                source: Some(card),
                state: PromptState::UseTrigger { card },
            });
            return;
        }
        for group in [&mut build.mandatory, &mut build.optional] {
            match group.len() {
                0 => continue,
                1 => {
                    let t = group.remove(0);
                    build.ready.push(t);
                    return;
                }
                _ => {
                    let items = group.iter().map(|t| t.card).collect();
                    self.prompt = Some(Prompt {
                        source: None,
                        state: PromptState::Order {
                            of: OrderOf::Triggers,
                            items,
                        },
                    });
                    return;
                }
            }
        }
        if build.ready.is_empty() {
            self.trigger_build = None;
            return;
        }
        let t = build.ready.remove(0);
        if self.trigger_can_activate(&t) {
            self.activate(t.card, t.effect);
        } else if self
            .trigger_build
            .as_ref()
            .is_some_and(|b| b.ready.is_empty())
            && !self.chain.is_empty()
        {
            // The last trigger could not go on the chain: open the chain built so far.
            self.resolving = !self.settings.chain_confirmation || !self.can_activate_any();
        }
    }

    /// Answer to "use this optional trigger?".
    pub(crate) fn answer_use_trigger(&mut self, yes: bool) {
        if let Some(build) = self.trigger_build.as_mut()
            && !build.ask.is_empty()
        {
            let t = build.ask.remove(0);
            if yes {
                build.optional.push(t);
            }
        }
    }

    /// Answer to "which trigger is the next chain link?" (an index into the group
    /// being ordered: mandatory ones first, then optional ones).
    pub(crate) fn answer_trigger_order(&mut self, index: usize) {
        let Some(build) = self.trigger_build.as_mut() else {
            return;
        };
        let group = if build.mandatory.is_empty() {
            &mut build.optional
        } else {
            &mut build.mandatory
        };
        if index < group.len() {
            let t = group.remove(index);
            build.ready.push(t);
        }
    }
}
