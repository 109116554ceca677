//! Card movement: the one primitive every move goes through. It applies replacement
//! effects, keeps zones, controllers and per-card facts right, records a game event per
//! card, derives the UI's move messages from those events and collects the triggers
//! they start.

use std::rc::Rc;

use crate::effect::{RuleDef, SummonKind};
use crate::event::{Event, GameEvent, MoveReason, Shown};
use crate::state::{
    CardId, Duel, Face, Held, LastKnown, Location, OptKey, Player, Position, Summoned,
};

use super::def_of;

/// Where a move puts a card. Field destinations take the first free slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum To {
    Hand,
    /// The top of the deck (an Extra Deck monster goes back to the Extra Deck).
    Deck,
    Graveyard,
    Banished {
        face_down: bool,
    },
    Monster {
        player: Player,
        face: Face,
        position: Position,
    },
    SpellTrap {
        player: Player,
        face: Face,
    },
    FieldZone {
        player: Player,
        face: Face,
    },
}

/// Why and how cards move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct How {
    pub reason: MoveReason,
    pub discard: bool,
    pub summon: Option<SummonKind>,
    pub by: Option<CardId>,
}

impl How {
    /// Moves for the rules' own bookkeeping (a spell leaving after it resolved, a card
    /// played to be activated) are not "something happening" for triggers that can miss
    /// their timing.
    fn happens(self) -> bool {
        !matches!(self.reason, MoveReason::Rule | MoveReason::Play)
    }

    pub(crate) fn new(reason: MoveReason, by: Option<CardId>) -> How {
        How {
            reason,
            discard: false,
            summon: None,
            by,
        }
    }
}

impl Duel {
    /// A new game event number; `happens` says whether it is "something happening" for
    /// triggers that can miss their timing ([`How::happens`]).
    pub(crate) fn next_seq(&mut self, happens: bool) -> u32 {
        self.seq += 1;
        if happens {
            self.last_happening = self.seq;
        }
        self.seq
    }

    /// Something happened that is not a card move (LP changed, an equip, a position).
    pub(crate) fn happen(&mut self) {
        self.next_seq(true);
    }

    /// A register entry for a card as it is now.
    pub(crate) fn held(&self, id: CardId) -> Held {
        Held {
            id,
            stamp: self.cards[id.index()].stamp,
        }
    }

    /// Register entries for cards as they are now.
    pub(crate) fn held_all(&self, ids: &[CardId]) -> Rc<[Held]> {
        ids.iter().map(|&id| self.held(id)).collect()
    }

    /// Moves cards together (one event number); returns the moves made (a card whose
    /// destination has no free zone stays where it is).
    pub(crate) fn move_cards(&mut self, ids: &[CardId], to: To, how: How) -> Vec<GameEvent> {
        if ids.is_empty() {
            return Vec::new();
        }
        let seq = self.next_seq(how.happens());
        let events = ids
            .iter()
            .filter_map(|&id| self.relocate(id, to, how, seq))
            .collect();
        self.moved(events, how)
    }

    /// Moves cards together, each to its own destination (simultaneous summons in
    /// different positions).
    pub(crate) fn move_each(&mut self, moves: &[(CardId, To)], how: How) -> Vec<GameEvent> {
        if moves.is_empty() {
            return Vec::new();
        }
        let seq = self.next_seq(how.happens());
        self.move_each_at(moves, how, seq)
    }

    /// [`Duel::move_each`] with a given event number (moves made together with others).
    pub(crate) fn move_each_at(
        &mut self,
        moves: &[(CardId, To)],
        how: How,
        seq: u32,
    ) -> Vec<GameEvent> {
        let events = moves
            .iter()
            .filter_map(|&(id, to)| self.relocate(id, to, how, seq))
            .collect();
        self.moved(events, how)
    }

    /// What follows cards that moved together: the UI's messages, the triggers the moves
    /// start, the journal, and equip cards left without their monster. Hands the moves
    /// back, so that callers read the moved cards from them.
    fn moved(&mut self, events: Vec<GameEvent>, how: How) -> Vec<GameEvent> {
        self.announce(&events, how);
        for ev in &events {
            self.collect_triggers(ev);
        }
        if !self.journal.off {
            self.journal.moves.extend_from_slice(&events);
        }
        // Equip cards go to the graveyard when their monster leaves the field.
        let orphans: Vec<CardId> = events
            .iter()
            .filter(|e| matches!(e.from, Location::MainMonsterZone(_)))
            .flat_map(|e| self.equips_of(e.card))
            .collect();
        if !orphans.is_empty() {
            self.move_cards(&orphans, To::Graveyard, How::new(MoveReason::Rule, None));
        }
        events
    }

    /// Equip cards attached to a monster.
    pub(crate) fn equips_of(&self, monster: CardId) -> impl Iterator<Item = CardId> + '_ {
        self.cards
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.equipped_to == Some(monster) && c.location.is_field())
            .map(|(i, _)| CardId(i as u16))
    }

    /// Moves one card; `None` when the destination zone is full.
    fn relocate(&mut self, id: CardId, to: To, how: How, seq: u32) -> Option<GameEvent> {
        let c = &self.cards[id.index()];
        let def = def_of(c.code);
        let (from, from_player, was_face_up, owner) =
            (c.location, c.controller, c.face == Face::Up, c.owner);
        // Replacement effects and where cards of each kind really go.
        let to = match to {
            _ if from.is_field()
                && was_face_up
                && !matches!(to, To::Banished { .. })
                && !matches!(
                    to,
                    To::Monster { .. } | To::SpellTrap { .. } | To::FieldZone { .. }
                )
                && def.has_rule(|r| matches!(r, RuleDef::BanishedWhenLeavingField)) =>
            {
                To::Banished { face_down: false }
            }
            other => other,
        };
        let token = def.frame == crate::card::Frame::Token;
        let (location, face, controller) = match to {
            // A Token that leaves the field is no longer anywhere.
            To::Hand | To::Deck | To::Graveyard | To::Banished { .. } if token => {
                (Location::Vanished, Face::Up, owner)
            }
            To::Hand if def.is_extra_deck() => (Location::ExtraDeck, Face::Down, owner),
            To::Deck if def.is_extra_deck() => (Location::ExtraDeck, Face::Down, owner),
            To::Hand => (Location::Hand, Face::Up, owner),
            To::Deck => (Location::Deck, Face::Down, owner),
            To::Graveyard => (Location::Graveyard, Face::Up, owner),
            To::Banished { face_down } => (
                Location::Banished,
                if face_down { Face::Down } else { Face::Up },
                owner,
            ),
            To::Monster { player, face, .. } => {
                let slot = self.free_monster_slot(player)?;
                (Location::MainMonsterZone(slot as u8), face, player)
            }
            To::SpellTrap { player, face } => {
                let slot = self.free_spell_trap_slot(player)?;
                (Location::SpellTrapZone(slot as u8), face, player)
            }
            To::FieldZone { player, face } => {
                if self.player(player).field_zone.is_some() {
                    return None;
                }
                (Location::FieldZone, face, player)
            }
        };
        if from.is_field() {
            self.left_field(id, from);
        }
        self.take(id);
        let c = &mut self.cards[id.index()];
        c.location = location;
        c.face = face;
        c.controller = controller;
        c.stamp += 1;
        if !matches!(location, Location::Graveyard | Location::Banished) && !location.is_field() {
            // Back in the hand or a deck: it is a new card in every respect.
            c.summoned = None;
        }
        if let To::Monster { position, .. } = to {
            c.position = Some(position);
            c.placed_this_turn = true;
            c.summoned = how.summon.map(|kind| Summoned {
                kind,
                proper: !def.is_extra_deck() || kind != SummonKind::Special,
            });
        }
        if matches!(to, To::SpellTrap { .. } | To::FieldZone { .. }) && face == Face::Down {
            c.placed_this_turn = true;
        }
        let c = &self.cards[id.index()];
        let ps = &mut self.players[controller.index()];
        match location {
            Location::Hand => ps.hand.push_card(id, c),
            Location::Deck => ps.deck.push_card(id, c),
            Location::Graveyard => ps.graveyard.push_card(id, c),
            Location::Banished => ps.banished.push_card(id, c),
            Location::ExtraDeck => ps.extra.push_card(id, c),
            Location::MainMonsterZone(s) => ps.monsters[usize::from(s)] = Some(id),
            Location::SpellTrapZone(s) => ps.spell_trap[usize::from(s)] = Some(id),
            Location::FieldZone => ps.field_zone = Some(id),
            Location::Vanished => {}
        }
        if matches!(
            how.summon,
            Some(SummonKind::Special | SummonKind::Synchro | SummonKind::Fusion)
        ) {
            self.player_mut(controller).special_summoned_this_turn = true;
        }
        Some(GameEvent {
            seq,
            card: id,
            code: self.cards[id.index()].code,
            from,
            to: location,
            from_player,
            to_player: controller,
            reason: how.reason,
            discard: how.discard,
            summon: how.summon,
            was_face_up,
            by: how.by,
        })
    }

    /// Removes a card from its zone (the zone of its controller on the field, of its
    /// owner elsewhere); its location field is left for the caller.
    fn take(&mut self, id: CardId) {
        let c = &self.cards[id.index()];
        let (location, p) = (c.location, c.controller);
        let ps = &mut self.players[p.index()];
        match location {
            Location::Deck => ps.deck.remove_card(id, c),
            Location::Hand => ps.hand.remove_card(id, c),
            Location::MainMonsterZone(s) => ps.monsters[usize::from(s)] = None,
            Location::SpellTrapZone(s) => ps.spell_trap[usize::from(s)] = None,
            Location::FieldZone => ps.field_zone = None,
            Location::Graveyard => ps.graveyard.remove_card(id, c),
            Location::Banished => ps.banished.remove_card(id, c),
            Location::ExtraDeck => ps.extra.remove_card(id, c),
            Location::Vanished => {}
        }
    }

    /// A card that leaves the field becomes a new card: it keeps what it was as last
    /// known information, loses counters, position and equips, and its soft
    /// once-per-turn limits reset.
    fn left_field(&mut self, id: CardId, from: Location) {
        if matches!(from, Location::MainMonsterZone(_)) {
            let known = LastKnown {
                atk: self.current_atk(id),
                level: def_of(self.cards[id.index()].code).level(),
            };
            self.cards[id.index()].last_known = Some(known);
        }
        self.used_opt
            .retain(|k| !matches!(k, OptKey::Card(cid, _) if *cid == id));
        let c = &mut self.cards[id.index()];
        c.placed_this_turn = false;
        c.position = None;
        c.counters = 0;
        c.equipped_to = None;
    }

    /// Whether you may know which card this is at `loc` with `face`.
    fn visible(owner: Player, loc: Location, face: Face) -> bool {
        match loc {
            Location::Deck => false,
            Location::Hand | Location::ExtraDeck => owner == Player::You,
            Location::Graveyard => true,
            _ => face == Face::Up,
        }
    }

    /// The UI's messages for moves that happened together.
    fn announce(&mut self, events: &[GameEvent], how: How) {
        // Messages only: nothing to do where nobody records them (the solver's copies).
        if events.is_empty() || how.reason == MoveReason::Play || self.journal.off {
            return;
        }
        if how.reason == MoveReason::Draw {
            for p in [Player::You, Player::Opponent] {
                let count = events.iter().filter(|e| e.to_player == p).count();
                if count > 0 {
                    self.push_event(Event::Drew {
                        player: p,
                        count: count as u8,
                    });
                }
            }
            return;
        }
        let mut groups: Vec<(Player, Location, Location, Vec<Shown>)> = Vec::new();
        for e in events {
            let c = &self.cards[e.card.index()];
            if let (Some(kind), Some(position)) = (e.summon, c.position) {
                self.push_event(Event::Summoned {
                    player: e.to_player,
                    card: e.code,
                    kind,
                    position,
                });
                continue;
            }
            if e.to == Location::Vanished {
                self.push_event(Event::Vanished { card: e.code });
                continue;
            }
            if e.to.is_field() && c.face == Face::Down {
                self.push_event(match e.to {
                    Location::MainMonsterZone(_) => Event::MonsterSet {
                        player: e.to_player,
                    },
                    _ => Event::SpellTrapSet {
                        player: e.to_player,
                    },
                });
                continue;
            }
            let from_face = if e.was_face_up { Face::Up } else { Face::Down };
            let shown = (Self::visible(c.owner, e.from, from_face)
                || Self::visible(c.owner, e.to, c.face))
            .then_some(e.code);
            let (from, to) = (zone_of(e.from), zone_of(e.to));
            match groups
                .iter_mut()
                .find(|(p, f, t, _)| *p == c.owner && *f == from && *t == to)
            {
                Some((.., v)) => v.push(shown),
                None => groups.push((c.owner, from, to, vec![shown])),
            }
        }
        for (player, from, to, cards) in groups {
            self.push_event(Event::Moved {
                player,
                from,
                to,
                reason: how.reason,
                discard: how.discard,
                cards,
            });
        }
    }
}

/// A location without its slot, for grouping messages.
fn zone_of(l: Location) -> Location {
    match l {
        Location::MainMonsterZone(_) => Location::MainMonsterZone(0),
        Location::SpellTrapZone(_) => Location::SpellTrapZone(0),
        other => other,
    }
}
