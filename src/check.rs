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
use crate::text::cat;

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

    /// The index of the field named `key`: a scan of the fields (a few dozen at most, and most
    /// keys are matched in place before this is asked: no sorted index is kept for it).
    fn find(&self, key: &json::Str<'_>) -> Option<usize> {
        let owned;
        let k: &[u8] = if key.escaped() {
            owned = key.to_owned_string();
            owned.as_bytes()
        } else {
            key.raw()
        };
        // (`same` compares the lengths first, inline: most names differ there.)
        self.fields
            .iter()
            .position(|f| json::same(f.name.as_bytes(), k))
    }
}

/// Which field followed which in the last object of a shape: records from one server list their
/// keys in one order, so after the first record almost every key is found at the first try.
/// `next[k]`: the field that followed field `k` (`next[64]`: the first field).
type Learned = [u8; 65];

/// How many shapes' [`Learned`] orders a check keeps: a small open-addressed table keyed by the
/// shape's address, so no two shapes share a slot whatever the layout of the tables (every reply
/// has fewer shapes than this; a shape beyond them would only guess worse: a guess is always
/// confirmed by the key's bytes).
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

/// One step of the path to a mismatch: an object key, as the offset in the body where it is
/// written (read again only when a mismatch is reported: the checking allocates nothing for
/// it), or an array index.
#[derive(Clone, Copy)]
enum Seg {
    Key(usize),
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
    Err(failure(why))
}

/// A failure with an empty path (one copy of the boxing for every caller).
#[cold]
#[inline(never)]
fn failure(why: Why) -> Box<Fail> {
    Box::new(Fail {
        why,
        rev_path: Vec::new(),
    })
}

/// A syntax error as a failure (one copy: every `?` on the scanner's results calls it).
#[cold]
#[inline(never)]
fn syntax_fail(e: Syntax) -> Box<Fail> {
    failure(Why::Syntax(e))
}

/// A mismatch at the key written at `pos`.
fn fail_at<T>(why: Why, pos: usize) -> R<T> {
    let mut f = failure(why);
    f.rev_path.push(Seg::Key(pos));
    Err(f)
}

/// `r` with `seg` added to its path (a syntax error concerns the whole body: no path).
#[inline(always)]
fn at(r: R<()>, seg: Seg) -> R<()> {
    match r {
        Ok(()) => Ok(()),
        Err(f) => Err(add_seg(f, seg)),
    }
}

#[cold]
#[inline(never)]
fn add_seg(mut f: Box<Fail>, seg: Seg) -> Box<Fail> {
    if !matches!(f.why, Why::Syntax(_)) {
        f.rev_path.push(seg);
    }
    f
}

impl Fail {
    /// The mismatch, its keys read again from `body`.
    fn into_mismatch(self, body: &[u8]) -> Mismatch {
        let mut path = String::new();
        for seg in self.rev_path.iter().rev() {
            match *seg {
                Seg::Key(pos) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    let mut s = json::Scanner::from_utf8_bytes(body);
                    s.set_pos(pos);
                    if let Ok(key) = s.key() {
                        path.push_str(&key.decode());
                    }
                }
                Seg::Index(i) => {
                    path.push('[');
                    json::push_uint(&mut path, i as u64);
                    path.push(']');
                }
            }
        }
        if path.is_empty() {
            path.push('.');
        }
        let detail = match self.why {
            Why::Syntax(s) => cat(&["not well-formed JSON: ", s.describe()]),
            Why::Type { expected, found } => cat(&["expected ", expected, ", found ", found]),
            Why::Missing(name) => cat(&["missing field `", name, "`"]),
            Why::Duplicate(name) => cat(&["duplicate field `", name, "`"]),
        };
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
    /// The address of the shape each slot of `learned` is for (0: free).
    owners: [usize; SLOTS],
}

impl<'a> Checker<'a> {
    #[inline(always)]
    fn syntax<T>(r: Result<T, Syntax>) -> R<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => Err(syntax_fail(e)),
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

    /// The slot of `learned` that is `shape`'s: found from its address, the next free one
    /// taken when it has none yet. When all are taken it is some other shape's: a learned key is
    /// checked before it is trusted, so a shared slot costs speed, never correctness (a test
    /// checks that no reply has more shapes than slots).
    fn slot(&mut self, shape: &Shape) -> usize {
        let key = shape as *const Shape as usize;
        let mut i = key / core::mem::size_of::<Shape>();
        for _ in 0..SLOTS {
            i %= SLOTS;
            match self.owners.get_mut(i) {
                Some(o) if *o == key => break,
                Some(o) if *o == 0 => {
                    *o = key;
                    break;
                }
                _ => i += 1,
            }
        }
        i
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
            at(self.value(elem, depth), Seg::Index(i))?;
            i += 1;
        }
        Ok(())
    }

    fn map(&mut self, elem: &Ty, depth: u32) -> R<()> {
        self.enter(depth)?;
        let mut first = true;
        while Self::syntax(self.s.next_item(b'}', first))? {
            first = false;
            let pos = self.s.pos();
            Self::syntax(self.s.key())?;
            at(self.value(elem, depth), Seg::Key(pos))?;
        }
        Ok(())
    }

    fn object(&mut self, shape: &'static Shape, depth: u32) -> R<()> {
        self.enter(depth)?;
        let fields = shape.fields;
        let li = self.slot(shape);
        let mut seen: u64 = 0;
        let mut prev = 64;
        let mut first = true;
        let mut tallied = false;
        while Self::syntax(self.s.next_item(b'}', first))? {
            first = false;
            let pos = self.s.pos();
            // The key the last objects had after `prev`, matched in place; then the one learned
            // after that (an optional field absent here), three times; else read and looked up.
            // (Four tries in all: fewer instructions on the emulator's accounts and courses than
            // three, five or six; docs/performance.md has the counts.)
            // (`get` and `matches!` rather than indexing and `==` on options: with the size
            // profile those stay calls, one per key.)
            let mut hint = prev;
            let mut found = None;
            for _ in 0..4 {
                hint = self
                    .learned
                    .get(li)
                    .and_then(|l| l.get(hint))
                    .map_or(0, |&k| usize::from(k));
                match fields.get(hint) {
                    Some(f) if self.s.key_is(f.name.as_bytes()) => {
                        found = Some((hint, f));
                        break;
                    }
                    _ => {}
                }
            }
            let (k, field) = match found {
                Some(hit) => hit,
                None => {
                    let key = Self::syntax(self.s.key())?;
                    let Some((k, f)) = shape.find(&key).and_then(|k| Some((k, fields.get(k)?)))
                    else {
                        Self::syntax(self.s.skip(depth))?;
                        continue;
                    };
                    // Learned only on a miss, inserted after `prev` in the order learned so far:
                    // objects with different optional fields present share one order (the
                    // union), which the tries above follow.
                    // (A key found only here is not the one learned after `prev`, unless it is
                    // written with escapes: then `k` follows itself, and is learned anew.)
                    if let Some(l) = self.learned.get_mut(li) {
                        if let (Some(after), Some(next)) = (l.get(prev).copied(), l.get_mut(k)) {
                            *next = after;
                        }
                        if let Some(next) = l.get_mut(prev) {
                            *next = k as u8;
                        }
                    }
                    (k, f)
                }
            };
            prev = k;
            let bit = 1u64 << (k % 64);
            if seen & bit != 0 {
                return fail_at(Why::Duplicate(field.name), pos);
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
                Self::syntax(self.s.skip_string_here())?;
                continue;
            }
            at(self.value(ty, depth), Seg::Key(pos))?;
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
    envelope_of(body, Utf8::of(body), reply, accepts)
}

/// Whether a body is UTF-8, as its caller found (the wasm's driver finds it in the pass that
/// writes the body's ASCII form, `json::ascii`). A type rather than a `bool`: it once meant
/// "already known" with `false` for "check it", and a caller of that meaning must not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf8 {
    /// The body is UTF-8.
    Valid,
    /// It is not: it is not well-formed JSON.
    Invalid,
}

impl Utf8 {
    /// `body`'s, found by `core::str::from_utf8`.
    pub fn of(body: &[u8]) -> Utf8 {
        match core::str::from_utf8(body) {
            Ok(_) => Utf8::Valid,
            Err(_) => Utf8::Invalid,
        }
    }
}

/// As [`envelope`], for a body whose caller has found whether it is UTF-8 (`utf8`), which is
/// then not checked again.
pub fn envelope_of(body: &[u8], utf8: Utf8, reply: &Shape, accepts: fn(&str) -> bool) -> Envelope {
    // RFC 8259 lets a parser ignore a leading byte order mark (JS's TextDecoder drops it too).
    let body = match body {
        [0xEF, 0xBB, 0xBF, rest @ ..] => rest,
        _ => body,
    };
    match read_envelope(body, utf8, reply, accepts) {
        Err(f) => Envelope::NotEnvelope(f.into_mismatch(body)),
        Ok((head, _, _)) if !accepts(&head.code) => Envelope::Error(head),
        Ok((head, Some(f), _)) => Envelope::Mismatch(head, f.into_mismatch(body)),
        Ok((head, None, tally)) => Envelope::Ok(head, tally),
    }
}

/// [`envelope_of`]'s pass: the head, the data's first mismatch, the counts; `Err` when the body
/// is not an envelope (one place turns every such reason into [`Envelope::NotEnvelope`]).
fn read_envelope(
    body: &[u8],
    utf8: Utf8,
    reply: &Shape,
    accepts: fn(&str) -> bool,
) -> R<(Head, Option<Box<Fail>>, Tally)> {
    if utf8 == Utf8::Invalid {
        return fail(Why::Syntax(Syntax::BadUtf8));
    }
    let mut c = Checker {
        s: json::Scanner::from_utf8_bytes(body),
        tally: Tally::default(),
        learned: [[0; 65]; SLOTS],
        owners: [0; SLOTS],
    };
    c.s.ws();
    if c.s.peek() != Some(b'{') {
        Checker::syntax(c.s.skip(0).and_then(|()| c.s.end()))?;
        return fail(Why::Type {
            expected: "an object",
            found: "another JSON value",
        });
    }
    c.s.set_pos(c.s.pos() + 1);
    let mut code: Option<String> = None;
    let mut msg: Option<Option<String>> = None;
    let mut data: Option<Box<Fail>> = None;
    let mut seen: u64 = 0;
    let mut first = true;
    while Checker::syntax(c.s.next_item(b'}', first))? {
        first = false;
        let pos = c.s.pos();
        let key = Checker::syntax(c.s.key())?;
        c.s.ws();
        let start = c.s.pos();
        let is_msg = key.is("msg");
        if is_msg || key.is("respCode") {
            let (name, dup) = match is_msg {
                true => ("msg", msg.is_some()),
                false => ("respCode", code.is_some()),
            };
            if dup {
                return fail_at(Why::Duplicate(name), pos);
            }
            let text = match c.s.peek() {
                Some(b'"') => Some(Checker::syntax(c.s.string())?.to_owned_string()),
                Some(b'n') if is_msg => {
                    Checker::syntax(c.s.literal())?;
                    None
                }
                _ => {
                    Checker::syntax(c.s.skip(1))?;
                    let expected = match is_msg {
                        true => "a string or null",
                        false => "a string",
                    };
                    let why = Why::Type {
                        expected,
                        found: "another JSON value",
                    };
                    return fail_at(why, pos);
                }
            };
            match is_msg {
                true => msg = Some(text),
                false => code = text,
            }
            c.s.set_pos(start);
        }
        let wanted = code.as_deref().is_none_or(accepts);
        match reply
            .find(&key)
            .and_then(|k| Some((k, reply.fields.get(k)?)))
        {
            Some((k, field)) if data.is_none() && wanted => {
                let bit = 1u64 << (k % 64);
                let run = if seen & bit != 0 {
                    fail(Why::Duplicate(field.name))
                } else {
                    seen |= bit;
                    c.value(&field.ty, 1)
                };
                if let Err(f) = at(run, Seg::Key(pos)) {
                    if let Why::Syntax(_) = f.why {
                        return Err(f);
                    }
                    data = Some(f);
                    c.s.set_pos(start);
                    Checker::syntax(c.s.skip(1))?;
                }
            }
            _ => Checker::syntax(c.s.skip(1))?,
        }
    }
    Checker::syntax(c.s.end())?;
    let Some(code) = code else {
        return fail(Why::Missing("respCode"));
    };
    if let (None, Some(name)) = (&data, reply.missing(seen)) {
        data = Some(failure(Why::Missing(name)));
    }
    let head = Head {
        code,
        msg: msg.flatten().unwrap_or_default(),
    };
    Ok((head, data, c.tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Described;
    use crate::UserList;

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
        use crate::{AddCoursesReply, CourseReply, CreateUsersReply, UserList};
        // Shapes are told apart by address (the tables keep no type names).
        fn walk(ty: &Ty, seen: &mut Vec<*const Shape>) {
            match ty {
                Ty::Obj(shape) => {
                    let at: *const Shape = *shape;
                    if seen.contains(&at) {
                        return;
                    }
                    seen.push(at);
                    // `seen` and `required` are u64 bit sets, `Learned` indexes fields by u8.
                    assert!(shape.fields.len() <= 64, "{}", shape.fields.len());
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
        let replies = [
            UserList::TY,
            UserReply::TY,
            CourseReply::TY,
            CourseList::TY,
            CreateUsersReply::TY,
            AddCoursesReply::TY,
            LoginReply::TY,
            RawReply::TY,
        ];
        for ty in &replies {
            walk(ty, &mut seen);
        }
        assert!(seen.len() > 10, "{seen:?}");
        // Each reply's shapes have slots of their own in `Checker::learned`.
        for ty in &replies {
            let mut own = Vec::new();
            walk(ty, &mut own);
            assert!(own.len() <= SLOTS, "{}", own.len());
        }
    }

    /// The learned key order follows objects whose optional fields come and go and whose keys
    /// change order: every such object is accepted, and a key written twice is refused at its
    /// second place however it was found (in place, one to three tries later, or by the lookup).
    #[test]
    fn objects_of_changing_keys_and_orders_are_checked_alike() {
        let fields = [
            r#""_id":"u1""#,
            r#""createdAt":"2022-11-17T02:57:55.897Z""#,
            r#""emails":[{"address":"a@b.test","verified":false}]"#,
            r#""profile":{"name":"An","phone":"09"}"#,
            r#""username":"an""#,
            r#""myCart":[]"#,
            r#""myCourses":[]"#,
            r#""myTransactions":["t"]"#,
            r#""other":{"kept":true}"#,
        ];
        let mut seed = 7u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n
        };
        for round in 0..300 {
            // The required five, then optional ones; shuffled every few rounds, else in order.
            let mut keys: Vec<usize> = (0..5).collect();
            keys.extend((5..fields.len()).filter(|_| next(2) == 0));
            if round % 3 == 0 {
                for i in (1..keys.len()).rev() {
                    keys.swap(i, next(i + 1));
                }
            }
            let twice = (round % 5 == 0).then(|| keys[next(keys.len())]);
            let mut users = Vec::new();
            for i in 0..4 {
                let mut ks = keys.clone();
                if i == 3 {
                    ks.extend(twice);
                }
                let parts: Vec<&str> = ks.iter().map(|&k| fields[k]).collect();
                users.push(format!("{{{}}}", parts.join(",")));
            }
            let body = format!(
                r#"{{"respCode":"00","msg":"Success","users":[{}]}}"#,
                users.join(",")
            );
            let got = envelope(body.as_bytes(), shape(), |c| c == "00");
            match twice {
                None => assert!(matches!(got, Envelope::Ok(..)), "{body}: {got:?}"),
                Some(k) => {
                    let name = fields[k].split('"').nth(1).unwrap_or_default();
                    match got {
                        // An unknown key is kept as it is, even twice (JSON.parse keeps the last).
                        Envelope::Ok(..) if name == "other" => {}
                        Envelope::Mismatch(_, m) => {
                            assert_eq!(m.path, format!("users[3].{name}"), "{body}");
                            assert!(m.detail.contains("duplicate"), "{m:?}");
                        }
                        other => panic!("{body}: {other:?}"),
                    }
                }
            }
        }
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
