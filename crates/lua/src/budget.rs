//! The per-frame instruction budget. A count hook raises a Lua error naming the line
//! once a frame's share is spent, so a loop that never yields stops with its place.
//!
//! The hook is Lua's own (set per Lua thread, and copied into coroutines the script
//! makes), because mlua's hook serves one thread while a script runs in its coroutine
//! and its callbacks on the main thread.

use mlua::ffi;
use std::cell::Cell;
use std::os::raw::c_int;

/// Instructions between two looks at the budget.
const EVERY: c_int = 1000;

thread_local! {
    /// (run this frame, allowed per frame) for the script running on this OS thread.
    static COUNT: Cell<(u64, u64)> = const { Cell::new((0, u64::MAX)) };
}

/// Starts a frame's count: the hook looks at it on the thread that runs the script.
pub fn start(budget: u64) {
    COUNT.with(|c| c.set((0, budget)));
}

unsafe extern "C-unwind" fn hook(state: *mut ffi::lua_State, _ar: *mut ffi::lua_Debug) {
    let (used, budget) = COUNT.with(|c| {
        let (used, budget) = c.get();
        let used = used + EVERY as u64;
        c.set((used, budget));
        (used, budget)
    });
    if used <= budget {
        return;
    }
    // Back to the start, so that a script which catches the error with pcall and
    // loops on is stopped again at the next look.
    COUNT.with(|c| c.set((0, budget)));
    let mut place = String::from("?");
    unsafe {
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        if ffi::lua_getstack(state, 0, &mut ar) != 0
            && ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut ar) != 0
        {
            let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_string_lossy();
            place = format!("{src}:{}", ar.currentline);
        }
        let message = format!(
            "{place}: the script ran {budget} Lua instructions in one frame without \
             emu.frameadvance() (a loop that never yields?); raise the budget with \
             --lua-arg budget=N"
        );
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        // Nothing of ours is left to drop when Lua unwinds past this frame.
        drop(message);
        drop(place);
        ffi::lua_error(state);
    }
}

/// `nesmind_budget()`: puts the hook on the Lua thread that calls it.
pub unsafe extern "C-unwind" fn install(state: *mut ffi::lua_State) -> c_int {
    unsafe { ffi::lua_sethook(state, Some(hook), ffi::LUA_MASKCOUNT, EVERY) };
    0
}
