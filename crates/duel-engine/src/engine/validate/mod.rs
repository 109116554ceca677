//! Validation: whether a command may be given now (and why not) and the legal commands.
//!
//! Also the answers a prompt accepts and whether an effect may be activated. The
//! submodules hold what effects also ask: Synchro materials and selections (`selection`),
//! activation conditions (`conditions`), card filters and zones (`filters`).

mod conditions;
mod filters;
mod selection;

pub(crate) use filters::{opt_key, printed_match};

use crate::card::{CardDef, Frame as CardFrame};
use crate::command::{Command, Response};
use crate::effect::{Constraint, EffectKind, RuleDef};
use crate::error::{BadResponse, RuleError, Unmet};
use crate::state::{
    CardId, CardInstance, Duel, EndStep, Face, Locals, Location, Phase, Player, PromptState,
    ZONE_SLOTS,
};

use super::def_of;

impl Duel {
    /// Whether `cmd` would be accepted now, and why not.
    pub fn validate(&self, cmd: &Command) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if let Command::Respond(r) = cmd {
            return self.validate_response(r);
        }
        if self.prompt.is_some() {
            return Err(RuleError::PromptPending);
        }
        match *cmd {
            Command::SummonMonster { card } | Command::SetMonster { card } => {
                self.validate_normal_summon(card)
            }
            Command::SetSpellTrap { card } => self.validate_set_spell_trap(card),
            Command::ActivateSpell { card } => self.validate_card_activation(card),
            Command::ActivateEffect { card } => self.validate_ignition(card),
            Command::SynchroSummon { card } => self.validate_synchro(card),
            Command::PassChain => {
                if self.chain.is_empty() || self.resolving {
                    Err(RuleError::NoChain)
                } else {
                    Ok(())
                }
            }
            Command::EndTurn | Command::AdvancePhase => {
                if !self.chain.is_empty() {
                    Err(RuleError::ChainOpen)
                } else if self.phase == Phase::End && self.end_step != EndStep::Open {
                    Err(RuleError::WrongPhase)
                } else {
                    Ok(())
                }
            }
            Command::Respond(_) => Ok(()),
        }
    }

    /// Every command the player may give now. While a card selection is pending the
    /// answers are described by the prompt in [`Duel::view`] instead (their number
    /// grows with the subsets); answers to option prompts are listed here.
    pub fn legal_commands(&self) -> Vec<Command> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        if let Some(p) = &self.prompt {
            return self
                .prompt_options(&p.state)
                .into_iter()
                .map(|i| Command::Respond(Response::Option(i)))
                .collect();
        }
        let mut out = Vec::new();
        self.each_command(|cmd| {
            if self.validate(cmd).is_ok() {
                out.push(cmd.clone());
            }
        });
        out
    }

    /// Calls `f` with every command that might be legal now outside a prompt (a card of
    /// yours, by where it is, then the commands that name no card), in the order
    /// [`Duel::legal_commands`] lists them.
    pub(crate) fn each_command(&self, mut f: impl FnMut(&Command)) {
        for (i, c) in self.cards.iter().enumerate() {
            if c.controller != Player::You {
                continue;
            }
            let card = CardId(i as u16);
            // Only the commands the card's kind and face allow (what `validate` checks
            // first): a monster is summoned or Set from the hand, a Spell or Trap Set or
            // activated; on the field a face-down Spell or Trap is activated, a face-up
            // card's effect.
            let monster = def_of(c.code).is_monster();
            let candidates: &[Command] = match c.location {
                Location::Hand if monster => &[
                    Command::SummonMonster { card },
                    Command::SetMonster { card },
                ],
                Location::Hand => &[
                    Command::SetSpellTrap { card },
                    Command::ActivateSpell { card },
                ],
                l if l.is_field() && c.face == Face::Up => &[Command::ActivateEffect { card }],
                Location::SpellTrapZone(_) | Location::FieldZone if !monster => {
                    &[Command::ActivateSpell { card }]
                }
                Location::ExtraDeck => &[Command::SynchroSummon { card }],
                _ => &[],
            };
            candidates.iter().for_each(&mut f);
        }
        [Command::PassChain, Command::AdvancePhase, Command::EndTurn]
            .iter()
            .for_each(f);
    }

    /// The values an option prompt accepts (card selections are not options).
    pub(crate) fn prompt_options(&self, p: &PromptState) -> Vec<u8> {
        match p {
            PromptState::Cards { .. } => Vec::new(),
            PromptState::Mode { options, .. } => options.clone(),
            PromptState::UseTrigger { .. } | PromptState::Position { .. } => vec![0, 1],
            PromptState::Order { items, .. } => (0..items.len() as u8).collect(),
        }
    }

    fn own_card(&self, id: CardId) -> Result<&CardInstance, RuleError> {
        match self.cards.get(id.index()) {
            Some(c) if c.controller == Player::You => Ok(c),
            _ => Err(RuleError::NoSuchCard),
        }
    }

    fn open_main_phase(&self) -> Result<(), RuleError> {
        if !self.chain.is_empty() {
            return Err(RuleError::ChainOpen);
        }
        if self.phase != Phase::Main1 {
            return Err(RuleError::WrongPhase);
        }
        Ok(())
    }

    /// The definition of a card of yours in hand, when cards may be placed from the hand.
    fn placeable_from_hand(&self, id: CardId) -> Result<&'static CardDef, RuleError> {
        let c = self.own_card(id)?;
        self.open_main_phase()?;
        if c.location != Location::Hand {
            return Err(RuleError::NotInHand);
        }
        Ok(def_of(c.code))
    }

    /// Monsters of `p` that may be Tributed.
    pub(crate) fn tributable_monsters(&self, p: Player) -> usize {
        self.player(p)
            .monsters
            .iter()
            .flatten()
            .filter(|&&id| {
                !def_of(self.cards[id.index()].code)
                    .has_rule(|r| matches!(r, RuleDef::CannotBeTributed))
            })
            .count()
    }

    fn validate_normal_summon(&self, id: CardId) -> Result<(), RuleError> {
        let def = self.placeable_from_hand(id)?;
        if !def.is_monster() {
            return Err(RuleError::NotAMonster);
        }
        if def.is_extra_deck() || def.frame == CardFrame::Token {
            return Err(RuleError::CannotNormalSummon);
        }
        let me = self.player(Player::You);
        if me.normal_summon_used >= me.normal_summon_limit {
            return Err(RuleError::NoNormalSummonLeft);
        }
        let need = def.tributes_needed();
        if self.tributable_monsters(Player::You) < need {
            return Err(RuleError::NotEnoughTributes { need });
        }
        let on_field = me.monsters.iter().flatten().count();
        if need == 0 && on_field >= ZONE_SLOTS {
            return Err(RuleError::ZoneFull);
        }
        Ok(())
    }

    fn validate_set_spell_trap(&self, id: CardId) -> Result<(), RuleError> {
        let def = self.placeable_from_hand(id)?;
        if def.is_monster() {
            return Err(RuleError::NotASpellOrTrap);
        }
        if !def.is_field_spell() && self.free_spell_trap_slot(Player::You).is_none() {
            return Err(RuleError::ZoneFull);
        }
        Ok(())
    }

    pub(crate) fn validate_card_activation(&self, id: CardId) -> Result<(), RuleError> {
        let c = self.own_card(id)?;
        let def = def_of(c.code);
        if def.is_monster() {
            return Err(RuleError::NotASpellOrTrap);
        }
        match c.location {
            Location::Hand => {
                if def.is_trap() {
                    return Err(RuleError::TrapFromHand);
                }
                if !def.is_field_spell() && self.free_spell_trap_slot(Player::You).is_none() {
                    return Err(RuleError::ZoneFull);
                }
            }
            Location::SpellTrapZone(_) | Location::FieldZone if c.face == Face::Down => {
                if c.placed_this_turn && def.activation_speed() >= 2 {
                    return Err(RuleError::SetThisTurn);
                }
            }
            _ => return Err(RuleError::NotActivatable),
        }
        let idx = self
            .effect_index(id, EffectKind::Activation)
            .ok_or(RuleError::NoEffect)?;
        self.validate_timing(def.activation_speed(), false)?;
        self.validate_effect(id, def, idx)
    }

    fn validate_ignition(&self, id: CardId) -> Result<(), RuleError> {
        let c = self.own_card(id)?;
        if !c.location.is_field() || c.face != Face::Up {
            return Err(RuleError::NoEffect);
        }
        let def = def_of(c.code);
        let idx = self
            .effect_index(id, EffectKind::Ignition)
            .ok_or(RuleError::NoEffect)?;
        self.validate_timing(1, true)?;
        self.validate_effect(id, def, idx)
    }

    /// Spell speed 1 only starts a chain in an open Main Phase; speed 2 may also respond,
    /// and may start a chain in the End Phase while the player still has priority.
    fn validate_timing(&self, speed: u8, ignition: bool) -> Result<(), RuleError> {
        if !self.chain.is_empty() {
            return if speed < 2 {
                Err(RuleError::SpellSpeedTooLow)
            } else {
                Ok(())
            };
        }
        match self.phase {
            Phase::Main1 => Ok(()),
            Phase::End if speed >= 2 && !ignition && self.end_step == EndStep::Open => Ok(()),
            _ => Err(RuleError::WrongPhase),
        }
    }

    /// Once-per-turn limits, activation conditions, modes and oaths of one effect.
    pub(crate) fn validate_effect(
        &self,
        id: CardId,
        def: &CardDef,
        idx: u8,
    ) -> Result<(), RuleError> {
        let eff = &def.effects[usize::from(idx)];
        if let Some(key) = opt_key(id, def.code, idx, eff.once_per_turn)
            && self.used_opt.contains(&key)
        {
            return Err(RuleError::OncePerTurn);
        }
        let ctrl = self.cards[id.index()].controller;
        if eff.special_summons(&def.effects) && !self.can_special_summon(ctrl) {
            return Err(RuleError::Unmet(Unmet::CannotSpecialSummon));
        }
        for cond in &eff.conditions {
            self.check(cond, id, ctrl, &Locals::default())
                .map_err(RuleError::Unmet)?;
        }
        if !eff.modes.is_empty() && self.available_modes(id, def, idx).is_empty() {
            return Err(RuleError::Unmet(Unmet::NoValidCards));
        }
        Ok(())
    }

    pub(crate) fn available_modes(&self, id: CardId, def: &CardDef, idx: u8) -> Vec<u8> {
        let ctrl = self.cards[id.index()].controller;
        def.effects[usize::from(idx)]
            .modes
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                m.conditions
                    .iter()
                    .all(|c| self.check(c, id, ctrl, &Locals::default()).is_ok())
            })
            .map(|(i, _)| i as u8)
            .collect()
    }

    pub(crate) fn effect_index(&self, id: CardId, kind: EffectKind) -> Option<u8> {
        let c = self.cards.get(id.index())?;
        def_of(c.code)
            .effects
            .iter()
            .position(|e| e.kind == kind)
            .map(|i| i as u8)
    }

    fn validate_response(&self, r: &Response) -> Result<(), RuleError> {
        let Some(prompt) = &self.prompt else {
            return Err(RuleError::NoPrompt);
        };
        match (&prompt.state, r) {
            (
                PromptState::Cards {
                    candidates,
                    min,
                    max,
                    constraint,
                    ..
                },
                Response::Cards(chosen),
            ) => {
                if chosen.len() < usize::from(*min) || chosen.len() > usize::from(*max) {
                    return Err(RuleError::BadResponse(BadResponse::WrongCount {
                        min: *min,
                        max: *max,
                    }));
                }
                for (i, id) in chosen.iter().enumerate() {
                    if !candidates.contains(id) {
                        return Err(RuleError::BadResponse(BadResponse::NotACandidate));
                    }
                    if chosen[..i].contains(id) {
                        return Err(RuleError::BadResponse(BadResponse::Duplicate));
                    }
                }
                if let (Some(c), Some(src)) = (constraint, prompt.source)
                    && !self.constraint_holds(chosen, c, src)
                {
                    let why = match c {
                        Constraint::SynchroMaterials => self
                            .synchro_miss(chosen, src)
                            .map_or(BadResponse::BadCombination, BadResponse::Synchro),
                        Constraint::CountIsLevelOf { .. } => BadResponse::BadCombination,
                    };
                    return Err(RuleError::BadResponse(why));
                }
                Ok(())
            }
            (PromptState::Cards { .. }, Response::Option(_)) | (_, Response::Cards(_)) => {
                Err(RuleError::BadResponse(BadResponse::WrongKind))
            }
            (state, Response::Option(i)) => {
                if self.prompt_options(state).contains(i) {
                    Ok(())
                } else {
                    Err(RuleError::BadResponse(BadResponse::NoSuchOption))
                }
            }
        }
    }
}
