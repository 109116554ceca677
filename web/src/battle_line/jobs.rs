//! Battle Line's worker job: a share of the computer's thinking about its next command.

use battle_line::Game;
use battle_line::bot::{Level, Snapshot, Thinker};
use serde::{Deserialize, Serialize};

use crate::worker::{Task, run_wire};

/// Work units (rollouts, well under a millisecond each) per job: a share takes about
/// a tenth of a second in a browser, so "move now" and a change of position never
/// wait long for the worker, and the page hears how far the search got.
pub const SHARE: usize = 300;

/// Some more thinking about the computer's next command in `game`: started afresh at
/// `level` with `seed` when `snapshot` is `None`, otherwise carried on from it. It
/// answers where the search then stands; the page sends the next share until the
/// snapshot holds the decision. The game travels as its record (seed, settings, log)
/// and is replayed in the worker; the bot reads only what the player to move may know
/// of it. The decision is the same however the search is shared out.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerThink {
    pub game: Game,
    pub level: Level,
    pub seed: u64,
    pub snapshot: Option<Snapshot>,
    pub work: usize,
}

impl ComputerThink {
    /// The thinker this share carries on.
    fn thinker(&self) -> Result<Thinker, String> {
        match &self.snapshot {
            None => Ok(Thinker::new(&self.game, self.level, self.seed)),
            Some(s) => Thinker::resume(&self.game, s.clone()).map_err(|e| e.to_string()),
        }
    }

    /// The best command found so far, at once (the page's "move now"; see
    /// [`Thinker::move_now`]): legal whenever the game is not over.
    pub fn move_now(&self) -> Option<battle_line::Command> {
        let thinker = self
            .thinker()
            .unwrap_or_else(|_| Thinker::new(&self.game, self.level, self.seed));
        thinker.move_now()
    }
}

impl Task for ComputerThink {
    const KIND: &'static str = "battle-line.think";
    type Output = Snapshot;

    fn run(self) -> Result<Snapshot, String> {
        let mut thinker = self.thinker()?;
        thinker.step(self.work);
        Ok(thinker.snapshot())
    }
}

/// A piece of the computer's current round of rollouts, played in any worker beside
/// the other pieces: the values of rollouts `from..from + count` of those the snapshot
/// has left in its round ([`Thinker::rollout_values`]), as the bits of each `f64` (a
/// JSON number may not read back to the same bits). The page puts the pieces back
/// together in order and records them ([`Thinker::absorb`]): the move is the one a
/// single worker would choose.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerRollouts {
    pub game: Game,
    pub snapshot: Snapshot,
    pub from: usize,
    pub count: usize,
}

impl Task for ComputerRollouts {
    const KIND: &'static str = "battle-line.rollouts";
    type Output = Vec<u64>;

    fn run(self) -> Result<Vec<u64>, String> {
        let thinker = Thinker::resume(&self.game, self.snapshot).map_err(|e| e.to_string())?;
        let values = thinker.rollout_values(self.from, self.count);
        Ok(values.into_iter().map(f64::to_bits).collect())
    }
}

/// `snapshot` of a search of `game` with the pieces' values (in order) recorded.
pub fn absorb(game: &Game, snapshot: Snapshot, pieces: &[Vec<u64>]) -> Result<Snapshot, String> {
    let values: Vec<f64> = pieces
        .iter()
        .flatten()
        .map(|&b| f64::from_bits(b))
        .collect();
    let mut thinker = Thinker::resume(game, snapshot).map_err(|e| e.to_string())?;
    thinker.absorb(&values).map_err(|e| e.to_string())?;
    Ok(thinker.snapshot())
}

/// How the rollouts `left` in a round are cut for `lanes` workers: the pieces' first
/// rollout and size, at most [`SHARE`] each, so that a batch takes about as long as one
/// share and "move now" never waits long. Empty when one worker does the work.
pub fn pieces(left: usize, lanes: usize) -> Vec<(usize, usize)> {
    if lanes < 2 || left == 0 {
        return Vec::new();
    }
    let batch = left.min(lanes * SHARE);
    let size = batch.div_ceil(lanes);
    (0..batch)
        .step_by(size)
        .map(|from| (from, size.min(batch - from)))
        .collect()
}

/// Runs the job named `kind`, if it is one of this game's.
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    match kind {
        ComputerThink::KIND => Some(run_wire::<ComputerThink>(body)),
        ComputerRollouts::KIND => Some(run_wire::<ComputerRollouts>(body)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_line::bot::{self, move_seed};
    use battle_line::{Command, Settings};

    /// Sends shares through the dispatch (JSON both ways) until the search decides.
    fn think_in_shares(game: &Game, level: Level, seed: u64) -> (Option<Command>, usize) {
        let mut task = ComputerThink {
            game: game.clone(),
            level,
            seed,
            snapshot: None,
            work: SHARE,
        };
        for shares in 1.. {
            let body = serde_json::to_string(&task).expect("serializes");
            let answer = dispatch(ComputerThink::KIND, &body).expect("a battle line job");
            let snapshot: Snapshot =
                serde_json::from_str(&answer.expect("runs")).expect("an answer");
            if snapshot.progress().is_none() {
                let command = ComputerThink {
                    snapshot: Some(snapshot),
                    ..task
                }
                .move_now();
                return (command, shares);
            }
            task.snapshot = Some(snapshot);
        }
        unreachable!("the loop returns")
    }

    #[test]
    fn shares_of_thinking_in_the_worker_decide_what_the_bot_chooses() {
        let game = Game::new(7, Settings::default());
        for level in [Level::Easy, Level::Normal, Level::Hard] {
            let seed = move_seed(7, 0);
            let (command, shares) = think_in_shares(&game, level, seed);
            assert_eq!(command, bot::choose(&game, level, seed), "{level:?}");
            assert!(command.is_some_and(|c| game.legal_commands().contains(&c)));
            if level == Level::Hard {
                assert!(shares > 2, "hard's search is shared out");
            }
        }
    }

    /// Thinks as the page does on `lanes` workers: a share through the dispatch while
    /// the moves are ranked, then each batch of a round's rollouts cut into pieces, each
    /// played by a job of its own (last piece first), put back together by [`absorb`].
    fn think_in_pieces(game: &Game, level: Level, seed: u64, lanes: usize) -> Option<Command> {
        let mut snapshot = Thinker::new(game, level, seed).snapshot();
        let mut batches = 0;
        while snapshot.progress().is_some() {
            let cut = pieces(snapshot.round_left(), lanes);
            if cut.is_empty() {
                let task = ComputerThink {
                    game: game.clone(),
                    level,
                    seed,
                    snapshot: Some(snapshot),
                    work: SHARE,
                };
                let answer = dispatch(
                    ComputerThink::KIND,
                    &serde_json::to_string(&task).expect("serializes"),
                );
                snapshot = serde_json::from_str(&answer.expect("a job").expect("runs"))
                    .expect("an answer");
                continue;
            }
            let mut values: Vec<Vec<u64>> = cut
                .iter()
                .rev()
                .map(|&(from, count)| {
                    let task = ComputerRollouts {
                        game: game.clone(),
                        snapshot: snapshot.clone(),
                        from,
                        count,
                    };
                    let answer = dispatch(
                        ComputerRollouts::KIND,
                        &serde_json::to_string(&task).expect("serializes"),
                    );
                    let values: Vec<u64> =
                        serde_json::from_str(&answer.expect("a job").expect("runs"))
                            .expect("an answer");
                    assert_eq!(values.len(), count);
                    values
                })
                .collect();
            values.reverse();
            snapshot = absorb(game, snapshot, &values).expect("absorbed");
            batches += 1;
        }
        assert!(batches >= 3, "{level:?}: the rounds were played in pieces");
        ComputerThink {
            game: game.clone(),
            level,
            seed,
            snapshot: Some(snapshot),
            work: SHARE,
        }
        .move_now()
    }

    #[test]
    fn rollouts_cut_into_pieces_for_several_workers_decide_what_the_bot_chooses() {
        let game = Game::new(7, Settings::default());
        let seed = move_seed(7, 0);
        for (level, lanes) in [(Level::Hard, 2), (Level::Hard, 4), (Level::Expert, 3)] {
            assert_eq!(
                think_in_pieces(&game, level, seed, lanes),
                bot::choose(&game, level, seed),
                "{level:?} on {lanes}"
            );
        }
    }

    #[test]
    fn a_rounds_rollouts_are_cut_into_pieces_of_at_most_a_share_that_cover_the_batch() {
        assert!(pieces(1000, 1).is_empty(), "one worker plays shares");
        assert!(pieces(0, 4).is_empty());
        assert_eq!(pieces(5, 4), vec![(0, 2), (2, 2), (4, 1)]);
        assert_eq!(pieces(1000, 2), vec![(0, SHARE), (SHARE, SHARE)]);
        assert_eq!(pieces(301, 2), vec![(0, 151), (151, 150)]);
    }

    #[test]
    fn a_piece_of_another_position_or_values_past_the_round_are_refused() {
        let game = Game::new(7, Settings::default());
        let mut thinker = Thinker::new(&game, Level::Hard, 1);
        while thinker.round_left() == 0 {
            thinker.step(1);
        }
        let left = thinker.round_left();
        let snapshot = thinker.snapshot();
        assert!(absorb(&game, snapshot.clone(), &[vec![0.5f64.to_bits(); left + 1]]).is_err());
        let mut other = game.clone();
        other.apply(game.legal_commands()[0]).expect("legal");
        let task = ComputerRollouts {
            game: other,
            snapshot,
            from: 0,
            count: 1,
        };
        let answer = dispatch(
            ComputerRollouts::KIND,
            &serde_json::to_string(&task).expect("serializes"),
        );
        assert!(answer.expect("a battle line job").is_err());
    }

    #[test]
    fn moving_now_answers_a_legal_command_before_any_share_is_done() {
        let game = Game::new(9, Settings::default());
        let task = ComputerThink {
            game: game.clone(),
            level: Level::Expert,
            seed: 1,
            snapshot: None,
            work: SHARE,
        };
        let command = task.move_now().expect("a move");
        assert!(game.legal_commands().contains(&command));
    }

    #[test]
    fn a_garbled_job_is_refused() {
        let answer = dispatch(ComputerThink::KIND, "{\"game\":1}").expect("a battle line job");
        assert!(answer.is_err());
    }
}
