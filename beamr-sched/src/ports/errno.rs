//! [`errno_name`]: the atom erts gives an errno, for the `{error, Posix}`
//! results of `prim_file` and the errors of ports that cannot open (a
//! program that is missing or not executable, a trace file or socket
//! that cannot be opened).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::Exception;

/// The name erts gives errno `e` (`erl_errno_id`).
pub fn errno_name(e: i32) -> &'static str {
    use libc::*;
    match e {
        EPERM => "eperm",
        ENOENT => "enoent",
        ESRCH => "esrch",
        EINTR => "eintr",
        EIO => "eio",
        ENXIO => "enxio",
        E2BIG => "e2big",
        ENOEXEC => "enoexec",
        EBADF => "ebadf",
        ECHILD => "echild",
        EAGAIN => "eagain",
        ENOMEM => "enomem",
        EACCES => "eacces",
        EFAULT => "efault",
        ENOTBLK => "enotblk",
        EBUSY => "ebusy",
        EEXIST => "eexist",
        EXDEV => "exdev",
        ENODEV => "enodev",
        ENOTDIR => "enotdir",
        EISDIR => "eisdir",
        EINVAL => "einval",
        ENFILE => "enfile",
        EMFILE => "emfile",
        ENOTTY => "enotty",
        ETXTBSY => "etxtbsy",
        EFBIG => "efbig",
        ENOSPC => "enospc",
        ESPIPE => "espipe",
        EROFS => "erofs",
        EMLINK => "emlink",
        EPIPE => "epipe",
        EDOM => "edom",
        ERANGE => "erange",
        EDEADLK => "edeadlk",
        ENAMETOOLONG => "enametoolong",
        ENOLCK => "enolck",
        ENOSYS => "enosys",
        ENOTEMPTY => "enotempty",
        ELOOP => "eloop",
        EOVERFLOW => "eoverflow",
        ENOTSUP => "enotsup",
        EDQUOT => "edquot",
        ESTALE => "estale",
        EADDRINUSE => "eaddrinuse",
        EADDRNOTAVAIL => "eaddrnotavail",
        EAFNOSUPPORT => "eafnosupport",
        EALREADY => "ealready",
        ECONNABORTED => "econnaborted",
        ECONNREFUSED => "econnrefused",
        ECONNRESET => "econnreset",
        EDESTADDRREQ => "edestaddrreq",
        EHOSTDOWN => "ehostdown",
        EHOSTUNREACH => "ehostunreach",
        EINPROGRESS => "einprogress",
        EISCONN => "eisconn",
        EMSGSIZE => "emsgsize",
        ENETDOWN => "enetdown",
        ENETRESET => "enetreset",
        ENETUNREACH => "enetunreach",
        ENOBUFS => "enobufs",
        ENOPROTOOPT => "enoprotoopt",
        ENOTCONN => "enotconn",
        ENOTSOCK => "enotsock",
        EPROTONOSUPPORT => "eprotonosupport",
        EPROTOTYPE => "eprototype",
        ESHUTDOWN => "eshutdown",
        ETIMEDOUT => "etimedout",
        _ => "unknown",
    }
}

/// The `error` exception erts raises for an OS error: its errno's atom,
/// `einval` for an error the OS did not give (std's own checks).
pub fn os_error(e: &std::io::Error) -> Exception {
    let name = errno_name(e.raw_os_error().unwrap_or(libc::EINVAL));
    Exception::error(Term::atom(Atom::new(name).expect("an errno name")))
}
