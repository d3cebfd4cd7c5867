//! The contract's minimum interval between bulk creates (10 minutes), kept by the client.
//!
//! Sans-IO: the caller passes the time (`now`, milliseconds since the epoch) and a key that names
//! the account the calls count against (base URL and token). The contract has no error code for
//! a violation, so the server would not say: the client must not send one.
//!
//! The platform counts the interval from when it handled a call, which may be long after the
//! call left: a guarded call is recorded when it leaves (a create whose answer is lost may still
//! have been handled) and again when it ends, at its answer or when it was given up
//! ([`crate::call::Call`]), so the next one leaves the interval after the answer.

/// The contract's interval between two create-multi-user calls: 10 minutes (the default of the
/// `createInterval` option, [`crate::options`]).
pub const CREATE_INTERVAL_MS: f64 = crate::options::ClientSettings::DEFAULT
    .create_interval
    .interval_ms;

/// The platform's advice between two create-user-login-token calls: 5 s (the default of the
/// `loginTokenInterval` option).
pub const LOGIN_TOKEN_INTERVAL_MS: f64 = crate::options::ClientSettings::DEFAULT
    .login_token_interval
    .interval_ms;

/// The platform's advice between two create-single-user calls (`registerUser`): 5 s (the
/// default of the `registerInterval` option).
pub const REGISTER_INTERVAL_MS: f64 = crate::options::ClientSettings::DEFAULT
    .register_interval
    .interval_ms;

/// Remembers when each key last sent a bulk create.
#[derive(Clone, Debug, Default)]
pub struct IntervalGuard {
    /// (key, time of its last create); a handful of keys per process, so a list does.
    last: Vec<(String, f64)>,
}

impl IntervalGuard {
    /// An empty guard.
    pub fn new() -> IntervalGuard {
        IntervalGuard::default()
    }

    /// When `key` may send its next create, if that is later than `now`.
    pub fn next_allowed_at(&self, key: &str, now: f64, interval_ms: f64) -> Option<f64> {
        let at = self.last.iter().find(|(k, _)| k == key)?.1 + interval_ms;
        (at > now).then_some(at)
    }

    /// When `key` last sent a create, if it is known.
    pub fn last(&self, key: &str) -> Option<f64> {
        self.last.iter().find(|(k, _)| k == key).map(|(_, at)| *at)
    }

    /// Records that `key`'s last create left, or ended, at `now`.
    pub fn record(&mut self, key: &str, now: f64) {
        self.forget(key);
        self.last.push((key.to_owned(), now));
    }

    /// Forgets `key` (a create that provably never reached the server need not count).
    pub fn forget(&mut self, key: &str) {
        self.last.retain(|(k, _)| k != key);
    }
}

/// The guard key of create-user-login-token calls of the client whose create key is `create_key`:
/// the same account, counted apart from its creates.
pub fn login_token_key(create_key: &str) -> String {
    crate::error::cat(&[create_key, "#login-token"])
}

/// The guard key of create-single-user calls (`registerUser`) of the client whose create key is
/// `create_key`: the same account, counted apart from its bulk creates and login tokens.
pub fn register_key(create_key: &str) -> String {
    crate::error::cat(&[create_key, "#register"])
}

/// A key for the guard: the base URL and a hash of the token (the token itself is not kept).
pub fn guard_key(base_url: &str, token: Option<&str>) -> String {
    // FNV-1a: only a map key inside this process, not a secret.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in token.unwrap_or("").bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut key = crate::error::cat(&[base_url, "#"]);
    for shift in (0..16).rev() {
        key.push(char::from(
            b"0123456789abcdef"[((h >> (shift * 4)) & 15) as usize],
        ));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_call_inside_the_interval_is_refused_until_it_passes() {
        let mut g = IntervalGuard::new();
        let key = guard_key("https://x", Some("t"));
        assert_eq!(g.next_allowed_at(&key, 0.0, CREATE_INTERVAL_MS), None);
        g.record(&key, 1_000.0);
        assert_eq!(
            g.next_allowed_at(&key, 2_000.0, CREATE_INTERVAL_MS),
            Some(601_000.0)
        );
        assert_eq!(g.next_allowed_at(&key, 601_000.0, CREATE_INTERVAL_MS), None);
        let other = guard_key("https://x", Some("u"));
        assert_eq!(g.next_allowed_at(&other, 2_000.0, CREATE_INTERVAL_MS), None);
        assert!(!key.contains('t') || !key.ends_with("#t"));
    }
}
