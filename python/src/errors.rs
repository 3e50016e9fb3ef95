//! The exceptions: one base class so `except nesmind.NesError` catches every refusal.

use pyo3::create_exception;
use pyo3::exceptions::PyException;

create_exception!(
    nesmind,
    NesError,
    PyException,
    "Base class of every nesmind error."
);
create_exception!(
    nesmind,
    RomError,
    NesError,
    "A ROM that cannot be read, decoded or run (bad header, truncated file, unknown mapper)."
);
create_exception!(
    nesmind,
    StateError,
    NesError,
    "A savestate that does not load: damaged, of another ROM, or of an unreadable version."
);
create_exception!(
    nesmind,
    JamError,
    NesError,
    "The emulated CPU executed a JAM opcode and locked up until reset."
);
create_exception!(
    nesmind,
    PluginError,
    NesError,
    "A plug-in refused the ROM, failed or raised during a run."
);
