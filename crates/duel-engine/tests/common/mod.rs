//! Helpers shared by the scenario tests: finding cards, answering prompts, invariants.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use duel_engine::{
    CardId, CardView, Code, Command, Duel, Location, Player, PromptKind, Response, Setup,
};

pub const EXODIA: Code = 33396948;
pub const RIGHT_ARM: Code = 70903634;
pub const LEFT_ARM: Code = 7902349;
pub const RIGHT_LEG: Code = 8124921;
pub const LEFT_LEG: Code = 44519536;
pub const PIECES: [Code; 5] = [EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG, LEFT_LEG];
pub const POT_OF_GREED: Code = 55144522;
pub const GRACEFUL_CHARITY: Code = 79571449;
pub const UPSTART_GOBLIN: Code = 70368879;
pub const ONE_DAY_OF_PEACE: Code = 33782437;
pub const INTO_THE_VOID: Code = 93946239;
pub const HAND_DESTRUCTION: Code = 74519184;
pub const DARK_FACTORY: Code = 90928333;
pub const STONE_EXCAVATION: Code = 98494543;
pub const MAGICAL_MALLET: Code = 85852291;
pub const TERRAFORMING: Code = 73628505;
pub const CHICKEN_GAME: Code = 67616300;
pub const POT_OF_DUALITY: Code = 98645731;
pub const CARD_OF_DEMISE: Code = 59750328;
pub const TOON_WORLD: Code = 15259703;
pub const JAR_OF_GREED: Code = 83968380;
pub const CATAPULT_TURTLE: Code = 95727991;
pub const DMOC: Code = 40737112;
/// A vanilla monster used as filler.
pub const FILLER: Code = 27125110;

/// A duel in Main Phase 1 with this hand and deck (top first).
pub fn duel(hand: &[Code], deck: &[Code]) -> Duel {
    Setup::new()
        .hand(hand.to_vec())
        .deck(deck.to_vec())
        .build()
        .expect("valid setup")
}

pub fn fillers(n: usize) -> Vec<Code> {
    vec![FILLER; n]
}

/// Every instance of `code` of yours at `location` kind (slot ignored).
pub fn ids_at(d: &Duel, code: Code, zone: &str) -> Vec<CardId> {
    d.instances()
        .filter(|(_, c)| c.owner == Player::You && c.code == code && c.location.zone_name() == zone)
        .map(|(id, _)| id)
        .collect()
}

pub fn in_hand(d: &Duel, code: Code) -> CardId {
    *ids_at(d, code, "hand")
        .first()
        .unwrap_or_else(|| panic!("{code} not in hand"))
}

/// Codes of your cards in a zone, sorted.
pub fn codes(d: &Duel, who: Player, zone: &str) -> Vec<Code> {
    let mut v: Vec<Code> = d
        .instances()
        .filter(|(_, c)| c.owner == who && c.location.zone_name() == zone)
        .map(|(_, c)| c.code)
        .collect();
    v.sort_unstable();
    v
}

pub fn count(d: &Duel, who: Player, zone: &str) -> usize {
    d.instances()
        .filter(|(_, c)| c.owner == who && c.location.zone_name() == zone)
        .count()
}

pub fn activate(d: &mut Duel, code: Code) -> Vec<duel_engine::Event> {
    let card = in_hand(d, code);
    d.apply(Command::ActivateSpell { card })
        .expect("activation accepted")
}

/// Resolves the open chain, if the engine waits for a chain response.
pub fn pass(d: &mut Duel) {
    if d.view().chain_window {
        d.apply(Command::PassChain).expect("pass accepted");
    }
}

/// Activates a card from the hand and lets its chain resolve.
pub fn play(d: &mut Duel, code: Code) {
    activate(d, code);
    pass(d);
}

/// The candidates of the pending card prompt.
pub fn candidates(d: &Duel) -> Vec<CardView> {
    match d.view().prompt.expect("a prompt is pending").kind {
        PromptKind::Cards { candidates, .. } => candidates,
        PromptKind::Choice { .. } => panic!("expected a card prompt"),
    }
}

/// Answers the pending card prompt with the first candidates having these codes.
pub fn choose(d: &mut Duel, wanted: &[Code]) {
    let mut pool = candidates(d);
    let mut chosen = Vec::new();
    for code in wanted {
        let i = pool
            .iter()
            .position(|c| c.code == Some(*code))
            .unwrap_or_else(|| panic!("{code} is not a candidate"));
        chosen.push(pool.remove(i).id);
    }
    d.apply(Command::Respond(Response::Cards(chosen)))
        .expect("answer accepted");
}

/// Checks that every card is in exactly one place and the views agree with the truth.
pub fn check_invariants(d: &Duel) {
    let v = d.view();
    let total = d.instances().count();
    let mut seen = vec![0u8; total];
    for side in [&v.you, &v.opponent] {
        let listed = side
            .hand
            .iter()
            .chain(side.monsters.iter().flatten())
            .chain(side.spell_trap.iter().flatten())
            .chain(side.field_zone.iter())
            .chain(side.graveyard.iter())
            .chain(side.banished.iter())
            .chain(side.extra.iter());
        for c in listed {
            seen[usize::from(c.id.0)] += 1;
        }
    }
    for (id, c) in d.instances() {
        let n = seen[usize::from(id.0)];
        if c.location == Location::Deck {
            assert_eq!(n, 0, "deck card {id:?} is also listed elsewhere");
        } else {
            assert_eq!(n, 1, "card {id:?} at {:?} listed {n} times", c.location);
        }
        let in_monster_zone = matches!(c.location, Location::MainMonsterZone(_));
        assert_eq!(
            in_monster_zone,
            c.position.is_some(),
            "position only in monster zones"
        );
    }
    for (who, side) in [(Player::You, &v.you), (Player::Opponent, &v.opponent)] {
        assert_eq!(side.deck_count, count(d, who, "deck"));
        for (i, m) in side.monsters.iter().enumerate() {
            if let Some(m) = m {
                let loc = d
                    .instances()
                    .find(|(id, _)| *id == m.id)
                    .unwrap()
                    .1
                    .location;
                assert_eq!(loc, Location::MainMonsterZone(i as u8));
            }
        }
        // Hidden information: face-down cards and the opponent's hand show no code.
        for c in side.monsters.iter().chain(side.spell_trap.iter()).flatten() {
            if c.face == duel_engine::Face::Down {
                assert!(c.code.is_none(), "a face-down card shows its code");
            }
        }
    }
    for c in &v.opponent.hand {
        assert!(c.code.is_none(), "the opponent's hand is visible");
    }
}
