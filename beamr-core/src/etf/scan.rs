//! The first decoding pass: checks that the input holds one well-formed
//! term, without building anything or creating any atom.
//!
//! It walks the tokens with an explicit stack of how many children each
//! open compound term still expects, so nesting costs heap memory (bounded
//! by [`DecodeOptions::max_depth`](super::DecodeOptions::max_depth)) rather
//! than native stack.

use super::error::EtfErrorKind;
use super::reader::Reader;
use super::token::next_token;
use super::EtfError;

/// Checks the term at the reader's cursor and leaves the cursor after it.
pub(crate) fn scan(r: &mut Reader<'_>, max_depth: usize) -> Result<(), EtfError> {
    // Children still expected by each open compound term, innermost last.
    let mut open: Vec<u64> = Vec::new();
    loop {
        let at = r.pos();
        let children = next_token(r)?.children();
        if children > 0 {
            if open.len() >= max_depth {
                return Err(r.error_at(EtfErrorKind::TooDeep(max_depth), at));
            }
            open.push(children);
            continue;
        }
        // A complete term: it completes its parent's child, which may
        // complete the parent, and so on up.
        loop {
            match open.last_mut() {
                None => return Ok(()),
                Some(left) => {
                    *left -= 1;
                    if *left > 0 {
                        break;
                    }
                    open.pop();
                }
            }
        }
    }
}
