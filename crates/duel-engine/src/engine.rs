//! The rules: set-up, command validation, activation, the chain, the step interpreter,
//! state checks and the End Phase.

use seeded_rng::Rng;

use crate::card::{CardDef, Code, Frame as CardFrame, card};
use crate::command::{Command, Response};
use crate::effect::{
    Condition, Dest, EffectKind, Filter, Max, OncePerTurn, Purpose, Reg, Restriction, RuleDef,
    SelfInHand, Source, Step,
};
use crate::error::{BadResponse, RuleError, Unmet};
use crate::event::Event;
use crate::setup::SetupError;
use crate::state::{
    ActiveRestriction, CardId, CardInstance, ChainLink, Delayed, Duel, EndStep, Face, Frame,
    FrameKind, HAND_LIMIT, Locals, Location, OptKey, Outcome, Phase, Player, PlayerState, Position,
    PromptState, Reason, Settings, ZONE_SLOTS,
};

/// What the interpreter does after a step.
enum Flow {
    Next,
    Wait,
    Stop,
}

/// A card that must exist in the catalogue: instances are only ever created from known
/// codes (checked at set-up), so a missing definition is a broken invariant.
fn def_of(code: Code) -> &'static CardDef {
    match card(code) {
        Some(d) => d,
        // Set-up refuses unknown codes, so every instance has a definition.
        None => unreachable!("card {code} was admitted without a definition"),
    }
}

impl Duel {
    // ----------------------------------------------------------------- set-up

    /// Builds a duel from explicit card placements (used by [`crate::Setup`]).
    pub(crate) fn assemble(
        deck_id: String,
        seed: u64,
        settings: Settings,
        placed: Vec<(Code, Player, Location, Face)>,
        lp: [u32; 2],
        shuffle_decks: bool,
    ) -> Result<Duel, SetupError> {
        for &(code, ..) in &placed {
            if card(code).is_none() {
                return Err(SetupError::UnknownCard(code));
            }
        }
        let mut rng = Rng::new(seed);
        // Ids are handed out in a random order so that an id never tells which card it is.
        let mut order: Vec<usize> = (0..placed.len()).collect();
        rng.shuffle(&mut order);
        let mut duel = Duel {
            deck_id,
            seed,
            settings,
            cards: Vec::with_capacity(placed.len()),
            players: [PlayerState::new(), PlayerState::new()],
            phase: Phase::Draw,
            turn: 1,
            chain: Vec::new(),
            resolving: false,
            frames: Vec::new(),
            prompt: None,
            restrictions: Vec::new(),
            used_opt: Vec::new(),
            delayed: Vec::new(),
            end_step: EndStep::Delayed(0),
            rng,
            log: Vec::new(),
            outcome: None,
            events: Vec::new(),
        };
        duel.players[0].lp = lp[0];
        duel.players[1].lp = lp[1];
        for (new_id, &i) in order.iter().enumerate() {
            let (code, owner, location, face) = placed[i];
            let id = CardId(u16::try_from(new_id).map_err(|_| SetupError::TooManyCards)?);
            duel.cards.push(CardInstance {
                code,
                owner,
                location: Location::Deck,
                face,
                position: None,
                placed_this_turn: false,
            });
            duel.place_initial(id, owner, location, face)?;
        }
        // `order[new_id]` is a placement index; decks keep the placement order (top
        // first) unless they are shuffled.
        let mut id_of = vec![CardId(0); placed.len()];
        for (new_id, &i) in order.iter().enumerate() {
            id_of[i] = CardId(new_id as u16);
        }
        for p in [Player::You, Player::Opponent] {
            let mut deck: Vec<CardId> = placed
                .iter()
                .zip(&id_of)
                .filter(|((_, owner, location, _), _)| *owner == p && *location == Location::Deck)
                .map(|(_, &id)| id)
                .collect();
            // Stored bottom first.
            deck.reverse();
            if shuffle_decks {
                duel.rng.shuffle(&mut deck);
            }
            duel.player_mut(p).deck = deck;
        }
        Ok(duel)
    }

    fn place_initial(
        &mut self,
        id: CardId,
        owner: Player,
        location: Location,
        face: Face,
    ) -> Result<(), SetupError> {
        let def = def_of(self.cards[id.index()].code);
        let ps = &mut self.players[owner.index()];
        match location {
            // Decks are ordered afterwards.
            Location::Deck => {}
            Location::Hand => ps.hand.push(id),
            Location::Graveyard => ps.graveyard.push(id),
            Location::Banished => ps.banished.push(id),
            Location::ExtraDeck => ps.extra.push(id),
            Location::MainMonsterZone(_) => {
                let slot = ps
                    .monsters
                    .iter()
                    .position(Option::is_none)
                    .ok_or(SetupError::ZoneFull)?;
                ps.monsters[slot] = Some(id);
                let c = &mut self.cards[id.index()];
                c.location = Location::MainMonsterZone(slot as u8);
                c.position = Some(if face == Face::Up {
                    Position::Attack
                } else {
                    Position::Defense
                });
                return Ok(());
            }
            Location::SpellTrapZone(_) | Location::FieldZone => {
                if def.is_field_spell() {
                    if ps.field_zone.is_some() {
                        return Err(SetupError::ZoneFull);
                    }
                    ps.field_zone = Some(id);
                    self.cards[id.index()].location = Location::FieldZone;
                } else {
                    let slot = ps
                        .spell_trap
                        .iter()
                        .position(Option::is_none)
                        .ok_or(SetupError::ZoneFull)?;
                    ps.spell_trap[slot] = Some(id);
                    self.cards[id.index()].location = Location::SpellTrapZone(slot as u8);
                }
                return Ok(());
            }
        }
        self.cards[id.index()].location = location;
        Ok(())
    }

    /// Deals the opening hands and moves through the Draw and Standby Phases up to
    /// `stop_at` (Main Phase 1 in play). The first player does not draw in the first
    /// Draw Phase.
    pub(crate) fn open(&mut self, opening_hand: usize, stop_at: Phase) {
        for p in [Player::You, Player::Opponent] {
            self.draw(p, opening_hand);
        }
        self.events.clear();
        for phase in [Phase::Draw, Phase::Standby, Phase::Main1] {
            self.phase = phase;
            self.events.push(Event::PhaseChanged { phase });
            if phase == stop_at {
                break;
            }
        }
        // Exodia in the opening hand wins at once.
        self.state_check();
    }

    fn enter(&mut self, phase: Phase) {
        self.phase = phase;
        if phase == Phase::End {
            self.end_step = EndStep::Delayed(0);
        }
        self.events.push(Event::PhaseChanged { phase });
    }

    // ------------------------------------------------------------- commands

    /// Applies a command: validates it first (nothing changes on error), then runs the
    /// duel until the player must act again. Returns what happened.
    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        self.validate(&cmd)?;
        self.events.clear();
        self.log.push(cmd.clone());
        match cmd {
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
            Command::PassChain => self.resolving = true,
            Command::AdvancePhase => match self.phase {
                Phase::Draw => self.enter(Phase::Standby),
                Phase::Standby => self.enter(Phase::Main1),
                Phase::Main1 | Phase::End => self.enter(Phase::End),
            },
            Command::EndTurn => self.enter(Phase::End),
            Command::Respond(r) => self.respond(r),
        }
        self.run();
        Ok(self.events.clone())
    }

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
                } else if self.phase == Phase::End {
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
    /// grows with the subsets); mode choices are listed here.
    pub fn legal_commands(&self) -> Vec<Command> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        if let Some((_, PromptState::Mode { options })) = &self.prompt {
            return options
                .iter()
                .map(|&i| Command::Respond(Response::Option(i)))
                .collect();
        }
        if self.prompt.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, c) in self.cards.iter().enumerate() {
            if c.owner != Player::You {
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

    fn own_card(&self, id: CardId) -> Result<&CardInstance, RuleError> {
        match self.cards.get(id.index()) {
            Some(c) if c.owner == Player::You => Ok(c),
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
        let on_field = me.monsters.iter().flatten().count();
        if on_field < need {
            return Err(RuleError::NotEnoughTributes { need });
        }
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

    fn validate_card_activation(&self, id: CardId) -> Result<(), RuleError> {
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

    /// Spell speed 1 only starts a chain in an open Main Phase; speed 2 may also respond.
    fn validate_timing(&self, speed: u8, ignition: bool) -> Result<(), RuleError> {
        if self.chain.is_empty() {
            if self.phase != Phase::Main1 && (speed < 2 || ignition) {
                return Err(RuleError::WrongPhase);
            }
            if self.phase == Phase::End {
                return Err(RuleError::WrongPhase);
            }
            Ok(())
        } else if speed < 2 {
            Err(RuleError::SpellSpeedTooLow)
        } else {
            Ok(())
        }
    }

    fn validate_effect(&self, id: CardId, def: &CardDef, idx: u8) -> Result<(), RuleError> {
        let eff = &def.effects[usize::from(idx)];
        if let Some(key) = opt_key(id, def.code, idx, eff.once_per_turn)
            && self.used_opt.contains(&key)
        {
            return Err(RuleError::OncePerTurn);
        }
        for cond in &eff.conditions {
            self.check(cond, id, Player::You)
                .map_err(RuleError::Unmet)?;
        }
        if !eff.modes.is_empty() && self.available_modes(id, def, idx).is_empty() {
            return Err(RuleError::Unmet(Unmet::NoValidCards));
        }
        Ok(())
    }

    fn available_modes(&self, id: CardId, def: &CardDef, idx: u8) -> Vec<u8> {
        def.effects[usize::from(idx)]
            .modes
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                m.conditions
                    .iter()
                    .all(|c| self.check(c, id, Player::You).is_ok())
            })
            .map(|(i, _)| i as u8)
            .collect()
    }

    fn effect_index(&self, id: CardId, kind: EffectKind) -> Option<u8> {
        let c = self.cards.get(id.index())?;
        def_of(c.code)
            .effects
            .iter()
            .position(|e| e.kind == kind)
            .map(|i| i as u8)
    }

    fn validate_response(&self, r: &Response) -> Result<(), RuleError> {
        let Some((_, prompt)) = &self.prompt else {
            return Err(RuleError::NoPrompt);
        };
        match (prompt, r) {
            (
                PromptState::Cards {
                    candidates,
                    min,
                    max,
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
                Ok(())
            }
            (PromptState::Mode { options }, Response::Option(i)) => {
                if options.contains(i) {
                    Ok(())
                } else {
                    Err(RuleError::BadResponse(BadResponse::NoSuchOption))
                }
            }
            _ => Err(RuleError::BadResponse(BadResponse::WrongKind)),
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

    fn check(&self, cond: &Condition, this: CardId, ctrl: Player) -> Result<(), Unmet> {
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
                    .zone_cards(zone, ctrl, &Locals::default())
                    .into_iter()
                    .filter(|&id| self.matches(id, filter))
                    .count();
                if count >= usize::from(n) {
                    Ok(())
                } else {
                    Err(Unmet::NoValidCards)
                }
            }
            Condition::OthersInHand { ref filter, n } => {
                let have = self
                    .player(ctrl)
                    .hand
                    .iter()
                    .filter(|&&id| id != this && self.matches(id, filter))
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
        }
    }

    fn matches(&self, id: CardId, f: &Filter) -> bool {
        let Some(c) = self.cards.get(id.index()) else {
            return false;
        };
        let d = def_of(c.code);
        let m = d.monster.as_ref();
        f.card_type.is_none_or(|t| d.card_type == t)
            && f.frame.is_none_or(|fr| d.frame == fr)
            && f.sub.is_none_or(|s| d.sub == Some(s))
            && f.max_atk.is_none_or(|a| m.is_some_and(|m| m.atk <= a))
            && f.max_def.is_none_or(|a| m.is_some_and(|m| m.def <= a))
            && f.level.is_none_or(|l| m.is_some_and(|m| m.level == l))
            && f.max_level.is_none_or(|l| m.is_some_and(|m| m.level <= l))
            && f.name_contains_ja
                .as_ref()
                .is_none_or(|s| d.name_ja.contains(s.as_str()))
    }

    /// The cards of a zone of `p` (or of a register), in a stable order that does not
    /// reveal the deck order.
    fn zone_cards(&self, zone: Source, p: Player, locals: &Locals) -> Vec<CardId> {
        let ps = self.player(p);
        match zone {
            Source::Hand => ps.hand.clone(),
            Source::Deck => {
                let mut d = ps.deck.clone();
                d.sort_by_key(|&id| (self.cards[id.index()].code, id));
                d
            }
            Source::Graveyard => ps.graveyard.clone(),
            Source::MonsterZone => ps.monsters.iter().flatten().copied().collect(),
            Source::Reg { reg } => locals
                .regs
                .get(&reg)
                .map(|v| {
                    v.iter()
                        .filter(|(id, loc)| self.cards[id.index()].location == *loc)
                        .map(|(id, _)| *id)
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    fn free_spell_trap_slot(&self, p: Player) -> Option<usize> {
        self.player(p).spell_trap.iter().position(Option::is_none)
    }

    fn free_monster_slot(&self, p: Player) -> Option<usize> {
        self.player(p).monsters.iter().position(Option::is_none)
    }

    // --------------------------------------------------------------- actions

    fn normal_summon(&mut self, id: CardId, set: bool) {
        let need = def_of(self.cards[id.index()].code).tributes_needed();
        self.player_mut(Player::You).normal_summon_used += 1;
        if need == 0 {
            self.place_monster(id, set);
            return;
        }
        self.frames.push(Frame {
            kind: FrameKind::Tribute { card: id, set },
            source: id,
            controller: Player::You,
            steps: vec![
                Step::Select {
                    from: Source::MonsterZone,
                    filter: Filter::default(),
                    min: need as u8,
                    max: Max::N(need as u8),
                    into: Reg::A,
                    purpose: Purpose::Tribute,
                    exclude_self: false,
                },
                Step::Move {
                    reg: Reg::A,
                    to: Dest::Graveyard,
                },
            ],
            pc: 0,
            locals: Locals::default(),
        });
    }

    fn place_monster(&mut self, id: CardId, set: bool) {
        let Some(slot) = self.free_monster_slot(Player::You) else {
            return;
        };
        self.take(id);
        self.player_mut(Player::You).monsters[slot] = Some(id);
        let c = &mut self.cards[id.index()];
        c.location = Location::MainMonsterZone(slot as u8);
        c.face = if set { Face::Down } else { Face::Up };
        c.position = Some(if set {
            Position::Defense
        } else {
            Position::Attack
        });
        c.placed_this_turn = true;
        let code = c.code;
        self.events.push(if set {
            Event::MonsterSet {
                player: Player::You,
            }
        } else {
            Event::Summoned {
                player: Player::You,
                card: code,
            }
        });
    }

    fn set_spell_trap(&mut self, id: CardId) {
        self.place_spell(id, Face::Down);
        self.cards[id.index()].placed_this_turn = true;
        self.events.push(Event::SpellTrapSet {
            player: Player::You,
        });
    }

    /// Puts a spell/trap from the hand on the field; a field spell replaces the old one.
    fn place_spell(&mut self, id: CardId, face: Face) {
        let owner = self.cards[id.index()].owner;
        let field = def_of(self.cards[id.index()].code).is_field_spell();
        let location = if field {
            if let Some(old) = self.player(owner).field_zone {
                let code = self.cards[old.index()].code;
                self.move_to(old, Dest::Graveyard);
                self.events.push(Event::FieldSpellReplaced { card: code });
            }
            Location::FieldZone
        } else {
            match self.free_spell_trap_slot(owner) {
                Some(slot) => Location::SpellTrapZone(slot as u8),
                None => return,
            }
        };
        self.take(id);
        let ps = self.player_mut(owner);
        match location {
            Location::FieldZone => ps.field_zone = Some(id),
            Location::SpellTrapZone(s) => ps.spell_trap[usize::from(s)] = Some(id),
            _ => {}
        }
        let c = &mut self.cards[id.index()];
        c.location = location;
        c.face = face;
    }

    fn activate(&mut self, id: CardId, idx: u8) {
        let code = self.cards[id.index()].code;
        let def = def_of(code);
        let eff = &def.effects[usize::from(idx)];
        if eff.kind == EffectKind::Activation {
            if self.cards[id.index()].location == Location::Hand {
                self.place_spell(id, Face::Up);
            } else {
                self.cards[id.index()].face = Face::Up;
            }
        }
        if let Some(key) = opt_key(id, code, idx, eff.once_per_turn) {
            self.used_opt.push(key);
        }
        self.events.push(Event::Activated {
            player: Player::You,
            card: code,
            ignition: eff.kind == EffectKind::Ignition,
        });
        let link = ChainLink {
            card: id,
            controller: Player::You,
            effect: idx,
            mode: None,
            speed: if eff.kind == EffectKind::Activation {
                def.activation_speed()
            } else {
                1
            },
            no_responses: eff.no_responses,
            locals: Locals::default(),
        };
        self.frames.push(Frame {
            kind: FrameKind::Activation(link),
            source: id,
            controller: Player::You,
            steps: eff.cost.clone(),
            pc: 0,
            locals: Locals::default(),
        });
        if !eff.modes.is_empty() {
            let options = self.available_modes(id, def, idx);
            self.prompt = Some((id, PromptState::Mode { options }));
        }
    }

    fn respond(&mut self, r: Response) {
        let Some((_, prompt)) = self.prompt.take() else {
            return;
        };
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        match (prompt, r) {
            (PromptState::Cards { into, .. }, Response::Cards(chosen)) => {
                let regs: Vec<(CardId, Location)> = chosen
                    .into_iter()
                    .map(|id| (id, self.cards[id.index()].location))
                    .collect();
                frame.locals.regs.insert(into, regs);
                frame.pc += 1;
            }
            (PromptState::Mode { .. }, Response::Option(i)) => {
                if let FrameKind::Activation(link) = &mut frame.kind {
                    link.mode = Some(i);
                    let code = self.cards[link.card.index()].code;
                    self.events.push(Event::ModeChosen {
                        card: code,
                        mode: i,
                    });
                }
            }
            // validate_response refused every other pairing.
            _ => {}
        }
    }

    // --------------------------------------------------------------- the loop

    /// Runs frames, the chain and the End Phase until the player must act.
    fn run(&mut self) {
        loop {
            if self.outcome.is_some() {
                self.frames.clear();
                self.prompt = None;
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
            if !self.chain.is_empty() {
                if !self.resolving {
                    // The chain waits for the player's response or pass.
                    return;
                }
                self.resolve_top_link();
                continue;
            }
            self.resolving = false;
            if self.phase == Phase::End && self.advance_end_phase() {
                continue;
            }
            return;
        }
    }

    fn finish(&mut self, frame: Frame) {
        match frame.kind {
            FrameKind::Activation(mut link) => {
                link.locals = frame.locals;
                let no_responses = link.no_responses;
                self.chain.push(link);
                self.resolving = no_responses
                    || !self.settings.chain_confirmation
                    || !self.can_respond_to_chain();
            }
            FrameKind::Resolution(link) => {
                let c = &self.cards[link.card.index()];
                if c.location.is_field()
                    && c.face == Face::Up
                    && def_of(c.code).effects[usize::from(link.effect)].kind
                        == EffectKind::Activation
                    && def_of(c.code).leaves_after_resolving()
                {
                    self.move_to(link.card, Dest::Graveyard);
                }
            }
            FrameKind::Tribute { card, set } => self.place_monster(card, set),
            FrameKind::EndPhase | FrameKind::HandLimit => {}
        }
        self.state_check();
    }

    fn can_respond_to_chain(&self) -> bool {
        self.cards.iter().enumerate().any(|(i, c)| {
            c.owner == Player::You
                && (c.location == Location::Hand || c.location.is_field())
                && self.validate_card_activation(CardId(i as u16)).is_ok()
        })
    }

    fn resolve_top_link(&mut self) {
        let Some(link) = self.chain.pop() else {
            return;
        };
        let code = self.cards[link.card.index()].code;
        let eff = &def_of(code).effects[usize::from(link.effect)];
        let steps = match link.mode {
            Some(m) => eff
                .modes
                .get(usize::from(m))
                .map(|m| m.resolve.clone())
                .unwrap_or_default(),
            None => eff.resolve.clone(),
        };
        self.events.push(Event::Resolving { card: code });
        self.frames.push(Frame {
            kind: FrameKind::Resolution(link.clone()),
            source: link.card,
            controller: link.controller,
            steps,
            pc: 0,
            locals: link.locals,
        });
    }

    /// Moves the End Phase on by one piece of work; `false` when the turn is over.
    fn advance_end_phase(&mut self) -> bool {
        match self.end_step {
            EndStep::Delayed(i) if i < self.delayed.len() => {
                let d = self.delayed[i].clone();
                self.end_step = EndStep::Delayed(i + 1);
                self.events.push(Event::EndPhaseEffect {
                    card: self.cards[d.source.index()].code,
                });
                self.frames.push(Frame {
                    kind: FrameKind::EndPhase,
                    source: d.source,
                    controller: d.controller,
                    steps: d.steps,
                    pc: 0,
                    locals: Locals::default(),
                });
                true
            }
            EndStep::Delayed(_) => {
                self.end_step = EndStep::HandLimit;
                true
            }
            EndStep::HandLimit => {
                self.end_step = EndStep::Done;
                let excess = self
                    .player(Player::You)
                    .hand
                    .len()
                    .saturating_sub(HAND_LIMIT);
                if excess > 0 {
                    let source = self.player(Player::You).hand[0];
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
                            },
                            Step::Move {
                                reg: Reg::A,
                                to: Dest::Discard,
                            },
                        ],
                        pc: 0,
                        locals: Locals::default(),
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

    // ---------------------------------------------------------- the steps

    fn exec(&mut self, step: Step) -> Flow {
        let Some(frame) = self.frames.last() else {
            return Flow::Stop;
        };
        let (src, ctrl) = (frame.source, frame.controller);
        match step {
            Step::Draw { who, n } => self.draw(ctrl.resolve(who), usize::from(n)),
            Step::DrawUntil { hand } => {
                let have = self.player(ctrl).hand.len();
                self.draw(ctrl, usize::from(hand).saturating_sub(have));
            }
            Step::DrawCountOf { reg } => {
                let n = frame.locals.regs.get(&reg).map_or(0, Vec::len);
                self.draw(ctrl, n);
            }
            Step::GainLp { who, amount } => {
                let p = ctrl.resolve(who);
                let ps = self.player_mut(p);
                ps.lp = ps.lp.saturating_add(amount);
                let lp = ps.lp;
                self.events.push(Event::LpGained {
                    player: p,
                    amount,
                    lp,
                });
            }
            Step::PayLp { amount } => {
                let lp = self.lower_lp(ctrl, amount);
                self.events.push(Event::LpPaid {
                    player: ctrl,
                    amount,
                    lp,
                });
                self.lp_check();
            }
            Step::Damage { who, amount } => {
                let p = ctrl.resolve(who);
                self.damage(p, amount);
            }
            Step::Select {
                from,
                filter,
                min,
                max,
                into,
                purpose,
                exclude_self,
            } => {
                let candidates: Vec<CardId> = self
                    .zone_cards(from, ctrl, &frame.locals)
                    .into_iter()
                    .filter(|&id| !(exclude_self && id == src) && self.matches(id, &filter))
                    .collect();
                let n = candidates.len();
                let max = match max {
                    Max::N(m) => usize::from(m).min(n),
                    Max::All => n,
                };
                let min = usize::from(min).min(max);
                if n == 0 {
                    self.events.push(Event::NoValidCards {
                        card: self.cards[src.index()].code,
                    });
                    self.set_reg(into, Vec::new());
                    return Flow::Next;
                }
                if min == n {
                    // The choice is forced: take them all without asking.
                    self.set_reg(into, candidates);
                    return Flow::Next;
                }
                self.prompt = Some((
                    src,
                    PromptState::Cards {
                        candidates,
                        min: min as u8,
                        max: max as u8,
                        purpose,
                        into,
                    },
                ));
                return Flow::Wait;
            }
            Step::OpponentSelectHand { n, into } => {
                let mut hand = self.player(ctrl.other()).hand.clone();
                self.rng.shuffle(&mut hand);
                hand.truncate(usize::from(n));
                self.set_reg(into, hand);
            }
            Step::Excavate { n, into } => {
                let deck = &self.player(ctrl).deck;
                let top: Vec<CardId> = deck.iter().rev().take(usize::from(n)).copied().collect();
                let cards = top.iter().map(|id| self.cards[id.index()].code).collect();
                self.events.push(Event::Revealed {
                    player: ctrl,
                    cards,
                });
                self.set_reg(into, top);
            }
            Step::Move { reg, to } => {
                let ids: Vec<CardId> = frame
                    .locals
                    .regs
                    .get(&reg)
                    .map(|v| {
                        v.iter()
                            .filter(|(id, loc)| self.cards[id.index()].location == *loc)
                            .map(|(id, _)| *id)
                            .collect()
                    })
                    .unwrap_or_default();
                self.move_many(&ids, to);
            }
            Step::MoveHand { who, to } => {
                let ids = self.player(ctrl.resolve(who)).hand.clone();
                self.move_many(&ids, to);
            }
            Step::DestroySelf => {
                if self.cards[src.index()].location.is_field() {
                    let code = self.cards[src.index()].code;
                    self.move_to(src, Dest::Graveyard);
                    self.events.push(Event::Destroyed { card: code });
                }
            }
            Step::ShuffleDeck => {
                let mut deck = std::mem::take(&mut self.player_mut(ctrl).deck);
                self.rng.shuffle(&mut deck);
                self.player_mut(ctrl).deck = deck;
                self.events.push(Event::Shuffled { player: ctrl });
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
                self.events.push(Event::Restricted {
                    player: ctrl,
                    restriction,
                });
            }
            Step::AtEndPhase { steps } => self.delayed.push(Delayed {
                source: src,
                controller: ctrl,
                steps,
            }),
            Step::StopUnless { condition } => {
                if self.check(&condition, src, ctrl).is_err() {
                    self.events.push(Event::Fizzled {
                        card: self.cards[src.index()].code,
                    });
                    return Flow::Stop;
                }
            }
        }
        Flow::Next
    }

    fn set_reg(&mut self, reg: Reg, ids: Vec<CardId>) {
        let located: Vec<(CardId, Location)> = ids
            .into_iter()
            .map(|id| (id, self.cards[id.index()].location))
            .collect();
        if let Some(f) = self.frames.last_mut() {
            f.locals.regs.insert(reg, located);
        }
    }

    // --------------------------------------------------------- card movement

    fn draw(&mut self, p: Player, n: usize) {
        let mut drawn = 0u8;
        for _ in 0..n {
            let Some(id) = self.player_mut(p).deck.pop() else {
                self.player_mut(p).drew_from_empty = true;
                break;
            };
            self.player_mut(p).hand.push(id);
            let c = &mut self.cards[id.index()];
            c.location = Location::Hand;
            c.face = Face::Up;
            drawn += 1;
        }
        if n > 0 {
            self.events.push(Event::Drew {
                player: p,
                count: drawn,
            });
        }
    }

    /// Removes a card from wherever it is (its location field is left for the caller).
    fn take(&mut self, id: CardId) {
        let c = &self.cards[id.index()];
        let (owner, location) = (c.owner, c.location);
        if location.is_field() {
            // A card that leaves the field is a new card: its soft limits reset.
            self.used_opt
                .retain(|k| !matches!(k, OptKey::Card(cid, _) if *cid == id));
            let c = &mut self.cards[id.index()];
            c.placed_this_turn = false;
            c.position = None;
        }
        let ps = self.player_mut(owner);
        match location {
            Location::Deck => ps.deck.retain(|&x| x != id),
            Location::Hand => ps.hand.retain(|&x| x != id),
            Location::MainMonsterZone(s) => ps.monsters[usize::from(s)] = None,
            Location::SpellTrapZone(s) => ps.spell_trap[usize::from(s)] = None,
            Location::FieldZone => ps.field_zone = None,
            Location::Graveyard => ps.graveyard.retain(|&x| x != id),
            Location::Banished => ps.banished.retain(|&x| x != id),
            Location::ExtraDeck => ps.extra.retain(|&x| x != id),
        }
    }

    fn move_to(&mut self, id: CardId, dest: Dest) {
        self.take(id);
        let c = &mut self.cards[id.index()];
        let owner = c.owner;
        let extra = def_of(c.code).is_extra_deck();
        let (location, face) = match dest {
            Dest::Hand => (Location::Hand, Face::Up),
            Dest::Discard | Dest::Graveyard => (Location::Graveyard, Face::Up),
            Dest::Deck if extra => (Location::ExtraDeck, Face::Down),
            Dest::Deck => (Location::Deck, Face::Down),
            Dest::Banished => (Location::Banished, Face::Up),
        };
        c.location = location;
        c.face = face;
        let ps = self.player_mut(owner);
        match location {
            Location::Hand => ps.hand.push(id),
            Location::Graveyard => ps.graveyard.push(id),
            Location::Deck => ps.deck.push(id),
            Location::ExtraDeck => ps.extra.push(id),
            Location::Banished => ps.banished.push(id),
            _ => {}
        }
    }

    fn move_many(&mut self, ids: &[CardId], to: Dest) {
        if ids.is_empty() {
            return;
        }
        let mut by_owner: Vec<(Player, Vec<Code>)> = Vec::new();
        for &id in ids {
            let c = &self.cards[id.index()];
            let (owner, code) = (c.owner, c.code);
            match by_owner.iter_mut().find(|(p, _)| *p == owner) {
                Some((_, v)) => v.push(code),
                None => by_owner.push((owner, vec![code])),
            }
            self.move_to(id, to);
        }
        for (player, cards) in by_owner {
            self.events.push(if to == Dest::Deck {
                Event::ReturnedToDeck {
                    player,
                    count: cards.len() as u8,
                }
            } else {
                Event::Moved { player, to, cards }
            });
        }
    }

    // ------------------------------------------------ damage and state checks

    fn damage_prevented(&self, target: Player) -> bool {
        let by_restriction = self.restrictions.iter().any(|r| {
            matches!(r.restriction, Restriction::NoDamage { who, .. } if r.controller.resolve(who) == target)
                && self.turn <= r.until_turn
        });
        let by_rule = [Player::You, Player::Opponent].iter().any(|&p| {
            self.player(p).field_zone.is_some_and(|id| {
                let c = &self.cards[id.index()];
                c.face == Face::Up
                    && def_of(c.code)
                        .rules
                        .iter()
                        .any(|r| matches!(r, RuleDef::LowerLpTakesNoDamage))
                    && self.player(target).lp < self.player(target.other()).lp
            })
        });
        by_restriction || by_rule
    }

    /// Takes LP away (never below 0) and returns what is left; the caller reports why.
    fn lower_lp(&mut self, p: Player, amount: u32) -> u32 {
        let ps = self.player_mut(p);
        ps.lp = ps.lp.saturating_sub(amount);
        ps.lp
    }

    fn damage(&mut self, p: Player, amount: u32) {
        if self.damage_prevented(p) {
            self.events
                .push(Event::DamagePrevented { player: p, amount });
            return;
        }
        let lp = self.lower_lp(p, amount);
        self.events.push(Event::Damaged {
            player: p,
            amount,
            lp,
        });
        self.lp_check();
    }

    fn has_all_pieces(&self, p: Player) -> bool {
        let hand = &self.player(p).hand;
        let codes: Vec<Code> = hand.iter().map(|id| self.cards[id.index()].code).collect();
        codes.iter().any(|&code| {
            def_of(code).rules.iter().any(|r| match r {
                RuleDef::WinWithAllInHand { pieces } => pieces.iter().all(|pc| codes.contains(pc)),
                RuleDef::LowerLpTakesNoDamage => false,
            })
        })
    }

    fn exodia_check(&mut self) {
        match (
            self.has_all_pieces(Player::You),
            self.has_all_pieces(Player::Opponent),
        ) {
            (true, true) => self.end(Outcome::Draw(Reason::Exodia)),
            (true, false) => self.end(Outcome::Win(Reason::Exodia)),
            (false, true) => self.end(Outcome::Lose(Reason::Exodia)),
            (false, false) => {}
        }
    }

    /// LP 0 ends the duel at once, even in the middle of an effect.
    fn lp_check(&mut self) {
        let (you, opp) = (self.players[0].lp == 0, self.players[1].lp == 0);
        match (you, opp) {
            (true, true) => self.end(Outcome::Draw(Reason::Lp0)),
            (true, false) => self.end(Outcome::Lose(Reason::Lp0)),
            (false, true) => self.end(Outcome::Win(Reason::Lp0)),
            (false, false) => {}
        }
    }

    /// Checks after each finished effect: Exodia (beats everything), LP, deck-out.
    fn state_check(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        self.exodia_check();
        if self.outcome.is_some() {
            return;
        }
        self.lp_check();
        if self.outcome.is_some() {
            return;
        }
        match (
            self.players[0].drew_from_empty,
            self.players[1].drew_from_empty,
        ) {
            (true, true) => self.end(Outcome::Draw(Reason::DeckOut)),
            (true, false) => self.end(Outcome::Lose(Reason::DeckOut)),
            (false, true) => self.end(Outcome::Win(Reason::DeckOut)),
            (false, false) => {}
        }
    }

    fn end(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.events.push(Event::GameOver { outcome });
        }
    }
}

fn opt_key(id: CardId, code: Code, idx: u8, opt: Option<OncePerTurn>) -> Option<OptKey> {
    match opt? {
        OncePerTurn::Card => Some(OptKey::Card(id, idx)),
        OncePerTurn::Name => Some(OptKey::Name(code)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    const CHICKEN_GAME: Code = 67616300;

    fn blank(lp: [u32; 2], field: Vec<Code>) -> Duel {
        Setup {
            lp: Some(lp),
            face_up_spells: field,
            ..Setup::default()
        }
        .build()
        .expect("valid setup")
    }

    #[test]
    fn damage_lowers_lp_and_zero_lp_wins_at_once() {
        let mut d = blank([8000, 8000], vec![]);
        d.damage(Player::Opponent, 3000);
        assert_eq!(d.lp(Player::Opponent), 5000);
        assert_eq!(d.outcome, None);
        d.damage(Player::Opponent, 9000);
        assert_eq!(d.lp(Player::Opponent), 0);
        assert_eq!(d.outcome, Some(Outcome::Win(Reason::Lp0)));
    }

    #[test]
    fn a_no_damage_restriction_prevents_damage_to_its_player_only() {
        let mut d = blank([8000, 8000], vec![]);
        // Card of Demise: the opponent takes no damage for the rest of the turn.
        d.restrictions.push(ActiveRestriction {
            controller: Player::You,
            restriction: Restriction::NoDamage {
                who: crate::effect::Who::Opponent,
                until_opponent_turn_end: false,
            },
            until_turn: d.turn,
        });
        d.damage(Player::Opponent, 1000);
        assert_eq!(d.lp(Player::Opponent), 8000);
        d.damage(Player::You, 1000);
        assert_eq!(d.lp(Player::You), 7000);
    }

    #[test]
    fn chicken_game_protects_the_player_with_less_lp() {
        let mut d = blank([8000, 7000], vec![CHICKEN_GAME]);
        d.damage(Player::Opponent, 500);
        assert_eq!(d.lp(Player::Opponent), 7000, "the opponent has less LP");
        d.damage(Player::You, 500);
        assert_eq!(d.lp(Player::You), 7500, "you have more LP");
        let mut even = blank([8000, 8000], vec![CHICKEN_GAME]);
        even.damage(Player::Opponent, 500);
        assert_eq!(
            even.lp(Player::Opponent),
            7500,
            "equal LP: nobody is protected"
        );
    }

    #[test]
    fn restrictions_expire_after_their_last_turn() {
        let mut d = blank([8000, 8000], vec![]);
        d.restrictions.push(ActiveRestriction {
            controller: Player::You,
            restriction: Restriction::NoDamage {
                who: crate::effect::Who::You,
                until_opponent_turn_end: true,
            },
            until_turn: 2,
        });
        assert!(d.damage_prevented(Player::You));
        d.turn = 3;
        assert!(!d.damage_prevented(Player::You));
    }
}
