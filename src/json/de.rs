//! A serde `Deserializer` over the borrowed [`Value`] tree, small enough for the wasm build: what
//! JavaScript hands back to the core as JSON text (a bulk job's journal) is read into the types'
//! own serde definitions, without serde_json.
//!
//! Numbers are read as `u64` or `i64` from their literal; errors carry no text (the caller says
//! what could not be read).

use std::borrow::Cow;

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};

use super::value::{parse, Value};

/// Reads `T` from JSON text.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let value = parse(text).map_err(|_| Error)?;
    T::deserialize(&value)
}

/// Reads `T` from a parsed value.
pub fn from_value<T: DeserializeOwned>(value: &Value<'_>) -> Result<T, Error> {
    T::deserialize(value)
}

/// The one error: the value does not fit the type.
#[derive(Debug, PartialEq, Eq)]
pub struct Error;

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the JSON does not fit the type")
    }
}
impl std::error::Error for Error {}
impl de::Error for Error {
    fn custom<T: core::fmt::Display>(_msg: T) -> Self {
        Error
    }
}

impl<'de, 'a> de::Deserializer<'de> for &'a Value<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(*b),
            Value::Num(n) => number(n, v),
            Value::Str(s) => v.visit_str(s),
            Value::Arr(items) => v.visit_seq(Seq(items.iter())),
            Value::Obj(entries) => v.visit_map(Map {
                entries: entries.iter(),
                value: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        // Unit variants as strings; other externally tagged variants are not used by our types.
        match self {
            Value::Str(s) => v.visit_enum(s.as_ref().into_deserializer()),
            _ => Err(Error),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// An integer literal as `u64` or (negative) `i64`. Decision: no float parsing (it would add
/// kilobytes to the wasm and nothing read here holds a fraction); a fraction does not fit.
fn number<'de, V: Visitor<'de>>(n: &str, v: V) -> Result<V::Value, Error> {
    let b = n.as_bytes();
    match b.split_first() {
        Some((b'-', rest)) => match super::parse_u64(rest) {
            Some(u) if u <= i64::MAX as u64 + 1 => v.visit_i64((u as i64).wrapping_neg()),
            _ => Err(Error),
        },
        _ => super::parse_u64(b).map_or(Err(Error), |u| v.visit_u64(u)),
    }
}

struct Seq<'a>(core::slice::Iter<'a, Value<'a>>);

impl<'de, 'a> de::SeqAccess<'de> for Seq<'a> {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(v)).transpose()
    }
}

struct Map<'a> {
    entries: core::slice::Iter<'a, (Cow<'a, str>, Value<'a>)>,
    value: Option<&'a Value<'a>>,
}

impl<'de, 'a> de::MapAccess<'de> for Map<'a> {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                self.value = Some(v);
                let key: de::value::StrDeserializer<'_, Error> = k.as_ref().into_deserializer();
                seed.deserialize(key).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self.value.take().ok_or(Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulk::{DoubtReason, Event, Existing, Failure, LookupOutcome, Outcome, PlannedRow};

    #[test]
    fn every_journal_event_reads_back_as_serde_json_reads_it() {
        let events = vec![
            Event::Started {
                job: "grant".into(),
                rows: 3,
                courses: vec!["c1".into()],
            },
            Event::ChunkPlanned {
                chunk: 1,
                rows: vec![PlannedRow {
                    row: 0,
                    email: Some("a@x.io".into()),
                    username: Some("an".into()),
                    user_id: None,
                }],
            },
            Event::ChunkSending {
                chunk: 1,
                at: 1_700_000_000_123,
            },
            Event::ChunkRefused {
                chunk: 1,
                code: "19".into(),
                msg: "Thiếu \"token\"".into(),
            },
            Event::RowsInDoubt {
                chunk: 2,
                rows: vec![4, 5],
                reason: DoubtReason::Transport {
                    failure: Failure::Timeout,
                },
            },
            Event::RowsInDoubt {
                chunk: 2,
                rows: vec![6],
                reason: DoubtReason::Interrupted,
            },
            Event::RowOutcome {
                row: 7,
                outcome: Outcome::Conflict {
                    existing: Existing {
                        user_id: "u9".into(),
                        username: "b".into(),
                        emails: vec!["b@x.io".into()],
                    },
                },
            },
            Event::LookupResult {
                row: 8,
                result: LookupOutcome::NotFound,
            },
        ];
        for event in events {
            let text = crate::json::ser::to_string(&event);
            assert_eq!(text, serde_json::to_string(&event).unwrap());
            assert_eq!(from_str::<Event>(&text), Ok(event));
        }
    }

    #[test]
    fn what_does_not_fit_is_an_error_not_a_panic() {
        for text in [
            "",
            "{",
            "null",
            "[]",
            r#"{"event":"nope"}"#,
            r#"{"event":"chunkSending","chunk":-1,"at":0}"#,
            r#"{"event":"chunkSending","chunk":1.5,"at":0}"#,
            r#"{"event":"chunkSending","chunk":1}"#,
            r#"{"event":"rowsInDoubt","chunk":1,"rows":[1],"reason":{"kind":"transport","failure":"lost"}}"#,
        ] {
            assert_eq!(from_str::<Event>(text), Err(Error), "{text}");
        }
    }
}
