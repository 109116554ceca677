//! Validation: whether a command may be given now (and why not), the list of legal
//! commands, activation conditions, card filters and the zones effects look at.

use crate::card::{CardDef, Frame as CardFrame};
use crate::command::{Command, Response};
use crate::effect::{
    Amount, Condition, Constraint, EffectKind, Filter, OncePerTurn, Restriction, RuleDef,
    SelfInHand, Source,
};
use crate::error::{BadResponse, RuleError, SynchroMiss, Unmet};
use crate::state::{
    CardId, CardInstance, Duel, EndStep, Face, Locals, Location, OptKey, Phase, Player,
    PromptState, ZONE_SLOTS,
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
        for (i, c) in self.cards.iter().enumerate() {
            if c.controller != Player::You {
                continue;
            }
            let card = CardId(i as u16);
            let candidates: &[Command] = match c.location {
                Location::Hand => &[
                    Command::SummonMonster { card },
                    Command::SetMonster { card },
                    Command::SetSpellTrap { card },
                    Command::ActivateSpell { card },
                ],
                l if l.is_field() => &[
                    Command::ActivateSpell { card },
                    Command::ActivateEffect { card },
                ],
                Location::ExtraDeck => &[Command::SynchroSummon { card }],
                _ => &[],
            };
            out.extend(
                candidates
                    .iter()
                    .filter(|cmd| self.validate(cmd).is_ok())
                    .cloned(),
            );
        }
        for cmd in [Command::PassChain, Command::AdvancePhase, Command::EndTurn] {
            if self.validate(&cmd).is_ok() {
                out.push(cmd);
            }
        }
        out
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

    fn validate_synchro(&self, id: CardId) -> Result<(), RuleError> {
        let c = self.own_card(id)?;
        let def = def_of(c.code);
        if c.location != Location::ExtraDeck || def.frame != CardFrame::Synchro {
            return Err(RuleError::NotASynchro);
        }
        self.open_main_phase()?;
        if !self.can_special_summon(Player::You) {
            return Err(RuleError::Unmet(Unmet::CannotSpecialSummon));
        }
        let materials = self.zone_cards(Source::MonsterZone, id, Player::You, &Locals::default());
        let materials: Vec<CardId> = materials
            .into_iter()
            .filter(|&m| self.cards[m.index()].face == Face::Up)
            .collect();
        if self.selection_exists(&materials, 2, ZONE_SLOTS, &Constraint::SynchroMaterials, id) {
            Ok(())
        } else {
            Err(RuleError::Unmet(Unmet::NoValidCombination))
        }
    }

    /// Whether `chosen` satisfies a selection constraint (`src`: the card that asks).
    pub(crate) fn constraint_holds(&self, chosen: &[CardId], c: &Constraint, src: CardId) -> bool {
        match c {
            Constraint::CountIsLevelOf { zone, filter } => {
                let n = chosen.len();
                let ctrl = self.cards[src.index()].controller;
                self.zone_cards(*zone, src, ctrl, &Locals::default())
                    .into_iter()
                    .any(|id| {
                        self.matches(id, filter, &Locals::default())
                            && usize::from(def_of(self.cards[id.index()].code).level()) == n
                    })
            }
            Constraint::SynchroMaterials => self.synchro_miss(chosen, src).is_none(),
        }
    }

    /// What `chosen` lacks as Synchro Material for the Synchro monster `src` (a Tuner,
    /// the number of non-Tuners, the Level total), or `None` when it fits.
    pub(crate) fn synchro_miss(&self, chosen: &[CardId], src: CardId) -> Option<SynchroMiss> {
        let synchro = def_of(self.cards[src.index()].code);
        let Some(rule) = synchro.monster.as_ref().and_then(|m| m.synchro) else {
            // Not a Synchro monster: nothing fits; say the first thing it would need.
            return Some(SynchroMiss::NoTuner);
        };
        let tuners = chosen
            .iter()
            .filter(|&&id| def_of(self.cards[id.index()].code).is_tuner())
            .count();
        let others = (chosen.len() - tuners.min(1)).min(usize::from(u8::MAX)) as u8;
        let levels: u32 = chosen
            .iter()
            .map(|&id| u32::from(def_of(self.cards[id.index()].code).level()))
            .sum();
        if tuners == 0 {
            Some(SynchroMiss::NoTuner)
        } else if tuners > 1 {
            Some(SynchroMiss::TooManyTuners {
                have: tuners.min(usize::from(u8::MAX)) as u8,
            })
        } else if others < rule.non_tuners_min {
            Some(SynchroMiss::TooFewNonTuners {
                need: rule.non_tuners_min,
                have: others,
            })
        } else if let Some(max) = rule.non_tuners_max.filter(|&m| others > m) {
            Some(SynchroMiss::TooManyNonTuners { max, have: others })
        } else if levels != u32::from(synchro.level()) {
            Some(SynchroMiss::Levels {
                need: synchro.level(),
                have: levels,
            })
        } else {
            None
        }
    }

    /// Whether some choice of `min`..=`max` of the candidates satisfies the constraint.
    pub(crate) fn selection_exists(
        &self,
        candidates: &[CardId],
        min: usize,
        max: usize,
        c: &Constraint,
        src: CardId,
    ) -> bool {
        let max = max.min(candidates.len());
        if let Constraint::CountIsLevelOf { .. } = c {
            // Only the number chosen matters.
            return (min..=max).any(|n| self.constraint_holds(&candidates[..n], c, src));
        }
        // Few candidates (at most the monster zones): try every subset.
        let n = candidates.len().min(16);
        (0u32..(1 << n)).any(|mask| {
            let k = mask.count_ones() as usize;
            if k < min || k > max {
                return false;
            }
            let chosen: Vec<CardId> = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| candidates[i])
                .collect();
            self.constraint_holds(&chosen, c, src)
        })
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

    // ------------------------------------------------------------ conditions

    fn hand_count(&self, p: Player, this_card: Option<CardId>) -> usize {
        self.player(p)
            .hand
            .iter()
            .filter(|&&id| Some(id) != this_card)
            .count()
    }

    /// Whether `p` may Special Summon now (no oath forbids it).
    pub(crate) fn can_special_summon(&self, p: Player) -> bool {
        !self.restrictions.iter().any(|r| {
            r.controller == p
                && r.restriction == Restriction::NoSpecialSummon
                && self.turn <= r.until_turn
        })
    }

    pub(crate) fn check(
        &self,
        cond: &Condition,
        this: CardId,
        ctrl: Player,
        locals: &Locals,
    ) -> Result<(), Unmet> {
        match *cond {
            Condition::DeckAtLeast { who, n } => {
                let p = ctrl.resolve(who);
                let have = self.player(p).deck.len();
                if have >= usize::from(n) {
                    Ok(())
                } else if p == ctrl {
                    Err(Unmet::DeckTooSmall { need: n, have })
                } else {
                    Err(Unmet::OpponentDeckTooSmall { need: n, have })
                }
            }
            Condition::HandAtLeast { who, n, this_card } => {
                let p = ctrl.resolve(who);
                let excluded = match this_card {
                    SelfInHand::Counts => false,
                    SelfInHand::Excluded => true,
                    SelfInHand::BySetting => !self.settings.into_the_void_counts_itself,
                };
                let have = self.hand_count(p, excluded.then_some(this));
                if have >= usize::from(n) {
                    Ok(())
                } else if p == ctrl {
                    Err(Unmet::HandTooSmall { need: n, have })
                } else {
                    Err(Unmet::OpponentHandTooSmall { need: n, have })
                }
            }
            Condition::HandAtMostOthers { n } => {
                let have = self.hand_count(ctrl, Some(this));
                if have <= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::HandTooLarge { max: n, have })
                }
            }
            Condition::CanDrawUntil { hand } => {
                let others = self.hand_count(ctrl, Some(this));
                let need = usize::from(hand).saturating_sub(others);
                let have = self.player(ctrl).deck.len();
                if have >= need {
                    Ok(())
                } else {
                    Err(Unmet::DeckTooSmall {
                        need: need as u8,
                        have,
                    })
                }
            }
            Condition::Exists {
                zone,
                ref filter,
                n,
            } => {
                let count = self
                    .zone_cards_unordered(zone, this, ctrl, locals)
                    .into_iter()
                    .filter(|&id| self.matches(id, filter, locals))
                    .count();
                if count >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCards)
                }
            }
            Condition::OwnerCanSummon { zone, ref filter } => {
                let mut found = false;
                for id in self.zone_cards_unordered(zone, this, ctrl, locals) {
                    if !self.matches(id, filter, locals) {
                        continue;
                    }
                    found = true;
                    let owner = self.cards[id.index()].owner;
                    if self.can_special_summon(owner) && self.free_monster_slot(owner).is_some() {
                        return Ok(());
                    }
                }
                Err(if found {
                    Unmet::NoFreeZone
                } else {
                    Unmet::NoValidCards
                })
            }
            Condition::OthersInHand { ref filter, n } => {
                let have = self
                    .player(ctrl)
                    .hand
                    .iter()
                    .filter(|&&id| id != this && self.matches(id, filter, locals))
                    .count();
                if have >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::HandTooSmall { need: n, have })
                }
            }
            Condition::LpAtLeast { n } => {
                let have = self.player(ctrl).lp;
                if have >= n {
                    Ok(())
                } else {
                    Err(Unmet::LpTooLow { need: n, have })
                }
            }
            Condition::NoSpecialSummonThisTurn => {
                if self.player(ctrl).special_summoned_this_turn {
                    Err(Unmet::SpecialSummonedThisTurn)
                } else {
                    Ok(())
                }
            }
            Condition::FreeMonsterZones { n } => {
                let free = self
                    .player(ctrl)
                    .monsters
                    .iter()
                    .filter(|s| s.is_none())
                    .count();
                if free >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoFreeZone)
                }
            }
            Condition::CountersAtLeast { n } => {
                let have = self.cards[this.index()].counters;
                if have >= n {
                    Ok(())
                } else {
                    Err(Unmet::TooFewCounters { need: n, have })
                }
            }
            Condition::Holds { reg, n } => {
                if self.held_cards(locals, reg).len() >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCards)
                }
            }
            Condition::CanSelect {
                from,
                ref filter,
                min,
                max,
                ref constraint,
            } => {
                let candidates: Vec<CardId> = self
                    .zone_cards(from, this, ctrl, locals)
                    .into_iter()
                    .filter(|&id| self.matches(id, filter, locals))
                    .collect();
                if self.selection_exists(
                    &candidates,
                    usize::from(min),
                    usize::from(max),
                    constraint,
                    this,
                ) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCombination)
                }
            }
            Condition::ThisOnField => {
                let c = &self.cards[this.index()];
                if c.location.is_field() && c.face == Face::Up {
                    Ok(())
                } else {
                    Err(Unmet::NotOnField)
                }
            }
        }
    }

    /// Whether a card matches a filter (values in it are computed from `locals`).
    pub(crate) fn matches(&self, id: CardId, f: &Filter, locals: &Locals) -> bool {
        let Some(c) = self.cards.get(id.index()) else {
            return false;
        };
        let d = def_of(c.code);
        let m = d.monster.as_ref();
        let level_is = f.level_is.map(|a| self.amount(a, locals));
        printed_match(d, f)
            && level_is.is_none_or(|l| m.is_some_and(|m| u32::from(m.level) == l))
            && f.face_up.is_none_or(|up| (c.face == Face::Up) == up)
            && f.tributable.is_none_or(|t| {
                t == (m.is_some() && !d.has_rule(|r| matches!(r, RuleDef::CannotBeTributed)))
            })
            && f.summonable.is_none_or(|s| s == self.summonable(c))
            && f.normal_summonable.is_none_or(|s| {
                s == (m.is_some() && !d.is_extra_deck() && d.frame != CardFrame::Token)
            })
    }

    /// Whether a monster could be Special Summoned from where it is: Tokens never; an
    /// Extra Deck monster from the graveyard or banishment only if it was properly
    /// summoned; a face-down banished card never.
    fn summonable(&self, c: &CardInstance) -> bool {
        let d = def_of(c.code);
        if !d.is_monster() || d.frame == CardFrame::Token {
            return false;
        }
        match c.location {
            Location::Banished if c.face == Face::Down => false,
            Location::Graveyard | Location::Banished if d.is_extra_deck() => {
                c.summoned.is_some_and(|s| s.proper)
            }
            _ => true,
        }
    }

    /// The cards of a zone seen from `ctrl` (or of a register), in a stable order that
    /// does not reveal the deck order (what prompts show).
    pub(crate) fn zone_cards(
        &self,
        zone: Source,
        this: CardId,
        ctrl: Player,
        locals: &Locals,
    ) -> Vec<CardId> {
        let mut cards = self.zone_cards_unordered(zone, this, ctrl, locals);
        if zone == Source::Deck {
            super::sort_cards(&mut cards, |id| (self.cards[id.index()].code, id));
        }
        cards
    }

    /// The cards of a zone in storage order, for counting (conditions).
    pub(crate) fn zone_cards_unordered(
        &self,
        zone: Source,
        this: CardId,
        ctrl: Player,
        locals: &Locals,
    ) -> Vec<CardId> {
        let ps = self.player(ctrl);
        let opp = self.player(ctrl.other());
        match zone {
            Source::Hand => ps.hand.clone(),
            Source::Deck => ps.deck.clone(),
            Source::Graveyard => ps.graveyard.clone(),
            Source::Banished => ps.banished.clone(),
            Source::ExtraDeck => ps.extra.clone(),
            Source::MonsterZone => ps.monsters.iter().flatten().copied().collect(),
            Source::SpellTrapZone => ps
                .spell_trap
                .iter()
                .flatten()
                .chain(ps.field_zone.iter())
                .copied()
                .collect(),
            Source::OpponentGraveyard => opp.graveyard.clone(),
            Source::EitherGraveyard => ps.graveyard.iter().chain(&opp.graveyard).copied().collect(),
            Source::EitherMonsterZone => ps
                .monsters
                .iter()
                .chain(opp.monsters.iter())
                .flatten()
                .copied()
                .collect(),
            Source::EitherBanished => ps.banished.iter().chain(&opp.banished).copied().collect(),
            Source::EquippedMonster => self.cards[this.index()]
                .equipped_to
                .filter(|&m| self.cards[m.index()].controller == ctrl)
                .into_iter()
                .collect(),
            Source::This => vec![this],
            Source::Reg { reg } => self.held_cards(locals, reg),
        }
    }

    pub(crate) fn free_spell_trap_slot(&self, p: Player) -> Option<usize> {
        self.player(p).spell_trap.iter().position(Option::is_none)
    }

    pub(crate) fn free_monster_slot(&self, p: Player) -> Option<usize> {
        self.player(p).monsters.iter().position(Option::is_none)
    }

    /// A value of the effect language, computed now.
    pub(crate) fn amount(&self, a: Amount, locals: &Locals) -> u32 {
        let first = |reg| {
            locals
                .regs
                .get(&reg)
                .and_then(|v| v.first())
                .map(|h| &self.cards[h.id.index()])
        };
        match a {
            Amount::Fixed(n) => n,
            Amount::Declared => locals.declared.unwrap_or(0),
            Amount::Count(reg) => locals.regs.get(&reg).map_or(0, |v| v.len() as u32),
            Amount::Level(reg) => first(reg).map_or(0, |c| {
                u32::from(
                    c.last_known
                        .filter(|_| !c.location.is_field())
                        .map_or(def_of(c.code).level(), |k| k.level),
                )
            }),
            Amount::HalfAtk(reg) => first(reg).map_or(0, |c| {
                let atk = if c.location.is_field() {
                    locals
                        .regs
                        .get(&reg)
                        .and_then(|v| v.first())
                        .map_or(0, |h| self.current_atk(h.id))
                } else {
                    c.last_known.map_or(def_of(c.code).atk(), |k| k.atk)
                };
                u32::from(atk) / 2
            }),
        }
    }

    /// A monster's ATK now: printed ATK plus the bonuses of face-up equip cards on it.
    pub(crate) fn current_atk(&self, id: CardId) -> u16 {
        let bonus: u16 = self
            .equips_of(id)
            .into_iter()
            .filter(|&e| self.cards[e.index()].face == Face::Up)
            .flat_map(|e| def_of(self.cards[e.index()].code).rules.iter())
            .map(|r| match r {
                RuleDef::EquipAtkBonus { atk } => *atk,
                _ => 0,
            })
            .sum();
        def_of(self.cards[id.index()].code)
            .atk()
            .saturating_add(bonus)
    }
}

pub(crate) fn opt_key(
    id: CardId,
    code: crate::card::Code,
    idx: u8,
    opt: Option<OncePerTurn>,
) -> Option<OptKey> {
    match opt? {
        OncePerTurn::Card => Some(OptKey::Card(id, idx)),
        OncePerTurn::Name => Some(OptKey::Name(code)),
    }
}

/// Whether a card of definition `d` passes the parts of `f` that read only what the card
/// is (type, frame, stats, name), not its state or the effect's registers.
pub(crate) fn printed_match(d: &CardDef, f: &Filter) -> bool {
    let m = d.monster.as_ref();
    f.card_type.is_none_or(|t| d.card_type == t)
        && f.monster.is_none_or(|is| d.is_monster() == is)
        && f.frame.is_none_or(|fr| d.frame == fr)
        && f.sub.is_none_or(|s| d.sub == Some(s))
        && f.max_atk.is_none_or(|a| m.is_some_and(|m| m.atk <= a))
        && f.max_def.is_none_or(|a| m.is_some_and(|m| m.def <= a))
        && f.level.is_none_or(|l| m.is_some_and(|m| m.level == l))
        && f.max_level.is_none_or(|l| m.is_some_and(|m| m.level <= l))
        && f.name_contains_ja
            .as_ref()
            .is_none_or(|s| d.name_ja.contains(s.as_str()))
        && f.race
            .as_ref()
            .is_none_or(|r| m.is_some_and(|m| &m.race == r))
        && f.tuner.is_none_or(|t| m.is_some() && d.is_tuner() == t)
        && f.effect
            .is_none_or(|e| m.is_some() && d.is_effect_monster() == e)
}
