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
//! `… battle-line-bench tables FROM N` times those tables at the reply nodes below the
//! searcher's first 8 plays in every fourth position of seeds `FROM..FROM+N` of the
//! partner against itself (`time_tables`): built from fresh outlooks, and with the
//! outlooks shared by the 8, as a tree below one root builds them.

use battle_line::bot::{
    Bot, CACHE_DEALS, Contender, Level, REPLY_RANKS, RandomPlayer, Ranking, VOTE_BEST, calibrate,
    choose, choose_ranked, reply_ranks, time_tables,
};
use battle_line::{Command, Game, Phase, Player, Settings};
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
