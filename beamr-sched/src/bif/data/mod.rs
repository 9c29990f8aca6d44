//! The BIFs of the modules on plain data: `lists`, `maps`, `binary`,
//! `math` and `records` (OTP 29's native records).

pub(super) mod binary;
pub(super) mod lists;
pub(super) mod maps;
pub(super) mod math;
pub(super) mod records;
