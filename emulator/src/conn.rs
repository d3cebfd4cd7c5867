//! The connection loop: HTTP/1.1 over hyper with a header-read timeout and a limit on the
//! connections served at once, and a per-connection handle that lets a fault drop or reset the
//! connection without answering.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tower_http::add_extension::AddExtension;

use crate::config::Config;

/// Put in every request's extensions: closes the request's connection without an answer.
#[derive(Debug, Default)]
pub struct ConnControl {
    close: Notify,
    reset: AtomicBool,
}

impl ConnControl {
    /// Closes the connection at once, whatever is being written; `reset`: with a TCP RST
    /// instead of an orderly close.
    pub fn close(&self, reset: bool) {
        if reset {
            self.reset.store(true, Ordering::SeqCst);
        }
        self.close.notify_one();
    }
}

/// The socket, which sets a zero linger on drop when the connection is to be reset.
struct Io {
    stream: TcpStream,
    ctl: Arc<ConnControl>,
}

impl Drop for Io {
    fn drop(&mut self) {
        if self.ctl.reset.load(Ordering::SeqCst) {
            let _ = self.stream.set_zero_linger();
        }
    }
}

impl AsyncRead for Io {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// How many connections may wait for a slot, accepted, per slot: beyond them new connections
/// wait in the listen backlog (no file descriptor).
const WAITING_PER_SLOT: usize = 8;

/// Accepts connections until the task is dropped. At most `cfg.max_connections` are served at
/// once; up to `WAITING_PER_SLOT` times as many more are accepted and wait for a slot, the rest
/// wait in the listen backlog. Each connection must send its request headers (also the next
/// request's, on an idle keep-alive connection) within `cfg.header_read_timeout_ms` or it is
/// closed; a waiting connection's time counts from its accept, so a burst of clients stuck
/// mid-headers is closed about one timeout after it came, not one timeout per round of slots (a
/// waiting connection whose head is complete by then waits on for its slot).
pub async fn serve(listener: TcpListener, app: Router, cfg: &Config) -> io::Result<()> {
    let max = cfg.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let accepted = Arc::new(Semaphore::new(max * (WAITING_PER_SLOT + 1)));
    let header_timeout = Duration::from_millis(cfg.header_read_timeout_ms.max(1));
    loop {
        let held = Arc::clone(&accepted)
            .acquire_owned()
            .await
            .map_err(io::Error::other)?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_connection_error(&e) => continue,
            // Out of file descriptors and the like: wait for connections to close.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let app = app.clone();
        let slots = Arc::clone(&slots);
        tokio::spawn(async move {
            let deadline = tokio::time::Instant::now() + header_timeout;
            if let Some(slot) = wait_for_slot(&stream, slots, deadline).await {
                serve_connection(stream, app, header_timeout).await;
                drop(slot);
            }
            drop(held);
        });
    }
}

/// A slot for `stream`, or `None` (the connection is then closed) when its head is still not
/// complete at `deadline`.
async fn wait_for_slot(
    stream: &TcpStream,
    slots: Arc<Semaphore>,
    deadline: tokio::time::Instant,
) -> Option<tokio::sync::OwnedSemaphorePermit> {
    tokio::select! {
        slot = Arc::clone(&slots).acquire_owned() => return slot.ok(),
        () = tokio::time::sleep_until(deadline) => {}
    }
    if !head_complete(stream).await {
        return None;
    }
    slots.acquire_owned().await.ok()
}

/// Whether the bytes received so far hold a complete request head (`\r\n\r\n`).
async fn head_complete(stream: &TcpStream) -> bool {
    let mut buf = vec![0u8; 64 * 1024];
    match tokio::time::timeout(Duration::from_millis(1), stream.peek(&mut buf)).await {
        Ok(Ok(n)) => buf
            .get(..n)
            .is_some_and(|b| b.windows(4).any(|w| w == b"\r\n\r\n")),
        _ => false,
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

async fn serve_connection(stream: TcpStream, app: Router, header_timeout: Duration) {
    let _ = stream.set_nodelay(true);
    let ctl = Arc::new(ConnControl::default());
    let io = TokioIo::new(Io {
        stream,
        ctl: Arc::clone(&ctl),
    });
    let service = TowerToHyperService::new(AddExtension::new(app, Arc::clone(&ctl)));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let conn = builder.serve_connection(io, service);
    // Dropping the connection future closes the socket (see `Io::drop` for the reset).
    tokio::select! {
        _ = conn => {}
        _ = ctl.close.notified() => {}
    }
}
