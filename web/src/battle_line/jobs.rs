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

/// Runs the job named `kind`, if it is one of this game's.
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    match kind {
        ComputerThink::KIND => Some(run_wire::<ComputerThink>(body)),
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
