//! Emulator configuration: everything the command line can set, and the
//! switches for the choices the contract leaves open (see ASSUMPTIONS.md).

use std::path::PathBuf;

/// The administrator's token (`--admin-token`): every call allowed.
pub const DEFAULT_ADMIN_TOKEN: &str = "demo-admin-token-00000000000000000000000000";
/// A learner's token (`--user-token`): authenticated, without permission for the management calls.
pub const DEFAULT_USER_TOKEN: &str = "demo-user-token-000000000000000000000000000";
/// A token the emulator answers as expired (`--expired-token`).
pub const DEFAULT_EXPIRED_TOKEN: &str = "demo-expired-token-000000000000000000000000";
/// The administrator's e-mail, for login.
pub const ADMIN_EMAIL: &str = "admin@demo.lpm.test";
/// The administrator's password, for login.
pub const ADMIN_PASSWORD: &str = "demo-admin-password";
/// The learner's e-mail (the account of the user token), for login.
pub const USER_EMAIL: &str = "user@demo.lpm.test";
/// The learner's password, for login.
pub const USER_PASSWORD: &str = "demo-user-password";
/// Password of every other seeded account.
pub const SEED_PASSWORD: &str = "demo-password";

/// The data the emulator starts with (`--seed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seed {
    /// 200+ accounts and 30+ courses.
    Demo,
    /// Only the admin and the no-permission account (the tokens need them), no courses.
    Empty,
}

impl Seed {
    /// The seed `--seed` names (`demo`, `empty`).
    pub fn parse(s: &str) -> Option<Seed> {
        match s {
            "demo" => Some(Seed::Demo),
            "empty" => Some(Seed::Empty),
            _ => None,
        }
    }
}

/// The HTTP status an envelope is sent with (`--status-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusMode {
    /// 200 / 400 / 401 / 405 / 500 as the platform's documentation pairs them.
    Documented,
    /// Every envelope is sent with HTTP 200.
    Always200,
}

/// Which failing check answers first when a call fails several (`--check-order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckOrder {
    /// Checks run in the order of the endpoint's code numbering
    /// (e.g. create: body checks 02-05 before token checks 06-08).
    Documented,
    /// Token, authentication and permission first, then body and parameters.
    AuthFirst,
}

/// Everything the emulator's command line sets.
#[derive(Debug, Clone)]
pub struct Config {
    /// The data it starts with.
    pub seed: Seed,
    /// The administrator's token.
    pub admin_token: String,
    /// The learner's token (no permission for management calls).
    pub user_token: String,
    /// The token answered as expired.
    pub expired_token: String,
    /// Maximum total number of accounts.
    pub capacity: usize,
    /// Minimum interval between create-multi-user calls (only recorded, never enforced).
    pub create_interval_secs: u64,
    /// Minimum spacing of create-user-login-token calls (platform advice: 5 s; only recorded).
    pub login_token_interval_ms: u64,
    /// Minimum spacing of create-single-user calls (platform advice: 5 s; only recorded).
    pub single_create_interval_ms: u64,
    /// The HTTP status of each envelope.
    pub status_mode: StatusMode,
    /// Which failing check answers first.
    pub check_order: CheckOrder,
    /// HTTP status for "no permission": 401 (default) or 403.
    pub permission_status: u16,
    /// respCode of get-single-user "User not found": "03" (the observed body) or "07" (the page's label).
    pub user_not_found_code: String,
    /// `start` required on the list endpoints (code 03 when absent); when false it defaults to 0.
    pub start_required: bool,
    /// `limit` used when the parameter is absent.
    pub default_limit: usize,
    /// Missing `email` on a create item fails the item (default: accepted, account without e-mail).
    pub require_email: bool,
    /// Enforce the platform's documented field rules on create (name >= 3, username 3-20 alnum, password 6-35).
    pub enforce_field_rules: bool,
    /// A folder served at `/` (`--static`), if any.
    pub static_dir: Option<PathBuf>,
    /// The Content-Security-Policy sent with the static files (`--static-csp FILE`), if any.
    pub static_csp: Option<String>,
    /// A connection must finish its request headers within this time (idle keep-alive too).
    pub header_read_timeout_ms: u64,
    /// Connections served at once; further ones wait in the listen backlog.
    pub max_connections: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: Seed::Demo,
            admin_token: DEFAULT_ADMIN_TOKEN.to_string(),
            user_token: DEFAULT_USER_TOKEN.to_string(),
            expired_token: DEFAULT_EXPIRED_TOKEN.to_string(),
            capacity: 10_000,
            create_interval_secs: 600,
            login_token_interval_ms: 5000,
            single_create_interval_ms: 5000,
            status_mode: StatusMode::Documented,
            check_order: CheckOrder::Documented,
            permission_status: 401,
            user_not_found_code: "03".to_string(),
            start_required: true,
            default_limit: 20,
            require_email: false,
            enforce_field_rules: false,
            static_dir: None,
            static_csp: None,
            header_read_timeout_ms: 10_000,
            // Below the common soft limit of 1024 open files, leaving room for the rest.
            max_connections: 512,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_tokens_are_43_chars() {
        assert_eq!(DEFAULT_ADMIN_TOKEN.len(), 43);
        assert_eq!(DEFAULT_USER_TOKEN.len(), 43);
        assert_eq!(DEFAULT_EXPIRED_TOKEN.len(), 43);
    }
}
