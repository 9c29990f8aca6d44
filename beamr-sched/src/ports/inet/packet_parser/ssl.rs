//! A TLS record (the `ssl_tls` packet type), as erts hands it over:
//! `{ssl_tls, [], ContentType, {Major, Minor}, Data}`.
//!
//! ```text
//! TLS record     Type:1  Major:1  Minor:1  Length:2  Data:Length
//! SSLv2 hello    1:1 bit, Length:15 bits  1:1  Major:1  Minor:1  ...
//! ```
//!
//! An SSLv2 client hello becomes a handshake record (type 22) whose
//! data is `<<1, Size:24>>` and the hello's bytes from its version on,
//! `Size` their count.

/// A decoded TLS record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SslRecord<'a> {
    /// The content type.
    pub content_type: u8,
    /// The protocol version.
    pub version: (u8, u8),
    /// A prefix of the data (an SSLv2 hello's handshake header), then
    /// the record's bytes.
    pub prefix: Vec<u8>,
    /// The record's bytes after its header.
    pub data: &'a [u8],
}

/// The whole record `packet` (at least 5 bytes, as `packet_length`
/// makes sure; shorter is an empty record).
pub fn parse(packet: &[u8]) -> SslRecord<'_> {
    let byte = |i: usize| packet.get(i).copied().unwrap_or(0);
    if byte(0) & 0x80 != 0 && byte(2) == 1 {
        let data = packet.get(3..).unwrap_or_default();
        let size = (data.len() as u32).to_be_bytes();
        return SslRecord {
            content_type: 22,
            version: (byte(3), byte(4)),
            prefix: vec![1, size[1], size[2], size[3]],
            data,
        };
    }
    SslRecord {
        content_type: byte(0),
        version: (byte(1), byte(2)),
        prefix: Vec::new(),
        data: packet.get(5..).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_v2_hellos() {
        let r = parse(b"\x16\x03\x01\x00\x02ab");
        assert_eq!(
            (r.content_type, r.version, r.data),
            (22, (3, 1), &b"ab"[..])
        );
        assert!(r.prefix.is_empty());
        let v2 = parse(b"\x80\x05\x01\x03\x01xx");
        assert_eq!((v2.content_type, v2.version), (22, (3, 1)));
        assert_eq!(v2.prefix, vec![1, 0, 0, 4]);
        assert_eq!(v2.data, b"\x03\x01xx");
    }
}
