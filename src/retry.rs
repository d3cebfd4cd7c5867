//! When an automatic retry is allowed and how long to wait before it (sans-IO).
//!
//! Only idempotent requests (GET) are retried, and only on failures a retry can cure: network
//! errors, timeouts, HTTP 429 and 5xx. A POST is never retried automatically: it may have taken
//! effect (accounts created, courses granted) even when its answer was lost.

/// How one attempt ended, as far as retrying is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The request did not complete (connection refused or reset, body cut off).
    Network,
    /// No complete answer in time.
    Timeout,
    /// An answer with this HTTP status.
    Status(u16),
}

/// Whether the attempt numbered `attempt` (0 for the first) may be followed by another.
pub fn should_retry(idempotent: bool, outcome: Attempt, attempt: u32, max_retries: u32) -> bool {
    if !idempotent || attempt >= max_retries {
        return false;
    }
    match outcome {
        Attempt::Network | Attempt::Timeout => true,
        Attempt::Status(s) => s == 429 || (500..=599).contains(&s),
    }
}

/// The longest `Retry-After` an automatic retry waits for; a server asking for more gets no
/// automatic retry (the error goes to the caller, who can decide to wait that long).
pub const MAX_RETRY_AFTER_MS: f64 = 60_000.0;

/// Milliseconds to wait before retry number `attempt + 1`: the server's `Retry-After` when it sent
/// one, else `base_ms * 2^attempt`. `None` when the server asks for longer than
/// [`MAX_RETRY_AFTER_MS`]: retrying earlier would not honour it.
pub fn delay_ms(attempt: u32, base_ms: f64, retry_after_ms: Option<f64>) -> Option<f64> {
    // An infinite Retry-After is longer than the cap (no retry); NaN or a negative one is none.
    match retry_after_ms.filter(|ms| !ms.is_nan() && *ms >= 0.0) {
        Some(ms) if ms > MAX_RETRY_AFTER_MS => None,
        Some(ms) => Some(ms),
        None => Some(base_ms.max(0.0) * f64::from(1u32 << attempt.min(10))),
    }
}

/// Full jitter (AWS's "exponential backoff and jitter"): a delay drawn uniformly from
/// `[0, ms)` by `r` in [0, 1); an `r` outside that range (or NaN) counts as the nearest end.
pub fn full_jitter(ms: f64, r: f64) -> f64 {
    let r = if r.is_nan() { 1.0 } else { r.clamp(0.0, 1.0) };
    ms * r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gets_are_retried_on_transient_failures_only() {
        assert!(should_retry(true, Attempt::Network, 0, 2));
        assert!(should_retry(true, Attempt::Timeout, 1, 2));
        assert!(should_retry(true, Attempt::Status(503), 0, 2));
        assert!(should_retry(true, Attempt::Status(429), 0, 2));
        assert!(!should_retry(true, Attempt::Status(400), 0, 2));
        assert!(!should_retry(true, Attempt::Status(200), 0, 2));
        assert!(!should_retry(true, Attempt::Network, 2, 2));
        assert!(!should_retry(false, Attempt::Network, 0, 2), "POST never");
    }

    #[test]
    fn delays_double_or_follow_retry_after() {
        assert_eq!(delay_ms(0, 200.0, None), Some(200.0));
        assert_eq!(delay_ms(2, 200.0, None), Some(800.0));
        assert_eq!(delay_ms(0, 200.0, Some(1500.0)), Some(1500.0));
        assert_eq!(
            delay_ms(0, 200.0, Some(MAX_RETRY_AFTER_MS)),
            Some(MAX_RETRY_AFTER_MS)
        );
        assert_eq!(
            delay_ms(0, 200.0, Some(1e9)),
            None,
            "longer than we wait: no retry"
        );
        assert_eq!(delay_ms(0, 200.0, Some(f64::NAN)), Some(200.0));
        assert_eq!(
            delay_ms(0, 200.0, Some(f64::INFINITY)),
            None,
            "Retry-After: Infinity"
        );
        assert_eq!(
            delay_ms(0, 200.0, Some(1e308 * 1000.0)),
            None,
            "Retry-After: 1e308"
        );
    }

    #[test]
    fn full_jitter_draws_inside_the_delay() {
        assert_eq!(full_jitter(800.0, 0.0), 0.0);
        assert_eq!(full_jitter(800.0, 0.5), 400.0);
        assert_eq!(full_jitter(800.0, 7.0), 800.0, "clamped");
        assert_eq!(full_jitter(800.0, -1.0), 0.0, "clamped");
        assert_eq!(full_jitter(800.0, f64::NAN), 800.0, "NaN: no jitter");
    }
}
