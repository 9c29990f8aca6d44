//! One HTTP line (erts's `packet_parse_http`): a request line, a status
//! line, a header (with its continuation lines), the empty line that
//! ends the headers, or a line that is none of these.
//!
//! ```text
//! Request-Line  Method SP+ Request-URI SP+ "HTTP/" Major "." Minor
//!               (anything after Minor is ignored; no version: HTTP/0.9)
//! Status-Line   "HTTP/" Major "." Minor SP+ Status (SP+ Phrase)?
//! Header        Name ":" SP* Value
//! ```
//!
//! SP is a space or a tab; the line's "\r\n" (or "\n") is not part of
//! what is parsed. A method or a header name is a run of token bytes:
//! bytes 33 to 127 other than `()<>@,;:\"/[]?={}`. Header names are
//! normalised (first letter and each letter after a `-` upper case, the
//! others lower case) and known ones are atoms ([`super::names`]); a
//! name of more than 50 bytes is kept as it is. The numbers are
//! decimal, read into an `int` as erts reads them (wrapping on
//! overflow).

use std::borrow::Cow;

use super::names;

/// Where an HTTP reader is in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpState {
    /// Before a request or status line.
    Start,
    /// Among the headers.
    Headers,
}

/// An HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method<'a> {
    /// One erts knows (an atom): `GET`, `POST`, ...
    Known(&'static str),
    /// Any other token, as it is (case counts: `get` is not `GET`).
    Other(&'a [u8]),
}

/// A request line's URI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uri<'a> {
    /// `*`.
    Star,
    /// A path (`/...`, or any one byte): `{abs_path, Path}`.
    AbsPath(&'a [u8]),
    /// `http://` or `https://` (any case), then a host, maybe a port,
    /// maybe a path: `{absoluteURI, http | https, Host, Port | undefined, Path}`.
    Absolute {
        /// `https`, else `http`.
        https: bool,
        /// The host (an IPv6 one with its brackets).
        host: &'a [u8],
        /// The port; `None` when absent, not all digits, or 0.
        port: Option<i32>,
        /// The path, `/` when there is none.
        path: &'a [u8],
    },
    /// `Scheme:Rest` for another scheme: `{scheme, Scheme, Rest}`.
    Scheme(&'a [u8], &'a [u8]),
    /// Anything else, as it is.
    Other(&'a [u8]),
}

/// A header's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    /// One erts knows: its atom's name and its number (1 up).
    Known(&'static str, u32),
    /// Another: normalised (or as it is when longer than 50 bytes).
    Other(Cow<'a, [u8]>),
}

/// One decoded HTTP line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Http<'a> {
    /// `{http_request, Method, Uri, {Major, Minor}}`.
    Request {
        /// The method.
        method: Method<'a>,
        /// The URI.
        uri: Uri<'a>,
        /// The version; `(0, 9)` when the line has none.
        version: (i32, i32),
    },
    /// `{http_response, {Major, Minor}, Status, Phrase}`.
    Response {
        /// The version.
        version: (i32, i32),
        /// The status code (0 when there are no digits).
        status: i32,
        /// The reason phrase (maybe empty).
        phrase: &'a [u8],
    },
    /// `{http_header, Number, Name, UnmodifiedName, Value}`.
    Header {
        /// The name.
        field: Field<'a>,
        /// The name as the line spells it.
        raw_name: &'a [u8],
        /// The value, from the first non-blank after the colon, with any
        /// continuation lines (and their "\r\n") in it.
        value: &'a [u8],
    },
    /// `http_eoh`: the empty line after the headers.
    EndOfHeaders,
    /// `{http_error, Line}`: a line that does not parse, "\r\n" included.
    Error(&'a [u8]),
}

/// The longest header name that is normalised and looked up.
const MAX_NAME: usize = 50;

/// Parses the whole HTTP packet `packet` in state `state`; returns the
/// line and the state after it (the headers follow a start line; an
/// empty header line starts the next message; an error changes nothing).
/// URIs follow the release running ([`parse_with`]).
pub fn parse(packet: &[u8], state: HttpState) -> (Http<'_>, HttpState) {
    parse_with(packet, state, beamr_core::release::otp_release() >= 26)
}

/// [`parse`], with the URI rule of a release given: with `ipv6_hosts`
/// (OTP 26 on) a bracketed host in an absolute URI keeps its colons;
/// without, it ends at the first colon.
pub fn parse_with(packet: &[u8], state: HttpState, ipv6_hosts: bool) -> (Http<'_>, HttpState) {
    let line = strip_newline(packet);
    let parsed = match state {
        HttpState::Start => start_line(line, ipv6_hosts).map(|l| (l, HttpState::Headers)),
        HttpState::Headers if line.is_empty() => Some((Http::EndOfHeaders, HttpState::Start)),
        HttpState::Headers => header(line).map(|l| (l, HttpState::Headers)),
    };
    parsed.unwrap_or((Http::Error(packet), state))
}

/// `packet` without its "\r\n" or "\n".
fn strip_newline(packet: &[u8]) -> &[u8] {
    let n = packet.len();
    if n >= 2 && packet[n - 2] == b'\r' {
        &packet[..n - 2]
    } else if n >= 1 && packet[n - 1] == b'\n' {
        &packet[..n - 1]
    } else {
        packet
    }
}

/// A byte of a token (a method, a header name).
fn is_token(b: u8) -> bool {
    (33..=127).contains(&b) && !b"()<>@,;:\\\"/[]?={}".contains(&b)
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// A position in a line, moving forward.
struct Cursor<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.get(self.at).copied()
    }

    fn at_end(&self) -> bool {
        self.at >= self.line.len()
    }

    /// Skips the bytes that satisfy `f`; how many it skipped.
    fn skip(&mut self, f: impl Fn(u8) -> bool) -> usize {
        let from = self.at;
        while self.peek().is_some_and(&f) {
            self.at += 1;
        }
        self.at - from
    }

    /// The bytes that satisfy `f`.
    fn take(&mut self, f: impl Fn(u8) -> bool) -> &'a [u8] {
        let from = self.at;
        self.skip(f);
        &self.line[from..self.at]
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.at += 1;
        }
        hit
    }

    fn eat_str(&mut self, s: &[u8]) -> bool {
        let hit = self.line[self.at..].starts_with(s);
        if hit {
            self.at += s.len();
        }
        hit
    }

    /// Decimal digits as an `int` (wrapping); `None` when there are none.
    fn number(&mut self) -> Option<i32> {
        let digits = self.take(|b| b.is_ascii_digit());
        (!digits.is_empty()).then(|| decimal(digits))
    }

    /// `Major "." Minor`.
    fn version(&mut self) -> Option<(i32, i32)> {
        let major = self.number()?;
        if !self.eat(b'.') {
            return None;
        }
        Some((major, self.number()?))
    }

    fn rest(&self) -> &'a [u8] {
        &self.line[self.at.min(self.line.len())..]
    }
}

/// The value of decimal digits in an `int`, wrapping as C's arithmetic
/// does on the machines erts runs on.
fn decimal(digits: &[u8]) -> i32 {
    digits.iter().fold(0i32, |n, &d| {
        n.wrapping_mul(10).wrapping_add(i32::from(d - b'0'))
    })
}

/// A request line or a status line.
fn start_line(line: &[u8], ipv6_hosts: bool) -> Option<Http<'_>> {
    let mut c = Cursor { line, at: 0 };
    if c.eat_str(b"HTTP/") {
        let version = c.version()?;
        if c.skip(is_blank) == 0 {
            return None;
        }
        let status = decimal(c.take(|b| b.is_ascii_digit()));
        if c.skip(is_blank) == 0 && !c.at_end() {
            return None;
        }
        return Some(Http::Response {
            version,
            status,
            phrase: c.rest(),
        });
    }
    let method = c.take(is_token);
    if method.is_empty() || !c.peek().is_some_and(is_blank) {
        return None;
    }
    c.skip(is_blank);
    let uri = c.take(|b| !is_blank(b));
    if uri.is_empty() {
        return None;
    }
    c.skip(is_blank);
    let version = if c.at_end() {
        (0, 9)
    } else {
        if c.rest().len() < 8 || !c.eat_str(b"HTTP/") {
            return None;
        }
        c.version()?
    };
    let method = match names::method(method) {
        Some(name) => Method::Known(name),
        None => Method::Other(method),
    };
    Some(Http::Request {
        method,
        uri: parse_uri(uri, ipv6_hosts),
        version,
    })
}

/// A request URI.
pub fn parse_uri(uri: &[u8], ipv6_hosts: bool) -> Uri<'_> {
    let prefixed = |p: &[u8]| uri.len() >= p.len() && uri[..p.len()].eq_ignore_ascii_case(p);
    if uri == b"*" {
        Uri::Star
    } else if uri.len() <= 1 || uri[0] == b'/' {
        Uri::AbsPath(uri)
    } else if prefixed(b"http://") {
        absolute(false, &uri[7..], ipv6_hosts)
    } else if prefixed(b"https://") {
        absolute(true, &uri[8..], ipv6_hosts)
    } else {
        match uri.iter().position(|&b| b == b':') {
            Some(i) => Uri::Scheme(&uri[..i], &uri[i + 1..]),
            None => Uri::Other(uri),
        }
    }
}

/// What follows `http://` or `https://`: `Host[:Port][/Path]`.
fn absolute(https: bool, rest: &[u8], ipv6_hosts: bool) -> Uri<'_> {
    let (authority, path): (&[u8], &[u8]) = match rest.iter().position(|&b| b == b'/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, b"/"),
    };
    let colon = authority.iter().position(|&b| b == b':');
    let close = authority.iter().position(|&b| b == b']');
    let (host, port) = match (colon, close) {
        (None, _) => (authority, None),
        // `[v6:address]:Port`: the port only when the last colon is the
        // one after the bracket.
        (Some(_), Some(close)) if ipv6_hosts && authority[0] == b'[' => {
            let last_colon = authority.iter().rposition(|&b| b == b':');
            let port = if last_colon == Some(close + 1) {
                port_of(&authority[close + 2..])
            } else {
                None
            };
            (&authority[..=close], port)
        }
        (Some(colon), _) => (&authority[..colon], port_of(&authority[colon + 1..])),
    };
    Uri::Absolute {
        https,
        host,
        port,
        path,
    }
}

/// A port: all digits and not 0.
fn port_of(digits: &[u8]) -> Option<i32> {
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(decimal(digits)).filter(|&p| p != 0)
}

/// A header line (not empty).
fn header(line: &[u8]) -> Option<Http<'_>> {
    let mut c = Cursor { line, at: 0 };
    let raw_name = c.take(is_token);
    // The name must be followed by a colon, on this line.
    if !c.eat(b':') {
        return None;
    }
    let field = if raw_name.len() <= MAX_NAME {
        let name = normalise(raw_name);
        match names::header(&name) {
            Some((atom, number)) => Field::Known(atom, number),
            None => Field::Other(Cow::Owned(name)),
        }
    } else {
        Field::Other(Cow::Borrowed(raw_name))
    };
    c.skip(is_blank);
    Some(Http::Header {
        field,
        raw_name,
        value: c.rest(),
    })
}

/// A header name as erts spells it: the first byte and every byte after
/// a `-` in upper case, the others in lower case (a `-` first does not
/// make the next upper case).
fn normalise(name: &[u8]) -> Vec<u8> {
    let mut up = true;
    name.iter()
        .map(|&b| {
            if up {
                up = false;
                b.to_ascii_uppercase()
            } else {
                up = b == b'-';
                b.to_ascii_lowercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(line: &[u8]) -> Http<'_> {
        parse_with(line, HttpState::Start, true).0
    }

    fn head(line: &[u8]) -> Http<'_> {
        parse_with(line, HttpState::Headers, true).0
    }

    #[test]
    fn request_lines() {
        assert_eq!(
            parse_with(b"GET / HTTP/1.1\r\n", HttpState::Start, true),
            (
                Http::Request {
                    method: Method::Known("GET"),
                    uri: Uri::AbsPath(b"/"),
                    version: (1, 1)
                },
                HttpState::Headers
            )
        );
        assert_eq!(
            start(b"get  *  HTTP/1.0garbage\n"),
            Http::Request {
                method: Method::Other(b"get"),
                uri: Uri::Star,
                version: (1, 0)
            }
        );
        assert_eq!(
            start(b"GET /index\r\n"),
            Http::Request {
                method: Method::Known("GET"),
                uri: Uri::AbsPath(b"/index"),
                version: (0, 9)
            }
        );
        assert_eq!(start(b"GET / HTTP/1\r\n"), Http::Error(b"GET / HTTP/1\r\n"));
        assert_eq!(
            start(b"GET / FTP/1.1\r\n"),
            Http::Error(b"GET / FTP/1.1\r\n")
        );
        assert_eq!(start(b"GET\r\n"), Http::Error(b"GET\r\n"));
        assert_eq!(start(b"\r\n"), Http::Error(b"\r\n"));
        assert_eq!(
            parse_with(b"\r\n", HttpState::Start, true).1,
            HttpState::Start
        );
    }

    #[test]
    fn status_lines() {
        assert_eq!(
            start(b"HTTP/1.1 200 OK\r\n"),
            Http::Response {
                version: (1, 1),
                status: 200,
                phrase: b"OK"
            }
        );
        assert_eq!(
            start(b"HTTP/1.0 404\r\n"),
            Http::Response {
                version: (1, 0),
                status: 404,
                phrase: b""
            }
        );
        assert_eq!(
            start(b"HTTP/1.1 \r\n"),
            Http::Response {
                version: (1, 1),
                status: 0,
                phrase: b""
            }
        );
        assert_eq!(start(b"HTTP/1.1 OK\r\n"), Http::Error(b"HTTP/1.1 OK\r\n"));
        assert_eq!(start(b"HTTP/1.1\r\n"), Http::Error(b"HTTP/1.1\r\n"));
        assert_eq!(start(b"HTTP/x.1 200\r\n"), Http::Error(b"HTTP/x.1 200\r\n"));
    }

    #[test]
    fn uris() {
        assert_eq!(parse_uri(b"x", true), Uri::AbsPath(b"x"));
        assert_eq!(
            parse_uri(b"HTTP://host:8080/a?b", true),
            Uri::Absolute {
                https: false,
                host: b"host",
                port: Some(8080),
                path: b"/a?b"
            }
        );
        assert_eq!(
            parse_uri(b"https://host:0", true),
            Uri::Absolute {
                https: true,
                host: b"host",
                port: None,
                path: b"/"
            }
        );
        assert_eq!(
            parse_uri(b"http://h:8x/", true),
            Uri::Absolute {
                https: false,
                host: b"h",
                port: None,
                path: b"/"
            }
        );
        let v6 = |ipv6| match parse_uri(b"http://[::1]:4000/x", ipv6) {
            Uri::Absolute { host, port, .. } => (host, port),
            _ => (&b""[..], None),
        };
        assert_eq!(v6(true), (&b"[::1]"[..], Some(4000)));
        assert_eq!(v6(false), (&b"["[..], None));
        assert_eq!(parse_uri(b"ftp:x:y", true), Uri::Scheme(b"ftp", b"x:y"));
        assert_eq!(parse_uri(b"xyz", true), Uri::Other(b"xyz"));
    }

    #[test]
    fn headers() {
        assert_eq!(
            parse_with(b"content-LENGTH:  12 \r\n", HttpState::Headers, true),
            (
                Http::Header {
                    field: Field::Known("Content-Length", 38),
                    raw_name: b"content-LENGTH",
                    value: b"12 "
                },
                HttpState::Headers
            )
        );
        assert_eq!(
            head(b"x-my--hEADER:v\r\n w\r\n"),
            Http::Header {
                field: Field::Other(Cow::Owned(b"X-My--header".to_vec())),
                raw_name: b"x-my--hEADER",
                value: b"v\r\n w"
            }
        );
        assert_eq!(
            parse_with(b"\r\n", HttpState::Headers, true),
            (Http::EndOfHeaders, HttpState::Start)
        );
        assert_eq!(head(b"Host x\r\n"), Http::Error(b"Host x\r\n"));
        assert_eq!(head(b"Host\r\n"), Http::Error(b"Host\r\n"));
        let long = [b'a'; 51];
        let mut line = long.to_vec();
        line.extend_from_slice(b": v\r\n");
        assert_eq!(
            head(&line),
            Http::Header {
                field: Field::Other(Cow::Borrowed(&long[..])),
                raw_name: &long[..],
                value: b"v"
            }
        );
    }

    #[test]
    fn normalises_names() {
        assert_eq!(normalise(b"x-FOO-bar"), b"X-Foo-Bar");
        assert_eq!(normalise(b"-a"), b"-a");
        assert_eq!(normalise(b"--a"), b"--A");
    }
}
