//! `beamr escript [OPTION...] FILE ARGS...`: runs an escript as erl's
//! `escript` does.
//!
//! erl's `escript` is a small front end: it reads the script's emulator
//! flags (a line 2, or else a line 3, starting with `%%!`, its words split
//! at spaces) and runs `erl +B -noshell -boot no_dot_erlang FLAGS... -run
//! escript start OPTIONS... -extra FILE ARGS...`, each leading `-X` option
//! given to escript's `start` as `X`. OTP's own `escript` module then does
//! the rest: it parses, compiles or interprets the script, calls `main/1`
//! with the arguments as strings, and ends the runtime with its status
//! (`halt(N)`; 0 after `main/1` returns; 127 when it raises, or the script
//! does not compile). beamr does the front end's part and runs the erl
//! command line through `beamr erl` (see [`super::erl`]).
//!
//! `ESCRIPT_EMULATOR` (another emulator for the front end to run) does not
//! apply: beamr is the emulator.

use std::io::{BufRead, Read};
use std::process::ExitCode;

/// The longest header line read when looking for `%%!`.
const MAX_HEADER_LINE: u64 = 64 * 1024;

/// `beamr escript WORDS...`.
pub fn main(words: &[std::ffi::OsString]) -> ExitCode {
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    match erl_words(&words) {
        Ok(erl) => super::erl::main(&erl.into_iter().map(Into::into).collect::<Vec<_>>()),
        Err(message) => {
            // As escript's front end says it, and with its status.
            eprint!("escript: {message}");
            ExitCode::from(1)
        }
    }
}

/// The erl command line for `escript WORDS...`; `Err` is what escript's
/// front end says (with its line ends).
fn erl_words(words: &[String]) -> Result<Vec<String>, String> {
    let options = words.iter().take_while(|w| w.starts_with('-')).count();
    let Some(file) = words.get(options) else {
        return Err("Missing filename\n\n".into());
    };
    let emulator_flags = emulator_flags(file)?;
    // The front end's own flags, in its release's order.
    let front = if beamr_sched::code::otp_release() < 26 {
        ["+B", "-boot", "no_dot_erlang", "-noshell"]
    } else {
        ["+B", "-noshell", "-boot", "no_dot_erlang"]
    };
    let mut erl: Vec<String> = front.map(String::from).into();
    erl.extend(emulator_flags);
    erl.extend(["-run", "escript", "start"].map(String::from));
    erl.extend(words[..options].iter().map(|o| o[1..].to_string()));
    erl.push("-extra".into());
    erl.extend(words[options..].iter().cloned());
    Ok(erl)
}

/// The words of the script's `%%!` line: line 2, else line 3.
fn emulator_flags(file: &str) -> Result<Vec<String>, String> {
    let opened = std::fs::File::open(file);
    let Ok(opened) = opened else {
        return Err(format!("Failed to open file: {file}\n"));
    };
    let mut reader = std::io::BufReader::new(opened);
    for line_number in 1..=3 {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line);
        // A directory or an unreadable file: escript's module says why.
        if !matches!(read, Ok(n) if n > 0) {
            break;
        }
        if line_number == 1 {
            continue;
        }
        if let Some(flags) = line.strip_prefix(b"%%!") {
            let flags = flags.strip_suffix(b"\n").unwrap_or(flags);
            let text = String::from_utf8_lossy(flags);
            return Ok(text
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect());
        }
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("beamr-escript-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_emulator_line_is_line_two_or_three() {
        let dir = scratch("header");
        let cases = [
            (
                "#!/usr/bin/env escript\n%%! -pa /q  +S 1\nmain(_) -> ok.\n",
                vec!["-pa", "/q", "+S", "1"],
            ),
            (
                "#!/usr/bin/env escript\n%% -*- coding: utf-8 -*-\n%%!-pa /r\n",
                vec!["-pa", "/r"],
            ),
            ("%%! -pa /q\nmain(_) -> ok.\n", vec![]),
            ("#!x\n\n\n%%! -pa /z\n", vec![]),
        ];
        for (i, (text, flags)) in cases.iter().enumerate() {
            let file = dir.join(format!("s{i}"));
            std::fs::write(&file, text).unwrap();
            assert_eq!(
                emulator_flags(file.to_str().unwrap()).unwrap(),
                *flags,
                "{text}"
            );
        }
    }

    #[test]
    fn options_before_the_file_go_to_escript_start() {
        let file = scratch("options").join("s.escript");
        std::fs::write(&file, "#!/usr/bin/env escript\nmain(_) -> ok.\n").unwrap();
        let f = file.to_str().unwrap().to_string();
        let words: Vec<String> = vec!["-s".into(), "-d".into(), f.clone(), "-x".into()];
        let erl = erl_words(&words).unwrap();
        let tail = ["-run", "escript", "start", "s", "d", "-extra", &f, "-x"];
        assert_eq!(&erl[erl.len() - tail.len()..], tail);
        assert_eq!(
            erl_words(&["-s".into()]).unwrap_err(),
            "Missing filename\n\n"
        );
        assert!(erl_words(&["/no/such/file".into()])
            .unwrap_err()
            .starts_with("Failed to open file: /no/such/file"));
    }
}
