//! The board in shared random collapses (64 a machine word) and an observation's odds in them.

use crate::model::{Player, ProbabilityType};
use seeded_rng::Rng;

use super::search::{MAX_DEPTH, NONE};
use super::table::{Table, Windows};
use super::{MAX_SAMPLES, MAX_WORDS};

/// Chances of the outcomes of an observation in the shared collapses.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Odds {
    pub(super) black: f64,
    pub(super) white: f64,
    pub(super) both: f64,
}

impl Odds {
    pub(super) fn own(&self, p: Player) -> f64 {
        match p {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// (win, loss, neither) if `observer` observed now.
    pub(super) fn outcome(&self, observer: Player) -> (f64, f64, f64) {
        let win = self.own(observer);
        let loss = self.own(observer.opponent()) - self.both;
        (win, loss, (1.0 - win - loss).max(0.0))
    }

    /// How much better `p`'s line chances are than the opponent's.
    pub(super) fn edge(&self, p: Player) -> f64 {
        self.own(p) - self.own(p.opponent())
    }
}

/// The board in shared random collapses: for each cell, the lanes where it is
/// black and where it is white (both empty for an empty cell).
#[derive(Debug)]
pub(super) struct Lanes {
    pub(super) words: usize,
    pub(super) occupied: Vec<bool>,
    pub(super) black: Vec<u64>,
    pub(super) white: Vec<u64>,
    /// Per placement of the search (0: the current player's next stone, 1:
    /// the reply, ...), where a stone of that placement's type would be black
    /// on each empty cell.
    pub(super) black_if: Vec<Vec<u64>>,
    pub(super) windows: Windows,
}

/// `P(black) * 2^16`: a uniform 16-bit draw below it means black. Sixteen
/// bits are plenty (0.9 becomes 0.899994) and give four draws per `u64`.
pub(super) fn threshold(t: ProbabilityType) -> u32 {
    (t.black_probability() * 65_536.0).round() as u32
}

impl Lanes {
    pub(super) fn new(table: &Table<'_>, samples: u32, depth: usize, rng: &mut Rng) -> Lanes {
        let depth = depth.clamp(1, MAX_DEPTH);
        let words = (samples.clamp(64, MAX_SAMPLES) as usize).div_ceil(64);
        let cells = table.n * table.n;
        let mut lanes = Lanes {
            words,
            occupied: vec![false; cells],
            black: vec![0; cells * words],
            white: vec![0; cells * words],
            black_if: vec![vec![0; cells * words]; depth],
            windows: Windows::new(table.n, table.win_length),
        };
        // The thresholds repeat every four placements (each player alternates
        // two types), so `depth` entries cover every placement searched.
        let plies: Vec<u32> = (0..depth as u32)
            .map(|k| threshold(table.type_ahead(k)))
            .collect();
        for cell in 0..cells {
            let stone = table
                .state
                .stone_at(table.position(cell))
                .map(|s| threshold(s.probability_type));
            lanes.occupied[cell] = stone.is_some();
            for word in 0..words {
                let mut bits = [0u64; MAX_DEPTH + 1];
                for quad in 0..16 {
                    let r = rng.next_u64();
                    for part in 0..4 {
                        let u = ((r >> (16 * part)) & 0xFFFF) as u32;
                        let bit = 1u64 << (quad * 4 + part);
                        if let Some(t) = stone {
                            bits[0] |= if u < t { bit } else { 0 };
                        } else {
                            for (k, &t) in plies.iter().enumerate() {
                                bits[k + 1] |= if u < t { bit } else { 0 };
                            }
                        }
                    }
                }
                let i = cell * words + word;
                if stone.is_some() {
                    lanes.black[i] = bits[0];
                    lanes.white[i] = !bits[0];
                } else {
                    for (k, plane) in lanes.black_if.iter_mut().enumerate() {
                        plane[i] = bits[k + 1];
                    }
                }
            }
        }
        lanes
    }

    pub(super) fn place(&mut self, cell: usize, ply: usize) {
        let w = self.words;
        self.occupied[cell] = true;
        for i in cell * w..(cell + 1) * w {
            let b = self.black_if[ply][i];
            self.black[i] = b;
            self.white[i] = !b;
        }
    }

    pub(super) fn remove(&mut self, cell: usize) {
        let w = self.words;
        self.occupied[cell] = false;
        self.black[cell * w..(cell + 1) * w].fill(0);
        self.white[cell * w..(cell + 1) * w].fill(0);
    }

    /// ORs into `hb`/`hw` the lanes where a black/white line runs through
    /// `cell`; false when no window through it is fully occupied (nothing
    /// changed).
    pub(super) fn lines_through(&self, cell: usize, hb: &mut [u64], hw: &mut [u64]) -> bool {
        let w = self.words;
        let k = self.windows.others;
        let mut ab = [0u64; MAX_WORDS];
        let mut aw = [0u64; MAX_WORDS];
        let (ab, aw) = (&mut ab[..w], &mut aw[..w]);
        let mut any = false;
        for window in self.windows.through[cell].chunks_exact(k) {
            if !window.iter().all(|&o| self.occupied[usize::from(o)]) {
                continue;
            }
            any = true;
            ab.copy_from_slice(&self.black[cell * w..(cell + 1) * w]);
            aw.copy_from_slice(&self.white[cell * w..(cell + 1) * w]);
            self.or_line(window, ab, aw, hb, hw);
        }
        any
    }

    /// ANDs the masks of `window`'s cells into `ab`/`aw` (which hold the rest of the
    /// line) and ORs the lanes where the whole line is black/white into `hb`/`hw`.
    #[inline]
    pub(super) fn or_line(
        &self,
        window: &[u16],
        ab: &mut [u64],
        aw: &mut [u64],
        hb: &mut [u64],
        hw: &mut [u64],
    ) {
        let w = self.words;
        for &o in window {
            let o = usize::from(o) * w;
            for i in 0..w {
                ab[i] &= self.black[o + i];
                aw[i] &= self.white[o + i];
            }
        }
        for i in 0..w {
            hb[i] |= ab[i];
            hw[i] |= aw[i];
        }
    }

    /// The lanes where a black/white line exists anywhere.
    pub(super) fn lines_all(&self) -> (Vec<u64>, Vec<u64>) {
        let w = self.words;
        let mut hb = vec![0u64; w];
        let mut hw = vec![0u64; w];
        let mut ab = vec![0u64; w];
        let mut aw = vec![0u64; w];
        for window in self.windows.all.chunks_exact(self.windows.others + 1) {
            if !window.iter().all(|&o| self.occupied[usize::from(o)]) {
                continue;
            }
            ab.fill(!0);
            aw.fill(!0);
            self.or_line(window, &mut ab, &mut aw, &mut hb, &mut hw);
        }
        (hb, hw)
    }

    pub(super) fn odds(&self, hb: &[u64], hw: &[u64]) -> Odds {
        let (mut b, mut wh, mut both) = (0u32, 0u32, 0u32);
        for (x, y) in hb.iter().zip(hw) {
            b += x.count_ones();
            wh += y.count_ones();
            both += (x & y).count_ones();
        }
        let total = (self.words * 64) as f64;
        Odds {
            black: f64::from(b) / total,
            white: f64::from(wh) / total,
            both: f64::from(both) / total,
        }
    }

    /// The empty cells that would complete a window whose other cells are all
    /// occupied: the only placements that can change the chances at once.
    pub(super) fn completions_all(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut seen = vec![false; self.occupied.len()];
        for window in self.windows.all.chunks_exact(self.windows.others + 1) {
            let mut empty = window.iter().filter(|&&x| !self.occupied[usize::from(x)]);
            if let (Some(&e), None) = (empty.next(), empty.next()) {
                let e = usize::from(e);
                if !seen[e] {
                    seen[e] = true;
                    out.push(e);
                }
            }
        }
        out
    }

    /// [`Lanes::completions_all`] after stones were placed on `placed` (NONE
    /// is skipped), given the completions before them: those still empty, and
    /// the windows through the new stones. Marks `stamp` with `generation`.
    pub(super) fn completions(
        &self,
        before: &[usize],
        placed: &[usize],
        out: &mut Vec<usize>,
        stamp: &mut [u32],
        generation: u32,
    ) {
        out.clear();
        for &e in before {
            if !self.occupied[e] && stamp[e] != generation {
                stamp[e] = generation;
                out.push(e);
            }
        }
        for &x in placed.iter().filter(|&&x| x != NONE) {
            for window in self.windows.through[x].chunks_exact(self.windows.others) {
                let mut empty = window.iter().filter(|&&y| !self.occupied[usize::from(y)]);
                if let (Some(&e), None) = (empty.next(), empty.next()) {
                    let e = usize::from(e);
                    if stamp[e] != generation {
                        stamp[e] = generation;
                        out.push(e);
                    }
                }
            }
        }
    }

    /// Places `cell` for `ply` and leaves the stone on the board; writes the
    /// lines of `base` plus those through `cell` to `out` and returns their
    /// odds (`base_odds` when the stone completes no window).
    pub(super) fn place_and_score(
        &mut self,
        cell: usize,
        ply: usize,
        base: (&[u64], &[u64], Odds),
        out: (&mut [u64], &mut [u64]),
    ) -> Odds {
        self.place(cell, ply);
        out.0.copy_from_slice(base.0);
        out.1.copy_from_slice(base.1);
        if self.lines_through(cell, out.0, out.1) {
            self.odds(out.0, out.1)
        } else {
            base.2
        }
    }
}
