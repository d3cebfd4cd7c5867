//! `lpm-emulator` binary: parse arguments, bind, print the address and the
//! credentials, serve.

use std::io::Write;

use lpm_emulator::config::{ADMIN_EMAIL, ADMIN_PASSWORD, USER_EMAIL, USER_PASSWORD};
use lpm_emulator::{bind, cli, serve, AppState};

#[tokio::main]
async fn main() {
    let cli = match cli::parse(std::env::args().skip(1)) {
        Ok(Some(cli)) => cli,
        Ok(None) => {
            print!("{}", cli::USAGE);
            return;
        }
        Err(msg) => {
            eprintln!("lpm-emulator: {msg}\n\n{}", cli::USAGE);
            std::process::exit(2);
        }
    };
    let (listener, addr) = match bind(&cli.host, cli.port).await {
        Ok(bound) => bound,
        Err(e) => {
            eprintln!("lpm-emulator: cannot bind {}:{}: {e}", cli.host, cli.port);
            std::process::exit(1);
        }
    };
    let cfg = cli.config.clone();
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "lpm-emulator listening on http://{addr}");
        let _ = writeln!(out, "admin-token: {}", cfg.admin_token);
        let _ = writeln!(out, "user-token: {}", cfg.user_token);
        let _ = writeln!(out, "expired-token: {}", cfg.expired_token);
        let _ = writeln!(out, "admin-email: {ADMIN_EMAIL}");
        let _ = writeln!(out, "admin-password: {ADMIN_PASSWORD}");
        let _ = writeln!(out, "user-email: {USER_EMAIL}");
        let _ = writeln!(out, "user-password: {USER_PASSWORD}");
        let _ = out.flush();
    }
    if let Err(e) = serve(listener, AppState::new(cfg)).await {
        eprintln!("lpm-emulator: server error: {e}");
        std::process::exit(1);
    }
}
