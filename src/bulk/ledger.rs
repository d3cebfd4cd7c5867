//! What both jobs share: where each row stands, the chunks, the pacing, the journal queue, and
//! the one function that applies an event, live and on replay, so a resumed job is in the state
//! the interrupted one was in.

use std::collections::VecDeque;

use super::journal::{DoubtReason, Event, LookupOutcome, Outcome, PlannedRow};
use super::judge::Window;
use super::num;
use super::{chunks_for, Counts, JournalError, Progress, RowResult};
use crate::validate::Issue;

/// The event index [`Ledger::apply`] gets for a live event (not from a journal).
const LIVE: usize = usize::MAX;

/// Where a row stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum State {
    SetAside,
    Pending,
    Planned(u32),
    Sent(u32),
    /// To look up; `recheck` is the status to report when nothing is found.
    InDoubt {
        recheck: Option<String>,
    },
    /// In doubt, and the look-up cannot be made in this run (not journaled).
    Unresolved(String),
    Done(Outcome),
}

/// Counts of rows by where they stand.
pub(super) struct Tally {
    pub done: usize,
    pub failed: usize,
    pub set_aside: usize,
    pub unresolved: usize,
    pub remaining: usize,
}

/// A set of row indices in ascending order: one bit a row (a `BTreeSet` would bring the wasm
/// its code).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Rows {
    bits: Vec<u64>,
    len: usize,
}

impl Rows {
    /// Adds `row`; `false` when it was there.
    pub fn insert(&mut self, row: usize) -> bool {
        let (w, bit) = (row / 64, 1u64 << (row % 64));
        if self.bits.len() <= w {
            self.bits.resize(w + 1, 0);
        }
        let new = self.bits[w] & bit == 0;
        self.bits[w] |= bit;
        self.len += usize::from(new);
        new
    }

    /// Removes `row`; `false` when it was not there.
    pub fn remove(&mut self, row: &usize) -> bool {
        let had = self.contains(row);
        if had {
            self.bits[row / 64] &= !(1u64 << (row % 64));
            self.len -= 1;
        }
        had
    }

    pub fn contains(&self, row: &usize) -> bool {
        self.bits
            .get(row / 64)
            .is_some_and(|w| w & (1u64 << (row % 64)) != 0)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The rows, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }
}

impl FromIterator<usize> for Rows {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Rows {
        let mut rows = Rows::default();
        for r in iter {
            rows.insert(r);
        }
        rows
    }
}

/// When chunks may go: when the last call ended and the interval.
#[derive(Clone, Debug)]
pub(super) struct Pacer {
    pub interval_ms: u64,
    /// When the last call ended (its answer, or its give-up; its send while it is out): the
    /// platform counts the interval from when it handled a call, so the next one leaves the
    /// interval after the last answer however long the platform took.
    pub last_call_at: Option<u64>,
    /// An extra gate (a retry delay after a failure).
    pub not_before: u64,
    /// The hold of creates this job does not know of (a shared interval store), on this
    /// machine's clock.
    pub held_until: u64,
}

/// How far past `now` a stored time (the journal's last call, the interval store's hold beyond
/// one interval) may lie before it is taken for damage, in ms.
// Decision: a minute: the journal and the store are written by this machine's clock, so a time
// further ahead is a damaged store or a clock set back (days, in the field); the job then waits
// one interval from now, with a warning, rather than for days.
pub(super) const FUTURE_BOUND_MS: u64 = 60_000;

impl Pacer {
    /// The earliest time the next chunk may go.
    pub fn next_send_at(&self) -> u64 {
        let by_interval = self
            .last_call_at
            .map_or(0, |at| at.saturating_add(self.interval_ms));
        by_interval.max(self.not_before).max(self.held_until)
    }

    /// Refuses stored times beyond [`FUTURE_BOUND_MS`] ahead of `now`: the last call is taken as
    /// now and a hold as one interval from now. The warning when it did.
    pub fn refuse_future(&mut self, now: u64) -> Option<String> {
        let bound = now.saturating_add(FUTURE_BOUND_MS);
        let last = self.last_call_at.filter(|&t| t > bound);
        let held = (self.held_until > bound.saturating_add(self.interval_ms))
            .then(|| self.held_until - self.interval_ms);
        let ahead = last.max(held)?;
        if last.is_some() {
            self.last_call_at = Some(now);
        }
        if held.is_some() {
            self.held_until = now.saturating_add(self.interval_ms);
        }
        let min = super::num(((ahead - now) / 60_000) as usize);
        Some(["a stored create time ", &min, " min ahead of this clock was refused as damaged: the next waits one interval from now"].concat())
    }

    /// The estimated end of `chunks` more chunks, the first at `next_send_at`, one interval
    /// each (answers counted as instant).
    pub fn estimate_end(&self, now: u64, chunks: usize) -> Option<u64> {
        if chunks == 0 {
            return None;
        }
        let first = self.next_send_at().max(now);
        let rest = u64::try_from(chunks - 1).unwrap_or(u64::MAX);
        Some(first.saturating_add(rest.saturating_mul(self.interval_ms)))
    }
}

/// One sent chunk's times, as the judge reads its window ([`Window`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sent {
    pub chunk: u32,
    /// `chunkSending`.
    pub at: u64,
    /// `chunkEnded`, when journaled.
    pub ended: Option<u64>,
    /// Its answer was lost (a transport failure, an unreadable answer, a process that died):
    /// the platform may have gone on after `ended`.
    pub lost: bool,
}

impl Sent {
    /// The window in which the platform may have made this send's accounts.
    pub fn window(&self) -> Window {
        match self.ended {
            Some(end) if !self.lost => Window::answered(self.at, end),
            end => Window::lost(self.at, end),
        }
    }
}

/// "None" in [`Ledger::doubt_head`] and the links.
const NO_LINK: u32 = u32::MAX;

pub(super) struct Ledger {
    job: &'static str,
    courses: Vec<String>,
    /// How the journal names each row.
    keys: Vec<PlannedRow>,
    /// A grant sends rows in doubt again; an import looks them up.
    resend_in_doubt: bool,
    pub states: Vec<State>,
    /// Rows by where they stand, in [`Tally`]'s order (which [`count`] gives).
    counts: [usize; 5],
    pub pending: Rows,
    pub in_doubt: Rows,
    /// Rows an earlier send of which was in doubt: they may exist already.
    pub doubted: Rows,
    /// Every sent chunk's times, by chunk number (ascending: chunks are numbered in order).
    pub sent: Vec<Sent>,
    /// Each row's latest send in doubt, an index into `doubt_links` (empty until a doubt).
    doubt_head: Vec<u32>,
    /// (chunk, the row's previous link): the sends in doubt of each row, newest first.
    doubt_links: Vec<(u32, u32)>,
    /// The chunk sent and not yet ended (its answer awaited; on replay: the process died).
    pub open: Option<u32>,
    next_chunk: u32,
    /// The last planned chunk and its rows.
    last_chunk: Option<(u32, Vec<usize>)>,
    pub pacer: Pacer,
    journal: Vec<Event>,
    pub progress: VecDeque<Progress>,
    /// Why the run stopped early.
    pub halted: Option<String>,
    /// The category of the platform's refusal that stopped the run, when one did.
    pub halted_by: Option<crate::codes::Category>,
    /// Calls in a row that failed in a way that may pass.
    pub failures: u32,
    /// The last warning of this run (a stored time refused as damaged), for progress.
    pub warning: Option<String>,
    /// The last failure that may pass, in words, for progress while failures are in a row.
    pub last_error: Option<String>,
}

/// Which of a [`Tally`]'s counts, in its order, a row in `state` adds to.
fn count(state: &State) -> usize {
    match state {
        State::Done(Outcome::Created { .. } | Outcome::Granted) => 0,
        State::Done(Outcome::InDoubt { .. }) => 3,
        State::Done(_) => 1,
        State::SetAside => 2,
        State::Unresolved(_) => 3,
        _ => 4,
    }
}

/// The counts of rows in `states`, in a [`Tally`]'s order.
fn recount(states: &[State]) -> [usize; 5] {
    let mut counts = [0; 5];
    for s in states {
        if let Some(n) = counts.get_mut(count(s)) {
            *n += 1;
        }
    }
    counts
}

fn out_of_order(index: usize, detail: impl Into<String>) -> JournalError {
    JournalError::OutOfOrder {
        index,
        detail: detail.into(),
    }
}

impl Ledger {
    /// A ledger over rows named by `keys`, those in `set_aside` set aside.
    pub fn new(
        job: &'static str,
        courses: Vec<String>,
        keys: Vec<PlannedRow>,
        set_aside: &[bool],
        interval_ms: u64,
        resend_in_doubt: bool,
    ) -> Ledger {
        let states: Vec<State> = set_aside
            .iter()
            .map(|&a| if a { State::SetAside } else { State::Pending })
            .collect();
        let pending = (0..states.len())
            .filter(|&r| states[r] == State::Pending)
            .collect();
        Ledger {
            job,
            courses,
            keys,
            resend_in_doubt,
            counts: recount(&states),
            states,
            pending,
            in_doubt: Rows::default(),
            doubted: Rows::default(),
            sent: Vec::new(),
            doubt_head: Vec::new(),
            doubt_links: Vec::new(),
            open: None,
            next_chunk: 0,
            last_chunk: None,
            pacer: Pacer {
                interval_ms,
                last_call_at: None,
                not_before: 0,
                held_until: 0,
            },
            warning: None,
            last_error: None,
            journal: Vec::new(),
            progress: VecDeque::new(),
            halted: None,
            halted_by: None,
            failures: 0,
        }
    }

    /// Starts a fresh journal, or replays one (every event persisted, in order). After a
    /// replay, rows of a chunk planned and never sent go back to pending, and rows sent with no
    /// outcome are in doubt (journaled, so the next resume knows).
    pub fn start(&mut self, journal: &[Event]) -> Result<(), JournalError> {
        if journal.is_empty() {
            let started = Event::Started {
                job: self.job.to_owned(),
                rows: self.states.len(),
                courses: self.courses.clone(),
            };
            self.record(started);
            return Ok(());
        }
        for (index, event) in journal.iter().enumerate() {
            if index == 0 && !matches!(event, Event::Started { .. }) {
                return Err(JournalError::NoStart);
            }
            self.apply(index, event)?;
        }
        let mut sent: Vec<(u32, Vec<usize>)> = Vec::new();
        for r in 0..self.states.len() {
            match self.states[r] {
                State::Planned(_) => self.set(r, State::Pending),
                State::Sent(c) => match sent.iter_mut().find(|(k, _)| *k == c) {
                    Some((_, rows)) => rows.push(r),
                    None => sent.push((c, vec![r])),
                },
                _ => {}
            }
        }
        for (chunk, rows) in sent {
            self.record(Event::RowsInDoubt {
                chunk,
                rows,
                reason: DoubtReason::Interrupted,
            });
        }
        Ok(())
    }

    /// Moves a row to a new state, keeping the indexes.
    pub fn set(&mut self, row: usize, state: State) {
        match state {
            State::Pending => {
                self.pending.insert(row);
                self.in_doubt.remove(&row);
            }
            State::InDoubt { .. } => {
                self.in_doubt.insert(row);
                self.pending.remove(&row);
            }
            _ => {
                self.pending.remove(&row);
                self.in_doubt.remove(&row);
            }
        }
        if let Some(n) = self.counts.get_mut(count(&self.states[row])) {
            *n -= 1;
        }
        if let Some(n) = self.counts.get_mut(count(&state)) {
            *n += 1;
        }
        self.states[row] = state;
    }

    fn row(&self, index: usize, row: usize) -> Result<usize, JournalError> {
        if row < self.states.len() {
            Ok(row)
        } else {
            Err(out_of_order(
                index,
                ["row ", &num(row), " is outside the input"].concat(),
            ))
        }
    }

    /// The rows of the last planned chunk, when it is `chunk`.
    fn last(&self, index: usize, chunk: u32) -> Result<Vec<usize>, JournalError> {
        match &self.last_chunk {
            Some((c, rows)) if *c == chunk => Ok(rows.clone()),
            _ => Err(out_of_order(
                index,
                ["chunk ", &num(chunk as usize), " is not the last planned"].concat(),
            )),
        }
    }

    /// Moves the rows in `from` to `to`.
    fn shift(&mut self, rows: Vec<usize>, from: &State, to: &State) {
        for r in rows {
            if &self.states[r] == from {
                self.set(r, to.clone());
            }
        }
    }

    /// Applies one event to the state: the same code runs live and on replay.
    fn apply(&mut self, index: usize, event: &Event) -> Result<(), JournalError> {
        match event {
            Event::Started { job, rows, courses } => {
                if index != 0 && index != LIVE {
                    return Err(out_of_order(index, "a second `started` event"));
                }
                if job != self.job {
                    return Err(JournalError::WrongJob {
                        journal: job.clone(),
                    });
                }
                if *rows != self.states.len() {
                    return Err(JournalError::RowCount {
                        journal: *rows,
                        input: self.states.len(),
                    });
                }
                if courses != &self.courses {
                    return Err(out_of_order(index, "the journal grants other courses"));
                }
            }
            Event::ChunkPlanned { chunk, rows } => {
                if *chunk < self.next_chunk {
                    return Err(out_of_order(
                        index,
                        ["chunk ", &num(*chunk as usize), " is planned again"].concat(),
                    ));
                }
                // A chunk planned and never sent gave its rows back.
                if let Some((c, old)) = self.last_chunk.take() {
                    self.shift(old, &State::Planned(c), &State::Pending);
                }
                let mut planned = Vec::with_capacity(rows.len());
                for p in rows {
                    let r = self.row(index, p.row)?;
                    if &self.keys[r] != p {
                        return Err(JournalError::RowMismatch { row: r });
                    }
                    // A row set aside now may have been sent by an earlier run with other
                    // options: the journal wins.
                    if !matches!(self.states[r], State::Pending | State::SetAside) {
                        return Err(out_of_order(
                            index,
                            ["row ", &num(r), " is planned twice"].concat(),
                        ));
                    }
                    self.set(r, State::Planned(*chunk));
                    planned.push(r);
                }
                self.next_chunk = chunk.saturating_add(1);
                self.last_chunk = Some((*chunk, planned));
            }
            Event::ChunkSending { chunk, at } => {
                let rows = self.last(index, *chunk)?;
                self.shift(rows, &State::Planned(*chunk), &State::Sent(*chunk));
                self.called_at(*at);
                if self.sent.last().is_some_and(|s| s.chunk == *chunk) {
                    return Err(out_of_order(index, "a chunk sent twice"));
                }
                self.sent.push(Sent {
                    chunk: *chunk,
                    at: *at,
                    ended: None,
                    lost: false,
                });
                self.open = Some(*chunk);
            }
            Event::ChunkEnded { chunk, at } => {
                let Some(sent) = self.sent_mut(*chunk) else {
                    return Err(out_of_order(
                        index,
                        ["chunk ", &num(*chunk as usize), " ended but was not sent"].concat(),
                    ));
                };
                sent.ended = Some(*at);
                if self.open == Some(*chunk) {
                    self.open = None;
                }
                self.called_at(*at);
            }
            Event::ChunkRefused { chunk, .. } => {
                let rows = self.last(index, *chunk)?;
                self.shift(rows, &State::Sent(*chunk), &State::Pending);
            }
            Event::RowsInDoubt {
                chunk,
                rows,
                reason,
            } => {
                let recheck = match reason {
                    DoubtReason::AlreadyInUse { status } => Some(status.clone()),
                    _ => None,
                };
                let lost = matches!(
                    reason,
                    DoubtReason::Transport { .. }
                        | DoubtReason::Unreadable { .. }
                        | DoubtReason::Interrupted
                );
                if let Some(sent) = self.sent_mut(*chunk).filter(|_| lost) {
                    sent.lost = true;
                }
                for &r in rows {
                    let r = self.row(index, r)?;
                    if self.states[r] != State::Sent(*chunk) {
                        return Err(out_of_order(
                            index,
                            [
                                "row ",
                                &num(r),
                                " is in doubt but not sent in chunk ",
                                &num(*chunk as usize),
                            ]
                            .concat(),
                        ));
                    }
                    self.doubted.insert(r);
                    // A send answered "already in use" made nothing: its row's windows are the
                    // sends before it.
                    if recheck.is_none() {
                        self.link_doubt(r, *chunk);
                    }
                    let next = if self.resend_in_doubt {
                        State::Pending
                    } else {
                        State::InDoubt {
                            recheck: recheck.clone(),
                        }
                    };
                    self.set(r, next);
                }
            }
            Event::ChunkOutcomes {
                chunk,
                rows,
                outcomes,
            } => {
                if rows.len() != outcomes.len() {
                    return Err(out_of_order(index, "rows and outcomes differ in number"));
                }
                for (&row, outcome) in rows.iter().zip(outcomes) {
                    let r = self.row(index, row)?;
                    if self.states[r] != State::Sent(*chunk) {
                        return Err(out_of_order(
                            index,
                            ["row ", &num(r), " has an outcome but was not sent"].concat(),
                        ));
                    }
                    self.set(r, State::Done(outcome.clone()));
                }
            }
            Event::LookupResult { row, result } => {
                let r = self.row(index, *row)?;
                let State::InDoubt { recheck } = &self.states[r] else {
                    return Err(out_of_order(
                        index,
                        ["row ", &num(r), " is looked up but not in doubt"].concat(),
                    ));
                };
                let next = match (result, recheck) {
                    (LookupOutcome::Created { user_id }, _) => State::Done(Outcome::Created {
                        user_id: user_id.clone(),
                    }),
                    (LookupOutcome::Conflict { existing }, _) => State::Done(Outcome::Conflict {
                        existing: existing.clone(),
                    }),
                    (LookupOutcome::InDoubt { existing }, _) => State::Done(Outcome::InDoubt {
                        existing: existing.clone(),
                    }),
                    (LookupOutcome::NotFound, Some(status)) => State::Done(Outcome::Failed {
                        status: status.clone(),
                    }),
                    (LookupOutcome::NotFound, None) => State::Pending,
                };
                self.set(r, next);
            }
            Event::RowLooked { .. } => {
                return Err(out_of_order(index, "a sync's look-up in an engine's part"))
            }
        }
        Ok(())
    }

    /// Counts a call's send or end for the interval.
    fn called_at(&mut self, at: u64) {
        let last = self.pacer.last_call_at.unwrap_or(0).max(at);
        self.pacer.last_call_at = Some(last);
    }

    fn sent_mut(&mut self, chunk: u32) -> Option<&mut Sent> {
        let i = self.sent.binary_search_by_key(&chunk, |s| s.chunk).ok()?;
        self.sent.get_mut(i)
    }

    /// Notes that `row`'s send in `chunk` is in doubt.
    fn link_doubt(&mut self, row: usize, chunk: u32) {
        if self.doubt_head.is_empty() {
            self.doubt_head = vec![NO_LINK; self.states.len()];
        }
        let prev = self.doubt_head[row];
        let Ok(link) = u32::try_from(self.doubt_links.len()) else {
            return;
        };
        self.doubt_links.push((chunk, prev));
        self.doubt_head[row] = link;
    }

    /// The windows of `row`'s sends in doubt (empty: the journal never sent it in doubt).
    pub fn doubt_windows(&self, row: usize) -> Vec<Window> {
        let mut out = Vec::new();
        let mut link = self.doubt_head.get(row).copied().unwrap_or(NO_LINK);
        while let Some(&(chunk, prev)) = self.doubt_links.get(link as usize) {
            let i = self.sent.binary_search_by_key(&chunk, |s| s.chunk);
            if let Some(sent) = i.ok().and_then(|i| self.sent.get(i)) {
                out.push(sent.window());
            }
            link = prev;
        }
        out
    }

    /// The first poll of a run at `now`: a call the journal shows sent and never ended was cut
    /// off by the process's end, when is unknown: the interval counts from now (the platform may
    /// have handled it right before).
    pub fn restarted(&mut self, now: u64) {
        if self.open.take().is_some() {
            self.called_at(now);
        }
    }

    /// A poll's start at `now`: a job's first (`polled` still false) marks its restart, and a
    /// stored time far ahead is refused with a warning. Whether either happened: the poll then
    /// owes a progress event (told at the first poll, with its time: none before, when the time
    /// was unknown).
    pub fn start_poll(&mut self, polled: &mut bool, now: u64) -> bool {
        let first = !std::mem::replace(polled, true);
        if first {
            self.restarted(now);
        }
        let warning = self.pacer.refuse_future(now);
        let warned = warning.is_some();
        if warned {
            self.warning = warning;
        }
        first || warned
    }

    /// A call of `chunk` ended at `now` (its answer, or given up): journaled before its outcomes.
    pub fn ended(&mut self, chunk: u32, now: u64) {
        self.record(Event::ChunkEnded { chunk, at: now });
    }

    /// Applies a live event and queues it for the journal.
    pub fn record(&mut self, event: Event) {
        let applied = self.apply(LIVE, &event);
        debug_assert!(applied.is_ok(), "live event refused: {applied:?}");
        self.journal.push(event);
    }

    /// Whether events wait to be persisted.
    pub fn has_unpersisted(&self) -> bool {
        !self.journal.is_empty()
    }

    /// The events to persist, if any.
    pub fn take_journal(&mut self) -> Option<Vec<Event>> {
        (!self.journal.is_empty()).then(|| std::mem::take(&mut self.journal))
    }

    /// Plans the next chunk of `rows` sent at `now`: journals it and returns its number.
    pub fn plan(&mut self, rows: &[usize], now: u64) -> u32 {
        let chunk = self.next_chunk;
        let planned = rows.iter().map(|&r| self.keys[r].clone()).collect();
        self.record(Event::ChunkPlanned {
            chunk,
            rows: planned,
        });
        self.record(Event::ChunkSending { chunk, at: now });
        chunk
    }

    /// A failure that may pass: after `attempts` in a row the run stops, else the next chunk
    /// waits `delay_ms` more.
    pub fn failed_once(&mut self, now: u64, attempts: u32, delay_ms: u64, reason: String) {
        self.failures += 1;
        self.last_error = Some(reason.clone());
        if self.failures >= attempts {
            self.halted = Some(
                [
                    &num(self.failures as usize),
                    " failures in a row; the last: ",
                    &reason,
                ]
                .concat(),
            );
        } else {
            self.pacer.not_before = now.saturating_add(delay_ms);
        }
    }

    /// Rows by where they stand (kept as rows move, rather than counting every row for each
    /// progress event).
    pub fn tally(&self) -> Tally {
        debug_assert_eq!(self.counts, recount(&self.states));
        let [done, failed, set_aside, unresolved, remaining] = self.counts;
        Tally {
            done,
            failed,
            set_aside,
            unresolved,
            remaining,
        }
    }

    /// Where the job stands at `now`, chunks of `chunk_size`.
    pub fn progress_at(&self, now: u64, chunk_size: usize) -> Progress {
        let t = self.tally();
        let to_send = self.pending.len() + self.in_doubt.len();
        let sending = self.open.and_then(|chunk| {
            let rows = self
                .last_chunk
                .as_ref()
                .filter(|(c, _)| *c == chunk)?
                .1
                .clone();
            let since = self.sent.last().filter(|s| s.chunk == chunk)?.at;
            Some(super::Sending { rows, since })
        });
        let next = self.pacer.next_send_at();
        let waits = sending.is_none() && to_send > 0 && next > now;
        Progress {
            done: t.done,
            failed: t.failed,
            set_aside: t.set_aside,
            unresolved: t.unresolved,
            remaining: t.remaining,
            in_doubt: self.in_doubt.len(),
            looking_up: None,
            retries: self.failures,
            last_error: self.last_error.clone().filter(|_| self.failures > 0),
            next_send_at: waits.then_some(next),
            estimated_end_at: match sending {
                Some(_) => None,
                None => self
                    .pacer
                    .estimate_end(now, chunks_for(to_send, chunk_size)),
            },
            sending,
            warning: self.warning.clone(),
        }
    }

    /// Queues a progress event.
    pub fn push_progress(&mut self, now: u64, chunk_size: usize) {
        let p = self.progress_at(now, chunk_size);
        self.progress.push_back(p);
    }

    /// Why rows not finished did not finish, in a report.
    pub fn stop(&self) -> String {
        self.halted
            .clone()
            .unwrap_or_else(|| "the run stopped".to_owned())
    }

    /// Each row's result and the counts; `issues(row)` gives a set-aside row's issues.
    pub fn results<'a>(&self, issues: impl Fn(usize) -> &'a [Issue]) -> (Vec<RowResult>, Counts) {
        let stop = self.stop();
        let mut c = Counts {
            total: self.states.len(),
            ..Counts::default()
        };
        let results = self
            .states
            .iter()
            .enumerate()
            .map(|(row, state)| result(state, &stop, issues(row), &mut c))
            .collect();
        (results, c)
    }
}

/// Why a row whose account the job cannot show it made is in doubt: the account, to check.
fn unclear_reason(existing: &super::journal::Existing) -> String {
    [
        "in doubt: check account ",
        &existing.user_id,
        ": the job cannot show it made it",
    ]
    .concat()
}

/// A row's result in a report (`stop`: [`Ledger::stop`]; `issues`: a set-aside row's), counted
/// in `c`.
pub(super) fn result(state: &State, stop: &str, issues: &[Issue], c: &mut Counts) -> RowResult {
    match state {
        State::SetAside => {
            c.set_aside += 1;
            RowResult::SetAside {
                issues: issues.to_vec(),
            }
        }
        State::Done(Outcome::Created { user_id }) => {
            c.created += 1;
            RowResult::Created {
                user_id: user_id.clone(),
            }
        }
        State::Done(Outcome::Granted) => {
            c.granted += 1;
            RowResult::Granted
        }
        State::Done(Outcome::Failed { status }) => {
            c.failed += 1;
            RowResult::Failed {
                status: status.clone(),
            }
        }
        State::Done(Outcome::NoResult) => {
            c.failed += 1;
            RowResult::NoResult
        }
        State::Done(Outcome::Conflict { existing }) => {
            c.conflicts += 1;
            RowResult::Conflict {
                existing: existing.clone(),
            }
        }
        State::Done(Outcome::InDoubt { existing }) => {
            c.in_doubt += 1;
            RowResult::InDoubt {
                reason: unclear_reason(existing),
                existing: Some(existing.clone()),
            }
        }
        State::Unresolved(reason) => {
            c.in_doubt += 1;
            RowResult::InDoubt {
                reason: reason.clone(),
                existing: None,
            }
        }
        State::InDoubt { .. } | State::Sent(_) => {
            c.in_doubt += 1;
            RowResult::InDoubt {
                reason: stop.to_owned(),
                existing: None,
            }
        }
        State::Pending | State::Planned(_) => {
            c.not_sent += 1;
            RowResult::NotSent {
                reason: stop.to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_behave_as_a_btreeset_of_indices() {
        use std::collections::BTreeSet;
        // A fixed walk of inserts and removes over a range crossing several words.
        let mut ours = Rows::default();
        let mut reference = BTreeSet::new();
        let mut x: u64 = 7;
        for _ in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let row = (x >> 33) as usize % 300;
            if x & 1 == 0 {
                assert_eq!(ours.insert(row), reference.insert(row));
            } else {
                assert_eq!(ours.remove(&row), reference.remove(&row));
            }
            assert_eq!(ours.len(), reference.len());
            assert_eq!(ours.contains(&row), reference.contains(&row));
        }
        assert!(ours.iter().eq(reference.iter().copied()));
        assert_eq!(ours.is_empty(), reference.is_empty());
    }

    fn key(row: usize) -> PlannedRow {
        PlannedRow {
            row,
            email: Some(format!("r{row}@x.io")),
            username: Some(format!("r{row}")),
            user_id: None,
        }
    }

    fn ledger(rows: usize) -> Ledger {
        let keys = (0..rows).map(key).collect();
        Ledger::new("import", Vec::new(), keys, &vec![false; rows], 1_000, false)
    }

    fn started(rows: usize) -> Event {
        Event::Started {
            job: "import".into(),
            rows,
            courses: Vec::new(),
        }
    }

    fn planned(chunk: u32, rows: &[usize]) -> Event {
        Event::ChunkPlanned {
            chunk,
            rows: rows.iter().map(|&r| key(r)).collect(),
        }
    }

    fn refused(journal: &[Event]) -> JournalError {
        ledger(3).start(journal).expect_err("refused")
    }

    #[test]
    fn events_that_cannot_follow_are_refused() {
        let outcome = Event::ChunkOutcomes {
            chunk: 0,
            rows: vec![0],
            outcomes: vec![Outcome::Failed { status: "x".into() }],
        };
        // An outcome for a row never sent.
        let e = refused(&[started(3), planned(0, &[0]), outcome.clone()]);
        assert!(
            matches!(e, JournalError::OutOfOrder { index: 2, .. }),
            "{e:?}"
        );
        // A chunk planned twice, a second start, a row outside the input, a sending of another chunk.
        let sending = |chunk| Event::ChunkSending { chunk, at: 5 };
        let twice = refused(&[started(3), planned(1, &[0]), planned(1, &[1])]);
        assert!(matches!(twice, JournalError::OutOfOrder { index: 2, .. }));
        assert!(matches!(
            refused(&[started(3), started(3)]),
            JournalError::OutOfOrder { .. }
        ));
        let outside = Event::ChunkPlanned {
            chunk: 0,
            rows: vec![key(7)],
        };
        assert!(matches!(
            refused(&[started(3), outside]),
            JournalError::OutOfOrder { .. }
        ));
        assert!(matches!(
            refused(&[started(3), planned(0, &[0]), sending(1)]),
            JournalError::OutOfOrder { .. }
        ));
        // A chunk's outcomes naming a row of another chunk.
        let outcomes = Event::ChunkOutcomes {
            chunk: 1,
            rows: vec![0],
            outcomes: vec![Outcome::Granted],
        };
        let e = refused(&[started(3), planned(0, &[0]), sending(0), outcomes]);
        assert!(matches!(e, JournalError::OutOfOrder { index: 3, .. }));
        // A look-up of a row not in doubt.
        let lookup = Event::LookupResult {
            row: 0,
            result: LookupOutcome::NotFound,
        };
        let e = refused(&[started(3), planned(0, &[0]), sending(0), lookup]);
        assert!(matches!(e, JournalError::OutOfOrder { index: 3, .. }));
        // And the one that names another row's data.
        let mut other = key(1);
        other.email = Some("someone@else.io".into());
        let e = refused(&[
            started(3),
            Event::ChunkPlanned {
                chunk: 0,
                rows: vec![other],
            },
        ]);
        assert_eq!(e, JournalError::RowMismatch { row: 1 });
        assert_eq!(refused(&[outcome]), JournalError::NoStart);
    }

    #[test]
    fn a_replay_settles_planned_and_sent_rows() {
        let mut l = ledger(3);
        let journal = [
            started(3),
            planned(0, &[0, 1]),
            Event::ChunkSending { chunk: 0, at: 50 },
            Event::ChunkOutcomes {
                chunk: 0,
                rows: vec![0],
                outcomes: vec![Outcome::Created {
                    user_id: "a".into(),
                }],
            },
            planned(1, &[2]),
        ];
        l.start(&journal).unwrap();
        // Row 1 was sent with no outcome: in doubt, journaled; row 2 was never sent: pending.
        assert_eq!(l.states[1], State::InDoubt { recheck: None });
        assert_eq!(l.states[2], State::Pending);
        assert_eq!(
            l.take_journal().unwrap(),
            [Event::RowsInDoubt {
                chunk: 0,
                rows: vec![1],
                reason: DoubtReason::Interrupted
            }]
        );
        // The interval counts from the journaled send (ended: unknown, the process died).
        assert_eq!(l.pacer.next_send_at(), 1_050);
        assert_eq!(l.open, Some(0));
        l.restarted(700);
        assert_eq!(l.pacer.next_send_at(), 1_700, "and from the restart");
        // A chunk number is never reused.
        assert_eq!(l.plan(&[2], 2_000), 2);
    }

    #[test]
    fn the_pacer_estimates_the_end() {
        let mut p = Pacer {
            interval_ms: 600,
            last_call_at: None,
            not_before: 0,
            held_until: 0,
        };
        assert_eq!(p.next_send_at(), 0);
        assert_eq!(p.estimate_end(10, 0), None);
        assert_eq!(p.estimate_end(10, 3), Some(1_210));
        p.last_call_at = Some(100);
        assert_eq!(p.estimate_end(10, 2), Some(1_300));
        p.not_before = 5_000;
        assert_eq!(p.next_send_at(), 5_000);
        p.last_call_at = Some(u64::MAX);
        assert_eq!(p.estimate_end(0, usize::MAX), Some(u64::MAX));
    }
}
