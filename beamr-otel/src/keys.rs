//! Attribute keys and fixed values, in one place.
//!
//! Lifecycle log records carry each attribute twice: under the namespaced key
//! and under the short key (`process.pid` and `pid`, ...), so that queries
//! written either way find them. Spans and metrics follow the semantic
//! conventions: a BEAM process is a thread (`thread.id`, `thread.name`) and
//! `process.pid` is the operating-system process, a resource attribute.

/// The instrumentation scope's name and the log records' target.
pub const SCOPE: &str = "beamr";
/// The instrumentation scope's version: this crate's.
pub const SCOPE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// `messaging.system` of message spans.
pub const MESSAGING_SYSTEM: &str = "beamr";

/// Event names of the lifecycle log records.
pub mod event {
    /// A process was spawned.
    pub const SPAWNED: &str = "process.spawned";
    /// A process exited normally (`normal`, `shutdown`, `{shutdown, _}`).
    pub const EXITED: &str = "process.exited";
    /// A link was made.
    pub const LINKED: &str = "process.linked";
    /// A monitor was set.
    pub const MONITORED: &str = "process.monitored";
    /// A process exited abnormally.
    pub const CRASHED: &str = "process.crashed";
}

/// A lifecycle attribute: its namespaced and its short key.
pub type Pair = (&'static str, &'static str);

/// The process the record is about.
pub const PID: Pair = ("process.pid", "pid");
/// Its parent (spawn).
pub const PARENT_PID: Pair = ("process.parent_pid", "parent_pid");
/// Its registered name, when it has one.
pub const REGISTERED_NAME: Pair = ("process.registered_name", "registered_name");
/// The module of the function a process starts in.
pub const MODULE: Pair = ("code.module", "module");
/// The function a process starts in.
pub const FUNCTION: Pair = ("code.function", "function");
/// Its arity.
pub const ARITY: Pair = ("code.arity", "arity");
/// The exit reason.
pub const EXIT_REASON: Pair = ("process.exit.reason", "exit_reason");
/// `normal`, `shutdown`, `killed`, `error`, `exit` or `throw`.
pub const EXIT_CLASS: Pair = ("process.exit_class", "exit_class");
/// The class of the exception a process crashed with.
pub const EXCEPTION_CLASS: Pair = ("exception.class", "exception_class");
/// The exception's reason.
pub const EXCEPTION_REASON: Pair = ("exception.reason", "exception_reason");
/// The exception's stack trace.
pub const EXCEPTION_STACKTRACE: Pair = ("exception.stacktrace", "stacktrace");
/// The process that made a link.
pub const PID_A: Pair = ("process.pid_a", "pid_a");
/// The process it linked to.
pub const PID_B: Pair = ("process.pid_b", "pid_b");
/// The process that set a monitor.
pub const WATCHER_PID: Pair = ("process.watcher_pid", "watcher_pid");
/// The monitored process.
pub const TARGET_PID: Pair = ("process.target_pid", "target_pid");
/// The monitor's reference.
pub const MONITOR_REF: Pair = ("process.monitor.ref", "monitor_ref");

/// Semantic-convention keys of spans and metrics.
pub mod semconv {
    /// The BEAM process (its pid number).
    pub const THREAD_ID: &str = "thread.id";
    /// The BEAM process's registered name.
    pub const THREAD_NAME: &str = "thread.name";
    /// The operating-system process (a resource attribute).
    pub const PROCESS_PID: &str = "process.pid";
    /// `process.runtime.name` (resource).
    pub const PROCESS_RUNTIME_NAME: &str = "process.runtime.name";
    /// `process.runtime.version` (resource).
    pub const PROCESS_RUNTIME_VERSION: &str = "process.runtime.version";
    /// The called function, `module:function/arity`.
    pub const CODE_FUNCTION_NAME: &str = "code.function.name";
    /// The call's arguments, printed as `~W` with a depth limit and cut.
    pub const CALL_ARGS: &str = "beamr.call.arguments";
    /// What a call returned, printed likewise.
    pub const CALL_RESULT: &str = "beamr.call.result";
    /// The exception's class (`error`, `exit`, `throw`).
    pub const EXCEPTION_TYPE: &str = "exception.type";
    /// The exception's reason.
    pub const EXCEPTION_MESSAGE: &str = "exception.message";
    /// `messaging.system`.
    pub const MESSAGING_SYSTEM: &str = "messaging.system";
    /// `messaging.operation.name`: `send` or `receive`.
    pub const MESSAGING_OPERATION_NAME: &str = "messaging.operation.name";
    /// `messaging.operation.type`: `send` or `process`.
    pub const MESSAGING_OPERATION_TYPE: &str = "messaging.operation.type";
    /// The receiver: a registered name or a pid.
    pub const MESSAGING_DESTINATION_NAME: &str = "messaging.destination.name";
    /// The message's size in bytes (its heap words times 8).
    pub const MESSAGING_BODY_SIZE: &str = "messaging.message.body.size";
    /// Why a send failed (`noproc`).
    pub const ERROR_TYPE: &str = "error.type";
    /// The scheduler a metric point is about (bounded by the core count).
    pub const SCHEDULER_ID: &str = "beamr.scheduler.id";
    /// The kind of a collection: `minor` or `major`.
    pub const GC_KIND: &str = "beamr.gc.kind";
    /// Which queue dropped or failed to export: `spans` or `logs`.
    pub const SIGNAL: &str = "beamr.otel.signal";
}
