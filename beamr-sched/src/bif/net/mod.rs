//! The network protocols' BIFs: `erlang:decode_packet/3`, over the
//! packet parser the inet driver's sockets use
//! (`ports::inet::packet_parser`), and the `socket` module's NIF
//! (`prim_socket`), over the inet drivers' I/O thread.

pub(super) mod decode_packet;
pub(super) mod socket;
