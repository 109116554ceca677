//! The bot's search: candidates, placements looked ahead, the shape term, the greedy baseline.
//!
//! See the module docs of `bot` for how it decides.

use crate::model::{Player, Position};
use seeded_rng::Rng;

use super::BotConfig;
use super::lanes::{Lanes, Odds};
use super::table::{Table, Windows};

/// The value, for the player who just placed, of the position after their
/// placement: observe now (when they may) or leave it to the opponent.
pub(super) fn choose(
    odds: &Odds,
    mover: Player,
    can_observe: bool,
    wait: f64,
    after_miss: f64,
    cost: f64,
) -> f64 {
    if !can_observe {
        return wait;
    }
    let (win, loss, neither) = odds.outcome(mover);
    (win - loss + neither * (after_miss - cost)).max(wait)
}

/// Empty cells within `radius` (Chebyshev) of a stone, marked in `near`.
pub(super) fn mark_near(
    table: &Table<'_>,
    occupied: &[bool],
    around: usize,
    radius: usize,
    near: &mut [bool],
) {
    let n = table.n;
    let (r0, c0) = (around / n, around % n);
    for r in r0.saturating_sub(radius)..=(r0 + radius).min(n - 1) {
        for c in c0.saturating_sub(radius)..=(c0 + radius).min(n - 1) {
            let cell = r * n + c;
            if !occupied[cell] {
                near[cell] = true;
            }
        }
    }
}

/// The placement the search chose, and the values of waiting (not observing
/// after it) and of the game going on after a missed observation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Plan {
    pub(super) position: Position,
    /// The value of the chosen placement with the best observation decision.
    pub(super) value: f64,
    pub(super) wait: f64,
    pub(super) wait_after_miss: f64,
}

pub(super) fn centre(table: &Table<'_>) -> Position {
    // The centre, or the empty cell nearest to it.
    let mid = (table.n / 2) as isize;
    (0..table.n * table.n)
        .map(|cell| table.position(cell))
        .filter(|&p| table.state.stone_at(p).is_none())
        .min_by_key(|p| {
            let (dr, dc) = (p.row as isize - mid, p.col as isize - mid);
            (dr.abs().max(dc.abs()), dr.abs() + dc.abs(), p.row, p.col)
        })
        .unwrap_or(Position::new(0, 0))
}

/// Candidate cells for the next placement: the empty cells near a stone
/// (shuffled by the seed so that equal candidates are chosen among fairly),
/// and one far cell, if any, standing for "a placement that changes nothing".
pub(super) fn candidates(
    table: &Table<'_>,
    occupied: &[bool],
    rng: &mut Rng,
) -> (Vec<usize>, Option<usize>) {
    let cells = table.n * table.n;
    let radius = (table.win_length - 1).clamp(1, 2);
    let mut near = vec![false; cells];
    let mut reach = vec![false; cells];
    for cell in (0..cells).filter(|&c| occupied[c]) {
        mark_near(table, occupied, cell, radius, &mut near);
        mark_near(table, occupied, cell, table.win_length, &mut reach);
    }
    let mut out: Vec<usize> = (0..cells).filter(|&c| near[c]).collect();
    for i in (1..out.len()).rev() {
        out.swap(i, rng.index(i + 1));
    }
    let outside: Vec<usize> = (0..cells).filter(|&c| !occupied[c] && !reach[c]).collect();
    let far = (!outside.is_empty()).then(|| outside[rng.index(outside.len())]);
    (out, far)
}

/// The search (see the module docs).
///
/// The first two placements are tried on every candidate cell. Deeper, only
/// the cells that complete a window of occupied cells are tried, plus "a
/// placement that changes nothing": any other stone lies on no line yet, so
/// it changes no chance at once, and the completion cells are also where a
/// completion gets blocked.
pub(super) fn search(table: &Table<'_>, config: &BotConfig, rng: &mut Rng) -> Plan {
    let me = table.state.current_player;
    let opp = me.opponent();
    let counts = [
        table.state.observations_remaining(me),
        table.state.observations_remaining(opp),
    ];
    if table.state.stone_count() == 0 {
        return Plan {
            position: centre(table),
            value: 0.0,
            wait: 0.0,
            wait_after_miss: 0.0,
        };
    }
    let depth = config.depth.clamp(2, MAX_DEPTH);
    let mut lanes = Lanes::new(table, config.samples, depth, rng);
    let (hb0, hw0) = lanes.lines_all();
    let words = lanes.words;
    let cells = table.n * table.n;
    let radius = (table.win_length - 1).clamp(1, 2);
    let (near_roots, far) = candidates(table, &lanes.occupied, rng);
    let roots: Vec<usize> = near_roots.iter().copied().chain(far).collect();
    let singles = lanes.completions_all();
    let mut deep = Deep {
        singles,
        me,
        last: depth - 1,
        horizon: config.horizon_weight,
        cost: config.observation_cost,
        words,
        levels: vec![0; (MAX_DEPTH + 1) * 2 * words],
        level_odds: vec![lanes.odds(&hb0, &hw0); MAX_DEPTH + 1],
        stamp: vec![0; cells],
        generation: 0,
        spent: 0,
    };
    deep.levels[..words].copy_from_slice(&hb0);
    deep.levels[words..2 * words].copy_from_slice(&hw0);

    // Placements one and two everywhere; the chances after them give a first
    // estimate (the horizon right after the reply) that orders the roots.
    let mut tree: Vec<Root> = Vec::with_capacity(roots.len());
    for &c in &roots {
        let odds = deep.place(&mut lanes, 0, c);
        let mut replies = vec![(NONE, odds)];
        // The near cells, with those that became near because of `c`; NONE
        // stands in for every far one.
        let mut near = vec![false; cells];
        for &d in &near_roots {
            near[d] = d != c;
        }
        mark_near(table, &lanes.occupied, c, radius, &mut near);
        for d in (0..cells).filter(|&d| near[d]) {
            let o = deep.place(&mut lanes, 1, d);
            lanes.remove(d);
            replies.push((d, o));
        }
        lanes.remove(c);
        tree.push(Root {
            cell: c,
            odds,
            replies,
        });
    }
    let first = |root: &Root| {
        let wait = -root
            .replies
            .iter()
            .map(|(_, o)| {
                let h = deep.horizon * o.edge(opp);
                choose(o, opp, counts[1] > 0, h, h, deep.cost)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        choose(&root.odds, me, counts[0] > 0, wait, wait, deep.cost)
    };
    let mut order: Vec<(usize, f64)> = tree
        .iter()
        .enumerate()
        .map(|(i, r)| (i, first(r)))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    deep.spent = tree.iter().map(|r| r.replies.len()).sum();

    // Then each root in that order, every reply, and the deeper placements,
    // while the budget lasts.
    let mut best: Option<(usize, f64, f64, f64, f64)> = None;
    let owner: Vec<Option<bool>> = (0..cells)
        .map(|c| {
            table
                .state
                .stone_at(table.position(c))
                .map(|s| s.placed_by == me)
        })
        .collect();
    let mut placed = Vec::with_capacity(MAX_DEPTH);
    for &(i, _) in &order {
        if best.is_some() && deep.spent >= config.budget {
            break;
        }
        let root = &tree[i];
        let deeper = deep.last >= 2;
        deep.place(&mut lanes, 0, root.cell);
        placed.push(root.cell);
        let mut reply_values = |c: [u8; 2]| {
            let mut best_reply = f64::NEG_INFINITY;
            for &(d, odds) in &root.replies {
                if d == NONE {
                    deep.keep(1);
                } else {
                    deep.place(&mut lanes, 1, d);
                }
                placed.push(d);
                let v = deep.after(&mut lanes, 1, odds, &mut placed, c);
                placed.pop();
                if d != NONE {
                    lanes.remove(d);
                }
                best_reply = best_reply.max(v);
            }
            -best_reply
        };
        let wait = reply_values(counts);
        // After a missed observation I have one fewer; it only matters
        // when it was my last and I could observe again deeper down.
        let miss = if counts[0] == 1 && deeper {
            reply_values([0, counts[1]])
        } else {
            wait
        };
        placed.pop();
        lanes.remove(root.cell);
        let value = choose(&root.odds, me, counts[0] > 0, wait, miss, deep.cost);
        let ranked = value + SHAPE_WEIGHT * shape(&lanes.windows, &owner, root.cell);
        if best.is_none_or(|b| ranked > b.4) {
            best = Some((i, value, wait, miss, ranked));
        }
    }
    match best.and_then(|b| tree.get(b.0).map(|r| (r, b))) {
        Some((root, (_, value, wait, wait_after_miss, _))) => Plan {
            position: table.position(root.cell),
            value,
            wait,
            wait_after_miss,
        },
        None => Plan {
            position: centre(table),
            value: 0.0,
            wait: 0.0,
            wait_after_miss: 0.0,
        },
    }
}

/// How much a placement on `cell` does for `me` beyond the horizon of the
/// search: per window through it, the windows it keeps open for me (no
/// opposing stone; more the more of my stones they hold) and those of the
/// opponent it spoils (more the more of theirs). `owner` is per cell: `Some(true)`
/// for my stones, `Some(false)` for the opponent's, `None` for an empty cell.
pub(super) fn shape(windows: &Windows, owner: &[Option<bool>], cell: usize) -> f64 {
    let mut score = 0;
    for window in windows.through[cell].chunks_exact(windows.others) {
        let (mut mine, mut theirs) = (0i32, 0i32);
        for &c in window {
            match owner.get(usize::from(c)).copied().flatten() {
                Some(true) => mine += 1,
                Some(false) => theirs += 1,
                None => {}
            }
        }
        if theirs == 0 {
            score += (mine + 1) * (mine + 1) - 1;
        } else if mine == 0 {
            score += theirs * theirs;
        }
    }
    f64::from(score)
}

/// The weight of [`shape`] in the choice of the first placement: small enough
/// to only decide between placements the search values (nearly) alike, which
/// it does in quiet positions where no line can be completed within its
/// horizon (a first reply, the first stones of a new group).
pub(super) const SHAPE_WEIGHT: f64 = 0.002;

/// The deepest search accepted (placements looked ahead).
pub const MAX_DEPTH: usize = 5;

/// The state of the search below the first two placements.
#[derive(Debug)]
pub(super) struct Deep {
    /// Completion cells of the board as it is.
    pub(super) singles: Vec<usize>,
    pub(super) me: Player,
    /// The index of the last placement searched (0 is the first).
    pub(super) last: usize,
    pub(super) horizon: f64,
    pub(super) cost: f64,
    pub(super) words: usize,
    /// Per placement index, the lanes with a black line and with a white
    /// line before that placement (`2 * words` each).
    pub(super) levels: Vec<u64>,
    /// The odds of each level.
    pub(super) level_odds: Vec<Odds>,
    pub(super) stamp: Vec<u32>,
    pub(super) generation: u32,
    pub(super) spent: usize,
}

impl Deep {
    pub(super) fn mover(&self, ply: usize) -> Player {
        if ply.is_multiple_of(2) {
            self.me
        } else {
            self.me.opponent()
        }
    }

    /// Places `cell` as placement `ply` and records the lines after it as
    /// the level of `ply + 1`.
    pub(super) fn place(&mut self, lanes: &mut Lanes, ply: usize, cell: usize) -> Odds {
        let w = self.words;
        let (before, after) = self.levels.split_at_mut((ply + 1) * 2 * w);
        let base = &before[ply * 2 * w..];
        let (hb, hw) = after.split_at_mut(w);
        let odds = lanes.place_and_score(
            cell,
            ply,
            (&base[..w], &base[w..2 * w], self.level_odds[ply]),
            (hb, &mut hw[..w]),
        );
        self.level_odds[ply + 1] = odds;
        odds
    }

    /// "A placement that changes nothing" as placement `ply`.
    pub(super) fn keep(&mut self, ply: usize) {
        let w = self.words;
        self.levels
            .copy_within(ply * 2 * w..(ply + 1) * 2 * w, (ply + 1) * 2 * w);
        self.level_odds[ply + 1] = self.level_odds[ply];
    }

    /// The value, for the mover of placement `ply`, of the position after it
    /// (`odds`): observe or leave it to the other player, whose best next
    /// placement is searched unless `ply` is the last. `counts` are the
    /// observations left, mine first.
    pub(super) fn after(
        &mut self,
        lanes: &mut Lanes,
        ply: usize,
        odds: Odds,
        placed: &mut Vec<usize>,
        counts: [u8; 2],
    ) -> f64 {
        let mover = self.mover(ply);
        let side = ply % 2;
        let can = counts[side] > 0;
        if ply >= self.last {
            let h = self.horizon * odds.edge(mover);
            return choose(&odds, mover, can, h, h, self.cost);
        }
        let wait = -self.best(lanes, ply + 1, placed, counts);
        let miss = if counts[side] == 1 && ply + 2 <= self.last {
            let mut fewer = counts;
            fewer[side] = 0;
            -self.best(lanes, ply + 1, placed, fewer)
        } else {
            wait
        };
        choose(&odds, mover, can, wait, miss, self.cost)
    }

    /// The best value for the mover of placement `ply` among the completion
    /// cells and "a placement that changes nothing".
    pub(super) fn best(
        &mut self,
        lanes: &mut Lanes,
        ply: usize,
        placed: &mut Vec<usize>,
        counts: [u8; 2],
    ) -> f64 {
        let unchanged = self.level_odds[ply];
        self.keep(ply);
        placed.push(NONE);
        let mut best = self.after(lanes, ply, unchanged, placed, counts);
        placed.pop();
        self.generation += 1;
        let mut options = Vec::new();
        lanes.completions(
            &self.singles,
            placed,
            &mut options,
            &mut self.stamp,
            self.generation,
        );
        self.spent += options.len() + 1;
        for e in options {
            let odds = self.place(lanes, ply, e);
            placed.push(e);
            best = best.max(self.after(lanes, ply, odds, placed, counts));
            placed.pop();
            lanes.remove(e);
        }
        best
    }
}

/// A reply that changes nothing near the stones (a far cell).
pub(super) const NONE: usize = usize::MAX;

/// One candidate of the first placement with the chances after it and after
/// each reply.
#[derive(Debug)]
pub(super) struct Root {
    pub(super) cell: usize,
    pub(super) odds: Odds,
    pub(super) replies: Vec<(usize, Odds)>,
}

/// The one-ply baseline (see [`Strategy::Greedy`]).
pub(super) fn greedy(table: &Table<'_>, config: &BotConfig, rng: &mut Rng) -> Plan {
    let me = table.state.current_player;
    let mut lanes = Lanes::new(table, config.samples, 1, rng);
    let (hb0, hw0) = lanes.lines_all();
    let words = lanes.words;
    let (mut hb, mut hw) = (vec![0u64; words], vec![0u64; words]);
    let n = table.n;
    let mut cells: Vec<usize> = (0..n * n).filter(|&c| !lanes.occupied[c]).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.index(i + 1));
    }
    let own_neighbours = |cell: usize| {
        let (r0, c0) = (cell / n, cell % n);
        let mut count = 0u32;
        for r in r0.saturating_sub(1)..=(r0 + 1).min(n - 1) {
            for c in c0.saturating_sub(1)..=(c0 + 1).min(n - 1) {
                if table
                    .state
                    .stone_at(Position::new(r, c))
                    .is_some_and(|s| s.placed_by == me)
                {
                    count += 1;
                }
            }
        }
        count
    };
    let base = lanes.odds(&hb0, &hw0);
    let mut best = (f64::NEG_INFINITY, 0u32, cells.first().copied().unwrap_or(0));
    for &c in &cells {
        let odds = lanes.place_and_score(c, 0, (&hb0, &hw0, base), (&mut hb, &mut hw));
        lanes.remove(c);
        let (win, loss, _) = odds.outcome(me);
        let score = win - loss;
        let key = (score, own_neighbours(c));
        if key.0 > best.0 + 1e-12 || ((key.0 - best.0).abs() <= 1e-12 && key.1 > best.1) {
            best = (key.0, key.1, c);
        }
    }
    Plan {
        position: table.position(best.2),
        value: best.0,
        wait: 0.0,
        wait_after_miss: 0.0,
    }
}
