//! The call state machine on a virtual clock: every retry, Retry-After, timeout and guard path,
//! without a server.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

use lpm_client::call::{Call, GuardMode, GuardSpec, Next, Policy};
use lpm_client::interval::IntervalGuard;

const T0: f64 = 1_700_000_000_000.0;

fn policy() -> Policy {
    Policy {
        max_retries: 2,
        retry_delay_ms: 300.0,
    }
}

/// Drives `call` against a scripted server: each answer is `Ok((status, retry_after))` or
/// `Err(timed_out)`. Returns (sends at these times, waits, final poll).
fn drive(
    call: &mut Call,
    answers: &[Result<(u16, Option<f64>), bool>],
) -> (Vec<f64>, Vec<f64>, Next) {
    let mut guard = IntervalGuard::new();
    let mut now = T0;
    let (mut sends, mut waits) = (Vec::new(), Vec::new());
    let mut answers = answers.iter();
    loop {
        match call.poll(now, &mut guard) {
            Next::Send { attempt } => {
                assert_eq!(attempt as usize, sends.len());
                sends.push(now - T0);
                let done = match answers.next().expect("an answer per send") {
                    Ok((status, ra)) => call.handle_response(now, *status, *ra),
                    Err(timed_out) => call.handle_failure(now, *timed_out),
                };
                if done {
                    return (sends, waits, call.poll(now, &mut guard));
                }
            }
            Next::Wait { ms } => {
                waits.push(ms);
                now += ms;
            }
            other => return (sends, waits, other),
        }
    }
}

#[test]
fn a_get_is_retried_on_5xx_with_doubling_delays_then_gives_the_last_answer() {
    let mut call = Call::new(true, policy());
    let (sends, waits, last) = drive(
        &mut call,
        &[Ok((503, None)), Ok((502, None)), Ok((500, None))],
    );
    assert_eq!(sends, [0.0, 300.0, 900.0]);
    assert_eq!(waits, [300.0, 600.0]);
    assert_eq!(last, Next::Finish);
    assert_eq!(call.attempts(), 3);
}

#[test]
fn success_and_client_errors_are_final_at_once() {
    for status in [200, 400, 401, 404, 405] {
        let mut call = Call::new(true, policy());
        let (sends, _, last) = drive(&mut call, &[Ok((status, None))]);
        assert_eq!((sends.len(), last), (1, Next::Finish), "HTTP {status}");
    }
}

#[test]
fn network_errors_and_timeouts_are_retried_for_gets() {
    let mut call = Call::new(true, policy());
    let (sends, _, _) = drive(&mut call, &[Err(false), Err(true), Ok((200, None))]);
    assert_eq!(sends.len(), 3);
}

#[test]
fn a_post_is_never_retried() {
    for answer in [
        Err(false),
        Err(true),
        Ok((503, None)),
        Ok((429, Some(10.0))),
    ] {
        let mut call = Call::new(false, policy());
        let (sends, _, last) = drive(&mut call, &[answer]);
        assert_eq!((sends.len(), last), (1, Next::Finish), "{answer:?}");
    }
}

#[test]
fn retry_after_is_honoured_up_to_the_cap() {
    let mut call = Call::new(true, policy());
    let (sends, _, _) = drive(&mut call, &[Ok((429, Some(1500.0))), Ok((200, None))]);
    assert_eq!(sends, [0.0, 1500.0]);
    // Longer than the cap, infinite or absurd: no automatic retry; the caller decides.
    for ra in [61_000.0, f64::INFINITY, 1e308 * 1000.0] {
        let mut call = Call::new(true, policy());
        let (sends, _, last) = drive(&mut call, &[Ok((503, Some(ra)))]);
        assert_eq!((sends.len(), last), (1, Next::Finish), "Retry-After {ra}");
    }
}

#[test]
fn max_retries_zero_sends_once() {
    let mut call = Call::new(
        true,
        Policy {
            max_retries: 0,
            ..policy()
        },
    );
    let (sends, _, _) = drive(&mut call, &[Ok((503, None))]);
    assert_eq!(sends.len(), 1);
}

fn spec(mode: GuardMode) -> GuardSpec {
    GuardSpec {
        key: "https://x#k".into(),
        mode,
        interval_ms: 600_000.0,
    }
}

#[test]
fn the_guard_refuses_waits_or_lets_through() {
    let mut guard = IntervalGuard::new();
    // First create: through, recorded when sent.
    let mut first = Call::guarded(policy(), spec(GuardMode::Reject), false);
    assert_eq!(first.poll(T0, &mut guard), Next::Send { attempt: 0 });
    assert!(first.handle_response(T0, 200, None));
    // A second one 60 s later: refused with when it may go.
    let mut second = Call::guarded(policy(), spec(GuardMode::Reject), false);
    assert_eq!(
        second.poll(T0 + 60_000.0, &mut guard),
        Next::Refuse {
            next_allowed_at: T0 + 600_000.0,
            wait_ms: 540_000.0
        }
    );
    // Told to wait (per call or by mode): waits out the interval, then sends.
    for (mode, wait) in [(GuardMode::Reject, true), (GuardMode::Wait, false)] {
        let mut g = guard.clone();
        let mut call = Call::guarded(policy(), spec(mode), wait);
        assert_eq!(
            call.poll(T0 + 60_000.0, &mut g),
            Next::Wait { ms: 540_000.0 }
        );
        assert_eq!(call.poll(T0 + 600_000.0, &mut g), Next::Send { attempt: 0 });
    }
    // Off: no guard at all.
    let mut call = Call::guarded(policy(), spec(GuardMode::Off), false);
    assert_eq!(call.poll(T0 + 1.0, &mut guard), Next::Send { attempt: 0 });
    // Another key is not affected.
    let mut other = Call::guarded(
        policy(),
        GuardSpec {
            key: "https://y#k".into(),
            ..spec(GuardMode::Reject)
        },
        false,
    );
    assert_eq!(other.poll(T0 + 1.0, &mut guard), Next::Send { attempt: 0 });
}

#[test]
fn a_create_counts_from_when_it_was_sent_even_if_its_answer_is_lost() {
    let mut guard = IntervalGuard::new();
    let mut call = Call::guarded(policy(), spec(GuardMode::Reject), false);
    assert_eq!(call.poll(T0, &mut guard), Next::Send { attempt: 0 });
    assert!(
        call.handle_failure(T0 + 5.0, false),
        "a POST is not retried"
    );
    let mut next = Call::guarded(policy(), spec(GuardMode::Reject), false);
    assert!(matches!(
        next.poll(T0 + 10.0, &mut guard),
        Next::Refuse { .. }
    ));
}

#[test]
fn login_tokens_keep_the_platforms_5_s_apart_under_their_own_key() {
    use lpm_client::interval::{guard_key, login_token_key, LOGIN_TOKEN_INTERVAL_MS};
    let create = guard_key("https://x", Some("admin-token-1"));
    let key = login_token_key(&create);
    assert_ne!(key, create);
    let login =
        |mode, wait| Call::guarded(policy(), GuardSpec::login_token(key.clone(), mode), wait);
    let mut guard = IntervalGuard::new();
    // A bulk create does not hold up a login token, nor the reverse.
    let mut c = Call::guarded(
        policy(),
        GuardSpec::new(create.clone(), GuardMode::Reject),
        false,
    );
    assert_eq!(c.poll(T0, &mut guard), Next::Send { attempt: 0 });
    let mut first = login(GuardMode::Reject, false);
    assert_eq!(first.poll(T0, &mut guard), Next::Send { attempt: 0 });
    assert_eq!(first.guard_key(), Some(key.as_str()));
    // 2 s later: refused (default) or waited out (option), 3 s.
    assert_eq!(
        login(GuardMode::Reject, false).poll(T0 + 2_000.0, &mut guard),
        Next::Refuse {
            next_allowed_at: T0 + LOGIN_TOKEN_INTERVAL_MS,
            wait_ms: 3_000.0
        }
    );
    let mut waiting = login(GuardMode::Reject, true);
    assert_eq!(
        waiting.poll(T0 + 2_000.0, &mut guard),
        Next::Wait { ms: 3_000.0 }
    );
    assert_eq!(
        waiting.poll(T0 + 5_000.0, &mut guard),
        Next::Send { attempt: 0 }
    );
    // Recorded when sent: the next one counts from T0 + 5 s.
    assert_eq!(guard.last(&key), Some(T0 + 5_000.0));
    assert!(matches!(
        login(GuardMode::Reject, false).poll(T0 + 9_000.0, &mut guard),
        Next::Refuse { .. }
    ));
    assert_eq!(
        login(GuardMode::Off, false).poll(T0 + 9_000.0, &mut guard),
        Next::Send { attempt: 0 }
    );
    // A POST: never retried, whatever the answer.
    let mut call = login(GuardMode::Reject, false);
    assert_eq!(
        call.poll(T0 + 20_000.0, &mut guard),
        Next::Send { attempt: 0 }
    );
    assert!(call.handle_response(T0 + 20_001.0, 503, None));
}

#[test]
fn full_jitter_scales_the_doubling_delay_but_not_retry_after() {
    let mut call = Call::new(true, policy());
    let mut guard = IntervalGuard::new();
    assert_eq!(call.poll(T0, &mut guard), Next::Send { attempt: 0 });
    call.set_jitter(0.5);
    assert!(!call.handle_response(T0, 503, None));
    assert_eq!(call.retry_at(), Some(T0 + 150.0), "the retry as scheduled");
    assert_eq!(
        call.poll(T0, &mut guard),
        Next::Wait { ms: 150.0 },
        "300 * 0.5"
    );
    assert_eq!(call.poll(T0 + 150.0, &mut guard), Next::Send { attempt: 1 });
    call.set_jitter(0.25);
    assert!(!call.handle_failure(T0 + 150.0, true));
    assert_eq!(
        call.poll(T0 + 150.0, &mut guard),
        Next::Wait { ms: 150.0 },
        "600 * 0.25"
    );
    // The server's Retry-After is honoured as sent, jitter or not.
    let mut call = Call::new(true, policy());
    assert_eq!(call.poll(T0, &mut guard), Next::Send { attempt: 0 });
    call.set_jitter(0.0);
    assert!(!call.handle_response(T0, 429, Some(2_000.0)));
    assert_eq!(call.poll(T0, &mut guard), Next::Wait { ms: 2_000.0 });
    // The draw is used once: without a new one the next delay is the plain doubling.
    let mut call = Call::new(true, policy());
    call.poll(T0, &mut guard);
    call.set_jitter(0.1);
    call.handle_response(T0, 500, None);
    call.poll(T0 + 30.0, &mut guard);
    call.handle_response(T0 + 30.0, 500, None);
    assert_eq!(call.poll(T0 + 30.0, &mut guard), Next::Wait { ms: 600.0 });
}

/// Issue 34, defect 4: a guarded create given up (aborted, or its answer too large) counts its
/// interval from the give-up, as an answered one counts from its answer: the platform may have
/// handled it until then.
#[test]
fn a_guarded_create_given_up_counts_its_interval_from_the_give_up() {
    let key = "k".to_owned();
    let mut guard = IntervalGuard::new();
    let spec = GuardSpec::register(key.clone(), GuardMode::Reject);
    let mut call = Call::guarded(Policy::default(), spec, false);
    assert_eq!(call.poll(T0, &mut guard), Next::Send { attempt: 0 });
    call.give_up(T0 + 4_000.0);
    assert_eq!(call.poll(T0 + 4_001.0, &mut guard), Next::Finish);
    assert_eq!(guard.last(&key), Some(T0 + 4_000.0));
}
