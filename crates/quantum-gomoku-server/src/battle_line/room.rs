//! A Battle Line room as the server keeps it: its two seats, the first-player game,
//! then the match refereed by `crates/battle-line`; and what each seat may see of it.
//!
//! Pure: the randomness a room needs (the first-player cards, the deal's seed) and
//! the token hashes come from the caller, which draws them from the OS's random
//! source. The stored room holds the deal's seed and the command log (the engine's
//! `GameRecord`); no view ever carries either.

use ::battle_line::{
    Command, Game, GameRecord, Player, PlayerView, RuleError, Settings, TableView,
};
use serde::{Deserialize, Serialize};

/// The most recent idempotency keys a room remembers per seat.
const KEPT_KEYS: usize = 64;
/// The longest name or nickname, in characters.
pub(crate) const NAME_MAX: usize = 16;
/// The longest idempotency key, in bytes.
const KEY_MAX: usize = 64;

/// Which of the two seats of a room: the one who made it, the one who joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Side {
    Host,
    Guest,
}

impl Side {
    const fn index(self) -> usize {
        match self {
            Side::Host => 0,
            Side::Guest => 1,
        }
    }

    const fn other(self) -> Side {
        match self {
            Side::Host => Side::Guest,
            Side::Guest => Side::Host,
        }
    }

    const BOTH: [Side; 2] = [Side::Host, Side::Guest];
}

/// Someone seated in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Occupant {
    pub(crate) nickname: String,
    /// The SHA-256 of the seat's token, hex.
    pub(crate) token: String,
}

/// Where the room is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub(crate) enum Stage {
    /// Three face-down cards (values 1-10, all different); each seat picks one.
    FirstPlayer {
        cards: [u8; 3],
        picks: [Option<u8>; 2],
    },
    /// The higher card's seat chooses to go first or second.
    Choosing {
        cards: [u8; 3],
        picks: [u8; 2],
        winner: Side,
    },
    /// The match: the host plays `host`, the guest the other seat.
    Playing { host: Player, record: GameRecord },
    /// A seat left during the match: nothing more is played.
    Abandoned {
        host: Player,
        record: GameRecord,
        by: Side,
    },
}

/// A room, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Room {
    pub(crate) name: String,
    pub(crate) private: bool,
    /// Host, guest.
    pub(crate) seats: [Option<Occupant>; 2],
    pub(crate) stage: Stage,
    /// Recent idempotency keys, with the seat that sent them.
    #[serde(default)]
    pub(crate) keys: Vec<(Side, String)>,
}

/// What a seat asks of the room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub(crate) enum RoomCommand {
    /// Picks one of the three face-down cards (0, 1 or 2).
    PickCard { index: u8 },
    /// The first-player game's winner goes first (`true`) or second.
    ChooseOrder { first: bool },
    /// A command of the match.
    Play { command: Command },
}

/// Why a room refused what was asked. A refusal changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RoomError {
    /// Names and nicknames: 1-16 letters (any script), digits or `_`.
    BadName { field: &'static str },
    /// Both seats are taken.
    RoomFull,
    /// The command does not fit the room's stage.
    WrongStage,
    /// There are three cards, 0 to 2.
    NoSuchCard,
    /// This seat has picked already.
    AlreadyPicked,
    /// The other seat picked that card.
    CardTaken,
    /// Only the first-player game's winner chooses the order.
    NotTheChooser,
    /// It is the other seat's turn (or the command names the other seat).
    NotYourTurn,
    /// A seat left the match.
    Abandoned,
    /// The engine refused the command.
    Rule(RuleError),
    /// The stored match cannot be replayed (a corrupt row).
    Corrupt(String),
}

impl RoomError {
    /// The API's error code.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            RoomError::BadName { .. } => "INVALID_NAME",
            RoomError::RoomFull => "ROOM_FULL",
            RoomError::WrongStage => "WRONG_STAGE",
            RoomError::NoSuchCard => "NO_SUCH_CARD",
            RoomError::AlreadyPicked => "ALREADY_PICKED",
            RoomError::CardTaken => "CARD_TAKEN",
            RoomError::NotTheChooser => "NOT_THE_CHOOSER",
            RoomError::NotYourTurn => "NOT_YOUR_TURN",
            RoomError::Abandoned => "ROOM_ABANDONED",
            RoomError::Rule(_) => "RULE_REFUSED",
            RoomError::Corrupt(_) => "CORRUPT_ROOM",
        }
    }
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomError::BadName { field } => write!(
                f,
                "{field} must be 1 to {NAME_MAX} letters, digits or _ (Japanese allowed)"
            ),
            RoomError::RoomFull => f.write_str("both seats of this room are taken"),
            RoomError::WrongStage => f.write_str("the room is not at that step"),
            RoomError::NoSuchCard => f.write_str("there are three cards, 0 to 2"),
            RoomError::AlreadyPicked => f.write_str("this seat has picked its card"),
            RoomError::CardTaken => f.write_str("the other player picked that card"),
            RoomError::NotTheChooser => {
                f.write_str("only the player with the higher card chooses the order")
            }
            RoomError::NotYourTurn => f.write_str("it is the other player's turn"),
            RoomError::Abandoned => f.write_str("a player left this game"),
            RoomError::Rule(e) => write!(f, "{e}"),
            RoomError::Corrupt(e) => write!(f, "the stored room cannot be read: {e}"),
        }
    }
}

/// Checks a room name or nickname (`field` names it in the refusal).
pub(crate) fn check_name(value: &str, field: &'static str) -> Result<String, RoomError> {
    let count = value.chars().count();
    let ok =
        (1..=NAME_MAX).contains(&count) && value.chars().all(|c| c.is_alphanumeric() || c == '_');
    if ok {
        Ok(value.to_owned())
    } else {
        Err(RoomError::BadName { field })
    }
}

/// Checks an idempotency key: 1-64 visible ASCII characters.
pub(crate) fn check_key(key: &str) -> bool {
    (1..=KEY_MAX).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// A seat's view of the first-player game's cards: values only once both picked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FirstCards {
    /// The three cards' values, `null` while face down.
    pub(crate) cards: [Option<u8>; 3],
    /// The card each seat (host, guest) picked.
    pub(crate) picks: [Option<u8>; 2],
    /// The seat that chooses the order, once both picked.
    pub(crate) winner: Option<Side>,
}

/// What a seat (or a watcher) sees of a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RoomView {
    pub(crate) name: String,
    pub(crate) private: bool,
    /// Host's and guest's nicknames (`null`: open seat).
    pub(crate) nicknames: [Option<String>; 2],
    /// Who is looking: `host`, `guest`, or `null` for a watcher.
    pub(crate) you: Option<Side>,
    /// `P0`, `P1` (once the order is chosen) or `watching`.
    pub(crate) seat: String,
    /// `firstPlayer`, `choosing`, `playing` or `abandoned`.
    pub(crate) stage: &'static str,
    pub(crate) first: Option<FirstCards>,
    /// The match from this seat: its hand, the other as a count, its legal commands.
    #[serde(rename = "match")]
    pub(crate) game: Option<Box<PlayerView>>,
    /// The match for a watcher: the table only (`match` is then `null`).
    pub(crate) table: Option<Box<TableView>>,
    /// The seat that left, if one did.
    pub(crate) left: Option<Side>,
    /// Cards of the other hand this seat has seen (put back with Scout, then drawn by
    /// the other); empty for a watcher.
    pub(crate) seen: Vec<::battle_line::Card>,
}

impl Room {
    /// A new room with its host seated; `cards` are the first-player game's three
    /// values (drawn by the caller from the OS's random source).
    pub(crate) fn new(
        name: &str,
        nickname: &str,
        private: bool,
        host_token: String,
        cards: [u8; 3],
    ) -> Result<Room, RoomError> {
        Ok(Room {
            name: check_name(name, "name")?,
            private,
            seats: [
                Some(Occupant {
                    nickname: check_name(nickname, "nickname")?,
                    token: host_token,
                }),
                None,
            ],
            stage: Stage::FirstPlayer {
                cards,
                picks: [None, None],
            },
            keys: Vec::new(),
        })
    }

    /// Seats the guest.
    pub(crate) fn join(&mut self, nickname: &str, token: String) -> Result<(), RoomError> {
        let nickname = check_name(nickname, "nickname")?;
        if self.seats[1].is_some() {
            return Err(RoomError::RoomFull);
        }
        self.seats[1] = Some(Occupant { nickname, token });
        Ok(())
    }

    /// Both seats taken.
    pub(crate) fn is_full(&self) -> bool {
        self.seats.iter().all(Option::is_some)
    }

    /// The seat whose token hashes to `hash` (hex), if any.
    pub(crate) fn side_of(&self, hash: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|o| o.token == hash)
        })
    }

    /// Whether `side` sent `key` before (the command then applied once already).
    pub(crate) fn seen(&self, side: Side, key: &str) -> bool {
        self.keys.iter().any(|(s, k)| *s == side && k == key)
    }

    fn remember(&mut self, side: Side, key: &str) {
        self.keys.push((side, key.to_owned()));
        if self.keys.len() > KEPT_KEYS {
            self.keys.remove(0);
        }
    }

    /// The match, replayed from its record.
    fn game(record: &GameRecord) -> Result<Game, RoomError> {
        Game::replay(record).map_err(|e| RoomError::Corrupt(format!("{e:?}")))
    }

    /// Applies `command` for `side`, remembering `key`; `seed` deals the match when
    /// the order is chosen (drawn by the caller from the OS's random source).
    pub(crate) fn apply(
        &mut self,
        side: Side,
        command: RoomCommand,
        key: &str,
        seed: u64,
    ) -> Result<(), RoomError> {
        let next = match (&self.stage, command) {
            (Stage::FirstPlayer { cards, picks }, RoomCommand::PickCard { index }) => {
                let index_ok = usize::from(index) < cards.len();
                if !index_ok {
                    return Err(RoomError::NoSuchCard);
                }
                if picks[side.index()].is_some() {
                    return Err(RoomError::AlreadyPicked);
                }
                if picks[side.other().index()] == Some(index) {
                    return Err(RoomError::CardTaken);
                }
                let mut picks = *picks;
                picks[side.index()] = Some(index);
                match picks {
                    [Some(h), Some(g)] => {
                        let value = |i: u8| cards[usize::from(i)];
                        let winner = if value(h) > value(g) {
                            Side::Host
                        } else {
                            Side::Guest
                        };
                        Stage::Choosing {
                            cards: *cards,
                            picks: [h, g],
                            winner,
                        }
                    }
                    _ => Stage::FirstPlayer {
                        cards: *cards,
                        picks,
                    },
                }
            }
            (Stage::Choosing { winner, .. }, RoomCommand::ChooseOrder { first }) => {
                if *winner != side {
                    return Err(RoomError::NotTheChooser);
                }
                let winner_plays = if first { Player::P0 } else { Player::P1 };
                let host = if side == Side::Host {
                    winner_plays
                } else {
                    winner_plays.opponent()
                };
                Stage::Playing {
                    host,
                    record: Game::new(seed, Settings::default()).record(),
                }
            }
            (Stage::Playing { host, record }, RoomCommand::Play { command }) => {
                let player = if side == Side::Host {
                    *host
                } else {
                    host.opponent()
                };
                let mut game = Room::game(record)?;
                let allowed = match command {
                    Command::SortHand { player: p } => p == player,
                    _ => game.current() == player,
                };
                if !allowed {
                    return Err(RoomError::NotYourTurn);
                }
                game.apply(command).map_err(RoomError::Rule)?;
                Stage::Playing {
                    host: *host,
                    record: game.record(),
                }
            }
            (Stage::Abandoned { .. }, _) => return Err(RoomError::Abandoned),
            _ => return Err(RoomError::WrongStage),
        };
        self.stage = next;
        self.remember(side, key);
        Ok(())
    }

    /// `side` leaves: before the match its seat opens again (the host leaving ends
    /// the room: `true` means delete it); during the match the game stops there.
    pub(crate) fn leave(&mut self, side: Side) -> bool {
        match &self.stage {
            Stage::Playing { host, record } => {
                self.stage = Stage::Abandoned {
                    host: *host,
                    record: record.clone(),
                    by: side,
                };
                false
            }
            Stage::Abandoned { .. } => false,
            Stage::FirstPlayer { cards, .. } | Stage::Choosing { cards, .. } => {
                if side == Side::Host {
                    return true;
                }
                // The guest's seat opens; the first-player game starts over.
                self.seats[1] = None;
                self.stage = Stage::FirstPlayer {
                    cards: *cards,
                    picks: [None, None],
                };
                false
            }
        }
    }

    /// What `you` (a seat, or `None` for a watcher) may see.
    pub(crate) fn view(&self, you: Option<Side>) -> Result<RoomView, RoomError> {
        let nicknames = [0, 1].map(|i| self.seats[i].as_ref().map(|o| o.nickname.clone()));
        let player_of = |host: Player, side: Side| {
            if side == Side::Host {
                host
            } else {
                host.opponent()
            }
        };
        let mut seen = Vec::new();
        let (stage, first, views, seat, left) = match &self.stage {
            Stage::FirstPlayer { picks, .. } => (
                "firstPlayer",
                Some(FirstCards {
                    cards: [None; 3],
                    picks: *picks,
                    winner: None,
                }),
                (None, None),
                None,
                None,
            ),
            Stage::Choosing {
                cards,
                picks,
                winner,
            } => (
                "choosing",
                Some(FirstCards {
                    cards: cards.map(Some),
                    picks: picks.map(Some),
                    winner: Some(*winner),
                }),
                (None, None),
                None,
                None,
            ),
            Stage::Playing { host, record } | Stage::Abandoned { host, record, .. } => {
                let g = Room::game(record)?;
                let seat = you.map(|s| player_of(*host, s));
                let view = match seat {
                    Some(p) => (Some(Box::new(g.view(p))), None),
                    None => (None, Some(Box::new(g.table_view()))),
                };
                seen = seat.map(|p| g.seen_in_other_hand(p)).unwrap_or_default();
                let left = match &self.stage {
                    Stage::Abandoned { by, .. } => Some(*by),
                    _ => None,
                };
                let stage = if left.is_some() {
                    "abandoned"
                } else {
                    "playing"
                };
                (stage, None, view, seat, left)
            }
        };
        Ok(RoomView {
            name: self.name.clone(),
            private: self.private,
            nicknames,
            you,
            seat: match seat {
                Some(Player::P0) => "P0",
                Some(Player::P1) => "P1",
                None if you.is_some() => "pending",
                None => "watching",
            }
            .to_owned(),
            stage,
            first,
            game: views.0,
            table: views.1,
            left,
            seen,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::battle_line::{Card, Deck};

    fn room() -> Room {
        let mut r = Room::new("部屋_1", "あきら", false, "h".into(), [3, 9, 5]).expect("valid");
        r.join("Bo", "g".into()).expect("open seat");
        r
    }

    /// The room after the first-player game (guest picks 9 and goes first).
    fn playing() -> Room {
        let mut r = room();
        r.apply(Side::Host, RoomCommand::PickCard { index: 0 }, "k1", 0)
            .expect("pick");
        r.apply(Side::Guest, RoomCommand::PickCard { index: 1 }, "k2", 0)
            .expect("pick");
        r.apply(
            Side::Guest,
            RoomCommand::ChooseOrder { first: true },
            "k3",
            42,
        )
        .expect("choose");
        r
    }

    #[test]
    fn names_are_one_to_sixteen_letters_digits_or_underscores_japanese_allowed() {
        for good in ["a", "部屋_1", "ゲーム2", "abcdefghijklmnop", "Ünïcode"] {
            assert!(check_name(good, "name").is_ok(), "{good}");
        }
        for bad in ["", "abcdefghijklmnopq", "a b", "<b>", "a-b", "x\n", "🙂"] {
            assert_eq!(
                check_name(bad, "nickname"),
                Err(RoomError::BadName { field: "nickname" }),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_full_room_refuses_a_third_person() {
        let mut r = room();
        assert_eq!(r.join("Cy", "c".into()), Err(RoomError::RoomFull));
        assert_eq!(r.side_of("g"), Some(Side::Guest));
        assert_eq!(r.side_of("c"), None);
    }

    #[test]
    fn the_higher_card_chooses_and_its_choice_seats_both_players() {
        let mut r = room();
        assert_eq!(
            r.apply(Side::Host, RoomCommand::PickCard { index: 3 }, "a", 0),
            Err(RoomError::NoSuchCard)
        );
        r.apply(Side::Host, RoomCommand::PickCard { index: 0 }, "a", 0)
            .expect("pick");
        // Face down until both picked, even for the one who picked.
        let v = r.view(Some(Side::Host)).expect("view");
        assert_eq!(v.first.expect("first").cards, [None; 3]);
        assert_eq!(
            r.apply(Side::Guest, RoomCommand::PickCard { index: 0 }, "b", 0),
            Err(RoomError::CardTaken)
        );
        assert_eq!(
            r.apply(Side::Host, RoomCommand::PickCard { index: 1 }, "c", 0),
            Err(RoomError::AlreadyPicked)
        );
        r.apply(Side::Guest, RoomCommand::PickCard { index: 1 }, "b", 0)
            .expect("pick");
        let v = r.view(None).expect("view");
        let first = v.first.expect("first");
        assert_eq!(first.cards, [Some(3), Some(9), Some(5)]);
        assert_eq!(first.winner, Some(Side::Guest));
        assert_eq!(
            r.apply(Side::Host, RoomCommand::ChooseOrder { first: true }, "d", 1),
            Err(RoomError::NotTheChooser)
        );
        r.apply(
            Side::Guest,
            RoomCommand::ChooseOrder { first: false },
            "e",
            1,
        )
        .expect("choose");
        assert_eq!(r.view(Some(Side::Guest)).expect("view").seat, "P1");
        assert_eq!(r.view(Some(Side::Host)).expect("view").seat, "P0");
        assert_eq!(r.view(None).expect("view").seat, "watching");
    }

    #[test]
    fn each_seat_sees_its_own_hand_and_a_watcher_neither() {
        let r = playing();
        let Stage::Playing { record, .. } = &r.stage else {
            panic!("playing");
        };
        let game = Game::replay(record).expect("replays");
        // The guest chose to go first: the guest is P0.
        let guest =
            serde_json::to_string(&r.view(Some(Side::Guest)).expect("view")).expect("serializes");
        let host =
            serde_json::to_string(&r.view(Some(Side::Host)).expect("view")).expect("serializes");
        let watcher = serde_json::to_string(&r.view(None).expect("view")).expect("serializes");
        let cards = |p: Player| -> Vec<String> {
            game.hand(p)
                .iter()
                .map(|c| serde_json::to_string(c).expect("cards serialize"))
                .collect()
        };
        for c in cards(Player::P0) {
            assert!(guest.contains(&c));
            assert!(!host.contains(&c), "P0's {c} in the host's view");
            assert!(!watcher.contains(&c), "P0's {c} in the watcher's view");
        }
        for c in cards(Player::P1) {
            assert!(host.contains(&c));
            assert!(!guest.contains(&c), "P1's {c} in the guest's view");
            assert!(!watcher.contains(&c), "P1's {c} in the watcher's view");
        }
        assert!(!guest.contains("seed") && !watcher.contains("log"));
    }

    #[test]
    fn commands_act_only_for_the_seat_whose_turn_it_is_and_rule_refusals_change_nothing() {
        let mut r = playing();
        let Stage::Playing { record, .. } = &r.stage else {
            panic!("playing");
        };
        let game = Game::replay(record).expect("replays");
        let legal = game.legal_commands();
        let first = *legal.first().expect("a legal command");
        let before = r.clone();
        assert_eq!(
            r.apply(Side::Host, RoomCommand::Play { command: first }, "x", 0),
            Err(RoomError::NotYourTurn)
        );
        let bad = RoomCommand::Play {
            command: Command::DrawAndEndTurn { deck: Deck::Troop },
        };
        assert!(matches!(
            r.apply(Side::Guest, bad, "y", 0),
            Err(RoomError::Rule(_))
        ));
        assert_eq!(r, before);
        // Sorting names its own player, at any time.
        let sort = RoomCommand::Play {
            command: Command::SortHand { player: Player::P1 },
        };
        r.apply(Side::Host, sort, "z", 0).expect("sorts");
        r.apply(Side::Guest, RoomCommand::Play { command: first }, "w", 0)
            .expect("legal");
        assert!(r.seen(Side::Guest, "w") && !r.seen(Side::Host, "w"));
        let hand_card = game.hand(Player::P0)[0];
        assert!(matches!(hand_card, Card::Troop(_)));
    }

    #[test]
    fn leaving_opens_the_guest_seat_before_the_match_and_stops_the_match_after() {
        let mut r = room();
        assert!(!r.leave(Side::Guest));
        assert!(!r.is_full());
        assert!(r.leave(Side::Host), "the host leaving ends the room");
        let mut r = playing();
        assert!(!r.leave(Side::Host));
        assert_eq!(r.view(None).expect("view").stage, "abandoned");
        assert_eq!(
            r.apply(
                Side::Guest,
                RoomCommand::ChooseOrder { first: true },
                "q",
                0
            ),
            Err(RoomError::Abandoned)
        );
    }
}
