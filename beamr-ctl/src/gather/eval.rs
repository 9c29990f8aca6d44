//! `Eval`: an expression evaluated by OTP's `erl_eval` in a fresh process
//! of the runtime, its value written with `~p`, with what it printed
//! through io (the agent is its group leader while it runs).

use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::Reply;

/// The value of `expr`, or why there is none.
pub fn eval(rt: &Runtime, expr: &str) -> Reply {
    match agent::call(rt, "eval", |heap| vec![heap.binary(expr.as_bytes())]) {
        Ok(v) => match v.term().as_tuple() {
            Some(&[output, value]) => match (agent::text_of(output), agent::text_of(value)) {
                (Some(output), Some(value)) => Reply::Eval { output, value },
                _ => failed("the agent's eval/1 answered no text"),
            },
            _ => failed("the agent's eval/1 answered no {Output, Value}"),
        },
        Err(e) => failed(e),
    }
}
