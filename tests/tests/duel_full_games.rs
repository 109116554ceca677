//! Whole games of the playable preset decks from fixed seeds, played command by command
//! from the opening hand to the end. The lines were found with the crate's solver
//! (`examples/find_lines.rs`, or among the winning lines of its guided playouts,
//! `solver::rollout` cut with `solver::minimize`, for one that shows what a test names)
//! and are written with card names so they read like a game.

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
    play_on(&mut d, script);
    d
}

/// Plays the script on from where the duel is, checking the invariants after every command.
fn play_on(d: &mut Duel, script: &[S]) {
    for (i, step) in script.iter().enumerate() {
        assert!(
            d.outcome().is_none(),
            "the game ended early, before step {i}: {:?}",
            d.outcome()
        );
        let cmd = match *step {
            Activate(code) => Command::ActivateSpell {
                card: find(d, code, &["hand", "spellTrapZone", "fieldZone"]),
            },
            Effect(code) => Command::ActivateEffect {
                card: find(d, code, &["fieldZone", "spellTrapZone", "mainMonsterZone"]),
            },
            Summon(code) => Command::SummonMonster {
                card: find(d, code, &["hand"]),
            },
            Synchro(code) => Command::SynchroSummon {
                card: find(d, code, &["extraDeck"]),
            },
            Pass => Command::PassChain,
            Mode(m) => Command::Respond(Response::Option(m)),
            Pick(codes) => {
                let mut pool = candidates(d);
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
        check_invariants(d);
    }
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
            Activate(DUALITY),
            Pick(&[RIGHT_LEG]),
            Activate(MALLET),
            Pick(&[GREED]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(PEACE),
        ],
    );
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    // Two Chicken Game payments.
    assert_eq!(d.view().you.lp, 6000);
}

#[test]
fn seed_6_wins_with_exodia_after_chaining_hand_destruction() {
    let mut d = play_script(
        6,
        &[
            Activate(DUALITY),
            Pick(&[GREED]),
            Activate(CHARITY),
            Pick(&[RIGHT_LEG, MSE]),
            Activate(GREED),
            Activate(GREED),
            Activate(CHICKEN),
            Activate(VOID),
            Activate(CHARITY),
            Pick(&[MALLET, FACTORY]),
            Effect(CHICKEN),
            Mode(0),
            Activate(GREED),
            Activate(CHARITY),
            Pick(&[RIGHT_ARM, FACTORY]),
            Activate(UPSTART),
        ],
    );
    // Upstart Goblin waits on the chain: Hand Destruction is chained to it.
    let chain = d.view().chain;
    assert_eq!(chain.len(), 1);
    assert_eq!(chain[0].card.code, Some(UPSTART));
    play_on(
        &mut d,
        &[
            Activate(HAND_DEST),
            Pick(&[PEACE, MALLET]),
            Activate(VOID),
            Activate(FACTORY),
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
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(VOID),
            Activate(CHARITY),
            Pick(&[FACTORY, FACTORY]),
            Activate(DUALITY),
            Pick(&[VOID]),
            Activate(CHARITY),
            Pick(&[PEACE, FACTORY]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(VOID),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(VOID),
            Activate(GREED),
            Activate(HAND_DEST),
            Pick(&[MSE, TERRAFORMING]),
            Activate(TERRAFORMING),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(UPSTART),
            Activate(GREED),
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
            Pick(&[LEFT_LEG, TERRAFORMING]),
            Activate(CHARITY),
            Pick(&[DUALITY, PEACE]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(UPSTART),
            Activate(MSE),
            Pick(&[VOID, CHICKEN]),
            Pick(&[TERRAFORMING]),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Activate(DEMISE),
            Activate(UPSTART),
            Activate(VOID),
            Activate(PEACE),
            Effect(CHICKEN),
            Mode(0),
            Activate(GREED),
            Activate(CHARITY),
            Activate(HAND_DEST),
            Pick(&[MALLET, EXODIA]),
            Pick(&[MSE, MALLET]),
            Activate(GREED),
            Activate(GREED),
            Activate(CHARITY),
            Pick(&[LEFT_ARM, RIGHT_ARM]),
            Activate(VOID),
            Activate(FACTORY),
            Pick(&[LEFT_LEG, RIGHT_ARM]),
            Activate(HAND_DEST),
            Pick(&[FACTORY, RIGHT_LEG]),
            Activate(MSE),
            Pick(&[FACTORY, LEFT_LEG]),
            Pick(&[HAND_DEST]),
            Activate(TERRAFORMING),
            Pass,
            Activate(PEACE),
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
            Activate(VOID),
            Activate(GREED),
            Activate(VOID),
            Activate(MSE),
            Pick(&[TERRAFORMING, SANGAN]),
            Pick(&[GREED]),
            Activate(UPSTART),
            Activate(GREED),
            Activate(PEACE),
            Pass,
            Activate(UPSTART),
            Activate(HAND_DEST),
            Pick(&[FACTORY, FACTORY]),
            Activate(CHICKEN),
            Activate(DUALITY),
            Pick(&[CHICKEN]),
            Effect(CHICKEN),
            Mode(0),
            Activate(UPSTART),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(GREED),
            Activate(CHARITY),
            Pass,
            Pick(&[HAND_DEST, CHICKEN]),
            Activate(CHARITY),
            Pick(&[SANGAN, RIGHT_LEG]),
            Activate(FACTORY),
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
            Activate(PEACE),
            Summon(LIBRARY),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Effect(CHICKEN),
            Mode(0),
            Activate(TOON_TABLE),
            Pick(&[TOON_WORLD]),
            Activate(TOON_WORLD),
            // Three Spells resolved with the Library face-up: remove 3, draw 1.
            Effect(LIBRARY),
            Activate(TERRAFORMING),
            Pick(&[CHICKEN]),
            Activate(CHICKEN),
            Activate(MALLET),
            Pick(&[GOLDEN_BAMBOO, LEFT_ARM]),
            Effect(LIBRARY),
            Activate(TERRAFORMING),
            Effect(CHICKEN),
            Mode(0),
            Activate(HAND_DEST),
            Pick(&[FACTORY, CHICKEN]),
            Activate(BROKEN_BAMBOO),
            Activate(GOLDEN_BAMBOO),
            Activate(PEACE),
            Effect(LIBRARY),
            Activate(GOLDEN_BAMBOO),
            Activate(GOLDEN_BAMBOO),
            Activate(VOID),
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
    // Treasure Panda summons Lunar Rabbit Omajinai and Exodia's limbs from the deck; White
    // Elephant's Gift, Wonder Wand and a Synchro Summon send them to the graveyard for
    // draws, and Dark Factory brings them home.
    let d = play_deck(
        "panda-exodia-deck",
        5,
        &[
            Activate(MALLET),
            Pick(&[PEACE]),
            Activate(CHICKEN),
            Activate(MALLET),
            Pick(&[WONDER_WAND]),
            Summon(TREASURE_PANDA),
            Effect(CHICKEN),
            Mode(0),
            Effect(TREASURE_PANDA),
            Pick(&[MALLET]),
            Pick(&[LUNAR_RABBIT]),
            Mode(0),
            Activate(WHITE_ELEPHANT),
            Effect(TREASURE_PANDA),
            Pick(&[WHITE_ELEPHANT]),
            Pick(&[RIGHT_LEG]),
            Mode(0),
            Effect(TREASURE_PANDA),
            Pick(&[LEFT_ARM]),
            Mode(1),
            Activate(CHICKEN),
            Effect(TREASURE_PANDA),
            Pick(&[RIGHT_ARM]),
            Mode(1),
            Effect(CHICKEN),
            Mode(0),
            Activate(WONDER_WAND),
            Pick(&[LEFT_ARM]),
            Effect(WONDER_WAND),
            Activate(FACTORY),
            Effect(TREASURE_PANDA),
            Pick(&[FACTORY]),
            Mode(0),
            Synchro(STARDUST_CHARGE),
            Pick(&[TREASURE_PANDA, RIGHT_LEG, LUNAR_RABBIT]),
            Mode(1),
            Mode(0),
            Activate(WONDER_WAND),
            Effect(WONDER_WAND),
            Activate(UPSTART),
            Activate(FACTORY),
            Pick(&[RIGHT_LEG, RIGHT_ARM]),
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
