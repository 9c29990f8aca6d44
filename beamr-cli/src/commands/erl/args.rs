//! erl's command line, parsed as erlexec and init parse it.
//!
//! The words are read left to right:
//!
//! 1. `-extra`: every word after it is a plain argument.
//! 2. `+FLAG`: an emulator flag. beamr takes `+S N` and `+S N:M` (also
//!    written `+SN`), the limits `+P` (processes), `+Q` (ports), `+t`
//!    (atoms) and `+e` (ETS tables, reported only, as on erts), and
//!    `+B`/`+Bd` (no break handler: beamr has none); any other is refused.
//! 3. `-env VAR VALUE`: an environment variable for the runtime.
//! 4. `-s`, `-run`, `-eval`: a start instruction, with the words up to
//!    the next flag; the instructions run in this order after boot.
//! 5. `--`: ends the words of the flag before it.
//! 6. Any other `-FLAG`, with the words up to the next flag or `--`: a
//!    flag `init:get_arguments/0` answers (`-pa`, `-pz`, `-config`,
//!    `-noshell`, `-mode`, `-boot`, user flags such as `-kernel Key
//!    Value`), unless it is one of [`REFUSED`], which beamr cannot honour.
//! 7. Any other word: a plain argument (`init:get_plain_arguments/0`).

/// One start instruction (`-s`, `-run`, `-eval`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// `-s MOD [FUN [ARG...]]`: arguments as atoms.
    S(Vec<String>),
    /// `-run MOD [FUN [ARG...]]`: arguments as strings.
    Run(Vec<String>),
    /// `-eval EXPR`.
    Eval(String),
}

/// `+S N[:M]`: scheduler threads, and those online.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedulers {
    /// N.
    pub total: usize,
    /// M, if given (at most N).
    pub online: Option<usize>,
}

/// What an erl command line asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErlCommand {
    /// The words of every `-pa`, in command-line order.
    pub pa: Vec<String>,
    /// The words of every `-pz`, in command-line order.
    pub pz: Vec<String>,
    /// The start instructions, in order.
    pub instructions: Vec<Instruction>,
    /// The plain arguments.
    pub plain: Vec<String>,
    /// `-env VAR VALUE`, in order.
    pub env: Vec<(String, String)>,
    /// `+S`.
    pub schedulers: Option<Schedulers>,
    /// `+P N`: the most processes that may exist at once (as given; the
    /// runtime rounds it up as erts does).
    pub process_limit: Option<usize>,
    /// `+t N`: the most atoms programs may make.
    pub atom_limit: Option<usize>,
    /// `+Q N`: the most ports that may exist at once (as given; the
    /// runtime rounds it up as erts does).
    pub port_limit: Option<usize>,
    /// `+e N`: the ETS table limit `system_info(ets_limit)` reports (erts
    /// enforces none since OTP 20, nor does beamr).
    pub ets_limit: Option<usize>,
    /// Neither `-noshell` nor `-noinput` was given: erl would start its
    /// interactive shell.
    pub shell: bool,
    /// `-oldshell`: the shell without line editing (OTP 25's `user`).
    pub oldshell: bool,
    /// The flags `init:get_arguments/0` answers after erl's own, in order.
    pub flags: Vec<(String, Vec<String>)>,
}

/// Flags of erl that beamr does not take, each with the reason.
pub const REFUSED: &[(&str, &str)] = &[
    ("detached", "beamr does not detach from its terminal"),
    ("heart", "beamr has no heart program"),
    ("args_file", "beamr reads no argument files"),
    ("emu_args", "beamr has no emulator arguments to show"),
    ("emu_type", "beamr has one emulator"),
    ("emu_flavor", "beamr has one emulator"),
    (
        "make",
        "beamr does not run make:all/0 from the command line",
    ),
    ("compile", "beamr does not compile from the command line"),
    ("man", "beamr shows no manual pages"),
    ("version", "beamr prints no emulator version"),
    (
        "shell",
        "it is OTP 26's; beamr starts its shell when -noshell is not given",
    ),
    ("user", "beamr runs its own user process"),
    ("loader", "beamr loads code from files only"),
    ("hosts", "beamr loads code from files only"),
    ("boot_var", "beamr boots without a boot script"),
    ("init_debug", "beamr's init has no debug output"),
    ("configfd", "beamr reads configuration from files only"),
    ("S", "init's -S is OTP 28's; use -run"),
];

/// The values of `-boot` beamr takes: the boot scripts that start only
/// kernel and stdlib, which is how beamr boots.
const BOOTS: &[&str] = &["start_clean", "no_dot_erlang"];

/// Parses erl's command line (the words after `erl`); `Err` is one line
/// naming what beamr does not take.
pub fn parse(words: &[String]) -> Result<ErlCommand, String> {
    let mut cmd = ErlCommand {
        shell: true,
        ..ErlCommand::default()
    };
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        if word == "-extra" {
            cmd.plain.extend(words[i..].iter().cloned());
            break;
        }
        if let Some(flag) = word.strip_prefix('+') {
            i = emulator_flag(&mut cmd, flag, words, i)?;
            continue;
        }
        if word == "-env" {
            let [var, value] = match words.get(i..i + 2) {
                Some([var, value]) => [var.clone(), value.clone()],
                _ => return Err("-env needs a variable and a value".into()),
            };
            if var.is_empty() || var.contains('=') || var.contains('\0') || value.contains('\0') {
                return Err(format!("-env {var}: not a variable name"));
            }
            cmd.env.push((var, value));
            i += 2;
            continue;
        }
        if word == "--" {
            continue;
        }
        let Some(flag) = word.strip_prefix('-') else {
            cmd.plain.push(word.clone());
            continue;
        };
        let (values, next) = values_from(words, i);
        i = next;
        match flag {
            "s" => cmd.instructions.push(Instruction::S(values)),
            "run" => cmd.instructions.push(Instruction::Run(values)),
            "eval" => match values.as_slice() {
                [] => {}
                [expr] => cmd.instructions.push(Instruction::Eval(expr.clone())),
                more => {
                    return Err(format!(
                        "-eval takes one expression, got {} words (quote the expression)",
                        more.len()
                    ))
                }
            },
            _ => init_flag(&mut cmd, flag, values)?,
        }
    }
    Ok(cmd)
}

/// The words after a flag, up to the next flag or `--`, and the index
/// after them (past a `--`).
fn values_from(words: &[String], mut i: usize) -> (Vec<String>, usize) {
    let mut values = Vec::new();
    while let Some(word) = words.get(i) {
        if word == "--" {
            return (values, i + 1);
        }
        if word.starts_with('-') || word.starts_with('+') {
            break;
        }
        values.push(word.clone());
        i += 1;
    }
    (values, i)
}

/// A flag init keeps for `init:get_arguments/0`; beamr acts on `-pa`,
/// `-pz`, `-noshell` and `-noinput`, checks `-mode` and `-boot`, and
/// refuses the flags of [`REFUSED`].
fn init_flag(cmd: &mut ErlCommand, flag: &str, values: Vec<String>) -> Result<(), String> {
    if let Some((_, why)) = REFUSED.iter().find(|(name, _)| *name == flag) {
        return Err(format!("-{flag} is not supported: {why}"));
    }
    match flag {
        "pa" => cmd.pa.extend(values.iter().cloned()),
        "pz" => cmd.pz.extend(values.iter().cloned()),
        "noshell" => cmd.shell = false,
        "oldshell" => cmd.oldshell = true,
        "noinput" => {
            // erlexec gives init -noshell as well.
            cmd.shell = false;
            cmd.flags.push(("noshell".into(), Vec::new()));
        }
        "mode" if values.iter().any(|v| v != "interactive") => {
            return Err(format!(
                "-mode {}: beamr loads code on demand only (-mode interactive)",
                values.join(" ")
            ));
        }
        "boot" if values.iter().any(|v| !BOOTS.contains(&v.as_str())) => {
            return Err(format!(
                "-boot {}: beamr boots kernel and stdlib only (-boot start_clean or no_dot_erlang)",
                values.join(" ")
            ));
        }
        "" => return Err("-: not a flag".into()),
        _ => {}
    }
    cmd.flags.push((flag.to_string(), values));
    Ok(())
}

/// `+FLAG` at `words[i - 1]`; returns the index after its value.
fn emulator_flag(
    cmd: &mut ErlCommand,
    flag: &str,
    words: &[String],
    i: usize,
) -> Result<usize, String> {
    if matches!(flag, "B" | "Bd") {
        // No break handler, Ctrl-C ending the runtime: how beamr always
        // runs (escript gives erl +B).
        return Ok(i);
    }
    if let Some(attached) = flag.strip_prefix('P') {
        let (value, next) = flag_value(attached, words, i, "+P needs a number of processes")?;
        // erts's range for +P.
        cmd.process_limit = Some(number_in("+P", value, 1024, 134_217_727, "processes")?);
        return Ok(next);
    }
    if let Some(attached) = flag.strip_prefix('Q') {
        let (value, next) = flag_value(attached, words, i, "+Q needs a number of ports")?;
        // erts's range for +Q.
        cmd.port_limit = Some(number_in("+Q", value, 1024, 134_217_727, "ports")?);
        return Ok(next);
    }
    if let Some(attached) = flag.strip_prefix('e') {
        let (value, next) = flag_value(attached, words, i, "+e needs a number of ETS tables")?;
        cmd.ets_limit = Some(number_in("+e", value, 0, 2_147_483_647, "ETS tables")?);
        return Ok(next);
    }
    if let Some(attached) = flag.strip_prefix('t') {
        let (value, next) = flag_value(attached, words, i, "+t needs a number of atoms")?;
        // erts's range for +t.
        cmd.atom_limit = Some(number_in("+t", value, 8192, 2_147_483_647, "atoms")?);
        return Ok(next);
    }
    let Some(attached) = flag.strip_prefix('S') else {
        let name = flag.chars().next().map_or(String::new(), String::from);
        return Err(unsupported(&name));
    };
    if attached.starts_with(|c: char| c.is_ascii_alphabetic()) {
        // +SP, +SDcpu, +SDio, ...
        let name: String = flag.chars().take_while(char::is_ascii_alphabetic).collect();
        return Err(unsupported(&name));
    }
    let missing = "+S needs a number of schedulers (+S N or +S N:M)";
    let (value, next) = flag_value(attached, words, i, missing)?;
    cmd.schedulers = Some(schedulers(value)?);
    Ok(next)
}

/// The error for the emulator flag `+name`, which beamr does not take.
fn unsupported(name: &str) -> String {
    format!("+{name} is not supported: beamr takes only +S, +P, +Q, +t, +e and +B of erl's emulator flags")
}

/// An emulator flag's value: the rest of the word (`+P5000`), else the
/// next word (`+P 5000`, which `next`, the index after it, skips); a
/// missing one is the error `missing`.
fn flag_value<'w>(
    attached: &'w str,
    words: &'w [String],
    i: usize,
    missing: &str,
) -> Result<(&'w str, usize), String> {
    if !attached.is_empty() {
        return Ok((attached, i));
    }
    match words.get(i) {
        Some(v) => Ok((v.as_str(), i + 1)),
        None => Err(missing.to_string()),
    }
}

/// `value` as a number of `what` from `low` to `high`, as `flag` takes.
fn number_in(
    flag: &str,
    value: &str,
    low: usize,
    high: usize,
    what: &str,
) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| format!("{flag} {value}: expected a number of {what} from {low} to {high}"))
}

/// `N` or `N:M`, each 1..=1024, M at most N.
fn schedulers(value: &str) -> Result<Schedulers, String> {
    let number = |s: &str| {
        s.parse::<usize>()
            .ok()
            .filter(|n| (1..=1024).contains(n))
            .ok_or_else(|| format!("+S {value}: expected N or N:M, each from 1 to 1024"))
    };
    let (total, online) = match value.split_once(':') {
        Some((n, m)) => (number(n)?, Some(number(m)?)),
        None => (number(value)?, None),
    };
    if online.is_some_and(|m| m > total) {
        return Err(format!(
            "+S {value}: more schedulers online than schedulers"
        ));
    }
    Ok(Schedulers { total, online })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(line: &str) -> Result<ErlCommand, String> {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        parse(&words)
    }

    #[test]
    fn flags_instructions_and_plain_arguments_keep_their_order() {
        let cmd = parsed(
            "foo -noshell -pa a b -pa c -pz z -s m f x -eval 1 -run m g y -kernel k v -- p1 \
             -env V 1 +S 2:1 -extra e -s +A",
        )
        .unwrap();
        assert_eq!(cmd.pa, ["a", "b", "c"]);
        assert_eq!(cmd.pz, ["z"]);
        assert_eq!(
            cmd.instructions,
            [
                Instruction::S(vec!["m".into(), "f".into(), "x".into()]),
                Instruction::Eval("1".into()),
                Instruction::Run(vec!["m".into(), "g".into(), "y".into()]),
            ]
        );
        assert_eq!(cmd.plain, ["foo", "p1", "e", "-s", "+A"]);
        assert_eq!(cmd.env, [("V".to_string(), "1".to_string())]);
        assert_eq!(
            cmd.schedulers,
            Some(Schedulers {
                total: 2,
                online: Some(1)
            })
        );
        assert!(!cmd.shell);
        let names: Vec<&str> = cmd.flags.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(names, ["noshell", "pa", "pa", "pz", "kernel"]);
    }

    #[test]
    fn a_flag_beamr_cannot_honour_is_refused_by_name() {
        for (line, named) in [
            ("-noshell -shell", "-shell"),
            ("-noshell +A 4", "+A"),
            ("-noshell +SDcpu 2", "+SDcpu"),
            ("-noshell -detached", "-detached"),
            ("-noshell -mode embedded", "-mode embedded"),
            ("-noshell -boot start_sasl", "-boot start_sasl"),
            ("-noshell +S 2:4", "+S 2:4"),
            ("-noshell +S 0", "+S 0"),
            ("-noshell -env X", "-env"),
            ("-noshell -eval a b", "-eval"),
        ] {
            let e = parsed(line).unwrap_err();
            assert!(e.contains(named), "{line}: {e}");
            assert_eq!(e.lines().count(), 1);
        }
    }

    #[test]
    fn without_noshell_erl_would_start_a_shell() {
        assert!(parsed("-pa x").unwrap().shell);
        assert!(!parsed("-noinput").unwrap().shell);
        assert_eq!(parsed("+S4").unwrap().schedulers.unwrap().total, 4);
        assert_eq!(parsed("+P 5000").unwrap().process_limit, Some(5000));
        assert_eq!(parsed("+P2048").unwrap().process_limit, Some(2048));
        assert!(parsed("+P 100").is_err());
        assert!(parsed("+P x").is_err());
        assert_eq!(parsed("+t 20000").unwrap().atom_limit, Some(20000));
        assert_eq!(parsed("+t9000").unwrap().atom_limit, Some(9000));
        assert_eq!(parsed("+Q 5000").unwrap().port_limit, Some(5000));
        assert_eq!(parsed("+Q1024").unwrap().port_limit, Some(1024));
        assert!(parsed("+Q 1023").unwrap_err().contains("+Q 1023"));
        assert_eq!(parsed("+e 20000").unwrap().ets_limit, Some(20000));
        assert!(parsed("+e -5").unwrap_err().contains("+e -5"));
        assert!(parsed("+t 8191").is_err());
        assert!(parsed("+t 2147483648").is_err());
        assert!(parsed("+t").is_err());
        assert!(parsed("+P").is_err());
    }
}
