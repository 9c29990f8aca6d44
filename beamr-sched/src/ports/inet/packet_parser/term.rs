//! The Erlang terms of decoded HTTP lines and TLS records, on any heap:
//! what `decode_packet/3` returns and what an HTTP socket delivers.
//!
//! ```text
//! {http_request, Method, Uri, {Major, Minor}}
//!     Method  'GET' | ... (the known ones) | String
//!     Uri     '*' | {abs_path, String} | {scheme, String, String} | String
//!             | {absoluteURI, http | https, Host, Port | undefined, Path}
//! {http_response, {Major, Minor}, Status, Phrase}
//! {http_header, Number, 'Content-Length' | ... | String, RawName, Value}
//! http_eoh
//! {http_error, Line}
//! {ssl_tls, Socket, ContentType, {Major, Minor}, Data}
//! ```
//!
//! (`decode_packet/3` has no socket: its TLS tuples hold `[]` there.)
//!
//! A String is a list of bytes, or a binary for `http_bin` and
//! `httph_bin` (`binaries`).

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::http::{Field, Http, Method, Uri};
use super::ssl::SslRecord;

/// The atom `name`: a name in this file or in the parser's tables,
/// short enough that the atom table cannot refuse it.
fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("a short atom name"))
}

fn int(n: i32) -> Term {
    Term::small_unchecked(i64::from(n))
}

/// `bytes` as a String: a binary, or a list of bytes.
fn string(h: &mut Heap, bytes: &[u8], binaries: bool) -> Term {
    if binaries {
        h.binary(bytes)
    } else {
        h.byte_list(bytes, Term::NIL)
    }
}

fn version(h: &mut Heap, (major, minor): (i32, i32)) -> Term {
    h.tuple(&[int(major), int(minor)])
}

/// The term of the HTTP line `line`.
pub fn http_term(h: &mut Heap, line: &Http<'_>, binaries: bool) -> Term {
    match line {
        Http::Request {
            method,
            uri,
            version: v,
        } => {
            let method = match method {
                Method::Known(name) => atom(name),
                Method::Other(bytes) => string(h, bytes, binaries),
            };
            let uri = uri_term(h, uri, binaries);
            let v = version(h, *v);
            h.tuple(&[atom("http_request"), method, uri, v])
        }
        Http::Response {
            version: v,
            status,
            phrase,
        } => {
            let v = version(h, *v);
            let phrase = string(h, phrase, binaries);
            h.tuple(&[atom("http_response"), v, int(*status), phrase])
        }
        Http::Header {
            field,
            raw_name,
            value,
        } => {
            let (number, name) = match field {
                Field::Known(name, number) => (*number, atom(name)),
                Field::Other(name) => (0, string(h, name, binaries)),
            };
            let raw_name = string(h, raw_name, binaries);
            let value = string(h, value, binaries);
            let number = Term::small_unchecked(i64::from(number));
            h.tuple(&[atom("http_header"), number, name, raw_name, value])
        }
        Http::EndOfHeaders => atom("http_eoh"),
        Http::Error(line) => {
            let line = string(h, line, binaries);
            h.tuple(&[atom("http_error"), line])
        }
    }
}

/// The term of a request URI.
fn uri_term(h: &mut Heap, uri: &Uri<'_>, binaries: bool) -> Term {
    match uri {
        Uri::Star => atom("*"),
        Uri::AbsPath(path) => {
            let path = string(h, path, binaries);
            h.tuple(&[atom("abs_path"), path])
        }
        Uri::Absolute {
            https,
            host,
            port,
            path,
        } => {
            let scheme = atom(if *https { "https" } else { "http" });
            let host = string(h, host, binaries);
            let port = port.map_or_else(|| atom("undefined"), int);
            let path = string(h, path, binaries);
            h.tuple(&[atom("absoluteURI"), scheme, host, port, path])
        }
        Uri::Scheme(scheme, rest) => {
            let scheme = string(h, scheme, binaries);
            let rest = string(h, rest, binaries);
            h.tuple(&[atom("scheme"), scheme, rest])
        }
        Uri::Other(uri) => string(h, uri, binaries),
    }
}

/// The term of a TLS record read by `socket` (`[]` for none): its data
/// always a binary.
pub fn ssl_tls_term(h: &mut Heap, record: &SslRecord<'_>, socket: Term) -> Term {
    let mut data = Vec::with_capacity(record.prefix.len() + record.data.len());
    data.extend_from_slice(&record.prefix);
    data.extend_from_slice(record.data);
    let data = h.binary(&data);
    let (major, minor) = record.version;
    let v = h.tuple(&[
        Term::small_unchecked(i64::from(major)),
        Term::small_unchecked(i64::from(minor)),
    ]);
    let content_type = Term::small_unchecked(i64::from(record.content_type));
    h.tuple(&[atom("ssl_tls"), socket, content_type, v, data])
}
