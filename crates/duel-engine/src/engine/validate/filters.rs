//! Card filters, the zones effects look at, free slots, effect amounts and current ATK.

use crate::card::{CardDef, Frame as CardFrame};
use crate::effect::{Amount, Filter, OncePerTurn, RuleDef, Source};
use crate::state::{CardId, CardInstance, Duel, Face, Locals, Location, OptKey, Player};

use crate::engine::def_of;

impl Duel {
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
            crate::engine::sort_cards(&mut cards, |id| (self.cards[id.index()].code, id));
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
            Source::Hand => ps.hand.to_vec(),
            Source::Deck => ps.deck.to_vec(),
            Source::Graveyard => ps.graveyard.to_vec(),
            Source::Banished => ps.banished.to_vec(),
            Source::ExtraDeck => ps.extra.to_vec(),
            Source::MonsterZone => ps.monsters.iter().flatten().copied().collect(),
            Source::SpellTrapZone => ps
                .spell_trap
                .iter()
                .flatten()
                .chain(ps.field_zone.iter())
                .copied()
                .collect(),
            Source::OpponentGraveyard => opp.graveyard.to_vec(),
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
