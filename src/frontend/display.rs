//! Is there a screen to open a window on? Without one SDL falls back to an off-screen
//! driver and plays an invisible window for ever, so the frontend asks first.

use std::path::Path;
use std::time::Duration;

/// `Ok` when a window would be visible; otherwise why not, for the user.
pub fn check() -> Result<(), String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if var("SDL_VIDEODRIVER").is_some() {
        // The user chose a driver: trust it (tests use this for the dummy driver).
        return Ok(());
    }
    if let Some(wayland) = var("WAYLAND_DISPLAY") {
        let dir = var("XDG_RUNTIME_DIR").unwrap_or_default();
        let socket = if wayland.starts_with('/') {
            wayland.clone()
        } else {
            format!("{dir}/{wayland}")
        };
        if Path::new(&socket).exists() {
            return Ok(());
        }
        if var("DISPLAY").is_none() {
            return Err(format!(
                "WAYLAND_DISPLAY={wayland} names no running compositor"
            ));
        }
    }
    match var("DISPLAY") {
        None => Err("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)".into()),
        Some(d) => x11_reachable(&d).map_err(|why| format!("DISPLAY={d} is not usable: {why}")),
    }
}

/// An X display `[host]:N[.S]` answers: the local socket exists, or the TCP port opens.
fn x11_reachable(display: &str) -> Result<(), String> {
    let (host, rest) = display.rsplit_once(':').ok_or("not of the form [host]:N")?;
    let number: u16 = rest
        .split('.')
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or("not of the form [host]:N")?;
    if host.is_empty() || host == "unix" {
        let socket = format!("/tmp/.X11-unix/X{number}");
        return if Path::new(&socket).exists() {
            Ok(())
        } else {
            Err(format!("no X server socket {socket}"))
        };
    }
    if host.starts_with('/') {
        // A launchd-style socket path.
        return Path::new(host)
            .exists()
            .then_some(())
            .ok_or_else(|| format!("no socket {host}"));
    }
    use std::net::{TcpStream, ToSocketAddrs};
    let port = 6000u16.saturating_add(number);
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?;
    for addr in addrs {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok() {
            return Ok(());
        }
    }
    Err(format!("nothing answers at {host}:{port}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn x11_names_are_checked() {
        assert!(
            super::x11_reachable(":4242")
                .unwrap_err()
                .contains("/tmp/.X11-unix/X4242")
        );
        assert!(super::x11_reachable("nonsense").is_err());
        assert!(
            super::x11_reachable("127.0.0.1:4242")
                .unwrap_err()
                .contains("nothing answers")
        );
    }
}
