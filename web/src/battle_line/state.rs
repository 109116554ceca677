//! The Battle Line `Reducible`: wraps the engine's `Game`; `reduce` only applies commands and records the last error.

use std::rc::Rc;

use battle_line::{Card, Command, Deck, Event, Game, GameRecord, Player, RuleError, Settings};
use serde::{Deserialize, Serialize};
use yew::prelude::*;

/// localStorage key of the Battle Line autosave.
pub const KEY_SAVE: &str = "games.battle-line.save";
/// localStorage key of the computer's level (`easy`, `normal`, `hard`, `expert`).
pub const KEY_LEVEL: &str = "games.battle-line.level";
/// Bumped whenever the save format changes; an older save is discarded, not migrated.
pub const SAVE_VERSION: u32 = 1;

/// Who sits at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// The human is P0, the computer P1.
    Cpu,
    /// Two humans share one device.
    Pvp,
}

/// What the autosave holds: the mode and the engine's record (seed + settings + log).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSave {
    pub version: u32,
    pub mode: Mode,
    pub record: GameRecord,
}

impl BattleSave {
    pub fn to_json(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    /// Reads and replays a stored save. Anything that fails (bad JSON, other version,
    /// a log the engine refuses) is `None`: the caller discards it.
    pub fn load(json: &str) -> Option<(BattleSave, Game, usize)> {
        let save: BattleSave = serde_json::from_str(json).ok()?;
        if save.version != SAVE_VERSION {
            return None;
        }
        let (game, turn_start) = replay_with_turn_start(&save.record)?;
        Some((save, game, turn_start))
    }
}

/// Replays a record and also finds where the current turn began in its log, so undo
/// can stay inside the turn after a reload.
pub fn replay_with_turn_start(record: &GameRecord) -> Option<(Game, usize)> {
    let start = GameRecord {
        log: Vec::new(),
        ..record.clone()
    };
    let mut game = Game::replay(&start).ok()?;
    let mut turn_start = 0;
    for (i, cmd) in record.log.iter().enumerate() {
        let events = game.apply(*cmd).ok()?;
        if ends_turn(&events) {
            turn_start = i + 1;
        }
    }
    Some((game, turn_start))
}

fn ends_turn(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::TurnEnded { .. }))
}

/// Messages about loading, shown above the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    SaveDiscarded,
    Resumed,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct BattleState {
    pub mode: Option<Mode>,
    /// The seed of the next (or current) game; `None` until an effect picks one.
    pub seed: Option<u64>,
    pub settings: Settings,
    pub game: Option<Game>,
    /// Index in the log of the current turn's first command (undo never goes before it).
    pub turn_start: usize,
    pub last_error: Option<RuleError>,
    pub notice: Option<Notice>,
    /// Pass-and-play: the seat whose hand is on screen; another seat's turn shows the
    /// pass-the-device screen first.
    pub revealed: Option<Player>,
    /// The computer's commands of its latest turn, shown to the human.
    pub bot_turn: Vec<Command>,
    bot_turn_open: bool,
    /// Whether the autosave has been looked at (nothing is written or drawn before).
    pub loaded: bool,
    /// Bumped on every change worth saving; effects key on it.
    pub version: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The outcome of reading the autosave on mount.
    Loaded {
        save: Option<Box<(BattleSave, Game, usize)>>,
        discarded: bool,
    },
    /// A seed for the next game (from the address or from entropy).
    Seed(u64),
    SetSettings(Settings),
    Start(Mode),
    /// A human command.
    Apply(Command),
    /// The computer's command, computed for state `version`; stale ones are dropped.
    BotApply {
        version: u64,
        command: Command,
    },
    Undo,
    /// The same seed and mode again from the first card.
    Restart,
    /// Back to the mode choice with a fresh seed.
    NewGame,
    /// Pass-and-play: the next player has the device.
    Reveal,
    DismissError,
}

impl BattleState {
    /// The seat the screen is shown to: P0 against the computer, the current player
    /// in pass-and-play once they took the device.
    pub fn viewer(&self) -> Player {
        match (self.mode, &self.game) {
            (Some(Mode::Pvp), Some(g)) if g.is_over() => self.revealed.unwrap_or(Player::P0),
            (Some(Mode::Pvp), Some(g)) => g.current(),
            _ => Player::P0,
        }
    }

    /// Whether the pass-the-device screen must hide the table.
    pub fn hand_hidden(&self) -> bool {
        match (self.mode, &self.game) {
            (Some(Mode::Pvp), Some(g)) => !g.is_over() && self.revealed != Some(g.current()),
            _ => false,
        }
    }

    /// Whether a human may act now (it is a human's turn and their hand is shown).
    pub fn human_to_move(&self) -> bool {
        match (self.mode, &self.game) {
            (Some(Mode::Cpu), Some(g)) => !g.is_over() && g.current() == Player::P0,
            (Some(Mode::Pvp), Some(g)) => !g.is_over() && !self.hand_hidden(),
            _ => false,
        }
    }

    /// Undo stays inside the human's own turn and never takes back a Scout draw,
    /// which would let the player see a deck card and choose again.
    pub fn can_undo(&self) -> bool {
        let Some(g) = &self.game else { return false };
        self.human_to_move()
            && g.log().len() > self.turn_start
            && !matches!(g.log().last(), Some(Command::ScoutDraw { .. }))
    }

    fn fresh(&self, mode: Mode, seed: u64) -> BattleState {
        BattleState {
            mode: Some(mode),
            seed: Some(seed),
            settings: self.settings,
            game: Some(Game::new(seed, self.settings)),
            revealed: Some(Player::P0),
            loaded: true,
            version: self.version + 1,
            ..BattleState::default()
        }
    }

    /// Whether ending the turn is all the player can do now (sorting the hand aside).
    fn only_end_turn_left(&self) -> bool {
        self.game.as_ref().is_some_and(|g| {
            let legal = g.legal_commands();
            legal.contains(&Command::EndTurn)
                && legal
                    .iter()
                    .all(|c| matches!(c, Command::EndTurn | Command::SortHand { .. }))
        })
    }

    fn applied(&self, command: Command, by_bot: bool) -> BattleState {
        let mut next = self.clone();
        let Some(game) = next.game.as_mut() else {
            return next;
        };
        match game.apply(command) {
            Ok(events) => {
                if ends_turn(&events) {
                    next.turn_start = game.log().len();
                }
                next.last_error = None;
                next.notice = None;
                if by_bot {
                    if !next.bot_turn_open {
                        next.bot_turn.clear();
                        next.bot_turn_open = true;
                    }
                    next.bot_turn.push(command);
                } else if !matches!(command, Command::SortHand { .. }) {
                    next.bot_turn_open = false;
                }
                next.version += 1;
            }
            Err(e) => next.last_error = Some(e),
        }
        next
    }
}

impl Reducible for BattleState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
            Action::Loaded { save, discarded } => {
                let mut next = (*self).clone();
                next.loaded = true;
                if discarded {
                    next.notice = Some(Notice::SaveDiscarded);
                }
                if let Some(loaded) = save {
                    let (save, game, turn_start) = *loaded;
                    next.mode = Some(save.mode);
                    next.seed = Some(save.record.seed);
                    next.settings = save.record.settings;
                    next.game = Some(game);
                    next.turn_start = turn_start;
                    // A reload in pass-and-play must not show whoever's hand is next.
                    next.revealed = None;
                    next.notice = Some(Notice::Resumed);
                }
                next.version += 1;
                next
            }
            Action::Seed(seed) if self.game.is_none() => BattleState {
                seed: Some(seed),
                ..(*self).clone()
            },
            Action::Seed(_) => return self,
            Action::SetSettings(settings) if self.game.is_none() => BattleState {
                settings,
                ..(*self).clone()
            },
            Action::SetSettings(_) => return self,
            Action::Start(mode) => match self.seed {
                Some(seed) => BattleState {
                    notice: self.notice,
                    ..self.fresh(mode, seed)
                },
                None => return self,
            },
            Action::Apply(command) => {
                if !self.human_to_move() && !matches!(command, Command::SortHand { .. }) {
                    return self;
                }
                let next = self.applied(command, false);
                // A pass leaves nothing to decide but the turn's end unless a flag can now
                // be claimed: one press passes and ends the turn.
                if command == Command::Pass && next.only_end_turn_left() {
                    next.applied(Command::EndTurn, false)
                } else {
                    next
                }
            }
            Action::BotApply { version, command } => {
                if version != self.version || self.mode != Some(Mode::Cpu) {
                    return self;
                }
                let next = self.applied(command, true);
                if next.version == self.version {
                    // A refused bot command would stall the game; take the first legal
                    // command that is not a hand sort instead.
                    let fallback = self.game.as_ref().and_then(|g| {
                        g.legal_commands()
                            .into_iter()
                            .find(|c| !matches!(c, Command::SortHand { .. }))
                    });
                    match fallback {
                        Some(c) => self.applied(c, true),
                        None => next,
                    }
                } else {
                    next
                }
            }
            Action::Undo => {
                if !self.can_undo() {
                    return self;
                }
                let mut next = (*self).clone();
                if let Some(game) = &self.game {
                    match game.undo() {
                        Ok(g) => {
                            next.game = Some(g);
                            next.last_error = None;
                            next.version += 1;
                        }
                        Err(_) => return self,
                    }
                }
                next
            }
            Action::Restart => match (self.mode, self.seed) {
                (Some(mode), Some(seed)) => self.fresh(mode, seed),
                _ => return self,
            },
            Action::NewGame => BattleState {
                settings: self.settings,
                loaded: true,
                version: self.version + 1,
                ..BattleState::default()
            },
            Action::Reveal => {
                let mut next = (*self).clone();
                next.revealed = self.game.as_ref().map(Game::current);
                next
            }
            Action::DismissError => BattleState {
                last_error: None,
                ..(*self).clone()
            },
        };
        Rc::new(next)
    }
}

/// Where a card ends up (or what the player taps to send it there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Hand,
    Slot { seat: Player, flag: u8 },
    TacticSlot { seat: Player, flag: u8 },
    Field { seat: Player },
    Discard,
    Deck(Deck),
}

/// The place a card-moving command sends its card to, for the current player.
/// Commands that move no card (claims, draws, sorting) have none.
pub fn landing(command: Command, current: Player) -> Option<Place> {
    let at_flag = |card: Card, flag: u8| {
        if card.fits_troop_slot() {
            Place::Slot {
                seat: current,
                flag,
            }
        } else {
            Place::TacticSlot {
                seat: current,
                flag,
            }
        }
    };
    match command {
        Command::PlayCard {
            card,
            target: battle_line::Target::Flag { flag },
        } => Some(at_flag(card, flag)),
        Command::PlayCard {
            target: battle_line::Target::Field,
            ..
        } => Some(Place::Field { seat: current }),
        Command::MoveCard { card, flag } => Some(at_flag(card, flag)),
        Command::ResolveRedeploy {
            card,
            to: battle_line::Destination::Flag { flag },
        } => Some(at_flag(card, flag)),
        Command::ResolveRedeploy { .. } | Command::ResolveDeserter { .. } => Some(Place::Discard),
        Command::ResolveTraitor { flag, .. } => Some(Place::Slot {
            seat: current,
            flag,
        }),
        Command::ScoutReturn { card } => Some(Place::Deck(if card.troop().is_some() {
            Deck::Troop
        } else {
            Deck::Tactic
        })),
        _ => None,
    }
}

/// A stable id for a card in the DOM (`data-card-id`): `red-7`, `companion-cavalry`.
pub fn card_id(card: Card) -> String {
    match card {
        Card::Troop(t) => format!(
            "{}-{}",
            format!("{:?}", t.color).to_ascii_lowercase(),
            t.value
        ),
        Card::Tactic(t) => t.to_string().to_ascii_lowercase().replace(' ', "-"),
    }
}

/// Plays the engine's own bot for both seats from `seed` until `wanted` holds on P0's
/// turn: a reachable position for tests and tutorials (no hand-made, impossible
/// tables). `None` if the game ends first or `max_commands` run out.
pub fn bot_line_until(
    seed: u64,
    settings: Settings,
    max_commands: usize,
    wanted: impl Fn(&Game) -> bool,
) -> Option<GameRecord> {
    let mut game = Game::new(seed, settings);
    // The easy bot: fast and fixed, so the fixtures the tests look for stay put.
    let mut bot = battle_line::bot::Bot::new(seed);
    for _ in 0..max_commands {
        if game.current() == Player::P0 && wanted(&game) {
            return Some(game.record());
        }
        let command = bot.choose(&game)?;
        game.apply(command).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_line::{Color, Phase, Tactic, Target, Troop};

    fn red(value: u8) -> Card {
        Card::Troop(Troop {
            color: Color::Red,
            value,
        })
    }

    #[test]
    fn card_ids_are_stable_and_distinct() {
        assert_eq!(card_id(red(7)), "red-7");
        assert_eq!(
            card_id(Card::Tactic(Tactic::CompanionCavalry)),
            "companion-cavalry"
        );
        let mut ids: Vec<String> = Troop::all()
            .map(Card::Troop)
            .chain(Tactic::ALL.into_iter().map(Card::Tactic))
            .map(card_id)
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 70);
    }

    #[test]
    fn landing_places_follow_the_card_kind() {
        let p = Player::P1;
        let play = |card, flag| Command::PlayCard {
            card,
            target: Target::Flag { flag },
        };
        assert_eq!(
            landing(play(red(3), 4), p),
            Some(Place::Slot { seat: p, flag: 4 })
        );
        assert_eq!(
            landing(play(Card::Tactic(Tactic::Mud), 2), p),
            Some(Place::TacticSlot { seat: p, flag: 2 })
        );
        assert_eq!(
            landing(
                Command::ScoutReturn {
                    card: Card::Tactic(Tactic::Fog)
                },
                p
            ),
            Some(Place::Deck(Deck::Tactic))
        );
        assert_eq!(landing(Command::ClaimFlag { flag: 1 }, p), None);
    }

    fn started(mode: Mode, seed: u64) -> Rc<BattleState> {
        let s = Rc::new(BattleState::default()).reduce(Action::Seed(seed));
        s.reduce(Action::Start(mode))
    }

    fn first_play(s: &BattleState) -> Command {
        let g = s.game.as_ref().expect("a game");
        g.legal_commands()
            .into_iter()
            .find(|c| matches!(c, Command::PlayCard { .. }))
            .expect("a playable card")
    }

    #[test]
    fn undo_stays_inside_the_turn() {
        let s = started(Mode::Pvp, 3);
        assert!(!s.can_undo(), "nothing played yet");
        let s = s.clone().reduce(Action::Apply(first_play(&s)));
        assert!(s.can_undo());
        let undone = s.clone().reduce(Action::Undo);
        assert_eq!(undone.game.as_ref().map(|g| g.log().len()), Some(0));
        let s = s.reduce(Action::Apply(Command::DrawAndEndTurn { deck: Deck::Troop }));
        assert_eq!(s.turn_start, 2);
        assert!(s.hand_hidden(), "P1 has not taken the device yet");
        let s = s.reduce(Action::Reveal);
        assert!(!s.can_undo(), "the draw ended the turn");
        let same = s.clone().reduce(Action::Undo);
        assert_eq!(same.version, s.version);
    }

    #[test]
    fn a_pass_ends_the_turn_unless_a_flag_can_be_claimed() {
        // Random pass-and-play games (claiming nothing, so they go on) until players
        // must pass: one press of パス ends the turn, unless a flag can then be claimed.
        let (mut ended, mut kept) = (0, 0);
        for seed in 0..200u64 {
            // A small LCG: the choices only need to vary.
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let mut index = |n: usize| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) as usize % n
            };
            let mut s = started(Mode::Pvp, seed);
            for _ in 0..300 {
                s = s.reduce(Action::Reveal);
                let Some(g) = s.game.as_ref() else { break };
                let legal: Vec<Command> = g
                    .legal_commands()
                    .into_iter()
                    .filter(|c| !matches!(c, Command::SortHand { .. } | Command::ClaimFlag { .. }))
                    .collect();
                if legal.contains(&Command::Pass) {
                    let before = g.current();
                    // Whether a flag can be claimed once the pass is made.
                    let mut alone = g.clone();
                    alone.apply(Command::Pass).expect("a legal pass");
                    let claimable = alone
                        .legal_commands()
                        .iter()
                        .any(|c| matches!(c, Command::ClaimFlag { .. }));
                    let passed = s.clone().reduce(Action::Apply(Command::Pass));
                    let after = passed.game.as_ref().expect("a game");
                    if claimable {
                        assert_eq!(
                            after.current(),
                            before,
                            "seed {seed}: a claim is still possible"
                        );
                        kept += 1;
                    } else {
                        assert!(
                            after.current() != before || after.is_over(),
                            "seed {seed}: one press passed and ended the turn"
                        );
                        ended += 1;
                    }
                }
                if legal.is_empty() || ended >= 3 {
                    break;
                }
                let c = legal[index(legal.len())];
                s = s.reduce(Action::Apply(c));
            }
            if ended >= 3 {
                return;
            }
        }
        panic!("passes seen: {ended} that ended the turn, {kept} before a claim");
    }

    #[test]
    fn refused_commands_are_recorded_and_change_nothing() {
        let s = started(Mode::Cpu, 5);
        let next = s
            .clone()
            .reduce(Action::Apply(Command::ClaimFlag { flag: 12 }));
        assert_eq!(next.game, s.game);
        assert!(next.last_error.is_some());
    }

    #[test]
    fn stale_bot_commands_are_dropped() {
        let s = started(Mode::Cpu, 5);
        let s = s.clone().reduce(Action::Apply(first_play(&s)));
        let s = s.reduce(Action::Apply(Command::DrawAndEndTurn { deck: Deck::Troop }));
        let g = s.game.clone().expect("a game");
        let cmd = battle_line::bot::Bot::new(1).choose(&g).expect("a move");
        let stale = s.clone().reduce(Action::BotApply {
            version: s.version - 1,
            command: cmd,
        });
        assert_eq!(stale.version, s.version);
        let fresh = s.clone().reduce(Action::BotApply {
            version: s.version,
            command: cmd,
        });
        assert_eq!(fresh.bot_turn, vec![cmd]);
    }

    #[test]
    fn saves_round_trip_and_garbage_is_refused() {
        let s = started(Mode::Cpu, 9);
        let s = s.clone().reduce(Action::Apply(first_play(&s)));
        let g = s.game.clone().expect("a game");
        let save = BattleSave {
            version: SAVE_VERSION,
            mode: Mode::Cpu,
            record: g.record(),
        };
        let json = save.to_json().expect("serializable");
        let (back, game, turn_start) = BattleSave::load(&json).expect("loads");
        assert_eq!((back, game, turn_start), (save, g, 0));
        assert!(BattleSave::load("{not json").is_none());
        assert!(BattleSave::load("null").is_none());
        let wrong_version = json.replace("\"version\":1", "\"version\":0");
        assert!(BattleSave::load(&wrong_version).is_none());
        // A log the engine refuses (P0 claiming flag 0 on the first move) is discarded.
        let bad_log = BattleSave {
            record: GameRecord {
                log: vec![Command::ClaimFlag { flag: 0 }],
                ..save_record(9)
            },
            ..BattleSave::load(&json).expect("loads").0
        };
        assert!(BattleSave::load(&bad_log.to_json().expect("json")).is_none());
    }

    fn save_record(seed: u64) -> GameRecord {
        Game::new(seed, Settings::default()).record()
    }

    /// The save the accessibility scan (`web/bench/a11y.mjs`) loads to reach a guile
    /// pick on a phone: it must stay a real position where the player picks a table card.
    #[test]
    fn the_scans_deserter_save_is_a_pick_among_table_cards() {
        let json = include_str!("../../bench/fixtures/battle-line-deserter.json");
        let (save, game, _) = BattleSave::load(json.trim()).expect("the fixture loads");
        assert_eq!(save.mode, Mode::Cpu);
        assert_eq!(game.current(), Player::P0);
        assert_eq!(
            game.phase(),
            Phase::Guile {
                tactic: Tactic::Deserter
            }
        );
        let hand = game.hand(Player::P0);
        let on_table = game
            .selectable_cards()
            .into_iter()
            .filter(|c| !hand.contains(c))
            .count();
        assert!(on_table >= 5, "only {on_table} table cards to pick");
    }

    #[test]
    fn bot_lines_reach_a_provable_claim() {
        let record = bot_line_until(1, Settings::default(), 400, |g| {
            g.phase() == Phase::Play && !g.provable_flags(Player::P0).is_empty()
        })
        .expect("a claim position");
        let (game, turn_start) = replay_with_turn_start(&record).expect("replays");
        assert_eq!(turn_start, game.log().len(), "at the start of P0's turn");
        assert!(game.claim_allowed_now());
    }
}
