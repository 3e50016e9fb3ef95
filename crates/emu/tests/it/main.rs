//! The machine's integration tests, one test binary (one link) with a module per subject:
//! the test-ROM conformance table (`nesmind-testroms`), bank switches under the picture,
//! halting opcodes, and the README's board list.

mod board_writes;
mod conformance;
mod machine_errors;
mod supported_boards;
