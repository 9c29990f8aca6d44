//! The packet types of `decode_packet/3` and of a socket's `packet`
//! option, with inet_drv's codes for them (`TCP_PB_*`, the byte
//! `prim_inet` sends in `setopts`).

use super::http::HttpState;

/// A packet type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketType {
    /// `raw` or `0`: whatever has arrived.
    Raw,
    /// `1`: a 1-byte big-endian length, then the body.
    One,
    /// `2`: a 2-byte length.
    Two,
    /// `4`: a 4-byte length.
    Four,
    /// `asn1`: a BER tag and length, then the contents.
    Asn1,
    /// `sunrm`: a 4-byte Sun RPC record mark (the top bit ends a record).
    SunRm,
    /// `cdr`: a 12-byte CORBA GIOP header.
    Cdr,
    /// `fcgi`: an 8-byte FastCGI record header, the content, the padding.
    Fcgi,
    /// `line`: up to and including the line delimiter.
    Line,
    /// `tpkt`: a 4-byte TPKT header (RFC 1006).
    Tpkt,
    /// `http`: an HTTP start line or header line, as lists.
    Http,
    /// `httph`: an HTTP header line, as lists.
    HttpH,
    /// `ssl_tls`: a TLS record.
    SslTls,
    /// `http_bin`: as `http`, the strings binaries.
    HttpBin,
    /// `httph_bin`: as `httph`, the strings binaries.
    HttpHBin,
}

impl PacketType {
    /// The type with inet_drv's code `code`.
    pub fn from_code(code: u32) -> Option<PacketType> {
        use PacketType::*;
        Some(match code {
            0 => Raw,
            1 => One,
            2 => Two,
            3 => Four,
            4 => Asn1,
            5 => SunRm,
            6 => Cdr,
            7 => Fcgi,
            8 => Line,
            9 => Tpkt,
            10 => Http,
            11 => HttpH,
            12 => SslTls,
            13 => HttpBin,
            14 => HttpHBin,
            _ => return None,
        })
    }

    /// inet_drv's code for it.
    pub fn code(self) -> u32 {
        use PacketType::*;
        match self {
            Raw => 0,
            One => 1,
            Two => 2,
            Four => 3,
            Asn1 => 4,
            SunRm => 5,
            Cdr => 6,
            Fcgi => 7,
            Line => 8,
            Tpkt => 9,
            Http => 10,
            HttpH => 11,
            SslTls => 12,
            HttpBin => 13,
            HttpHBin => 14,
        }
    }

    /// The type `decode_packet/3` names `name` (an atom's name).
    pub fn from_name(name: &str) -> Option<PacketType> {
        use PacketType::*;
        Some(match name {
            "raw" => Raw,
            "asn1" => Asn1,
            "sunrm" => SunRm,
            "cdr" => Cdr,
            "fcgi" => Fcgi,
            "line" => Line,
            "tpkt" => Tpkt,
            "http" => Http,
            "httph" => HttpH,
            "http_bin" => HttpBin,
            "httph_bin" => HttpHBin,
            "ssl_tls" => SslTls,
            _ => return None,
        })
    }

    /// The type `decode_packet/3` names with the integer `n`.
    pub fn from_integer(n: i64) -> Option<PacketType> {
        Some(match n {
            0 => PacketType::Raw,
            1 => PacketType::One,
            2 => PacketType::Two,
            4 => PacketType::Four,
            _ => return None,
        })
    }

    /// The length header's size of `1`, `2` and `4`.
    pub fn header_size(self) -> Option<usize> {
        match self {
            PacketType::One => Some(1),
            PacketType::Two => Some(2),
            PacketType::Four => Some(4),
            _ => None,
        }
    }

    /// One of the four HTTP types.
    pub fn is_http(self) -> bool {
        use PacketType::*;
        matches!(self, Http | HttpH | HttpBin | HttpHBin)
    }

    /// An HTTP type whose strings are binaries (`http_bin`, `httph_bin`).
    pub fn http_binaries(self) -> bool {
        matches!(self, PacketType::HttpBin | PacketType::HttpHBin)
    }

    /// The HTTP state a packet of this type is read in, given the
    /// socket's: `httph` and `httph_bin` always read headers.
    pub fn http_state(self, state: HttpState) -> HttpState {
        match self {
            PacketType::HttpH | PacketType::HttpHBin => HttpState::Headers,
            _ => state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for code in 0..15 {
            let ty = PacketType::from_code(code).expect("a code");
            assert_eq!(ty.code(), code);
        }
        assert_eq!(PacketType::from_code(15), None);
    }

    #[test]
    fn names_and_integers() {
        assert_eq!(PacketType::from_name("http_bin"), Some(PacketType::HttpBin));
        assert_eq!(PacketType::from_name("0"), None);
        assert_eq!(PacketType::from_integer(4), Some(PacketType::Four));
        assert_eq!(PacketType::from_integer(3), None);
    }
}
