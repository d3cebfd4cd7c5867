//! What both jobs share: where each row stands, the chunks, the pacing, the journal queue, and
//! the one function that applies an event, live and on replay, so a resumed job is in the state
//! the interrupted one was in.

use std::collections::VecDeque;

use super::journal::{DoubtReason, Event, LookupOutcome, Outcome, PlannedRow};
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

/// When chunks may go: the last send time and the interval.
#[derive(Clone, Debug)]
pub(super) struct Pacer {
    pub interval_ms: u64,
    /// The job's first send, on record (the journal's, or this run's).
    pub first_send_at: Option<u64>,
    pub last_send_at: Option<u64>,
    /// An extra gate (a retry delay after a failure).
    pub not_before: u64,
}

impl Pacer {
    /// The earliest time the next chunk may go.
    pub fn next_send_at(&self) -> u64 {
        let by_interval = self
            .last_send_at
            .map_or(0, |at| at.saturating_add(self.interval_ms));
        by_interval.max(self.not_before)
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
}

/// Which of a [`Tally`]'s counts, in its order, a row in `state` adds to.
fn count(state: &State) -> usize {
    match state {
        State::Done(Outcome::Created { .. } | Outcome::Granted) => 0,
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
            next_chunk: 0,
            last_chunk: None,
            pacer: Pacer {
                interval_ms,
                first_send_at: None,
                last_send_at: None,
                not_before: 0,
            },
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
                let last = self.pacer.last_send_at.unwrap_or(0).max(*at);
                self.pacer.last_send_at = Some(last);
                self.pacer.first_send_at.get_or_insert(*at);
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
        Progress {
            done: t.done,
            failed: t.failed,
            set_aside: t.set_aside,
            unresolved: t.unresolved,
            remaining: t.remaining,
            next_send_at: (!self.pending.is_empty()).then(|| self.pacer.next_send_at().max(now)),
            estimated_end_at: self
                .pacer
                .estimate_end(now, chunks_for(to_send, chunk_size)),
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
        State::Unresolved(reason) => {
            c.in_doubt += 1;
            RowResult::InDoubt {
                reason: reason.clone(),
            }
        }
        State::InDoubt { .. } | State::Sent(_) => {
            c.in_doubt += 1;
            RowResult::InDoubt {
                reason: stop.to_owned(),
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
        // The interval counts from the journaled send.
        assert_eq!(l.pacer.next_send_at(), 1_050);
        // A chunk number is never reused.
        assert_eq!(l.plan(&[2], 2_000), 2);
    }

    #[test]
    fn the_pacer_estimates_the_end() {
        let mut p = Pacer {
            interval_ms: 600,
            first_send_at: None,
            last_send_at: None,
            not_before: 0,
        };
        assert_eq!(p.next_send_at(), 0);
        assert_eq!(p.estimate_end(10, 0), None);
        assert_eq!(p.estimate_end(10, 3), Some(1_210));
        p.last_send_at = Some(100);
        assert_eq!(p.estimate_end(10, 2), Some(1_300));
        p.not_before = 5_000;
        assert_eq!(p.next_send_at(), 5_000);
        p.last_send_at = Some(u64::MAX);
        assert_eq!(p.estimate_end(0, usize::MAX), Some(u64::MAX));
    }
}
