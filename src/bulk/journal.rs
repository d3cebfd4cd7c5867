//! The journal: the events both jobs hand out to be persisted, and give back to resume.

use serde::{Deserialize, Serialize};

use super::Failure;
use crate::json::push_str;
use crate::json::ser::WriteJson;

/// A row as the journal names it: its 0-based index and what identifies it. An import names a
/// row by e-mail (trimmed, lower case) and username (trimmed), a grant by account id. Never a
/// password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlannedRow {
    /// 0-based index in the input.
    pub row: usize,
    /// Import: the e-mail, trimmed and lower case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Import: the username, trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// Grant: the account id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

/// An account a look-up found holding a row's e-mail or username, with other data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Existing {
    /// Its id.
    pub user_id: String,
    /// Its username.
    pub username: String,
    /// Its e-mail addresses.
    pub emails: Vec<String>,
}

/// Sync: the account a look-up found for a row, and the courses it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct FoundAccount {
    /// Its id.
    pub user_id: String,
    /// Its username.
    pub username: String,
    /// Its e-mail addresses.
    pub emails: Vec<String>,
    /// The ids of the courses it holds.
    pub courses: Vec<String>,
}

/// A row's final outcome, as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    /// Import: the account exists, created by this job.
    Created {
        /// Its id.
        user_id: String,
    },
    /// The platform refused the row with this per-item status (e.g. `Email already in use`,
    /// `User not found`).
    Failed {
        /// The platform's status.
        status: String,
    },
    /// Import: a look-up found an account with the row's e-mail or username but other data;
    /// never overwritten.
    Conflict {
        /// The account found.
        existing: Existing,
    },
    /// Grant: the account received the courses.
    Granted,
    /// Grant: the answer had no result for the account.
    NoResult,
    /// Import: a look-up found an account with the row's e-mail and username whose creation the
    /// job cannot tie to its sends (no time, or clocks that cannot be compared): in doubt, to be
    /// checked by a person; never claimed as created.
    InDoubt {
        /// The account found.
        existing: Existing,
    },
}

/// Why rows of a sent chunk are in doubt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DoubtReason {
    /// The call got no answer.
    Transport {
        /// How it failed.
        failure: Failure,
    },
    /// The answer could not be read (not an envelope, or not the promised shape).
    Unreadable {
        /// Its HTTP status.
        status: u16,
    },
    /// The answer had no item for the row, or an item echoing another row.
    NoMatchingItem,
    /// The item says created but gives no id.
    NoUserId,
    /// The job stopped after `chunkSending` and before the answer was journaled.
    Interrupted,
    /// Sent again after an earlier doubt, the row failed with "already in use": maybe the
    /// earlier send created it. `status` is the outcome if the look-up finds nothing.
    AlreadyInUse {
        /// The platform's status.
        status: String,
    },
}

/// What a look-up of a row in doubt found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LookupOutcome {
    /// An account with the row's e-mail and username: created.
    Created {
        /// Its id.
        user_id: String,
    },
    /// An account with the row's e-mail or username but other data.
    Conflict {
        /// The account found.
        existing: Existing,
    },
    /// An account with the row's e-mail and username that the job cannot show it made
    /// ([`Outcome::InDoubt`]).
    InDoubt {
        /// The account found.
        existing: Existing,
    },
    /// No account by e-mail nor by username: the row is sent again in a later chunk.
    NotFound,
}

/// One journal event: one JSON object with an `event` tag
/// (`{"event":"chunkSending","chunk":3,"at":1700000000000}`), one per line in a file. A journal
/// gives them back, in order, for the job to resume.
// The engine's side: persist every event `Action::Persist` hands out before polling again; give
// them all back, in order, to `resume`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
// `JournalEvent` in TypeScript, where `Event` is the DOM's.
#[cfg_attr(feature = "wasm", tsify(rename = "JournalEvent"))]
#[serde(
    tag = "event",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    /// The first event: the job (`import` or `grant`), its input's size and, for a grant, its
    /// courses.
    Started {
        /// `"import"` or `"grant"`.
        job: String,
        /// Rows in the input.
        rows: usize,
        /// Grant: the course ids.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        courses: Vec<String>,
    },
    /// A chunk was formed from these rows.
    ChunkPlanned {
        /// Chunk number, increasing.
        chunk: u32,
        /// Its rows.
        rows: Vec<PlannedRow>,
    },
    /// The chunk is about to be sent: on disk before the request leaves.
    ChunkSending {
        /// Chunk number.
        chunk: u32,
        /// When (ms).
        at: u64,
    },
    /// The chunk's call ended: its answer came, or it was given up, at `at` (ms). The create
    /// interval counts from here (the platform counts from when it handled the call), and a
    /// look-up's judge reads the send's window up to here.
    ChunkEnded {
        /// Chunk number.
        chunk: u32,
        /// When (ms).
        at: u64,
    },
    /// The server refused the whole call before processing it: nothing was done; the rows go
    /// back to be sent.
    ChunkRefused {
        /// Chunk number.
        chunk: u32,
        /// `respCode`.
        code: String,
        /// `msg`.
        msg: String,
    },
    /// Rows of a sent chunk whose outcome is unknown. An import looks them up before anything
    /// is sent again; a grant sends them again (granting twice is harmless).
    RowsInDoubt {
        /// Chunk number.
        chunk: u32,
        /// The rows.
        rows: Vec<usize>,
        /// Why.
        reason: DoubtReason,
    },
    /// The outcomes of a chunk's answer, in one event: `outcomes[i]` is the outcome of row
    /// `rows[i]` (the chunk's other rows are in a `RowsInDoubt` that follows).
    // Decision: one event a chunk, not one a row: a fifth less journal and one event to write
    // and hand over a chunk instead of a hundred. A journal with `rowOutcome` lines (an
    // unreleased form) is refused as "another version".
    ChunkOutcomes {
        /// Chunk number.
        chunk: u32,
        /// The rows with an outcome.
        rows: Vec<usize>,
        /// Their outcomes, in the same order.
        outcomes: Vec<Outcome>,
    },
    /// Import: a look-up's finding for a row in doubt.
    LookupResult {
        /// The row.
        row: usize,
        /// What was found.
        result: LookupOutcome,
    },
    /// Sync: what the look-up of a row found before anything was sent (judged on replay, so a
    /// journal keeps the platform's answer, not a verdict).
    RowLooked {
        /// The row.
        row: usize,
        /// Its e-mail, trimmed and lower case.
        email: String,
        /// Its username, trimmed.
        username: String,
        /// The account holding its e-mail (else its username); absent: none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<FoundAccount>,
    },
}

/// Appends `{"kind":"created","userId":…}`: an [`Outcome::Created`] as serde writes it, and a
/// report's `RowResult::Created` (the same tag and member).
pub(super) fn push_created(out: &mut String, user_id: &str) {
    out.push_str("{\"kind\":\"created\",\"userId\":");
    push_str(out, user_id);
    out.push('}');
}

impl Event {
    /// Appends the event's JSON text (its serde shape) to `out`, by the writer
    /// `lpm_derive::WriteJson` derives (serde's path is slower on the journal's hot path);
    /// `tests/bulk.rs` holds this to `json::ser::to_string` of every event a driven job hands out.
    pub fn write_json(&self, out: &mut String) {
        self.append_json(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The wire shape stores and the JS layer rely on: one object per event, tagged, camelCase.
    #[test]
    fn events_have_a_stable_json_shape() {
        let cases = [
            (
                Event::Started {
                    job: "import".into(),
                    rows: 3,
                    courses: vec![],
                },
                json!({"event": "started", "job": "import", "rows": 3}),
            ),
            (
                Event::ChunkPlanned {
                    chunk: 0,
                    rows: vec![PlannedRow {
                        row: 2,
                        email: Some("a@x.io".into()),
                        username: Some("anh".into()),
                        user_id: None,
                    }],
                },
                json!({"event": "chunkPlanned", "chunk": 0,
                       "rows": [{"row": 2, "email": "a@x.io", "username": "anh"}]}),
            ),
            (
                Event::ChunkSending { chunk: 0, at: 7 },
                json!({"event": "chunkSending", "chunk": 0, "at": 7}),
            ),
            (
                Event::RowsInDoubt {
                    chunk: 0,
                    rows: vec![2],
                    reason: DoubtReason::Transport {
                        failure: Failure::Timeout,
                    },
                },
                json!({"event": "rowsInDoubt", "chunk": 0, "rows": [2],
                       "reason": {"kind": "transport", "failure": "timeout"}}),
            ),
            (
                Event::ChunkOutcomes {
                    chunk: 4,
                    rows: vec![2, 3],
                    outcomes: vec![
                        Outcome::Created {
                            user_id: "u1".into(),
                        },
                        Outcome::Failed {
                            status: "Email already in use".into(),
                        },
                    ],
                },
                json!({"event": "chunkOutcomes", "chunk": 4, "rows": [2, 3], "outcomes": [
                       {"kind": "created", "userId": "u1"},
                       {"kind": "failed", "status": "Email already in use"}]}),
            ),
            (
                Event::LookupResult {
                    row: 2,
                    result: LookupOutcome::Conflict {
                        existing: Existing {
                            user_id: "u9".into(),
                            username: "other".into(),
                            emails: vec!["a@x.io".into()],
                        },
                    },
                },
                json!({"event": "lookupResult", "row": 2, "result": {"kind": "conflict",
                       "existing": {"userId": "u9", "username": "other", "emails": ["a@x.io"]}}}),
            ),
        ];
        for (event, wire) in cases {
            assert_eq!(serde_json::to_value(&event).unwrap(), wire);
            assert_eq!(serde_json::from_value::<Event>(wire).unwrap(), event);
        }
    }
}
