//! Card filters, the zones effects look at, free slots, effect amounts and current ATK.

use std::sync::OnceLock;

use crate::card::{CardDef, Frame as CardFrame};
use crate::effect::{
    Amount, Condition, Constraint, EffectDef, Filter, OncePerTurn, RuleDef, Source, Step,
};
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
        self.zone_cards_where(zone, this, ctrl, locals, &|_| true)
    }

    /// The cards of a zone that `keep` accepts, in `zone_cards`' order: filtered first,
    /// so only the kept cards of a deck are put in order.
    pub(crate) fn zone_cards_where(
        &self,
        zone: Source,
        this: CardId,
        ctrl: Player,
        locals: &Locals,
        keep: &dyn Fn(CardId) -> bool,
    ) -> Vec<CardId> {
        let mut cards = self.zone_cards_unordered(zone, this, ctrl, locals);
        cards.retain(|&id| keep(id));
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
            .is_none_or(|s| name_contains(d, s))
        && f.race
            .as_ref()
            .is_none_or(|r| m.is_some_and(|m| &m.race == r))
        && f.tuner.is_none_or(|t| m.is_some() && d.is_tuner() == t)
        && f.effect
            .is_none_or(|e| m.is_some() && d.is_effect_monster() == e)
}

/// Whether the Japanese name of `d` contains `s`: looked up in [`Names`] for a card of the
/// catalogue and a string of its filters, searched otherwise.
fn name_contains(d: &CardDef, s: &str) -> bool {
    names()
        .lookup(d, s)
        .unwrap_or_else(|| d.name_ja.contains(s))
}

/// The `name_contains_ja` strings of the catalogue's filters, and which of them each
/// card's Japanese name contains, worked out once.
struct Names {
    /// Each string once (at most 64 are looked up; further ones are searched).
    strings: Vec<&'static str>,
    /// By catalogue index: bit `k` set when the name contains `strings[k]`.
    contains: Vec<u64>,
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(Names::new)
}

impl Names {
    fn new() -> Names {
        let catalog = crate::card::catalog();
        let mut strings: Vec<&'static str> = Vec::new();
        for def in catalog {
            for_filters(&def.effects, &mut |f| {
                if let Some(s) = f.name_contains_ja.as_deref()
                    && !strings.contains(&s)
                {
                    strings.push(s);
                }
            });
        }
        strings.truncate(64);
        let contains = catalog
            .iter()
            .map(|def| {
                strings
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| def.name_ja.contains(**s))
                    .fold(0, |bits, (k, _)| bits | 1 << k)
            })
            .collect();
        Names { strings, contains }
    }

    /// Whether the Japanese name of `d` contains `s`, if `d` is a card of the catalogue
    /// (that very definition) and `s` one of [`Names::strings`].
    fn lookup(&self, d: &CardDef, s: &str) -> Option<bool> {
        let k = self.strings.iter().position(|t| *t == s)?;
        let i = crate::card::index(d.code)?;
        let own = crate::card::catalog().get(i)?;
        let bits = self.contains.get(i)?;
        std::ptr::eq(own, d).then_some(bits >> k & 1 != 0)
    }
}

/// Calls `f` on every filter of the effects `effects`: of their conditions, costs,
/// resolutions and modes.
fn for_filters<'a>(effects: &'a [EffectDef], f: &mut impl FnMut(&'a Filter)) {
    fn in_condition<'a>(c: &'a Condition, f: &mut impl FnMut(&'a Filter)) {
        match c {
            Condition::Exists { filter, .. }
            | Condition::OwnerCanSummon { filter, .. }
            | Condition::OthersInHand { filter, .. } => f(filter),
            Condition::CanSelect {
                filter, constraint, ..
            } => {
                f(filter);
                in_constraint(constraint, f);
            }
            _ => {}
        }
    }
    fn in_constraint<'a>(c: &'a Constraint, f: &mut impl FnMut(&'a Filter)) {
        if let Constraint::CountIsLevelOf { filter, .. } = c {
            f(filter);
        }
    }
    fn in_steps<'a>(steps: &'a [Step], f: &mut impl FnMut(&'a Filter)) {
        for s in steps {
            match s {
                Step::Select {
                    filter, constraint, ..
                } => {
                    f(filter);
                    if let Some(c) = constraint {
                        in_constraint(c, f);
                    }
                }
                Step::ExcavateUntil { filter, .. } | Step::Split { filter, .. } => f(filter),
                Step::StopUnless { condition } => in_condition(condition, f),
                Step::AtEndPhase { steps } => in_steps(steps, f),
                _ => {}
            }
        }
    }
    for e in effects {
        for c in &e.conditions {
            in_condition(c, f);
        }
        in_steps(&e.cost, f);
        in_steps(&e.resolve, f);
        for m in &e.modes {
            for c in &m.conditions {
                in_condition(c, f);
            }
            in_steps(&m.resolve, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `name_contains_ja` string of the card file, read from its JSON.
    fn strings_in_the_card_file() -> Vec<String> {
        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        match (k.as_str(), v) {
                            ("name_contains_ja", serde_json::Value::String(s)) => {
                                if !out.contains(s) {
                                    out.push(s.clone());
                                }
                            }
                            _ => walk(v, out),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
                _ => {}
            }
        }
        let json: serde_json::Value =
            serde_json::from_str(include_str!("../../../data/cards.json")).expect("valid JSON");
        let mut out = Vec::new();
        walk(&json, &mut out);
        out
    }

    #[test]
    fn the_name_table_agrees_with_a_search_of_every_name_for_every_filter_string() {
        let strings = strings_in_the_card_file();
        assert!(!strings.is_empty(), "no name filter in the card file");
        let t = names();
        // The table holds every string of the card file, and only those.
        let mut held: Vec<&str> = t.strings.clone();
        held.sort_unstable();
        let mut want: Vec<&str> = strings.iter().map(String::as_str).collect();
        want.sort_unstable();
        assert_eq!(held, want);
        let mut found = 0;
        for def in crate::card::catalog() {
            for s in &strings {
                let contains = def.name_ja.contains(s.as_str());
                assert_eq!(t.lookup(def, s), Some(contains), "{} {s}", def.name_en);
                assert_eq!(name_contains(def, s), contains, "{} {s}", def.name_en);
                found += usize::from(contains);
            }
            // A string of no filter, and a copy of the card, are searched.
            assert_eq!(t.lookup(def, "エクゾディア"), None);
            assert_eq!(
                name_contains(def, "エクゾディア"),
                def.name_ja.contains("エクゾディア")
            );
            let copy = def.clone();
            assert_eq!(t.lookup(&copy, strings[0].as_str()), None);
        }
        assert!(found > 0, "no name contains a filter string");
    }
}
