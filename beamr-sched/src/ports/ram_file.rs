//! `ram_file_drv`: erts's RAM file driver, native. kernel's `ram_file`
//! (what `file:open(Data, [ram | Modes])` calls) opens it as
//! `open_port({spawn, "ram_file_drv"}, [] | [binary])` and sends it one
//! command at a time, waiting for each answer:
//!
//! ```text
//! command                      answer
//! 1  open    Mode:32 Data      number 0          Mode: 1 read, 2 write, 3 both
//! 2  read    Size:32           data              (Size bytes at most, from the position)
//! 3  lseek   Offset:32 Whence:32  number Pos     Whence: 0 bof, 1 cur, 2 eof
//! 4  write   Bytes             number Size       (at the position)
//! 9  fsync, 19 fdatasync       ok
//! 14 truncate                  ok                (the file ends at the position)
//! 17 pread   At:32 Size:32     data
//! 18 pwrite  At:32 Bytes       number Size
//! 30 get                       data              (the whole file)
//! 37 size                      number Size
//! 38 advise, 39 allocate       ok
//!
//! ok:     0                    error:  1 Errno-name (ebadf, einval, eacces)
//! number: 3 N:32               data:   2 N:32 Bytes
//! ```
//!
//! Numbers are signed on the way in and 32 bits on the way out, as erts
//! has them. An answer is `{Port, {data, Answer}}` to the owner: a list of
//! bytes, or in binary mode the header bytes in front of a binary holding
//! a data answer's bytes (`[2, N1, N2, N3, N4 | Bin]`). Reading needs
//! mode `read` (else `ebadf`), writing `write` (`ebadf`), truncating
//! `write` (`eacces`); a negative position is `einval`; a write past the
//! end fills the gap with zeros, and so does a truncate at a position past
//! it. A command erts's driver does not know gets no answer, as there; a
//! known one too short to hold its arguments (which `ram_file` never
//! sends) answers `einval`. The answer reaches the owner before the
//! command's `port_command` (or `Port ! {Pid, {command, Data}}`) returns,
//! as erts's driver outputs it from its command callback: the driver hands
//! it back from [`PortDriver::command`] and the port delivers it under the
//! lock it holds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::Payload;
use crate::runtime::{Port, PortDriver, Runtime};

const OPEN: u8 = 1;
const READ: u8 = 2;
const LSEEK: u8 = 3;
const WRITE: u8 = 4;
const FSYNC: u8 = 9;
const TRUNCATE: u8 = 14;
const PREAD: u8 = 17;
const PWRITE: u8 = 18;
const FDATASYNC: u8 = 19;
const GET: u8 = 30;
const SIZE: u8 = 37;
const ADVISE: u8 = 38;
const ALLOCATE: u8 = 39;

const MODE_READ: u32 = 1;
const MODE_WRITE: u32 = 2;

/// An answer to one command.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// `ok`.
    Ok,
    /// `{error, Name}`.
    Error(&'static str),
    /// `{ok, N}` (32 bits).
    Number(i64),
    /// `{ok, {Size, Bytes}}`.
    Data(Vec<u8>),
}

impl Answer {
    /// The answer's bytes: the header, and a data answer's bytes.
    pub fn bytes(&self) -> (Vec<u8>, &[u8]) {
        let number = |code: u8, n: i64| {
            let mut header = vec![code];
            header.extend_from_slice(&(n as u32).to_be_bytes());
            header
        };
        match self {
            Answer::Ok => (vec![0], &[]),
            Answer::Error(name) => {
                let mut header = vec![1];
                header.extend_from_slice(name.as_bytes());
                (header, &[])
            }
            Answer::Number(n) => (number(3, *n), &[]),
            Answer::Data(bytes) => (number(2, bytes.len() as i64), bytes),
        }
    }
}

/// The file: its bytes, the position, the mode.
#[derive(Debug, Default)]
pub struct RamFile {
    /// `MODE_READ`, `MODE_WRITE` or both; 0 before `open`.
    flags: u32,
    data: Vec<u8>,
    position: i64,
}

/// A signed 32-bit number at `at` in `args`.
fn int32(args: &[u8], at: usize) -> Option<i64> {
    let bytes = args.get(at..at + 4)?;
    Some(i64::from(i32::from_be_bytes(bytes.try_into().ok()?)))
}

impl RamFile {
    /// Carries out `command`; `None` for a command with no answer.
    pub fn run(&mut self, command: &[u8]) -> Option<Answer> {
        let (&op, args) = command.split_first()?;
        let answer = match op {
            OPEN => self.open(args),
            READ => int32(args, 0).map(|size| self.read(size, None)),
            LSEEK => match (int32(args, 0), int32(args, 4)) {
                (Some(offset), Some(whence)) => Some(self.seek(offset, whence)),
                _ => None,
            },
            WRITE => Some(self.write(args, None)),
            PWRITE => int32(args, 0).map(|at| match at {
                at if at < 0 => Answer::Error("einval"),
                at => self.write(&args[4..], Some(at)),
            }),
            PREAD => match (int32(args, 0), int32(args, 4)) {
                (Some(at), _) if at < 0 => Some(Answer::Error("einval")),
                (Some(at), Some(size)) => Some(self.read(size, Some(at))),
                _ => None,
            },
            TRUNCATE => Some(self.truncate()),
            GET => Some(Answer::Data(self.data.clone())),
            SIZE => Some(Answer::Number(self.data.len() as i64)),
            FSYNC | FDATASYNC | ADVISE | ALLOCATE if self.flags == 0 => {
                Some(Answer::Error("ebadf"))
            }
            FSYNC | FDATASYNC | ADVISE | ALLOCATE => Some(Answer::Ok),
            _ => return None,
        };
        Some(answer.unwrap_or(Answer::Error("einval")))
    }

    fn open(&mut self, args: &[u8]) -> Option<Answer> {
        let mode = int32(args, 0)?;
        self.flags = mode as u32;
        self.data = args[4..].to_vec();
        self.position = 0;
        Some(Answer::Number(0))
    }

    fn read(&mut self, size: i64, at: Option<i64>) -> Answer {
        if self.flags & MODE_READ == 0 {
            return Answer::Error("ebadf");
        }
        let from = at.unwrap_or(self.position);
        if from < 0 || size < 0 {
            return Answer::Error("einval");
        }
        let end = self.data.len() as i64;
        let n = if from < end { size.min(end - from) } else { 0 };
        let bytes = self.data[from.min(end) as usize..][..n as usize].to_vec();
        if at.is_none() {
            self.position = from + n;
        }
        Answer::Data(bytes)
    }

    fn write(&mut self, bytes: &[u8], at: Option<i64>) -> Answer {
        if self.flags & MODE_WRITE == 0 {
            return Answer::Error("ebadf");
        }
        let Ok(from) = usize::try_from(at.unwrap_or(self.position)) else {
            return Answer::Error("einval");
        };
        let to = from + bytes.len();
        if to > self.data.len() {
            if self.data.try_reserve(to - self.data.len()).is_err() {
                return Answer::Error("enomem");
            }
            self.data.resize(to, 0);
        }
        self.data[from..to].copy_from_slice(bytes);
        if at.is_none() {
            self.position = to as i64;
        }
        Answer::Number(bytes.len() as i64)
    }

    fn seek(&mut self, offset: i64, whence: i64) -> Answer {
        if self.flags == 0 {
            return Answer::Error("ebadf");
        }
        let position = match whence {
            0 => offset,
            1 => self.position + offset,
            2 => self.data.len() as i64 + offset,
            _ => return Answer::Error("einval"),
        };
        if position < 0 {
            return Answer::Error("einval");
        }
        self.position = position;
        Answer::Number(position)
    }

    fn truncate(&mut self) -> Answer {
        if self.flags & MODE_WRITE == 0 {
            return Answer::Error("eacces");
        }
        let Ok(at) = usize::try_from(self.position) else {
            return Answer::Error("einval");
        };
        if at > self.data.len() && self.data.try_reserve(at - self.data.len()).is_err() {
            return Answer::Error("enomem");
        }
        self.data.resize(at, 0);
        Answer::Ok
    }
}

/// The driver behind one port.
pub struct RamFileDriver {
    id: Term,
    binary: bool,
    file: Mutex<RamFile>,
    stopped: AtomicBool,
}

/// Opens a RAM file port for `owner`; `binary` is the port's mode. A full
/// port table is `system_limit`.
pub fn open(rt: &Runtime, owner: Term, binary: bool) -> Result<Term, crate::process::Exception> {
    let id = rt.ports.new_id()?;
    let driver = RamFileDriver {
        id,
        binary,
        file: Mutex::new(RamFile::default()),
        stopped: AtomicBool::new(false),
    };
    let mut port = Port::new(id, "ram_file_drv".to_string(), owner, None);
    port.driver = Some(std::sync::Arc::new(driver));
    rt.insert_port(std::sync::Arc::new(port));
    Ok(id)
}

impl RamFileDriver {
    /// Runs the command in `bytes`; its answer to the owner, if any, with
    /// the bytes it counts as the port's input.
    fn run(&self, bytes: &[u8]) -> Option<(usize, Payload)> {
        if self.stopped() {
            return None;
        }
        let answer = {
            let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
            file.run(bytes)
        }?;
        let (id, binary) = (self.id, self.binary);
        let (header, data) = answer.bytes();
        let size = header.len() + data.len();
        let is_data = matches!(answer, Answer::Data(_));
        let message = Payload::build(|h| {
            let tail = if !binary {
                h.byte_list(data, Term::NIL)
            } else if is_data {
                h.binary(data)
            } else {
                Term::NIL
            };
            let list = h.byte_list(&header, tail);
            let inner = h.tuple(&[Term::atom(Atom::DATA), list]);
            h.tuple(&[id, inner])
        });
        Some((size, message))
    }
}

impl PortDriver for RamFileDriver {
    /// Data given without a caller (the port made a tracer): run, with no
    /// one to answer.
    fn output(&self, bytes: &[u8]) {
        let _ = self.run(bytes);
    }

    fn command(&self, _caller: Term, bytes: &[u8]) -> Vec<(usize, Payload)> {
        self.run(bytes).into_iter().collect()
    }

    fn control(&self, _command: u32, _data: &[u8]) -> Option<(Vec<u8>, bool)> {
        None
    }

    fn stop(&self, _reason: Term) {
        self.stopped.store(true, Ordering::Release);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        *file = RamFile::default();
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(mode: u8, data: &[u8]) -> RamFile {
        let mut f = RamFile::default();
        let mut cmd = vec![OPEN, 0, 0, 0, mode];
        cmd.extend_from_slice(data);
        assert_eq!(f.run(&cmd), Some(Answer::Number(0)));
        f
    }

    #[test]
    fn reads_writes_and_seeks_as_erts() {
        let mut f = open(3, b"abc");
        assert_eq!(
            f.run(&[READ, 0, 0, 0, 2]),
            Some(Answer::Data(b"ab".to_vec()))
        );
        assert_eq!(
            f.run(&[LSEEK, 0, 0, 0, 5, 0, 0, 0, 0]),
            Some(Answer::Number(5))
        );
        assert_eq!(f.run(&[WRITE, b'z']), Some(Answer::Number(1)));
        assert_eq!(f.run(&[GET]), Some(Answer::Data(b"abc\0\0z".to_vec())));
        assert_eq!(
            f.run(&[LSEEK, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2]),
            Some(Answer::Number(5))
        );
        assert_eq!(f.run(&[TRUNCATE]), Some(Answer::Ok));
        assert_eq!(f.run(&[SIZE]), Some(Answer::Number(5)));
        assert_eq!(
            f.run(&[LSEEK, 0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0]),
            Some(Answer::Error("einval"))
        );
        assert_eq!(f.run(&[99]), None);
    }

    #[test]
    fn modes_guard_reads_and_writes() {
        let mut r = open(1, b"abc");
        assert_eq!(r.run(&[WRITE, b'x']), Some(Answer::Error("ebadf")));
        assert_eq!(r.run(&[TRUNCATE]), Some(Answer::Error("eacces")));
        let mut w = open(2, b"abc");
        assert_eq!(w.run(&[READ, 0, 0, 0, 1]), Some(Answer::Error("ebadf")));
        assert_eq!(w.run(&[PWRITE, 0, 0, 0, 1, b'Q']), Some(Answer::Number(1)));
        assert_eq!(w.run(&[GET]), Some(Answer::Data(b"aQc".to_vec())));
    }
}
