//! Seeds and click scripts the duel's browser tests rely on (test code only).
//!
//! The seeds come with the opening hands they were chosen for, and the scripted games they
//! click through (found with `cargo run -p web --example find_seeds` and `--example
//! find_scripts`, or among the winning lines of the solver's guided playouts for one that
//! shows what a script must; checked natively below). The browser tests, the web crate's
//! unit tests and the `find_scripts` example include this file as a module, and no build
//! of the app carries it.

use duel_engine::view::{DuelView, PromptKind};
use duel_engine::{CardId, Code, Command, Duel, Event, Response, Settings};

use web::duel::practice::history::passes_by_itself;

/// exodia-deck: the opening hand holds Graceful Charity, Into the Void, Dark Factory,
/// Card of Demise and Left Leg of the Forbidden One, and no quick-play spell.
pub const SEED_GRACEFUL_CHARITY: u64 = 1;

/// exodia-deck: the opening hand holds Chicken Game (a field spell with a modal ignition).
pub const SEED_CHICKEN_GAME: u64 = 2;

/// exodia-deck: the opening hand holds Hand Destruction (a Quick-Play Spell, so ending
/// the turn stops in the End Phase) and Upstart Goblin, One Day of Peace, Card of Demise
/// and Right Arm of the Forbidden One.
pub const SEED_HAND_DESTRUCTION: u64 = 0;

/// library-exodia-deck: the opening hand holds Royal Magical Library, Broken Bamboo
/// Sword, Upstart Goblin and two Into the Void, and no Quick-Play Spell.
pub const SEED_LIBRARY: u64 = 21;

/// library-exodia-deck: the opening hand holds Summoner Monk, three Spells to discard
/// for its effect (Chicken Game, One Day of Peace, Pot of Duality) and Left Leg; Royal
/// Magical Library is in the deck.
pub const SEED_SUMMONER_MONK: u64 = 1;

/// library-exodia-deck: [`LIBRARY_WIN`] wins from this seed.
pub const SEED_LIBRARY_WIN: u64 = 14;

/// panda-exodia-deck: [`PANDA_WIN`] wins from this seed, through a Synchro Summon.
pub const SEED_PANDA_WIN: u64 = 5;

/// scientist-catapult-deck: [`SCIENTIST_WIN`] burns the opponent to 0 from this seed;
/// its first move, Reasoning, declares a Level and excavates.
pub const SEED_SCIENTIST_WIN: u64 = 1;

/// scientist-catapult-deck: the opening hand holds Fiend's Sanctuary and two Catapult
/// Turtles (a Tribute Summon can take the Token).
pub const SEED_FIENDS_SANCTUARY: u64 = 18;

pub const GRACEFUL_CHARITY: u32 = 79571449;
pub const CHICKEN_GAME: u32 = 67616300;
pub const INTO_THE_VOID: u32 = 93946239;
pub const LEFT_LEG: u32 = 44519536;
pub const DARK_FACTORY: u32 = 90928333;
pub const HAND_DESTRUCTION: u32 = 74519184;
pub const UPSTART_GOBLIN: u32 = 70368879;
pub const ONE_DAY_OF_PEACE: u32 = 33782437;
pub const CARD_OF_DEMISE: u32 = 59750328;
pub const RIGHT_ARM: u32 = 70903634;
pub const RIGHT_LEG: u32 = 8124921;
pub const POT_OF_DUALITY: u32 = 98645731;
pub const TERRAFORMING: u32 = 73628505;
pub const LIBRARY: u32 = 70791313;
pub const SUMMONER_MONK: u32 = 423585;
pub const TOON_TABLE: u32 = 89997728;
pub const TOON_WORLD: u32 = 15259703;
pub const BROKEN_BAMBOO: u32 = 41587307;
pub const GOLDEN_BAMBOO: u32 = 74029853;
pub const SANGAN: u32 = 26202165;
pub const WITCH: u32 = 78010363;
pub const DARK_MAGICIAN_OF_CHAOS: u32 = 40737112;
pub const POT_OF_GREED: u32 = 55144522;
pub const THOUSAND_EYES_IDOL: u32 = 27125110;
pub const LEFT_ARM: u32 = 7902349;
pub const MAGICAL_MALLET: u32 = 85852291;
pub const TREASURE_PANDA: u32 = 45221020;
pub const LUNAR_RABBIT: u32 = 47643326;
pub const WONDER_WAND: u32 = 67775894;
pub const WHITE_ELEPHANT: u32 = 18756904;
pub const FORMULA_SYNCHRON: u32 = 50091196;
pub const STARDUST_CHARGE: u32 = 64880894;
pub const HYPER_LIBRARIAN: u32 = 90953320;
pub const SCIENTIST: u32 = 34206604;
pub const CATAPULT_TURTLE: u32 = 95727991;
pub const CRIMSON_SUNBIRD: u32 = 46696593;
pub const AQUA_DRAGON: u32 = 86164529;
pub const GREAT_MAMMOTH: u32 = 54622031;
pub const FIENDS_SANCTUARY: u32 = 24874630;
pub const METAL_FIEND_TOKEN: u32 = 24874631;
pub const PREMATURE_BURIAL: u32 = 70828912;
pub const LAST_WILL: u32 = 85602018;
pub const REASONING: u32 = 58577036;

/// A position no preset deck deals but whose questions the dialog must ask: Dark
/// Magician of Chaos in hand (a Pot of Greed in the graveyard for its optional trigger)
/// and Sangan and Witch of the Black Forest on the field as its Tributes. Summoning it
/// asks whether to use its trigger (yes/no), then in which order Sangan's and Witch's
/// simultaneous triggers form the chain.
pub fn trigger_position() -> Result<Duel, duel_engine::SetupError> {
    duel_engine::Setup::new()
        .hand([DARK_MAGICIAN_OF_CHAOS])
        .monster(SANGAN)
        .monster(WITCH)
        .graveyard([POT_OF_GREED])
        .deck([THOUSAND_EYES_IDOL; 3])
        .build()
}

use Move::{Activate, Effect, Option as Choose, Pick, Summon, Synchro};

/// A whole game of `library-exodia-deck` from [`SEED_LIBRARY_WIN`] to an Exodia win:
/// Chicken Game and Toon World pay LP for draws, Royal Magical Library collects Spell
/// Counters from every Spell (Broken Bamboo Sword equipped to it, Golden Bamboo Sword
/// three times) and draws four times, the last time the last piece.
pub const LIBRARY_WIN: &[Move] = &[
    Activate(ONE_DAY_OF_PEACE),
    Activate(UPSTART_GOBLIN),
    Activate(ONE_DAY_OF_PEACE),
    Summon(LIBRARY),
    Activate(TERRAFORMING),
    Pick(&[CHICKEN_GAME]),
    Activate(CHICKEN_GAME),
    Effect(CHICKEN_GAME),
    Choose("0"),
    Activate(TOON_TABLE),
    Pick(&[TOON_WORLD]),
    Activate(TOON_WORLD),
    Effect(LIBRARY),
    Activate(TERRAFORMING),
    Pick(&[CHICKEN_GAME]),
    Activate(CHICKEN_GAME),
    Activate(MAGICAL_MALLET),
    Pick(&[GOLDEN_BAMBOO, LEFT_ARM]),
    Effect(LIBRARY),
    Activate(TERRAFORMING),
    Effect(CHICKEN_GAME),
    Choose("0"),
    Activate(HAND_DESTRUCTION),
    Pick(&[DARK_FACTORY, CHICKEN_GAME]),
    Activate(BROKEN_BAMBOO),
    Activate(GOLDEN_BAMBOO),
    Activate(ONE_DAY_OF_PEACE),
    Effect(LIBRARY),
    Activate(GOLDEN_BAMBOO),
    Activate(GOLDEN_BAMBOO),
    Activate(INTO_THE_VOID),
    Effect(LIBRARY),
];

/// A whole game of `panda-exodia-deck` from [`SEED_PANDA_WIN`] to an Exodia win:
/// Treasure Panda banishes Spells to Special Summon Lunar Rabbit Omajinai and Exodia's
/// limbs from the deck, White Elephant's Gift and Wonder Wand send them to the graveyard
/// for draws, Stardust Charge Warrior is Synchro Summoned from Treasure Panda, Lunar
/// Rabbit Omajinai (the Tuner) and Right Leg and draws, and two Dark Factories bring the
/// cards back to the hand.
pub const PANDA_WIN: &[Move] = &[
    Activate(MAGICAL_MALLET),
    Pick(&[ONE_DAY_OF_PEACE]),
    Activate(CHICKEN_GAME),
    Activate(MAGICAL_MALLET),
    Pick(&[WONDER_WAND]),
    Summon(TREASURE_PANDA),
    Effect(CHICKEN_GAME),
    Choose("0"),
    Effect(TREASURE_PANDA),
    Pick(&[MAGICAL_MALLET]),
    Pick(&[LUNAR_RABBIT]),
    Choose("attack"),
    Activate(WHITE_ELEPHANT),
    Effect(TREASURE_PANDA),
    Pick(&[WHITE_ELEPHANT]),
    Pick(&[RIGHT_LEG]),
    Choose("attack"),
    Effect(TREASURE_PANDA),
    Pick(&[LEFT_ARM]),
    Choose("defense"),
    Activate(CHICKEN_GAME),
    Effect(TREASURE_PANDA),
    Pick(&[RIGHT_ARM]),
    Choose("defense"),
    Effect(CHICKEN_GAME),
    Choose("0"),
    Activate(WONDER_WAND),
    Pick(&[LEFT_ARM]),
    Effect(WONDER_WAND),
    Activate(DARK_FACTORY),
    Effect(TREASURE_PANDA),
    Pick(&[DARK_FACTORY]),
    Choose("attack"),
    Synchro(STARDUST_CHARGE),
    Pick(&[TREASURE_PANDA, RIGHT_LEG, LUNAR_RABBIT]),
    Choose("defense"),
    Choose("yes"),
    Activate(WONDER_WAND),
    Effect(WONDER_WAND),
    Activate(UPSTART_GOBLIN),
    Activate(DARK_FACTORY),
    Pick(&[RIGHT_LEG, RIGHT_ARM]),
];

/// The index in [`PANDA_WIN`] of its Synchro Summon.
pub const PANDA_SYNCHRO_AT: usize = 33;

/// A whole game of `scientist-catapult-deck` from [`SEED_SCIENTIST_WIN`] to the
/// opponent's LP 0: Reasoning and Last Will put Magical Scientist and Catapult Turtle on
/// the field, Premature Burial revives one, Magical Scientist pays 1000 LP per Fusion
/// monster and Catapult Turtle Tributes each for half its ATK (Last Will's summon is
/// declined when the first one goes).
pub const SCIENTIST_WIN: &[Move] = &[
    Activate(REASONING),
    Choose("attack"),
    Activate(LAST_WILL),
    Activate(REASONING),
    Effect(SCIENTIST),
    Pick(&[CRIMSON_SUNBIRD]),
    Choose("defense"),
    Activate(PREMATURE_BURIAL),
    Effect(SCIENTIST),
    Pick(&[AQUA_DRAGON]),
    Choose("attack"),
    Effect(SCIENTIST),
    Pick(&[CRIMSON_SUNBIRD]),
    Choose("defense"),
    Effect(CATAPULT_TURTLE),
    Pick(&[CRIMSON_SUNBIRD]),
    Choose("no"),
    Effect(CATAPULT_TURTLE),
    Pick(&[CRIMSON_SUNBIRD]),
    Effect(SCIENTIST),
    Pick(&[CRIMSON_SUNBIRD]),
    Choose("defense"),
    Effect(SCIENTIST),
    Pick(&[AQUA_DRAGON]),
    Choose("attack"),
    Effect(CATAPULT_TURTLE),
    Pick(&[CRIMSON_SUNBIRD]),
    Effect(SCIENTIST),
    Pick(&[GREAT_MAMMOTH]),
    Choose("attack"),
    Effect(CATAPULT_TURTLE),
    Pick(&[AQUA_DRAGON]),
    Effect(SCIENTIST),
    Pick(&[GREAT_MAMMOTH]),
    Choose("defense"),
    Effect(CATAPULT_TURTLE),
    Pick(&[GREAT_MAMMOTH]),
    Effect(CATAPULT_TURTLE),
    Pick(&[AQUA_DRAGON]),
    Effect(CATAPULT_TURTLE),
    Pick(&[SCIENTIST]),
    Effect(CATAPULT_TURTLE),
    Pick(&[GREAT_MAMMOTH]),
];

/// One move of a scripted game as a player makes it on the page, naming cards by
/// passcode: the first copy in the hand, on the field (field zone, then M1..M5, then
/// S1..S5, the page's order) or among a dialog's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Hand card → 「発動」.
    Activate(Code),
    /// Hand card → 「召喚」.
    Summon(Code),
    /// Field card → 「効果発動」.
    Effect(Code),
    /// Extra Deck list → 「シンクロ召喚」 beside this monster.
    Synchro(Code),
    /// Card dialog: these cards (one option per passcode), then 「決定」.
    Pick(&'static [Code]),
    /// Choice dialog: the option whose `data-option` is this key (`yes`, `defense`, `0`).
    Option(&'static str),
    /// Chain dialog: 「チェーンしない」 (only where something could be chained: otherwise
    /// the page passes by itself).
    Pass,
    /// 「ターン終了」.
    EndTurn,
}

/// The engine command a move stands for, given the duel as the page shows it.
pub fn command_for(view: &DuelView, mv: Move) -> Option<Command> {
    let in_hand = |code: Code| view.you.hand.iter().find(|c| c.code == Some(code));
    Some(match mv {
        Move::Activate(code) => Command::ActivateSpell {
            card: in_hand(code)?.id,
        },
        Move::Summon(code) => Command::SummonMonster {
            card: in_hand(code)?.id,
        },
        Move::Effect(code) => {
            let mut field = view
                .you
                .field_zone
                .iter()
                .chain(view.you.monsters.iter().flatten())
                .chain(view.you.spell_trap.iter().flatten());
            let card = field.find(|c| c.code == Some(code))?;
            Command::ActivateEffect { card: card.id }
        }
        Move::Synchro(code) => Command::SynchroSummon {
            card: view.you.extra.iter().find(|c| c.code == Some(code))?.id,
        },
        Move::Pick(codes) => {
            let PromptKind::Cards { candidates, .. } = &view.prompt.as_ref()?.kind else {
                return None;
            };
            let mut chosen: Vec<CardId> = Vec::new();
            for &code in codes {
                let c = candidates
                    .iter()
                    .find(|c| c.code == Some(code) && !chosen.contains(&c.id))?;
                chosen.push(c.id);
            }
            Command::Respond(Response::Cards(chosen))
        }
        Move::Option(key) => {
            let PromptKind::Choice { options, .. } = &view.prompt.as_ref()?.kind else {
                return None;
            };
            let o = options.iter().find(|o| o.key() == key)?;
            Command::Respond(Response::Option(o.value))
        }
        Move::Pass => Command::PassChain,
        Move::EndTurn => Command::EndTurn,
    })
}

/// A game of `library-exodia-deck` from [`SEED_LIBRARY_WIN`] that throws the win away:
/// the commands of [`LIBRARY_WIN`] up to the first position (after the second command)
/// where setting a card instead is proved to lose, that set, up to two more commands,
/// then the end of the turn, each followed by the page's automatic passes. Built from
/// the solver's answers (`budget` positions per proof), so it holds for whatever the deck
/// order is; the browser tests open it on the replay page and end its turn on the duel
/// page.
#[derive(Debug, Clone, PartialEq)]
pub struct LostGame {
    pub commands: Vec<Command>,
    /// The index of the set that loses: the game's point of no return.
    pub fatal: usize,
    /// Where the end of the turn starts: `commands[..ending]` is the game just before the
    /// player ends the turn.
    pub ending: usize,
}

/// A budget that proves the lost game's set loses (and keeps building it quick in a
/// debug build in the browser).
pub const LOST_GAME_BUDGET: usize = 2_000;

pub fn lost_game(budget: usize) -> Result<LostGame, String> {
    use duel_engine::solver::{Search, choices, solve};
    let deck = "library-exodia-deck";
    let goal = duel_engine::stats::goal_of(deck).map_err(|e| e.to_string())?;
    let line = play_script(deck, SEED_LIBRARY_WIN, LIBRARY_WIN)
        .map_err(|e| e.reason)?
        .log()
        .to_vec();
    let mut d = start(deck, SEED_LIBRARY_WIN)?;
    let applied = |d: &mut Duel, cmd: &Command| -> Result<(), String> {
        d.apply(cmd.clone()).map_err(|e| e.to_string())?;
        auto_pass(d).map(|_| ())
    };
    while d.log().len() < line.len() {
        let k = d.log().len();
        let planned = &line[k];
        let loses = |c: &Command| {
            let mut after = d.clone();
            matches!(c, Command::SetMonster { .. } | Command::SetSpellTrap { .. })
                && c != planned
                && applied(&mut after, c).is_ok()
                && solve(&after, goal, budget, 1).0 == Search::Impossible
        };
        let fatal = if k >= 2 {
            choices(&d).into_iter().find(loses)
        } else {
            None
        };
        let Some(fatal) = fatal else {
            d.apply(planned.clone()).map_err(|e| e.to_string())?;
            continue;
        };
        applied(&mut d, &fatal)?;
        // Answers what the commands ask, so the turn's end starts on an open position.
        let settle = |d: &mut Duel| -> Result<(), String> {
            while d.outcome().is_none() && d.view().prompt.is_some() {
                let answer = choices(d)
                    .into_iter()
                    .next()
                    .ok_or("a prompt with no answer")?;
                applied(d, &answer)?;
            }
            Ok(())
        };
        settle(&mut d)?;
        for _ in 0..2 {
            let next = choices(&d).into_iter().find(|c| *c != Command::EndTurn);
            if let Some(next) = next.filter(|_| d.outcome().is_none()) {
                applied(&mut d, &next)?;
                settle(&mut d)?;
            }
        }
        let ending = d.log().len();
        for _ in 0..10 {
            if d.outcome().is_some() {
                return Ok(LostGame {
                    commands: d.log().to_vec(),
                    fatal: k,
                    ending,
                });
            }
            applied(&mut d, &Command::EndTurn)?;
        }
        return Err("the turn does not end".to_owned());
    }
    Err("no set card along the line loses".to_owned())
}

/// Why a scripted game could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// Index of the move in the script.
    pub at: usize,
    pub reason: String,
}

/// Plays one move as the page would: the move's command, then the page's own automatic
/// passes. Returns every event, in order (what the page's log shows for the move).
pub fn play_move(duel: &mut Duel, mv: Move) -> Result<Vec<Event>, String> {
    let view = duel.view();
    if let Some(o) = view.outcome {
        return Err(format!("the duel already ended: {o:?}"));
    }
    let cmd = command_for(&view, mv).ok_or_else(|| format!("{mv:?}: no such card or option"))?;
    let mut events = duel
        .apply(cmd.clone())
        .map_err(|e| format!("{mv:?} = {cmd:?} refused: {e}"))?;
    events.extend(auto_pass(duel)?);
    Ok(events)
}

/// A fresh duel as the page starts it (default rules, opening passes applied).
pub fn start(deck: &str, seed: u64) -> Result<Duel, String> {
    let mut duel =
        Duel::with_settings(deck, seed, Settings::default()).map_err(|e| e.to_string())?;
    auto_pass(&mut duel)?;
    Ok(duel)
}

/// Plays a script from a fresh duel as the page would.
pub fn play_script(deck: &str, seed: u64, moves: &[Move]) -> Result<Duel, ScriptError> {
    let mut duel = start(deck, seed).map_err(|reason| ScriptError { at: 0, reason })?;
    for (at, &mv) in moves.iter().enumerate() {
        play_move(&mut duel, mv).map_err(|reason| ScriptError { at, reason })?;
    }
    Ok(duel)
}

fn auto_pass(duel: &mut Duel) -> Result<Vec<Event>, String> {
    let mut events = Vec::new();
    while passes_by_itself(&duel.view(), &duel.legal_commands()) {
        events.extend(
            duel.apply(Command::PassChain)
                .map_err(|e| format!("automatic pass refused: {e}"))?,
        );
    }
    Ok(events)
}

// The seeds' own checks run natively, in the library's unit tests (`duel::test_seeds`); the
// browser test files that include this module do not repeat them.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use duel_engine::view::{Meaning, Question};
    use duel_engine::{Command, Duel, Face, OrderOf, Outcome, Phase, Position, Reason};

    fn hand(duel: &Duel) -> Vec<u32> {
        duel.view().you.hand.iter().filter_map(|c| c.code).collect()
    }

    fn step(duel: &mut Duel, mv: Move) {
        if let Err(e) = play_move(duel, mv) {
            panic!("{e}");
        }
    }

    fn has_quick_play(duel: &Duel) -> bool {
        hand(duel).contains(&HAND_DESTRUCTION)
    }

    #[test]
    fn hand_destruction_seed_discards_two_cards_into_each_graveyard() {
        let mut duel = start("exodia-deck", SEED_HAND_DESTRUCTION).expect("starts");
        let opening = hand(&duel);
        for code in [
            HAND_DESTRUCTION,
            UPSTART_GOBLIN,
            ONE_DAY_OF_PEACE,
            CARD_OF_DEMISE,
            RIGHT_ARM,
        ] {
            assert!(opening.contains(&code), "{code} missing from {opening:?}");
        }
        step(&mut duel, Activate(HAND_DESTRUCTION));
        assert!(duel.view().prompt.is_some(), "the discard prompt is shown");
        step(&mut duel, Pick(&[ONE_DAY_OF_PEACE, CARD_OF_DEMISE]));
        let view = duel.view();
        assert_eq!(view.opponent.graveyard.len(), 2);
        assert!(
            view.opponent.graveyard.iter().all(|c| c.code.is_some()),
            "graveyard cards are public"
        );
        assert_eq!(
            view.you.graveyard.len(),
            3,
            "Hand Destruction and 2 discards"
        );
    }

    #[test]
    fn hand_destruction_seed_stops_in_the_end_phase_until_the_turn_is_ended_again() {
        let mut duel = start("exodia-deck", SEED_HAND_DESTRUCTION).expect("starts");
        step(&mut duel, Move::EndTurn);
        assert_eq!(duel.phase(), Phase::End);
        assert_eq!(duel.outcome(), None);
        let legal = duel.legal_commands();
        assert!(legal.contains(&Command::EndTurn));
        assert!(
            legal
                .iter()
                .any(|c| matches!(c, Command::ActivateSpell { .. }))
        );
        // Activating it there resolves and the turn runs to its end by itself.
        let mut activated = duel.clone();
        step(&mut activated, Activate(HAND_DESTRUCTION));
        step(&mut activated, Pick(&[ONE_DAY_OF_PEACE, CARD_OF_DEMISE]));
        assert_eq!(activated.view().opponent.graveyard.len(), 2);
        assert_eq!(activated.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
        // Or the player ends the turn again.
        step(&mut duel, Move::EndTurn);
        assert_eq!(duel.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
    }

    #[test]
    fn library_seed_collects_counters_carries_an_equip_and_orders_two_end_phase_effects() {
        let mut duel = start("library-exodia-deck", SEED_LIBRARY).expect("starts");
        let opening = hand(&duel);
        for code in [LIBRARY, BROKEN_BAMBOO, UPSTART_GOBLIN, INTO_THE_VOID] {
            assert!(opening.contains(&code), "{code} missing from {opening:?}");
        }
        assert!(!has_quick_play(&duel));
        step(&mut duel, Summon(LIBRARY));
        let library = duel.view().you.monsters[0].expect("Library in M1");
        assert_eq!(library.code, Some(LIBRARY));
        assert_eq!(library.counters, 0);
        step(&mut duel, Activate(UPSTART_GOBLIN));
        assert_eq!(duel.view().you.monsters[0].map(|c| c.counters), Some(1));
        step(&mut duel, Activate(BROKEN_BAMBOO));
        let view = duel.view();
        assert_eq!(view.you.monsters[0].map(|c| c.counters), Some(2));
        let sword = view
            .you
            .spell_trap
            .iter()
            .flatten()
            .find(|c| c.code == Some(BROKEN_BAMBOO))
            .expect("the sword stays on the field");
        assert_eq!(sword.equipped_to, Some(library.id));
        step(&mut duel, Activate(INTO_THE_VOID));
        step(&mut duel, Activate(INTO_THE_VOID));
        assert_eq!(duel.view().you.monsters[0].map(|c| c.counters), Some(3));
        assert!(!has_quick_play(&duel), "nothing keeps the End Phase open");
        step(&mut duel, Move::EndTurn);
        let prompt = duel.view().prompt.expect("the End Phase asks for an order");
        let PromptKind::Choice { question, options } = prompt.kind else {
            panic!("a choice prompt");
        };
        assert_eq!(question, Question::Order(OrderOf::EndPhase));
        let keys: Vec<String> = options.iter().map(|o| o.key()).collect();
        assert_eq!(keys, ["0", "1"]);
        for o in &options {
            assert!(matches!(o.meaning, Meaning::Card(c) if c.code == Some(INTO_THE_VOID)));
        }
        step(&mut duel, Choose("0"));
        assert_eq!(duel.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
    }

    #[test]
    fn summoner_monk_seed_turns_to_defense_and_special_summons_library_in_a_chosen_position() {
        let mut duel = start("library-exodia-deck", SEED_SUMMONER_MONK).expect("starts");
        let opening = hand(&duel);
        for code in [
            SUMMONER_MONK,
            ONE_DAY_OF_PEACE,
            CHICKEN_GAME,
            POT_OF_DUALITY,
        ] {
            assert!(opening.contains(&code), "{code} missing from {opening:?}");
        }
        assert!(!has_quick_play(&duel));
        step(&mut duel, Summon(SUMMONER_MONK));
        let monk = duel.view().you.monsters[0].expect("Monk in M1");
        assert_eq!(
            (monk.face, monk.position),
            (Face::Up, Some(Position::Defense))
        );
        step(&mut duel, Effect(SUMMONER_MONK));
        step(&mut duel, Pick(&[ONE_DAY_OF_PEACE]));
        step(&mut duel, Pick(&[LIBRARY]));
        let prompt = duel.view().prompt.expect("the position is asked");
        assert!(matches!(
            prompt.kind,
            PromptKind::Choice {
                question: Question::Position,
                ..
            }
        ));
        assert_eq!(prompt.subject.and_then(|c| c.code), Some(LIBRARY));
        step(&mut duel, Choose("defense"));
        let library = duel.view().you.monsters[1].expect("Library in M2");
        assert_eq!(library.code, Some(LIBRARY));
        assert_eq!(
            (library.face, library.position),
            (Face::Up, Some(Position::Defense))
        );
    }

    #[test]
    fn the_library_script_wins_with_exodia_the_way_the_page_plays_it() {
        let duel = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(duel.outcome(), Some(Outcome::Win(Reason::Exodia)));
        // The script shows the new machinery: counters were spent and an equip was used.
        let view = duel.view();
        assert!(
            view.you
                .monsters
                .iter()
                .flatten()
                .any(|c| c.code == Some(LIBRARY))
        );
        assert!(
            view.you
                .spell_trap
                .iter()
                .flatten()
                .any(|c| c.code == Some(BROKEN_BAMBOO) && c.equipped_to.is_some())
        );
    }

    #[test]
    fn the_panda_script_synchro_summons_stardust_charge_warrior_and_wins_with_exodia() {
        let before = play_script(
            "panda-exodia-deck",
            SEED_PANDA_WIN,
            &PANDA_WIN[..PANDA_SYNCHRO_AT],
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(PANDA_WIN[PANDA_SYNCHRO_AT], Synchro(STARDUST_CHARGE));
        let view = before.view();
        let stardust = view
            .you
            .extra
            .iter()
            .find(|c| c.code == Some(STARDUST_CHARGE))
            .expect("in the Extra Deck");
        assert!(
            before
                .legal_commands()
                .contains(&Command::SynchroSummon { card: stardust.id }),
            "the page offers the Synchro Summon there"
        );
        let duel = play_script("panda-exodia-deck", SEED_PANDA_WIN, PANDA_WIN)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(duel.outcome(), Some(Outcome::Win(Reason::Exodia)));
        assert!(
            duel.view()
                .you
                .monsters
                .iter()
                .flatten()
                .any(|c| c.code == Some(STARDUST_CHARGE))
        );
    }

    #[test]
    fn the_scientist_script_burns_the_opponent_to_zero_the_way_the_page_plays_it() {
        let mut duel = start("scientist-catapult-deck", SEED_SCIENTIST_WIN).expect("starts");
        let events = play_move(&mut duel, SCIENTIST_WIN[0]).expect("Reasoning");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::LevelDeclared { .. })),
            "{events:?}"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Revealed { cards, .. } if !cards.is_empty())),
            "{events:?}"
        );
        let duel = play_script("scientist-catapult-deck", SEED_SCIENTIST_WIN, SCIENTIST_WIN)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(duel.outcome(), Some(Outcome::Win(Reason::Lp0)));
        let view = duel.view();
        assert_eq!(view.opponent.lp, 0);
        assert!(view.you.lp > 0);
    }

    #[test]
    fn fiends_sanctuary_seed_makes_a_token_that_vanishes_as_a_tribute() {
        let mut duel = start("scientist-catapult-deck", SEED_FIENDS_SANCTUARY).expect("starts");
        let opening = hand(&duel);
        assert!(opening.contains(&FIENDS_SANCTUARY), "{opening:?}");
        assert!(opening.contains(&CATAPULT_TURTLE), "{opening:?}");
        step(&mut duel, Activate(FIENDS_SANCTUARY));
        step(&mut duel, Choose("defense"));
        let token = duel.view().you.monsters[0].expect("the Token in M1");
        assert_eq!(token.code, Some(METAL_FIEND_TOKEN));
        assert_eq!(
            token.def().map(|d| d.frame),
            Some(duel_engine::card::Frame::Token)
        );
        let graveyard = duel.view().you.graveyard.len();
        // The Token is the only monster to Tribute, so the summon asks nothing.
        step(&mut duel, Summon(CATAPULT_TURTLE));
        assert_eq!(duel.view().prompt, None);
        let view = duel.view();
        assert!(
            view.you
                .monsters
                .iter()
                .flatten()
                .all(|c| c.code != Some(METAL_FIEND_TOKEN)),
            "the Token left the field"
        );
        assert_eq!(view.you.graveyard.len(), graveyard, "and vanished");
    }

    #[test]
    fn the_trigger_position_asks_yes_no_then_the_order_of_two_triggers() {
        let mut duel = trigger_position().expect("valid setup");
        let dmoc = duel.view().you.hand[0].id;
        duel.apply(Command::SummonMonster { card: dmoc })
            .expect("two Tributes on the field");
        let prompt = duel.view().prompt.expect("asks about the optional trigger");
        assert_eq!(prompt.source, Some(DARK_MAGICIAN_OF_CHAOS));
        assert_eq!(
            prompt.subject.and_then(|c| c.code),
            Some(DARK_MAGICIAN_OF_CHAOS)
        );
        assert!(matches!(
            prompt.kind,
            PromptKind::Choice {
                question: Question::UseTrigger,
                ..
            }
        ));
        step(&mut duel, Choose("yes"));
        let prompt = duel.view().prompt.expect("asks for the order");
        let PromptKind::Choice { question, options } = prompt.kind else {
            panic!("a choice prompt");
        };
        assert_eq!(question, Question::Order(OrderOf::Triggers));
        let cards: Vec<Option<u32>> = options
            .iter()
            .map(|o| match o.meaning {
                Meaning::Card(c) => c.code,
                _ => None,
            })
            .collect();
        assert_eq!(cards.len(), 2);
        assert!(cards.contains(&Some(SANGAN)) && cards.contains(&Some(WITCH)));
        assert_eq!(prompt.source, None, "the rules ask, not a card");
    }

    #[test]
    fn a_move_that_names_a_missing_card_is_refused_with_its_index() {
        let err = play_script("exodia-deck", SEED_GRACEFUL_CHARITY, &[Activate(LIBRARY)])
            .expect_err("no Library in that deck");
        assert_eq!(err.at, 0);
        assert!(err.reason.contains("no such card"), "{}", err.reason);
    }

    #[test]
    fn the_lost_game_sets_away_a_win_plays_on_and_loses_at_the_turns_end() {
        use duel_engine::analysis::{PointOfNoReturn, point_of_no_return};
        let game = lost_game(LOST_GAME_BUDGET).expect("builds");
        let end = Duel::replay(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &game.commands,
        )
        .expect("replays");
        assert!(matches!(end.outcome(), Some(Outcome::Lose(_))));
        assert!(game.fatal >= 2 && game.fatal < game.ending && game.ending < game.commands.len());
        assert!(matches!(
            game.commands[game.fatal],
            Command::SetMonster { .. } | Command::SetSpellTrap { .. }
        ));
        let answer = point_of_no_return(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &game.commands,
            web::duel::practice::jobs::NO_RETURN_BUDGET as usize,
        )
        .expect("replays");
        let PointOfNoReturn::NoReturn { step, line } = answer else {
            panic!("a point of no return: {answer:?}");
        };
        assert_eq!(step, game.fatal);
        let mut won = Duel::replay(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &game.commands[..step],
        )
        .expect("replays");
        for cmd in line {
            won.apply(cmd).expect("the line replays");
        }
        assert_eq!(won.outcome(), Some(Outcome::Win(Reason::Exodia)));
    }

    #[test]
    fn the_release_scans_lost_duel_is_the_lost_games_share_code() {
        // web/bench/a11y.mjs opens it on the replay page and, as an autosave, on the duel
        // page with its game-over dialog.
        let game = lost_game(LOST_GAME_BUDGET).expect("builds");
        let code = duel_engine::replay::encode_game(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &game.commands,
        );
        assert_eq!(
            include_str!("../../bench/fixtures/duel-lost.txt").trim(),
            code,
            "write this code into web/bench/fixtures/duel-lost.txt"
        );
    }

    #[test]
    fn chicken_game_seed_has_chicken_game() {
        let duel = Duel::new("exodia-deck", SEED_CHICKEN_GAME).expect("playable deck");
        let view = duel.view();
        assert!(view.outcome.is_none());
        assert!(view.you.hand.iter().any(|c| c.code == Some(CHICKEN_GAME)));
    }

    #[test]
    fn graceful_charity_seed_has_the_cards_the_browser_tests_use() {
        let duel = Duel::new("exodia-deck", SEED_GRACEFUL_CHARITY).expect("playable deck");
        let view = duel.view();
        let hand: Vec<u32> = view.you.hand.iter().filter_map(|c| c.code).collect();
        for code in [GRACEFUL_CHARITY, INTO_THE_VOID, LEFT_LEG, DARK_FACTORY] {
            assert!(hand.contains(&code), "{code} missing from {hand:?}");
        }
        // Activating Graceful Charity must be legal and lead to the discard prompt once the
        // chain is passed: that is the path the browser test clicks through.
        let gc = view
            .you
            .hand
            .iter()
            .find(|c| c.code == Some(GRACEFUL_CHARITY))
            .map(|c| c.id)
            .expect("in hand");
        let mut duel = duel;
        duel.apply(Command::ActivateSpell { card: gc })
            .expect("Graceful Charity can be activated");
        if duel.view().chain_window {
            assert_eq!(duel.legal_commands(), vec![Command::PassChain]);
            duel.apply(Command::PassChain).expect("pass");
        }
        let view = duel.view();
        assert!(view.prompt.is_some(), "discard prompt expected");
        assert_eq!(view.you.hand.len(), 7);
    }
}
