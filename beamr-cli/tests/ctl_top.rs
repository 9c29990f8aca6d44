//! `beamr ctl PID top`: frames of the processes sorted by the change of
//! their reductions over the interval (recon's `proc_window`), into a pipe
//! and on a terminal (under tmux, as a person sees it).

mod ctl_support;

use std::process::Command;
use std::time::{Duration, Instant};

use ctl_support::Server;

/// A process that does some work every millisecond and waits between (so
/// that `ps` reads it, never finding it on a scheduler for long: each
/// burst is shorter than a time slice).
const BUSY: &str =
    "register(ctl_busy, spawn(fun Loop() -> lists:seq(1, 1000), timer:sleep(1), Loop() end))";

#[test]
fn frames_into_a_pipe_put_the_busiest_process_first() {
    let server = Server::start();
    server.eval(BUSY);
    let out = server.ctl_ok(&["top", "--count", "2", "--rows", "3", "--interval", "500"]);
    let frames: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(frames.len(), 2, "{out}");
    for frame in frames {
        let lines: Vec<&str> = frame.lines().collect();
        assert!(
            lines[0].contains("sorted by the change of reductions over 500 ms"),
            "{frame}"
        );
        assert!(lines[1].starts_with("PID "), "{frame}");
        assert_eq!(lines.len(), 2 + 3, "{frame}");
        let first: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(first[1], "ctl_busy", "{frame}");
        // The change over the window, not the total.
        let change: u64 = first[2].parse().unwrap();
        let total: u64 = first[3].parse().unwrap();
        assert!(change > 0 && change <= total, "{frame}");
    }
}

fn tmux(args: &[&str]) -> std::process::Output {
    ctl_support::run_bounded(Command::new("tmux").args(args))
}

#[test]
fn on_a_terminal_each_frame_replaces_the_last() {
    let server = Server::start();
    server.eval(BUSY);
    let session = format!("beamr-ctl-top-{}", std::process::id());
    let command = format!(
        "BEAMR_CTL_DIR={} {} ctl {} top --count 30 --interval 300; sleep 60",
        server.dir.display(),
        ctl_support::beamr(),
        server.pid()
    );
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "150",
        "-y",
        "12",
        &command,
    ]);
    assert!(
        started.status.success(),
        "tmux (the host packages have it): {}",
        String::from_utf8_lossy(&started.stderr)
    );
    struct Kill(String);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = Command::new("tmux")
                .args(["kill-session", "-t", &self.0])
                .status();
        }
    }
    let _kill = Kill(session.clone());
    // Two screens a few frames apart: each one frame, fitted to the
    // terminal's 12 rows, the busy process first.
    let screen = || {
        let out = tmux(&["capture-pane", "-p", "-t", &session]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while seen.len() < 2 {
        assert!(Instant::now() < deadline, "no frame: {}", screen());
        let text = screen();
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        if lines.first().is_some_and(|l| l.contains(" top: "))
            && lines.len() > 2
            && seen.last() != Some(&text)
        {
            seen.push(text.clone());
        }
        std::thread::sleep(Duration::from_millis(400));
    }
    for text in seen {
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(
            lines.iter().filter(|l| l.contains(" top: ")).count(),
            1,
            "{text}"
        );
        assert!(lines.len() <= 12, "{text}");
        assert!(lines[1].starts_with("PID "), "{text}");
        assert_eq!(
            lines[2].split_whitespace().nth(1),
            Some("ctl_busy"),
            "{text}"
        );
    }
}
