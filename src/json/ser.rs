//! JSON text for JavaScript without serde_json (its writer and float formatting cost the wasm
//! tens of kilobytes). What crosses (errors, issues, derived fields, bulk events and reports)
//! keeps its one definition, the types' serde attributes, from which `lpm_derive::WriteJson`
//! derives its writer ([`WriteJson`], each field a [`Put`] into an [`Object`]): a small call a
//! field, where a serde serializer per type costs the wasm more, so the package's wasm carries
//! none. [`to_string`], a serde `Serializer`, writes the same text from any `Serialize` type
//! (the tests' oracle, and the boundary benchmark's exports).
//!
//! Floats are written rounded to whole numbers: the only floats that cross are milliseconds and
//! byte counts. Non-finite floats are `null`, as in `JSON.stringify`.

use serde::ser::{self, Serialize};

use super::{push_str, push_uint};

/// Serializes `value` as JSON text.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    // Most texts written here (an error's data, a few issues, a journal event) are 100-300
    // bytes: one allocation at that size instead of six doublings from eight.
    let mut ser = Ser {
        out: String::with_capacity(256),
    };
    // Only `Error::custom` fails, and no type here calls it.
    let _ = value.serialize(&mut ser);
    ser.out
}

/// The one error (a `Serialize` impl asked to fail).
#[derive(Debug)]
pub struct Error;

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("cannot serialize")
    }
}
impl std::error::Error for Error {}
impl ser::Error for Error {
    fn custom<T: core::fmt::Display>(_msg: T) -> Self {
        Error
    }
}

struct Ser {
    out: String,
}

fn push_int(out: &mut String, n: i128) {
    if n < 0 {
        out.push('-');
    }
    push_uint(out, n.unsigned_abs().min(u128::from(u64::MAX)) as u64);
}

/// An object written by hand, field by field, for the shapes the wasm throws: one small writer
/// where serde's derive would bring a serializer per shape (and, for a tagged enum, per variant).
pub struct Object {
    out: String,
}

impl Default for Object {
    fn default() -> Self {
        Self::new()
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object {
            out: String::from("{"),
        }
    }

    #[inline(never)]
    fn key(&mut self, key: &str) -> &mut String {
        // (A member's value never ends in `{`: only an object just opened does.)
        if !self.out.ends_with('{') {
            self.out.push(',');
        }
        push_str(&mut self.out, key);
        self.out.push(':');
        &mut self.out
    }

    /// A string field.
    #[inline(never)]
    pub fn str(&mut self, key: &str, value: &str) {
        push_str(self.key(key), value);
    }

    /// A whole-number field.
    #[inline(never)]
    pub fn uint(&mut self, key: &str, value: u64) {
        push_uint(self.key(key), value);
    }

    /// A float field, written as this writer writes floats.
    #[inline(never)]
    pub fn f64(&mut self, key: &str, value: f64) {
        push_f64(self.key(key), value);
    }

    /// A field of JSON text, written as it is.
    #[inline(never)]
    pub fn json(&mut self, key: &str, value: &str) {
        self.key(key).push_str(value);
    }

    /// A field of any value with a JSON form.
    pub fn put<T: Put + ?Sized>(&mut self, key: &str, value: &T) {
        self.key(key);
        value.write(self);
    }

    /// The text written so far, for a [`Put`] of another module to append its value to.
    pub fn raw(&mut self) -> &mut String {
        &mut self.out
    }

    /// A `true`/`false` field.
    pub fn bool(&mut self, key: &str, value: bool) {
        self.json(key, if value { "true" } else { "false" });
    }

    /// The object's text.
    pub fn end(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// A value written as JSON text into an [`Object`] (a member's value, or an array's item): how
/// `#[derive(lpm_derive::WriteJson)]` writes each field (unit enums get theirs from
/// `lpm_derive::SerializeUnit`: their serde name), as serde writes it.
pub trait Put {
    /// Appends the value's JSON text.
    fn write(&self, o: &mut Object);
}

impl Put for str {
    fn write(&self, o: &mut Object) {
        push_str(&mut o.out, self);
    }
}
impl Put for String {
    fn write(&self, o: &mut Object) {
        push_str(&mut o.out, self);
    }
}
impl Put for &str {
    fn write(&self, o: &mut Object) {
        push_str(&mut o.out, self);
    }
}
impl Put for bool {
    fn write(&self, o: &mut Object) {
        o.out.push_str(if *self { "true" } else { "false" });
    }
}
impl Put for f64 {
    fn write(&self, o: &mut Object) {
        push_f64(&mut o.out, *self);
    }
}
/// Whole numbers.
macro_rules! put_uint {
    ($($t:ty),*) => {$(
        impl Put for $t {
            fn write(&self, o: &mut Object) {
                push_uint(&mut o.out, *self as u64);
            }
        }
    )*};
}
put_uint!(u16, u32, u64, usize);
/// `None` is `null`, as serde writes it (a field with `skip_serializing_if = "Option::is_none"`
/// is left out by the derive instead).
impl<T: Put> Put for Option<T> {
    fn write(&self, o: &mut Object) {
        match self {
            Some(v) => v.write(o),
            None => o.out.push_str("null"),
        }
    }
}
/// An array.
impl<T: Put> Put for [T] {
    fn write(&self, o: &mut Object) {
        o.out.push('[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                o.out.push(',');
            }
            v.write(o);
        }
        o.out.push(']');
    }
}
impl<T: Put> Put for Vec<T> {
    fn write(&self, o: &mut Object) {
        self.as_slice().write(o);
    }
}
/// A nested object.
impl<T: WriteJson> Put for T {
    fn write(&self, o: &mut Object) {
        o.out.push('{');
        self.write_fields(o);
        o.out.push('}');
    }
}

/// A value's JSON text, as serde writes it.
pub fn value_json<T: Put + ?Sized>(value: &T) -> String {
    let mut o = Object {
        out: String::with_capacity(256),
    };
    value.write(&mut o);
    o.out
}

/// A type written as a JSON object, exactly as its serde `Serialize` writes it:
/// `#[derive(lpm_derive::WriteJson)]` reads the same serde attributes (a test per type holds the
/// two equal). One small call a field, where a serde serializer per type (and, for a tagged enum,
/// per variant) would cost the wasm more.
pub trait WriteJson {
    /// Writes the members into `o`.
    fn write_fields(&self, o: &mut Object);

    /// The JSON text.
    fn to_json(&self) -> String {
        let mut o = Object::new();
        self.write_fields(&mut o);
        o.end()
    }

    /// Appends the JSON text to `out`.
    fn append_json(&self, out: &mut String) {
        let mut o = Object {
            out: core::mem::take(out),
        };
        o.out.push('{');
        self.write_fields(&mut o);
        o.out.push('}');
        *out = o.out;
    }
}

/// Writes a float as this writer does (rounded to a whole number; `null` when not finite).
fn push_f64(out: &mut String, f: f64) {
    if f.is_finite() {
        // The floats that cross are milliseconds and byte counts: whole numbers. (Not through
        // i128, whose float conversion costs the wasm a routine.)
        let r = f.round();
        if r < 0.0 {
            out.push('-');
        }
        push_uint(out, r.abs() as u64);
    } else {
        out.push_str("null");
    }
}

/// The state of a sequence or map being written: whether an element was written yet.
struct Compound<'a> {
    ser: &'a mut Ser,
    first: bool,
    close: char,
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.ser.out.push(',');
        }
        self.first = false;
    }
    fn key(&mut self, key: &str) {
        self.comma();
        push_str(&mut self.ser.out, key);
        self.ser.out.push(':');
    }
}

impl<'a> ser::Serializer for &'a mut Ser {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        push_int(&mut self.out, v.into());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        push_uint(&mut self.out, v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        push_f64(&mut self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        push_str(&mut self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.out.push('{');
        push_str(&mut self.out, variant);
        self.out.push(':');
        v.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('[');
        Ok(Compound {
            ser: self,
            first: true,
            close: ']',
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        push_str(&mut self.out, variant);
        self.out.push_str(":[");
        Ok(Compound {
            ser: self,
            first: true,
            close: '}',
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        Ok(Compound {
            ser: self,
            first: true,
            close: '}',
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        push_str(&mut self.out, variant);
        self.out.push_str(":{");
        Ok(Compound {
            ser: self,
            first: true,
            close: '}',
        })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.comma();
        v.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        self.ser.out.push(']');
        if self.close == '}' {
            self.ser.out.push('}');
        }
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(&mut *self.ser)?;
        self.ser.out.push(':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        self.ser.out.push('}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.key(key);
        v.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        self.ser.out.push('}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<(), Error> {
        self.ser.out.push_str("}}");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_what_serde_json_writes() {
        let v = serde_json::json!({"a": [1, -2, 600000.0, true, null, "é\"\n\u{1}"], "b": {"c": 1.5e-3}});
        let ours: serde_json::Value = serde_json::from_str(&super::to_string(&v)).unwrap();
        assert_eq!(
            ours["a"],
            serde_json::json!([1, -2, 600000, true, null, "é\"\n\u{1}"])
        );
        assert_eq!(
            ours["b"]["c"],
            serde_json::json!(0),
            "floats are whole milliseconds"
        );
    }
}
