//! `cargo xtask mutate [-n N] [--seed S]`: a mutation campaign of crafted
//! `.beam` files run end to end (issue 34).
//!
//! A few small modules compiled by `erlc` are mutated at random, as a
//! fuzzer that knows only the container would: a byte of some chunk
//! flipped, a chunk's bytes inserted into, the file cut short, and (half
//! of the mutants) a byte of the Code chunk flipped. Each mutant runs
//! through `beamr run` (a debug build) under a limit of processor time,
//! wall-clock time and memory, and
//! is counted as fine (it loaded and ran, raised an error, or beamr
//! refused it with a load error), a panic, an abort (killed by a signal
//! of its own), a timeout or runaway memory. Every mutant that was not
//! fine is kept under
//! `target/mutate/` with its number, so that the same seed and number
//! reproduce it. The exit status is 1 when any mutant panicked or
//! aborted.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{process, Error, Result};

/// The modules mutated: small, and between them calls, tuples, lists,
/// binaries, funs, a receive and an exception.
const MODULES: &[(&str, &str)] = &[
    (
        "mut_lists",
        "-module(mut_lists).\n-export([main/0]).\n\
         main() -> L = lists:seq(1, 20), io:format(\"~p~n\", [{sum(L, 0), rev(L, []), [X * 2 || X <- L, X rem 3 =:= 0]}]).\n\
         sum([H | T], A) -> sum(T, A + H); sum([], A) -> A.\n\
         rev([H | T], A) -> rev(T, [H | A]); rev([], A) -> A.\n",
    ),
    (
        "mut_tuples",
        "-module(mut_tuples).\n-export([main/0]).\n\
         main() -> T = {a, 1, \"two\", [3]}, {_, N, S, [M]} = T,\n\
         R = try element(length(S) + 5, T) catch error:badarg -> caught end,\n\
         P = self() ! {msg, N}, receive {msg, V} -> ok after 100 -> V = none end,\n\
         io:format(\"~p~n\", [{N + M, S, R, P, V, setelement(2, T, b)}]).\n",
    ),
    (
        "mut_bins",
        "-module(mut_bins).\n-export([main/0]).\n\
         main() -> B = <<1, 2, 3, 4, 5, 6, 7, 8>>, <<A:16, Rest/binary>> = B,\n\
         F = fun(X) -> X + A end, M = #{k => F(1), b => byte_size(Rest)},\n\
         io:format(\"~p~n\", [{A, Rest, M, << <<(C + 1)>> || <<C>> <= Rest >>}]).\n",
    ),
];

/// The command line's options.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Mutants to run.
    pub count: u64,
    /// The random generator's seed.
    pub seed: u64,
    /// The beamr to run, in place of a debug build of this checkout's.
    pub beamr: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            count: 2000,
            seed: 1,
            beamr: None,
        }
    }
}

/// Parses `[-n N] [--seed S] [--beamr PATH]`.
pub fn parse(args: &[std::ffi::OsString]) -> Result<Options> {
    let mut options = Options::default();
    let mut it = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(flag) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| Error::new(format!("{flag} needs a number ({what})")))
        };
        match flag.as_str() {
            "-n" => options.count = value("mutants")?,
            "--seed" => options.seed = value("seed")?,
            "--beamr" => {
                let path = it
                    .next()
                    .ok_or_else(|| Error::new("--beamr needs a path"))?;
                options.beamr = Some(PathBuf::from(path));
            }
            other => return Err(Error::new(format!("mutate: unknown option `{other}`"))),
        }
    }
    Ok(options)
}

/// Limits of one mutant's run: processor time (what a loop or a
/// recursion spends, whatever the machine's load), and wall-clock time
/// (for one that waits forever).
const CPU_LIMIT_TICKS: u64 = 15 * 100;
const WALL_LIMIT: Duration = Duration::from_secs(90);
/// Resident memory past which a mutant counts as runaway (and is killed).
const MEMORY_LIMIT_KB: u64 = 2 << 20;

/// xorshift64*: deterministic for a seed, and std only.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The chunks of a `.beam` file: (id, start of data, length of data).
fn chunks(bytes: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut out = Vec::new();
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let id = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        let len = u32::from_be_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]])
            as usize;
        let start = at + 8;
        if start + len > bytes.len() {
            break;
        }
        out.push((id, start, len));
        at = start + len.div_ceil(4) * 4;
    }
    out
}

/// One mutant of `original`, and what was done to it.
fn mutate(original: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut bytes = original.to_vec();
    let chunks = chunks(original);
    let code = chunks.iter().find(|c| &c.0 == b"Code").copied();
    // Half the mutants: one byte of the Code chunk's instructions (past
    // its 20-byte header) changed one of five ways, which mostly keeps
    // the code decodable and so reaches the loader's checks and the
    // interpreter.
    if let Some((_, start, len)) = code.filter(|c| c.2 > 20 && rng.below(2) == 0) {
        let at = start + 20 + rng.below(len - 20);
        let old = bytes[at];
        let (new, how) = match rng.below(5) {
            0 => {
                let bit = rng.below(8);
                (old ^ (1 << bit), format!("bit {bit} flipped"))
            }
            1 => (!old, "inverted".to_string()),
            2 => (0, "zeroed".to_string()),
            3 => (old.wrapping_add(1), "plus 1".to_string()),
            _ => (old.wrapping_sub(1), "minus 1".to_string()),
        };
        bytes[at] = new;
        return (bytes, format!("Code byte {at} {how}"));
    }
    let (id, start, len) = chunks[rng.below(chunks.len())];
    let name = String::from_utf8_lossy(&id).into_owned();
    let at = start + rng.below(len);
    match rng.below(3) {
        0 if at < bytes.len() => {
            bytes.truncate(at);
            (bytes, format!("cut at {at} (in {name})"))
        }
        1 => {
            let n = 1 + rng.below(8);
            let insert: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            bytes.splice(at..at, insert);
            (bytes, format!("{n} bytes inserted at {at} (in {name})"))
        }
        _ if at < bytes.len() => {
            let flip = (1 + rng.below(255)) as u8;
            bytes[at] ^= flip;
            (bytes, format!("byte {at} xor {flip:#04x} (in {name})"))
        }
        _ => (bytes, "unchanged".into()),
    }
}

/// How a mutant's run ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// Loaded and ran to its end.
    Ran,
    /// Loaded, and raised an error (exit status 1).
    Raised,
    /// Refused at load (exit status 2).
    Refused,
    Panic,
    Abort,
    Timeout,
    Memory,
}

/// Runs `beamr run -e MODULE DIR` with the limits.
fn run_one(beamr: &Path, dir: &Path, module: &str) -> Result<Verdict> {
    let mut child = Command::new(beamr)
        .args(["run", "-S", "1", "-e", module])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::new(format!("could not start {}: {e}", beamr.display())))?;
    // stderr is read on a thread, so that a chatty mutant never blocks.
    let mut stderr = child
        .stderr
        .take()
        .ok_or_else(|| Error::new("no stderr pipe"))?;
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| Error::new(e.to_string()))? {
            break Some(status);
        }
        let over_time = started.elapsed() > WALL_LIMIT
            || cpu_ticks(child.id()).is_some_and(|t| t > CPU_LIMIT_TICKS);
        let over_memory = resident_kb(child.id()).is_some_and(|kb| kb > MEMORY_LIMIT_KB);
        if over_time || over_memory {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            return Ok(if over_memory {
                Verdict::Memory
            } else {
                Verdict::Timeout
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap_or_default();
    if text.contains("panicked at") {
        return Ok(Verdict::Panic);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if status.and_then(|s| s.signal()).is_some() {
            return Ok(Verdict::Abort);
        }
    }
    Ok(match status.and_then(|s| s.code()) {
        Some(0) => Verdict::Ran,
        Some(2) => Verdict::Refused,
        _ => Verdict::Raised,
    })
}

/// The processor time process `pid` has spent (user and system), in
/// clock ticks (100 a second on Linux), from `/proc`.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// The resident set of process `pid` in KiB, from `/proc`.
fn resident_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Compiles [`MODULES`] into `dir`; returns each name and its bytes.
fn compile(dir: &Path) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let mut out = Vec::new();
    for (name, source) in MODULES {
        let src = dir.join(format!("{name}.erl"));
        fs::write(&src, source).map_err(|e| Error::new(e.to_string()))?;
        process::run(Command::new("erlc").arg("-o").arg(dir).arg(&src))?;
        let beam =
            fs::read(dir.join(format!("{name}.beam"))).map_err(|e| Error::new(e.to_string()))?;
        out.push((*name, beam));
    }
    Ok(out)
}

/// The counts of each verdict, in words.
fn summary(counts: &[u64; 7]) -> String {
    format!(
        "{} ran, {} raised an error, {} refused at load; {} panics, {} aborts, {} timeouts, {} runaway memory",
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6]
    )
}

/// Runs the campaign.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let beamr = match &options.beamr {
        Some(path) => path.clone(),
        None => {
            process::run(
                Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                    .current_dir(root)
                    .args(["build", "-p", "beamr-cli"]),
            )?;
            root.join("target/debug/beamr")
        }
    };
    let work = root.join("target/mutate");
    let _ = fs::remove_dir_all(&work);
    let sources = work.join("src");
    fs::create_dir_all(&sources).map_err(|e| Error::new(e.to_string()))?;
    let modules = compile(&sources)?;
    let mut rng = Rng::new(options.seed);
    let mut counts = [0u64; 7];
    let run_dir = work.join("run");
    for i in 0..options.count {
        let (name, original) = &modules[rng.below(modules.len())];
        let (bytes, what) = mutate(original, &mut rng);
        let _ = fs::remove_dir_all(&run_dir);
        fs::create_dir_all(&run_dir).map_err(|e| Error::new(e.to_string()))?;
        let file = run_dir.join(format!("{name}.beam"));
        fs::write(&file, &bytes).map_err(|e| Error::new(e.to_string()))?;
        let verdict = run_one(&beamr, &run_dir, name)?;
        counts[verdict as usize] += 1;
        if !matches!(verdict, Verdict::Ran | Verdict::Raised | Verdict::Refused) {
            let kept: PathBuf = work.join(format!("{i}-{verdict:?}-{name}.beam"));
            let _ = fs::copy(&file, &kept);
            println!(
                "mutant {i} ({name}: {what}): {verdict:?}, kept as {}",
                kept.display()
            );
        }
        if (i + 1) % 100 == 0 {
            println!("{} mutants so far: {}", i + 1, summary(&counts));
        }
    }
    let _ = fs::remove_dir_all(&run_dir);
    println!(
        "{} mutants (seed {}): {}",
        options.count,
        options.seed,
        summary(&counts)
    );
    if counts[Verdict::Panic as usize] + counts[Verdict::Abort as usize] > 0 {
        return Err(Error::new("some mutants panicked or aborted beamr"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_count_and_seed() {
        let args: Vec<std::ffi::OsString> =
            ["-n", "50", "--seed", "7"].iter().map(Into::into).collect();
        assert_eq!(
            parse(&args).unwrap(),
            Options {
                count: 50,
                seed: 7,
                beamr: None
            }
        );
        assert_eq!(parse(&[]).unwrap(), Options::default());
        assert!(parse(&["-n".into()]).is_err());
    }

    #[test]
    fn mutants_are_the_same_for_a_seed() {
        // A container of two chunks, as chunks() reads it.
        let mut file = b"FOR1\0\0\0\x1cBEAM".to_vec();
        file.extend(b"Code\0\0\0\x04abcd");
        file.extend(b"AtU8\0\0\0\x02xy\0\0");
        assert_eq!(chunks(&file).len(), 2);
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        for _ in 0..20 {
            assert_eq!(mutate(&file, &mut a), mutate(&file, &mut b));
        }
    }
}
