//! Text: the `string` module's number parsers, `unicode`'s conversions
//! and `re` (regular expressions, a folder of its own).

pub(super) mod re;
pub(super) mod string;
pub(super) mod unicode;
