//! `Eval`: an expression evaluated by OTP's `erl_eval` in a fresh process
//! of the runtime, its value written with `~p`.

use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::Reply;

/// The value of `expr`, or why there is none.
pub fn eval(rt: &Runtime, expr: &str) -> Reply {
    match agent::call(rt, "eval", |heap| vec![heap.binary(expr.as_bytes())]) {
        Ok(v) => match agent::text_of(v.term()) {
            Some(text) => Reply::Eval(text),
            None => failed("the agent's eval/1 answered no text"),
        },
        Err(e) => failed(e),
    }
}
