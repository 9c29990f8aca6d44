//! `beamr_io:format/2`: the control sequences of `io:format` for beamr's
//! fallback `io` module (used only when no Erlang/OTP installation is
//! present). `~w`, `~p` and their depth-limited forms use beamr-core's
//! formatter, so they print as OTP does; `~s`, `~c`, `~b`/`~B`/`~x`/`~X`/
//! `~#`/`~+`, `~e`/`~f`/`~g`, `~i`, `~n` and `~~` take field width,
//! precision, padding and `-` as in `io_lib:format`. Anything else is a
//! `badarg`, as a malformed format is in OTP.

use beamr_core::format::{display_with, format_p, Encoding, PrettyOptions, WriteOptions};
use beamr_core::term::Term;

use super::beamr_io::chardata;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("beamr_io", "format", 2, format_bif)];

/// One parsed control sequence.
struct Spec {
    width: Option<usize>,
    precision: Option<usize>,
    pad: char,
    left: bool,
    unicode: bool,
    control: char,
}

/// Formats `format` with `args`, returning the characters.
pub(crate) fn format(format: Term, args: Term) -> Result<Vec<u32>, Exception> {
    let mut fmt = Vec::new();
    chardata(format, true, &mut fmt)
        .or_else(|| {
            format
                .as_atom()
                .map(|a| fmt.extend(a.name().chars().map(|c| c as u32)))
        })
        .ok_or_else(Exception::badarg)?;
    let mut args = args
        .list_to_vec()
        .ok_or_else(Exception::badarg)?
        .into_iter();
    let mut out: Vec<u32> = Vec::new();
    let mut chars = fmt.into_iter().peekable();
    let mut next_arg = || args.next().ok_or_else(Exception::badarg);
    while let Some(c) = chars.next() {
        if c != '~' as u32 {
            out.push(c);
            continue;
        }
        let mut spec = Spec {
            width: None,
            precision: None,
            pad: ' ',
            left: false,
            unicode: false,
            control: '~',
        };
        let number = |chars: &mut std::iter::Peekable<std::vec::IntoIter<u32>>,
                      next_arg: &mut dyn FnMut() -> Result<Term, Exception>|
         -> Result<Option<usize>, Exception> {
            if chars.peek() == Some(&('*' as u32)) {
                chars.next();
                let v = next_arg()?.as_small().ok_or_else(Exception::badarg)?;
                return Ok(Some(v.unsigned_abs() as usize));
            }
            let mut n: Option<usize> = None;
            while let Some(&d) = chars.peek() {
                match char::from_u32(d).and_then(|d| d.to_digit(10)) {
                    Some(v) => {
                        n = Some(n.unwrap_or(0) * 10 + v as usize);
                        chars.next();
                    }
                    None => break,
                }
            }
            Ok(n)
        };
        if chars.peek() == Some(&('-' as u32)) {
            chars.next();
            spec.left = true;
        }
        spec.width = number(&mut chars, &mut next_arg)?;
        if chars.peek() == Some(&('.' as u32)) {
            chars.next();
            spec.precision = number(&mut chars, &mut next_arg)?;
            if chars.peek() == Some(&('.' as u32)) {
                chars.next();
                if chars.peek() == Some(&('*' as u32)) {
                    chars.next();
                    let v = next_arg()?.as_small().ok_or_else(Exception::badarg)?;
                    spec.pad = char::from_u32(v as u32).ok_or_else(Exception::badarg)?;
                } else {
                    spec.pad = chars
                        .next()
                        .and_then(char::from_u32)
                        .ok_or_else(Exception::badarg)?;
                }
            }
        }
        while let Some(&m) = chars.peek() {
            match char::from_u32(m) {
                Some('t') => spec.unicode = true,
                Some('l') => {}
                _ => break,
            }
            chars.next();
        }
        spec.control = chars
            .next()
            .and_then(char::from_u32)
            .ok_or_else(Exception::badarg)?;
        let text = control(&spec, &mut next_arg)?;
        pad(&mut out, &spec, text);
    }
    if args.next().is_some() {
        return Err(Exception::badarg());
    }
    Ok(out)
}

fn control(
    spec: &Spec,
    next_arg: &mut dyn FnMut() -> Result<Term, Exception>,
) -> Result<Vec<u32>, Exception> {
    let text = |s: String| s.chars().map(|c| c as u32).collect::<Vec<u32>>();
    let encoding = if spec.unicode {
        Encoding::Unicode
    } else {
        Encoding::Latin1
    };
    Ok(match spec.control {
        '~' => vec!['~' as u32],
        'n' => vec!['\n' as u32],
        'c' => {
            let c = next_arg()?
                .as_small()
                .and_then(|c| u32::try_from(c).ok())
                .ok_or_else(Exception::badarg)?;
            // The precision is the repeat count; it defaults to the field width.
            vec![c; spec.precision.or(spec.width).unwrap_or(1)]
        }
        's' => {
            let arg = next_arg()?;
            let mut chars = Vec::new();
            if let Some(a) = arg.as_atom() {
                chars.extend(a.name().chars().map(|c| c as u32));
            } else {
                chardata(arg, spec.unicode, &mut chars).ok_or_else(Exception::badarg)?;
            }
            if let Some(p) = spec.precision {
                chars.truncate(p);
            }
            chars
        }
        'w' => text(
            display_with(
                next_arg()?,
                WriteOptions {
                    encoding,
                    depth: None,
                },
            )
            .to_string(),
        ),
        'W' => {
            let term = next_arg()?;
            let depth = next_arg()?
                .as_small()
                .and_then(|d| usize::try_from(d).ok())
                .ok_or_else(Exception::badarg)?;
            text(
                display_with(
                    term,
                    WriteOptions {
                        encoding,
                        depth: Some(depth),
                    },
                )
                .to_string(),
            )
        }
        'p' | 'P' => {
            let term = next_arg()?;
            let depth = if spec.control == 'P' {
                Some(
                    next_arg()?
                        .as_small()
                        .and_then(|d| usize::try_from(d).ok())
                        .ok_or_else(Exception::badarg)?,
                )
            } else {
                None
            };
            let options = PrettyOptions {
                depth,
                encoding,
                line_length: spec.width.unwrap_or(80),
                ..PrettyOptions::default()
            };
            text(format_p(term, &options))
        }
        'b' | 'B' | 'x' | 'X' | '#' | '+' => {
            let n = next_arg()?
                .as_integer()
                .ok_or_else(Exception::badarg)?
                .to_bigint();
            let base = spec.precision.unwrap_or(10) as u32;
            if !(2..=36).contains(&base) {
                return Err(Exception::badarg());
            }
            let mut digits = n.magnitude().to_str_radix(base);
            if matches!(spec.control, 'B' | 'X' | '#' | '+') {
                digits = digits.to_uppercase();
            }
            let sign = if n.sign() == num_bigint::Sign::Minus {
                "-"
            } else {
                ""
            };
            let prefix = match spec.control {
                'x' | 'X' => {
                    let p = next_arg()?;
                    let mut chars = Vec::new();
                    chardata(p, false, &mut chars)
                        .or_else(|| {
                            p.as_atom()
                                .map(|a| chars.extend(a.name().chars().map(|c| c as u32)))
                        })
                        .ok_or_else(Exception::badarg)?;
                    chars
                        .iter()
                        .filter_map(|&c| char::from_u32(c))
                        .collect::<String>()
                }
                '#' | '+' => format!("{base}#"),
                _ => String::new(),
            };
            text(format!("{sign}{prefix}{digits}"))
        }
        'e' | 'f' | 'g' => {
            let arg = next_arg()?;
            let f = arg.as_float().ok_or_else(Exception::badarg)?;
            let p = spec.precision.unwrap_or(6);
            let s = match spec.control {
                'f' => crate::bif::erlang::convert::fixed(f, p),
                'e' => erlang_e(f, p),
                _ => {
                    if f != 0.0 && (f.abs() < 0.1 || f.abs() >= 10f64.powi(p as i32)) {
                        erlang_e(f, p)
                    } else {
                        format!(
                            "{f:.prec$}",
                            prec =
                                p.saturating_sub(1 + (f.abs().log10().floor().max(0.0) as usize))
                        )
                    }
                }
            };
            text(s)
        }
        'i' => {
            next_arg()?;
            Vec::new()
        }
        _ => return Err(Exception::badarg()),
    })
}

/// `~e`: a mantissa with `precision` significant digits and a signed exponent (`1.00000e+0`).
fn erlang_e(f: f64, precision: usize) -> String {
    let s = format!("{f:.prec$e}", prec = precision.saturating_sub(1));
    match s.split_once('e') {
        Some((mantissa, exp)) => {
            let exp: i32 = exp.parse().unwrap_or(0);
            let sign = if exp < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{}", exp.abs())
        }
        None => s,
    }
}

/// Pads `text` to the field width (truncating to it, as `io_lib` does for a
/// field narrower than the text, except for `~p`/`~w` style terms).
fn pad(out: &mut Vec<u32>, spec: &Spec, mut text: Vec<u32>) {
    let Some(width) = spec
        .width
        .filter(|_| !matches!(spec.control, 'p' | 'P' | 'n' | 'i'))
    else {
        out.extend(text);
        return;
    };
    if text.len() > width {
        if matches!(
            spec.control,
            'w' | 'W' | 's' | 'c' | 'b' | 'B' | 'x' | 'X' | '#' | '+' | 'e' | 'f' | 'g'
        ) {
            text = vec!['*' as u32; width];
            if spec.control == 's' || spec.control == 'c' {
                return;
            }
        }
        out.extend(text);
        return;
    }
    let fill = vec![spec.pad as u32; width - text.len()];
    if spec.left {
        out.extend(text);
        out.extend(fill);
    } else {
        out.extend(fill);
        out.extend(text);
    }
}

/// The BIF: `beamr_io:format(Format, Args)` returns the formatted characters as a list.
fn format_bif(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let chars = format(a[0], a[1])?;
    let terms: Vec<Term> = chars
        .into_iter()
        .map(|c| Term::small_unchecked(c as i64))
        .collect();
    Ok(p.heap.list(&terms))
}
