//! Fixed-size bitboards and line detection, the hot path of observations and sampling.
//!
//! Cell `(row, col)` is bit `row * stride + col` with `stride = size + 1`: the
//! extra, always-empty column stops horizontal and diagonal runs from wrapping
//! onto the next row, so a run of `n` in direction `d` is found with `n - 1`
//! shifts and ANDs and no masking.

use crate::options::MAX_BOARD_SIZE;

/// Words needed for the largest board with its padding column.
const WORDS: usize = (MAX_BOARD_SIZE * (MAX_BOARD_SIZE + 1)).div_ceil(64);

/// A set of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Bits(pub(crate) [u64; WORDS]);

impl Bits {
    /// Adds bit `index`.
    #[inline]
    pub(crate) fn set(&mut self, index: usize) {
        self.0[index >> 6] |= 1u64 << (index & 63);
    }

    /// Adds bit `index` when `on`, without a branch (for sampling loops).
    #[inline]
    pub(crate) fn set_if(&mut self, index: usize, on: bool) {
        self.0[index >> 6] |= u64::from(on) << (index & 63);
    }

    /// Whether any bit is set.
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.0.iter().any(|&w| w != 0)
    }

    /// `self & !other`, word by word.
    #[inline]
    pub(crate) fn and_not(&self, other: &Bits) -> Bits {
        let mut out = Bits::default();
        for i in 0..WORDS {
            out.0[i] = self.0[i] & !other.0[i];
        }
        out
    }

    /// `self | other`.
    #[inline]
    pub(crate) fn or(&self, other: &Bits) -> Bits {
        let mut out = Bits::default();
        for i in 0..WORDS {
            out.0[i] = self.0[i] | other.0[i];
        }
        out
    }
}

/// The layout of one board size and win length: which shifts make a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Geometry {
    stride: usize,
    words: usize,
    win_length: usize,
}

impl Geometry {
    /// The layout for a validated board size and win length.
    pub(crate) fn new(size: usize, win_length: usize) -> Geometry {
        let stride = size + 1;
        Geometry {
            stride,
            words: (size * stride).div_ceil(64).min(WORDS),
            win_length,
        }
    }

    /// The bit of a cell.
    #[inline]
    pub(crate) fn index(&self, row: usize, col: usize) -> usize {
        row * self.stride + col
    }

    /// `b >> shift` over the words in use.
    #[inline]
    fn shr(&self, b: &Bits, shift: usize) -> Bits {
        let mut out = Bits::default();
        let word_shift = shift >> 6;
        let bit_shift = shift & 63;
        for i in 0..self.words {
            let src = i + word_shift;
            if src >= self.words {
                break;
            }
            let mut w = b.0[src] >> bit_shift;
            if bit_shift != 0 && src + 1 < self.words {
                w |= b.0[src + 1] << (64 - bit_shift);
            }
            out.0[i] = w;
        }
        out
    }

    /// `b << shift` over the words in use.
    fn shl(&self, b: &Bits, shift: usize) -> Bits {
        let mut out = Bits::default();
        let word_shift = shift >> 6;
        let bit_shift = shift & 63;
        for i in word_shift..self.words {
            let src = i - word_shift;
            let mut w = b.0[src] << bit_shift;
            if bit_shift != 0 && src > 0 {
                w |= b.0[src - 1] >> (64 - bit_shift);
            }
            out.0[i] = w;
        }
        out
    }

    /// The four line directions as bit steps.
    #[inline]
    fn steps(&self) -> [usize; 4] {
        [1, self.stride, self.stride + 1, self.stride - 1]
    }

    /// The cells of `b` that start a run of `win_length` along `step`.
    #[inline]
    fn run_starts(&self, b: &Bits, step: usize) -> Bits {
        // `m` keeps the cells that start a run of `run` so far; doubling the
        // run length each round needs only log2(n) shifts.
        let mut m = *b;
        let mut run = 1;
        while run < self.win_length {
            let add = run.min(self.win_length - run);
            let shifted = self.shr(&m, add * step);
            for i in 0..self.words {
                m.0[i] &= shifted.0[i];
            }
            run += add;
        }
        m
    }

    /// Whether `b` holds `win_length` or more cells in a row in any of the four
    /// directions (horizontal, vertical, both diagonals).
    #[inline]
    pub(crate) fn has_line(&self, b: &Bits) -> bool {
        if !b.any() {
            return false;
        }
        self.steps().into_iter().any(|step| {
            self.run_starts(b, step).0[..self.words]
                .iter()
                .any(|&w| w != 0)
        })
    }

    /// The cells of `b` that lie on some run of `win_length` cells of `b`.
    /// A one-colour line is a run of occupied cells, so stones outside this
    /// set cannot affect whether anyone has a line.
    pub(crate) fn on_runs(&self, b: &Bits) -> Bits {
        let mut cover = Bits::default();
        for step in self.steps() {
            let starts = self.run_starts(b, step);
            cover = cover.or(&starts);
            for k in 1..self.win_length {
                cover = cover.or(&self.shl(&starts, k * step));
            }
        }
        cover
    }

    /// Whether bit `index` is set in `b`.
    #[inline]
    pub(crate) fn contains(b: &Bits, index: usize) -> bool {
        b.0.get(index >> 6)
            .is_some_and(|w| w & (1u64 << (index & 63)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(g: &Geometry, cells: &[(usize, usize)]) -> Bits {
        let mut b = Bits::default();
        for &(r, c) in cells {
            b.set(g.index(r, c));
        }
        b
    }

    #[test]
    fn finds_lines_in_all_four_directions() {
        let g = Geometry::new(15, 3);
        assert!(g.has_line(&bits(&g, &[(0, 0), (0, 1), (0, 2)])));
        assert!(g.has_line(&bits(&g, &[(12, 14), (13, 14), (14, 14)])));
        assert!(g.has_line(&bits(&g, &[(3, 3), (4, 4), (5, 5)])));
        assert!(g.has_line(&bits(&g, &[(3, 5), (4, 4), (5, 3)])));
    }

    #[test]
    fn does_not_wrap_around_edges() {
        let g = Geometry::new(15, 3);
        assert!(!g.has_line(&bits(&g, &[(0, 13), (0, 14), (1, 0)])));
        assert!(!g.has_line(&bits(&g, &[(0, 1), (1, 0), (1, 14)])));
        assert!(!g.has_line(&bits(&g, &[(0, 14), (1, 0), (2, 1)])));
        assert!(!g.has_line(&bits(&g, &[(0, 0), (0, 1), (0, 3)])));
        assert!(!g.has_line(&Bits::default()));
    }

    #[test]
    fn on_runs_keeps_only_stones_that_can_be_in_a_line() {
        let g = Geometry::new(15, 3);
        let b = bits(
            &g,
            &[
                (0, 0),
                (0, 1),
                (0, 2),
                (5, 5),
                (7, 7),
                (7, 8),
                (14, 13),
                (14, 14),
                (13, 14),
            ],
        );
        let want = bits(&g, &[(0, 0), (0, 1), (0, 2)]);
        assert_eq!(g.on_runs(&b), want);
        let diag = bits(&g, &[(12, 2), (13, 1), (14, 0)]);
        assert_eq!(g.on_runs(&diag), diag);
    }

    #[test]
    fn respects_win_length_and_large_boards() {
        let g = Geometry::new(19, 5);
        let four: Vec<_> = (0..4).map(|i| (18, 15 + i)).collect();
        assert!(!g.has_line(&bits(&g, &four)));
        let five: Vec<_> = (0..5).map(|i| (14 + i, 18 - i)).collect();
        assert!(g.has_line(&bits(&g, &five)));
        let g7 = Geometry::new(19, 7);
        let seven: Vec<_> = (0..7).map(|i| (i, 18)).collect();
        assert!(g7.has_line(&bits(&g7, &seven)));
        assert!(!g7.has_line(&bits(&g7, &seven[..6])));
    }
}
