//! Ports whose other side is a driver built into the runtime, as erts's
//! linked-in drivers: `open_port({spawn, "trace_file_drv ..."}, ...)` and
//! `open_port({spawn, "trace_ip_drv ..."}, ...)` (what `dbg:trace_port/2`
//! opens) start [`trace_file`](super::trace_file) and
//! [`trace_ip`](super::trace_ip) instead of a program, and
//! `open_port({spawn, "ram_file_drv"}, ...)` (kernel's `ram_file`) starts
//! [`ram_file`](super::ram_file), and `open_port({spawn, "tty_sl -c -e"},
//! ...)` (user_drv's, for the interactive shell) starts
//! [`tty_sl`](super::tty_sl).

use std::sync::Arc;

use beamr_core::term::Term;

use super::errno::os_error;
use super::{ram_file, trace_file, trace_ip, tty_sl};
use crate::process::Exception;
use crate::runtime::{Port, PortDriver, Runtime};

/// Opens the built-in driver `command` names (its first word), connected
/// to `owner`; `None` when it names no built-in driver (the command is a
/// program to run). A bad command line is `badarg`; a file or socket that
/// cannot be opened is the error erts gives (the errno's atom). `binary`
/// is the port's mode (the RAM file driver answers in it).
pub fn open(
    rt: &Runtime,
    owner: Term,
    command: &str,
    binary: bool,
) -> Option<Result<Term, Exception>> {
    let driver: Result<Arc<dyn PortDriver>, Exception> =
        match command.split(' ').next().unwrap_or_default() {
            "ram_file_drv" => return Some(ram_file::open(rt, owner, binary)),
            "tty_sl" => return Some(tty_sl::open(rt, owner, command)),
            "trace_file_drv" => trace_file::parse(command)
                .ok_or_else(Exception::badarg)
                .and_then(|args| {
                    trace_file::TraceFile::open(&args)
                        .map(|d| Arc::new(d) as Arc<dyn PortDriver>)
                        .map_err(|e| os_error(&e))
                }),
            "trace_ip_drv" => trace_ip::parse(command)
                .ok_or_else(Exception::badarg)
                .and_then(|args| {
                    trace_ip::TraceIp::open(args)
                        .map(|d| Arc::new(d) as Arc<dyn PortDriver>)
                        .map_err(|e| os_error(&e))
                }),
            _ => return None,
        };
    Some(driver.and_then(|driver| {
        let id = rt.ports.new_id()?;
        let mut port = Port::new(id, command.to_string(), owner, None);
        port.driver = Some(driver);
        rt.insert_port(Arc::new(port));
        Ok(id)
    }))
}
