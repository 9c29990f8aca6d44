//! The descriptors of an `{fd, In, Out}` port: any the OS process has
//! open, as with erts (a shell that started beamr with `3<in 4>out` gives
//! descriptors 3 and 4).
//!
//! 0, 1 and 2 are the runtime's own standard streams. Any other is
//! reopened through `/proc/self/fd/N` (no `unsafe` borrowing of a raw
//! descriptor): the same file, pipe or terminal, at the descriptor's
//! offset and, for output, with its `O_APPEND` (both read from
//! `/proc/self/fdinfo/N`). A descriptor that cannot be reopened so (a
//! socket) gives the OS's error, and one that is not open gives `ebadf`:
//! Each descriptor is reopened once, for reading and once for writing,
//! and shared by every port on it, so that ports writing one file in turn
//! go on where the last stopped, as they do on erts's one descriptor.
//! erts opens the port all the same, then ends it with that reason (for
//! input, once it polls the descriptor; for output, at the first write).
//! The reopening never waits: a pipe or FIFO whose other end is gone is
//! reopened without blocking (one with no reader left gives `epipe`).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::OpenOptionsExt;
use std::sync::{Arc, Mutex};

/// `O_APPEND` as `/proc/self/fdinfo` shows it (octal flags).
const O_APPEND: u32 = 0o2000;

/// Why a descriptor cannot serve: the errno's atom name.
pub type Bad = String;

/// The open descriptor's offset and flags, from `/proc/self/fdinfo/N`.
fn info(fd: u32) -> Result<(u64, u32), Bad> {
    let text = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}"))
        .map_err(|_| "ebadf".to_string())?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or("0")
            .to_string()
    };
    let pos = field("pos:").parse().unwrap_or(0);
    let flags = u32::from_str_radix(&field("flags:"), 8).unwrap_or(0);
    Ok((pos, flags))
}

/// Reopens descriptor `fd` with `options`, at its offset when it has one.
///
/// The open does not block: a pipe reopened through `/proc` is opened as
/// a FIFO is, and a blocking open would wait for the other end (for ever,
/// when its reader or writer is gone). The reopened file then blocks as
/// the descriptor does. A pipe with no reader left gives `epipe`, as the
/// first write to the descriptor would on erts.
fn reopen(fd: u32, options: &mut OpenOptions) -> Result<File, Bad> {
    let (pos, flags) = info(fd)?;
    if flags & O_APPEND != 0 {
        options.append(true);
    }
    let errno = |e: std::io::Error| super::errno::errno_name(e.raw_os_error().unwrap_or(0));
    let mut file = options
        .custom_flags(libc::O_NONBLOCK)
        .open(format!("/proc/self/fd/{fd}"))
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => "epipe".to_string(),
            _ => errno(e).to_string(),
        })?;
    let status = rustix::fs::fcntl_getfl(&file).map_err(|e| errno(e.into()).to_string())?;
    rustix::fs::fcntl_setfl(&file, status - rustix::fs::OFlags::NONBLOCK)
        .map_err(|e| errno(e.into()).to_string())?;
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    if regular && flags & O_APPEND == 0 {
        file.seek(SeekFrom::Start(pos))
            .map_err(|e| errno(e).to_string())?;
    }
    Ok(file)
}

/// The descriptors reopened so far: (number, for writing) to the file.
type Reopened = HashMap<(u32, bool), Arc<File>>;

static REOPENED: Mutex<Option<Reopened>> = Mutex::new(None);

/// Descriptor `fd` reopened for reading or writing, once; the ports on it
/// share the one file (`Arc<File>` reads and writes through `&File`).
fn shared(fd: u32, write: bool) -> Result<Arc<File>, Bad> {
    let mut table = REOPENED.lock().unwrap_or_else(|e| e.into_inner());
    let table = table.get_or_insert_with(HashMap::new);
    if let Some(file) = table.get(&(fd, write)) {
        return Ok(file.clone());
    }
    let mut options = OpenOptions::new();
    options.read(!write).write(write);
    let file = Arc::new(reopen(fd, &mut options)?);
    table.insert((fd, write), file.clone());
    Ok(file)
}

/// What a port reads from descriptor `fd`.
pub fn reader(fd: u32) -> Result<Box<dyn Read + Send>, Bad> {
    if fd == 0 {
        return Ok(Box::new(std::io::stdin()));
    }
    Ok(Box::new(shared(fd, false)?))
}

/// Descriptor `fd` (not 0, 1 or 2) reopened for writing, shared by every
/// port that writes it.
pub fn shared_writer(fd: u32) -> Result<Arc<File>, Bad> {
    shared(fd, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_that_is_not_open_is_ebadf() {
        assert_eq!(reader(100_000).err().as_deref(), Some("ebadf"));
        assert_eq!(shared_writer(100_000).err().as_deref(), Some("ebadf"));
    }
}
