//! Whole games of the playable preset decks from fixed seeds, played command by command
//! from the opening hand to the end. The lines were found with the crate's search
//! (`examples/find_lines.rs`) and are written with card names so they read like a game.

#[path = "../../crates/duel-engine/tests/common/mod.rs"]
mod common;

use common::*;
use duel_engine::{CardId, Code, Command, Duel, Outcome, Reason, Response};

/// One move of a scripted game, naming cards by passcode.
#[derive(Debug, Clone, Copy)]
enum S {
    /// Activate the card from the hand (or a set copy).
    Activate(Code),
    /// Activate the ignition effect of a face-up card on the field.
    Effect(Code),
    /// Normal Summon a monster from the hand.
    Summon(Code),
    /// Synchro Summon a monster from the Extra Deck.
    Synchro(Code),
    Pass,
    Mode(u8),
    Pick(&'static [Code]),
}
use S::*;

const DUALITY: Code = POT_OF_DUALITY;
const DEMISE: Code = CARD_OF_DEMISE;
const CHICKEN: Code = CHICKEN_GAME;
const MALLET: Code = MAGICAL_MALLET;
const MSE: Code = STONE_EXCAVATION;
const UPSTART: Code = UPSTART_GOBLIN;
const PEACE: Code = ONE_DAY_OF_PEACE;
const VOID: Code = INTO_THE_VOID;
const CHARITY: Code = GRACEFUL_CHARITY;
const GREED: Code = POT_OF_GREED;
const FACTORY: Code = DARK_FACTORY;
const HAND_DEST: Code = HAND_DESTRUCTION;

fn find(d: &Duel, code: Code, zones: &[&str]) -> CardId {
    zones
        .iter()
        .find_map(|z| ids_at(d, code, z).first().copied())
        .unwrap_or_else(|| panic!("no {code} in {zones:?}"))
}

/// Plays the script on `exodia-deck`, checking the invariants after every command.
fn play_script(seed: u64, script: &[S]) -> Duel {
    play_deck("exodia-deck", seed, script)
}

/// Plays the script on a preset deck, checking the invariants after every command.
fn play_deck(deck: &str, seed: u64, script: &[S]) -> Duel {
    let mut d = Duel::new(deck, seed).expect("playable deck");
    for (i, step) in script.iter().enumerate() {
        assert!(
            d.outcome().is_none(),
            "the game ended early, before step {i}: {:?}",
            d.outcome()
        );
        let cmd = match *step {
            Activate(code) => Command::ActivateSpell {
                card: find(&d, code, &["hand", "spellTrapZone", "fieldZone"]),
            },
            Effect(code) => Command::ActivateEffect {
                card: find(&d, code, &["fieldZone", "spellTrapZone", "mainMonsterZone"]),
            },
            Summon(code) => Command::SummonMonster {
                card: find(&d, code, &["hand"]),
            },
            Synchro(code) => Command::SynchroSummon {
                card: find(&d, code, &["extraDeck"]),
            },
            Pass => Command::PassChain,
            Mode(m) => Command::Respond(Response::Option(m)),
            Pick(codes) => {
                let mut pool = candidates(&d);
                let ids = codes
                    .iter()
                    .map(|code| {
                        let k = pool
                            .iter()
                            .position(|c| c.code == Some(*code))
                            .unwrap_or_else(|| panic!("step {i}: {code} is not a candidate"));
                        pool.remove(k).id
                    })
                    .collect();
                Command::Respond(Response::Cards(ids))
            }
        };
        if let Err(e) = d.apply(cmd.clone()) {
            panic!("step {i} ({step:?} = {cmd:?}) refused: {e}");
        }
        check_invariants(&d);
    }
    d
}

#[test]
fn seed_9_wins_with_exodia_in_16_commands() {
    let d = play_script(
        9,
        &[
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(GREED),
            Activate(CHARITY),
            Pick(&[MSE, UPSTART]),
            Activate(GREED),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Activate(DUALITY),
            Pick(&[MALLET]),
            Effect(CHICKEN),
            Mode(0),
            Activate(CHARITY),
            Pick(&[MALLET, MALLET]),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    // Two Chicken Game payments.
    assert_eq!(d.view().you.lp, 6000);
}

#[test]
fn seed_6_wins_with_exodia_after_chaining_hand_destruction() {
    let d = play_script(
        6,
        &[
            Activate(GREED),
            Activate(GREED),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(PEACE),
            Activate(UPSTART),
            Activate(CHARITY),
            Pick(&[DUALITY, UPSTART]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHARITY),
            Pick(&[RIGHT_LEG, LEFT_LEG]),
            Activate(CHICKEN),
            Pass,
            Activate(HAND_DEST),
            Pick(&[MALLET, PEACE]),
            Effect(CHICKEN),
            Mode(0),
            Activate(FACTORY),
            Pass,
            Activate(HAND_DEST),
            Pick(&[VOID, MALLET]),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    assert_eq!(d.view().opponent.lp, 9000, "one Upstart Goblin");
}

#[test]
fn seed_2_wins_with_exodia_in_26_commands() {
    let d = play_script(
        2,
        &[
            Activate(CHARITY),
            Pick(&[DUALITY, CHICKEN]),
            Activate(VOID),
            Activate(PEACE),
            Activate(CHARITY),
            Pick(&[FACTORY, VOID]),
            Activate(UPSTART),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Activate(TERRAFORMING),
            Effect(CHICKEN),
            Mode(0),
            Activate(CHARITY),
            Pick(&[FACTORY, CHICKEN]),
            Activate(GREED),
            Activate(GREED),
            Activate(MALLET),
            Pick(&[MSE]),
            Activate(UPSTART),
            Activate(VOID),
            Activate(PEACE),
            Activate(GREED),
            Activate(HAND_DEST),
            Pick(&[RIGHT_ARM, RIGHT_LEG]),
            Activate(FACTORY),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
}

#[test]
fn seed_16_ends_by_drawing_from_an_empty_deck() {
    let d = play_script(
        16,
        &[
            Activate(HAND_DEST),
            Pick(&[TERRAFORMING, DEMISE]),
            Activate(DUALITY),
            Pick(&[TERRAFORMING]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(UPSTART),
            Activate(CHARITY),
            Pick(&[FACTORY, GREED]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(VOID),
            Activate(MALLET),
            Pick(&[LEFT_LEG]),
            Activate(PEACE),
            Activate(MSE),
            Pick(&[DEMISE]),
            Activate(DEMISE),
            Activate(MALLET),
            Pick(&[PEACE]),
            Activate(CHARITY),
            Pick(&[EXODIA, MSE]),
            Activate(GREED),
            Activate(FACTORY),
            Activate(GREED),
            Activate(CHARITY),
            Pick(&[FACTORY, PEACE]),
            Activate(TERRAFORMING),
            Activate(PEACE),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(VOID),
            Activate(UPSTART),
            Activate(VOID),
            Activate(UPSTART),
            Activate(MALLET),
            Pick(&[RIGHT_LEG, LEFT_ARM, RIGHT_ARM, LEFT_LEG]),
            Activate(HAND_DEST),
            Activate(HAND_DEST),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::DeckOut)));
    assert_eq!(d.view().you.deck_count, 0);
}

#[test]
fn legacy_exodia_deck_seed_0_wins_with_exodia() {
    // Witch of the Black Forest is summoned but never leaves the field: the legacy
    // triggers need a card that sends it there, which this deck does not have.
    let d = play_deck(
        "legacy-exodia-deck",
        0,
        &[
            Activate(GREED),
            Activate(PEACE),
            Activate(CHARITY),
            Pick(&[RIGHT_ARM, MSE]),
            Activate(PEACE),
            Activate(VOID),
            Summon(WITCH),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Activate(UPSTART),
            Activate(VOID),
            Activate(GREED),
            Activate(HAND_DEST),
            Pick(&[SANGAN, SANGAN]),
            Effect(CHICKEN),
            Mode(0),
            Activate(PEACE),
            Activate(GREED),
            Activate(CHARITY),
            Pick(&[MSE, FACTORY]),
            Activate(UPSTART),
            Pass,
            Activate(HAND_DEST),
            Pick(&[FACTORY, RIGHT_LEG]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(DUALITY),
            Pick(&[UPSTART]),
            Activate(FACTORY),
            Activate(UPSTART),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    assert_eq!(d.view().you.lp, 6000, "two Chicken Game payments");
    assert_eq!(d.view().opponent.lp, 11000, "three Upstart Goblins");
}

#[test]
fn library_exodia_deck_seed_14_wins_with_exodia_through_royal_magical_library() {
    let d = play_deck(
        "library-exodia-deck",
        14,
        &[
            Activate(PEACE),
            Activate(UPSTART),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(TOON_TABLE),
            Pick(&[TOON_WORLD]),
            Activate(PEACE),
            Activate(TOON_WORLD),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Summon(LIBRARY),
            Activate(BROKEN_BAMBOO),
            Activate(GOLDEN_BAMBOO),
            Activate(VOID),
            // Three Spells resolved with the Library face-up: remove 3, draw 1.
            Effect(LIBRARY),
            Activate(DUALITY),
            Pick(&[RIGHT_LEG]),
            Activate(GOLDEN_BAMBOO),
            Activate(TOON_TABLE),
            Effect(LIBRARY),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    // Toon World and two Chicken Game payments.
    assert_eq!(d.view().you.lp, 5000);
    let library = d
        .view()
        .you
        .monsters
        .iter()
        .flatten()
        .find(|m| m.code == Some(LIBRARY))
        .copied()
        .expect("the Library is on the field");
    assert_eq!(library.counters, 0, "its last three counters were used");
}

#[test]
fn panda_exodia_deck_seed_5_wins_with_exodia_through_treasure_panda_and_a_synchro() {
    // Treasure Panda summons Exodia's limbs from the deck; White Elephant's Gift and a
    // Synchro Summon send them to the graveyard, and Dark Factory brings them home.
    let d = play_deck(
        "panda-exodia-deck",
        5,
        &[
            Activate(MALLET),
            Pick(&[PEACE, WONDER_WAND]),
            Activate(MALLET),
            Pick(&[CHICKEN]),
            Summon(TREASURE_PANDA),
            Effect(TREASURE_PANDA),
            Pick(&[MALLET]),
            Pick(&[LEFT_LEG]),
            Mode(1),
            Effect(TREASURE_PANDA),
            Pick(&[LEFT_ARM]),
            Mode(0),
            Activate(WONDER_WAND),
            Pick(&[LEFT_ARM]),
            Effect(WONDER_WAND),
            Effect(TREASURE_PANDA),
            Pick(&[RIGHT_LEG]),
            Mode(0),
            Activate(PEACE),
            Activate(WHITE_ELEPHANT),
            Pick(&[LEFT_LEG]),
            Effect(TREASURE_PANDA),
            Pick(&[PEACE]),
            Pick(&[LUNAR_RABBIT]),
            Mode(1),
            Synchro(STARDUST_CHARGE),
            Pick(&[TREASURE_PANDA, LUNAR_RABBIT, RIGHT_LEG]),
            Mode(0),
            Mode(0),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(FACTORY),
            Pick(&[LEFT_ARM, LEFT_LEG]),
            Activate(FACTORY),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    assert!(
        d.view()
            .you
            .monsters
            .iter()
            .flatten()
            .any(|m| m.code == Some(STARDUST_CHARGE)),
        "Stardust Charge Warrior was Synchro Summoned"
    );
}

#[test]
fn scientist_catapult_deck_seed_1_burns_the_opponent_to_zero() {
    // Magical Scientist pays 1000 LP per Fusion monster; Catapult Turtle Tributes each
    // for half its ATK. The last Tribute brings the opponent to 0.
    let d = play_deck(
        "scientist-catapult-deck",
        1,
        &[
            Activate(REASONING),
            Mode(0),
            Activate(LAST_WILL),
            Activate(REASONING),
            Effect(SCIENTIST),
            Pick(&[CRIMSON_SUNBIRD]),
            Mode(1),
            Activate(PREMATURE_BURIAL),
            Effect(SCIENTIST),
            Pick(&[AQUA_DRAGON]),
            Mode(0),
            Effect(SCIENTIST),
            Pick(&[CRIMSON_SUNBIRD]),
            Mode(1),
            Effect(CATAPULT_TURTLE),
            Pick(&[CRIMSON_SUNBIRD]),
            Mode(1),
            Effect(CATAPULT_TURTLE),
            Pick(&[CRIMSON_SUNBIRD]),
            Effect(SCIENTIST),
            Pick(&[CRIMSON_SUNBIRD]),
            Mode(1),
            Effect(SCIENTIST),
            Pick(&[AQUA_DRAGON]),
            Mode(0),
            Effect(CATAPULT_TURTLE),
            Pick(&[CRIMSON_SUNBIRD]),
            Effect(SCIENTIST),
            Pick(&[GREAT_MAMMOTH]),
            Mode(0),
            Effect(CATAPULT_TURTLE),
            Pick(&[AQUA_DRAGON]),
            Effect(SCIENTIST),
            Pick(&[GREAT_MAMMOTH]),
            Mode(1),
            Effect(CATAPULT_TURTLE),
            Pick(&[GREAT_MAMMOTH]),
            Effect(CATAPULT_TURTLE),
            Pick(&[AQUA_DRAGON]),
            Effect(CATAPULT_TURTLE),
            Pick(&[SCIENTIST]),
            Effect(CATAPULT_TURTLE),
            Pick(&[GREAT_MAMMOTH]),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Lp0)));
    assert_eq!(d.view().opponent.lp, 0);
    assert!(d.view().you.lp > 0);
    // The longest line here: its share code still fits in a short URL.
    let code = d.share_code();
    println!(
        "share code of the 43-command burn game: {} characters",
        code.len()
    );
    assert!(code.len() <= 200, "share code of {} characters", code.len());
    assert_eq!(Duel::from_share_code(&code).expect("replays"), d);
}
