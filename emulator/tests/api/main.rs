//! Integration tests of the emulator over real HTTP (server in-process on
//! 127.0.0.1, port 0). Expected codes and messages are the contract's and the
//! platform notes' literal strings, or the documented choices of ASSUMPTIONS.md.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

mod cli;
mod control;
mod courses;
mod create;
mod faults;
mod login_token;
mod net;
mod users;
