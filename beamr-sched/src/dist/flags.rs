//! The distribution flags (erts's `dist.h`, the `DFLAG_*` bits exchanged in
//! the handshake's name and challenge messages) and the sets that
//! `erts_internal:get_dflags/0` reports to `dist_util`.
//!
//! This node advertises what erts 25-29 advertise by default, less the
//! atom cache in the distribution header and fragmented messages, which
//! it does not speak yet: a peer then sends every message as one
//! pass-through (`'p'`) frame. Neither is mandatory in any release.

/// Published (a visible node, not hidden).
pub const PUBLISHED: u64 = 0x1;

/// True when a connection with the agreed `flags` is visible (both nodes
/// published), as erts tells visible connections from hidden ones.
pub fn is_visible(flags: u64) -> bool {
    flags & PUBLISHED != 0
}
/// The old atom cache.
pub const ATOM_CACHE: u64 = 0x2;
/// Extended references.
pub const EXTENDED_REFERENCES: u64 = 0x4;
/// Process monitors across nodes.
pub const DIST_MONITOR: u64 = 0x8;
/// Funs with `NEW_FUN_EXT`'s predecessor.
pub const FUN_TAGS: u64 = 0x10;
/// Monitors of registered names across nodes.
pub const DIST_MONITOR_NAME: u64 = 0x20;
/// Hidden nodes' atom cache.
pub const HIDDEN_ATOM_CACHE: u64 = 0x40;
/// `NEW_FUN_EXT`.
pub const NEW_FUN_TAGS: u64 = 0x80;
/// Extended pids and ports.
pub const EXTENDED_PIDS_PORTS: u64 = 0x100;
/// `EXPORT_EXT`.
pub const EXPORT_PTR_TAG: u64 = 0x200;
/// Bitstrings.
pub const BIT_BINARIES: u64 = 0x400;
/// `NEW_FLOAT_EXT`.
pub const NEW_FLOATS: u64 = 0x800;
/// Unicode I/O.
pub const UNICODE_IO: u64 = 0x1000;
/// The atom cache in the distribution header.
pub const DIST_HDR_ATOM_CACHE: u64 = 0x2000;
/// `SMALL_ATOM_EXT`.
pub const SMALL_ATOM_TAGS: u64 = 0x4000;
/// UTF-8 atoms.
pub const UTF8_ATOMS: u64 = 0x10000;
/// `MAP_EXT`.
pub const MAP_TAG: u64 = 0x20000;
/// 32-bit creations.
pub const BIG_CREATION: u64 = 0x40000;
/// `SEND_SENDER`.
pub const SEND_SENDER: u64 = 0x80000;
/// Big sequential trace labels.
pub const BIG_SEQTRACE_LABELS: u64 = 0x100000;
/// Exit reasons as a payload after the control message.
pub const EXIT_PAYLOAD: u64 = 0x400000;
/// Fragmented messages.
pub const FRAGMENTS: u64 = 0x800000;
/// The OTP 23 handshake (version 6).
pub const HANDSHAKE_23: u64 = 0x1000000;
/// `UNLINK_ID` and `UNLINK_ID_ACK`.
pub const UNLINK_ID: u64 = 0x2000000;
/// OTP 25's mandatory flags, as one bit.
pub const MANDATORY_25_DIGEST: u64 = 0x4000000;
/// `SPAWN_REQUEST` and `SPAWN_REPLY`.
pub const SPAWN: u64 = 1 << 32;
/// The node's name given by the peer.
pub const NAME_ME: u64 = 1 << 33;
/// 64-bit pid and port numbers (`V4_PORT_EXT`).
pub const V4_NC: u64 = 1 << 34;
/// `ALIAS_SEND`.
pub const ALIAS: u64 = 1 << 35;

/// The flags OTP 25 makes mandatory.
pub const MANDATORY_25: u64 = EXTENDED_REFERENCES
    | FUN_TAGS
    | EXTENDED_PIDS_PORTS
    | UTF8_ATOMS
    | NEW_FUN_TAGS
    | BIG_CREATION
    | NEW_FLOATS
    | MAP_TAG
    | EXPORT_PTR_TAG
    | BIT_BINARIES
    | HANDSHAKE_23;

/// The flags OTP 26 adds to the mandatory ones.
pub const MANDATORY_26: u64 = V4_NC | UNLINK_ID;

/// What this node advertises (erts's `DFLAG_DIST_DEFAULT` less
/// [`DIST_HDR_ATOM_CACHE`] and [`FRAGMENTS`]).
pub const DEFAULT: u64 = MANDATORY_25
    | MANDATORY_26
    | DIST_MONITOR
    | DIST_MONITOR_NAME
    | UNICODE_IO
    | SMALL_ATOM_TAGS
    | SEND_SENDER
    | BIG_SEQTRACE_LABELS
    | EXIT_PAYLOAD
    | MANDATORY_25_DIGEST
    | SPAWN
    | ALIAS;

/// Flags a connection may do without (erts's `DFLAG_DIST_REJECTABLE`).
pub const REJECTABLE: u64 = ATOM_CACHE | HIDDEN_ATOM_CACHE | DIST_HDR_ATOM_CACHE | FRAGMENTS;

/// Flags whose messages must keep their order (erts's
/// `DFLAG_DIST_STRICT_ORDER`).
pub const STRICT_ORDER: u64 = DIST_HDR_ATOM_CACHE;

/// The flags a peer must have in `release`: OTP 25's, and from OTP 26 on
/// also [`MANDATORY_26`].
pub fn mandatory(release: u32) -> u64 {
    if release >= 26 {
        MANDATORY_25 | MANDATORY_26
    } else {
        MANDATORY_25
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sets_are_erts_25_and_27s_less_what_beamr_does_not_speak() {
        // erts_internal:get_dflags() on erl 25: default 55966662588,
        // mandatory 17239956; on erl 27 mandatory 17230663572.
        assert_eq!(DEFAULT | DIST_HDR_ATOM_CACHE | FRAGMENTS, 55966662588);
        assert_eq!(mandatory(25), 17239956);
        assert_eq!(mandatory(27), 17230663572);
        assert_eq!(REJECTABLE, 8396866);
    }
}
