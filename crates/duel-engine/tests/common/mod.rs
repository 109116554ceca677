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
pub const SANGAN: Code = 26202165;
pub const WITCH: Code = 78010363;
pub const LIBRARY: Code = 70791313;
pub const SUMMONER_MONK: Code = 423585;
pub const TOON_TABLE: Code = 89997728;
pub const TOON_CANNON: Code = 79875176;
pub const BROKEN_BAMBOO: Code = 41587307;
pub const GOLDEN_BAMBOO: Code = 74029853;
pub const MONSTER_REBORN: Code = 83764719;
pub const PREMATURE_BURIAL: Code = 70828912;
pub const SCIENTIST: Code = 34206604;
pub const CRIMSON_SUNBIRD: Code = 46696593;
pub const TREASURE_PANDA: Code = 45221020;
pub const LUNAR_RABBIT: Code = 47643326;
pub const FORMULA_SYNCHRON: Code = 50091196;
pub const STARDUST_CHARGE: Code = 64880894;
pub const HYPER_LIBRARIAN: Code = 90953320;
pub const AQUA_DRAGON: Code = 86164529;
pub const GREAT_MAMMOTH: Code = 54622031;
pub const FIENDS_SANCTUARY: Code = 24874630;
pub const METAL_FIEND_TOKEN: Code = 24874631;
pub const WHITE_ELEPHANT: Code = 18756904;
pub const WONDER_WAND: Code = 67775894;
pub const RELOAD: Code = 22589918;
pub const POT_OF_AVARICE: Code = 67169062;
pub const DIMENSION_FUSION: Code = 23557835;
pub const LAST_WILL: Code = 85602018;
pub const MONSTER_GATE: Code = 43040603;
pub const REASONING: Code = 58577036;
/// A second vanilla monster (Level 1, DEF 2000).
pub const FLAMVELL_GUARD: Code = 21615956;
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

/// Answers the pending card prompt with the first candidates having these codes, and
/// returns what happened.
pub fn choose(d: &mut Duel, wanted: &[Code]) -> Vec<duel_engine::Event> {
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
        .expect("answer accepted")
}

/// How many real cards (not Tokens) the duel has: this never changes.
pub fn real_cards(d: &Duel) -> usize {
    d.instances()
        .filter(|(_, c)| {
            duel_engine::card(c.code).is_some_and(|d| d.frame != duel_engine::Frame::Token)
        })
        .count()
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
        let token = duel_engine::card(c.code).is_some_and(|d| d.frame == duel_engine::Frame::Token);
        if c.location == Location::Vanished {
            assert!(token, "only Tokens vanish");
        }
        if token {
            assert!(
                c.location == Location::Vanished || c.location.is_field(),
                "a Token is on the field or gone"
            );
        }
        if matches!(c.location, Location::Deck | Location::Vanished) {
            assert_eq!(
                n, 0,
                "card {id:?} in the deck or gone is also listed elsewhere"
            );
        } else {
            assert_eq!(n, 1, "card {id:?} at {:?} listed {n} times", c.location);
        }
        let in_monster_zone = matches!(c.location, Location::MainMonsterZone(_));
        assert_eq!(
            in_monster_zone,
            c.position.is_some(),
            "position only in monster zones"
        );
        assert!(c.counters <= 3, "at most 3 Spell Counters");
        if c.counters > 0 {
            assert!(c.location.is_field(), "counters only on the field");
        }
        if let Some(m) = c.equipped_to {
            assert!(c.location.is_field(), "an equip card is on the field");
            let target = d.instance(m).expect("equipped monster exists");
            assert!(
                matches!(target.location, Location::MainMonsterZone(_)),
                "equipped to a monster on the field"
            );
        }
        if !c.location.is_field() {
            assert_eq!(c.controller, c.owner, "off the field the owner controls it");
        }
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
    // Zones hold what the view lists: no more than five per row.
    for side in [&v.you, &v.opponent] {
        assert_eq!(side.monsters.len(), 5);
        assert_eq!(side.spell_trap.len(), 5);
    }
}

/// The value of the pending choice option with this key (`yes`, `no`, `attack`,
/// `defense`, or the position in the list).
pub fn option_value(d: &Duel, key: &str) -> u8 {
    match d.view().prompt.expect("a prompt is pending").kind {
        PromptKind::Choice { options, .. } => {
            options
                .iter()
                .find(|o| o.key() == key)
                .unwrap_or_else(|| panic!("no option {key}"))
                .value
        }
        PromptKind::Cards { .. } => panic!("expected a choice prompt"),
    }
}

/// Answers the pending choice prompt with the option of this key.
pub fn answer(d: &mut Duel, key: &str) {
    let v = option_value(d, key);
    d.apply(Command::Respond(Response::Option(v)))
        .expect("answer accepted");
}

/// Whether a choice prompt with this question is pending.
pub fn asks(d: &Duel, q: duel_engine::Question) -> bool {
    matches!(d.view().prompt.map(|p| p.kind), Some(PromptKind::Choice { question, .. }) if question == q)
}

/// The id of your monster with this code on the field.
pub fn on_field(d: &Duel, code: Code) -> CardId {
    *ids_at(d, code, "mainMonsterZone")
        .first()
        .unwrap_or_else(|| panic!("{code} not on the field"))
}

/// Activates the ignition effect of a card on the field and lets the chain resolve.
pub fn ignite(d: &mut Duel, card: CardId) {
    d.apply(Command::ActivateEffect { card })
        .expect("ignition accepted");
    pass(d);
}
