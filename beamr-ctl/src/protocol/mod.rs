//! The control protocol: what a client asks ([`Request`]), what the
//! runtime answers ([`Reply`]), and how both travel on the socket
//! ([`framing`]).
//!
//! One connection carries any number of exchanges, each a request frame
//! from the client followed by exactly one reply frame from the runtime,
//! but for [`Request::Trace`], whose replies stream until its session
//! ends (see its doc).
//! A request the runtime cannot read (malformed, truncated, oversized, of
//! another version) gets a [`Reply::Error`] naming what is wrong; after an
//! oversized or truncated frame the runtime closes the connection, since it
//! no longer knows where the next frame starts.

pub mod framing;
pub mod messages;

pub use framing::{
    decode_request, encode_reply, encode_request, read_frame, write_frame, FrameError,
};
pub use messages::*;
