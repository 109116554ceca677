//! Measures the computer players: win rates over seeded games (each seed from both seats) with a running 95% interval, decision times, and a sequential test (SPRT) that compares two players on the same seeds.
//!
//! ```text
//! harness [seeds] [player...] [--against p,q] [--from SEED] [--threads N] [--every K]
//! harness [seeds] --sprt A,B [--against C] [--delta D] [--alpha A] [--beta B] [--from SEED] [--threads N] [--every K]
//! ```
//!
//! Players: `easy`, `normal`, `hard`, `expert`, `random`, `sparring` (the probability
//! bot), `playout` (the rollout policy alone), `playout-ways` (the policy whose sides
//! count every way to complete them), `hard-full` (hard as it was before 2026-12-03:
//! rollouts played to the game's end), `hard-ways` and `hard-ways-900` (hard-full with
//! that policy, 400 and 900 rollouts), hard-full with rollouts cut after 4, 8 or 16 turns of each
//! player and scored by a chance of winning the game (`hard-cut-8`: the partner's flag
//! chances; `hard-cut-odds-8`: the odds evaluation's; `hard-cut-odds-ways-8`: the same
//! played by the ways policy), those cut after 8 turns whose rollouts play on until
//! the troop deck holds at most 12, 20 or 28 cards (`hard-low-20`,
//! `hard-low-odds-ways-20`, ...: the last is the hard level's search), and hard or expert with their candidates ranked a
//! named way: `hard-odds`, `hard-partner`, `expert-odds`, `expert-partner`; `hard-draws`
//! is the hard level whose end-of-turn draw is searched too, `hard-tactic-draws-0` and
//! `-100` the hard level drawing a tactic never or always when its hand holds none;
//! `hard-replies-worst-2`, `-3`, `-4` and `hard-replies-odds-2`, `-3`, `-4` the hard
//! level whose rollouts choose the other player's first reply among its policy's best
//! 2, 3 or 4 plays (the one worst for the bot, each played out; or the one the odds
//! evaluation rates best for the other player); `hard-model-20`, `-40`, `-80` the hard
//! level whose deals take the other hand's troops from a model of that hand (a troop
//! that would have been a better play than the one played at the other player's last
//! two turns is less likely held), with that sharpness; `hard-is-P-cX` (P 1, 2 or 3; X
//! 10, 25 or 50) the hard level's candidates and rollouts under an information-set tree
//! search over both players' plays, P plays deep below the root's move, with an
//! exploration constant of X / 100 (`hard-is-sh-P-cX`: the root's candidates share the
//! rollouts by hard's sequential halving); `hard-is-sh-2-c25-partner-replies-1`, `-2`,
//! `-4` that tree whose first reply node (the other player's reply to each candidate)
//! holds the policy's plays ordered by the sparring partner's valuation of them, learned
//! in the first 1, 2 or 4 deals that reach it; `hard-close-25`, `-50`, `-100` the hard
//! level's search whose last two candidates, when their mean difference is within one
//! standard error, get that percent of the last round's rollouts more each; `hard-cal`
//! the hard level whose cut rollouts are scored by the odds evaluation with the
//! correction fitted to games' results (`CUT_CALIBRATION`, `battle-line-bench
//! calibrate-cut`), `hard-cal-deck` the same with the correction fitted at the cut
//! position's troop deck size (`CutCalibration::for_deck`); `hard-live-draws` the hard
//! level drawing a troop where the tactic it would draw could not be played, and
//! `hard-spread` the hard level searching at most three candidates of one tactic kind
//! (`bot/corrections.rs`, read from the games it loses: `battle-line-bench losses`);
//! `hard-close-partner` the hard level's search whose last two candidates, when within
//! one standard error of each other, are decided by the sparring partner's valuation;
//! `hard-partner-cut` the hard level whose cut rollouts are scored by the partner's
//! flag chances, at hard's 900 rollouts; `hard-wide-16`, `-24`, `-40` the hard level
//! searching its best 16, 24 or 40 candidates instead of 10, with its 1,800 rollouts
//! (`expert-wide-…`: expert's, with its 3,600); `hard-endgame-2`, `-4`, `-8` the hard
//! level whose moves, once the troop deck holds at most 2, 4 or 8 cards, are the ones
//! that win in the most of 8 deals of the unseen cards, each solved exactly to the end
//! (`bot/endgame.rs`; hard's move where that does not decide); `hard-sees-hand` and
//! `hard-sees-all` the hard level whose deals see what no player can, the other hand
//! as it is, or every card (a measurement of what the hidden cards cost it, not a
//! player); `hard-their-noise-6`, `-24`, `-48` the hard level whose rollouts play the
//! other player's moves with a noise of 0.6, 2.4 or 4.8 where its own have 1.2;
//! `hard-now-model-20`, `-40`, `-80` the `hard-model-…` deals on the hard level as it
//! plays now.
//! Seeds `SEED .. SEED + seeds` are played (default from 0), each from both seats, so
//! a long measurement can be run in parts whose counts add up: `-- 250 hard --against
//! sparring --from 250` is the second quarter of 1,000 seeds. With no player named,
//! `normal` and `hard` are measured against easy and random.
//!
//! Games run on every core (`--threads`, default all), a game per work item, and are
//! counted in seed order, so every figure printed (the running lines included) is the
//! same whatever the number of threads; only the times differ. The moves do not depend
//! on the build profile either (the search counts rollouts, not time), so `--profile
//! fast` plays the same games sooner.
//!
//! `--sprt A,B` compares two players. With `--against C`, A and B each play C on the
//! same seeds and seats (a seed's sample: A's wins minus B's wins over its two games);
//! without it, A plays B (a seed's sample: A's score over its two games, a stalemate
//! counting half). Two one-sided sequential probability ratio tests (the normal
//! approximation of the generalized SPRT, variance estimated from the samples) look
//! for a difference of `--delta` win-rate points (default 5) either way, at
//! `--alpha` (default 0.025 per side, 5% in all) and `--beta` (default 0.05); the run
//! stops at the first seed where one of them accepts a difference or both reject it.

use battle_line::bot::{Contender, RandomPlayer};
use battle_line::{Game, Phase, Player, Settings};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// What one game gave: the winner (if any) and the measured player's decision times
/// (ms), all of them and those where it chose a card to play (the searched ones).
struct Outcome {
    winner: Option<Player>,
    times: Vec<f64>,
    plays: Vec<f64>,
}

fn play(seed: u64, seats: [Contender; 2], measured: Player) -> Outcome {
    let mut game = Game::new(seed, Settings::default());
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    let mut times = Vec::new();
    let mut plays = Vec::new();
    for _ in 0..3000 {
        if game.is_over() {
            break;
        }
        let seat = game.current();
        let start = Instant::now();
        let cmd = seats[seat.index()].choose(&game, seed, &mut random);
        if seat == measured {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            times.push(ms);
            if matches!(game.phase(), Phase::Play | Phase::Guile { .. }) {
                plays.push(ms);
            }
        }
        let Some(cmd) = cmd else { break };
        if game.apply(cmd).is_err() {
            break;
        }
    }
    Outcome {
        winner: game.winner(),
        times,
        plays,
    }
}

/// Runs `job(0..n)` on `threads` threads and hands the results to `consume` in index
/// order, as soon as each one and all before it are done; stops handing out work once
/// `consume` returns false. The results consumed never depend on the thread count.
fn run_in_order<T: Send>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    mut consume: impl FnMut(usize, T) -> bool,
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, stop, job) = (&next, &stop, &job);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || tx.send((i, job(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: Vec<Option<T>> = (0..n).map(|_| None).collect();
        let mut due = 0;
        for (i, result) in rx {
            pending[i] = Some(result);
            while due < n {
                let Some(r) = pending[due].take() else { break };
                let go_on = consume(due, r);
                due += 1;
                if !go_on {
                    stop.store(true, Ordering::Relaxed);
                    // Later results are dropped as they arrive.
                    due = n;
                }
            }
        }
    });
}

/// The 95% Wilson interval of `k` successes in `n` trials, in percent.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 100.0);
    }
    let z = 1.959_964f64;
    let p = k / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        100.0 * (centre - half) / denom,
        100.0 * (centre + half) / denom,
    )
}

fn minutes(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else {
        format!("{:.1} min", s / 60.0)
    }
}

struct Options {
    seeds: usize,
    from: u64,
    threads: usize,
    every: usize,
    players: Vec<Contender>,
    against: Vec<Contender>,
    sprt: Option<(Contender, Contender)>,
    delta: f64,
    alpha: f64,
    beta: f64,
}

fn contenders(list: &str) -> Vec<Contender> {
    list.split(',')
        .map(|s| {
            Contender::from_name(s).unwrap_or_else(|| {
                let known: Vec<&str> = Contender::all().iter().map(|c| c.name()).collect();
                eprintln!("unknown player {s}; the players are: {}", known.join(" "));
                std::process::exit(2)
            })
        })
        .collect()
}

fn options() -> Options {
    let mut o = Options {
        seeds: 1000,
        from: 0,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        every: 0,
        players: Vec::new(),
        against: Vec::new(),
        sprt: None,
        delta: 5.0,
        alpha: 0.025,
        beta: 0.05,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, name: &str| -> f64 {
        v.and_then(|n| n.parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} needs a number");
            std::process::exit(2)
        })
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => o.threads = number(args.next(), "--threads") as usize,
            "--from" => o.from = number(args.next(), "--from") as u64,
            "--every" => o.every = number(args.next(), "--every") as usize,
            "--delta" => o.delta = number(args.next(), "--delta"),
            "--alpha" => o.alpha = number(args.next(), "--alpha"),
            "--beta" => o.beta = number(args.next(), "--beta"),
            "--against" => o.against = contenders(&args.next().unwrap_or_default()),
            "--sprt" => match contenders(&args.next().unwrap_or_default())[..] {
                [a, b] => o.sprt = Some((a, b)),
                _ => {
                    eprintln!("--sprt needs two players, A,B");
                    std::process::exit(2)
                }
            },
            other => {
                if let Some(c) = Contender::from_name(other) {
                    o.players.push(c);
                } else if let Ok(n) = other.parse() {
                    o.seeds = n;
                } else {
                    eprintln!("unknown argument {other}");
                    std::process::exit(2)
                }
            }
        }
    }
    if o.every == 0 {
        o.every = (o.seeds / 10).clamp(1, 100);
    }
    o
}

/// One player measured against one opponent over the seeds, from both seats.
fn measure(o: &Options, player: Contender, opponent: Contender) {
    let started = Instant::now();
    let games = o.seeds * 2;
    let mut won = [0u32; 2];
    let mut lost = 0u32;
    let mut drawn = 0u32;
    let mut times: Vec<f64> = Vec::new();
    let mut plays: Vec<f64> = Vec::new();
    let job = |i: usize| {
        let seed = o.from + (i / 2) as u64;
        let seat = Player::BOTH[i % 2];
        let mut seats = [opponent; 2];
        seats[seat.index()] = player;
        (seat, play(seed, seats, seat))
    };
    run_in_order(games, o.threads, job, |i, (seat, outcome)| {
        match outcome.winner {
            Some(w) if w == seat => won[seat.index()] += 1,
            Some(_) => lost += 1,
            None => drawn += 1,
        }
        times.extend(&outcome.times);
        plays.extend(&outcome.plays);
        let n = i + 1;
        if n % (2 * o.every) == 0 && n < games {
            let total = f64::from(won[0] + won[1]);
            let (lo, hi) = wilson(total, n as f64);
            eprintln!(
                "  {} vs {}: {n} games: {:.1}% (95% {lo:.1}-{hi:.1}%) after {}",
                player.name(),
                opponent.name(),
                100.0 * total / n as f64,
                minutes(started.elapsed().as_secs_f64()),
            );
        }
        true
    });
    plays.sort_by(f64::total_cmp);
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let p99 = plays.get(plays.len() * 99 / 100).copied().unwrap_or(0.0);
    let max = plays.last().copied().unwrap_or(0.0);
    let total_won = won[0] + won[1];
    let (lo, hi) = wilson(f64::from(total_won), games as f64);
    println!(
        "| {} | {} | {games} | {total_won} | {lost} | {drawn} | **{:.1}%** ({lo:.1}-{hi:.1}%) | {} / {} | {} | {:.2} | {p99:.1} | {max:.1} | {:.2} | {} |",
        player.name(),
        opponent.name(),
        100.0 * f64::from(total_won) / games as f64,
        won[0],
        won[1],
        plays.len(),
        mean(&plays),
        mean(&times),
        minutes(started.elapsed().as_secs_f64()),
    );
    eprintln!(
        "  ({games} games, seeds {}..{}, {} threads, in {})",
        o.from,
        o.from + o.seeds as u64,
        o.threads,
        minutes(started.elapsed().as_secs_f64())
    );
}

/// The log-likelihood ratio of "mean = `m1`" against "mean = `m0`" for samples with
/// this count, sum and sum of squares (normal approximation, variance estimated).
fn llr(n: f64, sum: f64, squares: f64, m0: f64, m1: f64) -> f64 {
    let mean = sum / n;
    let var = (squares / n - mean * mean).max(1e-9);
    n * (m1 - m0) * (2.0 * mean - m0 - m1) / (2.0 * var)
}

/// The sequential comparison of two players on the same seeds.
fn sprt(o: &Options, a: Contender, b: Contender) {
    let started = Instant::now();
    let against = o.against.first().copied();
    let (lower, upper) = (
        (o.beta / (1.0 - o.alpha)).ln(),
        ((1.0 - o.beta) / o.alpha).ln(),
    );
    // Per seed: A's and B's wins (paired), or A's score over two games (head to head).
    let (m0, d) = match against {
        Some(_) => (0.0, 2.0 * o.delta / 100.0),
        None => (1.0, 2.0 * o.delta / 100.0),
    };
    let job = |i: usize| -> [f64; 2] {
        let seed = o.from + i as u64;
        let mut score = [0.0; 2];
        for seat in Player::BOTH {
            match against {
                Some(c) => {
                    for (k, p) in [a, b].into_iter().enumerate() {
                        let mut seats = [c; 2];
                        seats[seat.index()] = p;
                        if play(seed, seats, seat).winner == Some(seat) {
                            score[k] += 1.0;
                        }
                    }
                }
                None => {
                    let mut seats = [b; 2];
                    seats[seat.index()] = a;
                    score[0] += match play(seed, seats, seat).winner {
                        Some(w) if w == seat => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                }
            }
        }
        if against.is_none() {
            score[1] = 2.0 - score[0];
        }
        score
    };
    let (mut n, mut sum, mut squares) = (0.0, 0.0, 0.0);
    let mut totals = [0.0; 2];
    let mut verdict = "undecided: the seeds ran out first";
    let describe = |n: f64, totals: &[f64; 2], sum: f64, squares: f64| -> String {
        let games = 2.0 * n;
        let (alo, ahi) = wilson(totals[0], games);
        let diff = sum / n;
        let var = (squares / n - diff * diff).max(0.0);
        let half = 1.96 * (var / n).sqrt();
        match against {
            Some(c) => {
                let (blo, bhi) = wilson(totals[1], games);
                format!(
                    "{n:.0} seeds: {} {:.1}% ({alo:.1}-{ahi:.1}%), {} {:.1}% ({blo:.1}-{bhi:.1}%) against {}; difference {:+.1} points (95% ±{:.1})",
                    a.name(),
                    100.0 * totals[0] / games,
                    b.name(),
                    100.0 * totals[1] / games,
                    c.name(),
                    50.0 * diff,
                    50.0 * half,
                )
            }
            None => format!(
                "{n:.0} seeds: {} scores {:.1}% against {} ({:.1}-{:.1}%)",
                a.name(),
                50.0 * diff,
                b.name(),
                50.0 * (diff - half),
                50.0 * (diff + half),
            ),
        }
    };
    let seeds = o.seeds;
    let mut last = String::new();
    run_in_order(seeds, o.threads, job, |i, score| {
        let x = match against {
            Some(_) => score[0] - score[1],
            None => score[0],
        };
        n += 1.0;
        sum += x;
        squares += x * x;
        totals[0] += score[0];
        totals[1] += score[1];
        let up = llr(n, sum, squares, m0, m0 + d);
        let down = llr(n, sum, squares, m0, m0 - d);
        last = format!(
            "{}; LLR {up:+.2} (better) {down:+.2} (worse), bounds {lower:.2}..{upper:.2}",
            describe(n, &totals, sum, squares)
        );
        // A few seeds first, so the variance means something.
        let decided = if n < 20.0 {
            None
        } else if up >= upper {
            Some("A is better")
        } else if down >= upper {
            Some("A is worse")
        } else if up <= lower && down <= lower {
            Some("no difference as large as delta")
        } else {
            None
        };
        if (i + 1) % o.every == 0 && decided.is_none() && i + 1 < seeds {
            eprintln!(
                "  {last} after {}",
                minutes(started.elapsed().as_secs_f64())
            );
        }
        if let Some(v) = decided {
            verdict = v;
            return false;
        }
        true
    });
    println!(
        "SPRT {} vs {}{} (delta {} points, alpha {}, beta {}, seeds from {}): {verdict}",
        a.name(),
        b.name(),
        against.map_or(String::new(), |c| format!(" against {}", c.name())),
        o.delta,
        o.alpha,
        o.beta,
        o.from,
    );
    println!("  {last}");
    println!(
        "  {} threads, in {}",
        o.threads,
        minutes(started.elapsed().as_secs_f64())
    );
}

fn main() {
    let mut o = options();
    if let Some((a, b)) = o.sprt {
        sprt(&o, a, b);
        return;
    }
    if o.players.is_empty() {
        o.players = contenders("normal,hard");
    }
    if o.against.is_empty() {
        o.against = contenders("easy,random");
    }
    println!(
        "| player | against | games | won | lost | drawn | win rate (95% interval) | won as P0 / as P1 | plays timed | plays: mean ms | p99 ms | max ms | all decisions: mean ms | run time |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &player in &o.players {
        for &opponent in &o.against {
            if opponent != player {
                measure(&o, player, opponent);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `run_in_order` hands over, with jobs of uneven length.
    fn consumed(n: usize, threads: usize, stop_at: usize) -> Vec<(usize, u64)> {
        let mut seen = Vec::new();
        let job = |i: usize| {
            // Uneven work so that threads finish out of order.
            let spins = (i * 7919 % 13) as u64 * 20_000;
            (0..spins).fold(i as u64, |a, x| a.wrapping_mul(31).wrapping_add(x))
        };
        run_in_order(n, threads, job, |i, r| {
            seen.push((i, r));
            i + 1 < stop_at
        });
        seen
    }

    #[test]
    fn results_come_in_order_whatever_the_number_of_threads() {
        let one = consumed(40, 1, usize::MAX);
        assert_eq!(one.len(), 40);
        assert!(one.iter().enumerate().all(|(k, (i, _))| k == *i));
        for threads in [2, 3, 8] {
            assert_eq!(consumed(40, threads, usize::MAX), one, "{threads} threads");
        }
    }

    #[test]
    fn a_stop_is_at_the_same_result_whatever_the_number_of_threads() {
        let one = consumed(60, 1, 17);
        assert_eq!(one.len(), 17);
        for threads in [2, 5] {
            assert_eq!(consumed(60, threads, 17), one, "{threads} threads");
        }
    }

    #[test]
    fn the_wilson_interval_matches_known_values() {
        // 87.5% of 2,000 (the README's hard vs easy): 86.0-88.9%.
        let (lo, hi) = wilson(1750.0, 2000.0);
        assert!(
            (lo - 86.0).abs() < 0.05 && (hi - 88.9).abs() < 0.05,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo.abs() < 1e-9 && (hi - 27.75).abs() < 0.05, "{lo} {hi}");
    }

    #[test]
    fn the_likelihood_ratio_favours_the_hypothesis_nearer_the_mean() {
        // Samples with mean 0.1 and variance 0.09 (n = 100).
        let (n, sum, squares) = (100.0, 10.0, 100.0 * (0.09 + 0.01));
        let better = llr(n, sum, squares, 0.0, 0.1);
        let worse = llr(n, sum, squares, 0.0, -0.1);
        assert!(better > 0.0 && worse < 0.0, "{better} {worse}");
        // n (m1 - m0) (2 mean - m0 - m1) / (2 var) = 100 * 0.1 * 0.1 / 0.18.
        assert!((better - 100.0 * 0.1 * 0.1 / 0.18).abs() < 1e-9);
        // Halfway between the hypotheses, neither is favoured.
        assert!(llr(n, 5.0, 100.0 * (0.09 + 0.0025), 0.0, 0.1).abs() < 1e-9);
    }
}
