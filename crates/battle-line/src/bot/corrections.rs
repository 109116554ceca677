//! Corrections of the hard level read from games it lost to the sparring partner
//! (`battle-line-bench losses`, `explain`), each a harness contender.
//!
//! **Draws that can be played** (`hard-live-draws`): hard draws a tactic when its hand
//! holds none (always when behind on tactics played, otherwise by chance), even when the
//! card could not be played. Two cases: it has played more tactics than the other player
//! (the tactic limit locks the card until the other plays one, which the partner, holding
//! its tactics, often does not), or it has played its leader and the other leader is
//! among the few tactics it has not seen (a second leader can never be played). Either
//! way the card fills a hand slot for many turns: the hand has six troops to play instead
//! of seven. Here such a draw becomes a troop draw.
//!
//! **Candidates of more than one kind** (`hard-spread`): hard's search keeps the 8 moves
//! the odds evaluation ranks best and limits a guile card to 3 resolutions, but not a
//! morale card or Fog and Mud to a few flags: with a leader in hand, all 8 candidates
//! can be that leader at 8 flags (seed 5000, hard as P0, turn 5), so keeping it is never
//! searched, and the partner's Deserter took the leaders so played. Here the tactic
//! kinds (leaders, the other morale cards, the other tactics) are charged what it takes
//! for at most [`SAME_KIND_CAP`] of the 8 to be of one kind (the ranking's costs of
//! playing a tactic, which decide only which moves are searched), so the best moves of
//! other kinds are searched beside them.

use super::search::{Config, Policy, Progress, Search};
use crate::card::{Card, Tactic, TacticKind};
use crate::game::{Command, Deck, Game, Phase, Player};

/// The least chance that a drawn tactic is a leader its player may no longer play for
/// the draw to become a troop draw.
pub(crate) const DEAD_SHARE: f64 = 0.25;

/// The tactics `seat` has not seen: not on the table, not played to a field, not
/// discarded, not in its hand (in the tactic deck or the other hand).
fn unseen_tactics(game: &Game, seat: Player) -> Vec<Tactic> {
    Tactic::ALL
        .into_iter()
        .filter(|&t| {
            let card = Card::Tactic(t);
            let on_table = game.flags().iter().any(|f| {
                Player::BOTH
                    .iter()
                    .any(|&p| f.slots(p).contains(&card) || f.tactic(p).contains(&t))
            });
            let in_field = Player::BOTH.iter().any(|&p| game.field(p).contains(&t));
            !on_table
                && !in_field
                && !game.tactic_discard().contains(&t)
                && !game.hand(seat).contains(&card)
        })
        .collect()
}

/// The chance that a tactic `seat` draws now is a leader it may no longer play (its own
/// leader is played), every unseen tactic being equally likely.
pub fn dead_leader_share(game: &Game, seat: Player) -> f64 {
    if !game.leader_played(seat) {
        return 0.0;
    }
    let unseen = unseen_tactics(game, seat);
    if unseen.is_empty() {
        return 0.0;
    }
    let leaders = unseen.iter().filter(|t| t.is_leader()).count();
    leaders as f64 / unseen.len() as f64
}

/// `cmd`, the command chosen for the player to move, except that a tactic draw that
/// could not be played (the tactic limit locks it, or it is a dead leader with a chance
/// of at least [`DEAD_SHARE`]) becomes a troop draw when the troop deck has one.
pub(crate) fn live_draw(game: &Game, cmd: Command) -> Command {
    if cmd != (Command::DrawAndEndTurn { deck: Deck::Tactic })
        || game.phase() != (Phase::Finish { may_draw: true })
        || game.troop_deck_len() == 0
    {
        return cmd;
    }
    let me = game.current();
    let locked = game.tactics_played(me) > game.tactics_played(me.opponent());
    if locked || dead_leader_share(game, me) >= DEAD_SHARE {
        Command::DrawAndEndTurn { deck: Deck::Troop }
    } else {
        cmd
    }
}

/// At most this many of the searched candidates may be of one tactic kind.
pub(crate) const SAME_KIND_CAP: usize = 3;

/// What a candidate plays, as the ranking charges it: a troop (free), a leader, another
/// morale card, another tactic.
fn kind(commands: &[Command]) -> Option<usize> {
    match commands.first() {
        Some(Command::PlayCard {
            card: Card::Tactic(t),
            ..
        }) => Some(if t.is_leader() {
            0
        } else if t.kind() == TacticKind::Morale {
            1
        } else {
            2
        }),
        _ => None,
    }
}

/// What to add to the ranking's cost of a leader, another morale card and another
/// tactic so that at most [`SAME_KIND_CAP`] of the `width` best of `ranked` (commands and
/// ranking values) are of one of those kinds, when other moves are there to take their
/// places (each kind keeps its own order).
pub(crate) fn spread_extras(ranked: &[(Vec<Command>, f64)], width: usize) -> [f64; 3] {
    let kinds: Vec<Option<usize>> = ranked.iter().map(|(c, _)| kind(c)).collect();
    let mut extras = [0.0f64; 3];
    for _ in 0..4 * width.max(1) {
        let value = |i: usize| ranked[i].1 - kinds[i].map_or(0.0, |k| extras[k]);
        let mut order: Vec<usize> = (0..ranked.len()).collect();
        order.sort_by(|&a, &b| value(b).total_cmp(&value(a)));
        let (top, rest) = order.split_at(width.min(order.len()));
        // The first kind over the cap with another move to take a place, and how much
        // more to charge it for its last one kept to fall behind that move.
        let step = (0..3).find_map(|k| {
            let members = top.iter().filter(|&&i| kinds[i] == Some(k)).count();
            if members <= SAME_KIND_CAP {
                return None;
            }
            let last = *top.iter().rfind(|&&i| kinds[i] == Some(k))?;
            let next = rest.iter().find(|&&i| kinds[i] != Some(k))?;
            let gap = value(last) - value(*next);
            Some((k, gap.max(0.0) + 1e-9 * (1.0 + gap.abs())))
        });
        let Some((k, more)) = step else {
            break;
        };
        if let Some(extra) = extras.get_mut(k) {
            *extra += more;
        }
    }
    extras
}

/// Hard's `config` for deciding `game` with the ranking's costs of the tactic kinds
/// raised by [`spread_extras`] (unchanged outside a card's play, or when nothing is to
/// search).
pub(crate) fn spread_config(game: &Game, seed: u64, config: Config) -> Config {
    if game.phase() != Phase::Play {
        return config;
    }
    let wide = Config {
        width: usize::MAX,
        ..config
    };
    let Progress::Searching(search) = Search::start(game, seed, wide) else {
        return config;
    };
    let ranked = search.into_ranked();
    let [leader, morale, tactic] = spread_extras(&ranked.candidates, config.width);
    let p = config.policy;
    Config {
        policy: Policy {
            morale_cost: p.morale_cost + morale,
            // A leader is charged both costs.
            leader_cost: p.leader_cost + leader - morale,
            tactic_cost: p.tactic_cost + tactic,
            ..p
        },
        ..config
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Sparring;
    use crate::card::Troop;
    use crate::game::{Deal, Settings, Target};

    /// A deal whose tactic deck has Alexander on top, then Darius, then the rest.
    fn leaders_on_top() -> Deal {
        let mut tactics: Vec<Tactic> = Tactic::ALL.into_iter().filter(|t| !t.is_leader()).collect();
        tactics.push(Tactic::Darius);
        tactics.push(Tactic::Alexander);
        Deal {
            troops: Troop::all().collect(),
            tactics,
        }
    }

    fn first_troop(game: &Game) -> Card {
        let me = game.current();
        *game
            .hand(me)
            .iter()
            .find(|c| c.troop().is_some())
            .expect("a troop in hand")
    }

    #[test]
    fn a_tactic_drawn_while_ahead_on_tactics_played_becomes_a_troop_draw() {
        let mut game = Game::with_deal(Settings::default(), leaders_on_top()).expect("a deal");
        let tactic = Command::DrawAndEndTurn { deck: Deck::Tactic };
        let troop = Command::DrawAndEndTurn { deck: Deck::Troop };
        // P0 plays a troop and draws Alexander; P1 plays a troop and draws a troop.
        for (flag, deck) in [(0, Deck::Tactic), (0, Deck::Troop)] {
            let card = first_troop(&game);
            game.apply(Command::PlayCard {
                card,
                target: Target::Flag { flag },
            })
            .expect("a troop");
            // Level on tactics (none played): a tactic draw is left alone.
            assert_eq!(live_draw(&game, tactic), tactic);
            game.apply(Command::DrawAndEndTurn { deck })
                .expect("a draw");
        }
        assert!(
            game.hand(Player::P0)
                .contains(&Card::Tactic(Tactic::Alexander))
        );
        game.apply(Command::PlayCard {
            card: Card::Tactic(Tactic::Alexander),
            target: Target::Flag { flag: 1 },
        })
        .expect("the leader");
        // One tactic ahead: the drawn tactic (Darius, dead as well) could not be played.
        assert_eq!(live_draw(&game, tactic), troop);
        // A troop draw, and anything else, is left as it is.
        assert_eq!(live_draw(&game, troop), troop);
        assert_eq!(live_draw(&game, Command::EndTurn), Command::EndTurn);
        // With its leader played and 8 of the 9 other tactics unseen besides Darius, the
        // chance of a dead leader is 1/9.
        let share = dead_leader_share(&game, Player::P0);
        assert!((share - 1.0 / 9.0).abs() < 1e-12, "{share}");
        assert_eq!(dead_leader_share(&game, Player::P1), 0.0);
    }

    #[test]
    fn a_likely_dead_leader_is_not_drawn_and_other_draws_are_kept() {
        // The sparring partner against itself: at each end of turn with a draw to choose,
        // the rule changes a tactic draw exactly when the tactic limit locks it or the
        // chance of a dead leader reaches DEAD_SHARE.
        let (mut changed_dead, mut kept) = (0, 0);
        for seed in 0..60u64 {
            if changed_dead > 0 && kept > 0 && seed >= 10 {
                break;
            }
            let mut game = Game::new(seed, Settings::default());
            for _ in 0..600 {
                if game.is_over() {
                    break;
                }
                if game.phase() == (Phase::Finish { may_draw: true })
                    && game.troop_deck_len() > 0
                    && game.tactic_deck_len() > 0
                {
                    let me = game.current();
                    let tactic = Command::DrawAndEndTurn { deck: Deck::Tactic };
                    let locked = game.tactics_played(me) > game.tactics_played(me.opponent());
                    let dead = dead_leader_share(&game, me);
                    assert!((0.0..=1.0).contains(&dead));
                    let after = live_draw(&game, tactic);
                    if locked || dead >= DEAD_SHARE {
                        assert_eq!(after, Command::DrawAndEndTurn { deck: Deck::Troop });
                        changed_dead += usize::from(!locked);
                    } else {
                        assert_eq!(after, tactic);
                        kept += 1;
                    }
                    assert!(game.legal_commands().contains(&after));
                }
                let Some(cmd) = Sparring::new().choose(&game) else {
                    break;
                };
                game.apply(cmd).expect("legal");
            }
        }
        assert!(changed_dead > 0, "no likely dead leader met");
        assert!(kept > 0);
    }

    fn play(card: Card, flag: u8) -> Vec<Command> {
        vec![Command::PlayCard {
            card,
            target: Target::Flag { flag },
        }]
    }

    #[test]
    fn a_kind_filling_the_candidates_is_charged_until_three_are_left() {
        let alexander = Card::Tactic(Tactic::Alexander);
        let troop = Card::Troop(Troop::new(crate::card::Color::Red, 7).expect("a troop"));
        // Alexander at 9 flags ranked above every troop play, as at seed 5000 turn 5.
        let mut ranked: Vec<(Vec<Command>, f64)> = (0..9)
            .map(|f| (play(alexander, f), 0.50 - 0.01 * f64::from(f)))
            .collect();
        ranked.extend((0..9).map(|f| (play(troop, f), 0.40 - 0.01 * f64::from(f))));
        let extras = spread_extras(&ranked, 8);
        assert!(extras[0] > 0.0 && extras[1] == 0.0 && extras[2] == 0.0);
        let value = |(c, v): &(Vec<Command>, f64)| v - kind(c).map_or(0.0, |k| extras[k]);
        let mut order: Vec<&(Vec<Command>, f64)> = ranked.iter().collect();
        order.sort_by(|a, b| value(b).total_cmp(&value(a)));
        let top = &order[..8];
        let leaders: Vec<f64> = top
            .iter()
            .filter(|(c, _)| kind(c) == Some(0))
            .map(|(_, v)| *v)
            .collect();
        // The three best placements of the leader are kept, five troop plays join them.
        assert_eq!(leaders, vec![0.50, 0.49, 0.48]);
        assert_eq!(top.iter().filter(|(c, _)| kind(c).is_none()).count(), 5);
        // A list that is already mixed is left alone, and so is one with nothing else.
        let mixed: Vec<(Vec<Command>, f64)> = ranked[..3]
            .iter()
            .cloned()
            .chain(ranked[9..].iter().cloned())
            .collect();
        assert_eq!(spread_extras(&mixed, 8), [0.0; 3]);
        assert_eq!(spread_extras(&ranked[..9], 8), [0.0; 3]);
        assert_eq!(spread_extras(&[], 8), [0.0; 3]);
    }

    #[test]
    fn the_spread_search_keeps_at_most_three_candidates_of_a_tactic_kind() {
        // Positions of the partner against itself where the player to move holds a
        // tactic: hard's own candidates there, and the spread ones.
        let hard = crate::bot::hard_8_900();
        let (mut flooded, mut checked) = (0, 0);
        for seed in 0..12u64 {
            let mut game = Game::new(seed, Settings::default());
            for ply in 0..400 {
                if game.is_over() {
                    break;
                }
                let me = game.current();
                let tactic = game.hand(me).iter().any(|c| c.tactic().is_some());
                if game.phase() == Phase::Play && tactic && ply % 3 == 0 {
                    // Each kind's count among the candidates kept with `config` (the
                    // last: troops and the rest).
                    let count = |config: Config| -> Option<[usize; 4]> {
                        let Progress::Searching(s) = Search::start(&game, ply as u64, config)
                        else {
                            return None;
                        };
                        let mut n = [0; 4];
                        for (c, _) in &s.into_ranked().candidates {
                            n[kind(c).unwrap_or(3)] += 1;
                        }
                        Some(n)
                    };
                    let all = count(Config {
                        width: usize::MAX,
                        ..hard
                    });
                    let plain = count(hard);
                    let spread = count(spread_config(&game, ply as u64, hard));
                    if let (Some(all), Some(plain), Some(spread)) = (all, plain, spread) {
                        checked += 1;
                        flooded += usize::from(plain[..3].iter().any(|&n| n > SAME_KIND_CAP));
                        assert_eq!(spread.iter().sum::<usize>(), plain.iter().sum::<usize>());
                        for k in 0..3 {
                            // Moves of other kinds to take the places beyond the cap.
                            let others = all.iter().sum::<usize>() - all[k];
                            let room = hard.width.saturating_sub(others);
                            assert!(
                                spread[k] <= SAME_KIND_CAP.max(room),
                                "seed {seed} ply {ply}: {spread:?} of {all:?}"
                            );
                        }
                    }
                }
                let Some(cmd) = Sparring::new().choose(&game) else {
                    break;
                };
                game.apply(cmd).expect("legal");
            }
        }
        assert!(checked >= 20, "only {checked} positions");
        assert!(
            flooded > 0,
            "no position with hard's candidates of one kind"
        );
    }

    #[test]
    fn unseen_tactics_leave_out_what_the_seat_has_seen() {
        let game = Game::with_deal(Settings::default(), leaders_on_top()).expect("a deal");
        assert_eq!(unseen_tactics(&game, Player::P0).len(), 10);
    }
}
