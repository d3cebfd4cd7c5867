//! The order of decisions of one call, as a state machine that takes the time and returns what
//! to do next, in the manner of quinn-proto's `handle_*`/`poll_*` (sans-IO).
//!
//! The shell (JavaScript in the package, anything in Rust) performs what [`Call::poll`] asks —
//! send the planned request, wait, or finish — and reports back with [`Call::handle_response`]
//! or [`Call::handle_failure`]. Retries (GET only, on network errors, timeouts, HTTP 429/5xx,
//! honouring `Retry-After` up to a cap) and the create-interval guard are decided here, so they
//! are tested on a virtual clock without a server (`tests/call.rs`).

use crate::interval::{
    IntervalGuard, CREATE_INTERVAL_MS, LOGIN_TOKEN_INTERVAL_MS, REGISTER_INTERVAL_MS,
};
use crate::retry::{self, Attempt};

/// An option's value (defined with the options, which call and interval read below).
pub use crate::options::GuardMode;

/// How calls are run: the client's options that the decisions read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Automatic retries of idempotent calls.
    pub max_retries: u32,
    /// First retry delay in ms, doubled each retry, unless the server sends `Retry-After`.
    pub retry_delay_ms: f64,
}

impl Default for Policy {
    fn default() -> Self {
        let d = crate::options::ClientSettings::DEFAULT;
        Policy {
            max_retries: d.max_retries,
            retry_delay_ms: d.retry_delay_ms,
        }
    }
}

/// The guard's settings for one client.
#[derive(Clone, Debug, PartialEq)]
pub struct GuardSpec {
    /// The account the creates count against (base URL and a hash of the token).
    pub key: String,
    /// What to do inside the interval.
    pub mode: GuardMode,
    /// The interval in ms (the contract's 10 minutes by default).
    pub interval_ms: f64,
}

impl GuardSpec {
    /// A guard with the contract's interval.
    pub fn new(key: String, mode: GuardMode) -> GuardSpec {
        GuardSpec {
            key,
            mode,
            interval_ms: CREATE_INTERVAL_MS,
        }
    }

    /// A guard with the platform's advised 5 s between create-user-login-token calls.
    pub fn login_token(key: String, mode: GuardMode) -> GuardSpec {
        GuardSpec {
            key,
            mode,
            interval_ms: LOGIN_TOKEN_INTERVAL_MS,
        }
    }

    /// A guard with the platform's advised 5 s between create-single-user calls (`registerUser`).
    pub fn register(key: String, mode: GuardMode) -> GuardSpec {
        GuardSpec {
            key,
            mode,
            interval_ms: REGISTER_INTERVAL_MS,
        }
    }
}

/// What the shell does next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    /// Send the planned request (attempt number, 0 for the first).
    Send {
        /// The attempt.
        attempt: u32,
    },
    /// Wait this many ms, then poll again (a retry delay or the create interval).
    Wait {
        /// How long.
        ms: f64,
    },
    /// The create interval has not passed and the guard refuses: fail with `IntervalError`.
    Refuse {
        /// When the next create is allowed (ms since the epoch).
        next_allowed_at: f64,
        /// How long until then.
        wait_ms: f64,
    },
    /// The last answer is final: decode it (or report the last failure).
    Finish,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// Before the first attempt (a guarded create passes the guard here).
    Start,
    /// Ready to send.
    Ready,
    /// An attempt is in flight.
    InFlight,
    /// Waiting until this time before sending again.
    Until(f64),
    /// The answer (or failure) in hand is final.
    Done,
}

/// One call: its retries, and for a bulk create the interval guard.
#[derive(Clone, Debug)]
pub struct Call {
    idempotent: bool,
    policy: Policy,
    guard: Option<(GuardSpec, bool)>,
    attempt: u32,
    state: State,
    jitter: Option<f64>,
    /// When a guarded call's attempt ended, to record at the next poll.
    answered: Option<f64>,
}

impl Call {
    /// A call of an idempotent (GET) or not (POST) request.
    pub fn new(idempotent: bool, policy: Policy) -> Call {
        Call {
            idempotent,
            policy,
            guard: None,
            attempt: 0,
            state: State::Start,
            jitter: None,
            answered: None,
        }
    }

    /// A bulk create, kept at least the interval after the previous one of the same key;
    /// `wait` makes this call wait even when the guard's mode is `Reject`.
    pub fn guarded(policy: Policy, guard: GuardSpec, wait: bool) -> Call {
        Call {
            guard: Some((guard, wait)),
            ..Call::new(false, policy)
        }
    }

    /// What to do at `now` (ms since the epoch). `guard` is the realm's record of creates; a
    /// guarded call records itself there when it is let through (a create whose answer is lost
    /// may still have created accounts, so it counts from when it was sent), and again, at the
    /// poll after its attempt ended, from then: the server may have received it late, and the
    /// next call must be the interval after the server saw this one.
    pub fn poll(&mut self, now: f64, guard: &mut IntervalGuard) -> Next {
        match self.state {
            State::Start => {
                if let Some((spec, wait)) = &self.guard {
                    if spec.mode != GuardMode::Off {
                        if let Some(at) = guard.next_allowed_at(&spec.key, now, spec.interval_ms) {
                            if *wait || spec.mode == GuardMode::Wait {
                                return Next::Wait { ms: at - now };
                            }
                            return Next::Refuse {
                                next_allowed_at: at,
                                wait_ms: at - now,
                            };
                        }
                    }
                }
                self.state = State::Ready;
                self.poll(now, guard)
            }
            State::Ready => {
                if let Some((spec, _)) = &self.guard {
                    guard.record(&spec.key, now);
                }
                self.state = State::InFlight;
                Next::Send {
                    attempt: self.attempt,
                }
            }
            State::Until(at) if at > now => Next::Wait { ms: at - now },
            State::Until(_) => {
                self.attempt += 1;
                self.state = State::Ready;
                self.poll(now, guard)
            }
            // Polled again while in flight: nothing to do but wait for the answer.
            State::InFlight => Next::Wait { ms: 0.0 },
            State::Done => {
                if let (Some((spec, _)), Some(at)) = (&self.guard, self.answered.take()) {
                    guard.record(&spec.key, at);
                }
                Next::Finish
            }
        }
    }

    /// The attempt in flight ended with an HTTP answer (`retry_after_ms`: the `Retry-After`
    /// header in ms, if any). Returns `true` when it is final (decode it), `false` when a retry
    /// was scheduled (poll again).
    pub fn handle_response(&mut self, now: f64, status: u16, retry_after_ms: Option<f64>) -> bool {
        self.settle(now, Attempt::Status(status), retry_after_ms)
    }

    /// The attempt in flight failed (network error or timeout). Returns `true` when the
    /// failure is final (report it), `false` when a retry was scheduled.
    pub fn handle_failure(&mut self, now: f64, timed_out: bool) -> bool {
        let outcome = if timed_out {
            Attempt::Timeout
        } else {
            Attempt::Network
        };
        self.settle(now, outcome, None)
    }

    /// The attempt in flight was given up (the caller aborted it, or its answer was refused as
    /// too large): final. A guarded call counts its interval from now, as from an answer: the
    /// platform may have handled it until then.
    pub fn give_up(&mut self, now: f64) {
        if self.guard.is_some() {
            self.answered = Some(now);
        }
        self.state = State::Done;
    }

    /// Full jitter for the retry the next `handle_*` may schedule: its doubling delay is scaled
    /// by `r` in [0, 1) (the shell draws it, so this machine stays deterministic). A server's
    /// `Retry-After` is honoured as sent. Without it (native default) delays are not jittered.
    pub fn set_jitter(&mut self, r: f64) {
        self.jitter = Some(r);
    }

    /// When the scheduled retry may be sent, if one is scheduled.
    pub fn retry_at(&self) -> Option<f64> {
        match self.state {
            State::Until(at) => Some(at),
            _ => None,
        }
    }

    /// The guard's key, when the call is guarded.
    pub fn guard_key(&self) -> Option<&str> {
        self.guard.as_ref().map(|(spec, _)| spec.key.as_str())
    }

    /// How many attempts were sent.
    pub fn attempts(&self) -> u32 {
        self.attempt + u32::from(self.state != State::Start)
    }

    fn settle(&mut self, now: f64, outcome: Attempt, retry_after_ms: Option<f64>) -> bool {
        let p = self.policy;
        if self.guard.is_some() {
            self.answered = Some(now);
        }
        let jitter = self.jitter.take();
        let server_said = retry_after_ms.is_some_and(|ms| ms >= 0.0);
        let delay =
            retry::delay_ms(self.attempt, p.retry_delay_ms, retry_after_ms).map(
                |ms| match jitter {
                    Some(r) if !server_said => retry::full_jitter(ms, r),
                    _ => ms,
                },
            );
        match delay {
            Some(ms)
                if retry::should_retry(self.idempotent, outcome, self.attempt, p.max_retries) =>
            {
                self.state = State::Until(now + ms);
                false
            }
            _ => {
                self.state = State::Done;
                true
            }
        }
    }
}
