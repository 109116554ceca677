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
///
/// With several workers, a round's rollouts are played apart: a job with a `piece`
/// answers the values of those rollouts of the round (`Thinker::rollout_values`) and
/// records nothing; the next share carries the pieces' answers in order in `values`,
/// which the worker records (`Thinker::absorb`) before its `work`. Pieces and values
/// travel as plain text ahead of the share's JSON (see [`ComputerThink::to_wire`]), and
/// the page never reads the values: it only puts the pieces' answers back in order
/// (less code in the page's bundle than serde's for an enum answer and two more
/// fields). Only a module built with the `battle-line-jobs` feature plays pieces and
/// records values: in the release, the workers' module (the page's own copy of the
/// jobs runs only when no worker starts, and then the page sends no pieces; should a
/// worker die during a round, the page plays the rest in shares, see `computer.rs`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerThink {
    pub game: Game,
    pub level: Level,
    pub seed: u64,
    pub snapshot: Option<Snapshot>,
    pub work: usize,
    /// The first rollout and the number of rollouts of a piece of the round.
    #[serde(skip)]
    pub piece: Option<(usize, usize)>,
    /// The answers of the pieces played apart, in order and joined by spaces (each
    /// value as the bits of its float in decimal: text that reads back to the same
    /// bits), to record first.
    #[serde(skip)]
    pub values: String,
}

/// What a [`ComputerThink`] answers: where the search stands, or a piece's values (the
/// bits of each float in decimal, joined by spaces). On the wire the snapshot is its
/// JSON and the values are that text as it is (the serde derives only meet
/// [`Task`]'s bounds).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Thought {
    Snapshot(Snapshot),
    Values(String),
}

impl ComputerThink {
    /// A share of `work` units of `level`'s search of `game` from `snapshot`.
    pub fn new(game: Game, level: Level, seed: u64, snapshot: Option<Snapshot>) -> Self {
        ComputerThink {
            game,
            level,
            seed,
            snapshot,
            work: SHARE,
            piece: None,
            values: String::new(),
        }
    }

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

    /// The pieces (first rollout, number of rollouts) that play the rest of the
    /// current round's next batch on `lanes` workers, one each of at most a [`SHARE`]
    /// (so that a batch takes about as long as one share and "move now" never waits
    /// long); none when one worker does the work or the search is not in a round of
    /// rollouts. Each is played by this share with its `piece` set.
    pub fn pieces(&self, lanes: usize) -> Vec<(usize, usize)> {
        let left = self.snapshot.as_ref().map_or(0, |s| s.round_left());
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

    /// Reads the text ahead of a job's JSON (see [`ComputerThink::to_wire`]) into
    /// `piece` or `values`.
    #[cfg(feature = "battle-line-jobs")]
    fn read_head(&mut self, head: &str) -> Result<(), String> {
        let bad = || format!("not the head of a Battle Line job: {head}");
        if let Some(range) = head.strip_prefix("piece ") {
            let mut words = range.split_ascii_whitespace().map(str::parse);
            let (Some(Ok(from)), Some(Ok(count)), None) =
                (words.next(), words.next(), words.next())
            else {
                return Err(bad());
            };
            self.piece = Some((from, count));
        } else {
            let values = head.strip_prefix("values ").ok_or_else(bad)?;
            self.values = values.trim().to_owned();
        }
        Ok(())
    }
}

impl Task for ComputerThink {
    const KIND: &'static str = "battle-line.think";
    type Output = Thought;

    fn run(self) -> Result<Thought, String> {
        let mut thinker = self.thinker()?;
        #[cfg(feature = "battle-line-jobs")]
        {
            if let Some((from, count)) = self.piece {
                let values = thinker.rollout_values(from, count);
                let words: Vec<String> = values.iter().map(|v| v.to_bits().to_string()).collect();
                return Ok(Thought::Values(words.join(" ")));
            }
            let values = (self.values.split_ascii_whitespace())
                .map(|w| w.parse().map(f64::from_bits))
                .collect::<Result<Vec<f64>, _>>()
                .map_err(|e| e.to_string())?;
            thinker.absorb(&values).map_err(|e| e.to_string())?;
        }
        thinker.step(self.work);
        Ok(Thought::Snapshot(thinker.snapshot()))
    }

    /// The share's JSON, after `piece FROM COUNT ` for a piece or `values V1 V2 … `
    /// for a share that records the pieces' values first.
    fn to_wire(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        match self.piece {
            Some((from, count)) => format!("piece {from} {count} {json}"),
            None if !self.values.is_empty() => format!("values {} {json}", self.values),
            None => json,
        }
    }

    // Without `battle-line-jobs` the default (JSON alone) reads the job: text ahead of
    // the JSON makes it refused.
    #[cfg(feature = "battle-line-jobs")]
    fn from_wire(text: &str) -> Result<ComputerThink, String> {
        let (head, json) = text.split_at(text.find('{').unwrap_or(0));
        let mut task: ComputerThink = serde_json::from_str(json).map_err(|e| e.to_string())?;
        if !head.is_empty() {
            task.read_head(head)?;
        }
        Ok(task)
    }

    fn output_to_wire(thought: &Thought) -> Result<String, String> {
        match thought {
            Thought::Snapshot(snapshot) => {
                serde_json::to_string(snapshot).map_err(|e| e.to_string())
            }
            Thought::Values(values) => Ok(values.clone()),
        }
    }

    fn output_from_wire(text: &str) -> Result<Thought, String> {
        if text.starts_with('{') {
            serde_json::from_str(text)
                .map(Thought::Snapshot)
                .map_err(|e| e.to_string())
        } else {
            Ok(Thought::Values(text.to_owned()))
        }
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

    /// Runs `task` through the dispatch (its wire text both ways), as a worker does.
    fn through_the_worker(task: &ComputerThink) -> Result<Thought, String> {
        let answer = dispatch(ComputerThink::KIND, &task.to_wire()).expect("a battle line job")?;
        Ok(ComputerThink::output_from_wire(&answer).expect("an answer"))
    }

    fn snapshot_of(answer: Result<Thought, String>) -> Snapshot {
        match answer.expect("runs") {
            Thought::Snapshot(s) => s,
            Thought::Values(_) => panic!("a share answers a snapshot"),
        }
    }

    /// Thinks as the page does on `lanes` workers: shares through the dispatch, and
    /// once in a round of rollouts (on several workers) each batch cut into pieces,
    /// each run as a job of its own (last piece first), their values recorded in order
    /// by the next share. Returns the decision, the shares sent and the batches played
    /// in pieces.
    fn think(
        game: &Game,
        level: Level,
        seed: u64,
        lanes: usize,
    ) -> (Option<Command>, usize, usize) {
        let mut task = ComputerThink::new(game.clone(), level, seed, None);
        let (mut shares, mut batches) = (0, 0);
        loop {
            let pieces = task.pieces(lanes);
            if !pieces.is_empty() {
                let mut values: Vec<String> = pieces
                    .iter()
                    .rev()
                    .map(|&(from, count)| {
                        let piece = ComputerThink {
                            piece: Some((from, count)),
                            ..task.clone()
                        };
                        match through_the_worker(&piece).expect("runs") {
                            Thought::Values(v) => {
                                assert_eq!(v.split_ascii_whitespace().count(), count);
                                v
                            }
                            Thought::Snapshot(_) => panic!("a piece answers values"),
                        }
                    })
                    .collect();
                values.reverse();
                batches += 1;
                task.values = values.join(" ");
                task.work = 0;
            }
            let snapshot = snapshot_of(through_the_worker(&task));
            shares += 1;
            task = ComputerThink::new(game.clone(), level, seed, Some(snapshot));
            if task
                .snapshot
                .as_ref()
                .is_some_and(|s| s.progress().is_none())
            {
                return (task.move_now(), shares, batches);
            }
        }
    }

    #[test]
    fn shares_of_thinking_in_the_worker_decide_what_the_bot_chooses() {
        let game = Game::new(7, Settings::default());
        for level in [Level::Easy, Level::Normal, Level::Hard] {
            let seed = move_seed(7, 0);
            let (command, shares, _) = think(&game, level, seed, 1);
            assert_eq!(command, bot::choose(&game, level, seed), "{level:?}");
            assert!(command.is_some_and(|c| game.legal_commands().contains(&c)));
            if level == Level::Hard {
                assert!(shares > 2, "hard's search is shared out: {shares} shares");
            }
        }
    }

    #[cfg(feature = "battle-line-jobs")]
    #[test]
    fn rollouts_cut_into_pieces_for_several_workers_decide_what_the_bot_chooses() {
        let game = Game::new(7, Settings::default());
        let seed = move_seed(7, 0);
        for (level, lanes) in [(Level::Hard, 2), (Level::Hard, 4), (Level::Expert, 3)] {
            let (command, _, batches) = think(&game, level, seed, lanes);
            assert_eq!(
                command,
                bot::choose(&game, level, seed),
                "{level:?} on {lanes}"
            );
            assert!(batches >= 3, "{level:?}: the rounds were played in pieces");
        }
    }

    /// Hard's search of `game` (seed 1) once its moves are ranked, in its first round of
    /// rollouts; bounded, should the search decide without a round.
    fn in_a_round(game: &Game) -> Thinker {
        let mut thinker = Thinker::new(game, Level::Hard, 1);
        for _ in 0..1000 {
            if thinker.round_left() > 0 {
                return thinker;
            }
            thinker.step(1);
        }
        panic!("no round of rollouts");
    }

    #[test]
    fn a_rounds_rollouts_are_cut_into_pieces_of_at_most_a_share_that_cover_the_batch() {
        let game = Game::new(7, Settings::default());
        let thinker = in_a_round(&game);
        let left = thinker.round_left();
        let task = ComputerThink::new(game.clone(), Level::Hard, 1, Some(thinker.snapshot()));
        assert!(task.pieces(1).is_empty(), "one worker plays shares");
        let ranges = |lanes| task.pieces(lanes);
        let two = ranges(2);
        assert_eq!(two.first().map(|r| r.0), Some(0));
        assert!(
            two.windows(2).all(|w| w[0].0 + w[0].1 == w[1].0),
            "contiguous"
        );
        let covered: usize = two.iter().map(|r| r.1).sum();
        assert_eq!(covered, left.min(2 * SHARE));
        assert!(two.iter().all(|r| r.1 <= SHARE && r.1 > 0));
        assert!(ranges(4).len() <= 4);
        // Before the ranking is done there is no round to cut.
        let fresh = ComputerThink::new(game, Level::Hard, 1, None);
        assert!(fresh.pieces(4).is_empty());
    }

    #[cfg(feature = "battle-line-jobs")]
    #[test]
    fn values_past_the_round_or_a_piece_of_another_position_are_refused() {
        let game = Game::new(7, Settings::default());
        let thinker = in_a_round(&game);
        let left = thinker.round_left();
        let mut task = ComputerThink::new(game.clone(), Level::Hard, 1, Some(thinker.snapshot()));
        let half = 0.5f64.to_bits().to_string();
        task.values = vec![half.as_str(); left + 1].join(" ");
        assert!(through_the_worker(&task).is_err());
        task.values = vec![half.as_str(); left].join(" ");
        assert!(
            through_the_worker(&task).is_ok(),
            "the round's values are recorded"
        );
        task.values = "0.5".to_owned();
        assert!(through_the_worker(&task).is_err(), "values travel as bits");
        let mut other = game.clone();
        other.apply(game.legal_commands()[0]).expect("legal");
        let piece = ComputerThink {
            game: other,
            piece: Some((0, 1)),
            ..ComputerThink::new(game, Level::Hard, 1, Some(thinker.snapshot()))
        };
        assert!(through_the_worker(&piece).is_err());
    }

    #[test]
    fn moving_now_answers_a_legal_command_before_any_share_is_done() {
        let game = Game::new(9, Settings::default());
        let task = ComputerThink::new(game.clone(), Level::Expert, 1, None);
        let command = task.move_now().expect("a move");
        assert!(game.legal_commands().contains(&command));
    }

    #[test]
    fn a_garbled_job_is_refused() {
        let answer = dispatch(ComputerThink::KIND, "{\"game\":1}").expect("a battle line job");
        assert!(answer.is_err());
    }

    /// A share's wire text (its JSON) and a piece's and a share's with values (the same
    /// after a head).
    fn wires() -> (String, String, String) {
        let mut task = ComputerThink::new(Game::new(7, Settings::default()), Level::Hard, 1, None);
        let share = task.to_wire();
        task.piece = Some((4, 5));
        let piece = task.to_wire();
        task.piece = None;
        task.values = "1 2".to_owned();
        (share, piece, task.to_wire())
    }

    #[cfg(feature = "battle-line-jobs")]
    #[test]
    fn a_jobs_head_says_its_piece_or_its_values() {
        let (share, piece, values) = wires();
        assert!(share.starts_with('{'), "a share is its JSON");
        assert_eq!(piece, format!("piece 4 5 {share}"));
        assert_eq!(values, format!("values 1 2 {share}"));
        let read = |text: &str| ComputerThink::from_wire(text).expect("reads");
        assert_eq!(
            (read(&share).piece, read(&share).values),
            (None, String::new())
        );
        assert_eq!(read(&piece).piece, Some((4, 5)));
        assert_eq!(
            (read(&values).piece, read(&values).values),
            (None, "1 2".to_owned())
        );
        for head in [
            "piece 1 ",
            "piece 1 2 3 ",
            "piece x 2 ",
            "rollouts 1 2 ",
            "values",
        ] {
            let text = format!("{head}{share}");
            assert!(ComputerThink::from_wire(&text).is_err(), "{head}");
        }
    }

    #[cfg(not(feature = "battle-line-jobs"))]
    #[test]
    fn the_pages_own_copy_of_the_jobs_refuses_pieces_and_values() {
        let (share, piece, values) = wires();
        assert!(ComputerThink::from_wire(&share).is_ok());
        assert!(ComputerThink::from_wire(&piece).is_err());
        assert!(ComputerThink::from_wire(&values).is_err());
    }
}
