//! Benchmarks: claim proofs per second (exhaustive over unseen troops), the easy bot's time per move, and the searching levels' time on fixed positions.
//!
//! `cargo run --profile fast -p battle-line --example battle-line-bench [searcher...]`
//! (the searchers timed on the fixed positions, by name; all of them by default)
//!
//! `… battle-line-bench moves N` plays only the hard level on the first `N` fixed
//! positions and prints each chosen command, for comparing moves before and after a
//! change and for counting instructions (`valgrind --tool=callgrind`).
//!
//! `… battle-line-bench agree A B N` counts how often contenders `A` and `B` choose the
//! same move on the first `N` (at most 60) fixed positions, and how often each chooses
//! its own move again with another seed (the search's own noise, for comparison).
//!
//! `… battle-line-bench hand-model N` checks the model of the other hand (`hard-model-…`)
//! over `N` games of the sparring partner against itself: for each sharpness the harness
//! names, the mean weight of the troops really in the other hand against the other
//! unseen ones, and the mean log-ratio of a held troop's weight to the mean (above 0:
//! the model's deals find the real hand more often than uniform deals).
//!
//! `… battle-line-bench replies FROM N [OPPONENT]` plays seeds `FROM..FROM+N` between the
//! sparring partner and `OPPONENT` (a contender's name, `hard` by default), each seed from
//! both seats, and counts where the partner's real plays rank among the rollout policy's
//! (`reply_ranks`): how many a tree that keeps the policy's best 4 plays at a node
//! (`hard-is-…`) could ever search; and, for comparison, their rank among the moves as
//! hard ranks its own candidates (the odds evaluation one ply deep). `… replies FROM N
//! OPPONENT DEALS` also ranks each of those plays in `DEALS` (16 by default; 0: none)
//! deals that the partner's opponent samples from its knowledge, as its searches deal
//! the hidden cards: by the partner's own valuation of its plays in the deal, and by the
//! policy there; by votes over the deals; by the policy's plays ordered by the valuation
//! learned in 1 or 2 other deals (what a tree node can afford); by the valuation in
//! the real deal; with the valuation's time per position; and by the partner's worths
//! tabled once a position from its public parts (`ReplyModel`, `bot/reply_model.rs`),
//! with the deal's hand and without it, with the table's time and the time to order a
//! deal's plays.
//!
//! `… battle-line-bench calibrate-cut FROM N [A B [CSV]]` plays seeds `FROM..FROM+N`
//! between contenders `A` and `B` (the sparring partner against itself by default), each
//! seed from both seats, records where the troop deck first holds at most 20 (and 10)
//! cards what hard's cut score sees from each seat (`cut_samples`), with the game's
//! result, and prints the log-loss and a table by bins of the plain combinations of the
//! odds evaluation's and the partner's flag chances (`CutScore::Odds`, `Partner`) and of
//! corrections (`CutCalibration`) fitted on the even seeds and checked on the odd ones;
//! with `CSV`, the samples to that file, each row with the numbers of `cut_features`
//! after the flag chances (for fits of richer cut scores outside the bench, such as
//! `CutBlend`'s). `… calibrate-cut-csv CSV...` prints the same figures for the samples
//! of such files, without playing.
//!
//! `… battle-line-bench wide FROM N EVERY` plays the sparring partner against itself on
//! seeds `FROM..FROM+N` and, at every `EVERY`-th position of the play phase that has
//! more candidates than hard searches, compares the choices of hard, of 24 candidates
//! with hard's rollouts, of 10 candidates with eight times its rollouts, and of a
//! reference with both (two seeds) (`bot::wide_choices`): where the reference's choice
//! falls in the one-ply ranking hard takes its 10 candidates from, and how often each
//! search chooses the reference's move.
//!
//! `… battle-line-bench losses FROM N [CONTENDER [won]]` plays `CONTENDER` (`hard` by
//! default) against the sparring partner on seeds `FROM..FROM+N`, each seed from both
//! seats as the harness does (`play_watched`), and prints every game it loses (with
//! `won`, every game) turn by turn, flags numbered 1-9: each turn's commands in a line
//! (`S:` the partner, `H:` the contender), and before each of the contender's turns the
//! decks, the nine flags (the partner's cards above, the contender's below, between them
//! who owns a flag `[S]`/`[H]`, who could prove it now `s!`/`h!`, Fog and Mud) and both
//! hands; then how the game ended. It ends with counts of automatic checks over the
//! lost and the won games (a troop thrown at a flag the partner could prove, a Deserter
//! or Traitor held while the partner could prove a flag, tactics left in hand, draws).
//!
//! `… battle-line-bench explain SEED P0|P1 TURN [CONTENDER]` replays that game of
//! `losses` up to the contender's turn `TURN` and shows the hard level's search of its
//! play there (its candidates, each with its ranking value, rollouts and mean score;
//! `*` marks those of the last round), from a snapshot taken just before it decides.
//!
//! `… battle-line-bench endgame FROM N CARDS [CONTENDER [POSITIONS]]` plays
//! `CONTENDER` (`hard` by default) against the sparring partner on seeds `FROM..FROM+N`,
//! each from both seats, and at each of the contender's turns once the troop deck holds
//! at most `CARDS` cards solves the game to the end knowing every card
//! (`wins_knowing_every_card`, at most `POSITIONS` positions, 1,000,000 by default):
//! won or lost for the contender with both sides at their best. It prints each game's
//! verdicts by deck size with the result, and counts the games the contender lost from a
//! position it could have won knowing every card (issue 23, twenty-fourth round).
//!
//! `… battle-line-bench tables FROM N` times those tables at the reply nodes below the
//! searcher's first 8 plays in every fourth position of seeds `FROM..FROM+N` of the
//! partner against itself (`time_tables`): built from fresh outlooks, and with the
//! outlooks shared by the 8, as a tree below one root builds them.

use battle_line::bot::{
    Bot, CACHE_DEALS, CUT_CALIBRATION, CUT_FEATURE_NAMES, Contender, CutCalibration, CutSample,
    Level, REPLY_RANKS, RandomPlayer, Ranking, Sparring, VOTE_BEST, calibrate, choose,
    choose_ranked, cut_samples, dead_leader_share, play_watched, reply_ranks, time_tables,
    wide_choices, wins_knowing_every_card,
};
use battle_line::{
    Card, Color, Command, Deck, Destination, Game, Phase, Player, Settings, Tactic, Target, Troop,
    Victory,
};
use std::time::Instant;

/// Positions from random play, with the flags that have one complete side (so the
/// proof has to search the unseen cards).
fn positions() -> Vec<(Game, u8, Player)> {
    let mut out = Vec::new();
    for seed in 0..200u64 {
        let mut g = Game::new(seed, Settings::default());
        let mut r = RandomPlayer::new(seed);
        for step in 0..400 {
            let Some(c) = r.choose(&g) else { break };
            if g.apply(c).is_err() || g.is_over() {
                break;
            }
            if step % 7 == 0 {
                for (i, f) in g.flags().iter().enumerate() {
                    for p in Player::BOTH {
                        if f.owner.is_none()
                            && f.slots(p).len() >= f.capacity()
                            && f.slots(p.opponent()).len() < f.capacity()
                        {
                            out.push((g.clone(), i as u8, p));
                        }
                    }
                }
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, n] = args.as_slice()
        && mode == "moves"
    {
        let n: usize = n.parse().expect("a count of positions");
        for (i, g) in fixed_positions(n).iter().enumerate() {
            println!("{i}: {:?}", choose(g, Level::Hard, i as u64));
        }
        return;
    }
    if let [mode, from, n, every] = args.as_slice()
        && mode == "wide"
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let every: usize = every.parse().expect("a step between positions");
        wide(from..from + n, every.max(1));
        return;
    }
    if let [mode, from, n, rest @ ..] = args.as_slice()
        && mode == "losses"
        && rest.len() <= 2
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let name = rest.first().map_or("hard", String::as_str);
        let contender = Contender::from_name(name).expect("a contender's name");
        losses(
            from..from + n,
            contender,
            rest.get(1).is_some_and(|w| w == "won"),
        );
        return;
    }
    if let [mode, seed, seat, turn, rest @ ..] = args.as_slice()
        && mode == "explain"
        && rest.len() <= 1
    {
        let seed: u64 = seed.parse().expect("a seed");
        let seat = if seat == "P1" { Player::P1 } else { Player::P0 };
        let turn: usize = turn.parse().expect("a turn");
        let name = rest.first().map_or("hard", String::as_str);
        let contender = Contender::from_name(name).expect("a contender's name");
        explain(seed, seat, turn, contender);
        return;
    }
    if let [mode, from, n, cards, rest @ ..] = args.as_slice()
        && mode == "endgame"
        && rest.len() <= 2
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let cards: usize = cards.parse().expect("a troop deck size");
        let name = rest.first().map_or("hard", String::as_str);
        let contender = Contender::from_name(name).expect("a contender's name");
        let budget = rest
            .get(1)
            .map_or(1_000_000, |b| b.parse().expect("a count of positions"));
        endgame(from..from + n, cards, contender, budget);
        return;
    }
    if let [mode, from, n] = args.as_slice()
        && mode == "tables"
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let t = time_tables(from..from + n, 4, std::time::Instant::now);
        let per = |d: std::time::Duration, k: u32| d.as_secs_f64() * 1e3 / f64::from(k.max(1));
        println!(
            "{} moves, {} tables: fresh {:.2} ms a table ({:.1} ms a move), shared {:.2} ms a table ({:.1} ms a move)",
            t.moves,
            t.tables,
            per(t.fresh, t.tables),
            per(t.fresh, t.moves),
            per(t.shared, t.tables),
            per(t.shared, t.moves)
        );
        return;
    }
    if let [mode, n] = args.as_slice()
        && mode == "hand-model"
    {
        let games: u64 = n.parse().expect("a count of games");
        for beta in [20, 40, 80] {
            let c = calibrate(games, f64::from(beta));
            println!(
                "hard-model-{beta}: {} positions, {} unseen troops weighed, {} in the other hand: mean weight {:.4} held, {:.4} not held (ratio {:.4}); mean log-ratio of a held troop {:+.4}",
                c.positions,
                c.troops,
                c.held,
                c.held_weight,
                c.other_weight,
                c.held_weight / c.other_weight,
                c.log_ratio
            );
        }
        return;
    }
    if let [mode, from, n, rest @ ..] = args.as_slice()
        && mode == "replies"
        && rest.len() <= 2
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let other = rest.first().map_or("hard", String::as_str);
        let other = Contender::from_name(other).expect("a contender's name");
        let deals: usize = rest
            .get(1)
            .map_or(16, |d| d.parse().expect("a count of deals"));
        let start = Instant::now();
        let r = reply_ranks(from..from + n, other, deals, std::time::Instant::now);
        let share = |k: usize| 100.0 * k as f64 / r.plays.max(1) as f64;
        let ranks: Vec<String> = (0..REPLY_RANKS)
            .map(|i| format!("{}: {}", i + 1, r.by_rank[i]))
            .collect();
        println!(
            "seeds {from}-{} against {} ({:.0} s): {} plays of the partner, {:.1} of the policy's plays to choose from on average; by the policy's rank ({}+ last) {}; not a play of the policy {} ({:.1}%)",
            from + n - 1,
            other.name(),
            start.elapsed().as_secs_f64(),
            r.plays,
            r.choices as f64 / r.plays.max(1) as f64,
            REPLY_RANKS,
            ranks.join(", "),
            r.not_policy,
            share(r.not_policy),
        );
        for k in [1, 2, 4, 8] {
            println!(
                "within the policy's best {k}: {} ({:.1}%), outside: {} ({:.1}%); within the odds ranking's best {k}: {} ({:.1}%)",
                r.within(k),
                share(r.within(k)),
                r.plays - r.within(k),
                share(r.plays - r.within(k)),
                r.within_odds(k),
                share(r.within_odds(k)),
            );
        }
        let odds: Vec<String> = (0..REPLY_RANKS)
            .map(|i| format!("{}: {}", i + 1, r.by_odds_rank[i]))
            .collect();
        println!(
            "by the odds ranking's rank {}; not listed {}",
            odds.join(", "),
            r.not_odds
        );
        let s = r.sampled;
        if s.deals > 0 {
            let of_deals = |k: usize| 100.0 * k as f64 / s.deals as f64;
            let of_held = |k: usize| 100.0 * k as f64 / s.held.max(1) as f64;
            let of_positions = |k: usize| 100.0 * k as f64 / s.positions.max(1) as f64;
            let ms = r.valuation_time.as_secs_f64() * 1e3;
            println!(
                "in {deals} deals a position sampled by the other seat ({} deals): the real play's card held in {} ({:.1}%); the partner's valuation took {:.1} ms a position ({:.2} ms a deal)",
                s.deals,
                s.held,
                of_deals(s.held),
                ms / s.positions.max(1) as f64,
                ms / s.deals as f64,
            );
            for k in [1, 2, 3, 4, 8] {
                println!(
                    "best {k}: the partner's valuation in a sampled deal {:.1}% of deals ({:.1}% of those holding the card), the policy {:.1}% ({:.1}%); by votes over the deals ({VOTE_BEST} a deal) {:.1}% of positions; the valuation in the real deal {:.1}%",
                    of_deals(s.within_value(k)),
                    of_held(s.within_value(k)),
                    of_deals(s.within_policy(k)),
                    of_held(s.within_policy(k)),
                    of_positions(s.within_votes(k)),
                    of_positions(s.within_real_value(k)),
                );
            }
            // The best 1, 2, 3, 4 and 8 of an ordering, as shares of the deals and of
            // those holding the card.
            let bests = |within: &dyn Fn(usize) -> usize| {
                [1, 2, 3, 4, 8]
                    .iter()
                    .map(|&k| {
                        format!(
                            "best {k} {:.1}% ({:.1}%)",
                            of_deals(within(k)),
                            of_held(within(k))
                        )
                    })
                    .collect::<Vec<String>>()
            };
            let line = bests(&|k| s.within_model(k));
            println!(
                "the deal's plays ordered by the partner's worths tabled once a position (ReplyModel, {:.2} ms a table, {:.1} us a deal's order): {} of deals (of those holding the card)",
                r.model_time.as_secs_f64() * 1e3 / s.positions.max(1) as f64,
                r.model_order_time.as_secs_f64() * 1e6 / s.deals as f64,
                line.join(", ")
            );
            let line = bests(&|k| s.within_table(k));
            println!(
                "the same table without the deal's hand: {} of deals (of those holding the card)",
                line.join(", ")
            );
            for (j, learned) in CACHE_DEALS.iter().enumerate() {
                let line: Vec<String> = [1, 2, 3, 4, 8]
                    .iter()
                    .map(|&k| {
                        format!(
                            "best {k} {:.1}% ({:.1}%)",
                            of_deals(s.within_cached(j, k)),
                            of_held(s.within_cached(j, k))
                        )
                    })
                    .collect();
                println!(
                    "the policy's plays ordered by the valuation learned in {learned} other deal(s) of the position: {} of deals (of those holding the card)",
                    line.join(", ")
                );
            }
        }
        return;
    }
    if let [mode, from, n, rest @ ..] = args.as_slice()
        && mode == "calibrate-cut"
        && matches!(rest.len(), 0 | 2 | 3)
    {
        let from: u64 = from.parse().expect("a first seed");
        let n: u64 = n.parse().expect("a count of seeds");
        let named = |name: &str| Contender::from_name(name).expect("a contender's name");
        let (a, b) = match rest {
            [a, b, ..] => (named(a), named(b)),
            _ => (Contender::Sparring, Contender::Sparring),
        };
        calibrate_cut(from..from + n, a, b, rest.get(2).map(String::as_str));
        return;
    }
    if let [mode, paths @ ..] = args.as_slice()
        && mode == "calibrate-cut-csv"
    {
        let samples: Vec<CutSample> = paths.iter().flat_map(|p| read_cut_samples(p)).collect();
        println!("{} samples from {}", samples.len(), paths.join(", "));
        analyse_cut(&samples);
        return;
    }
    if let [mode, a, b, n] = args.as_slice()
        && mode == "agree"
    {
        let n: usize = n.parse().expect("a count of positions");
        let named = |name: &str| Contender::from_name(name).expect("a contender's name");
        let (a, b) = (named(a), named(b));
        let mut random = RandomPlayer::new(0);
        let (mut same, mut a_again, mut b_again) = (0, 0, 0);
        let positions = fixed_positions(n);
        for (i, g) in positions.iter().enumerate() {
            let seed = i as u64;
            let first = a.choose(g, seed, &mut random);
            let other = b.choose(g, seed, &mut random);
            same += usize::from(first == other);
            a_again += usize::from(a.choose(g, seed + 1000, &mut random) == first);
            b_again += usize::from(b.choose(g, seed + 1000, &mut random) == other);
        }
        println!(
            "on {} fixed positions: {} and {} chose the same move {same} times; each with another seed chose its own move again {a_again} and {b_again} times",
            positions.len(),
            a.name(),
            b.name()
        );
        return;
    }
    let pos = positions();
    let start = Instant::now();
    let mut proven = 0usize;
    let rounds = 20;
    for _ in 0..rounds {
        for (g, flag, p) in &pos {
            if g.check_claim(*flag, *p).is_ok() {
                proven += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let checks = pos.len() * rounds;
    println!(
        "claim proofs: {checks} checks in {secs:.3} s = {:.0} checks/s ({:.2} us each; {} of {} positions provable)",
        checks as f64 / secs,
        secs * 1e6 / checks as f64,
        proven / rounds,
        pos.len()
    );

    let mut times = Vec::new();
    let plays = bot_games(60, Some(&mut times));
    let (mean, p99, max) = summary(&mut times);
    println!(
        "bot decisions: {} (bot vs bot, 40 games): mean {mean:.3} ms, p99 {p99:.3} ms, max {max:.3} ms",
        times.len()
    );

    // Hard with its candidates ranked by the odds evaluation (the level) and by the
    // partner's; hard-full (hard's rollouts played to the end, as before 2026-12-03), with
    // the rollout policy that counts every way to complete a side (400 and 900
    // rollouts), and with rollouts cut after 4, 8 or 16 turns of each player and scored
    // by a chance of winning the game (and cut after 8, played by the ways policy). They take turns
    // position by position, so a change in the machine's load falls on all of them.
    let all: [(&str, Level, Option<Ranking>); 13] = [
        ("normal", Level::Normal, None),
        ("hard-odds", Level::Hard, Some(Ranking::Odds)),
        ("hard-partner", Level::Hard, Some(Ranking::Partner)),
        ("hard-full", Level::Hard, None),
        ("hard-ways", Level::Hard, None),
        ("hard-ways-900", Level::Hard, None),
        ("hard-cut-4", Level::Hard, None),
        ("hard-cut-8", Level::Hard, None),
        ("hard-cut-16", Level::Hard, None),
        ("hard-cut-odds-4", Level::Hard, None),
        ("hard-cut-odds-8", Level::Hard, None),
        ("hard-cut-odds-16", Level::Hard, None),
        ("hard-cut-odds-ways-8", Level::Hard, None),
    ];
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut searchers: Vec<(&str, Level, Option<Ranking>)> = all
        .into_iter()
        .filter(|(name, ..)| wanted.is_empty() || wanted.iter().any(|w| w == name))
        .collect();
    // Any other `hard-…` contender the harness knows, when named (`hard-low-odds-ways-20`).
    for w in &wanted {
        let known = searchers.iter().any(|(name, ..)| name == w);
        if !known && w.starts_with("hard-") && Contender::from_name(w).is_some() {
            searchers.push((w.as_str(), Level::Hard, None));
        }
    }
    let mut times = vec![Vec::new(); searchers.len()];
    for (i, g) in plays.iter().enumerate() {
        for ((name, level, ranking), times) in searchers.iter().zip(&mut times) {
            let t = Instant::now();
            let c = match ranking {
                None if name.starts_with("hard-") => {
                    let mut random = RandomPlayer::new(0);
                    let c = Contender::from_name(name).expect("a contender");
                    c.choose(g, i as u64, &mut random)
                }
                None => choose(g, *level, i as u64),
                Some(r) => choose_ranked(g, *level, *r, i as u64),
            };
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(c.is_some_and(|c| g.legal_commands().contains(&c)));
        }
    }
    for ((name, ..), mut times) in searchers.into_iter().zip(times) {
        let (mean, p99, max) = summary(&mut times);
        println!(
            "{name} decisions on {} fixed positions (a card to play): mean {mean:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
            times.len()
        );
    }
}

/// The first `count` (at most 60) fixed positions the searching levels are timed on.
fn fixed_positions(count: usize) -> Vec<Game> {
    bot_games(count.min(60), None)
}

/// 40 games of the easy bot against itself, with every 6th position where a card is to
/// be played kept (the first `keep` of them) for the searching levels; the bot's time
/// per decision is pushed to `times` when asked for. Without `times` it stops once
/// `keep` positions are found (the same positions).
fn bot_games(keep: usize, mut times: Option<&mut Vec<f64>>) -> Vec<Game> {
    let mut plays = Vec::new();
    for seed in 0..40u64 {
        let mut g = Game::new(seed, Settings::default());
        let mut bots = [Bot::new(seed), Bot::new(seed + 1000)];
        while !g.is_over() && g.log().len() < 3000 {
            let p = g.current().index();
            if g.phase() == Phase::Play && g.log().len().is_multiple_of(6) && plays.len() < keep {
                plays.push(g.clone());
            }
            if times.is_none() && plays.len() >= keep {
                return plays;
            }
            let t = Instant::now();
            let Some(c) = bots[p].choose(&g) else { break };
            if let Some(times) = times.as_deref_mut() {
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
            if g.apply(c).is_err() {
                break;
            }
            if matches!(c, Command::EndTurn) && g.log().len() > 2900 {
                break;
            }
        }
    }
    plays
}

/// Mean, 99th percentile and maximum of `times` (sorted in place).
fn summary(times: &mut [f64]) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    (mean, times[times.len() * 99 / 100], times[times.len() - 1])
}

/// Log-loss of chance `p` for a result `y` (½ for a stalemate).
fn loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Mean log-loss of `cal` on `samples`, by the odds evaluation's flag chances or the
/// partner's.
fn mean_loss(samples: &[&CutSample], partner: bool, cal: CutCalibration) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = if partner { &s.partner } else { &s.odds };
            loss(cal.game_chance(p), s.result)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The correction of least log-loss on `samples`: the flag sharpness over `flags`, the
/// game temperature over `games` (a grid, then a finer one around the best).
fn fit(
    samples: &[&CutSample],
    partner: bool,
    flags: &[f64],
    games: &[f64],
) -> (CutCalibration, f64) {
    let mut best = (CutCalibration::NONE, f64::INFINITY);
    for &a in flags {
        // The game chances at this sharpness, once; then each temperature on them.
        let flat = CutCalibration {
            flag_sharpness: a,
            game_temperature: 1.0,
        };
        let g: Vec<(f64, f64)> = samples
            .iter()
            .map(|s| {
                (
                    flat.game_chance(if partner { &s.partner } else { &s.odds }),
                    s.result,
                )
            })
            .collect();
        for &b in games {
            let total: f64 = g.iter().map(|&(g, y)| loss(tempered(g, b), y)).sum();
            let l = total / g.len().max(1) as f64;
            if l < best.1 {
                best = (
                    CutCalibration {
                        flag_sharpness: a,
                        game_temperature: b,
                    },
                    l,
                );
            }
        }
    }
    best
}

/// `σ(b · logit g)`, exact at 0 and 1: what `CutCalibration::game_chance` does with
/// its game temperature `b` (checked by the log-loss printed with the pair fitted).
fn tempered(g: f64, b: f64) -> f64 {
    if g <= 0.0 || g >= 1.0 || b == 1.0 {
        return g.clamp(0.0, 1.0);
    }
    let x = (g / (1.0 - g)).powf(b);
    x / (1.0 + x)
}

fn grid(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let n = ((hi - lo) / step).round() as usize;
    (0..=n).map(|i| lo + step * i as f64).collect()
}

/// Fits one or both numbers of a correction on `train` and prints its log-loss there
/// and on `test`; returns the pair fitted.
fn fit_and_show(
    what: &str,
    train: &[&CutSample],
    test: &[&CutSample],
    partner: bool,
) -> CutCalibration {
    let one = [1.0];
    let coarse = grid(0.2, 4.0, 0.1);
    let (both, _) = fit(train, partner, &coarse, &coarse);
    let fine_a = grid(
        (both.flag_sharpness - 0.1).max(0.05),
        both.flag_sharpness + 0.1,
        0.01,
    );
    let fine_b = grid(
        (both.game_temperature - 0.1).max(0.05),
        both.game_temperature + 0.1,
        0.01,
    );
    let (both, _) = fit(train, partner, &fine_a, &fine_b);
    let (flags_only, _) = fit(train, partner, &grid(0.2, 4.0, 0.01), &one);
    let (game_only, _) = fit(train, partner, &one, &grid(0.2, 4.0, 0.01));
    let show = |name: &str, c: CutCalibration| {
        println!(
            "  {what} {name:<28} sharpness {:.2} temperature {:.2}: log-loss fit half {:.4}, held-out half {:.4}",
            c.flag_sharpness,
            c.game_temperature,
            mean_loss(train, partner, c),
            mean_loss(test, partner, c)
        );
    };
    show("plain", CutCalibration::NONE);
    show("flags sharpened", flags_only);
    show("game tempered", game_only);
    show("both", both);
    both
}

/// Predicted chance against the share of results won, in ten bins of the chance.
fn table(what: &str, samples: &[&CutSample], partner: bool, cal: CutCalibration) {
    let mut bins = [(0usize, 0.0f64, 0.0f64); 10];
    for s in samples {
        let p = cal.game_chance(if partner { &s.partner } else { &s.odds });
        let b = ((p * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += p;
        bins[b].2 += s.result;
    }
    println!("  {what}: bin, positions, mean chance, share won");
    for (i, (n, p, y)) in bins.iter().enumerate() {
        if *n > 0 {
            let n_f = *n as f64;
            println!(
                "    {:.1}-{:.1} {n:>6} {:.3} {:.3}",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0,
                p / n_f,
                y / n_f
            );
        }
    }
}

/// `battle-line-bench calibrate-cut`: see the module's doc.
fn calibrate_cut(seeds: std::ops::Range<u64>, a: Contender, b: Contender, csv: Option<&str>) {
    let start = Instant::now();
    let samples = cut_samples(seeds.clone(), a, b, &[20, 10]);
    println!(
        "{} against {}, seeds {}..{} from both seats: {} samples ({:.1} s)",
        a.name(),
        b.name(),
        seeds.start,
        seeds.end,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(path) = csv {
        let mut text = String::from("seed,seat,threshold,to_move,result");
        for k in ["odds", "partner"] {
            for i in 0..9 {
                text += &format!(",{k}{i}");
            }
        }
        for name in CUT_FEATURE_NAMES {
            text += &format!(",{name}");
        }
        text.push('\n');
        for s in &samples {
            text += &format!(
                "{},{},{},{},{}",
                s.seed,
                s.seat.index(),
                s.threshold,
                u8::from(s.to_move),
                s.result
            );
            for p in s.odds.iter().chain(&s.partner).chain(&s.features) {
                text += &format!(",{p:.6}");
            }
            text.push('\n');
        }
        std::fs::write(path, text).expect("the CSV file written");
    }
    analyse_cut(&samples);
}

/// The samples `calibrate-cut … CSV` wrote to `path`.
fn read_cut_samples(path: &str) -> Vec<CutSample> {
    let text = std::fs::read_to_string(path).expect("a CSV file of calibrate-cut");
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<f64> = line
            .split(',')
            .map(|x| x.parse().expect("a number"))
            .collect();
        assert!(f.len() >= 23, "a row of calibrate-cut's CSV");
        let flags = |at: usize| -> [f64; 9] { std::array::from_fn(|i| f[at + i]) };
        out.push(CutSample {
            seed: f[0] as u64,
            seat: if f[1] == 0.0 { Player::P0 } else { Player::P1 },
            threshold: f[2] as usize,
            to_move: f[3] == 1.0,
            result: f[4],
            odds: flags(5),
            partner: flags(14),
            features: std::array::from_fn(|i| f.get(23 + i).copied().unwrap_or(0.0)),
        });
    }
    out
}

/// The figures of `calibrate-cut` for `samples`: at each deck size recorded, and for
/// both sizes together, the plain combinations and the corrections fitted on the even
/// seeds, checked on the odd ones, and each size's fit on the other sizes' positions.
fn analyse_cut(samples: &[CutSample]) {
    let mut fitted: Vec<(usize, CutCalibration)> = Vec::new();
    for threshold in [20, 10, 0] {
        let at: Vec<&CutSample> = samples
            .iter()
            .filter(|s| threshold == 0 || s.threshold == threshold)
            .collect();
        let train: Vec<&CutSample> = at.iter().copied().filter(|s| s.seed % 2 == 0).collect();
        let test: Vec<&CutSample> = at.iter().copied().filter(|s| s.seed % 2 == 1).collect();
        let won = at.iter().map(|s| s.result).sum::<f64>() / at.len().max(1) as f64;
        let movers: Vec<&CutSample> = at.iter().copied().filter(|s| s.to_move).collect();
        let mover_won = movers.iter().map(|s| s.result).sum::<f64>() / movers.len().max(1) as f64;
        println!(
            "troop deck first at most {}: {} samples ({} fit on even seeds, {} held out on odd seeds); share won {won:.3}, by the player to move {mover_won:.3}",
            if threshold == 0 {
                "20 or 10 (both sets)".to_string()
            } else {
                threshold.to_string()
            },
            at.len(),
            train.len(),
            test.len()
        );
        let odds = fit_and_show("odds   ", &train, &test, false);
        let partner = fit_and_show("partner", &train, &test, true);
        fitted.push((threshold, odds));
        println!(
            "  odds    the level's CUT_CALIBRATION (sharpness {:.2} temperature {:.2}): log-loss all {:.4}, odd seeds {:.4}",
            CUT_CALIBRATION.flag_sharpness,
            CUT_CALIBRATION.game_temperature,
            mean_loss(&at, false, CUT_CALIBRATION),
            mean_loss(&test, false, CUT_CALIBRATION)
        );
        table("odds plain, odd seeds", &test, false, CutCalibration::NONE);
        table("odds fitted, odd seeds", &test, false, odds);
        table(
            "odds CUT_CALIBRATION, odd seeds",
            &test,
            false,
            CUT_CALIBRATION,
        );
        table(
            "partner plain, odd seeds",
            &test,
            true,
            CutCalibration::NONE,
        );
        table("partner fitted, odd seeds", &test, true, partner);
    }
    println!("odds fitted on one set (even seeds), log-loss on each set's odd seeds:");
    for (t, fit) in &fitted {
        let held = |size: usize| {
            let test: Vec<&CutSample> = samples
                .iter()
                .filter(|s| s.seed % 2 == 1 && (size == 0 || s.threshold == size))
                .collect();
            mean_loss(&test, false, *fit)
        };
        println!(
            "  fitted at deck {t} (0: both; sharpness {:.2} temperature {:.2}): deck 20 {:.4}, deck 10 {:.4}, both {:.4}",
            fit.flag_sharpness,
            fit.game_temperature,
            held(20),
            held(10),
            held(0)
        );
    }
}

/// A card in two or three letters: a troop's colour and value (`T` for 10), a tactic's
/// abbreviation.
fn short(card: Card) -> String {
    match card {
        Card::Troop(t) => short_troop(t),
        Card::Tactic(t) => match t {
            Tactic::Alexander => "ALX",
            Tactic::Darius => "DAR",
            Tactic::CompanionCavalry => "CC8",
            Tactic::ShieldBearers => "SB",
            Tactic::Fog => "FOG",
            Tactic::Mud => "MUD",
            Tactic::Scout => "SCT",
            Tactic::Redeploy => "RDP",
            Tactic::Deserter => "DES",
            Tactic::Traitor => "TRT",
        }
        .to_string(),
    }
}

fn short_troop(t: Troop) -> String {
    let colour = match t.color {
        Color::Red => 'R',
        Color::Orange => 'O',
        Color::Yellow => 'Y',
        Color::Green => 'G',
        Color::Blue => 'B',
        Color::Purple => 'P',
    };
    let value = if t.value == 10 {
        'T'
    } else {
        char::from(b'0' + t.value.min(9))
    };
    format!("{colour}{value}")
}

/// The flag (1-9) where `card` lies on `p`'s side, if it does.
fn flag_of(game: &Game, p: Player, card: Card) -> Option<usize> {
    game.flags()
        .iter()
        .position(|f| f.slots(p).contains(&card))
        .map(|i| i + 1)
}

/// A command in a few words, flags numbered 1-9; `None` for sorting a hand.
fn describe(game: &Game, seat: Player, cmd: Command) -> Option<String> {
    let flag = |f: u8| format!("F{}", u32::from(f) + 1);
    let deck = |d: Deck| match d {
        Deck::Troop => "troop",
        Deck::Tactic => "tactic",
    };
    Some(match cmd {
        Command::ClaimFlag { flag: f } => format!("CLAIM {}", flag(f)),
        Command::PlayCard {
            card,
            target: Target::Flag { flag: f },
        } => format!("{}>{}", short(card), flag(f)),
        Command::PlayCard { card, .. } => short(card),
        Command::MoveCard { card, flag: f } => format!("move {}>{}", short(card), flag(f)),
        Command::ResolveRedeploy { card, to } => {
            let from = flag_of(game, seat, card).map_or(String::new(), |i| format!("F{i}"));
            match to {
                Destination::Flag { flag: f } => {
                    format!("({} {from}>{})", short(card), flag(f))
                }
                Destination::Discard => format!("({} {from}>discard)", short(card)),
            }
        }
        Command::ResolveDeserter { card } => {
            let from = flag_of(game, seat.opponent(), card).map_or_else(
                || {
                    game.flags()
                        .iter()
                        .position(|f| {
                            card.tactic()
                                .is_some_and(|t| f.tactic(seat.opponent()).contains(&t))
                        })
                        .map_or(String::new(), |i| format!("F{}", i + 1))
                },
                |i| format!("F{i}"),
            );
            format!("(kill {} {from})", short(card))
        }
        Command::ResolveTraitor { card, flag: f } => {
            let from = flag_of(game, seat.opponent(), Card::Troop(card))
                .map_or(String::new(), |i| format!("F{i}"));
            format!("(take {} {from}>{})", short_troop(card), flag(f))
        }
        Command::ScoutDraw { deck: d } => format!("scout-draw {}", deck(d)),
        Command::ScoutReturn { card } => format!("return {}", short(card)),
        Command::Pass => "PASS".to_string(),
        Command::DrawAndEndTurn { deck: d } => format!("draw {}", deck(d)),
        Command::EndTurn => "end".to_string(),
        Command::SortHand { .. } => return None,
    })
}

/// A hand in short cards, sorted.
fn hand_text(game: &Game, p: Player) -> String {
    let mut hand = game.hand(p).to_vec();
    hand.sort();
    hand.iter().map(|&c| short(c)).collect::<Vec<_>>().join(" ")
}

/// The nine flags, three lines: the other side's cards, a line of marks (who owns the
/// flag `[S]`/`[H]`, who could prove it now `s!`/`h!`, Fog and Mud), and `hard`'s cards.
fn board_text(game: &Game, hard: Player) -> String {
    let other = hard.opponent();
    let cell = |cards: &[Card]| -> String {
        let s: Vec<String> = cards.iter().map(|&c| short(c)).collect();
        format!("{:<12}", s.join(" "))
    };
    let mut top = String::from("   S: ");
    let mut mid = String::from("      ");
    let mut bottom = String::from("   H: ");
    for (i, f) in game.flags().iter().enumerate() {
        top.push_str(&cell(f.slots(other)));
        bottom.push_str(&cell(f.slots(hard)));
        let mut mark = format!("F{}", i + 1);
        match f.owner {
            Some(p) if p == hard => mark.push_str("[H]"),
            Some(_) => mark.push_str("[S]"),
            None => {
                if game.check_claim(i as u8, other).is_ok() {
                    mark.push_str(" s!");
                }
                if game.check_claim(i as u8, hard).is_ok() {
                    mark.push_str(" h!");
                }
            }
        }
        if f.has(Tactic::Fog) {
            mark.push_str(" fog");
        }
        if f.has(Tactic::Mud) {
            mark.push_str(" mud");
        }
        mid.push_str(&format!("{mark:<12}"));
    }
    format!(
        "{}\n{}\n{}\n",
        top.trim_end(),
        mid.trim_end(),
        bottom.trim_end()
    )
}

/// Counts over the games of `losses`: what the automatic checks found at hard's plays.
#[derive(Default)]
struct Patterns {
    /// Hard's troop or morale card played at a flag the other player could prove now.
    onto_lost: usize,
    /// Hard's plays made with a provable flag of the other player left standing while
    /// hard held a Deserter or Traitor it could play.
    tactic_held_vs_provable: usize,
    /// Games that ended with tactics in hard's hand, and how many tactics.
    tactics_left_games: usize,
    tactics_left: usize,
    /// Hard's plays that made the flag played at provable for the other player (it
    /// was not before), and those that made another flag provable (a card the other
    /// side's proof needed to be unplayed, now played).
    self_kill: usize,
    released: usize,
    /// Hard's turns holding a leader it may no longer play (its leader played).
    dead_leader_turns: usize,
    /// Hard's turns holding a tactic it may not play now (a second leader, or any
    /// tactic while it has played more tactics than the other player).
    stuck_tactic_turns: usize,
    /// Hard's tactic draws while it has played more tactics than the other player (the
    /// card is locked until the other plays one), and, otherwise, with its leader played
    /// and the other leader unseen (it may draw a dead card).
    tactic_draws_locked: usize,
    tactic_draws_leader_risk: usize,
    /// Hard's passes, and those with a tactic in hand.
    passes: usize,
    pass_with_tactic: usize,
    /// Hard's plays in total, and with the troop deck empty.
    plays: usize,
    plays_deck_empty: usize,
    /// Hard's draws: troop, tactic.
    draws: [usize; 2],
    /// The troop deck's size when the game ended (sum, for the mean).
    end_deck: usize,
    games: usize,
    breakthroughs: usize,
    /// Tactics played by hard and by the other player, by name.
    hard_tactics: std::collections::BTreeMap<String, usize>,
    other_tactics: std::collections::BTreeMap<String, usize>,
}

impl Patterns {
    fn show(&self, what: &str) {
        let per = |k: usize| k as f64 / self.games.max(1) as f64;
        println!(
            "{what}: {} games ({} by breakthrough); mean troop deck at the end {:.1}; hard's plays {} ({:.1} a game), {} with the troop deck empty; onto a flag the other could prove {} ({:.2} a game); with a Deserter/Traitor in hand and a provable flag of the other standing {}; games ending with tactics in hard's hand {} ({} tactics); hard's draws troop {} tactic {}",
            self.games,
            self.breakthroughs,
            per(self.end_deck),
            self.plays,
            per(self.plays),
            self.plays_deck_empty,
            self.onto_lost,
            per(self.onto_lost),
            self.tactic_held_vs_provable,
            self.tactics_left_games,
            self.tactics_left,
            self.draws[0],
            self.draws[1],
        );
        println!(
            "  plays making the flag played at provable for the other {}, making another flag provable {}; turns holding a dead leader {}; passes {} ({} with a tactic in hand)",
            self.self_kill,
            self.released,
            self.dead_leader_turns,
            self.passes,
            self.pass_with_tactic
        );
        println!(
            "  turns holding a tactic it may not play now {}; tactic draws while ahead in tactics played {}, with its leader played and the other unseen {}",
            self.stuck_tactic_turns, self.tactic_draws_locked, self.tactic_draws_leader_risk
        );
        let list = |m: &std::collections::BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!("  tactics played by hard: {}", list(&self.hard_tactics));
        println!(
            "  tactics played by the other: {}",
            list(&self.other_tactics)
        );
    }
}

/// Where wider and longer searches' choices fall among hard's candidates
/// (`bot::wide_choices`), at every `every`-th position of the play phase of the sparring
/// partner's games against itself on `seeds`: a line per position with more candidates
/// than hard searches, then the totals.
fn wide(seeds: std::ops::Range<u64>, every: usize) {
    const NAMES: [&str; 4] = [
        "hard (10, 1,800)",
        "24 candidates, 1,800",
        "10 candidates, 14,400",
        "the reference again, another seed",
    ];
    let partner = Sparring::new();
    let (mut positions, mut outside, mut outside_both) = (0, 0, 0);
    let mut agree = [0; 4];
    let mut k = 0u64;
    let t = Instant::now();
    for seed in seeds {
        let mut g = Game::new(seed, Settings::default());
        let mut plays = 0;
        while !g.is_over() && g.log().len() < 3000 {
            if g.phase() == Phase::Play {
                plays += 1;
                // Each position looked at gets its own seed.
                k += u64::from(plays % every == 0);
                if plays % every == 0
                    && let Some(w) = wide_choices(&g, k)
                {
                    positions += 1;
                    let far = |i: usize| w.ranks[i].is_none_or(|r| r >= 10);
                    outside += usize::from(far(3));
                    outside_both += usize::from(far(3) && far(4));
                    for (i, a) in agree.iter_mut().enumerate() {
                        *a += usize::from(w.choices[[0, 1, 2, 4][i]] == w.choices[3]);
                    }
                    println!(
                        "seed {seed}, command {}: places {:?}",
                        g.log().len(),
                        w.ranks
                    );
                }
            }
            let Some(c) = partner.choose(&g) else { break };
            if g.apply(c).is_err() {
                break;
            }
        }
    }
    let share = |n: usize| 100.0 * n as f64 / positions.max(1) as f64;
    println!(
        "{positions} positions: the reference (24 candidates, 14,400 rollouts) chose a move \
         outside hard's 10 in {outside} ({:.0}%), with both seeds in {outside_both} ({:.0}%); \
         {:.1} s",
        share(outside),
        share(outside_both),
        t.elapsed().as_secs_f64()
    );
    for (name, a) in NAMES.iter().zip(agree) {
        println!(
            "  {name} chose the reference's move in {a} ({:.0}%)",
            share(a)
        );
    }
}

/// See `endgame` in the module's doc.
fn endgame(seeds: std::ops::Range<u64>, cards: usize, contender: Contender, budget: u64) {
    let (mut games, mut won, mut reached, mut thrown) = (0, 0, 0, 0);
    for seed in seeds {
        for seat in Player::BOTH {
            let mut seats = [Contender::Sparring; 2];
            seats[seat.index()] = contender;
            let mut verdicts: Vec<String> = Vec::new();
            let mut could_win = false;
            let mut last = None;
            let game = play_watched(seed, seats, 3000, |g, who, _| {
                if who != seat
                    || g.phase() != Phase::Play
                    || g.troop_deck_len() > cards
                    || last == Some(g.log().len())
                {
                    return;
                }
                last = Some(g.log().len());
                let start = Instant::now();
                let v = wins_knowing_every_card(g, seat, budget);
                could_win |= v == Some(true);
                let said = match v {
                    Some(true) => "won",
                    Some(false) => "lost",
                    None => "open",
                };
                verdicts.push(format!(
                    "deck {} {said} ({:.0} ms)",
                    g.troop_deck_len(),
                    start.elapsed().as_secs_f64() * 1e3
                ));
            });
            let result = game.winner() == Some(seat);
            games += 1;
            won += usize::from(result);
            reached += usize::from(!verdicts.is_empty());
            thrown += usize::from(could_win && !result);
            println!(
                "seed {seed} {seat:?}: {} | {}",
                if result { "won" } else { "not won" },
                verdicts.join(", ")
            );
        }
    }
    println!(
        "{games} games, {won} won; {reached} reached a troop deck of at most {cards} cards; {thrown} not won from a position won knowing every card"
    );
}

/// Plays `contender` against the sparring partner on seeds `seeds`, each from both
/// seats as the harness does, and prints each game it loses (with `won`, every game)
/// turn by turn: the other player's turns in a line each, and before each of
/// `contender`'s turns the nine flags, both hands and the decks; then how it ended.
/// Ends with the automatic checks' counts over lost and won games.
fn losses(seeds: std::ops::Range<u64>, contender: Contender, won: bool) {
    let mut lost_patterns = Patterns::default();
    let mut won_patterns = Patterns::default();
    let (mut wins, mut games) = (0, 0);
    for seed in seeds {
        for hard in Player::BOTH {
            let mut seats = [Contender::Sparring; 2];
            seats[hard.index()] = contender;
            let mut log = String::new();
            let mut pat = Patterns::default();
            let mut turn_of: Option<Player> = None;
            let mut line = String::new();
            let mut turns = [0usize; 2];
            let start = Instant::now();
            let end = play_watched(seed, seats, 3000, |game, seat, cmd| {
                if turn_of != Some(seat) {
                    if !line.is_empty() {
                        log.push_str(&line);
                        log.push('\n');
                        line.clear();
                    }
                    turn_of = Some(seat);
                    turns[seat.index()] += 1;
                    if seat == hard {
                        log.push_str(&format!(
                            "-- troop deck {}, tactic deck {}; tactics played H {} S {}\n",
                            game.troop_deck_len(),
                            game.tactic_deck_len(),
                            game.tactics_played(hard),
                            game.tactics_played(hard.opponent())
                        ));
                        log.push_str(&board_text(game, hard));
                        log.push_str(&format!(
                            "   hand H: {}   | S: {}\n",
                            hand_text(game, hard),
                            hand_text(game, hard.opponent())
                        ));
                    }
                    let who = if seat == hard { 'H' } else { 'S' };
                    line = format!("T{} {who}:", turns[seat.index()]);
                }
                if let Some(d) = describe(game, seat, cmd) {
                    line.push(' ');
                    line.push_str(&d);
                }
                // The automatic checks.
                if seat == hard && !matches!(cmd, Command::SortHand { .. }) {
                    let before = game.provable_flags(hard.opponent());
                    let mut after = game.clone();
                    if after.apply(cmd).is_ok() {
                        let target = match cmd {
                            Command::PlayCard {
                                target: Target::Flag { flag },
                                ..
                            } => Some(flag),
                            _ => None,
                        };
                        for f in after.provable_flags(hard.opponent()) {
                            if before.contains(&f) {
                                continue;
                            }
                            if Some(f) == target {
                                pat.self_kill += 1;
                                line.push_str(&format!(" <KILLS-OWN-F{}>", f + 1));
                            } else {
                                pat.released += 1;
                                line.push_str(&format!(" <RELEASES-F{}>", f + 1));
                            }
                        }
                    }
                    if game.phase() == Phase::Play
                        && game.leader_played(hard)
                        && game
                            .hand(hard)
                            .iter()
                            .any(|c| c.tactic().is_some_and(Tactic::is_leader))
                        && !matches!(cmd, Command::ClaimFlag { .. })
                    {
                        pat.dead_leader_turns += 1;
                    }
                    if cmd == Command::Pass && game.hand(hard).iter().any(|c| c.tactic().is_some())
                    {
                        pat.pass_with_tactic += 1;
                    }
                    if cmd == Command::Pass {
                        pat.passes += 1;
                    }
                    let locked = game.tactics_played(hard) > game.tactics_played(hard.opponent());
                    if game.phase() == Phase::Play
                        && !matches!(cmd, Command::ClaimFlag { .. })
                        && game.hand(hard).iter().any(|c| {
                            c.tactic().is_some_and(|t| {
                                locked || (t.is_leader() && game.leader_played(hard))
                            })
                        })
                    {
                        pat.stuck_tactic_turns += 1;
                    }
                    if cmd == (Command::DrawAndEndTurn { deck: Deck::Tactic }) {
                        if locked {
                            pat.tactic_draws_locked += 1;
                            line.push_str(" <DRAWS-LOCKED>");
                        } else if dead_leader_share(game, hard) > 0.0 {
                            pat.tactic_draws_leader_risk += 1;
                            line.push_str(" <DRAWS-LEADER-RISK>");
                        }
                    }
                }
                if let Command::PlayCard { card, target } = cmd {
                    let tactic = card.tactic().map(|t| short(Card::Tactic(t)));
                    if seat == hard {
                        pat.plays += 1;
                        if game.troop_deck_len() == 0 {
                            pat.plays_deck_empty += 1;
                        }
                        if let Target::Flag { flag } = target
                            && card.fits_troop_slot()
                            && game.check_claim(flag, hard.opponent()).is_ok()
                        {
                            pat.onto_lost += 1;
                            line.push_str(" <LOST-FLAG>");
                        }
                        let guile = game.hand(hard).iter().any(|c| {
                            matches!(c, Card::Tactic(Tactic::Deserter | Tactic::Traitor))
                                && game.legal_commands().contains(&Command::PlayCard {
                                    card: *c,
                                    target: Target::Field,
                                })
                        });
                        if guile
                            && !matches!(card, Card::Tactic(Tactic::Deserter | Tactic::Traitor))
                            && !game.provable_flags(hard.opponent()).is_empty()
                        {
                            pat.tactic_held_vs_provable += 1;
                            line.push_str(" <HELD-GUILE>");
                        }
                        if let Some(t) = tactic {
                            *pat.hard_tactics.entry(t).or_default() += 1;
                        }
                    } else if let Some(t) = tactic {
                        *pat.other_tactics.entry(t).or_default() += 1;
                    }
                }
                if seat == hard
                    && let Command::DrawAndEndTurn { deck } = cmd
                {
                    pat.draws[usize::from(deck == Deck::Tactic)] += 1;
                }
            });
            if !line.is_empty() {
                log.push_str(&line);
                log.push('\n');
            }
            games += 1;
            pat.games = 1;
            pat.end_deck = end.troop_deck_len();
            let left = end
                .hand(hard)
                .iter()
                .filter(|c| c.tactic().is_some())
                .count();
            pat.tactics_left = left;
            pat.tactics_left_games = usize::from(left > 0);
            let outcome = match end.phase() {
                Phase::GameOver { winner, by } => {
                    pat.breakthroughs = usize::from(by == Victory::Breakthrough);
                    let flags: Vec<String> = end
                        .flags()
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.owner == Some(winner))
                        .map(|(i, _)| format!("F{}", i + 1))
                        .collect();
                    let who = if winner == hard { "WON" } else { "LOST" };
                    format!("{who} by {by:?} ({})", flags.join(" "))
                }
                Phase::Stalemate => "STALEMATE".to_string(),
                _ => "UNFINISHED".to_string(),
            };
            let lost = end.winner() != Some(hard);
            if lost {
                lost_patterns.add(&pat);
            } else {
                wins += 1;
                won_patterns.add(&pat);
            }
            eprintln!(
                "seed {seed} {} as {hard:?}: {outcome} ({:.1} s)",
                contender.name(),
                start.elapsed().as_secs_f64()
            );
            if lost || won {
                println!(
                    "===== seed {seed}, {} as {hard:?} (H) against sparring (S): {outcome}, troop deck {} =====",
                    contender.name(),
                    end.troop_deck_len()
                );
                print!("{log}");
                println!("-- the end:");
                print!("{}", board_text(&end, hard));
                println!(
                    "   hand H: {}   | S: {}\n",
                    hand_text(&end, hard),
                    hand_text(&end, hard.opponent())
                );
            }
        }
    }
    println!("{} won {wins} of {games}", contender.name());
    lost_patterns.show("lost games");
    won_patterns.show("won games");
}

impl Patterns {
    fn add(&mut self, p: &Patterns) {
        self.onto_lost += p.onto_lost;
        self.tactic_held_vs_provable += p.tactic_held_vs_provable;
        self.tactics_left_games += p.tactics_left_games;
        self.tactics_left += p.tactics_left;
        self.self_kill += p.self_kill;
        self.released += p.released;
        self.dead_leader_turns += p.dead_leader_turns;
        self.passes += p.passes;
        self.stuck_tactic_turns += p.stuck_tactic_turns;
        self.tactic_draws_locked += p.tactic_draws_locked;
        self.tactic_draws_leader_risk += p.tactic_draws_leader_risk;
        self.pass_with_tactic += p.pass_with_tactic;
        self.plays += p.plays;
        self.plays_deck_empty += p.plays_deck_empty;
        self.draws[0] += p.draws[0];
        self.draws[1] += p.draws[1];
        self.end_deck += p.end_deck;
        self.games += p.games;
        self.breakthroughs += p.breakthroughs;
        for (k, v) in &p.hard_tactics {
            *self.hard_tactics.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &p.other_tactics {
            *self.other_tactics.entry(k.clone()).or_default() += v;
        }
    }
}

/// Replays seed `seed` with `contender` (`hard` by default) at `seat` against the
/// sparring partner up to the contender's turn `turn` (numbered as `losses` prints them),
/// and shows the hard level's search of its play there: every candidate with its ranking
/// value, rollouts and mean score, the chosen one first among those in the last round.
fn explain(seed: u64, seat: Player, turn: usize, contender: Contender) {
    let mut seats = [Contender::Sparring; 2];
    seats[seat.index()] = contender;
    let mut game = Game::new(seed, Settings::default());
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    let mut turns = 0;
    let mut last: Option<Player> = None;
    for _ in 0..3000 {
        if game.is_over() {
            println!("the game ended before turn {turn}");
            return;
        }
        let now = game.current();
        if now == seat && last != Some(seat) {
            turns += 1;
        }
        last = Some(now);
        let claims = game
            .legal_commands()
            .iter()
            .any(|c| matches!(c, Command::ClaimFlag { .. }));
        if now == seat && turns == turn && game.phase() == Phase::Play && !claims {
            break;
        }
        let Some(cmd) = seats[now.index()].choose(&game, seed, &mut random) else {
            return;
        };
        if game.apply(cmd).is_err() {
            return;
        }
    }
    println!(
        "seed {seed}, {} as {seat:?}, turn {turn}: troop deck {}, tactic deck {}",
        contender.name(),
        game.troop_deck_len(),
        game.tactic_deck_len()
    );
    print!("{}", board_text(&game, seat));
    println!(
        "   hand H: {}   | S: {}",
        hand_text(&game, seat),
        hand_text(&game, seat.opponent())
    );
    // The seed the harness's contender uses for this decision (`Contender::choose`).
    debug_assert_eq!(game.current(), seat);
    let move_seed = battle_line::bot::seat_move_seed(&game, seed);
    let mut thinker = battle_line::bot::Thinker::new(&game, Level::Hard, move_seed);
    let mut before = thinker.snapshot();
    let chosen = loop {
        let snap = thinker.snapshot();
        match thinker.step(1) {
            battle_line::bot::Thought::Done(c) => break c,
            battle_line::bot::Thought::Thinking { .. } => before = snap,
        }
    };
    println!(
        "hard plays {}",
        chosen.map_or("nothing".to_string(), |c| describe(&game, seat, c)
            .unwrap_or_default())
    );
    let Ok(json) = serde_json::to_value(&before) else {
        return;
    };
    let Some(run) = json.pointer("/work/Searching") else {
        println!("(decided without a search)");
        return;
    };
    let bits = |v: &serde_json::Value| v.as_u64().map_or(f64::NAN, f64::from_bits);
    let alive: Vec<u64> = run["alive"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default();
    let Some(candidates) = run["candidates"].as_array() else {
        return;
    };
    let mut rows: Vec<(f64, String)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let commands: Vec<Command> =
                serde_json::from_value(c["commands"].clone()).unwrap_or_default();
            let what: Vec<String> = commands
                .iter()
                .filter_map(|&cmd| describe(&game, seat, cmd))
                .collect();
            let tries = c["tries"].as_u64().unwrap_or(0);
            let mean = if tries == 0 {
                f64::NAN
            } else {
                bits(&c["total"]) / tries as f64
            };
            let last = if alive.contains(&(i as u64)) {
                "*"
            } else {
                " "
            };
            (
                tries as f64 * 10.0 + mean,
                format!(
                    "  {last} {:<26} prior {:.3}  rollouts {tries:>4}  mean {mean:.3}",
                    what.join(" "),
                    bits(&c["prior"])
                ),
            )
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, row) in rows {
        println!("{row}");
    }
}
