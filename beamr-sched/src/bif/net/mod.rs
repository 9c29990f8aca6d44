//! The network protocols' BIFs: `erlang:decode_packet/3`, over the
//! packet parser the inet driver's sockets use
//! (`ports::inet::packet_parser`).

pub(super) mod decode_packet;
