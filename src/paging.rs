//! Paging over a list endpoint (get-multi-user, get-multi-course): the `start` of each page, which
//! of a page's records are new, and when to stop. The caller fetches each page and hands in its
//! records' ids, in order; nothing here knows a record's other fields.
//!
//! A server may page wrongly: a page that starts earlier than asked (overlapping pages: a record
//! created during the listing moves the rest down by one), or the same full page for every
//! `start`. Records already handed out are dropped and counted ([`Pager::repeated`]); a full page
//! that adds no new record ends the listing with an error, as asking further can only repeat it.

use std::collections::BTreeSet;

use crate::error::{DecodeError, DecodeProblem, Error};
use crate::registry::Endpoint;
use crate::route::MAX_PAGE;

/// The most distinct records one listing hands out.
// Decision: a listing past a million records is a server that never ends its list (a platform's
// capacity is thousands of accounts): stopped, so that the ids kept stay bounded.
pub const MAX_RECORDS: usize = 1_000_000;

/// The state of one listing: the next page's `start` and the ids handed out so far.
#[derive(Clone, Debug)]
pub struct Pager {
    endpoint: Endpoint,
    /// The next page's `start`; `None` once the list is read (or the listing stopped).
    start: Option<u32>,
    /// The ids of the records handed out.
    seen: BTreeSet<Box<str>>,
    /// Records dropped because they were handed out before.
    repeated: u32,
}

impl Pager {
    /// Each page's `limit`: the largest the list endpoints accept.
    pub const LIMIT: u32 = MAX_PAGE;

    /// A listing of `endpoint` from its first record.
    pub fn new(endpoint: Endpoint) -> Pager {
        Pager {
            endpoint,
            start: Some(0),
            seen: BTreeSet::new(),
            repeated: 0,
        }
    }

    /// The `start` of the page to fetch next; `None` when the listing is over.
    pub fn next_start(&self) -> Option<u32> {
        self.start
    }

    /// How many records a page held that an earlier page (or the same one) had already handed out.
    pub fn repeated(&self) -> u32 {
        self.repeated
    }

    /// Takes the ids of the page fetched at [`Pager::next_start`], in order: for each record,
    /// whether it is new (to hand out) or a repeat (dropped). A short page ends the listing; a
    /// full page without a new record, or a listing past [`MAX_RECORDS`], ends it with an error
    /// (the records handed out before stand).
    pub fn page(&mut self, ids: &[&str]) -> Result<Vec<bool>, Error> {
        let Some(start) = self.start else {
            return Ok(vec![false; ids.len()]);
        };
        let fresh: Vec<bool> = ids
            .iter()
            .map(|id| !self.seen.contains(*id) && self.seen.insert((*id).into()))
            .collect();
        let new = fresh.iter().filter(|f| **f).count();
        let dropped = u32::try_from(ids.len() - new).unwrap_or(u32::MAX);
        self.repeated = self.repeated.saturating_add(dropped);
        self.start = None;
        self.start = after_page(self.endpoint, start, ids.len(), new, self.seen.len())?;
        Ok(fresh)
    }
}

/// What follows the page fetched at `start`: it held `len` records, `new` of them not handed out
/// before, and the listing has handed out `seen` distinct records in all, this page's included.
/// The next page's `start`; `None` after a short page (the list is read); an error for a full
/// page without a new record (the server repeats its pages) or past [`MAX_RECORDS`].
// The package's JS keeps a listing's ids in its own `Set` (a set in the wasm would cost the
// package its code) and asks this with the counts; [`Pager`] is the same with the ids kept here.
pub fn after_page(
    endpoint: Endpoint,
    start: u32,
    len: usize,
    new: usize,
    seen: usize,
) -> Result<Option<u32>, Error> {
    let full = len >= Pager::LIMIT as usize;
    if full && new > 0 && seen <= MAX_RECORDS {
        return Ok(Some(start.saturating_add(len as u32)));
    }
    if !full {
        return Ok(None);
    }
    // One message for both: each is a list that would never end (a string less in the wasm).
    Err(Error::Decode(DecodeError {
        endpoint,
        status: 200,
        path: ".".into(),
        detail: "a full page adds no new record (the server repeats its pages), or the list \
                 passes a million records"
            .into(),
        problem: DecodeProblem::Paging,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` ids from `from`: `u<from>`, `u<from+1>`, ...
    fn ids(from: usize, n: usize) -> Vec<String> {
        (from..from + n).map(|i| format!("u{i}")).collect()
    }

    fn page(p: &mut Pager, ids: &[String]) -> Result<Vec<bool>, Error> {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        p.page(&ids)
    }

    #[test]
    fn pages_follow_each_other_until_a_short_page() {
        let mut p = Pager::new(Endpoint::GetUsers);
        assert_eq!(p.next_start(), Some(0));
        assert!(page(&mut p, &ids(0, 100)).unwrap().iter().all(|f| *f));
        assert_eq!(p.next_start(), Some(100));
        assert!(page(&mut p, &ids(100, 30)).unwrap().iter().all(|f| *f));
        assert_eq!(p.next_start(), None);
        assert_eq!(p.repeated(), 0);
    }

    #[test]
    fn an_empty_page_ends_the_listing() {
        let mut p = Pager::new(Endpoint::GetCourses);
        assert_eq!(page(&mut p, &[]).unwrap(), Vec::<bool>::new());
        assert_eq!(p.next_start(), None);
    }

    #[test]
    fn the_same_full_page_again_stops_the_listing_with_an_error() {
        let mut p = Pager::new(Endpoint::GetUsers);
        page(&mut p, &ids(0, 100)).unwrap();
        let e = page(&mut p, &ids(0, 100)).unwrap_err();
        assert!(matches!(&e, Error::Decode(d) if d.problem == DecodeProblem::Paging));
        assert!(
            e.message().contains("a full page adds no new record"),
            "{}",
            e.message()
        );
        assert_eq!(p.next_start(), None, "asks for no further page");
        assert_eq!(p.repeated(), 100);
    }

    #[test]
    fn overlapping_pages_hand_out_each_record_once() {
        // The server starts each page 50 records before the asked start.
        let mut p = Pager::new(Endpoint::GetUsers);
        let mut out = Vec::new();
        let total = 951;
        while let Some(start) = p.next_start() {
            let from = (start as usize).saturating_sub(50);
            let page_ids = ids(from, 100.min(total - from));
            let fresh = page(&mut p, &page_ids).unwrap();
            out.extend(
                page_ids
                    .iter()
                    .zip(fresh)
                    .filter(|(_, f)| *f)
                    .map(|(id, _)| id.clone()),
            );
        }
        assert_eq!(out, ids(0, total));
        // A constant shift overlaps once: the second page repeats 50 of the first.
        assert_eq!(p.repeated(), 50);
    }

    #[test]
    fn a_repeat_inside_one_page_is_dropped_too() {
        let mut p = Pager::new(Endpoint::GetUsers);
        let fresh = page(&mut p, &["a".into(), "b".into(), "a".into()]).unwrap();
        assert_eq!(fresh, [true, true, false]);
        assert_eq!(p.repeated(), 1);
    }

    #[test]
    fn a_list_that_never_ends_is_stopped_at_the_bound() {
        let mut p = Pager::new(Endpoint::GetUsers);
        let mut pages = 0;
        let e = loop {
            let start = p.next_start().unwrap() as usize;
            match page(&mut p, &ids(start, 100)) {
                Ok(_) => pages += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(pages, MAX_RECORDS / 100);
        assert!(
            e.message().contains("passes a million records"),
            "{}",
            e.message()
        );
        assert_eq!(p.next_start(), None);
    }
}
