//! Display preferences kept in localStorage for every game: whether things move on screen
//! (off also when the system asks for reduced motion), and whether the duel asks before
//! ending a turn that still has actions left.

use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::storage;

/// The class on `<html>` that turns the page's motion off (see style.css).
const MOTION_OFF_CLASS: &str = "motion-off";

/// The player's motion setting (on unless turned off).
pub fn motion_setting() -> bool {
    storage::get(storage::KEY_MOTION).as_deref() != Some("off")
}

/// Whether the system asks for reduced motion (`prefers-reduced-motion: reduce`).
pub fn system_reduces_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Whether cards may move, LP count and messages slide: the setting and the system agree.
pub fn motion_enabled() -> bool {
    motion_setting() && !system_reduces_motion()
}

/// Keeps `<html class="motion-off">` in step with the setting, so CSS transitions and
/// animations stop too.
pub fn apply_motion_class() {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = root
        .class_list()
        .toggle_with_force(MOTION_OFF_CLASS, !motion_setting());
}

pub fn set_motion(on: bool) {
    storage::set(storage::KEY_MOTION, if on { "on" } else { "off" });
    apply_motion_class();
}

/// Whether ending a turn with actions left asks first (on unless turned off).
pub fn confirm_end_turn() -> bool {
    storage::get(storage::KEY_CONFIRM_END_TURN).as_deref() != Some("off")
}

pub fn set_confirm_end_turn(on: bool) {
    storage::set(storage::KEY_CONFIRM_END_TURN, if on { "on" } else { "off" });
}

/// A checkbox's change: flips the shown setting and stores it with `store`.
pub fn switch(setting: &UseStateHandle<bool>, store: fn(bool)) -> Callback<Event> {
    let setting = setting.clone();
    Callback::from(move |_: Event| {
        let next = !*setting;
        store(next);
        setting.set(next);
    })
}

/// The preferences as checkboxes (on the home page).
#[function_component(Preferences)]
pub fn preferences() -> Html {
    let ctx = use_ctx();
    let motion = use_state(motion_setting);
    let confirm = use_state(confirm_end_turn);
    let on_motion = switch(&motion, set_motion);
    let on_confirm = switch(&confirm, set_confirm_end_turn);
    html! {
        <section class="prefs" aria-labelledby="prefs-title">
            <h2 id="prefs-title">{ ctx.lang.pick("表示と操作の設定", "Display and controls") }</h2>
            <label class="setting">
                <input type="checkbox" data-testid="pref-motion" checked={*motion} onchange={on_motion} />
                { ctx.lang.pick(
                    " 動きを表示する（カードの移動、LPのカウント。OS の「視差効果を減らす」設定でも止まります）",
                    " Show motion (cards moving, LP counting; also off when the system asks for reduced motion)",
                ) }
            </label>
            <label class="setting">
                <input type="checkbox" data-testid="pref-confirm-end-turn" checked={*confirm} onchange={on_confirm} />
                { ctx.lang.pick(
                    " まだ行動できるときは、ターン終了の前に確認する",
                    " Ask before ending the turn while actions remain",
                ) }
            </label>
        </section>
    }
}
