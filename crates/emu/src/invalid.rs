//! Why a savestate body is refused: the field that does not fit, and the problem. Every
//! part checks its own fields with [`ensure`], so this sits below all of them.

use std::fmt;

/// A savestate field that does not fit the ROM or the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidState {
    /// The field's path in the state, e.g. `bus.cart.core.chr_ram`.
    pub field: String,
    pub problem: String,
}

impl fmt::Display for InvalidState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field {}: {}", self.field, self.problem)
    }
}

impl std::error::Error for InvalidState {}

pub(crate) fn invalid(field: &str, problem: impl Into<String>) -> InvalidState {
    InvalidState {
        field: field.to_string(),
        problem: problem.into(),
    }
}

/// `Err` naming `field` unless `ok`.
pub(crate) fn ensure(
    ok: bool,
    field: &str,
    problem: impl FnOnce() -> String,
) -> Result<(), InvalidState> {
    if ok {
        Ok(())
    } else {
        Err(invalid(field, problem()))
    }
}
