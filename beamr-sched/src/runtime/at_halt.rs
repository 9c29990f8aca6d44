//! Work to do when the runtime halts (`erlang:halt/0,1,2` ends the OS
//! process at once, with no destructor run): an embedder registers it once
//! (the control socket's file is removed, see beamr-ctl), and the halt BIFs
//! run it just before the process exits.

use std::sync::Mutex;

/// A piece of work run at halt, given the exit status (non-zero: the
/// runtime halts on an error, as `erlang:halt(1)` or a crash dump's slogan
/// has it).
type Hook = Box<dyn Fn(i32) + Send + Sync>;

/// The registered work, in registration order.
static HOOKS: Mutex<Vec<Hook>> = Mutex::new(Vec::new());

/// Registers `hook` to run when the runtime halts.
pub fn register(hook: impl Fn(i32) + Send + Sync + 'static) {
    HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Box::new(hook));
}

/// Runs every registered hook with the exit `status` (the halt BIFs call
/// this before exiting).
pub fn run(status: i32) {
    let hooks = HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for hook in hooks.iter() {
        hook(status);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    static RAN: AtomicUsize = AtomicUsize::new(0);

    #[test]
    fn registered_hooks_run() {
        super::register(|status| {
            assert_eq!(status, 3);
            RAN.fetch_add(1, Ordering::Relaxed);
        });
        super::run(3);
        assert!(RAN.load(Ordering::Relaxed) >= 1);
    }
}
