//! The wasm's exports: a boundary of our own, which `pkg-templates/abi.ts` drives (ARCHITECTURE.md
//! says why it replaced wasm-bindgen's generated one). Only numbers cross:
//!
//! - Arguments: JS asks for room (`lpm_args(len)`, a buffer kept here), writes the texts (UTF-8)
//!   and bytes there one after the other, and passes each one's length (`NONE`: absent).
//! - Results: a number (a handle, a status, a time); a text result is kept here (`OUT`) and its
//!   address and length written to the result area (`lpm_result()`), where JS reads it. A failure
//!   is the status `ERR` (a handle 0, a time -9) with the error's JSON text (`Failure::into_json`)
//!   as the text result: the glue throws that text, as wasm-bindgen's did.
//! - Objects (`Core`, `Pending`, `BulkJob`) live in slabs here; JS holds their handles (index + 1;
//!   0 is none) and frees them explicitly. A handle that is free or out of range finds
//!   nothing: the export fails with an `internal` error, or answers as for an ended object
//!   (`lpm_pending_handle`: final; a time: NaN). Each kind has its own slab and the glue passes a
//!   handle only where its kind goes; a misused handle cannot reach memory it should not.
//!
//! Nothing here calls JS (the wasm imports nothing), so no call re-enters another. A trap (memory
//! exhausted) may stop an export half-way: a `Pending` or `BulkJob` taken out of its slab for
//! the call stays taken (its handle then fails); a `Core` is shared (`Rc`), so the client that
//! planned it stays usable.
// The `unsafe_code` lint flags `#[no_mangle]` (these are the wasm's exports by name), the one
// `unsafe` block, which takes the texts the glue wrote as UTF-8 without checking them again, and
// `Local`'s `Sync`.
#![allow(unsafe_code)]

use core::cell::Cell;
use std::rc::Rc;

#[cfg(feature = "bulk")]
use super::bulk::{BulkJob, SliceCheck};
use super::client::{Core, Pending};
use super::validators;

/// A length that stands for an absent text.
const NONE: u32 = u32::MAX;
/// A status: the text result is the error's data, to throw.
const ERR: i32 = -1;
/// `Pending::poll` and the other exports whose answer is a time: the error's data, to throw.
const ERR_TIME: f64 = -9.0;

/// A slab slot: `Taken` while an export works on its object (so it is not handed out again).
enum Slot<T> {
    Free,
    Taken,
    Live(T),
}

type Slab<T> = Local<Vec<Slot<T>>>;

/// A value of the module's one thread: a plain `static`. (`thread_local!` stores one the same
/// way on this target, but each access went through `LocalKey::with`: a call through its
/// accessor, a null check and the access-error panic path, one copy per closure, on a call's
/// path.)
struct Local<T>(Cell<T>);

// SAFETY: this build has no threads: without the `atomics` target feature (refused below) a wasm
// module's memory cannot be shared, so no two threads ever reach a `Local`.
unsafe impl<T> Sync for Local<T> {}
#[cfg(target_feature = "atomics")]
compile_error!("abi.rs's statics (`Local`) assume a wasm without threads");

impl<T> Local<T> {
    const fn new(value: T) -> Self {
        Local(Cell::new(value))
    }
}

/// The argument bytes JS wrote for the next export (`lpm_args`).
static ARGS: Local<Vec<u8>> = Local::new(Vec::new());
/// The last text result, kept until the next replaces it.
static OUT: Local<Vec<u8>> = Local::new(Vec::new());
/// The result area (`lpm_result`): where the last text result is, and a new pending call's numbers.
static RESULT: Local<Area> = Local::new(Area {
    text: [0, 0],
    nums: [0.0; 3],
});

/// The result area: where the last text result is (address, length), and a new pending call's
/// numbers (`Pending::describe`), which `pkg-templates/abi.ts` views at offset 8.
#[derive(Clone, Copy)]
#[repr(C)]
struct Area {
    text: [u32; 2],
    nums: [f64; 3],
}
// The layout `pkg-templates/abi.ts` views: two u32, then the f64s at offset 8 (aligned).
const _: () = assert!(core::mem::offset_of!(Area, nums) == 8 && core::mem::align_of::<Area>() == 8);
static CORES: Slab<Rc<Core>> = Local::new(Vec::new());
static PENDING: Slab<Box<Pending>> = Local::new(Vec::new());
#[cfg(feature = "bulk")]
static JOBS: Slab<Box<BulkJob>> = Local::new(Vec::new());
#[cfg(feature = "bulk")]
static CHECKS: Slab<Box<SliceCheck>> = Local::new(Vec::new());

/// Runs `f` on the slab's slots (taken out of the cell for the while: nothing in `f` re-enters).
fn slots<T, R>(slab: &'static Slab<T>, f: impl FnOnce(&mut Vec<Slot<T>>) -> R) -> R {
    let mut v = slab.0.take();
    let r = f(&mut v);
    slab.0.set(v);
    r
}

// Out of line, as `out` below: each export that makes an object had its own copy (with the
// statics, the two out of line cost the package 127 B gzip less than inlined).
#[inline(never)]
fn insert<T>(slab: &'static Slab<T>, value: T) -> u32 {
    slots(slab, |v| {
        let at = match v.iter().position(|s| matches!(s, Slot::Free)) {
            Some(at) => at,
            None => {
                v.push(Slot::Free);
                v.len() - 1
            }
        };
        if let Some(slot) = v.get_mut(at) {
            *slot = Slot::Live(value);
        }
        at as u32 + 1
    })
}

fn slot<T>(v: &mut [Slot<T>], handle: u32) -> Option<&mut Slot<T>> {
    v.get_mut((handle as usize).wrapping_sub(1))
}

/// The object of `handle`, taken out of its slab until [`put`] gives it back.
fn take<T>(slab: &'static Slab<T>, handle: u32) -> Option<T> {
    slots(slab, |v| {
        let s = slot(v, handle)?;
        match core::mem::replace(s, Slot::Taken) {
            Slot::Live(t) => Some(t),
            other => {
                *s = other;
                None
            }
        }
    })
}

fn put<T>(slab: &'static Slab<T>, handle: u32, value: T) {
    slots(slab, |v| {
        if let Some(s) = slot(v, handle) {
            *s = Slot::Live(value);
        }
    })
}

fn free<T>(slab: &'static Slab<T>, handle: u32) {
    // The object is dropped after the slab is back in its cell.
    let _gone = slots(slab, |v| {
        slot(v, handle).map(|s| core::mem::replace(s, Slot::Free))
    });
}

/// The core of `handle` (shared: a trap in its export leaves it in place).
fn core_of(handle: u32) -> Option<Rc<Core>> {
    slots(&CORES, |v| match slot(v, handle)? {
        Slot::Live(c) => Some(c.clone()),
        _ => None,
    })
}

/// Runs `f` on the object of `handle` (taken out of its slab for the while); `None` when there is
/// none.
fn with<T, R>(slab: &'static Slab<Box<T>>, handle: u32, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    let mut t = take(slab, handle)?;
    let r = f(&mut t);
    put(slab, handle, t);
    Some(r)
}

/// Runs `f` on the pending call of `handle`; `None` when there is none.
fn with_pending<R>(handle: u32, f: impl FnOnce(&mut Pending) -> R) -> Option<R> {
    with(&PENDING, handle, f)
}

/// The error data of a handle that finds nothing: the glue's defect, an `internal` error.
fn gone() -> String {
    String::from(concat!(
        r#"{"lpmKind":"internal","message":"the client's wasm side has no such object (freed, or lost in a trap)","#,
        r#""data":{"reason":"noSuchHandle"}}"#
    ))
}

/// Keeps `text` as the text result and says where it is.
#[inline(never)]
fn out(text: impl Into<Vec<u8>>) {
    let text = text.into();
    RESULT.0.set(Area {
        text: [text.as_ptr() as u32, text.len() as u32],
        ..RESULT.0.get()
    });
    OUT.0.set(text);
}

/// A status: 1 with the text, 0 without, [`ERR`] with the error's data.
fn status(r: Result<Option<String>, String>) -> i32 {
    match r {
        Ok(Some(text)) => {
            out(text);
            1
        }
        Ok(None) => 0,
        Err(e) => {
            out(e);
            ERR
        }
    }
}

/// A handle of a new object, or 0 with the error's data.
fn handle<T>(slab: &'static Slab<T>, r: Result<T, String>) -> u32 {
    match r {
        Ok(t) => insert(slab, t),
        Err(e) => {
            out(e);
            0
        }
    }
}

/// A time, or [`ERR_TIME`] with the error's data.
fn time(r: Result<f64, String>) -> f64 {
    r.unwrap_or_else(|e| {
        out(e);
        ERR_TIME
    })
}

/// The arguments JS wrote (`lpm_args`), taken for one export.
struct Args(Vec<u8>);

impl Args {
    fn take() -> Args {
        Args(ARGS.0.take())
    }

    /// The first piece: `len` bytes (`None` for [`NONE`], or past the end: the glue's defect).
    fn bytes(&self, len: u32) -> Option<&[u8]> {
        (len != NONE).then(|| self.0.get(..len as usize)).flatten()
    }

    /// The texts of `lens` bytes each, one after the other, as [`Args::bytes`] (at most four;
    /// the rest `None`).
    fn texts(&self, lens: &[u32]) -> [Option<&str>; 4] {
        let mut texts = [None; 4];
        let mut at = 0usize;
        for (text, &len) in texts.iter_mut().zip(lens) {
            // An absent text takes no bytes (the glue writes nothing for it).
            let from = at;
            if len != NONE {
                at = at.saturating_add(len as usize);
                // SAFETY: the glue writes a text argument only with `TextEncoder.encodeInto`
                // (`args` in pkg-templates/abi.ts), which writes whole UTF-8 sequences; no other
                // bytes are passed to an export as a text, and nothing outside the package's
                // modules can call the exports (its `exports` map names only the entries and
                // package.json). Checking again here would read every argument's bytes twice.
                *text = self
                    .0
                    .get(from..at)
                    .map(|b| unsafe { core::str::from_utf8_unchecked(b) });
            }
        }
        texts
    }

    /// Gives the buffer back for the next call.
    fn done(self) {
        // A buffer grown past 1 MiB (a large import's rows) is given back to the allocator rather
        // than held for the instance's life (the next large call grows one again).
        if self.0.len() <= 1 << 20 {
            ARGS.0.set(self.0);
        }
    }
}

/// Room for `len` bytes of arguments: their address (valid until the next call). The buffer only
/// grows (what is added is zeroed; the pieces are read by their lengths): a call's few bytes of
/// arguments between two bodies do not make the next body's room zeroed again. Its largest size
/// stays reserved, as the wasm's memory would anyway (it never shrinks).
#[no_mangle]
pub extern "C" fn lpm_args(len: u32) -> u32 {
    let mut v = ARGS.0.take();
    if v.len() < len as usize {
        // A new zeroed buffer (one `memory.fill`) rather than `resize`, whose byte-at-a-time loop
        // is slow on a large import's room; what it held is not read.
        v = vec![0; len as usize];
    }
    let at = v.as_mut_ptr() as u32;
    ARGS.0.set(v);
    at
}

/// The result area's address: two u32, the last text result's address and length; then, at
/// offset 8, three f64, a new pending call's numbers (`Pending::describe`).
#[no_mangle]
pub extern "C" fn lpm_result() -> u32 {
    RESULT.0.as_ptr() as u32
}

/// A client core of the options (JSON text) and the guard's base URL (or none): its handle, or 0
/// with the `ConfigError` data.
#[no_mangle]
pub extern "C" fn lpm_core_new(options: u32, guard_base: u32) -> u32 {
    let a = Args::take();
    let [options, base, ..] = a.texts(&[options, guard_base]);
    let core = Core::new(options.unwrap_or(""), base).map(Rc::new);
    a.done();
    handle(&CORES, core)
}

/// The same core with another token (none: the caller's is not a string); as `lpm_core_new`.
#[no_mangle]
pub extern "C" fn lpm_core_with_token(core: u32, token: u32) -> u32 {
    let a = Args::take();
    let [token, ..] = a.texts(&[token]);
    let core = core_of(core)
        .ok_or_else(gone)
        .and_then(|c| c.with_token(token));
    a.done();
    handle(&CORES, core.map(Rc::new))
}

#[no_mangle]
pub extern "C" fn lpm_core_free(core: u32) {
    free(&CORES, core);
}

/// `which` 0: the normalised base URL, 1: the interval store's key of the client's bulk creates.
#[no_mangle]
pub extern "C" fn lpm_core_text(core: u32, which: u32) -> i32 {
    status(core_of(core).ok_or_else(gone).map(|c| {
        Some(match which {
            0 => c.base_url().to_owned(),
            _ => c.guard_key(),
        })
    }))
}

#[no_mangle]
pub extern "C" fn lpm_core_next_create_allowed_at(core: u32, now: f64, last: f64) -> f64 {
    core_of(core).map_or(f64::NAN, |c| c.next_create_allowed_at(now, last))
}

/// Plans a call (arguments: the method, its two arguments as JSON text or none, the call's
/// options as JSON text): the pending call's handle with its description (`Pending::describe`)
/// as the text result, in one crossing; or 0 with the error's data.
#[no_mangle]
pub extern "C" fn lpm_plan(core: u32, method: u32, a: u32, b: u32, options: u32) -> u32 {
    let args = Args::take();
    let [method, x, y, options] = args.texts(&[method, a, b, options]);
    let planned = core_of(core)
        .ok_or_else(gone)
        .and_then(|c| c.plan(method.unwrap_or(""), x, y, options.unwrap_or("")));
    args.done();
    pending(planned)
}

/// A new pending call's handle, its description the text result; or 0 with the error's data.
fn pending(planned: Result<Pending, String>) -> u32 {
    match planned {
        Ok(p) => described(p),
        Err(e) => {
            out(e);
            0
        }
    }
}

/// The handle of a new pending call, its description (`Pending::describe`) the text result and
/// its numbers in the result area.
fn described(mut p: Pending) -> u32 {
    let (text, nums) = p.describe();
    out(text);
    RESULT.0.set(Area {
        nums,
        ..RESULT.0.get()
    });
    insert(&PENDING, Box::new(p))
}

#[no_mangle]
pub extern "C" fn lpm_pending_free(pending: u32) {
    free(&PENDING, pending);
}

/// `Pending::poll`; [`ERR_TIME`] with the error's data (an `IntervalError`'s, or none such call).
#[no_mangle]
pub extern "C" fn lpm_pending_poll(pending: u32, now: f64, last: f64) -> f64 {
    time(with_pending(pending, |p| p.poll(now, last)).unwrap_or_else(|| Err(gone())))
}

/// `Pending::handle_response` (`timed_out` < 0), else `Pending::handle_failure`: one export.
#[no_mangle]
pub extern "C" fn lpm_pending_handle(
    pending: u32,
    now: f64,
    status: u32,
    retry_after_ms: f64,
    jitter: f64,
    timed_out: i32,
) -> f64 {
    let r = with_pending(pending, |p| match timed_out {
        0.. => p.handle_failure(now, timed_out > 0, jitter),
        _ => p.handle_response(now, status as u16, retry_after_ms, jitter),
    });
    r.unwrap_or(-1.0)
}

/// Checks the final answer (argument: the body's bytes; `utf8`: 0 when `lpm_ascii` found them
/// not UTF-8): a status (1: the derived fields are the text result).
#[no_mangle]
pub extern "C" fn lpm_pending_decode(pending: u32, status: u32, body: u32, utf8: u32) -> i32 {
    let a = Args::take();
    let body = a.bytes(body);
    let r = with_pending(pending, |p| {
        let utf8 = match utf8 {
            0 => lpm_client::check::Utf8::Invalid,
            _ => lpm_client::check::Utf8::Valid,
        };
        p.decode(status as u16, body.unwrap_or(&[]), utf8)
    });
    a.done();
    self::status(r.unwrap_or_else(|| Err(gone())))
}

/// The argument's JSON text in ASCII (`json::ascii`), for `JSON.parse`: 1 with it as the text
/// result, 0 when the text is to be read as it is, -1 when it is not UTF-8. The arguments stay
/// for the next export (`lpm_pending_decode` checks the same bytes).
#[no_mangle]
pub extern "C" fn lpm_ascii(text: u32) -> i32 {
    let a = Args::take();
    let r = match a.bytes(text).and_then(lpm_client::json::ascii) {
        Some(ascii) => {
            let r = i32::from(!ascii.is_empty());
            out(ascii);
            r
        }
        None => ERR,
    };
    ARGS.0.set(a.0);
    r
}

/// The error data of a failure the host saw (`Pending::failure`), as the text result.
#[no_mangle]
pub extern "C" fn lpm_pending_failure(pending: u32, kind: u32) -> i32 {
    status(with_pending(pending, |p| Some(p.failure(kind))).ok_or_else(gone))
}

/// The argument text with the call's token redacted, as the text result.
#[no_mangle]
pub extern "C" fn lpm_pending_redact(pending: u32, text: u32) -> i32 {
    let a = Args::take();
    let [text, ..] = a.texts(&[text]);
    let r = with_pending(pending, |p| Some(p.redact(text.unwrap_or(""))));
    a.done();
    status(r.ok_or_else(gone))
}

/// The issues of a validator (arguments: its kind, the value as JSON text or none, the options as
/// JSON text), as the text result.
#[no_mangle]
pub extern "C" fn lpm_validate(kind: u32, value: u32, options: u32) -> i32 {
    let a = Args::take();
    let [kind, value, options, ..] = a.texts(&[kind, value, options]);
    let r = validators::validate(kind.unwrap_or(""), value, options.unwrap_or(""));
    a.done();
    status(r.map(Some))
}

/// The `NewUser` field of a spreadsheet header (the argument), as the text result (0: none).
#[no_mangle]
pub extern "C" fn lpm_column_of(header: u32) -> i32 {
    let a = Args::take();
    let [header, ..] = a.texts(&[header]);
    let field = header.and_then(lpm_client::columns::column);
    a.done();
    status(Ok(field.map(str::to_owned)))
}

/// Runs `f` on the bulk job of `handle`; `None` when there is none.
#[cfg(feature = "bulk")]
fn with_job<R>(handle: u32, f: impl FnOnce(&mut BulkJob) -> R) -> Option<R> {
    with(&JOBS, handle, f)
}

/// A bulk job of the core (arguments: its kind, input, engine options and journal, as
/// `Core::bulk_job` takes them): its handle, or 0 with the error's data.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_bulk_job(
    core: u32,
    kind: u32,
    input: u32,
    options: u32,
    journal: u32,
) -> u32 {
    let a = Args::take();
    let [kind, input, options, journal] = a.texts(&[kind, input, options, journal]);
    let job = core_of(core).ok_or_else(gone).and_then(|c| {
        c.bulk_job(
            kind.unwrap_or(""),
            input.unwrap_or(""),
            options.unwrap_or(""),
            journal.unwrap_or(""),
        )
    });
    a.done();
    handle(&JOBS, job.map(Box::new))
}

/// The pending call of the request the job's last poll handed out, as `lpm_plan` answers (its
/// body, ~10 KB a chunk, at the end of the description: not escaped into it and back); 0: none is
/// ready; `u32::MAX` with the error's data: no such core or job.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_bulk_request(core: u32, job: u32) -> u32 {
    let ready = core_of(core).and_then(|c| with_job(job, |j| c.bulk_request(j)));
    match ready {
        Some(Some(p)) => described(p),
        Some(None) => 0,
        None => {
            out(gone());
            u32::MAX
        }
    }
}

#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_free(job: u32) {
    free(&JOBS, job);
}

/// `BulkJob::poll` ([`ERR_TIME`]: no such job).
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_poll(job: u32, now: f64) -> f64 {
    time(with_job(job, |j| j.poll(now)).ok_or_else(gone))
}

/// `which` 0: the events to persist, 1: the report, 2: the rows' issues, 3: the next progress
/// event (status 0: none), as the text result.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_text(job: u32, which: u32) -> i32 {
    status(
        with_job(job, |j| match which {
            0 => Some(j.events()),
            1 => Some(j.report()),
            2 => Some(j.issues()),
            _ => j.progress(),
        })
        .ok_or_else(gone),
    )
}

/// `BulkJob::may_plan` (0 or 1).
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_may_plan(job: u32, now: f64) -> u32 {
    with_job(job, |j| j.may_plan(now)).unwrap_or(false) as u32
}

#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_hold_until(job: u32, at: f64) {
    with_job(job, |j| j.hold_until(at));
}

/// The answer of the request handed out (argument: the body's bytes): a status.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_response(job: u32, now: f64, status: u32, body: u32) -> i32 {
    let a = Args::take();
    let body = a.bytes(body);
    let r = with_job(job, |j| {
        j.handle_response(now, status as u16, body.unwrap_or(&[]))
    });
    a.done();
    self::status(r.unwrap_or_else(|| Err(gone())).map(|()| None))
}

/// The request handed out got no answer (`kind` as `BulkJob::handle_failure`'s): a status.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_job_failure(job: u32, now: f64, kind: u32) -> i32 {
    let r = with_job(job, |j| j.handle_failure(now, kind));
    status(r.unwrap_or_else(|| Err(gone())).map(|()| None))
}

/// A create-users list of about `rows` items (0: not known) validated a slice at a time
/// (argument: the validators' options, JSON text): its handle.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_users_check_new(options: u32, rows: u32) -> u32 {
    let a = Args::take();
    let [options, ..] = a.texts(&[options]);
    let check = SliceCheck::new(options.unwrap_or(""), rows);
    a.done();
    insert(&CHECKS, Box::new(check))
}

/// The issues of the list's next slice (argument: the slice as JSON text, or none), as the text
/// result.
#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_users_check(check: u32, slice: u32) -> i32 {
    let a = Args::take();
    let [slice, ..] = a.texts(&[slice]);
    let r = with(&CHECKS, check, |c| c.check(slice)).ok_or_else(gone);
    a.done();
    status(r.map(Some))
}

#[cfg(feature = "bulk")]
#[no_mangle]
pub extern "C" fn lpm_users_check_free(check: u32) {
    free(&CHECKS, check);
}
