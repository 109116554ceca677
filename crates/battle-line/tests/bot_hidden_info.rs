//! The computer reads only what its seat may know: two games that differ only in the other hand and the deck order get the same move from the same bot seed, at every level.

use battle_line::bot::{Bot, Level, choose};
use battle_line::*;
use seeded_rng::Rng;

/// Decks in a random order (last = top); the hands are dealt from the troop deck's top.
fn shuffled_deal(rng: &mut Rng) -> Deal {
    let mut troops: Vec<Troop> = Troop::all().collect();
    let mut tactics: Vec<Tactic> = Tactic::ALL.to_vec();
    rng.shuffle(&mut troops);
    rng.shuffle(&mut tactics);
    Deal { troops, tactics }
}

fn replay(deal: &Deal, log: &[Command]) -> Option<Game> {
    Game::replay(&GameRecord {
        seed: 0,
        settings: Settings::default(),
        deal: Some(deal.clone()),
        log: log.to_vec(),
    })
    .ok()
}

/// A deal that puts every card `me` has seen where it was in `deal`, and shuffles the
/// cards `me` cannot see (the other hand and the undrawn part of each deck) among
/// their places. Only for games without Scout: then each deck is drawn from its top
/// in order, so the undrawn cards are the bottom of the dealt deck.
fn twin(deal: &Deal, game: &Game, me: Player, rng: &mut Rng) -> Deal {
    let other: Vec<Card> = game.hand(me.opponent()).to_vec();
    let mut troops = deal.troops.clone();
    let hidden_troops: Vec<usize> = (0..troops.len())
        .filter(|&i| i < game.troop_deck_len() || other.contains(&Card::Troop(troops[i])))
        .collect();
    let mut cards: Vec<Troop> = hidden_troops.iter().map(|&i| troops[i]).collect();
    rng.shuffle(&mut cards);
    for (&i, t) in hidden_troops.iter().zip(cards) {
        troops[i] = t;
    }
    let mut tactics = deal.tactics.clone();
    let hidden_tactics: Vec<usize> = (0..tactics.len())
        .filter(|&i| i < game.tactic_deck_len() || other.contains(&Card::Tactic(tactics[i])))
        .collect();
    let mut cards: Vec<Tactic> = hidden_tactics.iter().map(|&i| tactics[i]).collect();
    rng.shuffle(&mut cards);
    for (&i, t) in hidden_tactics.iter().zip(cards) {
        tactics[i] = t;
    }
    Deal { troops, tactics }
}

/// Positions (with their deal) where the player to move chooses a card, from games
/// of the easy bot against itself without Scout.
fn positions(games: u64, every: usize) -> Vec<(Deal, Game)> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let deal = shuffled_deal(&mut rng);
        let Some(mut game) = replay(&deal, &[]) else {
            continue;
        };
        let mut bot = Bot::new(seed);
        for ply in 0..300 {
            if game.is_over() {
                break;
            }
            if game.phase() == Phase::Play && ply % every == 0 {
                out.push((deal.clone(), game.clone()));
            }
            let Some(cmd) = bot.choose(&game) else { break };
            if matches!(
                cmd,
                Command::PlayCard {
                    card: Card::Tactic(Tactic::Scout),
                    ..
                }
            ) {
                break;
            }
            game.apply(cmd).expect("the bot plays legal commands");
        }
    }
    out
}

/// Checks a player at `positions`: each twin game (its hidden cards dealt again from
/// `twin_seed` on) looks the same to the player to move, and `mover` (given the game
/// and the position's index) makes the same move in both. Returns how many twins hide
/// other cards in the opponent's hand.
fn same_move_in_twins<M: PartialEq + std::fmt::Debug>(
    who: &str,
    positions: &[(Deal, Game)],
    twin_seed: u64,
    mover: impl Fn(&Game, u64) -> M,
) -> usize {
    let mut differing = 0;
    for (i, (deal, game)) in positions.iter().enumerate() {
        let me = game.current();
        let mut rng = Rng::new(twin_seed + i as u64);
        let other_deal = twin(deal, game, me, &mut rng);
        let twin_game = replay(&other_deal, game.log()).expect("the same moves replay");
        assert_eq!(
            twin_game.view(me),
            game.view(me),
            "the twin looks the same to {me:?}"
        );
        if twin_game.hand(me.opponent()) != game.hand(me.opponent()) {
            differing += 1;
        }
        assert_eq!(
            mover(game, i as u64),
            mover(&twin_game, i as u64),
            "{who} moved differently with other hidden cards (position {i})"
        );
    }
    differing
}

/// [`same_move_in_twins`] for a page level.
fn level_in_twins(level: Level, positions: &[(Deal, Game)]) -> usize {
    same_move_in_twins(&format!("{level:?}"), positions, 1000, |g, i| {
        choose(g, level, 77 + i)
    })
}

#[test]
fn easy_reads_only_what_its_seat_may_know() {
    let positions = positions(12, 3);
    let differing = level_in_twins(Level::Easy, &positions);
    assert!(
        differing * 2 > positions.len(),
        "the twins hide other cards"
    );
}

#[test]
fn normal_reads_only_what_its_seat_may_know() {
    let positions: Vec<(Deal, Game)> = positions(2, 23).into_iter().take(4).collect();
    assert_eq!(positions.len(), 4);
    let differing = level_in_twins(Level::Normal, &positions);
    assert!(
        differing * 2 > positions.len(),
        "the twins hide other cards"
    );
}

#[test]
fn hard_reads_only_what_its_seat_may_know() {
    // One search of each twin: the hard level is slow in unoptimized test builds.
    let positions: Vec<(Deal, Game)> = positions(1, 29).into_iter().skip(1).take(1).collect();
    assert_eq!(positions.len(), 1);
    let differing = level_in_twins(Level::Hard, &positions);
    assert!(differing > 0, "the twins hide other cards");
}

#[test]
fn expert_reads_only_what_its_seat_may_know() {
    // One search of each twin, as for hard (the expert's is twice as long).
    let positions: Vec<(Deal, Game)> = positions(1, 29).into_iter().skip(1).take(1).collect();
    assert_eq!(positions.len(), 1);
    let differing = level_in_twins(Level::Expert, &positions);
    assert!(differing > 0, "the twins hide other cards");
}

#[test]
fn sparring_reads_only_what_its_seat_may_know() {
    let positions = positions(12, 3);
    let partner = battle_line::bot::Sparring::new();
    let differing = same_move_in_twins("the sparring partner", &positions, 2000, |g, _| {
        partner.choose(g)
    });
    assert!(
        differing * 2 > positions.len(),
        "the twins hide other cards"
    );
}

#[test]
fn hard_ranked_by_the_partner_reads_only_what_its_seat_may_know() {
    use battle_line::bot::{Ranking, choose_ranked};
    // Two positions, one search of each twin (slow in unoptimized test builds).
    let positions: Vec<(Deal, Game)> = positions(2, 23).into_iter().take(2).collect();
    assert_eq!(positions.len(), 2);
    let differing = same_move_in_twins("hard ranked by the partner", &positions, 3000, |g, i| {
        choose_ranked(g, Level::Hard, Ranking::Partner, 91 + i)
    });
    assert!(differing > 0, "the twins hide other cards");
}

/// A harness contender that searches (the ways playouts, or cut rollouts): two
/// positions, one search of each twin, as for hard ranked by the partner.
fn ways_contender_reads_only_its_seat(
    name: &str,
    contender: battle_line::bot::Contender,
    twins_seed: u64,
    salt: u64,
) {
    let positions: Vec<(Deal, Game)> = positions(2, 23).into_iter().take(2).collect();
    assert_eq!(positions.len(), 2);
    let differing = same_move_in_twins(name, &positions, twins_seed, |g, i| {
        contender.choose(g, salt + i, &mut battle_line::bot::RandomPlayer::new(0))
    });
    assert!(differing > 0, "the twins hide other cards");
}

#[test]
fn hard_with_the_ways_playouts_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-ways",
        battle_line::bot::Contender::HardWays,
        4000,
        93,
    );
}

#[test]
fn hard_with_the_ways_playouts_at_hards_rollouts_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-ways-900",
        battle_line::bot::Contender::HardWays900,
        4100,
        95,
    );
}

#[test]
fn hard_with_rollouts_cut_and_scored_by_the_partner_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-cut-8",
        battle_line::bot::Contender::from_name("hard-cut-8").expect("named"),
        4200,
        97,
    );
}

#[test]
fn hard_with_rollouts_cut_and_scored_by_the_odds_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-cut-odds-8",
        battle_line::bot::Contender::from_name("hard-cut-odds-8").expect("named"),
        4300,
        99,
    );
}

#[test]
fn hard_with_cut_rollouts_of_the_ways_playouts_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-cut-odds-ways-8",
        battle_line::bot::Contender::from_name("hard-cut-odds-ways-8").expect("named"),
        4400,
        101,
    );
}

#[test]
fn hard_with_rollouts_played_on_until_the_deck_runs_low_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-low-odds-ways-20",
        battle_line::bot::Contender::from_name("hard-low-odds-ways-20").expect("named"),
        4500,
        103,
    );
}

#[test]
fn hard_with_the_other_players_replies_searched_reads_only_what_its_seat_may_know() {
    for (name, twins_seed, salt) in [
        ("hard-replies-worst-3", 4600, 105),
        ("hard-replies-odds-4", 4700, 107),
    ] {
        ways_contender_reads_only_its_seat(
            name,
            battle_line::bot::Contender::from_name(name).expect("named"),
            twins_seed,
            salt,
        );
    }
}

#[test]
fn hard_with_a_model_of_the_other_hand_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-model-40",
        battle_line::bot::Contender::from_name("hard-model-40").expect("named"),
        4800,
        109,
    );
}

#[test]
fn hard_with_an_information_set_tree_search_reads_only_what_its_seat_may_know() {
    // The tree holds the other player's replies and the seat's next play.
    ways_contender_reads_only_its_seat(
        "hard-is-2-c25",
        battle_line::bot::Contender::from_name("hard-is-2-c25").expect("named"),
        4900,
        111,
    );
}

#[test]
fn hard_with_the_partners_valuation_at_the_reply_nodes_reads_only_what_its_seat_may_know() {
    // The valuation is computed in the search's own deals, from the other player's seat.
    ways_contender_reads_only_its_seat(
        "hard-is-sh-2-c25-partner-replies-1",
        battle_line::bot::Contender::from_name("hard-is-sh-2-c25-partner-replies-1")
            .expect("named"),
        5000,
        113,
    );
}

#[test]
fn hard_with_the_partners_tabled_worths_at_the_reply_nodes_reads_only_what_its_seat_may_know() {
    // The table is built in the search's own deals from their public parts, and the
    // deal's sampled hand orders the plays.
    ways_contender_reads_only_its_seat(
        "hard-is-sh-2-c25-partner-model",
        battle_line::bot::Contender::from_name("hard-is-sh-2-c25-partner-model").expect("named"),
        5200,
        117,
    );
}

#[test]
fn hard_with_extra_rollouts_where_its_choice_is_close_reads_only_what_its_seat_may_know() {
    ways_contender_reads_only_its_seat(
        "hard-close-100",
        battle_line::bot::Contender::from_name("hard-close-100").expect("named"),
        5100,
        115,
    );
}
