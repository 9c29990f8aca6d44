//! The requests and replies of the control protocol, encoded with serde and
//! bincode 2 (see [`super::framing`] for the frame around them).
//!
//! Changing a type here changes the wire format: bump [`VERSION`].

use serde::{Deserialize, Serialize};

/// The protocol's version: the first field of every frame. A request of
/// another version is answered with [`ErrorKind::WrongVersion`].
pub const VERSION: u32 = 3;

/// What a client asks of a runtime.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// Who the runtime is ([`Reply::Hello`]).
    Hello,
    /// Counts against limits, memory, run queues, and rates over an
    /// interval ([`Reply::Stats`]).
    Stats {
        /// The interval the rates and the scheduler utilisation are
        /// measured over, in milliseconds (1 to 10,000).
        interval_ms: u32,
    },
    /// Every process ([`Reply::Ps`]).
    Ps,
    /// One process in detail ([`Reply::Info`]).
    Info {
        /// A pid as `<0.N.0>` or a registered name.
        process: String,
    },
    /// `sys:get_state/2` of a process ([`Reply::State`]).
    State {
        /// A pid as `<0.N.0>` or a registered name.
        process: String,
        /// How long the process may take to answer, in milliseconds.
        timeout_ms: u32,
    },
    /// An Erlang expression for `erl_eval` ([`Reply::Eval`]).
    Eval {
        /// The expression (the final `.` may be left out).
        expr: String,
    },
    /// `code:load_binary/3` of a `.beam` file ([`Reply::Loaded`]).
    Load {
        /// The file's name, as `code:which/1` will give it.
        file_name: String,
        /// The file's bytes.
        beam: Vec<u8>,
    },
    /// `code:purge/1` ([`Reply::Purged`]).
    Purge {
        /// The module.
        module: String,
    },
    /// `init:stop/0` ([`Reply::Stopping`]).
    Stop,
    /// Tracing in a trace session of this client's own: answered with
    /// [`Reply::TraceStarted`], then [`Reply::TraceLines`] as events come
    /// (for [`TraceTo::Text`]), then [`Reply::TraceEnded`] when the
    /// session ends (the duration or the limit ran out, another client's
    /// [`Request::TraceStop`], or this client's own). The client's
    /// connection ending ends it too. While it runs, the only request the
    /// server reads on this connection is [`Request::TraceStop`].
    Trace(TraceRequest),
    /// Writes the flight recorder's rings to a file
    /// ([`Reply::FlightDumped`]).
    FlightDump {
        /// The file's absolute path (replaced if it exists).
        path: String,
    },
    /// Ends the trace sessions of `beamr ctl` clients: this client's own
    /// while it traces; from another client, every client's
    /// ([`Reply::TraceStopped`]). Never the program's own tracing.
    TraceStop,
}

/// What [`Request::Trace`] traces, and where its events go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceRequest {
    /// `erlang:trace/3`'s flag names (`send`, `'receive'`, `call`, ...).
    pub flags: Vec<String>,
    /// What the flags are set on, each as `erlang:trace/3` names it (`all`,
    /// `new`, `existing`, ...), a pid `<0.N.0>` or a registered name.
    pub pids: Vec<String>,
    /// Call patterns, set before the flags.
    pub patterns: Vec<TracePattern>,
    /// Where the events go.
    pub to: TraceTo,
    /// At most this many events in all; the session ends once they are
    /// recorded.
    pub limit: Option<u64>,
    /// At most this many events a second; the rest are dropped.
    pub rate: Option<u64>,
    /// The session ends after this many milliseconds.
    pub duration_ms: Option<u64>,
}

/// One call pattern of a [`TraceRequest`], set as
/// `trace:function(Session, {M, F, A}, Spec, [local])` sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TracePattern {
    /// The module.
    pub module: String,
    /// The function.
    pub function: String,
    /// The arity; `None` for every arity.
    pub arity: Option<u32>,
    /// The match specification as Erlang text (`true`, or
    /// `[{'_', [], [{return_trace}]}]`).
    pub spec: String,
}

/// Where a [`TraceRequest`]'s events go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceTo {
    /// A line of text per event, as `dbg` prints it, sent to the client.
    Text,
    /// A ring-buffer trace file that `beamr trace` reads, written by the
    /// runtime.
    Ring {
        /// The file's absolute path.
        path: String,
    },
    /// OpenTelemetry over OTLP (log records, spans), exported by the
    /// runtime as `beamr run --trace-to otel` does. The client's `OTEL_*`
    /// variables configure it, over the runtime's own.
    Otel {
        /// The client's `OTEL_*` variables, name and value.
        settings: Vec<(String, String)>,
    },
}

/// What the runtime answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// Answer to [`Request::Hello`].
    Hello(RuntimeInfo),
    /// Answer to [`Request::Stats`].
    Stats(Stats),
    /// Answer to [`Request::Ps`]: one row per process, in the process
    /// table's order.
    Ps(Vec<ProcessRow>),
    /// Answer to [`Request::Info`]: `process_info/2`'s items, each value
    /// written with `~p`, in the order asked.
    Info(Vec<InfoItem>),
    /// Answer to [`Request::State`]: the state written with `~p`.
    State(String),
    /// Answer to [`Request::Eval`].
    Eval {
        /// What the expression printed through io (its group leader's
        /// output while it ran).
        output: String,
        /// The value written with `~p`.
        value: String,
    },
    /// Answer to [`Request::Load`]: the module now loaded.
    Loaded {
        /// The module.
        module: String,
    },
    /// Answer to [`Request::Purge`]: `code:purge/1`'s result.
    Purged {
        /// The module.
        module: String,
        /// True when processes running the old code were killed.
        killed: bool,
    },
    /// Answer to [`Request::Stop`]: `init:stop/0` is called once this
    /// reply is written.
    Stopping,
    /// Answer to [`Request::Trace`]: the session is tracing.
    TraceStarted {
        /// The session's name and number (`beamr_ctl 3`), as
        /// `trace:session_info/1` shows it.
        session: String,
        /// How many processes the flags were set on.
        processes: u64,
        /// How many functions the patterns were set on.
        functions: u64,
    },
    /// Events of a [`TraceTo::Text`] trace, a line each (with its
    /// newline), in the order they were recorded.
    TraceLines(Vec<String>),
    /// The trace session has ended; the last reply to a [`Request::Trace`].
    TraceEnded {
        /// Why (`duration`, `limit`, `stopped`).
        reason: String,
        /// Events recorded.
        events: u64,
        /// Events dropped (by the rate limit, or because the client read
        /// them slower than they came).
        dropped: u64,
    },
    /// Answer to [`Request::TraceStop`] from a client that was not
    /// tracing: how many sessions were told to end.
    TraceStopped {
        /// The sessions.
        sessions: u64,
    },
    /// Answer to [`Request::FlightDump`]: the file is written.
    FlightDumped {
        /// The file.
        path: String,
        /// Its bytes.
        bytes: u64,
    },
    /// The request was not carried out.
    Error(ErrorReply),
}

/// Why a request was not carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// What went wrong, in words.
    pub message: String,
}

/// The kinds of [`ErrorReply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    /// The frame's version is not [`VERSION`].
    WrongVersion,
    /// The frame's length is above [`super::framing::MAX_FRAME`].
    Oversized,
    /// The connection ended inside a frame, or the client said nothing for
    /// too long.
    Truncated,
    /// The frame's body is no request.
    Malformed,
    /// The peer is another user.
    Refused,
    /// The request was read but failed (no such process, a bad
    /// expression, a load error).
    Failed,
}

/// A runtime, as `beamr ctl list` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeInfo {
    /// The OS process id.
    pub os_pid: u32,
    /// What it runs (`MOD:FUN` and the paths given to `beamr run`).
    pub program: String,
    /// Milliseconds since the runtime started.
    pub uptime_ms: u64,
    /// The beamr version.
    pub beamr_version: String,
    /// The OTP release whose library it runs.
    pub otp_release: u32,
    /// Its node name when distributed (`erlang:node/0`); empty when not
    /// (or while it is still starting).
    pub node: String,
}

/// A count against its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// How many there are.
    pub count: u64,
    /// How many there may be.
    pub limit: u64,
}

/// What `beamr ctl stats` shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Processes alive.
    pub processes: Usage,
    /// Ports open.
    pub ports: Usage,
    /// Atoms in the atom table.
    pub atoms: Usage,
    /// ETS tables.
    pub ets_tables: Usage,
    /// `erlang:memory/0`: each kind and its bytes, in its order.
    pub memory: Vec<(String, u64)>,
    /// Tasks waiting in each scheduler's run queue, scheduler 1 first.
    pub run_queues: Vec<u64>,
    /// Reductions executed since the runtime started.
    pub reductions: u64,
    /// The interval the rates below were measured over, in milliseconds.
    pub interval_ms: u32,
    /// Reductions a second over the interval.
    pub reductions_per_second: u64,
    /// Garbage collections a second over the interval.
    pub gcs_per_second: u64,
    /// Words reclaimed by garbage collection a second over the interval.
    pub words_reclaimed_per_second: u64,
    /// Per scheduler, scheduler 1 first: the share of the interval it was
    /// not asleep for want of work (0 to 1), as
    /// `scheduler_wall_time` gives it.
    pub scheduler_utilisation: Vec<f64>,
    /// Milliseconds since the runtime started.
    pub uptime_ms: u64,
}

/// One process, as `beamr ctl ps` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessRow {
    /// `<0.N.0>`.
    pub pid: String,
    /// Its registered name, if any.
    pub registered_name: Option<String>,
    /// `running` (on a scheduler when looked at: the other fields are
    /// left empty then), `runnable` or `waiting`.
    pub status: String,
    /// `M:F/A` of the code it is in.
    pub current_function: Option<String>,
    /// `M:F/A` it was spawned with.
    pub initial_call: Option<String>,
    /// Reductions executed.
    pub reductions: Option<u64>,
    /// Bytes allocated for it (`process_info(P, memory)`).
    pub memory: Option<u64>,
    /// Messages in its queue.
    pub message_queue_len: Option<u64>,
}

/// One item of [`Reply::Info`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoItem {
    /// The item (`current_function`, `messages`, ...).
    pub key: String,
    /// Its value, written with `~p`.
    pub value: String,
}
