//! Battle Line's worker job: the computer's next command.

use battle_line::bot::{self, Level};
use battle_line::{Command, Game};
use serde::{Deserialize, Serialize};

use crate::worker::{Task, run_wire};

/// The computer's next command in `game` at `level`. The game travels as its record
/// (seed, settings, log) and is replayed in the worker; the bot reads only what the
/// player to move may know of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerMove {
    pub game: Game,
    pub level: Level,
    pub seed: u64,
}

impl Task for ComputerMove {
    const KIND: &'static str = "battle-line.move";
    type Output = Option<Command>;

    fn run(self) -> Result<Option<Command>, String> {
        Ok(bot::choose(&self.game, self.level, self.seed))
    }
}

/// Runs the job named `kind`, if it is one of this game's.
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    match kind {
        ComputerMove::KIND => Some(run_wire::<ComputerMove>(body)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_line::Settings;
    use battle_line::bot::move_seed;

    #[test]
    fn the_job_answers_what_the_bot_chooses_after_a_json_round_trip() {
        let game = Game::new(7, Settings::default());
        let task = ComputerMove {
            game: game.clone(),
            level: Level::Normal,
            seed: move_seed(7, 0),
        };
        let body = serde_json::to_string(&task).expect("serializes");
        let answer = dispatch(ComputerMove::KIND, &body).expect("a battle line job");
        let command: Option<Command> =
            serde_json::from_str(&answer.expect("runs")).expect("an answer");
        assert_eq!(command, bot::choose(&game, Level::Normal, move_seed(7, 0)));
        assert!(command.is_some_and(|c| game.legal_commands().contains(&c)));
    }

    #[test]
    fn a_garbled_job_is_refused() {
        let answer = dispatch(ComputerMove::KIND, "{\"game\":1}").expect("a battle line job");
        assert!(answer.is_err());
    }
}
