//! The header names and methods erts knows (`packet_parser.c`'s tables):
//! a known one is an atom, and a header carries its number, its place in
//! the table counted from 1 (0 for the others).

/// The known header names, in erts's order: `Cache-Control` is 1.
pub const HEADERS: [&str; 52] = [
    "Cache-Control",
    "Connection",
    "Date",
    "Pragma",
    "Transfer-Encoding",
    "Upgrade",
    "Via",
    "Accept",
    "Accept-Charset",
    "Accept-Encoding",
    "Accept-Language",
    "Authorization",
    "From",
    "Host",
    "If-Modified-Since",
    "If-Match",
    "If-None-Match",
    "If-Range",
    "If-Unmodified-Since",
    "Max-Forwards",
    "Proxy-Authorization",
    "Range",
    "Referer",
    "User-Agent",
    "Age",
    "Location",
    "Proxy-Authenticate",
    "Public",
    "Retry-After",
    "Server",
    "Vary",
    "Warning",
    "Www-Authenticate",
    "Allow",
    "Content-Base",
    "Content-Encoding",
    "Content-Language",
    "Content-Length",
    "Content-Location",
    "Content-Md5",
    "Content-Range",
    "Content-Type",
    "Etag",
    "Expires",
    "Last-Modified",
    "Accept-Ranges",
    "Set-Cookie",
    "Set-Cookie2",
    "X-Forwarded-For",
    "Cookie",
    "Keep-Alive",
    "Proxy-Connection",
];

/// The known methods.
pub const METHODS: [&str; 7] = ["OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE"];

/// The known header named `name` (already normalised): its name and its
/// number.
pub fn header(name: &[u8]) -> Option<(&'static str, u32)> {
    HEADERS
        .iter()
        .zip(1..)
        .find(|(known, _)| known.as_bytes() == name)
        .map(|(&known, number)| (known, number))
}

/// The known method spelt exactly `name`.
pub fn method(name: &[u8]) -> Option<&'static str> {
    METHODS.iter().copied().find(|m| m.as_bytes() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_count_from_one() {
        assert_eq!(header(b"Cache-Control"), Some(("Cache-Control", 1)));
        assert_eq!(header(b"Content-Length"), Some(("Content-Length", 38)));
        assert_eq!(header(b"Proxy-Connection"), Some(("Proxy-Connection", 52)));
        assert_eq!(header(b"content-length"), None);
        assert_eq!(method(b"DELETE"), Some("DELETE"));
        assert_eq!(method(b"Get"), None);
    }
}
