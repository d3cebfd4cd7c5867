//! Command-line parsing (hand-written to keep the build small).

use std::path::PathBuf;

use crate::config::{CheckOrder, Config, Seed, StatusMode};

/// `--help`'s text.
pub const USAGE: &str = "\
lpm-emulator: local server of the learning-platform management API

USAGE: lpm-emulator [OPTIONS]

  --host H                   address to bind (default 127.0.0.1)
  --port P                   port, 0 picks a free one (default 8787)
  --seed demo|empty          initial data (default demo)
  --admin-token T            token with permission
  --user-token T             token of an account without permission
  --expired-token T          token that is expired
  --capacity N               maximum number of accounts (default 10000)
  --create-interval-secs S   interval between create-multi-user calls to check (default 600)
  --login-token-interval-ms MS              spacing of create-user-login-token calls to check (default 5000)
  --single-create-interval-ms MS            spacing of create-single-user calls to check (default 5000)
  --static DIR               serve DIR at / on the same origin
  --static-csp FILE          send the Content-Security-Policy in FILE with the static files
  --status-mode documented|always200        HTTP statuses (default documented)
  --check-order documented|auth-first       order of checks (default documented)
  --permission-status 401|403               HTTP status of \"no permission\" (default 401)
  --user-not-found-code 03|07               get-single-user \"User not found\" code (default 03)
  --start-optional                          list endpoints default start to 0 instead of code 03
  --default-limit N                         limit when omitted (default 20)
  --require-email                           create items without email fail
  --enforce-field-rules                     apply the platform's name/username/password rules
  --header-timeout-ms MS                    time to send request headers, and again the body (default 10000)
  --max-connections N                       connections served at once, others wait (default 512)
  -h, --help                                this text
";

/// The command line, read.
#[derive(Debug, Clone)]
pub struct Cli {
    /// The address to bind.
    pub host: String,
    /// The port to bind (0: a free one).
    pub port: u16,
    /// Everything else it sets.
    pub config: Config,
}

/// Parses the arguments (without the program name). `Err` carries a message;
/// `Ok(None)` means help was asked for.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Option<Cli>, String> {
    let mut cli = Cli {
        host: "127.0.0.1".to_string(),
        port: 8787,
        config: Config::default(),
    };
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => it.next().ok_or_else(|| format!("{name} needs a value")),
            }
        };
        let c = &mut cli.config;
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--host" => cli.host = value(&flag)?,
            "--port" => cli.port = num(&flag, &value(&flag)?)?,
            "--seed" => {
                let v = value(&flag)?;
                c.seed = Seed::parse(&v).ok_or_else(|| format!("--seed: demo or empty, not {v}"))?
            }
            "--admin-token" => c.admin_token = value(&flag)?,
            "--user-token" => c.user_token = value(&flag)?,
            "--expired-token" => c.expired_token = value(&flag)?,
            "--capacity" => c.capacity = num(&flag, &value(&flag)?)?,
            "--create-interval-secs" => c.create_interval_secs = num(&flag, &value(&flag)?)?,
            "--login-token-interval-ms" => c.login_token_interval_ms = num(&flag, &value(&flag)?)?,
            "--single-create-interval-ms" => {
                c.single_create_interval_ms = num(&flag, &value(&flag)?)?
            }
            "--static" => c.static_dir = Some(PathBuf::from(value(&flag)?)),
            "--static-csp" => {
                let file = value(&flag)?;
                let policy = std::fs::read_to_string(&file)
                    .map_err(|e| format!("--static-csp: cannot read {file}: {e}"))?;
                c.static_csp = Some(policy.trim().to_string());
            }
            "--status-mode" => {
                c.status_mode = match value(&flag)?.as_str() {
                    "documented" => StatusMode::Documented,
                    "always200" => StatusMode::Always200,
                    v => return Err(format!("--status-mode: documented or always200, not {v}")),
                }
            }
            "--check-order" => {
                c.check_order = match value(&flag)?.as_str() {
                    "documented" => CheckOrder::Documented,
                    "auth-first" => CheckOrder::AuthFirst,
                    v => return Err(format!("--check-order: documented or auth-first, not {v}")),
                }
            }
            "--permission-status" => {
                c.permission_status = match value(&flag)?.as_str() {
                    "401" => 401,
                    "403" => 403,
                    v => return Err(format!("--permission-status: 401 or 403, not {v}")),
                }
            }
            "--user-not-found-code" => c.user_not_found_code = value(&flag)?,
            "--start-optional" => c.start_required = false,
            "--default-limit" => c.default_limit = num(&flag, &value(&flag)?)?,
            "--require-email" => c.require_email = true,
            "--enforce-field-rules" => c.enforce_field_rules = true,
            "--header-timeout-ms" => c.header_read_timeout_ms = num(&flag, &value(&flag)?)?,
            "--max-connections" => c.max_connections = num(&flag, &value(&flag)?)?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    for (name, t) in [
        ("--admin-token", &cli.config.admin_token),
        ("--user-token", &cli.config.user_token),
        ("--expired-token", &cli.config.expired_token),
    ] {
        if t.is_empty() {
            return Err(format!("{name} must not be empty"));
        }
    }
    let c = &cli.config;
    if c.header_read_timeout_ms == 0 || c.max_connections == 0 {
        return Err("--header-timeout-ms and --max-connections must be at least 1".to_string());
    }
    if c.admin_token == c.user_token
        || c.admin_token == c.expired_token
        || c.user_token == c.expired_token
    {
        return Err("the admin, user and expired tokens must differ".to_string());
    }
    Ok(Some(cli))
}

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: not a valid number: {v}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Option<Cli>, String> {
        parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn defaults_and_flags() {
        let cli = p(&[]).unwrap().unwrap();
        assert_eq!(cli.host, "127.0.0.1");
        assert_eq!(cli.port, 8787);
        let cli = p(&[
            "--port",
            "0",
            "--seed=empty",
            "--capacity",
            "5",
            "--status-mode",
            "always200",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(cli.port, 0);
        assert_eq!(cli.config.seed, Seed::Empty);
        assert_eq!(cli.config.capacity, 5);
        assert_eq!(cli.config.status_mode, StatusMode::Always200);
        assert!(p(&["--port"]).is_err());
        assert!(p(&["--bogus"]).is_err());
        assert!(p(&["--help"]).unwrap().is_none());
        assert!(p(&["--static-csp", "/no/such/file"])
            .unwrap_err()
            .contains("cannot read"));
        let cli = p(&["--header-timeout-ms", "250", "--max-connections=7"])
            .unwrap()
            .unwrap();
        assert_eq!(cli.config.header_read_timeout_ms, 250);
        assert_eq!(cli.config.max_connections, 7);
        assert!(p(&["--max-connections", "0"]).is_err());
        assert!(p(&["--header-timeout-ms", "0"]).is_err());
    }
}
