//! Quantum Gomoku texts that carry values (players, errors, log lines) in Japanese and English.

use quantum_gomoku::{GameStatus, LogEntry, Player, RuleError};

use crate::i18n::{Lang, T};

use super::state::{Opponent, PageError};

pub fn player(lang: Lang, p: Player) -> &'static str {
    match p {
        Player::Black => T::QgBlack.text(lang),
        Player::White => T::QgWhite.text(lang),
    }
}

pub fn status(lang: Lang, s: GameStatus) -> &'static str {
    match s {
        GameStatus::Playing => T::QgPlaying.text(lang),
        GameStatus::Finished => T::QgFinished.text(lang),
        GameStatus::Draw => T::QgDraw.text(lang),
    }
}

/// A refusal in the player's language, with the engine's code for reference.
pub fn error(lang: Lang, e: &PageError) -> String {
    match e {
        PageError::Rule(rule) => {
            let why = match (lang, rule) {
                (Lang::Ja, RuleError::InvalidPosition { .. }) => "盤の外です".to_owned(),
                (Lang::Ja, RuleError::CellOccupied(_)) => "そのマスには既に石があります".to_owned(),
                (Lang::Ja, RuleError::OutOfTurn { expected, .. }) => {
                    format!("{}の手番です", player(lang, *expected))
                }
                (Lang::Ja, RuleError::ObsNotAllowed { .. }) => {
                    "観測できるのは直前に石を置いたプレイヤーだけです".to_owned()
                }
                (Lang::Ja, RuleError::ObsLimitExceeded(p)) => {
                    format!("{}は観測回数を使い切りました", player(lang, *p))
                }
                (Lang::Ja, RuleError::GameOver(_)) => {
                    "ゲームは終わっています（リセットで再開）".to_owned()
                }
                (Lang::Ja, RuleError::NothingToUndo) => "戻す手がありません".to_owned(),
                (Lang::Ja, RuleError::UndoAfterObservation) => {
                    "観測の後は一手戻せません".to_owned()
                }
                (Lang::En, other) => other.to_string(),
            };
            format!("{why} ({})", rule.code())
        }
        PageError::InvalidId => T::QgInvalidId.text(lang).to_owned(),
        PageError::UnknownId => T::QgUnknownId.text(lang).to_owned(),
        PageError::CorruptSave => T::QgCorruptSave.text(lang).to_owned(),
        PageError::Options(e) => match lang {
            Lang::Ja => format!("その設定ではゲームを作れません: {e}"),
            Lang::En => format!("These options cannot make a game: {e}"),
        },
        PageError::Computer(why) => match lang {
            Lang::Ja => format!("コンピューターが手を選べませんでした: {why}"),
            Lang::En => format!("The computer could not choose a move: {why}"),
        },
        PageError::Online { code, message } => {
            let why = match (lang, code.as_str()) {
                (Lang::Ja, "NOT_YOUR_TURN") => "相手の番です".to_owned(),
                (Lang::Ja, "SEAT_TOKEN_REQUIRED" | "NOT_YOUR_SEAT" | "WATCHING") => {
                    "観戦中は打てません（このゲームの席がありません）".to_owned()
                }
                (Lang::Ja, "NETWORK") => "サーバーにつながりません".to_owned(),
                (Lang::Ja, "NOT_FOUND" | "DELETED") => {
                    "このゲームはサーバーにありません（削除されました）".to_owned()
                }
                (Lang::Ja, _) => format!("サーバーに断られました: {message}"),
                (Lang::En, "NOT_YOUR_TURN") => "It is the other player's turn".to_owned(),
                (Lang::En, "SEAT_TOKEN_REQUIRED" | "NOT_YOUR_SEAT" | "WATCHING") => {
                    "You are watching: this browser holds no seat of this game".to_owned()
                }
                (Lang::En, "NETWORK") => "The server cannot be reached".to_owned(),
                (Lang::En, "NOT_FOUND" | "DELETED") => {
                    "This game is no longer on the server (it was deleted)".to_owned()
                }
                (Lang::En, _) => format!("The server refused: {message}"),
            };
            format!("{why} ({code})")
        }
    }
}

/// The online panel's texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnlineText {
    Title,
    Blurb,
    Start,
    Link,
    Leave,
}

pub fn online(lang: Lang, t: OnlineText) -> &'static str {
    match (lang, t) {
        (Lang::Ja, OnlineText::Title) => "オンライン対局",
        (Lang::Ja, OnlineText::Blurb) => {
            "サーバーでゲームを作り、リンクを相手に送ると、別のブラウザーから白番で参加できます。"
        }
        (Lang::Ja, OnlineText::Start) => "オンライン対局を始める",
        (Lang::Ja, OnlineText::Link) => "相手に送るリンク",
        (Lang::Ja, OnlineText::Leave) => "この端末での対局に戻る",
        (Lang::En, OnlineText::Title) => "Play online",
        (Lang::En, OnlineText::Blurb) => {
            "Create the game on the server and send the link: the other player joins from their browser as white."
        }
        (Lang::En, OnlineText::Start) => "Start an online game",
        (Lang::En, OnlineText::Link) => "Link to send to the other player",
        (Lang::En, OnlineText::Leave) => "Back to play on this device",
    }
}

/// Which seat this browser holds.
pub fn seat(lang: Lang, seat: super::online::Seat) -> String {
    use super::online::Seat;
    match (lang, seat) {
        (Lang::Ja, Seat::Player(p)) => format!("あなたは{}です", player(lang, p)),
        (Lang::Ja, Seat::Watching) => "観戦中（両方の席が埋まっています）".to_owned(),
        (Lang::Ja, Seat::Open) => {
            "席のない対局：このリンクを持つ人はどちらの色でも打てます".to_owned()
        }
        (Lang::En, Seat::Open) => {
            "A game without seats: anyone with its link plays either colour".to_owned()
        }
        (Lang::En, Seat::Player(p)) => format!("You play {}", player(lang, p)),
        (Lang::En, Seat::Watching) => "Watching (both seats are taken)".to_owned(),
    }
}

/// The live connection to the server.
pub fn connection(lang: Lang, c: super::online::Connection) -> &'static str {
    use super::online::Connection;
    match (lang, c) {
        (Lang::Ja, Connection::Connected) => "サーバーと接続しています",
        (Lang::Ja, Connection::Reconnecting) => "サーバーに接続しています…",
        (Lang::Ja, Connection::Offline) => "オフライン（サーバーにつながりません）",
        (Lang::En, Connection::Connected) => "Connected to the server",
        (Lang::En, Connection::Reconnecting) => "Connecting to the server…",
        (Lang::En, Connection::Offline) => "Offline (the server cannot be reached)",
    }
}

/// The label of the opponent control.
pub fn opponent_label(lang: Lang) -> &'static str {
    match lang {
        Lang::Ja => "対戦相手",
        Lang::En => "Opponent",
    }
}

/// One choice of the opponent control.
pub fn opponent(lang: Lang, o: Opponent) -> &'static str {
    match (lang, o) {
        (Lang::Ja, Opponent::Human) => "人（この端末で二人）",
        (Lang::Ja, Opponent::Computer(Player::White)) => "コンピューター（白）",
        (Lang::Ja, Opponent::Computer(Player::Black)) => "コンピューター（黒）",
        (Lang::En, Opponent::Human) => "Human (two players here)",
        (Lang::En, Opponent::Computer(Player::White)) => "Computer plays white",
        (Lang::En, Opponent::Computer(Player::Black)) => "Computer plays black",
    }
}

/// Shown while the computer thinks.
pub fn thinking(lang: Lang, p: Player) -> String {
    match lang {
        Lang::Ja => format!("コンピューター（{}）が考えています…", player(lang, p)),
        Lang::En => format!("The computer ({}) is thinking…", player(lang, p)),
    }
}

/// How long the computer's latest turn took, and where it ran.
pub fn thought(lang: Lang, ms: f64, in_worker: bool) -> String {
    match (lang, in_worker) {
        (Lang::Ja, true) => format!("コンピューターの思考時間: {ms:.0} ms（ワーカー）"),
        (Lang::Ja, false) => format!("コンピューターの思考時間: {ms:.0} ms（ページ上）"),
        (Lang::En, true) => format!("The computer thought for {ms:.0} ms (in a worker)"),
        (Lang::En, false) => format!("The computer thought for {ms:.0} ms (on the page)"),
    }
}

/// One line of the move log, numbered by the caller.
pub fn log_entry(lang: Lang, entry: &LogEntry) -> String {
    match entry {
        LogEntry::Move {
            player: p,
            position,
            probability_type,
            turn,
        } => match lang {
            Lang::Ja => format!(
                "{turn}手目 {} ({}, {}) {}%",
                player(lang, *p),
                position.row,
                position.col,
                probability_type.percent()
            ),
            Lang::En => format!(
                "Turn {turn}: {} ({}, {}) {}%",
                player(lang, *p),
                position.row,
                position.col,
                probability_type.percent()
            ),
        },
        LogEntry::Observation {
            player: p, winner, ..
        } => {
            let outcome = match (lang, winner) {
                (Lang::Ja, Some(w)) => format!("{}の勝ち", player(lang, *w)),
                (Lang::Ja, None) => "列なし".to_owned(),
                (Lang::En, Some(w)) => format!("{} wins", player(lang, *w)),
                (Lang::En, None) => "no line".to_owned(),
            };
            match lang {
                Lang::Ja => format!("{}が観測: {outcome}", player(lang, *p)),
                Lang::En => format!("{} observed: {outcome}", player(lang, *p)),
            }
        }
    }
}

/// The summary of an observation shown under the board. `both`: both colours made a
/// line, and the rule gives the win to whoever observed: said, or the win looks arbitrary.
pub fn observation(
    lang: Lang,
    by: Player,
    winner: Option<Player>,
    (blacks, whites): (usize, usize),
    both: bool,
) -> String {
    let (b, w) = (player(lang, by), winner.map(|w| player(lang, w)));
    match (lang, w) {
        (Lang::Ja, Some(w)) if both => format!(
            "{b}が観測: 黒 {blacks} 個・白 {whites} 個。黒と白の両方の列がそろいました。両方そろったときは観測した側の勝ちなので、{w}の勝ちです"
        ),
        (Lang::Ja, Some(w)) => format!(
            "{b}が観測: 黒 {blacks} 個・白 {whites} 個。{w}の列だけがそろったので、{w}の勝ちです"
        ),
        (Lang::Ja, None) => format!(
            "{b}が観測: 黒 {blacks} 個・白 {whites} 個。列はそろわず、石は未観測に戻りました"
        ),
        (Lang::En, Some(w)) if both => format!(
            "{b} observed: {blacks} black, {whites} white. Both colours made a line; when both do, whoever observed wins, so {w} wins"
        ),
        (Lang::En, Some(w)) => format!(
            "{b} observed: {blacks} black, {whites} white. Only {w} made a line, so {w} wins"
        ),
        (Lang::En, None) => format!(
            "{b} observed: {blacks} black, {whites} white. No line: every stone went back to unobserved"
        ),
    }
}

/// The announcement of the game's end: 「白の勝ちです！」, or a draw.
pub fn result(lang: Lang, winner: Option<Player>) -> String {
    match (lang, winner) {
        (Lang::Ja, Some(w)) => format!("{}の勝ちです！", player(lang, w)),
        (Lang::En, Some(w)) => format!("{} wins!", player(lang, w)),
        (Lang::Ja, None) => "引き分けです".to_owned(),
        (Lang::En, None) => "A draw".to_owned(),
    }
}

/// Whether `colour` has `win_length` or more in a row on a collapsed board (across, down
/// or diagonally).
pub fn has_line(colours: &[Vec<Option<Player>>], colour: Player, win_length: usize) -> bool {
    let at = |r: usize, c: usize| colours.get(r).and_then(|row| row.get(c)).copied().flatten();
    let n = colours.len();
    (0..n).any(|r| {
        (0..n).any(|c| {
            [(0isize, 1isize), (1, 0), (1, 1), (1, -1)]
                .into_iter()
                .any(|(dr, dc)| {
                    (0..win_length.max(1)).all(|k| {
                        let (rr, cc) = (r as isize + dr * k as isize, c as isize + dc * k as isize);
                        rr >= 0 && cc >= 0 && at(rr as usize, cc as usize) == Some(colour)
                    })
                })
        })
    })
}

/// "100,000": sample counts are easier to read grouped.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A probability as a percentage with one decimal.
pub fn percent(p: f64) -> String {
    format!("{:.1}%", (p * 100.0).clamp(0.0, 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quantum_gomoku::{Position, ProbabilityType};

    #[test]
    fn numbers_are_grouped_and_clamped() {
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(1_048_576), "1,048,576");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(1.0000001), "100.0%");
    }

    #[test]
    fn an_observation_win_says_why() {
        let b = Some(Player::Black);
        let w = Some(Player::White);
        let board = vec![vec![b, b, b], vec![w, w, w], vec![None, None, None]];
        assert!(has_line(&board, Player::Black, 3));
        assert!(has_line(&board, Player::White, 3));
        let diagonal = vec![vec![b, w, None], vec![w, b, None], vec![None, None, b]];
        assert!(has_line(&diagonal, Player::Black, 3));
        assert!(!has_line(&diagonal, Player::White, 2 + 1));
        // Both lines: the observer's win, and the text says so.
        let both = observation(Lang::Ja, Player::White, w, (3, 3), true);
        assert!(
            both.contains("両方") && both.contains("観測した側の勝ち"),
            "{both}"
        );
        let en = observation(Lang::En, Player::White, w, (3, 3), true);
        assert!(en.contains("whoever observed wins"), "{en}");
        let one = observation(Lang::Ja, Player::Black, b, (3, 2), false);
        assert!(one.contains("黒の列だけ"), "{one}");
        assert_eq!(result(Lang::Ja, w), "白の勝ちです！");
    }

    #[test]
    fn log_lines_name_the_player_and_cell() {
        let entry = LogEntry::Move {
            player: Player::White,
            position: Position::new(2, 3),
            probability_type: ProbabilityType::P10,
            turn: 2,
        };
        assert_eq!(log_entry(Lang::En, &entry), "Turn 2: White (2, 3) 10%");
        assert_eq!(log_entry(Lang::Ja, &entry), "2手目 白 (2, 3) 10%");
    }
}
