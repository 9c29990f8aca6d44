//! `process_info(P, backtrace)`: the process's stack as text. The BEAM
//! dumps its frames with machine addresses; beamr writes the same layout
//! from the stack trace, with no addresses (zeros) and no Y slots.

use beamr_core::term::Term;

/// The backtrace text for `frames`, a `current_stacktrace` list of
/// `{M, F, Arity, Location}`.
pub(super) fn text(frames: Term) -> String {
    let frames = frames.list_to_vec().unwrap_or_default();
    let mut out = String::new();
    let mut names = frames.iter().map(|&f| frame_name(f));
    let pc = names
        .next()
        .unwrap_or_else(|| "unknown function".to_string());
    out.push_str(&format!("Program counter: 0x{:016x} ({pc} + 0)\n\n", 0));
    for name in names {
        out.push_str(&format!(
            "0x{:016x} Return addr 0x{:016x} ({name} + 0)\n\n",
            0, 0
        ));
    }
    out.push_str(&format!(
        "0x{:016x} Return addr 0x{:016x} (<terminate process normally>)\n",
        0, 0
    ));
    out
}

/// `M:F/A` for a stack-trace frame.
fn frame_name(frame: Term) -> String {
    match frame.as_tuple() {
        Some(&[m, f, a, _]) => {
            let arity = a
                .as_small()
                .or_else(|| a.list_to_vec().map(|l| l.len() as i64))
                .unwrap_or(0);
            let name = |t: Term| t.as_atom().map_or(String::new(), |a| a.name().to_string());
            format!("{}:{}/{}", name(m), name(f), arity)
        }
        _ => "unknown function".to_string(),
    }
}
