//! The duel's worker jobs: the hint ("can this position still win this turn?"), the
//! point of no return of a game, and one share of the deck statistics' opening hands.

use duel_engine::analysis::{PointOfNoReturn, playout_seed, point_of_no_return_watched};
use duel_engine::replay::{Shared, decode_commands, encode_commands, encode_dealt};
use duel_engine::solver::{Search, order_for, shortest_watched, solve_watched};
use duel_engine::stats::{HandResult, goal_of_dealt, solve_dealt_hand};
use duel_engine::{CUSTOM_DECK_ID, Code, Command, Custom, DeckList, Duel, Opening, Settings};
use serde::{Deserialize, Serialize};

use crate::worker::{Task, elapsed_ms, progress};

/// Positions a first hint may search: sized so that the hint answers within a second in
/// the browser for nearly every position reached in play (README, "the hint in the
/// browser": at 20,000 the slowest 1% took 1.1-1.3 s); an undecided answer offers a
/// longer search.
pub const HINT_BUDGET: u32 = 16_000;
/// How long a first hint ([`HINT_BUDGET`]) may search where it runs, in milliseconds:
/// past it the hint answers with what it has, a line found but not yet made shortest, or
/// "undecided" (which offers the longer search), so that it answers within a second in
/// the browser for every position, on a slower device too (issue 21, item 5; the room
/// left is for the worker's start and the line's words). Natively the budget alone
/// bounds it (`worker::elapsed_ms` has no clock there), so the tasks' tests do not
/// depend on time; a longer search has no deadline: the player asked to wait. The "still
/// winnable?" indicator asks the hint's first question, so on one device the two agree.
pub const HINT_DEADLINE_MS: f64 = 800.0;
/// Each longer search multiplies the budget by this much, up to [`HINT_BUDGET_MAX`].
pub const HINT_DEEPER: u32 = 4;
pub const HINT_BUDGET_MAX: u32 = HINT_BUDGET * HINT_DEEPER * HINT_DEEPER;

/// A question the worker answers about one game: the game (deck, seed, rule settings and
/// the commands played) and a search budget. `ASK` says which question, so each has its own
/// [`Task`]: [`Hint`] and [`NoReturn`], which share this shape and its wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameQuestion<const ASK: u8> {
    pub deck: String,
    /// The deck list of the player's own and the test hand, when the deck lab dealt it.
    pub custom: Option<Custom>,
    pub seed: u64,
    pub settings: Settings,
    pub commands: Vec<Command>,
    /// Positions the search may try (each solve's, for the point of no return).
    pub budget: u32,
}

/// [`GameQuestion`]'s `ASK` for the hint.
pub const ASK_HINT: u8 = 0;
/// [`GameQuestion`]'s `ASK` for the point of no return.
pub const ASK_NO_RETURN: u8 = 1;

/// Asks whether the duel reached by `commands` can still be won this turn, knowing the
/// deck order (the solver sees everything: an oracle, as the page says).
pub type Hint = GameQuestion<ASK_HINT>;

/// Asks for the point of no return of a game (`analysis::point_of_no_return`): the first
/// action after which it could no longer be won, knowing the deck order. Asked only of a
/// duel that is over, or of a shared game on the replay page: the answer tells what the
/// deck held.
pub type NoReturn = GameQuestion<ASK_NO_RETURN>;

impl<const ASK: u8> GameQuestion<ASK> {
    /// The question as it is posted to the worker, in the share code's encoding (which
    /// the duel page links anyway for its share links): `<budget>.<share code>`.
    fn question_to_wire(&self) -> String {
        game_to_wire(
            self.budget,
            &self.deck,
            self.custom.as_ref(),
            self.seed,
            self.settings,
            &self.commands,
        )
    }

    /// Reads [`GameQuestion::question_to_wire`].
    fn question_from_wire(text: &str) -> Result<Self, String> {
        let (budget, game) = game_from_wire(text)?;
        Ok(GameQuestion {
            deck: game.deck,
            custom: game.custom,
            seed: game.seed,
            settings: game.settings,
            commands: game.commands,
            budget,
        })
    }
}

/// The hint's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HintAnswer {
    /// A line of play from the position to the win.
    Win(Vec<Command>),
    /// Every line was tried: no win is left (a proof).
    NoWin,
    /// The budget ran out before an answer.
    Undecided,
}

impl HintAnswer {
    /// The `data-result` the page shows it with.
    pub fn key(&self) -> &'static str {
        match self {
            HintAnswer::Win(_) => "win",
            HintAnswer::NoWin => "no-win",
            HintAnswer::Undecided => "undecided",
        }
    }
}

/// A line's steps in words, in Japanese and in English (`Duel::describe_line`). The
/// worker, whose module links the engine's texts anyway, writes them, so the duel page's
/// bundle does not link the describing code for its hint and point of no return.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Words {
    pub ja: Vec<String>,
    pub en: Vec<String>,
}

impl Words {
    /// `line` described from `duel`'s position in both languages.
    fn of(duel: &Duel, line: &[Command]) -> Words {
        Words {
            ja: duel.describe_line(line, duel_engine::Lang::Ja),
            en: duel.describe_line(line, duel_engine::Lang::En),
        }
    }

    /// The steps in the page's language.
    pub fn pick(&self, lang: crate::i18n::Lang) -> &[String] {
        match lang {
            crate::i18n::Lang::Ja => &self.ja,
            crate::i18n::Lang::En => &self.en,
        }
    }

    /// Each step on a line of its own after `head`: the Japanese ones, then the English
    /// ones (as many of each: both describe the same commands).
    fn to_wire(&self, head: String) -> String {
        let mut out = head;
        // (A step is one line of text: the engine's descriptions hold no line break.)
        for step in self.ja.iter().chain(&self.en) {
            out.push('\n');
            out.push_str(step);
        }
        out
    }

    /// Reads [`Words::to_wire`]: the head and the words.
    fn from_wire(text: &str) -> Option<(&str, Words)> {
        let mut lines = text.split('\n');
        let head = lines.next()?;
        let mut ja: Vec<String> = lines.map(str::to_owned).collect();
        if !ja.len().is_multiple_of(2) {
            return None;
        }
        let en = ja.split_off(ja.len() / 2);
        Some((head, Words { ja, en }))
    }
}

/// The hint's answer as the worker sends it: the answer and, for a win, its line in words
/// (read against the position the hint was asked at).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintReply {
    pub answer: HintAnswer,
    pub words: Words,
    /// The winning line is proved shortest: no line of fewer commands wins
    /// (`solver::shortest`).
    pub shortest: bool,
}

impl Hint {
    /// The seed of the solver's guided playouts: the deal's seed moved on by the number
    /// of commands played, so an opening hand gets exactly the statistics' answer
    /// (`stats::solve_hand` with the same budget) and every position its own, repeatable
    /// one.
    pub fn playout_seed(&self) -> u64 {
        playout_seed(self.seed, self.commands.len())
    }

    /// Replays the position and searches from it, telling `watch` the share of the work
    /// done (it stops the search by answering `false`). A line found is then made as short
    /// as a second search can (`solver::shortest_watched`) with what is left of the budget,
    /// at most what `stats::shorten_positions` gives a line of its length: the whole rest
    /// for a line of at most 30 commands, which the search often proves shortest, a
    /// twentieth of the budget for a longer one, which it rarely does (the whole rest made
    /// a hint found early take up to twice its search's time, over a second in the
    /// browser on a hard position). A winning line comes with its steps in words, read
    /// against the position, and says whether it is proved shortest.
    pub fn solve(&self, watch: &mut dyn FnMut(f64) -> bool) -> Result<HintReply, String> {
        let custom = self.custom.as_ref();
        let goal = goal_of_dealt(&self.deck, custom).map_err(|e| e.to_string())?;
        let duel = Duel::replay_dealt(&self.deck, custom, self.seed, self.settings, &self.commands)
            .map_err(|e| e.to_string())?;
        if duel.outcome().is_some() {
            return Err("the duel is over".to_owned());
        }
        let budget = self.budget.min(HINT_BUDGET_MAX) as usize;
        // How far the progress bar got when a line was found: the search for a shorter
        // one fills the rest.
        let mut reached = 0.0;
        let found = {
            let mut seen = |done: f64| {
                reached = done;
                watch(done)
            };
            solve_watched(&duel, goal, budget, self.playout_seed(), &mut seen).0
        };
        let answer = match found {
            Search::Found(line) => {
                // A shorter line within the share: a player follows fewer steps.
                let order = order_for(goal);
                let rest = (((1.0 - reached) * budget as f64) as usize)
                    .min(duel_engine::stats::shorten_positions(budget, line.len()));
                let mut report = |nodes: usize| {
                    watch(reached + (1.0 - reached) * nodes as f64 / rest.max(1) as f64)
                };
                let best = shortest_watched(&duel, goal, line, rest, &order, &mut report);
                return Ok(HintReply {
                    words: Words::of(&duel, &best.line),
                    answer: HintAnswer::Win(best.line),
                    shortest: best.proved,
                });
            }
            Search::Impossible => HintAnswer::NoWin,
            Search::GaveUp | Search::Cancelled => HintAnswer::Undecided,
        };
        Ok(HintReply {
            answer,
            words: Words::default(),
            shortest: false,
        })
    }
}

impl Task for Hint {
    const KIND: &'static str = "duel.hint";
    type Output = HintReply;

    fn run(self) -> Result<HintReply, String> {
        let deadline = (self.budget <= HINT_BUDGET).then_some(HINT_DEADLINE_MS);
        self.solve(&mut |done| {
            progress(done);
            within(deadline, elapsed_ms())
        })
    }

    // The hint travels in the share code's encoding, which the duel page links anyway for
    // its share links: `<budget>.<share code>` there, `win.<commands>` (`win-shortest.`
    // for a line proved shortest), `no-win` or `undecided` back, then the line's steps in
    // words, one a line (`Words::to_wire`).
    fn to_wire(&self) -> String {
        self.question_to_wire()
    }

    fn from_wire(text: &str) -> Result<Hint, String> {
        Hint::question_from_wire(text)
    }

    fn output_to_wire(reply: &HintReply) -> Result<String, String> {
        let head = match &reply.answer {
            HintAnswer::Win(line) if reply.shortest => {
                format!("win-shortest.{}", encode_commands(line))
            }
            HintAnswer::Win(line) => format!("win.{}", encode_commands(line)),
            other => other.key().to_owned(),
        };
        Ok(reply.words.to_wire(head))
    }

    fn output_from_wire(text: &str) -> Result<HintReply, String> {
        let bad = || format!("not a hint's answer: {text}");
        let (head, words) = Words::from_wire(text).ok_or_else(bad)?;
        let (answer, shortest) = match head.split_once('.') {
            Some((kind @ ("win" | "win-shortest"), line)) => (
                decode_commands(line)
                    .map(HintAnswer::Win)
                    .map_err(|e| e.to_string())?,
                kind == "win-shortest",
            ),
            None if head == "no-win" => (HintAnswer::NoWin, false),
            None if head == "undecided" => (HintAnswer::Undecided, false),
            _ => return Err(bad()),
        };
        Ok(HintReply {
            answer,
            words,
            shortest,
        })
    }
}

/// Whether a search may go on `elapsed` milliseconds after its start (`None`: no clock)
/// with `deadline` (`None`: none).
fn within(deadline: Option<f64>, elapsed: Option<f64>) -> bool {
    match (deadline, elapsed) {
        (Some(deadline), Some(elapsed)) => elapsed < deadline,
        _ => true,
    }
}

/// A budget and a game as [`GameQuestion::question_to_wire`] writes them (apart from the
/// generic type, so each question does not get a copy of it).
fn game_to_wire(
    budget: u32,
    deck: &str,
    custom: Option<&Custom>,
    seed: u64,
    settings: Settings,
    commands: &[Command],
) -> String {
    format!(
        "{budget}.{}",
        encode_dealt(deck, custom, seed, settings, commands)
    )
}

/// Reads [`game_to_wire`].
fn game_from_wire(text: &str) -> Result<(u32, Shared), String> {
    let (budget, code) = text.split_once('.').ok_or("no budget before the game")?;
    let budget = budget.parse().map_err(|_| "an unreadable budget")?;
    let game = Shared::decode(code).map_err(|e| e.to_string())?;
    Ok((budget, game))
}

/// Positions each solve of the point of no return may search: the hint's first budget,
/// so each position gets the answer a hint there would give.
pub const NO_RETURN_BUDGET: u32 = HINT_BUDGET;

/// The point of no return as the worker sends it: for a found one, the fatal action and
/// the winning line in words (the first step of `words` is the fatal action, the others
/// the line's), read against the position before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoReturnReply {
    pub point: PointOfNoReturn,
    pub words: Words,
}

impl Task for NoReturn {
    const KIND: &'static str = "duel.no-return";
    type Output = NoReturnReply;

    fn run(self) -> Result<NoReturnReply, String> {
        if self.custom.is_some() {
            // The search replays preset decks only; the pages do not ask it of others.
            return Err("no point of no return for a deck of one's own".to_owned());
        }
        let budget = self.budget.min(HINT_BUDGET_MAX) as usize;
        let point = point_of_no_return_watched(
            &self.deck,
            self.seed,
            self.settings,
            &self.commands,
            budget,
            &mut |done| {
                progress(done);
                true
            },
        )
        .map_err(|e| e.to_string())?;
        // The fatal action and the line in words, read against the position before it.
        let words = match &point {
            PointOfNoReturn::NoReturn { step, line } => {
                let before = self.commands.get(..*step).unwrap_or_default();
                Duel::replay(&self.deck, self.seed, self.settings, before)
                    .map(|d| {
                        let fatal = self.commands.get(*step..=*step).unwrap_or_default();
                        let mut words = Words::of(&d, line);
                        // The fatal action first, in one step per language.
                        let Words { ja, en } = Words::of(&d, fatal);
                        words.ja.insert(0, ja.concat());
                        words.en.insert(0, en.concat());
                        words
                    })
                    .unwrap_or_default()
            }
            _ => Words::default(),
        };
        Ok(NoReturnReply { point, words })
    }

    // `<budget>.<share code>` there (as the hint); back `won`, `still`, `never`,
    // `undecided` or `step.<index>.<the line's commands>`, then for the latter the fatal
    // action and the line in words (`Words::to_wire`: the fatal action is the first step).
    fn to_wire(&self) -> String {
        self.question_to_wire()
    }

    fn from_wire(text: &str) -> Result<NoReturn, String> {
        NoReturn::question_from_wire(text)
    }

    fn output_to_wire(reply: &NoReturnReply) -> Result<String, String> {
        let head = match &reply.point {
            PointOfNoReturn::Won => "won".to_owned(),
            PointOfNoReturn::StillWinnable => "still".to_owned(),
            PointOfNoReturn::NeverWinnable => "never".to_owned(),
            PointOfNoReturn::Undecided => "undecided".to_owned(),
            PointOfNoReturn::NoReturn { step, line } => {
                format!("step.{step}.{}", encode_commands(line))
            }
        };
        Ok(reply.words.to_wire(head))
    }

    fn output_from_wire(text: &str) -> Result<NoReturnReply, String> {
        let bad = || format!("not a point of no return: {text}");
        let (head, words) = Words::from_wire(text).ok_or_else(bad)?;
        let point = match head {
            "won" => PointOfNoReturn::Won,
            "still" => PointOfNoReturn::StillWinnable,
            "never" => PointOfNoReturn::NeverWinnable,
            "undecided" => PointOfNoReturn::Undecided,
            _ => {
                let rest = head.strip_prefix("step.").ok_or_else(bad)?;
                let (step, line) = rest.split_once('.').ok_or_else(bad)?;
                PointOfNoReturn::NoReturn {
                    step: step.parse().map_err(|_| bad())?,
                    line: decode_commands(line).map_err(|e| e.to_string())?,
                }
            }
        };
        Ok(NoReturnReply { point, words })
    }
}

/// What the statistics learn of one opening hand: the solver's answer and the hand's
/// passcodes (for the win rate per card).
pub type HandAnswer = (HandResult, Vec<Code>);

/// The beginning of a statistics deck that is a deck list of one's own.
const CUSTOM_PREFIX: &str = "custom.";

/// The statistics' name of a deck list of one's own: `custom.` and the list in the share
/// code's encoding (base64url: an address and a job's text keep it as it is).
pub fn custom_deck_id(list: &DeckList) -> String {
    let custom = Custom {
        list: Some(list.clone()),
        opening: Opening::default(),
    };
    let code = encode_dealt(CUSTOM_DECK_ID, Some(&custom), 0, Settings::default(), &[]);
    format!("{CUSTOM_PREFIX}{code}")
}

/// What a statistics deck deals: a preset's id as it is, or [`custom_deck_id`]'s list
/// (the deck id is then [`CUSTOM_DECK_ID`]); an error for a text that does not read.
pub fn dealt_deck(deck: &str) -> Result<(&str, Option<Custom>), String> {
    let Some(code) = deck.strip_prefix(CUSTOM_PREFIX) else {
        return Ok((deck, None));
    };
    let custom = Shared::decode(code)
        .map_err(|e| e.to_string())?
        .custom
        .filter(|c| c.list.is_some())
        .ok_or("the deck holds no deck list")?;
    Ok((CUSTOM_DECK_ID, Some(custom)))
}

/// Solves the opening hands dealt by the seeds `first .. first + count` of a deck (a
/// preset's id or [`custom_deck_id`]'s text), as `stats::solve_hand` does, and names the
/// cards of each (`stats::opening_hand`); the statistics page sends many of these,
/// spread over the workers, and tallies the answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hands {
    pub deck: String,
    pub settings: Settings,
    pub budget: u32,
    pub first: u64,
    pub count: u32,
}

/// At most this many hands in one job: a job is never split, so it bounds how long a
/// cancelled statistics run keeps a worker busy and how coarse its progress is.
pub const HANDS_MAX: u32 = 1_000;

impl Task for Hands {
    const KIND: &'static str = "duel.hands";
    type Output = Vec<HandAnswer>;

    // Short texts, so the statistics page links no JSON code: `<deck>.<settings bits>.
    // <budget>.<first>.<count>` there (a deck list's name holds one dot, after `custom`);
    // back, comma-separated, each hand's result code and its passcodes:
    // `<code>:<passcode>.<passcode>...`.
    fn to_wire(&self) -> String {
        format!(
            "{}.{}.{}.{}.{}",
            self.deck,
            self.settings.bits(),
            self.budget,
            self.first,
            self.count
        )
    }

    fn from_wire(text: &str) -> Result<Hands, String> {
        let bad = || format!("not a share of hands: {text}");
        // Only a deck list's name holds a dot: the one after `custom` (base64url has none).
        let skip = if text.starts_with(CUSTOM_PREFIX) {
            CUSTOM_PREFIX.len()
        } else {
            0
        };
        let (_, rest) = text[skip..].split_once('.').ok_or_else(bad)?;
        let deck = text[..text.len() - rest.len() - 1].to_owned();
        let mut parts = rest.split('.');
        let mut next = || parts.next().ok_or_else(bad);
        let bits: u8 = next()?.parse().map_err(|_| bad())?;
        let budget = next()?.parse().map_err(|_| bad())?;
        let first = next()?.parse().map_err(|_| bad())?;
        let count = next()?.parse().map_err(|_| bad())?;
        if deck.is_empty() || parts.next().is_some() {
            return Err(bad());
        }
        Ok(Hands {
            deck,
            settings: Settings::from_bits(bits),
            budget,
            first,
            count,
        })
    }

    fn output_to_wire(results: &Vec<HandAnswer>) -> Result<String, String> {
        Ok(results
            .iter()
            .map(|(r, hand)| {
                let codes: Vec<String> = hand.iter().map(u32::to_string).collect();
                format!("{}:{}", r.code(), codes.join("."))
            })
            .collect::<Vec<_>>()
            .join(","))
    }

    fn output_from_wire(text: &str) -> Result<Vec<HandAnswer>, String> {
        text.split(',')
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                let bad = || format!("not a hand's answer: {entry}");
                let (code, hand) = entry.split_once(':').ok_or_else(bad)?;
                let result = HandResult::from_code(code).ok_or_else(bad)?;
                let hand = hand
                    .split('.')
                    .filter(|c| !c.is_empty())
                    .map(|c| c.parse::<Code>().map_err(|_| bad()))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((result, hand))
            })
            .collect()
    }

    fn run(self) -> Result<Vec<HandAnswer>, String> {
        if self.count > HANDS_MAX {
            return Err(format!("at most {HANDS_MAX} hands per job"));
        }
        // One path for a preset and a list (a preset deals as `Duel::with_settings`).
        let (deck, custom) = dealt_deck(&self.deck)?;
        let custom = custom.as_ref();
        let goal = goal_of_dealt(deck, custom).map_err(|e| e.to_string())?;
        (0..u64::from(self.count))
            .map(|i| {
                let seed = self.first.wrapping_add(i);
                let duel =
                    Duel::dealt(deck, custom, seed, self.settings).map_err(|e| e.to_string())?;
                let hand = duel.view().you.hand.iter().filter_map(|c| c.code).collect();
                let result = solve_dealt_hand(
                    deck,
                    custom,
                    goal,
                    seed,
                    self.settings,
                    self.budget as usize,
                )
                .map_err(|e| e.to_string())?;
                Ok((result, hand))
            })
            .collect()
    }
}

/// What a page says of a duel job that failed: where no Web Worker could start and the
/// page's own bundle has no solver (the release pages), that this browser cannot compute
/// it; otherwise the job's own error.
pub(crate) fn failure_text(why: &str, lang: crate::i18n::Lang) -> String {
    if crate::worker::runner() == crate::worker::Runner::Page && !cfg!(feature = "duel-jobs") {
        lang.pick(
            "Web Worker が使えないため計算できません。",
            "This browser cannot compute it: it has no Web Workers.",
        )
        .to_owned()
    } else {
        why.to_owned()
    }
}

/// `worker::run_wire`, which the worker module builds only with `duel-analysis`: a build
/// of the deck lab's jobs without it has its own copy.
#[cfg(all(
    feature = "duel-jobs",
    feature = "deck-lab",
    not(feature = "duel-analysis")
))]
fn run_wire<T: Task>(body: &str) -> Result<String, String> {
    T::output_to_wire(&T::from_wire(body)?.run()?)
}
#[cfg(all(feature = "duel-jobs", feature = "duel-analysis"))]
use crate::worker::run_wire;

/// Runs the job named `kind`, if it is one of the duel's. The jobs need the solver, which
/// only a module built with `duel-jobs` links in: in the release, the duel solver's module
/// that the duel pages' workers run (see `worker::worker_module`); the pages' own bundles
/// leave it out, and where no worker can start they say so.
#[cfg(all(
    feature = "duel-jobs",
    any(feature = "duel-analysis", feature = "deck-lab")
))]
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    match kind {
        // The deck lab asks only for hands (its comparison): the hint and the point of no
        // return, and the describing of their lines, stay out of its bundle.
        #[cfg(feature = "duel-analysis")]
        Hint::KIND => Some(run_wire::<Hint>(body)),
        Hands::KIND => Some(run_wire::<Hands>(body)),
        #[cfg(feature = "duel-analysis")]
        NoReturn::KIND => Some(run_wire::<NoReturn>(body)),
        _ => None,
    }
}

// The tests run the jobs as the workers do, through `run_wire`: with the solver's bundle.
#[cfg(all(test, feature = "duel-analysis", feature = "duel-jobs"))]
mod tests {
    use super::*;
    use crate::duel::test_seeds::{LIBRARY_WIN, SEED_LIBRARY_WIN, play_script};
    use duel_engine::stats::{goal_of, opening_hand, solve_hand};

    fn hint_at(deck: &str, seed: u64, commands: Vec<Command>, budget: u32) -> Hint {
        Hint {
            deck: deck.into(),
            custom: None,
            seed,
            settings: Settings::default(),
            commands,
            budget,
        }
    }

    #[test]
    fn a_hint_near_the_end_of_a_winning_script_finds_a_line_that_replays_to_the_win() {
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let log = won.log().to_vec();
        // Five commands before the end the win is a few steps away.
        let at = log.len() - 5;
        let hint = hint_at(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            log[..at].to_vec(),
            4_000,
        );
        let answer = run_wire::<Hint>(&hint.to_wire())
            .and_then(|text| Hint::output_from_wire(&text))
            .expect("answers");
        let HintReply {
            answer: HintAnswer::Win(line),
            words,
            shortest,
        } = answer
        else {
            panic!("a win is left: {answer:?}");
        };
        // The worker describes the line as the engine does, from the hint's position.
        let at_hint = Duel::replay(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &log[..at],
        )
        .expect("replays");
        assert_eq!(
            words.ja,
            at_hint.describe_line(&line, duel_engine::Lang::Ja)
        );
        assert_eq!(
            words.en,
            at_hint.describe_line(&line, duel_engine::Lang::En)
        );
        assert!(!words.en.is_empty());
        assert!(
            line.len() <= 5,
            "iterative deepening finds a short line: {line:?}"
        );
        // A line this short gets the budget's rest to be proved shortest, and is.
        assert!(shortest, "the line is proved shortest: {line:?}");
        assert_library_line_wins(&log[..at], &line);
    }

    /// `line` played after `before` in the library-exodia deal of `LIBRARY_WIN` wins.
    fn assert_library_line_wins(before: &[Command], line: &[Command]) {
        let mut commands = before.to_vec();
        commands.extend(line.iter().cloned());
        let end = Duel::replay(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            Settings::default(),
            &commands,
        )
        .expect("the line replays");
        assert_eq!(end.outcome(), goal_of("library-exodia-deck").ok());
    }

    #[test]
    fn a_first_hint_stopped_at_its_deadline_answers_undecided_or_the_line_found_so_far() {
        // The rule: a first hint stops at the deadline, a longer search and a native run
        // (no clock) never do.
        let first = Some(HINT_DEADLINE_MS);
        assert!(within(first, Some(HINT_DEADLINE_MS - 1.0)));
        assert!(!within(first, Some(HINT_DEADLINE_MS)));
        assert!(within(first, None), "no clock, no deadline");
        assert!(within(None, Some(1e9)), "a longer search has none");

        // Ten commands before the end of a won game: the search finds a line after a few
        // reports and the shorter-line search proves it shortest after a few more.
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let log = won.log();
        let hint = hint_at(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            log[..log.len() - 10].to_vec(),
            HINT_BUDGET,
        );
        let mut reports = 0;
        let whole = hint
            .solve(&mut |_| {
                reports += 1;
                true
            })
            .expect("answers");
        assert!(
            whole.shortest,
            "given the time, its line is proved shortest"
        );
        let mut found_early = false;
        // Stopped at each report in turn, as the deadline would stop it there.
        for allowed in 0..reports {
            let mut heard = 0;
            let stopped = hint
                .solve(&mut |_| {
                    heard += 1;
                    heard <= allowed
                })
                .expect("answers");
            match &stopped.answer {
                HintAnswer::Undecided => assert!(!found_early, "a line found stays found"),
                HintAnswer::Win(line) => {
                    found_early = true;
                    assert!(!stopped.shortest, "stopped at report {allowed}: not proved");
                    assert_library_line_wins(&hint.commands, line);
                }
                HintAnswer::NoWin => panic!("a stopped search proves nothing"),
            }
        }
        assert!(
            found_early,
            "stopped while shortening, it answers the line found"
        );
    }

    #[test]
    fn a_hint_and_its_answers_travel_in_the_share_codes_encoding() {
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let hint = hint_at(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            won.log()[..9].to_vec(),
            1_234,
        );
        assert_eq!(Hint::from_wire(&hint.to_wire()), Ok(hint));
        for answer in [
            HintAnswer::Win(won.log()[9..].to_vec()),
            HintAnswer::Win(Vec::new()),
            HintAnswer::NoWin,
            HintAnswer::Undecided,
        ] {
            let words = match answer {
                HintAnswer::Win(_) => Words {
                    ja: vec!["「壺」を発動".into(), "ターン終了".into()],
                    en: vec!["Activate \"Pot\"".into(), "End the turn".into()],
                },
                _ => Words::default(),
            };
            for shortest in [false, true] {
                // Only a winning line is ever proved shortest.
                let shortest = shortest && matches!(answer, HintAnswer::Win(_));
                let reply = HintReply {
                    answer: answer.clone(),
                    words: words.clone(),
                    shortest,
                };
                let text = Hint::output_to_wire(&reply).expect("writes");
                assert_eq!(Hint::output_from_wire(&text), Ok(reply));
            }
        }
        for garbage in ["", "12", "x.AQA", "12.!!"] {
            assert!(Hint::from_wire(garbage).is_err(), "{garbage:?}");
        }
        for garbage in [
            "",
            "win",
            "win.!!",
            "win-shortest",
            "shortest.AQA",
            "lost",
            "no-win.AA",
            "no-win\nodd",
        ] {
            assert!(Hint::output_from_wire(garbage).is_err(), "{garbage:?}");
        }
    }

    #[test]
    fn a_hint_on_an_opening_hand_answers_what_the_statistics_answer() {
        for seed in 0..6 {
            let hint = hint_at("panda-exodia-deck", seed, Vec::new(), 600);
            let answer = hint.clone().run().expect("answers").answer;
            let hand =
                solve_hand("panda-exodia-deck", seed, Settings::default(), 600).expect("solves");
            let same = matches!(
                (&answer, hand),
                (HintAnswer::Win(_), HandResult::Won { .. })
                    | (HintAnswer::NoWin, HandResult::Lost)
                    | (HintAnswer::Undecided, HandResult::Undecided)
            );
            assert!(same, "seed {seed}: {answer:?} vs {hand:?}");
        }
    }

    #[test]
    fn a_hint_refuses_a_position_that_does_not_replay_or_is_over() {
        let bad = hint_at("exodia-deck", 1, vec![Command::PassChain], 100);
        assert!(bad.run().is_err());
        let unknown = hint_at("no-such-deck", 1, Vec::new(), 100);
        assert!(unknown.run().is_err());
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let over = hint_at(
            "library-exodia-deck",
            SEED_LIBRARY_WIN,
            won.log().to_vec(),
            100,
        );
        assert_eq!(over.run(), Err("the duel is over".to_owned()));
    }

    #[test]
    fn a_deck_lists_share_of_hands_answers_what_the_same_preset_answers() {
        let deck = "legacy-exodia-deck";
        let list = DeckList::from(duel_engine::deck(deck).expect("preset"));
        let task = Hands {
            deck: custom_deck_id(&list),
            settings: Settings::default(),
            budget: 300,
            first: 3,
            count: 4,
        };
        let back = Hands::from_wire(&task.to_wire()).expect("readable");
        assert_eq!(back, task);
        let text = run_wire::<Hands>(&task.to_wire()).expect("runs");
        let got = Hands::output_from_wire(&text).expect("readable");
        let expected: Vec<HandAnswer> = (3..7)
            .map(|seed| {
                (
                    solve_hand(deck, seed, Settings::default(), 300).expect("solves"),
                    opening_hand(deck, seed, Settings::default()).expect("deals"),
                )
            })
            .collect();
        assert_eq!(got, expected);
        // An illegal list is refused with its problem, not solved.
        let empty = Hands {
            deck: custom_deck_id(&DeckList::default()),
            ..task
        };
        assert!(run_wire::<Hands>(&empty.to_wire()).is_err());
    }

    #[test]
    fn a_share_of_hands_answers_what_solve_hand_answers_seed_by_seed() {
        let task = Hands {
            deck: "library-exodia-deck".into(),
            settings: Settings::default(),
            budget: 300,
            first: 10,
            count: 6,
        };
        let text = run_wire::<Hands>(&task.to_wire()).expect("runs");
        let got = Hands::output_from_wire(&text).expect("readable");
        let expected: Vec<HandAnswer> = (10..16)
            .map(|seed| {
                let deck = "library-exodia-deck";
                (
                    solve_hand(deck, seed, Settings::default(), 300).expect("solves"),
                    opening_hand(deck, seed, Settings::default()).expect("deals"),
                )
            })
            .collect();
        assert_eq!(got, expected);
        assert!(got.iter().all(|(_, hand)| hand.len() == 5));
        for garbage in [
            "",
            "library-exodia-deck.0.300.10",
            "d.x.1.2.3",
            "d.0.1.2.3.4",
        ] {
            assert!(Hands::from_wire(garbage).is_err(), "{garbage:?}");
        }
        for garbage in ["w3,q", "w3", "q:1.2", "l:1.x", "l:1:2"] {
            assert!(Hands::output_from_wire(garbage).is_err(), "{garbage:?}");
        }
        assert_eq!(Hands::output_from_wire(""), Ok(Vec::new()));
        assert!(Hands::from_wire("custom.!!.0.1.2.3").is_ok_and(|h| h.run().is_err()));
        assert_eq!(
            Hands::output_from_wire("u:,w7p:5.6"),
            Ok(vec![
                (HandResult::Undecided, Vec::new()),
                (
                    HandResult::Won {
                        commands: 7,
                        proved: true
                    },
                    vec![5, 6]
                )
            ])
        );
        let too_many = Hands {
            count: HANDS_MAX + 1,
            ..task
        };
        assert!(too_many.run().is_err());
    }

    #[test]
    fn the_point_of_no_return_and_its_answers_travel_as_short_texts() {
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let task = NoReturn {
            deck: "library-exodia-deck".into(),
            custom: None,
            seed: SEED_LIBRARY_WIN,
            settings: Settings::default(),
            commands: won.log().to_vec(),
            budget: 777,
        };
        assert_eq!(NoReturn::from_wire(&task.to_wire()), Ok(task.clone()));
        for answer in [
            PointOfNoReturn::Won,
            PointOfNoReturn::StillWinnable,
            PointOfNoReturn::NeverWinnable,
            PointOfNoReturn::Undecided,
            PointOfNoReturn::NoReturn {
                step: 12,
                line: won.log()[12..].to_vec(),
            },
            PointOfNoReturn::NoReturn {
                step: 0,
                line: Vec::new(),
            },
        ] {
            let words = match answer {
                PointOfNoReturn::NoReturn { .. } => Words {
                    ja: vec!["ターン終了".into(), "「壺」を発動".into()],
                    en: vec!["End the turn".into(), "Activate \"Pot\"".into()],
                },
                _ => Words::default(),
            };
            let reply = NoReturnReply {
                point: answer,
                words,
            };
            let text = NoReturn::output_to_wire(&reply).expect("writes");
            assert_eq!(NoReturn::output_from_wire(&text), Ok(reply));
        }
        for garbage in [
            "",
            "step",
            "step.x.AA",
            "step.3",
            "step.3.!!",
            "lost",
            "won\nodd",
        ] {
            assert!(NoReturn::output_from_wire(garbage).is_err(), "{garbage:?}");
        }
        for garbage in ["", "12", "x.AQA", "12.!!"] {
            assert!(NoReturn::from_wire(garbage).is_err(), "{garbage:?}");
        }
        // Run as the worker runs it: the won game has nothing to find.
        let text = run_wire::<NoReturn>(&task.to_wire()).expect("runs");
        assert_eq!(
            NoReturn::output_from_wire(&text).map(|r| r.point),
            Ok(PointOfNoReturn::Won)
        );
        let refused = NoReturn {
            commands: vec![Command::PassChain],
            ..task
        };
        assert!(refused.run().is_err());
    }

    #[test]
    fn unknown_job_kinds_are_not_the_duels() {
        assert!(dispatch("quantum-gomoku.turn", "{}").is_none());
        assert!(matches!(dispatch(Hint::KIND, "not json"), Some(Err(_))));
    }
}
