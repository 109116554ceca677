use battle_line::bot::{Bot, RandomPlayer};
use battle_line::*;
fn main() {
    for seed in 0..40u64 {
        let seat = if seed % 2 == 0 { Player::P0 } else { Player::P1 };
        let mut game = Game::new(seed, Settings::default());
        let mut bot = Bot::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 1);
        let mut random = RandomPlayer::new(seed ^ 0xABCD);
        let mut n = 0;
        while !game.is_over() && n < 3000 {
            let cmd = if game.current() == seat { bot.choose(&game) } else { random.choose(&game) };
            game.apply(cmd.unwrap()).unwrap();
            n += 1;
        }
        if !game.is_over() {
            println!("seed {seed} seat {seat:?} decks {} {}", game.troop_deck_len(), game.tactic_deck_len());
            for (i, f) in game.flags().iter().enumerate() {
                println!("  {i}: owner {:?} p0 {:?} {:?} | p1 {:?} {:?}", f.owner, f.p0_slots.iter().map(|c| c.to_string()).collect::<Vec<_>>(), f.p0_tactic, f.p1_slots.iter().map(|c| c.to_string()).collect::<Vec<_>>(), f.p1_tactic);
            }
            for p in Player::BOTH { println!("  hand {:?}: {:?}", p, game.hand(p).iter().map(|c| c.to_string()).collect::<Vec<_>>()); }
            println!("  last cmds {:?}", &game.log()[game.log().len()-6..]);
            break;
        }
    }
}
