//! `beamr_ring_tracer`, the ring-buffer backend as a tracer module: an
//! Erlang program (tests/erlang/tracer_module_ring.erl) names it in
//! `erlang:trace/3` and in a meta pattern, both with the same file, and
//! beamr-ringbuf's reader finds exactly the events the program caused,
//! in order, in that one file.

use std::process::Command;

use beamr_ringbuf::{Body, Callbacks, Cursor, Event, StringTable};

mod support;

use support::fixtures;

/// The trace events of a file as `tag detail`, in timestamp order; the
/// events lost; the tracees.
struct Lines(Vec<String>, u64, std::collections::BTreeSet<String>);

impl Callbacks for Lines {
    fn event(&mut self, event: &Event<'_>, strings: &StringTable) {
        let Some(Ok(record)) = event.trace() else {
            return;
        };
        let atom = |k: u32| strings.atom(k).unwrap_or("?").to_owned();
        let detail = match record.body {
            Body::Message { message, .. } => message.render(strings),
            Body::Call { mfa } => {
                format!("{}:{}/{}", atom(mfa.module), atom(mfa.function), mfa.arity)
            }
            Body::Return { mfa, value } => {
                format!(
                    "{}/{} -> {}",
                    atom(mfa.function),
                    mfa.arity,
                    value.render(strings)
                )
            }
            Body::Reason { reason } => reason.render(strings),
            other => format!("{other:?}"),
        };
        self.0
            .push(format!("{} {detail}", record.tag.display_name()));
        self.2.insert(format!("{:?}", record.tracee));
    }

    fn lost(&mut self, _ring: usize, count: u64) {
        self.1 += count;
    }
}

#[test]
fn an_erlang_program_records_into_a_ring_file_through_the_tracer_module() {
    let dir = std::env::temp_dir().join(format!("beamr-tracer-module-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ring.trace");
    let out = Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(["run", "-S", "2", "-e", "tracer_module_ring"])
        .arg(fixtures("tracer_module_ring"))
        .arg("--")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "run failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // trace_info named the module and its state; bad states were refused
    // with a cause that says why.
    assert_eq!(
        stdout,
        "flags [procs,'receive',send]\n\
         {badarg,'beamr_ring_tracer: the state is a map of options (file, ring_words)'}\n\
         {badarg,'beamr_ring_tracer: no file given (#{file => Path})'}\n\
         {badarg,'beamr_ring_tracer: file is a file name'}\n\
         {badarg,'beamr_ring_tracer: unknown option colour (options: file, ring_words)'}\n\
         done\n"
    );
    let mut cursor = Cursor::open(&file).expect("the file the tracer module made");
    let mut lines = Lines(Vec::new(), 0, Default::default());
    cursor.poll_merged(&mut lines);
    cursor.finish(&mut lines);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(lines.1, 0, "nothing lost");
    // The child's events (erlang:trace/3) and the meta pattern's, in one
    // file, in the order they happened.
    assert_eq!(
        lines.0,
        [
            "receive {double,...}/3 (4 words)",
            "call tracer_module_ring:double/1",
            "return_from double/1 -> 42",
            "send {doubled,...}/2 (3 words)",
            "receive stop",
            "exit normal",
        ]
    );
    // All of them are the child's, whoever's call set them up.
    assert_eq!(lines.2.len(), 1, "one tracee: {:?}", lines.2);
}
