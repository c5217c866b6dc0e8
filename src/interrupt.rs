//! SIGINT, SIGTERM, SIGHUP and SIGQUIT as a flag: commands that write files call [`install`]
//! before they create any temporary file; from then on the signals no longer kill the process,
//! they set a flag that the batch workers poll between mazes
//! ([`crate::batch::run_cancellable`]) and that the command checks before it commits its
//! outputs. The command then drops its writers (which removes their temporary files, see
//! [`crate::atomic_file`]), says how far it got and exits
//! with `128 + signal` (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP: a closed terminal, a
//! dropped ssh connection, `tmux kill-session`; 131 for SIGQUIT, `Ctrl-\`, which would otherwise
//! end the process at once with its temporary files left behind), as a shell expects.
//!
//! Commands that write nothing (`uniformity`, `list-algos`, `render` to stdout) do not install
//! the handlers and keep the default behaviour: a signal ends them at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

#[cfg(feature = "cli")]
pub use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

struct Flags {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

fn flags() -> &'static Flags {
    FLAGS.get_or_init(|| Flags {
        stop: Arc::new(AtomicBool::new(false)),
        which: Arc::new(AtomicUsize::new(0)),
    })
}

/// Catch SIGINT, SIGTERM, SIGHUP and SIGQUIT from now on (idempotent). The program's side: the core
/// keeps only the flag, which the random walks look at ([`stop_requested`]).
#[cfg(feature = "cli")]
pub fn install() -> std::io::Result<()> {
    static DONE: OnceLock<()> = OnceLock::new();
    if DONE.get().is_some() {
        return Ok(());
    }
    let f = flags();
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
        signal_hook::flag::register_usize(sig, Arc::clone(&f.which), sig as usize)?;
        signal_hook::flag::register(sig, Arc::clone(&f.stop))?;
    }
    let _ = DONE.set(());
    Ok(())
}

/// The flag the workers poll: true once a caught signal arrived.
pub fn stop_flag() -> &'static AtomicBool {
    &flags().stop
}

/// Has a caught signal arrived? One relaxed load (false when [`install`] was never called):
/// what the random-walk generators look at every [`POLL_STEPS`] steps, so a signal stops even a
/// maze whose walk takes hours.
#[inline]
pub fn stop_requested() -> bool {
    FLAGS.get().is_some_and(|f| f.stop.load(Ordering::Relaxed))
}

/// Walk steps between two looks at the stop flag: 2^22, a few milliseconds of walking.
pub const POLL_STEPS: u32 = 1 << 22;

/// The signal that arrived (the last one, if several), if any.
pub fn received() -> Option<i32> {
    match flags().which.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s as i32),
    }
}

/// `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, or `signal N`.
#[cfg(feature = "cli")]
pub fn name(sig: i32) -> String {
    match sig {
        SIGINT => "SIGINT".into(),
        SIGTERM => "SIGTERM".into(),
        SIGHUP => "SIGHUP".into(),
        SIGQUIT => "SIGQUIT".into(),
        n => format!("signal {n}"),
    }
}
