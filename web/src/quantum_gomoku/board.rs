//! The Quantum Gomoku board: a keyboard-navigable grid of cells with probability stones.

use std::rc::Rc;

use quantum_gomoku::{CellView, GameView, Player, Position};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::i18n::T;

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct BoardProps {
    pub view: Rc<GameView>,
    /// Whether the last observation is still the latest event (no stone since),
    /// so its collapsed colours are drawn on the stones.
    pub show_observation: bool,
    pub cursor: Position,
    /// The computer is to move: no cell takes a stone from here (the board says it is busy).
    #[prop_or_default]
    pub locked: bool,
    pub on_place: Callback<Position>,
    pub on_move_cursor: Callback<Position>,
    pub on_observe: Callback<()>,
}

/// The cursor after an arrow key, clamped to the board; `None` for other keys.
pub fn step(cursor: Position, key: &str, size: usize) -> Option<Position> {
    let last = size.saturating_sub(1);
    let (r, c) = (cursor.row.min(last), cursor.col.min(last));
    match key {
        "ArrowUp" => Some(Position::new(r.saturating_sub(1), c)),
        "ArrowDown" => Some(Position::new((r + 1).min(last), c)),
        "ArrowLeft" => Some(Position::new(r, c.saturating_sub(1))),
        "ArrowRight" => Some(Position::new(r, (c + 1).min(last))),
        _ => None,
    }
}

#[function_component(Board)]
pub fn board(props: &BoardProps) -> Html {
    let ctx = use_ctx();
    let board_ref = use_node_ref();
    let frame_ref = use_node_ref();
    let size = props.view.board_size;

    let on_keydown = {
        let board_ref = board_ref.clone();
        let cursor = props.cursor;
        let on_place = props.on_place.clone();
        let on_move_cursor = props.on_move_cursor.clone();
        let on_observe = props.on_observe.clone();
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if let Some(next) = step(cursor, &key, size) {
                e.prevent_default();
                on_move_cursor.emit(next);
                // Focus follows the cursor so screen readers announce the new cell.
                let selector = format!("[data-testid=\"cell-{}-{}\"]", next.row, next.col);
                if let Some(cell) = board_ref
                    .cast::<web_sys::Element>()
                    .and_then(|b| b.query_selector(&selector).ok().flatten())
                    .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    // A cell that cannot take focus only loses the announcement.
                    let _ = cell.focus();
                }
            } else if key == "Enter" || key == " " {
                // Handled here rather than by the button's own click, so the
                // cursor (not whichever cell has focus) decides, exactly once;
                // a held key does not place again.
                e.prevent_default();
                if !e.repeat() {
                    on_place.emit(cursor);
                }
            } else if key == "o" || key == "O" {
                e.prevent_default();
                on_observe.emit(());
            }
        })
    };

    // On a phone the board is wider than the screen and scrolls sideways in its frame:
    // it opens centred (or on the last stone of a resumed game), and each new stone,
    // the computer's too, is brought into view. The focused cell scrolls into view by
    // itself. On a wide screen the frame does not scroll and this does nothing.
    let last_stone = props
        .view
        .cells
        .iter()
        .flatten()
        .filter_map(|c| c.stone.as_ref().map(|s| (s.turn_placed, c.position)))
        .max_by_key(|(turn, _)| *turn)
        .map(|(_, p)| p);
    {
        let frame_ref = frame_ref.clone();
        use_effect_with((size, last_stone), move |(_, last)| {
            if let Some(frame) = frame_ref.cast::<web_sys::Element>() {
                reveal(&frame, *last);
            }
        });
    }

    let colours = props
        .view
        .last_observation
        .as_ref()
        .filter(|_| props.show_observation)
        .map(|o| &o.colours);

    let rows = props.view.cells.iter().enumerate().map(|(r, row)| {
        let cells = row.iter().enumerate().map(|(c, cell)| {
            let collapsed = colours
                .and_then(|grid| grid.get(r))
                .and_then(|row| row.get(c))
                .copied()
                .flatten();
            html! {
                <Cell
                    cell={cell.clone()}
                    {collapsed}
                    at_cursor={props.cursor == cell.position}
                    on_place={props.on_place.clone()}
                    on_move_cursor={props.on_move_cursor.clone()}
                />
            }
        });
        html! { <div role="row" class="qg-row">{ for cells }</div> }
    });

    html! {
        <div class="qg-board-frame" ref={frame_ref}>
            <div
                ref={board_ref}
                class="qg-board"
                aria-busy={props.locked.to_string()}
                data-testid="board"
                role="grid"
                aria-label={ctx.t(T::QgBoard)}
                style={format!("--qg-size: {size}")}
                onkeydown={on_keydown}
            >
                { for rows }
            </div>
        </div>
    }
}

/// Scrolls the board's frame sideways to show the cell at `last` (centred if it is out of
/// view), or to the board's centre when there is no stone yet.
fn reveal(frame: &web_sys::Element, last: Option<Position>) {
    let (width, view) = (frame.scroll_width(), frame.client_width());
    if width <= view {
        return;
    }
    let centre = |left: i32, w: i32| (left + w / 2 - view / 2).clamp(0, width - view);
    let Some(p) = last else {
        frame.set_scroll_left(centre(0, width));
        return;
    };
    let cell = frame
        .query_selector(&format!("[data-testid=\"cell-{}-{}\"]", p.row, p.col))
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(cell) = cell {
        // The frame is the cells' offset parent (position: relative in the CSS).
        let (left, w) = (cell.offset_left(), cell.offset_width());
        let shown = frame.scroll_left();
        if left < shown || left + w > shown + view {
            frame.set_scroll_left(centre(left, w));
        }
    }
}

#[derive(Properties, PartialEq, Clone, Debug)]
struct CellProps {
    cell: CellView,
    collapsed: Option<Player>,
    at_cursor: bool,
    on_place: Callback<Position>,
    on_move_cursor: Callback<Position>,
}

/// One cell. A component of its own, so that a move re-renders only the cells it changed
/// (the page keeps `on_place` and `on_move_cursor` the same from render to render).
#[function_component(Cell)]
fn cell(props: &CellProps) -> Html {
    let CellProps {
        cell,
        collapsed,
        at_cursor,
        on_place,
        on_move_cursor,
    } = props.clone();
    let position = cell.position;
    let onclick = Callback::from(move |_: MouseEvent| {
        on_move_cursor.emit(position);
        on_place.emit(position);
    });
    let stone = cell.stone.as_ref().map(|s| {
        let observed = s.observed_color;
        let class = classes!(
            "qg-stone",
            match observed {
                Some(Player::Black) => "observed-black",
                Some(Player::White) => "observed-white",
                None => match s.placed_by {
                    Player::Black => "unobserved-black",
                    Player::White => "unobserved-white",
                },
            },
            format!("p{}", s.data_prob),
            // The collapse of the latest observation, drawn as a ring while it is current.
            match (observed, collapsed) {
                (None, Some(Player::Black)) => Some("collapsed-black"),
                (None, Some(Player::White)) => Some("collapsed-white"),
                _ => None,
            },
        );
        let collapsed_attr = collapsed.map(|p| p.as_str());
        match &s.label {
            Some(label) => html! {
                <span class={class} data-testid="stone" data-prob={s.data_prob.to_string()}
                    data-collapsed={collapsed_attr} aria-label={s.aria_label.clone()}>
                    { label.clone() }
                </span>
            },
            // Observed stones show their colour only (no probability label).
            None => html! {
                <span class={class} data-testid="stone" data-prob={s.data_prob.to_string()}
                    data-observed={observed.map(|p| p.as_str())}
                    aria-label={observed.map_or("", |p| p.as_str()).to_owned()} />
            },
        }
    });
    let label = match &cell.stone {
        Some(s) => format!("{}, {}: {}", position.row, position.col, s.aria_label),
        None => format!("{}, {}", position.row, position.col),
    };
    html! {
        <button
            type="button"
            class={classes!(
                "qg-cell",
                at_cursor.then_some("cursor"),
                cell.in_winning_line.then_some("winning"),
            )}
            data-testid={cell.test_id.clone()}
            role="gridcell"
            aria-label={label}
            aria-selected={at_cursor.to_string()}
            aria-disabled={(!cell.playable).to_string()}
            tabindex={if at_cursor { "0" } else { "-1" }}
            onclick={onclick}
        >
            { for stone }
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_stay_on_the_board() {
        let corner = Position::new(0, 0);
        assert_eq!(step(corner, "ArrowUp", 15), Some(corner));
        assert_eq!(step(corner, "ArrowLeft", 15), Some(corner));
        assert_eq!(step(corner, "ArrowDown", 15), Some(Position::new(1, 0)));
        let far = Position::new(14, 14);
        assert_eq!(step(far, "ArrowRight", 15), Some(far));
        // A cursor left over from a bigger board is pulled back inside.
        assert_eq!(
            step(Position::new(18, 2), "ArrowUp", 15),
            Some(Position::new(13, 2))
        );
        assert_eq!(step(corner, "Enter", 15), None);
    }
}
