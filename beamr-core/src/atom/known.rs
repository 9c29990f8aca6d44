//! The atoms every part of beamr names, interned first at fixed indices so
//! each has a constant (`Atom::OK`, `Atom::ERROR`, ...).

use super::table::Atom;

macro_rules! known_atoms {
    ($($konst:ident = $name:literal,)*) => {
        /// Names of the known atoms, in table order: `KNOWN_ATOMS[i]` is the
        /// name of the atom with index `i`.
        pub const KNOWN_ATOMS: &[&str] = &[$($name),*];

        #[allow(missing_docs)]
        mod indices {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            #[repr(u32)]
            pub enum Index { $($konst),* }
        }

        impl Atom {
            $(
                #[doc = concat!("The atom `", $name, "`.")]
                pub const $konst: Atom = Atom::from_index_unchecked(indices::Index::$konst as u32);
            )*
        }
    };
}

known_atoms! {
    FALSE = "false",
    TRUE = "true",
    OK = "ok",
    ERROR = "error",
    UNDEFINED = "undefined",
    NIL = "nil",
    BADARG = "badarg",
    BADARITH = "badarith",
    BADMATCH = "badmatch",
    BADFUN = "badfun",
    BADARITY = "badarity",
    BADMAP = "badmap",
    BADKEY = "badkey",
    BADRECORD = "badrecord",
    FUNCTION_CLAUSE = "function_clause",
    CASE_CLAUSE = "case_clause",
    IF_CLAUSE = "if_clause",
    TRY_CLAUSE = "try_clause",
    UNDEF = "undef",
    NOPROC = "noproc",
    NORMAL = "normal",
    KILL = "kill",
    KILLED = "killed",
    EXIT = "EXIT",
    DOWN = "DOWN",
    THROW = "throw",
    EXIT_CLASS = "exit",
    SYSTEM_LIMIT = "system_limit",
    NOCATCH = "nocatch",
    TIMEOUT = "timeout",
    INFINITY = "infinity",
    NONODE_NOHOST = "nonode@nohost",
    ERLANG = "erlang",
    PROCESS = "process",
    PORT = "port",
    FILE = "file",
    LINE = "line",
    TRACE = "trace",
    TRACE_TS = "trace_ts",
    SEQ_TRACE = "seq_trace",
    SEND = "send",
    SEND_TO_NON_EXISTING_PROCESS = "send_to_non_existing_process",
    RECEIVE = "receive",
    CALL = "call",
    RETURN_TO = "return_to",
    RETURN_FROM = "return_from",
    EXCEPTION_FROM = "exception_from",
    SPAWN = "spawn",
    SPAWNED = "spawned",
    LINK = "link",
    UNLINK = "unlink",
    GETTING_LINKED = "getting_linked",
    GETTING_UNLINKED = "getting_unlinked",
    REGISTER = "register",
    UNREGISTER = "unregister",
    IN = "in",
    OUT = "out",
    IN_EXITING = "in_exiting",
    OUT_EXITING = "out_exiting",
    OUT_EXITED = "out_exited",
    GC_MINOR_START = "gc_minor_start",
    GC_MINOR_END = "gc_minor_end",
    GC_MAJOR_START = "gc_major_start",
    GC_MAJOR_END = "gc_major_end",
    MONITOR = "monitor",
    DEMONITOR = "demonitor",
    SCHEDULERS = "schedulers",
    INFO = "info",
    EXCEPTION = "exception",
    VALUE = "value",
    ALL = "all",
    DATA = "data",
    EOL = "eol",
    NOEOL = "noeol",
    COMMAND = "command",
    ERROR_HANDLER = "error_handler",
}
