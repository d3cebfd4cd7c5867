//! The decoder's gate: one pass over the response bytes that checks them against a compact
//! description of the endpoint's reply, allocating nothing for a body that fits.
//!
//! JavaScript turns the body into objects with `JSON.parse`, the fastest way there is; what the
//! client must add is the guarantee that those objects match the types, or a [`Mismatch`] naming
//! the JSON path where they do not. That needs no typed structs: like upb's mini-tables, every
//! model is described by a table ([`Shape`]) that one generic loop reads. The tables are derived by
//! `#[derive(Shape)]` (crate `lpm-derive`) from the models' own serde attributes, so what this
//! accepts is what the typed serde decode accepts (pinned by `tests/check_oracle.rs`): required
//! fields present, each value of its type, `null` only where the field is an `Option`, unknown keys
//! kept (skipped here, still well-formed JSON), known keys at most once.
//!
//! The native API runs this gate and then serde's typed decode; the wasm build runs only this.

use crate::json::{self, Syntax};

/// What a value must be.
#[derive(Debug)]
pub enum Ty {
    /// A string (open value sets are strings too).
    Str,
    /// `true` or `false`.
    Bool,
    /// Any JSON number.
    Num,
    /// A non-negative integer written without fraction or exponent, at most `u64::MAX`.
    U64,
    /// Any JSON value (kept as received).
    Any,
    /// An object described by a shape.
    Obj(&'static Shape),
    /// An array of one type.
    Arr(&'static Ty),
    /// An object whose values are all of one type.
    Map(&'static Ty),
    /// `null`, or a value of the inner type.
    Opt(&'static Ty),
}

/// One known field of a model.
#[derive(Debug)]
pub struct Field {
    /// Its key on the wire.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
}

/// A model: its known fields (unknown keys are always allowed and kept).
#[derive(Debug)]
pub struct Shape {
    /// The known fields, in declaration order (bodies usually follow it).
    pub fields: &'static [Field],
    /// Indexes into `fields`, sorted by wire name (bytewise): the lookup of a key.
    pub by_name: &'static [u8],
    /// Bit `k` set when field `k` is required.
    pub required: u64,
    /// A boolean field counted over every object of this shape (`success` of per-item results),
    /// from which the reply's derived counts come.
    pub tally: Option<usize>,
}

/// A type with a description. Implemented for the wire types here and derived for models.
pub trait Described {
    /// The description.
    const TY: Ty;
}

impl Shape {
    /// The first required field missing from an object whose present fields are `seen` (bit `k`:
    /// field `k`).
    fn missing(&self, seen: u64) -> Option<&'static str> {
        let k = (self.required & !seen).trailing_zeros();
        self.fields.get(k as usize).map(|f| f.name)
    }

    /// The index of the field named `key`: a binary search by name.
    fn find(&self, key: &json::Str<'_>) -> Option<usize> {
        let owned;
        let k: &[u8] = if key.escaped() {
            owned = key.to_owned_string();
            owned.as_bytes()
        } else {
            key.raw()
        };
        let (mut lo, mut hi) = (0, self.by_name.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let i = usize::from(*self.by_name.get(mid)?);
            match bytes_cmp(self.fields.get(i)?.name.as_bytes(), k) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => return Some(i),
            }
        }
        None
    }
}

/// Bytewise order of two short byte strings, compared in place (no memcmp call).
#[inline(always)]
fn bytes_cmp(a: &[u8], b: &[u8]) -> core::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// Which field followed which in the last object of a shape: records from one server list their
/// keys in one order, so after the first record almost every key is found at the first try.
/// `next[k]`: the field that followed field `k` (`next[64]`: the first field).
type Learned = [u8; 65];

/// How many shapes' [`Learned`] orders a check keeps: a shape's slot is its address divided by
/// the size of a shape (the tables of one reply lie side by side, so they rarely share a slot;
/// two that do only guess worse: a guess is always confirmed by the key's bytes).
const SLOTS: usize = 16;

impl Described for String {
    const TY: Ty = Ty::Str;
}
impl Described for bool {
    const TY: Ty = Ty::Bool;
}
impl Described for f64 {
    const TY: Ty = Ty::Num;
}
impl Described for u64 {
    const TY: Ty = Ty::U64;
}
impl Described for serde_json::Value {
    const TY: Ty = Ty::Any;
}
impl Described for serde_json::Map<String, serde_json::Value> {
    const TY: Ty = Ty::Map(&Ty::Any);
}
impl<T: Described> Described for std::collections::BTreeMap<String, T> {
    const TY: Ty = Ty::Map(&T::TY);
}
impl<T: Described> Described for Vec<T> {
    const TY: Ty = Ty::Arr(&T::TY);
}
impl<T: Described> Described for Option<T> {
    const TY: Ty = Ty::Opt(&T::TY);
}

/// Where and why a body does not fit its description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// JSON path of the value that did not fit (`courses[3].price.original`), `.` for the whole
    /// body (a syntax error or a cut-off body concerns all of it).
    pub path: String,
    /// What did not fit.
    pub detail: String,
}

/// Counts over the `tally` field of the checked objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Objects of a tallied shape.
    pub items: u32,
    /// Of those, how many had the tallied field `true`.
    pub trues: u32,
}

/// One step of the path to a mismatch.
enum Seg {
    Key(String),
    Index(usize),
}

enum Why {
    Syntax(Syntax),
    Type {
        expected: &'static str,
        found: &'static str,
    },
    Missing(&'static str),
    Duplicate(&'static str),
}

/// A mismatch on its way up; the path is collected in reverse while unwinding.
struct Fail {
    why: Why,
    rev_path: Vec<Seg>,
}

type R<T> = Result<T, Box<Fail>>;

fn fail<T>(why: Why) -> R<T> {
    Err(Box::new(Fail {
        why,
        rev_path: Vec::new(),
    }))
}

fn at<T>(r: R<T>, seg: impl FnOnce() -> Seg) -> R<T> {
    r.map_err(|mut f| {
        if !matches!(f.why, Why::Syntax(_)) {
            f.rev_path.push(seg());
        }
        f
    })
}

impl Fail {
    fn into_mismatch(self) -> Mismatch {
        let mut path = String::new();
        for seg in self.rev_path.iter().rev() {
            match seg {
                Seg::Key(k) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Seg::Index(i) => {
                    path.push('[');
                    json::push_uint(&mut path, *i as u64);
                    path.push(']');
                }
            }
        }
        if path.is_empty() {
            path.push('.');
        }
        let mut detail = String::new();
        match self.why {
            Why::Syntax(s) => {
                detail.push_str("not well-formed JSON: ");
                detail.push_str(s.describe());
            }
            Why::Type { expected, found } => {
                detail.push_str("expected ");
                detail.push_str(expected);
                detail.push_str(", found ");
                detail.push_str(found);
            }
            Why::Missing(name) => {
                detail.push_str("missing field `");
                detail.push_str(name);
                detail.push('`');
            }
            Why::Duplicate(name) => {
                detail.push_str("duplicate field `");
                detail.push_str(name);
                detail.push('`');
            }
        }
        Mismatch { path, detail }
    }
}

fn expected(ty: &Ty) -> &'static str {
    match ty {
        Ty::Str => "a string",
        Ty::Bool => "a boolean",
        Ty::Num => "a number",
        Ty::U64 => "a non-negative integer",
        Ty::Any => "a JSON value",
        Ty::Obj(_) | Ty::Map(_) => "an object",
        Ty::Arr(_) => "an array",
        Ty::Opt(inner) => expected(inner),
    }
}

/// The checker: a cursor over the body.
struct Checker<'a> {
    s: json::Scanner<'a>,
    tally: Tally,
    learned: [Learned; SLOTS],
}

impl<'a> Checker<'a> {
    #[inline(always)]
    fn syntax<T>(r: Result<T, Syntax>) -> R<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => fail(Why::Syntax(e)),
        }
    }

    fn value(&mut self, ty: &Ty, depth: u32) -> R<()> {
        let s = &mut self.s;
        s.ws();
        let Some(first) = s.peek() else {
            return fail(Why::Syntax(Syntax::Eof));
        };
        match (ty, first) {
            (Ty::Any, _) => Self::syntax(s.skip(depth)),
            (Ty::Opt(_), b'n') => Self::syntax(s.literal()),
            (Ty::Opt(inner), _) => self.value(inner, depth),
            (Ty::Str, b'"') => Self::syntax(s.skip_string()),
            (Ty::Bool, b't' | b'f') => Self::syntax(s.literal()),
            (Ty::Num, b'-' | b'0'..=b'9') => Self::syntax(s.number().map(|_| ())),
            (Ty::U64, b'-' | b'0'..=b'9') => {
                let start = s.pos();
                let n = Self::syntax(s.number())?;
                if n.is_u64(s.slice(start)) {
                    Ok(())
                } else {
                    let found = if n.integer {
                        "a negative or too large integer"
                    } else {
                        "a fractional number"
                    };
                    fail(Why::Type {
                        expected: expected(ty),
                        found,
                    })
                }
            }
            (Ty::Obj(shape), b'{') => self.object(shape, depth + 1),
            (Ty::Map(inner), b'{') => self.map(inner, depth + 1),
            (Ty::Arr(inner), b'[') => self.array(inner, depth + 1),
            _ => {
                let found = match first {
                    b'"' => "a string",
                    b'{' => "an object",
                    b'[' => "an array",
                    b't' | b'f' => "a boolean",
                    b'n' => "null",
                    b'-' | b'0'..=b'9' => "a number",
                    _ => return fail(Why::Syntax(Syntax::Unexpected)),
                };
                // Consume it first: a syntax error inside it concerns the whole body.
                Self::syntax(s.skip(depth))?;
                fail(Why::Type {
                    expected: expected(ty),
                    found,
                })
            }
        }
    }

    /// Past the `[` or `{` that `value` has seen opening a container `depth` deep.
    #[inline(always)]
    fn enter(&mut self, depth: u32) -> R<()> {
        if depth > json::MAX_DEPTH {
            return fail(Why::Syntax(Syntax::TooDeep));
        }
        self.s.set_pos(self.s.pos() + 1);
        Ok(())
    }

    fn array(&mut self, elem: &Ty, depth: u32) -> R<()> {
        self.enter(depth)?;
        let mut i = 0;
        while Self::syntax(self.s.next_item(b']', i == 0))? {
            at(self.value(elem, depth), || Seg::Index(i))?;
            i += 1;
        }
        Ok(())
    }

    fn map(&mut self, elem: &Ty, depth: u32) -> R<()> {
        self.enter(depth)?;
        let mut first = true;
        while Self::syntax(self.s.next_item(b'}', first))? {
            first = false;
            let key = Self::syntax(self.s.key())?;
            at(self.value(elem, depth), || Seg::Key(key.to_owned_string()))?;
        }
        Ok(())
    }

    fn object(&mut self, shape: &'static Shape, depth: u32) -> R<()> {
        self.enter(depth)?;
        let fields = shape.fields;
        let li = (shape as *const Shape as usize / core::mem::size_of::<Shape>()) % SLOTS;
        let mut seen: u64 = 0;
        let mut prev = 64;
        let mut first = true;
        let mut tallied = false;
        while Self::syntax(self.s.next_item(b'}', first))? {
            first = false;
            let hint = self
                .learned
                .get(li)
                .and_then(|l| l.get(prev))
                .map_or(0, |&k| usize::from(k));
            // The key the last object had here, matched in place; else read and looked up.
            let k = match fields.get(hint) {
                Some(f) if self.s.key_is(f.name.as_bytes()) => hint,
                _ => {
                    let key = Self::syntax(self.s.key())?;
                    let Some(k) = shape.find(&key) else {
                        Self::syntax(self.s.skip(depth))?;
                        continue;
                    };
                    k
                }
            };
            if let Some(next) = self.learned.get_mut(li).and_then(|l| l.get_mut(prev)) {
                *next = k as u8;
            }
            prev = k;
            // (`get` and `matches!` rather than indexing and `==` on options: with the size
            // profile those stay calls, one per key.)
            let Some(field) = fields.get(k) else {
                continue;
            };
            let bit = 1u64 << (k % 64);
            if seen & bit != 0 {
                return at(fail(Why::Duplicate(field.name)), || {
                    Seg::Key(field.name.into())
                });
            }
            seen |= bit;
            if matches!(shape.tally, Some(t) if t == k) {
                self.s.ws();
                tallied = matches!(self.s.peek(), Some(b't'));
            }
            let ty = &field.ty;
            // Strings, the most common field, checked here rather than in a call to `value`.
            self.s.ws();
            if let (Ty::Str | Ty::Opt(Ty::Str), Some(b'"')) = (ty, self.s.peek()) {
                Self::syntax(self.s.skip_string())?;
                continue;
            }
            at(self.value(ty, depth), || Seg::Key(field.name.into()))?;
        }
        if let Some(name) = shape.missing(seen) {
            return fail(Why::Missing(name));
        }
        if shape.tally.is_some() {
            self.tally.items = self.tally.items.saturating_add(1);
            self.tally.trues = self.tally.trues.saturating_add(u32::from(tallied));
        }
        Ok(())
    }
}

/// The head every envelope has: `respCode` and `msg`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// `respCode` as received.
    pub code: String,
    /// `msg`, empty when `null` or absent.
    pub msg: String,
}

/// What an envelope turned out to be.
#[derive(Debug, PartialEq, Eq)]
pub enum Envelope {
    /// Not well-formed JSON, not an object, or without a string `respCode` (or with a `msg` that
    /// is neither a string nor `null`, or either key twice).
    NotEnvelope(Mismatch),
    /// A code the endpoint does not accept as success: the data was not checked.
    Error(Head),
    /// A success code, and the data fits the reply.
    Ok(Head, Tally),
    /// A success code, but the data does not fit the reply.
    Mismatch(Head, Mismatch),
}

/// Reads an envelope in one pass: its head, and when `accepts` says the code is a success, its
/// data checked against `reply` (keys of the reply are checked in document order, the first
/// mismatch is the one reported, as a typed decode would).
pub fn envelope(body: &[u8], reply: &Shape, accepts: fn(&str) -> bool) -> Envelope {
    envelope_of(body, false, reply, accepts)
}

/// As [`envelope`], for a body already known to be UTF-8 (`utf8_known`), which is then not
/// checked again.
pub fn envelope_of(
    body: &[u8],
    utf8_known: bool,
    reply: &Shape,
    accepts: fn(&str) -> bool,
) -> Envelope {
    // RFC 8259 lets a parser ignore a leading byte order mark (JS's TextDecoder drops it too).
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let scanner = if utf8_known {
        Ok(json::Scanner::from_utf8_bytes(body))
    } else {
        json::Scanner::from_bytes(body)
    };
    let s = match scanner {
        Ok(s) => s,
        Err(e) => {
            return Envelope::NotEnvelope(
                Fail {
                    why: Why::Syntax(e),
                    rev_path: Vec::new(),
                }
                .into_mismatch(),
            )
        }
    };
    let mut c = Checker {
        s,
        tally: Tally::default(),
        learned: [[0; 65]; SLOTS],
    };
    let not = |why: Why, key: Option<&'static str>| {
        let rev_path = key.map(|k| vec![Seg::Key(k.into())]).unwrap_or_default();
        Envelope::NotEnvelope(Fail { why, rev_path }.into_mismatch())
    };
    c.s.ws();
    if c.s.peek() != Some(b'{') {
        return match c.s.skip(0).and_then(|()| c.s.end()) {
            Err(e) => not(Why::Syntax(e), None),
            Ok(()) => not(
                Why::Type {
                    expected: "an object",
                    found: "another JSON value",
                },
                None,
            ),
        };
    }
    c.s.set_pos(c.s.pos() + 1);
    let mut code: Option<String> = None;
    let mut msg: Option<Option<String>> = None;
    let mut data: Option<Box<Fail>> = None;
    let fields = reply.fields;
    let mut seen: u64 = 0;
    let mut first = true;
    loop {
        let more = match c.s.next_item(b'}', first) {
            Ok(m) => m,
            Err(e) => return not(Why::Syntax(e), None),
        };
        if !more {
            break;
        }
        first = false;
        let key = match c.s.key() {
            Ok(k) => k,
            Err(e) => return not(Why::Syntax(e), None),
        };
        c.s.ws();
        let start = c.s.pos();
        if key.is("respCode") || key.is("msg") {
            let name = if key.is("msg") { "msg" } else { "respCode" };
            let dup = if name == "msg" {
                msg.is_some()
            } else {
                code.is_some()
            };
            if dup {
                return not(Why::Duplicate(name), Some(name));
            }
            let text = match c.s.peek() {
                Some(b'"') => match c.s.string() {
                    Ok(s) => Some(s.to_owned_string()),
                    Err(e) => return not(Why::Syntax(e), None),
                },
                Some(b'n') if name == "msg" => match c.s.literal() {
                    Ok(()) => None,
                    Err(e) => return not(Why::Syntax(e), None),
                },
                _ => {
                    if let Err(e) = c.s.skip(1) {
                        return not(Why::Syntax(e), None);
                    }
                    let expected = if name == "msg" {
                        "a string or null"
                    } else {
                        "a string"
                    };
                    return not(
                        Why::Type {
                            expected,
                            found: "another JSON value",
                        },
                        Some(name),
                    );
                }
            };
            if name == "msg" {
                msg = Some(text);
            } else {
                code = text;
            }
            c.s.set_pos(start);
        }
        let hit = reply.find(&key);
        let wanted = code.as_deref().is_none_or(accepts);
        match hit {
            Some(k) if data.is_none() && wanted => {
                let bit = 1u64 << (k % 64);
                let run = if seen & bit != 0 {
                    fail(Why::Duplicate(fields[k].name))
                } else {
                    seen |= bit;
                    c.value(&fields[k].ty, 1)
                };
                if let Err(f) = at(run, || Seg::Key(fields[k].name.into())) {
                    if let Why::Syntax(e) = f.why {
                        return not(Why::Syntax(e), None);
                    }
                    data = Some(f);
                    c.s.set_pos(start);
                    if let Err(e) = c.s.skip(1) {
                        return not(Why::Syntax(e), None);
                    }
                }
            }
            _ => {
                if let Err(e) = c.s.skip(1) {
                    return not(Why::Syntax(e), None);
                }
            }
        }
    }
    if let Err(e) = c.s.end() {
        return not(Why::Syntax(e), None);
    }
    let Some(code) = code else {
        return not(Why::Missing("respCode"), None);
    };
    let head = Head {
        code,
        msg: msg.flatten().unwrap_or_default(),
    };
    if !accepts(&head.code) {
        return Envelope::Error(head);
    }
    if let (None, Some(name)) = (&data, reply.missing(seen)) {
        data = Some(Box::new(Fail {
            why: Why::Missing(name),
            rev_path: Vec::new(),
        }));
    }
    match data {
        Some(f) => Envelope::Mismatch(head, f.into_mismatch()),
        None => Envelope::Ok(head, c.tally),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Described;
    use crate::reply::UserList;

    fn shape() -> &'static Shape {
        match UserList::TY {
            Ty::Obj(s) => s,
            _ => unreachable!("a reply is an object"),
        }
    }

    #[test]
    fn a_key_of_the_head_twice_is_not_an_envelope() {
        // Which msg the server meant cannot be known: neither is shown as its word.
        for body in [
            &br#"{"respCode":"04","msg":"Invalid token","msg":"Success"}"#[..],
            br#"{"respCode":"00","respCode":"04","msg":"x","users":[]}"#,
        ] {
            let got = envelope(body, shape(), |c| c == "00");
            assert!(
                matches!(&got, Envelope::NotEnvelope(m) if m.detail.contains("duplicate")),
                "{got:?}"
            );
        }
    }

    /// `Scanner::key_is` matches a key by its bytes, which is exact only for names without a
    /// quote, a backslash or a control character: every name a reply can reach is such.
    #[test]
    fn every_field_name_can_be_matched_in_place() {
        use crate::reply::*;
        // Shapes are told apart by address (the tables keep no type names).
        fn walk(ty: &Ty, seen: &mut Vec<*const Shape>) {
            match ty {
                Ty::Obj(shape) => {
                    let at: *const Shape = *shape;
                    if seen.contains(&at) {
                        return;
                    }
                    seen.push(at);
                    for f in shape.fields {
                        let plain = f.name.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
                        assert!(plain, "{}", f.name);
                        walk(&f.ty, seen);
                    }
                }
                Ty::Arr(inner) | Ty::Map(inner) | Ty::Opt(inner) => walk(inner, seen),
                _ => {}
            }
        }
        let mut seen = Vec::new();
        for ty in [
            UserList::TY,
            UserReply::TY,
            CourseReply::TY,
            CourseList::TY,
            CreateUsersReply::TY,
            AddCoursesReply::TY,
            LoginReply::TY,
            RawReply::TY,
        ] {
            walk(&ty, &mut seen);
        }
        assert!(seen.len() > 10, "{seen:?}");
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let body = b"\xEF\xBB\xBF{\"respCode\":\"00\",\"msg\":\"Success\",\"users\":[]}";
        assert!(matches!(
            envelope(body, shape(), |c| c == "00"),
            Envelope::Ok(..)
        ));
    }
}
