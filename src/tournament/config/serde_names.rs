//! The names serde knows for a type: a struct's keys, an enum's values.
//!
//! The key walk of [`super::unknown_keys`] must know every key of every
//! table. A hand-written list would drift from the structs; instead the
//! derived `Deserialize` is asked: it hands a deserializer the names of its
//! fields (or variants), and [`Probe`] keeps them and reads nothing. So the
//! structs stay the one place where a key is declared.

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// What a [`Probe`] saw: the names passed to `deserialize_struct` or
/// `deserialize_enum`.
type Seen = Option<&'static [&'static str]>;

/// A deserializer that records the names a type asks for and fails.
struct Probe<'a>(&'a mut Seen);

/// The error a [`Probe`] always ends with (it has nothing to read).
fn stop<T>() -> Result<T, de::value::Error> {
    Err(de::Error::custom("names only"))
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        stop()
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        stop()
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(variants);
        stop()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier ignored_any
    }
}

/// The keys of a struct deserialized with `#[derive(Deserialize)]` (after
/// `rename`), or its variants' names for an enum of unit variants; empty for
/// a type that names none (a map, a hand-written `Deserialize`).
pub fn names_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut seen = None;
    let _ = T::deserialize(Probe(&mut seen));
    seen.unwrap_or_default()
}

/// Whether `text` is a value that `T` reads from a string (an enum's name).
pub fn reads_str<T: de::DeserializeOwned>(text: &str) -> bool {
    let value = de::value::StrDeserializer::<de::value::Error>::new(text);
    T::deserialize(value).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::record_config::RecordConfig;
    use crate::tournament::config::tournament_config::Format;

    #[test]
    fn struct_keys_and_enum_values_come_from_the_derives() {
        assert_eq!(names_of::<RecordConfig>(), ["moves", "metrics"]);
        assert_eq!(
            names_of::<Format>(),
            ["round-robin", "gauntlet", "self-play", "ladder"]
        );
        assert!(names_of::<u32>().is_empty());
        assert!(reads_str::<Format>("self-play") && !reads_str::<Format>("swiss"));
    }
}
