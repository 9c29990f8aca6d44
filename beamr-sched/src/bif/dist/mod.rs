//! The distribution's BIFs: the local node's name (`setnode/2`, `node/0,1`,
//! `is_alive/0`, `nodes/0,1`) and what `dist_util` asks erts
//! (`erts_internal:get_dflags/0`, `get_creation/0`), and the connections'
//! setup (`create_dist_channel/3`, `monitor_node/2`), over `crate::dist`.

pub(super) mod channel;
pub(super) mod node;
