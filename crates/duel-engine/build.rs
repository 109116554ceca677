//! Compiles `data/cards.json` and `data/decks.json` into the crate as Rust values.
//!
//! The files are read with the crate's own types (the modules below are its sources),
//! so they are checked exactly as the crate defines them: an unknown field or a bad
//! value fails the build with serde's message. The values are written out with
//! databake and included by `src/data.rs`.

// The modules are compiled here for their data types only.
#![allow(dead_code)]

use std::error::Error;
use std::path::Path;
use std::{env, fs};

use databake::{Bake, CrateEnv};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

#[path = "src/card.rs"]
mod card;
#[path = "src/deck.rs"]
mod deck;
#[path = "src/effect.rs"]
mod effect;

/// Stand-ins for the items of the crate that the data modules name besides each other.
/// `Position` must match `state::Position` (a card naming a position the crate lacks
/// would not compile); the loaders are never called here.
mod state {
    use databake::Bake;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Bake)]
    #[databake(path = crate::state)]
    #[serde(rename_all = "snake_case")]
    pub enum Position {
        Attack,
        Defense,
    }
}

mod data {
    use crate::card::CardDef;
    use crate::deck::DeckFile;

    static EMPTY: DeckFile = DeckFile {
        opponent_deck: Vec::new(),
        decks: Vec::new(),
    };

    pub(crate) fn catalog() -> &'static [CardDef] {
        &[]
    }

    pub(crate) fn decks() -> &'static DeckFile {
        &EMPTY
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Lang {
    Ja,
    En,
}

fn main() -> Result<(), Box<dyn Error>> {
    for path in [
        "data/cards.json",
        "data/decks.json",
        "src/card.rs",
        "src/deck.rs",
        "src/effect.rs",
    ] {
        println!("cargo::rerun-if-changed={path}");
    }
    let dir = env::var("CARGO_MANIFEST_DIR")?;
    let out = env::var("OUT_DIR")?;
    let read = |name: &str| fs::read_to_string(Path::new(&dir).join(name));

    let mut cards = card::parse_catalog(&read("data/cards.json")?)
        .map_err(|e| format!("data/cards.json: {e}"))?;
    // `card::card` looks passcodes up by binary search.
    cards.sort_by_key(|c| c.code);
    let decks = deck::parse_decks(&read("data/decks.json")?)
        .map_err(|e| format!("data/decks.json: {e}"))?;

    let bake_env = CrateEnv::default();
    fs::write(
        Path::new(&out).join("cards.rs"),
        rust_value(&cards, &bake_env)?,
    )?;
    fs::write(
        Path::new(&out).join("decks.rs"),
        rust_value(&decks, &bake_env)?,
    )?;
    Ok(())
}

/// The value as a Rust expression whose parts without heap data are `const` blocks.
fn rust_value(value: &impl Bake, bake_env: &CrateEnv) -> syn::Result<String> {
    let mut expr: Expr = syn::parse2(value.bake(bake_env))?;
    constify(&mut expr)?;
    Ok(expr.to_token_stream().to_string())
}

/// Wraps each largest part of `expr` that could be a constant (no `String` or
/// non-empty `Vec` inside) in `const { .. }`, and says whether all of `expr` could be.
///
/// Built field by field, a step or a filter takes one store instruction per field in
/// the wasm; as a constant it is one copy from the data section. This halves what the
/// card data costs the browser bundle.
fn constify(expr: &mut Expr) -> syn::Result<bool> {
    let parts: Vec<&mut Expr> = match expr {
        Expr::Lit(_) | Expr::Path(_) => return Ok(true),
        Expr::Unary(e) => return constify(&mut e.expr),
        Expr::Struct(e) => e.fields.iter_mut().map(|f| &mut f.expr).collect(),
        Expr::Call(e) => e.args.iter_mut().collect(),
        Expr::Tuple(e) => e.elems.iter_mut().collect(),
        // `alloc::vec![..]`: only an empty one is a constant (`Vec::new()`).
        Expr::Macro(e) => {
            let mut elems = e
                .mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)?;
            if elems.is_empty() {
                return Ok(true);
            }
            let mut all = true;
            let mut consts = Vec::with_capacity(elems.len());
            for elem in elems.iter_mut() {
                let is_const = constify(elem)?;
                all &= is_const;
                consts.push(is_const);
            }
            if all {
                // One copy of a constant slice instead of building each element.
                *expr = syn::parse_quote!(<[_]>::to_vec(const { &[#elems] }));
                return Ok(false);
            }
            for (elem, is_const) in elems.iter_mut().zip(consts) {
                if is_const {
                    wrap_const(elem);
                }
            }
            e.mac.tokens = elems.to_token_stream();
            return Ok(false);
        }
        // `"..".to_owned()` and anything else.
        _ => return Ok(false),
    };
    let mut consts = Vec::with_capacity(parts.len());
    for part in parts {
        let is_const = constify(part)?;
        consts.push((part, is_const));
    }
    if consts.iter().all(|(_, is_const)| *is_const) {
        // The caller wraps the largest constant part.
        return Ok(true);
    }
    for (part, is_const) in consts {
        if is_const {
            wrap_const(part);
        }
    }
    Ok(false)
}

/// Wraps a constant part in `const { .. }` when it is worth it (a struct or a variant
/// with fields; plain numbers and unit variants are single instructions already).
fn wrap_const(expr: &mut Expr) {
    if matches!(expr, Expr::Struct(_) | Expr::Call(_) | Expr::Tuple(_)) {
        *expr = syn::parse_quote!(const { #expr });
    }
}
