//! The harness's contenders (built with the `contenders` feature): the seats of measured
//! matches ([`Contender`]: the levels, the random player, the sparring partner and every
//! variant of the searches tried against it), the matches themselves, and the searches'
//! configurations they are built from. The levels use none of it.

use super::*;
use crate::game::Settings;

/// The command the search with `config` picks (the whole search at once).
pub(crate) fn choose_with(game: &Game, config: Config, seed: u64) -> Option<Command> {
    let mut progress = Search::start(game, seed, config);
    loop {
        match progress {
            Progress::Decided(c) => return c,
            Progress::Searching(s) => progress = s.step(usize::MAX),
        }
    }
}

/// The command hard's search as it plays now picks with its configuration changed by
/// `change` (the harness's variants of today's hard).
fn choose_with_hard(
    game: &Game,
    seed: u64,
    change: impl FnOnce(Config) -> Config,
) -> Option<Command> {
    match Level::Hard.config() {
        Some(hard) => choose_with(game, change(hard), seed),
        None => choose(game, Level::Hard, seed),
    }
}

/// The hard level's search from 2026-12-03 to 2026-12-07 (the harness's
/// `hard-low-odds-ways-20`): 8 candidates, 900 rollouts, cut as the levels' are. The
/// harness's variants of hard (`hard-cal`, `hard-draws`, the trees, the reply models,
/// ...) were built on it and measured against it, so they still are.
pub(crate) fn hard_8_900() -> Config {
    low_config(hard_full_config(), HARD_LOW_CARDS, CutScore::Odds, true)
}

/// Hard's search before its rollouts were played on until the deck runs low
/// (`hard-full`): what the harness's variants of hard are built on.
pub(crate) fn hard_full_config() -> Config {
    full_config(8, HARD_ROLLOUTS, HARD_RANKING)
}

/// The command a searching `level` picks with its candidates ranked by `ranking`
/// (normal always ranks by the odds evaluation): for comparisons in the harness.
pub fn choose_ranked(game: &Game, level: Level, ranking: Ranking, seed: u64) -> Option<Command> {
    let Some(config) = level.config_ranked(ranking) else {
        return choose(game, level, seed);
    };
    choose_with(game, config, seed)
}

/// A seat at a measured match: one of the levels or the random baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    Level(Level),
    Random,
    /// The probability-based sparring partner ([`Sparring`]).
    Sparring,
    /// A searching level with its candidates ranked a named way (`hard-odds`: by the
    /// odds evaluation, as the level does; `hard-partner`: by the sparring partner's
    /// valuation; likewise `expert-…`): for comparisons.
    Ranked(Level, Ranking),
    /// The rollout policy alone (`playout`), in a random deal of the cards it cannot
    /// see: a cheap measure of the playouts' quality.
    Playout,
    /// The rollout policy whose sides are worth every way to complete them
    /// (`playout-ways`, `Playout::ways`).
    PlayoutWays,
    /// Hard's search before 2026-12-03 (`hard-full`): 8 candidates, 900 rollouts each
    /// played to the game's end by the default policy; the variants below change it.
    HardFull,
    /// Hard-full with that rollout policy (`hard-ways`, 400 rollouts).
    HardWays,
    /// Hard-full with that rollout policy at its 900 rollouts (`hard-ways-900`).
    HardWays900,
    /// Hard-full whose rollouts stop after `plies` turns of each player past the move
    /// tried and are scored by `CutScore`'s chance of winning the game in place of the
    /// 0/1 result (`hard-cut-8`: the partner's flag chances; `hard-cut-odds-8`: the odds
    /// evaluation's), with [`CUT_PARTNER_ROLLOUTS`] or hard-full's 900 rollouts (a cut
    /// rollout scored by the odds evaluation costs about what a whole one does); with
    /// `ways`, the rollouts played by the policy whose sides are worth every way to
    /// complete them (`hard-cut-ways-8`, `hard-cut-odds-ways-8`).
    HardCut {
        plies: u8,
        score: CutScore,
        ways: bool,
    },
    /// `HardCut` after `LOW_PLIES` turns of each player whose rollouts play on past
    /// those turns until the troop deck holds at most `cards` cards, so that every cut
    /// position is near the end, where its score is trusted (`hard-low-20`,
    /// `hard-low-odds-ways-20`, ...; `Playout::low_deck`).
    HardLow {
        cards: u8,
        score: CutScore,
        ways: bool,
    },
    /// The hard level whose end-of-turn draw is searched as well (`hard-draws`):
    /// `DRAW_ROLLOUTS` rollouts compare drawing a troop with drawing a tactic in the
    /// same deals, where hard follows its policy's rule.
    HardDraws,
    /// The hard level drawing a tactic, when its hand holds none and it is not behind on
    /// tactics played, `percent` times in a hundred where hard does so 30 times
    /// (`hard-tactic-draws-0`: never; `hard-tactic-draws-100`: always, as the sparring
    /// partner does).
    HardTacticDraws(u8),
    /// The hard level whose rollouts choose the other player's first reply to the
    /// candidate a stronger way than its policy (`Replies`), with rollouts cut so that
    /// its time per move stays within about 1.5 times hard's (`replies_rollouts`):
    /// `hard-replies-worst-3` (the worst of the policy's 3 best replies for the bot, each
    /// played out), `hard-replies-odds-4` (the best of its 4 best for the other player
    /// by the odds evaluation).
    HardReplies(Replies),
    /// The hard level whose deals take the other hand's unknown troops from a model of
    /// that hand, by what it played and did not play at its last turns, with sharpness
    /// `beta` (`hard-model-20`, `hard-model-40`, `hard-model-80`; `hand_model.rs`),
    /// where hard deals them uniformly.
    HardModel(u8),
    /// The hard level's candidates and rollouts under an information-set tree search
    /// (`bot/ismcts.rs`): a tree over both players' plays, `plies` deep below the root's
    /// move (the other player's reply first), the other player's nodes shared by every
    /// deal by the move, with the UCB rule's exploration constant `exploration` / 100
    /// (`hard-is-1-c25`: the replies alone, 0.25), with about as many rollouts as hard
    /// (`IS_ITERATIONS`); with `halving`, the root's candidates share the rollouts by
    /// hard's sequential halving in the same deals instead of by the UCB rule, each with
    /// its own tree of replies below it (`hard-is-sh-2-c25`).
    HardIs {
        plies: u8,
        exploration: u8,
        halving: bool,
    },
    /// `hard-is-sh-2-c25` whose first reply node below each root candidate (the other
    /// player's reply) holds the policy's plays ordered by the sparring partner's
    /// valuation of them from the other player's seat, learned in the first `deals`
    /// deals that reach the node (`hard-is-sh-2-c25-partner-replies-1`, `-2`, `-4`):
    /// the policy's best 4 there miss more than half the partner's real plays
    /// (`battle-line-bench replies`).
    HardIsPartnerReplies(u8),
    /// `hard-is-sh-2-c25` whose first reply node below each root candidate holds the
    /// policy's plays ordered by the partner's worths tabled once for that candidate
    /// (`bot/reply_model.rs`, issue 23, eighteenth round): by the table alone
    /// (`hard-is-sh-2-c25-partner-table`) or by the table and the deal's hand of the
    /// other player (`hard-is-sh-2-c25-partner-model`).
    HardIsPartnerModel {
        hand: bool,
    },
    /// The hard level's search (its candidates, sequential halving and rollouts, the
    /// same moves) whose last two candidates, when their mean difference over the last
    /// round's deals is within one standard error, get `percent` percent of that
    /// round's rollouts more each, in the same new deals (`hard-close-50`,
    /// `hard-close-100`): more rollouts only where the choice is within its noise.
    HardClose(u8),
    /// The hard level's search whose last two candidates, when within one standard
    /// error of each other as for `HardClose`, are decided by the sparring partner's
    /// valuation (`hard-close-partner`; issue 23, twenty-first round).
    HardClosePartner,
    /// The hard level whose cut rollouts are scored by the sparring partner's flag
    /// chances (`CutScore::Partner`, better calibrated than the odds evaluation's) at
    /// hard's own 900 rollouts, about 3.3 times hard's time in games (`hard-partner-cut`;
    /// issue 23, twenty-first round: a candidate for the expert level's budget).
    HardPartnerCut,
    /// The hard level whose cut rollouts are scored by the odds evaluation corrected by
    /// [`CUT_CALIBRATION`] (`hard-cal`, `CutScore::OddsCalibrated`; issue 23, nineteenth
    /// round).
    HardCal,
    /// The same with the correction fitted at the cut position's troop deck size
    /// ([`CutCalibration::for_deck`], `hard-cal-deck`, `CutScore::OddsCalibratedByDeck`;
    /// issue 23, twentieth round).
    HardCalDeck,
    /// The hard level (its search as it plays) whose cut rollouts are scored by the
    /// calibrated odds chance and the partner's chance blended ([`CutBlend`],
    /// `CutScore::Blend`; `hard-blend`; issue 23, twenty-third round).
    HardBlend,
    /// The hard level whose end-of-turn draw of a tactic becomes a troop draw when the
    /// tactic could not be played: the tactic limit locks it, or its own leader is played
    /// and the card is the other leader with a chance of at least a quarter
    /// (`hard-live-draws`, `bot/corrections.rs`; read from games hard lost).
    HardLiveDraws,
    /// The hard level whose search keeps at most three candidates of one tactic kind
    /// (leaders, the other morale cards, the other tactics) among its 8, the ranking's
    /// cost of a kind that fills them raised until moves of other kinds take their places
    /// (`hard-spread`, `bot/corrections.rs`; read from games hard lost).
    HardSpread,
    /// A searching level's search over its best `width` candidates instead of 10, with
    /// its own rollouts (hard's 1,800: `hard-wide-16`, `-24`, `-40`; expert's 3,600:
    /// `expert-wide-16`, `-24`, `-40`; issue 23, twenty-second round): a search of 24
    /// candidates with eight times hard's rollouts chose a move outside hard's 10 in
    /// about 30% of the partner's positions, and chose it again with another seed.
    Wide(Level, u8),
    /// The hard level whose moves, once the troop deck holds at most `cards` cards, are
    /// the ones that win in the most deals of the cards it cannot see, each deal solved
    /// exactly to the end (`hard-endgame-2`, `-4`, `-8`; `bot/endgame.rs`; issue 23,
    /// twenty-fourth round). Where that does not decide, hard's own move.
    HardEndgame(u8),
    /// The hard level whose deals see what no player can (issue 23, twenty-fifth round),
    /// to measure how much of its play the hidden cards cost: the other hand as it is
    /// (`hard-sees-hand`: what a perfect model of that hand would deal), or
    /// every card, the decks' order too (`hard-sees-all`).
    HardSees {
        all: bool,
    },
    /// The hard level whose rollouts play the other player's moves with another noise
    /// than the searching player's (`noise` tenths of a formation point where both
    /// have 12: `hard-their-noise-6`, `-24`, `-48`; issue 23, twenty-fifth round):
    /// seeing the other hand made hard's search worse, as if it fitted its moves to how
    /// its rollouts' policy plays the other player's cards.
    HardTheirNoise(u8),
    /// `HardModel` on the hard level as it plays since 2026-12-07 (10 candidates, 1,800
    /// rollouts) instead of hard as it played in the fourteenth round:
    /// `hard-now-model-20`, `-40`, `-80` (issue 23, twenty-fifth round: deals that hold
    /// the other hand as it is made hard worse, and this model, which held the real
    /// hand less often than uniform deals, led by 4.2 points in 300 seeds).
    HardModelNow(u8),
}

/// The other player's noise in tenths that the harness names for `HardTheirNoise`.
const THEIR_NOISES: [u8; 3] = [6, 24, 48];

/// The troop deck's sizes the harness names for `HardEndgame`.
const ENDGAME_CARDS: [u8; 3] = [2, 4, 8];

/// The candidates the harness names for `Wide`.
const WIDE_WIDTHS: [u8; 3] = [16, 24, 40];

/// The extra rollouts (percent of the last round's) the harness names for `HardClose`.
const CLOSE_EXTRAS: [u8; 3] = [25, 50, 100];

/// The learning deals the harness names for `HardIsPartnerReplies`.
const PARTNER_REPLY_DEALS: [u8; 3] = [1, 2, 4];

/// The tree depths (plays below the root's move) the harness names for `HardIs`.
const IS_PLIES: [u8; 3] = [1, 2, 3];

/// The exploration constants (in hundredths) the harness names for `HardIs`.
const IS_EXPLORATIONS: [u8; 3] = [10, 25, 50];

/// The plays a `HardIs` tree considers at a node below the root: the rollout policy's
/// best this many in the iteration's deal.
const IS_BREADTH: usize = 4;

/// The iterations (rollouts) of a `HardIs` search: about what hard's sequential halving
/// spends (its 900 are per round: 296 + 448 + 900 = 1,644 rollouts over 8 candidates).
const IS_ITERATIONS: usize = 1650;

/// The tree search of the `HardIs` contender named by `plies`, `exploration` and
/// `halving` (which spends hard's own schedule: `Config::rollouts` per round).
fn is_tree(plies: u8, exploration: u8, halving: bool) -> ismcts::Tree {
    ismcts::Tree {
        iterations: IS_ITERATIONS,
        plies: usize::from(plies),
        breadth: IS_BREADTH,
        exploration: f64::from(exploration) / 100.0,
        halving,
        reply_valuations: 0,
        close_extra: 0,
        close_partner: false,
        reply_model: None,
    }
}

/// The command the tree search `tree` picks with hard's configuration (the `HardIs`,
/// `HardClose` and `HardIsPartnerReplies` contenders).
fn search_tree(game: &Game, seed: u64, tree: ismcts::Tree) -> Option<Command> {
    let hard = hard_8_900();
    ismcts::choose(game, seed, hard, tree)
}

/// The sharpness of the hand model the harness names for `HardModel`: a troop worth
/// `d` more (in the other player's chance of winning the game) than the troop played
/// was passed over with a chance of `2 / (1 + exp(beta * d))`.
const MODEL_BETAS: [u8; 3] = [20, 40, 80];

/// The numbers of replies the harness names for `HardReplies`.
const REPLY_COUNTS: [u8; 3] = [2, 3, 4];

/// The rollouts of a `HardReplies` search: with `Worst(n)`, each rollout plays out
/// `n` replies, so hard's 900 rollouts shrink to 1.5 / `n` times as many, about 1.4-1.6
/// times hard's time (`battle-line-bench`); with `Odds(n)`, each reply valued by the
/// odds evaluation costs a few moves of a rollout, so hard's 900 are kept (about 1.3
/// times hard's time with 3 replies; README, thirteenth round).
fn replies_rollouts(replies: Replies) -> usize {
    match replies {
        Replies::Policy | Replies::Odds(_) => HARD_ROLLOUTS,
        Replies::Worst(n) => HARD_ROLLOUTS * 3 / (2 * usize::from(n.max(1))),
    }
}

/// The shares of tactic draws the harness names for `HardTacticDraws` (percent).
const TACTIC_DRAWS: [u8; 2] = [0, 100];

/// The rollouts of `hard-draws`' search of the draw: a third of hard's, as the draw
/// has two candidates where a play has eight.
const DRAW_ROLLOUTS: usize = 300;

/// The troop deck's sizes the harness names for `HardLow` (the deck holds 46 troops
/// after the deal; 8 turns of each player from the deal leave about 30).
const LOW_CARDS: [u8; 3] = [12, 20, 28];

/// The cut rollouts' lengths the harness names (turns of each player).
const CUT_PLIES: [u8; 3] = [4, 8, 16];

/// The rollouts of the `hard-cut-…` contenders scored by the partner's flag chances:
/// about a millisecond an evaluation, so at 900 rollouts hard-cut-8 took 3.6 times
/// hard's time (`battle-line-bench`); 200 keep it near hard's.
pub const CUT_PARTNER_ROLLOUTS: usize = 200;

/// The hard level's search whose rollouts choose the other player's first reply by
/// `replies`, with [`replies_rollouts`] rollouts.
pub(crate) fn replies_config(replies: Replies) -> Config {
    let hard = hard_8_900();
    Config {
        replies,
        rollouts: replies_rollouts(replies),
        ..hard
    }
}

/// The name of a `hard-cut-…` or `hard-low-…` contender from its family's `names`, by
/// score and policy (rows: the partner's score, the same played by the ways policy,
/// the odds score, the same by the ways policy), then by the place of `n` in `sizes`;
/// the family's own name for a size it does not list, or for a calibrated score (no
/// `hard-cut-…` or `hard-low-…` name stands for one: those are `hard-cal…`).
fn variant_name(
    names: &[[&'static str; 3]; 4],
    sizes: &[u8; 3],
    n: u8,
    score: CutScore,
    ways: bool,
    family: &'static str,
) -> &'static str {
    let row = match score {
        CutScore::Partner => 0,
        CutScore::Odds => 2,
        CutScore::OddsCalibrated | CutScore::OddsCalibratedByDeck | CutScore::Blend => {
            return family;
        }
    } + usize::from(ways);
    sized_name(&names[row], sizes, n, family)
}

/// The name in `names` at the place of `n` in `sizes`; `family` for a size it does not
/// list.
fn sized_name(
    names: &[&'static str; 3],
    sizes: &[u8; 3],
    n: u8,
    family: &'static str,
) -> &'static str {
    sizes
        .iter()
        .position(|&s| s == n)
        .map_or(family, |i| names[i])
}

/// The rollouts of `hard-ways`: its playouts took about twice as long as hard's, so
/// 400 rollouts took a little less time than hard's 900 (`battle-line-bench`); since
/// the pool is counted once a move, `hard-ways-900` takes about 1.7 times hard's.
const WAYS_ROLLOUTS: usize = 400;

impl Contender {
    pub fn name(self) -> &'static str {
        match self {
            Contender::Level(l) => l.code(),
            Contender::Random => "random",
            Contender::Sparring => "sparring",
            Contender::Ranked(Level::Hard, Ranking::Odds) => "hard-odds",
            Contender::Ranked(Level::Hard, Ranking::Partner) => "hard-partner",
            Contender::Ranked(Level::Expert, Ranking::Odds) => "expert-odds",
            Contender::Ranked(Level::Expert, Ranking::Partner) => "expert-partner",
            Contender::Ranked(l, _) => l.code(),
            Contender::Playout => "playout",
            Contender::PlayoutWays => "playout-ways",
            Contender::HardFull => "hard-full",
            Contender::HardDraws => "hard-draws",
            Contender::HardCal => "hard-cal",
            Contender::HardCalDeck => "hard-cal-deck",
            Contender::HardBlend => "hard-blend",
            Contender::HardLiveDraws => "hard-live-draws",
            Contender::HardSpread => "hard-spread",
            Contender::HardTheirNoise(noise) => sized_name(
                &[
                    "hard-their-noise-6",
                    "hard-their-noise-24",
                    "hard-their-noise-48",
                ],
                &THEIR_NOISES,
                noise,
                "hard-their-noise",
            ),
            Contender::HardSees { all: false } => "hard-sees-hand",
            Contender::HardSees { all: true } => "hard-sees-all",
            Contender::HardEndgame(cards) => sized_name(
                &["hard-endgame-2", "hard-endgame-4", "hard-endgame-8"],
                &ENDGAME_CARDS,
                cards,
                "hard-endgame",
            ),
            Contender::HardTacticDraws(0) => "hard-tactic-draws-0",
            Contender::HardTacticDraws(_) => "hard-tactic-draws-100",
            Contender::HardReplies(replies) => {
                // By the way replies are chosen, then by the counts of `REPLY_COUNTS`.
                const NAMES: [[&str; 3]; 2] = [
                    [
                        "hard-replies-worst-2",
                        "hard-replies-worst-3",
                        "hard-replies-worst-4",
                    ],
                    [
                        "hard-replies-odds-2",
                        "hard-replies-odds-3",
                        "hard-replies-odds-4",
                    ],
                ];
                let (row, n) = match replies {
                    Replies::Policy => return "hard",
                    Replies::Worst(n) => (0, n),
                    Replies::Odds(n) => (1, n),
                };
                sized_name(&NAMES[row], &REPLY_COUNTS, n, "hard-replies")
            }
            Contender::HardModelNow(beta) => sized_name(
                &[
                    "hard-now-model-20",
                    "hard-now-model-40",
                    "hard-now-model-80",
                ],
                &MODEL_BETAS,
                beta,
                "hard-now-model",
            ),
            Contender::HardModel(beta) => sized_name(
                &["hard-model-20", "hard-model-40", "hard-model-80"],
                &MODEL_BETAS,
                beta,
                "hard-model",
            ),
            Contender::HardIs {
                plies,
                exploration,
                halving,
            } => {
                // By the root's rule and depth, then by the constants of `IS_EXPLORATIONS`.
                const NAMES: [[&str; 3]; 6] = [
                    ["hard-is-1-c10", "hard-is-1-c25", "hard-is-1-c50"],
                    ["hard-is-2-c10", "hard-is-2-c25", "hard-is-2-c50"],
                    ["hard-is-3-c10", "hard-is-3-c25", "hard-is-3-c50"],
                    ["hard-is-sh-1-c10", "hard-is-sh-1-c25", "hard-is-sh-1-c50"],
                    ["hard-is-sh-2-c10", "hard-is-sh-2-c25", "hard-is-sh-2-c50"],
                    ["hard-is-sh-3-c10", "hard-is-sh-3-c25", "hard-is-sh-3-c50"],
                ];
                match IS_PLIES.iter().position(|&p| p == plies) {
                    Some(row) => sized_name(
                        &NAMES[row + 3 * usize::from(halving)],
                        &IS_EXPLORATIONS,
                        exploration,
                        "hard-is",
                    ),
                    None => "hard-is",
                }
            }
            Contender::HardIsPartnerModel { hand: false } => "hard-is-sh-2-c25-partner-table",
            Contender::HardIsPartnerModel { hand: true } => "hard-is-sh-2-c25-partner-model",
            Contender::HardIsPartnerReplies(deals) => sized_name(
                &[
                    "hard-is-sh-2-c25-partner-replies-1",
                    "hard-is-sh-2-c25-partner-replies-2",
                    "hard-is-sh-2-c25-partner-replies-4",
                ],
                &PARTNER_REPLY_DEALS,
                deals,
                "hard-is-sh-2-c25-partner-replies",
            ),
            Contender::HardClose(percent) => sized_name(
                &["hard-close-25", "hard-close-50", "hard-close-100"],
                &CLOSE_EXTRAS,
                percent,
                "hard-close",
            ),
            Contender::HardClosePartner => "hard-close-partner",
            Contender::HardPartnerCut => "hard-partner-cut",
            Contender::Wide(Level::Expert, width) => sized_name(
                &["expert-wide-16", "expert-wide-24", "expert-wide-40"],
                &WIDE_WIDTHS,
                width,
                "expert-wide",
            ),
            Contender::Wide(_, width) => sized_name(
                &["hard-wide-16", "hard-wide-24", "hard-wide-40"],
                &WIDE_WIDTHS,
                width,
                "hard-wide",
            ),
            Contender::HardWays => "hard-ways",
            Contender::HardWays900 => "hard-ways-900",
            Contender::HardCut { plies, score, ways } => {
                // By score and policy, then by the lengths of `CUT_PLIES`.
                const NAMES: [[&str; 3]; 4] = [
                    ["hard-cut-4", "hard-cut-8", "hard-cut-16"],
                    ["hard-cut-ways-4", "hard-cut-ways-8", "hard-cut-ways-16"],
                    ["hard-cut-odds-4", "hard-cut-odds-8", "hard-cut-odds-16"],
                    [
                        "hard-cut-odds-ways-4",
                        "hard-cut-odds-ways-8",
                        "hard-cut-odds-ways-16",
                    ],
                ];
                variant_name(&NAMES, &CUT_PLIES, plies, score, ways, "hard-cut")
            }
            Contender::HardLow { cards, score, ways } => {
                // By score and policy, then by the sizes of `LOW_CARDS`.
                const NAMES: [[&str; 3]; 4] = [
                    ["hard-low-12", "hard-low-20", "hard-low-28"],
                    ["hard-low-ways-12", "hard-low-ways-20", "hard-low-ways-28"],
                    ["hard-low-odds-12", "hard-low-odds-20", "hard-low-odds-28"],
                    [
                        "hard-low-odds-ways-12",
                        "hard-low-odds-ways-20",
                        "hard-low-odds-ways-28",
                    ],
                ];
                variant_name(&NAMES, &LOW_CARDS, cards, score, ways, "hard-low")
            }
        }
    }

    /// The contender named `name` (a level's code, `random`, `sparring`, `playout`, or
    /// a searching level with a ranking named: `hard-odds`, `expert-partner`, ...): the
    /// one of [`Contender::all`] whose [`Contender::name`] it is.
    pub fn from_name(name: &str) -> Option<Contender> {
        Contender::all().into_iter().find(|c| c.name() == name)
    }

    /// Every contender the harness names, each once: the levels, the partner and the
    /// random player, and every variant tried for hard (each family at the sizes its
    /// constants list).
    pub fn all() -> Vec<Contender> {
        let mut all: Vec<Contender> = Level::ALL.map(Contender::Level).to_vec();
        all.extend([
            Contender::Random,
            Contender::Sparring,
            Contender::Playout,
            Contender::PlayoutWays,
            Contender::HardFull,
            Contender::HardDraws,
            Contender::HardCal,
            Contender::HardCalDeck,
            Contender::HardBlend,
            Contender::HardLiveDraws,
            Contender::HardSpread,
            Contender::HardWays,
            Contender::HardWays900,
            Contender::HardClosePartner,
            Contender::HardPartnerCut,
            Contender::HardIsPartnerModel { hand: false },
            Contender::HardIsPartnerModel { hand: true },
        ]);
        for level in [Level::Hard, Level::Expert] {
            all.extend([Ranking::Odds, Ranking::Partner].map(|r| Contender::Ranked(level, r)));
            all.extend(WIDE_WIDTHS.map(|w| Contender::Wide(level, w)));
        }
        all.extend(TACTIC_DRAWS.map(Contender::HardTacticDraws));
        for n in REPLY_COUNTS {
            all.extend([Replies::Worst(n), Replies::Odds(n)].map(Contender::HardReplies));
        }
        all.extend(MODEL_BETAS.map(Contender::HardModel));
        all.extend(MODEL_BETAS.map(Contender::HardModelNow));
        for halving in [false, true] {
            for plies in IS_PLIES {
                all.extend(IS_EXPLORATIONS.map(|exploration| Contender::HardIs {
                    plies,
                    exploration,
                    halving,
                }));
            }
        }
        all.extend(PARTNER_REPLY_DEALS.map(Contender::HardIsPartnerReplies));
        all.extend(CLOSE_EXTRAS.map(Contender::HardClose));
        all.extend(ENDGAME_CARDS.map(Contender::HardEndgame));
        all.extend([false, true].map(|all| Contender::HardSees { all }));
        all.extend(THEIR_NOISES.map(Contender::HardTheirNoise));
        for score in [CutScore::Partner, CutScore::Odds] {
            for ways in [false, true] {
                all.extend(CUT_PLIES.map(|plies| Contender::HardCut { plies, score, ways }));
                all.extend(LOW_CARDS.map(|cards| Contender::HardLow { cards, score, ways }));
            }
        }
        all
    }
}

/// Where the choices of wider and longer searches fall among hard's candidates, at one
/// position (`battle-line-bench wide`; issue 23, twenty-second round).
#[derive(Debug, Clone, PartialEq)]
pub struct WideChoices {
    /// The choices of, in order: hard (10 candidates, 1,800 rollouts); 24 candidates
    /// with hard's rollouts; 10 candidates with eight times hard's rollouts (14,400); the
    /// reference, 24 candidates with 14,400 rollouts; the reference with another seed.
    pub choices: [Option<Command>; 5],
    /// Each choice's place in the one-ply ranking of every move (0: the best-ranked;
    /// hard searches places 0-9).
    pub ranks: [Option<usize>; 5],
}

/// The searches' choices [`WideChoices`] compares, where the position has more
/// candidates than hard searches (`None` otherwise, or where hard decides at once).
pub fn wide_choices(game: &Game, seed: u64) -> Option<WideChoices> {
    let hard = Level::Hard.config()?;
    let with = |width: usize, rollouts: usize| Config {
        width,
        rollouts,
        ..hard
    };
    let ranked = match Search::start(game, seed, with(usize::MAX, hard.rollouts)) {
        Progress::Searching(s) => s.into_ranked().candidates,
        Progress::Decided(_) => return None,
    };
    if ranked.len() <= hard.width {
        return None;
    }
    let long = 8 * hard.rollouts;
    let searches = [
        (hard, seed),
        (with(24, hard.rollouts), seed),
        (with(hard.width, long), seed),
        (with(24, long), seed),
        (with(24, long), seed ^ 0x55),
    ];
    let choices = searches.map(|(config, seed)| choose_with(game, config, seed));
    let ranks = choices.map(|c| {
        ranked
            .iter()
            .position(|(commands, _)| Some(commands[0]) == c)
    });
    Some(WideChoices { choices, ranks })
}

/// The seed of the decision of the player to move in `game` (of a game seeded with
/// `game_seed`) in the harness: [`move_seed`] salted by the seat, so that two searchers
/// in one game do not share their deals.
pub fn seat_move_seed(game: &Game, game_seed: u64) -> u64 {
    let salt = game.current().index() as u64 * 0x5851_F42D_4C95_7F2D;
    move_seed(game_seed ^ salt, game.log().len())
}

impl Contender {
    /// The command this contender picks in `game` (of a game seeded with `game_seed`):
    /// a level's decision uses [`seat_move_seed`]; `random` is the random player's
    /// stream for the game.
    pub fn choose(self, game: &Game, game_seed: u64, random: &mut RandomPlayer) -> Option<Command> {
        let seed = seat_move_seed(game, game_seed);
        match self {
            Contender::Level(level) => choose(game, level, seed),
            Contender::Random => random.choose(game),
            Contender::Sparring => Sparring::new().choose(game),
            Contender::Ranked(level, ranking) => choose_ranked(game, level, ranking, seed),
            Contender::HardFull => choose_with(game, hard_full_config(), seed),
            Contender::HardDraws => {
                let hard = hard_8_900();
                let config = Config {
                    draw_rollouts: DRAW_ROLLOUTS,
                    ..hard
                };
                choose_with(game, config, seed)
            }
            Contender::HardReplies(replies) => choose_with(game, replies_config(replies), seed),
            Contender::HardCal | Contender::HardCalDeck | Contender::HardPartnerCut => {
                // The hard level with another score of its cut rollouts.
                let hard = hard_8_900();
                let cut = match self {
                    Contender::HardCal => CutScore::OddsCalibrated,
                    Contender::HardCalDeck => CutScore::OddsCalibratedByDeck,
                    _ => CutScore::Partner,
                };
                choose_with(game, Config { cut, ..hard }, seed)
            }
            Contender::HardBlend => choose_with_hard(game, seed, |hard| Config {
                cut: CutScore::Blend,
                ..hard
            }),
            Contender::HardLiveDraws => {
                choose_with(game, hard_8_900(), seed).map(|cmd| corrections::live_draw(game, cmd))
            }
            Contender::Wide(level, width) => match level.config() {
                Some(searched) => {
                    let config = Config {
                        width: usize::from(width),
                        ..searched
                    };
                    choose_with(game, config, seed)
                }
                None => choose(game, level, seed),
            },
            Contender::HardEndgame(cards) => {
                let hard = || choose(game, Level::Hard, seed);
                endgame::choose(game, (usize::from(cards), endgame::BUDGET), seed, hard)
                    .or_else(hard)
            }
            Contender::HardSees { all } => {
                let deals = if all { Deals::SeeAll } else { Deals::SeeHand };
                choose_with_hard(game, seed, |hard| Config { deals, ..hard })
            }
            Contender::HardTheirNoise(noise) => choose_with_hard(game, seed, |hard| {
                let playout = playout::Playout {
                    seat_noise: Some((game.current().opponent(), f64::from(noise) / 10.0)),
                    ..hard.playout
                };
                Config { playout, ..hard }
            }),
            Contender::HardSpread => {
                let hard = hard_8_900();
                choose_with(game, corrections::spread_config(game, seed, hard), seed)
            }
            Contender::HardModelNow(beta) => {
                let deals = Deals::Model(f64::from(beta));
                choose_with_hard(game, seed, |hard| Config { deals, ..hard })
            }
            Contender::HardModel(beta) => {
                let hard = hard_8_900();
                let config = Config {
                    deals: Deals::Model(f64::from(beta)),
                    ..hard
                };
                choose_with(game, config, seed)
            }
            Contender::HardIs {
                plies,
                exploration,
                halving,
            } => search_tree(game, seed, is_tree(plies, exploration, halving)),
            Contender::HardClose(percent) => search_tree(
                game,
                seed,
                ismcts::Tree {
                    close_extra: usize::from(percent),
                    ..is_tree(0, 25, true)
                },
            ),
            Contender::HardClosePartner => search_tree(
                game,
                seed,
                ismcts::Tree {
                    close_partner: true,
                    ..is_tree(0, 25, true)
                },
            ),
            Contender::HardIsPartnerModel { hand } => search_tree(
                game,
                seed,
                ismcts::Tree {
                    reply_model: Some(hand),
                    ..is_tree(2, 25, true)
                },
            ),
            Contender::HardIsPartnerReplies(deals) => search_tree(
                game,
                seed,
                ismcts::Tree {
                    reply_valuations: usize::from(deals),
                    ..is_tree(2, 25, true)
                },
            ),
            Contender::HardWays | Contender::HardWays900 => {
                let hard = hard_full_config();
                let config = Config {
                    playout: ways_playout(),
                    rollouts: if self == Contender::HardWays {
                        WAYS_ROLLOUTS
                    } else {
                        hard.rollouts
                    },
                    ..hard
                };
                choose_with(game, config, seed)
            }
            Contender::HardTacticDraws(percent) => {
                let hard = hard_8_900();
                let config = Config {
                    policy: Policy {
                        tactic_draw: f64::from(percent) / 100.0,
                        ..hard.policy
                    },
                    ..hard
                };
                choose_with(game, config, seed)
            }
            Contender::HardCut { plies, score, ways } => choose_with(
                game,
                cut_config(hard_full_config(), plies, score, ways),
                seed,
            ),
            Contender::HardLow { cards, score, ways } => choose_with(
                game,
                low_config(hard_full_config(), cards, score, ways),
                seed,
            ),
            Contender::Playout | Contender::PlayoutWays => {
                if game.is_over() {
                    return None;
                }
                let mut rng = Rng::new(seed);
                let world = knowledge::Knowledge::of(game, game.current()).sample(&mut rng);
                let legal = game.legal_commands();
                let policy = if self == Contender::PlayoutWays {
                    ways_playout()
                } else {
                    playout::Playout::default()
                };
                policy
                    .command(&world, &mut rng)
                    .filter(|c| legal.contains(c))
                    .or_else(|| {
                        legal
                            .into_iter()
                            .find(|c| !matches!(c, Command::SortHand { .. }))
                    })
            }
        }
    }
}

/// Plays a whole game from `seed` between `seats[0]` (P0) and `seats[1]` (P1); each
/// decision of a level uses [`move_seed`] with its own salt. Returns the winner, or
/// `None` for a stalemate or a game stopped after `max_commands`.
pub fn play_match(seed: u64, seats: [Contender; 2], max_commands: usize) -> Option<Player> {
    play_watched(seed, seats, max_commands, |_, _, _| {}).winner()
}

/// The game [`play_match`] plays, with `watch` shown each command before it is applied
/// (the position, who gives it, the command). Returns the game as it ended.
pub fn play_watched(
    seed: u64,
    seats: [Contender; 2],
    max_commands: usize,
    mut watch: impl FnMut(&Game, Player, Command),
) -> Game {
    let mut game = Game::new(seed, Settings::default());
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    for _ in 0..max_commands {
        if game.is_over() {
            break;
        }
        let seat = game.current();
        let cmd = seats[seat.index()].choose(&game, seed, &mut random);
        let Some(cmd) = cmd else { break };
        watch(&game, seat, cmd);
        if game.apply(cmd).is_err() {
            break;
        }
    }
    game
}
