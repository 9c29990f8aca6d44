//! `open_port/2`'s arguments: the port name (`{spawn, Command}`,
//! `{spawn_executable, File}`, `{spawn_driver, Name}`, `{fd, In, Out}`, or an atom, the old form
//! of `{spawn, Atom}`) and the settings list, read
//! as erts reads them (a later option wins over an earlier one; anything
//! it does not know, or `{line, N}` with `{packet, N}`, is `badarg` with
//! the cause `badopt`; a bad port name or `args` for a command is a plain
//! `badarg`).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::framing::Framing;
use crate::process::Exception;

/// What a port runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortName {
    /// A command line, run by `/bin/sh -c "exec Command"`.
    Spawn(String),
    /// An executable file, run directly with `args`.
    Executable(String),
    /// Open file descriptors of the runtime itself (input, output).
    Fd(u32, u32),
    /// A driver built into the runtime, by name (`"tcp_inet"`).
    Driver(String),
}

/// The settings of a port.
#[derive(Clone, Debug)]
pub struct PortOptions {
    /// How output is cut into messages.
    pub framing: Framing,
    /// Data as binaries rather than lists of bytes.
    pub binary: bool,
    /// Send `{Port, {exit_status, N}}` when the program exits.
    pub exit_status: bool,
    /// Send `{Port, eof}` at end of output and stay open.
    pub eof: bool,
    /// The program's standard error goes where its output goes.
    pub stderr_to_stdout: bool,
    /// The port reads the program's output (false with `out` alone).
    pub input: bool,
    /// The port writes to the program's input (false with `in` alone).
    pub output: bool,
    /// The program's working directory.
    pub cd: Option<String>,
    /// Variables to set (`Some`) or remove (`None`).
    pub env: Vec<(String, Option<String>)>,
    /// The executable's arguments (`spawn_executable` only).
    pub args: Vec<String>,
    /// The executable's `argv[0]`.
    pub arg0: Option<String>,
    /// The program talks with the port on its standard input and output
    /// (`use_stdio`, the default); with `nouse_stdio` on descriptors 3
    /// (from the port) and 4 (to the port), its own being the runtime's.
    pub use_stdio: bool,
}

/// Reads `open_port/2`'s arguments.
pub fn parse(name: Term, settings: Term) -> Result<(PortName, PortOptions), Exception> {
    let name = port_name(name)?;
    let mut o = PortOptions {
        framing: Framing::Stream,
        binary: false,
        exit_status: false,
        eof: false,
        stderr_to_stdout: false,
        input: true,
        output: true,
        cd: None,
        env: Vec::new(),
        args: Vec::new(),
        arg0: None,
        use_stdio: true,
    };
    let (mut only_in, mut only_out) = (false, false);
    let executable = matches!(name, PortName::Executable(_));
    for opt in settings.list_to_vec().ok_or_else(badopt)? {
        if let Some(atom) = opt.as_atom() {
            match atom.name() {
                "stream" => o.framing = Framing::Stream,
                "binary" => o.binary = true,
                "exit_status" => o.exit_status = true,
                "eof" => o.eof = true,
                "stderr_to_stdout" => o.stderr_to_stdout = true,
                "in" => only_in = true,
                "out" => only_out = true,
                "use_stdio" => o.use_stdio = true,
                "nouse_stdio" => o.use_stdio = false,
                "hide" | "overlapped_io" => {}
                _ => return Err(badopt()),
            }
            continue;
        }
        let Some(&[key, value]) = opt.as_tuple() else {
            return Err(badopt());
        };
        match key.as_atom().map(|a| a.name()) {
            Some("packet") => match value.as_small() {
                Some(n @ (1 | 2 | 4)) if !matches!(o.framing, Framing::Line(_)) => {
                    o.framing = Framing::Packet(n as usize)
                }
                _ => return Err(badopt()),
            },
            Some("line") => match value.as_small() {
                Some(n) if n > 0 && !matches!(o.framing, Framing::Packet(_)) => {
                    o.framing = Framing::Line(n as usize)
                }
                _ => return Err(badopt()),
            },
            Some("cd") => o.cd = Some(string(value).map_err(|_| badopt())?),
            Some("env") => o.env = env(value).map_err(|_| badopt())?,
            Some("args") if executable => {
                let args = value.list_to_vec().ok_or_else(badopt)?;
                o.args = args
                    .into_iter()
                    .map(string)
                    .collect::<Result<_, _>>()
                    .map_err(|_| badopt())?;
            }
            Some("arg0") if executable => o.arg0 = Some(string(value).map_err(|_| badopt())?),
            Some("args" | "arg0") => return Err(Exception::badarg()),
            Some("parallelism") if value == Term::TRUE || value == Term::FALSE => {}
            Some("busy_limits_port" | "busy_limits_msgq") if busy_limits(value) => {}
            _ => return Err(badopt()),
        }
    }
    if only_in && !only_out {
        o.output = false;
    }
    if only_out && !only_in {
        o.input = false;
    }
    Ok((name, o))
}

/// A `busy_limits_port` / `busy_limits_msgq` value erts takes: `disabled`
/// or `{Low, High}` with `0 < Low =< High` (beamr keeps no such limits).
fn busy_limits(value: Term) -> bool {
    if value.as_atom().is_some_and(|a| a.name() == "disabled") {
        return true;
    }
    match value.as_tuple() {
        Some(&[low, high]) => match (low.as_small(), high.as_small()) {
            (Some(low), Some(high)) => 0 < low && low <= high,
            _ => false,
        },
        _ => false,
    }
}

/// `badarg` with the cause erts gives a bad setting.
fn badopt() -> Exception {
    Exception::badarg_cause(Term::atom(Atom::new("badopt").expect("atom")))
}

fn port_name(name: Term) -> Result<PortName, Exception> {
    // An atom is the old form of {spawn, Name} (which OTP 25 still takes,
    // and the open_port BIF refuses from OTP 26 on, as erts does).
    if let Some(atom) = name.as_atom() {
        return match atom.name() {
            "" => Err(Exception::badarg()),
            name => Ok(PortName::Spawn(name.to_string())),
        };
    }
    let Some(&[kind, ref rest @ ..]) = name.as_tuple() else {
        return Err(Exception::badarg());
    };
    match (kind.as_atom().map(|a| a.name()), rest) {
        (Some("spawn"), &[command]) => {
            let command = string_or_atom(command)?;
            if command.is_empty() {
                return Err(Exception::badarg());
            }
            Ok(PortName::Spawn(command))
        }
        (Some("spawn_executable"), &[file]) => Ok(PortName::Executable(string(file)?)),
        (Some("spawn_driver"), &[driver]) => Ok(PortName::Driver(string_or_atom(driver)?)),
        (Some("fd"), &[input, output]) => {
            // An integer that is no descriptor number is `einval`.
            let fd = |t: Term| t.as_small().and_then(|n| i32::try_from(n).ok());
            let integer = |t: Term| t.is_integer();
            match (fd(input), fd(output)) {
                (Some(i), Some(o)) if i >= 0 && o >= 0 => Ok(PortName::Fd(i as u32, o as u32)),
                _ if integer(input) && integer(output) => Err(Exception::error(Term::atom(
                    beamr_core::atom::Atom::new("einval").expect("atom"),
                ))),
                _ => Err(Exception::badarg()),
            }
        }
        _ => Err(Exception::badarg()),
    }
}

/// A command or driver name: an atom (`user_drv` opens `{spawn, 'tty_sl
/// -c -e'}`) or a string.
fn string_or_atom(t: Term) -> Result<String, Exception> {
    match t.as_atom() {
        Some(a) => Ok(a.name().to_string()),
        None => string(t),
    }
}

/// A string argument: a flat list of characters or a UTF-8 binary,
/// without NUL characters.
fn string(t: Term) -> Result<String, Exception> {
    let s = if let Some(b) = t.as_binary() {
        let bytes = b.as_bytes().ok_or_else(Exception::badarg)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| Exception::badarg())?
    } else {
        let chars = t.list_to_vec().ok_or_else(Exception::badarg)?;
        chars
            .iter()
            .map(|c| {
                c.as_small()
                    .and_then(|c| u32::try_from(c).ok())
                    .and_then(char::from_u32)
            })
            .collect::<Option<String>>()
            .ok_or_else(Exception::badarg)?
    };
    if s.contains('\0') {
        return Err(Exception::badarg());
    }
    Ok(s)
}

/// `{env, [{Name, Value | false}]}`.
fn env(t: Term) -> Result<Vec<(String, Option<String>)>, Exception> {
    let pairs = t.list_to_vec().ok_or_else(Exception::badarg)?;
    pairs
        .into_iter()
        .map(|pair| {
            let Some(&[name, value]) = pair.as_tuple() else {
                return Err(Exception::badarg());
            };
            let name = string(name)?;
            if name.is_empty() || name.contains('=') {
                return Err(Exception::badarg());
            }
            let value = if value == Term::FALSE {
                None
            } else {
                Some(string(value)?)
            };
            Ok((name, value))
        })
        .collect()
}
