//! The deck-file formats deck builders share, read into a [`DeckList`] and written from
//! one: `.ydk` text (`#main`, `#extra` and `!side` sections of passcodes, one per line)
//! and `ydke://` links (standard base64 of little-endian 32-bit passcodes for the main,
//! Extra and side decks, each section ended by `!`). A card is found by any passcode
//! it is known by ([`by_passcode`]); cards the simulator does not implement, and the
//! side deck, which a first-turn duel does not use, are listed apart, never dropped
//! silently.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Code, by_passcode};
use crate::deck_list::{DeckList, Part, extra_deck_card};

/// A section of a deck file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Section {
    Main,
    Extra,
    Side,
}

/// Cards of a deck file that the list does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    pub code: Code,
    pub copies: u8,
    pub section: Section,
    /// `true`: the simulator does not implement this card; `false`: it is in the side
    /// deck, which a first-turn duel does not use.
    pub unknown: bool,
}

/// A deck file read: the list of the cards the simulator can play, and what it left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    pub list: DeckList,
    pub left_out: Vec<LeftOut>,
}

/// Why a deck file could not be read at all (a file that reads but holds unknown cards
/// is not an error: see [`Imported::left_out`]).
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum DeckFileError {
    #[error("line {line} is neither a passcode nor a section header: {text:?}")]
    BadLine { line: usize, text: String },
    #[error("a passcode comes before any #main, #extra or !side line (line {0})")]
    NoSection(usize),
    #[error("the link does not start with ydke://")]
    NotYdke,
    #[error("the link's {0:?} section is not base64 of 4-byte passcodes")]
    BadBase64(Section),
    #[error("the link has {0} sections, not 3")]
    Sections(usize),
    #[error("the file holds no card")]
    Empty,
}

struct Reading {
    imported: Imported,
    cards: usize,
}

impl Reading {
    fn new() -> Reading {
        Reading {
            imported: Imported {
                list: DeckList::default(),
                left_out: Vec::new(),
            },
            cards: 0,
        }
    }

    fn card(&mut self, section: Section, code: Code) {
        self.cards += 1;
        let known = by_passcode(code);
        let (code, unknown) = match known {
            Some(def) => (def.code, false),
            None => (code, true),
        };
        match (section, known) {
            (Section::Main | Section::Extra, Some(def)) => {
                // A card goes where it belongs, whichever section named it; the list's
                // problems would otherwise call the file's mistake ours.
                let part = if extra_deck_card(def) {
                    Part::Extra
                } else {
                    Part::Main
                };
                self.imported.list.put(part, code);
            }
            _ => {
                let left = &mut self.imported.left_out;
                match left
                    .iter_mut()
                    .find(|l| l.code == code && l.section == section)
                {
                    Some(l) => l.copies = l.copies.saturating_add(1),
                    None => left.push(LeftOut {
                        code,
                        copies: 1,
                        section,
                        unknown,
                    }),
                }
            }
        }
    }

    fn finish(self) -> Result<Imported, DeckFileError> {
        if self.cards == 0 {
            return Err(DeckFileError::Empty);
        }
        Ok(self.imported)
    }
}

/// Reads `.ydk` text. Lines starting with `#` other than `#main` and `#extra` are
/// comments (`#created by ...`); blank lines are skipped; a passcode may carry leading
/// zeros or trailing spaces.
pub fn read_ydk(text: &str) -> Result<Imported, DeckFileError> {
    let mut reading = Reading::new();
    let mut section = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        let number = i + 1;
        match line {
            "" => {}
            "#main" => section = Some(Section::Main),
            "#extra" => section = Some(Section::Extra),
            "!side" => section = Some(Section::Side),
            _ if line.starts_with('#') => {}
            _ => {
                let code = line.parse::<Code>().map_err(|_| DeckFileError::BadLine {
                    line: number,
                    text: line.chars().take(40).collect(),
                })?;
                let s = section.ok_or(DeckFileError::NoSection(number))?;
                reading.card(s, code);
            }
        }
    }
    reading.finish()
}

/// Writes `list` as `.ydk` text (an empty side deck).
pub fn write_ydk(list: &DeckList) -> String {
    let mut out = String::from("#created by the first-turn-kill simulator\n#main\n");
    for code in list.main_codes() {
        out.push_str(&format!("{code}\n"));
    }
    out.push_str("#extra\n");
    for code in list.extra_codes() {
        out.push_str(&format!("{code}\n"));
    }
    out.push_str("!side\n");
    out
}

const YDKE: &str = "ydke://";

/// Reads a `ydke://` link (surrounding spaces ignored).
pub fn read_ydke(link: &str) -> Result<Imported, DeckFileError> {
    let body = link
        .trim()
        .strip_prefix(YDKE)
        .ok_or(DeckFileError::NotYdke)?;
    let parts: Vec<&str> = body.split('!').collect();
    // Three sections, each ended by '!': the last piece is what follows the last '!'.
    if parts.len() != 4 || !parts[3].is_empty() {
        return Err(DeckFileError::Sections(parts.len().saturating_sub(1)));
    }
    let mut reading = Reading::new();
    for (text, section) in parts
        .iter()
        .zip([Section::Main, Section::Extra, Section::Side])
    {
        let bytes = crate::replay::from_base64(text)
            .filter(|b| b.len().is_multiple_of(4))
            .ok_or(DeckFileError::BadBase64(section))?;
        for word in bytes.chunks_exact(4) {
            reading.card(
                section,
                u32::from_le_bytes([word[0], word[1], word[2], word[3]]),
            );
        }
    }
    reading.finish()
}

/// Writes `list` as a `ydke://` link (an empty side deck).
pub fn write_ydke(list: &DeckList) -> String {
    let words = |codes: Vec<Code>| -> String {
        let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        crate::replay::to_base64(&bytes)
    };
    format!(
        "{YDKE}{}!{}!!",
        words(list.main_codes()),
        words(list.extra_codes())
    )
}

/// Reads a deck file's text, whichever of the two formats it is in.
pub fn read(text: &str) -> Result<Imported, DeckFileError> {
    if text.trim_start().starts_with(YDKE) {
        read_ydke(text)
    } else {
        read_ydk(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::decks;

    #[test]
    fn every_preset_deck_round_trips_through_ydk_and_ydke() {
        for d in decks() {
            let list = DeckList::from(d);
            let ydk = read_ydk(&write_ydk(&list)).expect("reads");
            assert_eq!(ydk.list, list, "{}", d.id);
            assert!(ydk.left_out.is_empty());
            let ydke = read_ydke(&write_ydke(&list)).expect("reads");
            assert_eq!(ydke.list, list, "{}", d.id);
            assert_eq!(read(&write_ydke(&list)).expect("reads").list, list);
        }
    }

    #[test]
    fn unknown_and_side_cards_are_listed_apart_and_alternate_passcodes_map_to_the_card() {
        let text = "#created by someone\n#main\n83764718\n55144522\n55144522\n12345678\n\
                    #extra\n99999999\n!side\n55144522\n";
        let got = read_ydk(text).expect("reads");
        // Monster Reborn by its other passcode.
        assert_eq!(got.list.main, vec![(83_764_719, 1), (55_144_522, 2)]);
        assert_eq!(
            got.left_out,
            vec![
                LeftOut {
                    code: 12_345_678,
                    copies: 1,
                    section: Section::Main,
                    unknown: true
                },
                LeftOut {
                    code: 99_999_999,
                    copies: 1,
                    section: Section::Extra,
                    unknown: true
                },
                LeftOut {
                    code: 55_144_522,
                    copies: 1,
                    section: Section::Side,
                    unknown: false
                },
            ]
        );
    }

    #[test]
    fn a_ydke_link_from_another_client_reads() {
        // Main: Pot of Greed twice and an unknown card; Extra: Aqua Dragon; side: none.
        let main: Vec<u8> = [55_144_522u32, 55_144_522, 7]
            .iter()
            .flat_map(|c| c.to_le_bytes())
            .collect();
        let extra = 86_164_529u32.to_le_bytes();
        let link = format!(
            " ydke://{}!{}!! ",
            crate::replay::to_base64(&main),
            crate::replay::to_base64(&extra)
        );
        let got = read(&link).expect("reads");
        assert_eq!(got.list.main, vec![(55_144_522, 2)]);
        assert_eq!(got.list.extra, vec![(86_164_529, 1)]);
        assert_eq!(got.left_out.len(), 1);
        assert!(got.left_out[0].unknown);
    }

    #[test]
    fn a_card_in_the_wrong_section_goes_where_it_belongs() {
        let got = read_ydk("#main\n86164529\n#extra\n55144522\n").expect("reads");
        assert_eq!(got.list.main, vec![(55_144_522, 1)]);
        assert_eq!(got.list.extra, vec![(86_164_529, 1)]);
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        assert_eq!(
            read_ydk("#main\n5514x522\n"),
            Err(DeckFileError::BadLine {
                line: 2,
                text: "5514x522".into()
            })
        );
        assert_eq!(read_ydk("55144522\n"), Err(DeckFileError::NoSection(1)));
        assert_eq!(read_ydk("#main\n#extra\n"), Err(DeckFileError::Empty));
        assert_eq!(read_ydke("ydk://a!b!c!"), Err(DeckFileError::NotYdke));
        assert_eq!(read_ydke("ydke://!!"), Err(DeckFileError::Sections(2)));
        assert_eq!(
            read_ydke("ydke://abc!!!"),
            Err(DeckFileError::BadBase64(Section::Main))
        );
        // Base64 of 3 bytes: not a whole passcode.
        assert_eq!(
            read_ydke("ydke://AAAA!!!"),
            Err(DeckFileError::BadBase64(Section::Main))
        );
        assert_eq!(read_ydke("ydke://!!!"), Err(DeckFileError::Empty));
    }
}
