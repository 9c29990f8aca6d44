//! What the differential suite masks before comparing: the parts of the
//! logger's reports that no two runs share (the crash of a spawned process,
//! a `proc_lib` crash report, a supervisor report, `logger:error/2`, ...,
//! written by the default handler with its legacy header).
//!
//! A *report* runs from a header line, `=KIND REPORT==== TIMESTAMP ===`
//! (a line starting with `=` and holding ` REPORT==== `, ending with
//! ` ===`), to the next empty line, the next header or the end of the
//! output. Exactly three things are masked, and only inside a report:
//!
//! 1. the header's timestamp: `=ERROR REPORT==== <TIME> ===`;
//! 2. every pid, `<A.B.C>` with decimal A, B, C: `<PID>` (pids are numbered
//!    differently on each runtime);
//! 3. the number after `heap_size: `, `stack_size: ` and `reductions: `
//!    at the start of a line (leading spaces aside), which a crash report's
//!    `crasher:` and `neighbours:` sections print: `N` (each runtime
//!    allocates and counts in its own way).
//!
//! Everything else, inside a report or not, is compared byte for byte.

/// `output` with the report parts described in the module doc masked.
pub fn mask_reports(output: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(output);
    let mut masked = String::with_capacity(text.len());
    let mut in_report = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            masked.push('\n');
        }
        if let Some(kind) = header_kind(line) {
            in_report = true;
            masked.push_str(kind);
            masked.push_str(" REPORT==== <TIME> ===");
        } else if line.is_empty() {
            in_report = false;
        } else if in_report {
            masked.push_str(&mask_counter(&mask_pids(line)));
        } else {
            masked.push_str(line);
        }
    }
    masked.into_bytes()
}

/// `=KIND` of a report header line, if `line` is one.
fn header_kind(line: &str) -> Option<&str> {
    if !line.starts_with('=') || !line.ends_with(" ===") {
        return None;
    }
    let at = line.find(" REPORT==== ")?;
    Some(&line[..at])
}

/// `line` with every `<A.B.C>` (decimal A, B, C) written `<PID>`.
fn mask_pids(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('>') {
            Some(end) if is_pid_body(&after[..end]) => {
                out.push_str("<PID>");
                rest = &after[end + 1..];
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `body` is `A.B.C`, three decimal numbers.
fn is_pid_body(body: &str) -> bool {
    let parts: Vec<&str> = body.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `line` with the number of a `heap_size: `, `stack_size: ` or
/// `reductions: ` line written `N`.
fn mask_counter(line: &str) -> String {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    for key in ["heap_size: ", "stack_size: ", "reductions: "] {
        if let Some(number) = body.strip_prefix(key) {
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
                return format!("{indent}{key}N");
            }
        }
    }
    line.to_string()
}
