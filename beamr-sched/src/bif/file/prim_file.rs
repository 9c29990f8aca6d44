//! `prim_file`'s NIFs, under which OTP's `file`, `filelib` and the file io
//! servers run as bytecode, and `file:native_name_encoding/0`.
//!
//! They follow erts's `prim_file_nif.c` and `unix_prim_file.c`:
//!
//! - A path arrives encoded by `internal_name2native/1`: the name's UTF-8
//!   bytes and a terminating NUL (a NUL inside the name is `einval`).
//! - Results are `ok`, `{ok, Value}`, `eof` or `{error, Posix}` with the
//!   errno's name (`enoent`, `eacces`, `eisdir`, ...), with erts's
//!   corrections: unlinking a directory is `eperm`, a non-empty directory
//!   is `eexist`, opening a directory is `eisdir`.
//! - An open file is a resource (see [`crate::bif::common::resource`]); closing it
//!   empties its slot, after which every operation on it is `einval`.
//!   As erts's resource monitor does, the controlling process's end (the
//!   process that opened it) closes a file it left open (see
//!   [`crate::process::OwnedResource`]); [`open_files`] counts the files
//!   open.
//! - `list_dir_nif` lists in the reverse of `readdir` order (erts builds
//!   its list by prepending; `prim_file` reverses it back).

use crate::bif::common::atoms::atom;
use crate::bif::common::c_library;
use std::ffi::{CString, OsStr};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::resource::Resources;
use crate::bif::erlang::binaries::{binary_bytes, iodata_bytes};
use crate::loader::BifRow;
use crate::ports::errno_name;
use crate::process::{Exception, OwnedResource, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("file", "native_name_encoding", 0, native_name_encoding),
    ("prim_file", "internal_name2native", 1, name2native),
    ("prim_file", "internal_native2name", 1, native2name),
    ("prim_file", "internal_normalize_utf8", 1, normalize_utf8),
    ("prim_file", "is_translatable", 1, is_translatable),
    ("prim_file", "on_load", 0, on_load),
    ("prim_file", "open_nif", 2, open_nif),
    ("prim_file", "close_nif", 1, close_nif),
    ("prim_file", "read_nif", 2, read_nif),
    ("prim_file", "write_nif", 2, write_nif),
    ("prim_file", "pread_nif", 3, pread_nif),
    (
        "prim_file",
        "ipread_s32bu_p32bu_nif",
        3,
        ipread_s32bu_p32bu_nif,
    ),
    ("prim_file", "pwrite_nif", 3, pwrite_nif),
    ("prim_file", "seek_nif", 3, seek_nif),
    ("prim_file", "sync_nif", 2, sync_nif),
    ("prim_file", "truncate_nif", 1, truncate_nif),
    ("prim_file", "advise_nif", 4, advise_nif),
    ("prim_file", "allocate_nif", 3, allocate_nif),
    ("prim_file", "get_handle_nif", 1, get_handle_nif),
    ("prim_file", "delayed_close_nif", 1, close_nif),
    ("prim_file", "read_handle_info_nif", 1, read_handle_info_nif),
    ("prim_file", "read_file_nif", 1, read_file_nif),
    ("prim_file", "list_dir_nif", 1, list_dir_nif),
    ("prim_file", "read_info_nif", 2, read_info_nif),
    ("prim_file", "read_link_nif", 1, read_link_nif),
    ("prim_file", "make_dir_nif", 1, make_dir_nif),
    ("prim_file", "del_file_nif", 1, del_file_nif),
    ("prim_file", "del_dir_nif", 1, del_dir_nif),
    ("prim_file", "rename_nif", 2, rename_nif),
    ("prim_file", "make_hard_link_nif", 2, make_hard_link_nif),
    ("prim_file", "make_soft_link_nif", 2, make_soft_link_nif),
    ("prim_file", "get_cwd_nif", 0, get_cwd_nif),
    ("prim_file", "set_cwd_nif", 1, set_cwd_nif),
    ("prim_file", "get_device_cwd_nif", 1, enotsup1),
    ("prim_file", "altname_nif", 1, enotsup1),
    ("prim_file", "set_permissions_nif", 2, set_permissions_nif),
    ("prim_file", "set_owner_nif", 3, set_owner_nif),
    ("prim_file", "set_time_nif", 4, set_time_nif),
];

fn ok() -> Term {
    Term::atom(Atom::OK)
}

// ---- errors ----

/// `{error, Posix}` for errno `e`.
fn posix_error(p: &mut Process, e: i32) -> Term {
    p.heap
        .tuple(&[Term::atom(Atom::ERROR), atom(errno_name(e))])
}

fn io_error(p: &mut Process, e: &std::io::Error) -> Term {
    posix_error(p, e.raw_os_error().unwrap_or(libc::EIO))
}

/// `ok` or `{error, Posix}`.
fn unit_result(p: &mut Process, r: std::io::Result<()>) -> Term {
    match r {
        Ok(()) => ok(),
        Err(e) => io_error(p, &e),
    }
}

// ---- names ----

/// `file:native_name_encoding()`: beamr names files in UTF-8.
fn native_name_encoding(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(atom("utf8"))
}

/// The characters of a (deep) list of code points, appended to `out` as UTF-8.
fn push_chars(t: Term, out: &mut Vec<u8>) -> Option<()> {
    let mut iter = t.iter_list();
    for item in iter.by_ref() {
        if let Some(c) = item.as_small() {
            let c = char::from_u32(u32::try_from(c).ok()?)?;
            if c == '\0' {
                return None;
            }
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        } else if item.is_list() {
            push_chars(item, out)?;
        } else {
            return None;
        }
    }
    iter.tail().is_nil().then_some(())
}

/// `internal_name2native(Name)`: a string (possibly deep) or a binary, as
/// the NUL-terminated bytes the NIFs take.
fn name2native(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut bytes = Vec::new();
    if a[0].as_binary().is_some() {
        bytes.extend_from_slice(&binary_bytes(&a[0])?);
        if bytes.contains(&0) {
            return Err(Exception::badarg());
        }
    } else if a[0].is_list() {
        push_chars(a[0], &mut bytes).ok_or_else(Exception::badarg)?;
    } else {
        return Err(Exception::badarg());
    }
    bytes.push(0);
    Ok(p.heap.binary(&bytes))
}

/// `internal_native2name(Bytes)`: the name as a string, or `{error,
/// warning}` for bytes that are not UTF-8 (erts's answer for such a name
/// under its default `+fnuw`).
fn native2name(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    Ok(match std::str::from_utf8(&bytes) {
        Ok(s) => p.heap.string(s),
        Err(_) => p.heap.tuple(&[Term::atom(Atom::ERROR), atom("warning")]),
    })
}

/// `internal_normalize_utf8(Binary)`: the characters of a UTF-8 binary (no
/// normalisation form is applied; erts applies one only on macOS).
fn normalize_utf8(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    let s = std::str::from_utf8(&bytes).map_err(|_| Exception::badarg())?;
    Ok(p.heap.string(s))
}

fn is_translatable(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    Ok(if std::str::from_utf8(&bytes).is_ok() {
        Term::TRUE
    } else {
        Term::FALSE
    })
}

/// `on_load()`: the NIFs are built in; nothing to load.
fn on_load(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(ok())
}

/// The path in a NIF's path argument: the bytes before the terminating
/// NULs. `Err(EINVAL)` when it is not NUL-terminated or has a NUL inside,
/// badarg when it is not a binary.
fn path_arg(t: Term) -> Result<Result<CString, i32>, Exception> {
    let bytes = binary_bytes(&t)?;
    let Some(end) = bytes.iter().position(|&b| b == 0) else {
        return Ok(Err(libc::EINVAL));
    };
    if bytes[end..].iter().any(|&b| b != 0) {
        return Ok(Err(libc::EINVAL));
    }
    Ok(Ok(CString::new(&bytes[..end]).expect("no NUL before end")))
}

fn as_path(c: &CString) -> &Path {
    Path::new(OsStr::from_bytes(c.as_bytes()))
}

/// Runs `f` on the path argument `t`, or answers `{error, einval}`.
fn with_path(
    p: &mut Process,
    t: Term,
    f: impl FnOnce(&mut Process, &CString) -> Term,
) -> Result<Term, Exception> {
    Ok(match path_arg(t)? {
        Ok(path) => f(p, &path),
        Err(e) => posix_error(p, e),
    })
}

// ---- open files ----

/// An open file; `None` once closed.
struct OpenFile(Mutex<Option<File>>);

impl OpenFile {
    fn lock(&self) -> MutexGuard<'_, Option<File>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl OwnedResource for OpenFile {
    /// The process that opened the file has ended: close it.
    fn owner_exited(&self) {
        drop(self.lock().take());
    }
}

/// How many files `prim_file` holds open, in every runtime of this OS
/// process.
pub fn open_files() -> usize {
    FILES.count(|f| f.lock().is_some())
}

/// Third id word of an open file's reference.
const FILE_TAG: u32 = 0x00F1_1E00;

static FILES: Resources<OpenFile> = Resources::new(FILE_TAG);

/// Runs `f` on the open file `handle` denotes: badarg if it is not a file
/// handle, `{error, einval}` if the file is closed.
fn with_file(
    p: &mut Process,
    handle: Term,
    f: impl FnOnce(&mut Process, &mut File) -> Term,
) -> Result<Term, Exception> {
    let file: Arc<OpenFile> = FILES.get(handle).ok_or_else(Exception::badarg)?;
    let mut slot = file.lock();
    Ok(match slot.as_mut() {
        Some(f_) => f(p, f_),
        None => posix_error(p, libc::EINVAL),
    })
}

/// `open_nif(Path, Modes)`: `{ok, Handle}` or `{error, Posix}`.
fn open_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let modes = a[1].list_to_vec().ok_or_else(Exception::badarg)?;
    let has = |name: &str| {
        modes
            .iter()
            .any(|m| m.as_atom().is_some_and(|m| m.name() == name))
    };
    let (append, exclusive) = (has("append"), has("exclusive"));
    let write = has("write") || append || exclusive;
    let read = has("read") || !write;
    let mut options = OpenOptions::new();
    options.read(read).mode(0o666);
    if write {
        options.write(true).create(true);
        if !read && !append {
            options.truncate(true);
        }
    }
    if append {
        options.append(true);
    }
    if exclusive {
        options.create_new(true);
    }
    if has("sync") {
        options.custom_flags(libc::O_SYNC);
    }
    let skip_type_check = has("skip_type_check");
    with_path(p, a[0], |p, path| match options.open(as_path(path)) {
        Ok(file) => {
            let is_dir = file.metadata().is_ok_and(|m| m.is_dir());
            if is_dir && !skip_type_check {
                return posix_error(p, libc::EISDIR);
            }
            let (handle, file) = FILES.insert_shared(p, OpenFile(Mutex::new(Some(file))));
            p.owned.push(file);
            p.heap.tuple(&[ok(), handle])
        }
        Err(e) => io_error(p, &e),
    })
}

fn close_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let file = FILES.get(a[0]).ok_or_else(Exception::badarg)?;
    let closed = file.lock().take();
    let owned: Arc<dyn OwnedResource> = file;
    p.owned.remove(&owned);
    Ok(match closed {
        Some(f) => {
            drop(f);
            ok()
        }
        None => posix_error(p, libc::EINVAL),
    })
}

/// A byte count or offset argument: badarg if not an integer, `Err(EINVAL)`
/// if negative or beyond 64 bits.
fn size_arg(t: Term) -> Result<Result<u64, i32>, Exception> {
    let i = t.as_integer().ok_or_else(Exception::badarg)?;
    Ok(u64::try_from(i.to_bigint()).map_err(|_| libc::EINVAL))
}

/// Reads up to `n` bytes at the file's position (or at `at`), looping on
/// short reads as erts does; fewer only at the end of the file.
fn read_fully(file: &mut File, n: u64, at: Option<u64>) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; n as usize];
    let mut got = 0;
    while got < buf.len() {
        let r = match at {
            Some(offset) => file.read_at(&mut buf[got..], offset + got as u64),
            None => file.read(&mut buf[got..]),
        };
        match r {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok(buf)
}

/// `{ok, Bytes}` for up to `n` bytes at the file's position (or at `at`);
/// `eof` when nothing was read.
fn read_result(p: &mut Process, file: &mut File, n: u64, at: Option<u64>) -> Term {
    match read_fully(file, n, at) {
        Ok(bytes) if bytes.is_empty() => atom("eof"),
        Ok(bytes) => {
            let bin = p.heap.binary(&bytes);
            p.heap.tuple(&[ok(), bin])
        }
        Err(e) => io_error(p, &e),
    }
}

/// `ipread_s32bu_p32bu_nif(Handle, Offset, MaxSize)`, dets's indirect
/// read: at `Offset` a big-endian 32-bit size and pointer, then up to that
/// many bytes at the pointer: `{ok, {Size, Pointer, Data | eof}}`, `eof`
/// when the header is incomplete, `{error, einval}` when the size exceeds
/// `MaxSize`.
fn ipread_s32bu_p32bu_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (offset, max) = (size_arg(a[1])?, size_arg(a[2])?);
    with_file(p, a[0], |p, file| {
        let (offset, max) = match (offset, max) {
            (Ok(offset), Ok(max)) => (offset, max),
            (Err(e), _) | (_, Err(e)) => return posix_error(p, e),
        };
        let header = match read_fully(file, 8, Some(offset)) {
            Ok(header) if header.len() == 8 => header,
            Ok(_) => return atom("eof"),
            Err(e) => return io_error(p, &e),
        };
        let size = u32::from_be_bytes(header[..4].try_into().expect("4 bytes"));
        let pointer = u32::from_be_bytes(header[4..].try_into().expect("4 bytes"));
        if u64::from(size) > max {
            return posix_error(p, libc::EINVAL);
        }
        let data = match read_fully(file, u64::from(size), Some(u64::from(pointer))) {
            Ok(bytes) if bytes.is_empty() => atom("eof"),
            Ok(bytes) => p.heap.binary(&bytes),
            Err(e) => return io_error(p, &e),
        };
        let (size, pointer) = (p.heap.int(i64::from(size)), p.heap.int(i64::from(pointer)));
        let read = p.heap.tuple(&[size, pointer, data]);
        p.heap.tuple(&[ok(), read])
    })
}

fn read_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = size_arg(a[1])?;
    with_file(p, a[0], |p, file| match n {
        Ok(n) => read_result(p, file, n, None),
        Err(e) => posix_error(p, e),
    })
}

fn pread_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (offset, n) = (size_arg(a[1])?, size_arg(a[2])?);
    with_file(p, a[0], |p, file| match (offset, n) {
        (Ok(offset), Ok(n)) => read_result(p, file, n, Some(offset)),
        (Err(e), _) | (_, Err(e)) => posix_error(p, e),
    })
}

fn write_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[1])?;
    with_file(p, a[0], |p, file| unit_result(p, file.write_all(&bytes)))
}

fn pwrite_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::os::unix::fs::FileExt;
    let offset = size_arg(a[1])?;
    let bytes = iodata_bytes(a[2])?;
    with_file(p, a[0], |p, file| match offset {
        Ok(offset) => unit_result(p, file.write_all_at(&bytes, offset)),
        Err(e) => posix_error(p, e),
    })
}

/// `seek_nif(Handle, bof | cur | eof, Offset)`: `{ok, NewPosition}`.
fn seek_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let offset = a[2]
        .as_integer()
        .and_then(|i| i64::try_from(i.to_bigint()).ok())
        .ok_or_else(Exception::badarg)?;
    let from = match a[1].as_atom().map(Atom::name) {
        Some("bof") => match u64::try_from(offset) {
            Ok(o) => SeekFrom::Start(o),
            Err(_) => return with_file(p, a[0], |p, _| posix_error(p, libc::EINVAL)),
        },
        Some("cur") => SeekFrom::Current(offset),
        Some("eof") => SeekFrom::End(offset),
        _ => return Err(Exception::badarg()),
    };
    with_file(p, a[0], |p, file| match file.seek(from) {
        Ok(pos) => {
            let pos = p.heap.int(pos as i64);
            p.heap.tuple(&[ok(), pos])
        }
        Err(e) => io_error(p, &e),
    })
}

fn sync_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let data_only = a[1].as_small().ok_or_else(Exception::badarg)? != 0;
    with_file(p, a[0], |p, file| {
        let r = if data_only {
            file.sync_data()
        } else {
            file.sync_all()
        };
        unit_result(p, r)
    })
}

/// `truncate_nif(Handle)`: cuts the file at its position.
fn truncate_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_file(p, a[0], |p, file| {
        let r = file.stream_position().and_then(|pos| file.set_len(pos));
        unit_result(p, r)
    })
}

/// `advise_nif/4`: advice is only advice; the arguments are checked as erts
/// checks them.
fn advise_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (offset, length) = (size_arg(a[1])?, size_arg(a[2])?);
    let known = a[3].as_atom().is_some_and(|x| {
        matches!(
            x.name(),
            "normal" | "random" | "sequential" | "will_need" | "dont_need" | "no_reuse"
        )
    });
    with_file(p, a[0], |p, _| {
        if offset.is_err() || length.is_err() || !known {
            posix_error(p, libc::EINVAL)
        } else {
            ok()
        }
    })
}

/// `allocate_nif(Handle, Offset, Length)`: makes sure the file has room
/// for the range (extending it as `posix_fallocate` would).
fn allocate_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (offset, length) = (size_arg(a[1])?, size_arg(a[2])?);
    with_file(p, a[0], |p, file| match (offset, length) {
        (Ok(offset), Ok(length)) => {
            let end = offset.saturating_add(length);
            let r = file.metadata().and_then(|m| {
                if m.len() < end {
                    file.set_len(end)
                } else {
                    Ok(())
                }
            });
            unit_result(p, r)
        }
        _ => posix_error(p, libc::EINVAL),
    })
}

/// `get_handle_nif(Handle)`: the descriptor's bytes, native order.
fn get_handle_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::os::fd::AsRawFd;
    with_file(p, a[0], |p, file| {
        p.heap.binary(&file.as_raw_fd().to_ne_bytes())
    })
}

fn read_handle_info_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_file(p, a[0], |p, file| match file.metadata() {
        // An open file's access is what it was opened for; erts reports
        // the mode bits' view, which read_info_nif's access() matches for
        // the owner.
        Ok(m) => file_info(p, &m, owner_access(&m)),
        Err(e) => io_error(p, &e),
    })
}

fn enotsup1(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(posix_error(p, libc::ENOTSUP))
}

// ---- whole files and the file system ----

fn read_file_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| match std::fs::read(as_path(path)) {
        Ok(bytes) => {
            let bin = p.heap.binary(&bytes);
            p.heap.tuple(&[ok(), bin])
        }
        Err(e) => io_error(p, &e),
    })
}

/// `list_dir_nif(Path)`: `{ok, [RawName]}` without `.` and `..`.
fn list_dir_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| {
        let names: std::io::Result<Vec<Vec<u8>>> =
            std::fs::read_dir(as_path(path)).and_then(|dir| {
                dir.map(|e| e.map(|e| e.file_name().as_bytes().to_vec()))
                    .collect()
            });
        match names {
            Ok(names) => {
                let terms: Vec<Term> = names.iter().rev().map(|n| p.heap.binary(n)).collect();
                let list = p.heap.list(&terms);
                p.heap.tuple(&[ok(), list])
            }
            Err(e) => io_error(p, &e),
        }
    })
}

/// `access(2)`'s answer for `path` as the `#file_info.access` atom.
fn path_access(path: &CString) -> &'static str {
    let r = c_library::access(path, libc::R_OK);
    let w = c_library::access(path, libc::W_OK);
    access_name(r, w)
}

fn owner_access(m: &std::fs::Metadata) -> &'static str {
    access_name(m.mode() & 0o400 != 0, m.mode() & 0o200 != 0)
}

fn access_name(read: bool, write: bool) -> &'static str {
    match (read, write) {
        (true, true) => "read_write",
        (true, false) => "read",
        (false, true) => "write",
        (false, false) => "none",
    }
}

/// `#file_info{}` of `m`, times in POSIX seconds (`prim_file` converts them).
fn file_info(p: &mut Process, m: &std::fs::Metadata, access: &str) -> Term {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    let kind = if ft.is_char_device() || ft.is_block_device() {
        "device"
    } else if ft.is_dir() {
        "directory"
    } else if ft.is_file() {
        "regular"
    } else if ft.is_symlink() {
        "symlink"
    } else {
        "other"
    };
    // erts clamps times to its earliest representable file time.
    const MIN_FILETIME: i64 = -(1 << 62);
    let fields = [
        m.size() as i64,
        m.atime().max(MIN_FILETIME),
        m.mtime().max(MIN_FILETIME),
        m.ctime().max(MIN_FILETIME),
        i64::from(m.mode()),
        m.nlink() as i64,
        m.dev() as i64,
        m.rdev() as i64,
        m.ino() as i64,
        i64::from(m.uid()),
        i64::from(m.gid()),
    ];
    let [size, atime, mtime, ctime, mode, links, major, minor, inode, uid, gid] =
        fields.map(|v| p.heap.int(v));
    p.heap.tuple(&[
        atom("file_info"),
        size,
        atom(kind),
        atom(access),
        atime,
        mtime,
        ctime,
        mode,
        links,
        major,
        minor,
        inode,
        uid,
        gid,
    ])
}

/// `read_info_nif(Path, FollowLinks)`: `#file_info{}` or `{error, Posix}`.
fn read_info_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let follow = a[1].as_small().ok_or_else(Exception::badarg)? != 0;
    with_path(p, a[0], |p, path| {
        let m = if follow {
            std::fs::metadata(as_path(path))
        } else {
            std::fs::symlink_metadata(as_path(path))
        };
        match m {
            Ok(m) => file_info(p, &m, path_access(path)),
            Err(e) => io_error(p, &e),
        }
    })
}

fn read_link_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| match std::fs::read_link(as_path(path)) {
        Ok(target) => {
            let bin = p.heap.binary(target.as_os_str().as_bytes());
            p.heap.tuple(&[ok(), bin])
        }
        Err(e) => io_error(p, &e),
    })
}

fn make_dir_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| {
        unit_result(p, std::fs::create_dir(as_path(path)))
    })
}

/// `del_file_nif(Path)`: Linux answers EISDIR for a directory; erts says eperm.
fn del_file_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| {
        match std::fs::remove_file(as_path(path)) {
            Ok(()) => ok(),
            Err(e) if e.raw_os_error() == Some(libc::EISDIR) => posix_error(p, libc::EPERM),
            Err(e) => io_error(p, &e),
        }
    })
}

/// `del_dir_nif(Path)`: a non-empty directory is eexist, and removing the
/// current directory einval, as erts says.
fn del_dir_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| {
        match std::fs::remove_dir(as_path(path)) {
            Ok(()) => ok(),
            Err(e) => {
                let mut errno = e.raw_os_error().unwrap_or(libc::EIO);
                if errno == libc::ENOTEMPTY {
                    errno = libc::EEXIST;
                }
                if errno == libc::EEXIST {
                    let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
                        a.ino() == b.ino() && a.dev() == b.dev()
                    };
                    if let (Ok(target), Ok(cwd)) =
                        (std::fs::metadata(as_path(path)), std::fs::metadata("."))
                    {
                        if same(&target, &cwd) {
                            errno = libc::EINVAL;
                        }
                    }
                }
                posix_error(p, errno)
            }
        }
    })
}

/// `rename_nif(From, To)`: a non-empty target directory is eexist, and a
/// failed rename of `/` einval, as erts says.
fn rename_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    two_paths(p, a, |from, to| {
        std::fs::rename(from, to).map_err(|e| match e.raw_os_error() {
            Some(libc::ENOTEMPTY) => std::io::Error::from_raw_os_error(libc::EEXIST),
            _ if from.as_os_str().as_bytes() == b"/" => {
                std::io::Error::from_raw_os_error(libc::EINVAL)
            }
            _ => e,
        })
    })
}

/// Runs a two-path operation: `ok`, or `{error, Posix}` for a bad path
/// or the operation's error.
fn two_paths(
    p: &mut Process,
    a: &[Term],
    op: impl FnOnce(&Path, &Path) -> std::io::Result<()>,
) -> Result<Term, Exception> {
    let second = path_arg(a[1])?;
    with_path(p, a[0], |p, first| match second {
        Ok(second) => unit_result(p, op(as_path(first), as_path(&second))),
        Err(e) => posix_error(p, e),
    })
}

fn make_hard_link_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    two_paths(p, a, |existing, new| std::fs::hard_link(existing, new))
}

fn make_soft_link_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    two_paths(p, a, |existing, new| {
        std::os::unix::fs::symlink(existing, new)
    })
}

fn get_cwd_nif(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(match std::env::current_dir() {
        Ok(dir) => {
            let bin = p.heap.binary(dir.as_os_str().as_bytes());
            p.heap.tuple(&[ok(), bin])
        }
        Err(e) => io_error(p, &e),
    })
}

fn set_cwd_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_path(p, a[0], |p, path| {
        unit_result(p, std::env::set_current_dir(as_path(path)))
    })
}

/// `set_permissions_nif(Path, Mode)`: chmod; a refused set-id bit is
/// dropped and the rest tried again, as erts does.
fn set_permissions_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::os::unix::fs::PermissionsExt;
    let mode = a[1]
        .as_small()
        .and_then(|m| u32::try_from(m).ok())
        .ok_or_else(Exception::badarg)?
        & 0o6777;
    with_path(p, a[0], |p, path| {
        let set =
            |m: u32| std::fs::set_permissions(as_path(path), std::fs::Permissions::from_mode(m));
        let r = set(mode).or_else(|_| set(mode & 0o777));
        unit_result(p, r)
    })
}

/// `set_owner_nif(Path, Uid, Gid)`: -1 leaves an id as it is.
fn set_owner_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let id = |t: Term| {
        t.as_small()
            .and_then(|v| i32::try_from(v).ok())
            .ok_or_else(Exception::badarg)
    };
    let (uid, gid) = (id(a[1])?, id(a[2])?);
    with_path(p, a[0], |p, path| {
        let keep = |v: i32| u32::try_from(v).ok();
        unit_result(
            p,
            std::os::unix::fs::chown(as_path(path), keep(uid), keep(gid)),
        )
    })
}

/// `set_time_nif(Path, ATime, MTime, CTime)`: POSIX seconds; the change
/// time is the system's to set.
fn set_time_nif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let secs = |t: Term| {
        t.as_integer()
            .and_then(|i| i64::try_from(i.to_bigint()).ok())
            .ok_or_else(Exception::badarg)
    };
    let (atime, mtime) = (secs(a[1])?, secs(a[2])?);
    secs(a[3])?;
    with_path(p, a[0], |p, path| {
        match c_library::utime(path, atime, mtime) {
            Ok(()) => ok(),
            Err(e) => io_error(p, &e),
        }
    })
}
