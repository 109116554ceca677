//! The player's commands: the only way to change a duel.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::state::CardId;

/// Something the player does. Illegal commands are refused with a [`crate::RuleError`]
/// and change nothing.
// `Deserialize` is written by hand below: the derived one for an internally tagged enum
// buffers its input, which cost the browser bundle about 4.5 KB gzip.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "cmd")]
pub enum Command {
    /// Normal Summon a monster from the hand in face-up Attack Position.
    SummonMonster { card: CardId },
    /// Normal Set a monster from the hand in face-down Defense Position.
    SetMonster { card: CardId },
    /// Set a spell or trap from the hand face-down (field spells to the field zone).
    SetSpellTrap { card: CardId },
    /// Activate a spell or trap card, from the hand or face-down on the field.
    ActivateSpell { card: CardId },
    /// Activate the ignition effect of a face-up card you control.
    ActivateEffect { card: CardId },
    /// Synchro Summon a monster from your Extra Deck (the materials are chosen next).
    SynchroSummon { card: CardId },
    /// Decline to chain: the chain starts resolving.
    PassChain,
    /// Move on to the next phase (Draw -> Standby -> Main 1 -> End). The duel starts in
    /// Main Phase 1, so in play this is the same as `EndTurn`.
    AdvancePhase,
    /// Go to the End Phase and end the turn.
    EndTurn,
    /// Answer the pending prompt.
    Respond(Response),
}

impl Command {
    /// The same command with every card it names renamed by `f`.
    pub fn map_cards(&self, f: impl Fn(CardId) -> CardId) -> Command {
        match self {
            Command::SummonMonster { card } => Command::SummonMonster { card: f(*card) },
            Command::SetMonster { card } => Command::SetMonster { card: f(*card) },
            Command::SetSpellTrap { card } => Command::SetSpellTrap { card: f(*card) },
            Command::ActivateSpell { card } => Command::ActivateSpell { card: f(*card) },
            Command::ActivateEffect { card } => Command::ActivateEffect { card: f(*card) },
            Command::SynchroSummon { card } => Command::SynchroSummon { card: f(*card) },
            Command::Respond(Response::Cards(cards)) => {
                Command::Respond(Response::Cards(cards.iter().map(|&c| f(c)).collect()))
            }
            other => other.clone(),
        }
    }

    /// The card a card command names (not the cards of an answer).
    pub(crate) fn card(&self) -> Option<CardId> {
        match *self {
            Command::SummonMonster { card }
            | Command::SetMonster { card }
            | Command::SetSpellTrap { card }
            | Command::ActivateSpell { card }
            | Command::ActivateEffect { card }
            | Command::SynchroSummon { card } => Some(card),
            _ => None,
        }
    }
}

/// An answer to a prompt.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "answer", content = "value")]
pub enum Response {
    /// The chosen cards of a card selection.
    Cards(Vec<CardId>),
    /// The chosen option (an index among the prompt's options).
    Option(u8),
}

/// What the `value` of a response holds (the `answer` says which it must be).
enum ResponseValue {
    Cards(Vec<CardId>),
    Option(u8),
}

impl<'de> Deserialize<'de> for ResponseValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResponseValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of card ids or an option number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ResponseValue, E> {
                u8::try_from(v)
                    .map(ResponseValue::Option)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ResponseValue, A::Error> {
                let mut cards = Vec::new();
                while let Some(card) = seq.next_element()? {
                    cards.push(card);
                }
                Ok(ResponseValue::Cards(cards))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads what the derived `Serialize` writes (`{"cmd": "activate_spell", "card": 3}`,
/// `{"cmd": "respond", "answer": "cards", "value": [1, 2]}`), keys in any order;
/// a key the command does not take is refused.
impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Command;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a command object with a \"cmd\" key")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Command, M::Error> {
                const KEYS: &[&str] = &["cmd", "card", "answer", "value"];
                let mut cmd: Option<String> = None;
                let mut card: Option<CardId> = None;
                let mut answer: Option<String> = None;
                let mut value: Option<ResponseValue> = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "cmd" => cmd = Some(map.next_value()?),
                        "card" => card = Some(map.next_value()?),
                        "answer" => answer = Some(map.next_value()?),
                        "value" => value = Some(map.next_value()?),
                        other => return Err(de::Error::unknown_field(other, KEYS)),
                    }
                }
                let cmd = cmd.ok_or_else(|| de::Error::missing_field("cmd"))?;
                let with_card = |make: fn(CardId) -> Command| match (card, &answer, &value) {
                    (Some(card), None, None) => Ok(make(card)),
                    (None, _, _) => Err(de::Error::missing_field("card")),
                    _ => Err(de::Error::custom("a card command takes only \"card\"")),
                };
                let unit = |command: Command| match (card, &answer, &value) {
                    (None, None, None) => Ok(command),
                    _ => Err(de::Error::custom(format!("\"{cmd}\" takes no other key"))),
                };
                match cmd.as_str() {
                    "summon_monster" => with_card(|card| Command::SummonMonster { card }),
                    "set_monster" => with_card(|card| Command::SetMonster { card }),
                    "set_spell_trap" => with_card(|card| Command::SetSpellTrap { card }),
                    "activate_spell" => with_card(|card| Command::ActivateSpell { card }),
                    "activate_effect" => with_card(|card| Command::ActivateEffect { card }),
                    "synchro_summon" => with_card(|card| Command::SynchroSummon { card }),
                    "pass_chain" => unit(Command::PassChain),
                    "advance_phase" => unit(Command::AdvancePhase),
                    "end_turn" => unit(Command::EndTurn),
                    "respond" => {
                        if card.is_some() {
                            return Err(de::Error::custom("\"respond\" takes no \"card\""));
                        }
                        let answer = answer.ok_or_else(|| de::Error::missing_field("answer"))?;
                        let value = value.ok_or_else(|| de::Error::missing_field("value"))?;
                        match (answer.as_str(), value) {
                            ("cards", ResponseValue::Cards(cards)) => {
                                Ok(Command::Respond(Response::Cards(cards)))
                            }
                            ("option", ResponseValue::Option(n)) => {
                                Ok(Command::Respond(Response::Option(n)))
                            }
                            ("cards" | "option", _) => {
                                Err(de::Error::custom("the value does not fit the answer"))
                            }
                            (other, _) => {
                                Err(de::Error::unknown_variant(other, &["cards", "option"]))
                            }
                        }
                    }
                    other => Err(de::Error::unknown_variant(other, COMMANDS)),
                }
            }
        }
        d.deserialize_map(V)
    }
}

/// Every command's tag, as the derived `Serialize` writes it.
const COMMANDS: &[&str] = &[
    "summon_monster",
    "set_monster",
    "set_spell_trap",
    "activate_spell",
    "activate_effect",
    "synchro_summon",
    "pass_chain",
    "advance_phase",
    "end_turn",
    "respond",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// One command of each kind. The match makes adding a command without teaching
    /// the hand-written `Deserialize` to read it a compile error here.
    fn one_of_each() -> Vec<Command> {
        let all = vec![
            Command::SummonMonster { card: CardId(1) },
            Command::SetMonster { card: CardId(2) },
            Command::SetSpellTrap { card: CardId(3) },
            Command::ActivateSpell { card: CardId(4) },
            Command::ActivateEffect { card: CardId(5) },
            Command::SynchroSummon { card: CardId(6) },
            Command::PassChain,
            Command::AdvancePhase,
            Command::EndTurn,
            Command::Respond(Response::Cards(vec![CardId(7), CardId(8)])),
            Command::Respond(Response::Cards(vec![])),
            Command::Respond(Response::Option(2)),
        ];
        for c in &all {
            match c {
                Command::SummonMonster { .. }
                | Command::SetMonster { .. }
                | Command::SetSpellTrap { .. }
                | Command::ActivateSpell { .. }
                | Command::ActivateEffect { .. }
                | Command::SynchroSummon { .. }
                | Command::PassChain
                | Command::AdvancePhase
                | Command::EndTurn
                | Command::Respond(Response::Cards(_) | Response::Option(_)) => {}
            }
        }
        all
    }

    #[test]
    fn every_command_round_trips_through_json() {
        for command in one_of_each() {
            let json = serde_json::to_string(&command).expect("serializable");
            let back: Command = serde_json::from_str(&json).expect(&json);
            assert_eq!(back, command, "{json}");
        }
    }

    #[test]
    fn commands_read_the_saved_format_with_keys_in_any_order() {
        let read = |json: &str| serde_json::from_str::<Command>(json).expect(json);
        assert_eq!(
            read(r#"{"cmd":"activate_spell","card":3}"#),
            Command::ActivateSpell { card: CardId(3) }
        );
        assert_eq!(
            read(r#"{"card":3,"cmd":"set_monster"}"#),
            Command::SetMonster { card: CardId(3) }
        );
        assert_eq!(
            read(r#"{"value":[4,1],"answer":"cards","cmd":"respond"}"#),
            Command::Respond(Response::Cards(vec![CardId(4), CardId(1)]))
        );
        assert_eq!(
            read(r#"{"cmd":"respond","answer":"option","value":1}"#),
            Command::Respond(Response::Option(1))
        );
        assert_eq!(read(r#"{"cmd":"end_turn"}"#), Command::EndTurn);
    }

    #[test]
    fn malformed_commands_are_refused() {
        for json in [
            r#"{"card":3}"#,
            r#"{"cmd":"activate_spell"}"#,
            r#"{"cmd":"activate_spell","card":3,"value":1}"#,
            r#"{"cmd":"pass_chain","card":3}"#,
            r#"{"cmd":"respond","answer":"cards","value":1}"#,
            r#"{"cmd":"respond","answer":"option","value":[1]}"#,
            r#"{"cmd":"respond","answer":"option","value":256}"#,
            r#"{"cmd":"respond","answer":"maybe","value":1}"#,
            r#"{"cmd":"respond","answer":"option"}"#,
            r#"{"cmd":"fly","card":3}"#,
            r#"{"cmd":"end_turn","extra":true}"#,
            r#"["end_turn"]"#,
        ] {
            assert!(
                serde_json::from_str::<Command>(json).is_err(),
                "{json} accepted"
            );
        }
    }
}
