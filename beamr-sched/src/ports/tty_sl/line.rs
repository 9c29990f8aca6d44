//! The line the cursor is on, as erts's tty_sl driver keeps it: the
//! characters written since the last newline and the cursor's place among
//! them, so that OTP's line editor (edlin, through user_drv) can move the
//! cursor, insert and delete by counts of characters and have the
//! terminal show it.
//!
//! Each operation returns the text to write to the terminal: the
//! characters and the cursor movements erts's driver writes on a VT100
//! (xterm) terminal: a backspace for each column left, `ESC [ C` for each
//! column right, `ESC [ A` and `ESC [ B` for each row up and down. A line
//! longer than the terminal is wide wraps; a move crosses rows by
//! counting each character as one column. A newline is written as `\n`,
//! which the terminal's output processing (left on) ends with a return.

/// The current line and where the cursor is in it.
#[derive(Debug)]
pub struct Line {
    chars: Vec<char>,
    cursor: usize,
    width: usize,
}

impl Line {
    /// An empty line on a terminal `width` columns wide.
    pub fn new(width: usize) -> Line {
        Line {
            chars: Vec::new(),
            cursor: 0,
            width: width.max(1),
        }
    }

    /// Takes a new terminal width (after a resize).
    pub fn set_width(&mut self, width: usize) {
        self.width = width.max(1);
    }

    /// Writes `text` at the cursor, over what is there (erts's `OP_PUTC`).
    /// A newline ends the line; a tab goes to the next multiple of eight.
    pub fn put(&mut self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            match c {
                '\n' => {
                    out.push('\n');
                    self.chars.clear();
                    self.cursor = 0;
                }
                '\r' => {
                    out.push('\r');
                    self.cursor -= self.cursor % self.width;
                }
                '\t' => {
                    for _ in 0..8 - self.cursor % 8 {
                        self.overwrite(' ', &mut out);
                    }
                }
                c if c.is_control() => out.push(c),
                c => self.overwrite(c, &mut out),
            }
        }
        out
    }

    fn overwrite(&mut self, c: char, out: &mut String) {
        if self.cursor < self.chars.len() {
            self.chars[self.cursor] = c;
        } else {
            self.chars.push(c);
        }
        self.cursor += 1;
        out.push(c);
    }

    /// Inserts `text` at the cursor, moving the rest of the line right;
    /// the cursor ends after what was inserted (erts's `OP_INSC`).
    pub fn insert(&mut self, text: &str) -> String {
        let inserted: Vec<char> = text.chars().filter(|c| !c.is_control()).collect();
        let tail: String = self.chars[self.cursor..].iter().collect();
        let mut out: String = inserted.iter().collect();
        out.push_str(&tail);
        let at = self.cursor + inserted.len();
        self.chars.splice(self.cursor..self.cursor, inserted);
        out.push_str(&self.moving(self.chars.len(), at));
        self.cursor = at;
        out
    }

    /// Deletes `n` characters after the cursor, or `-n` before it when `n`
    /// is negative (erts's `OP_DELC`), closing the gap.
    pub fn delete(&mut self, n: i32) -> String {
        let mut out = String::new();
        let count = if n < 0 {
            let back = (n.unsigned_abs() as usize).min(self.cursor);
            out.push_str(&self.moving(self.cursor, self.cursor - back));
            self.cursor -= back;
            back
        } else {
            (n as usize).min(self.chars.len() - self.cursor)
        };
        self.chars.drain(self.cursor..self.cursor + count);
        let tail: String = self.chars[self.cursor..].iter().collect();
        out.push_str(&tail);
        out.extend(std::iter::repeat_n(' ', count));
        out.push_str(&self.moving(self.chars.len() + count, self.cursor));
        out
    }

    /// Moves the cursor `n` characters right, or left when negative,
    /// within the line (erts's `OP_MOVE`).
    pub fn move_by(&mut self, n: i32) -> String {
        let to = (self.cursor as i64 + i64::from(n)).clamp(0, self.chars.len() as i64) as usize;
        let out = self.moving(self.cursor, to);
        self.cursor = to;
        out
    }

    /// The escape sequences that take the cursor from character `from`
    /// of the line to character `to`.
    fn moving(&self, from: usize, to: usize) -> String {
        let (from_row, from_col) = (from / self.width, from % self.width);
        let (to_row, to_col) = (to / self.width, to % self.width);
        let mut out = String::new();
        let mut repeat = |step: &str, n: usize| out.extend(std::iter::repeat_n(step, n));
        repeat("\x1b[A", from_row.saturating_sub(to_row));
        repeat("\x1b[B", to_row.saturating_sub(from_row));
        repeat("\x08", from_col.saturating_sub(to_col));
        repeat("\x1b[C", to_col.saturating_sub(from_col));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Line;

    /// What a terminal shows after `text`: a tiny ECMA-48 screen of one
    /// row per line, enough for the sequences [`Line`] writes.
    fn screen(text: &str, width: usize) -> (Vec<String>, (usize, usize)) {
        let mut rows = vec![vec![' '; width]];
        let (mut row, mut col) = (0usize, 0usize);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => col = 0,
                '\x08' => col -= 1,
                '\n' => {
                    col = 0;
                    row += 1;
                    if rows.len() <= row {
                        rows.push(vec![' '; width]);
                    }
                }
                '\x1b' => {
                    assert_eq!(chars.next(), Some('['));
                    match chars.next() {
                        Some('A') => row -= 1,
                        Some('B') => row += 1,
                        Some('C') => col += 1,
                        other => panic!("unexpected {other:?}"),
                    }
                }
                c => {
                    if col == width {
                        (row, col) = (row + 1, 0);
                    }
                    while rows.len() <= row {
                        rows.push(vec![' '; width]);
                    }
                    rows[row][col] = c;
                    col += 1;
                }
            }
        }
        let rows = rows
            .into_iter()
            .map(|r| r.into_iter().collect::<String>().trim_end().to_string())
            .collect();
        (rows, (row, col))
    }

    #[test]
    fn insertions_moves_and_deletions_show_as_edlin_means_them() {
        let mut line = Line::new(80);
        let mut out = line.put("1> ");
        out += &line.insert("lists:seq(1,3).");
        out += &line.move_by(-3);
        out += &line.delete(1);
        out += &line.insert("5");
        out += &line.move_by(100);
        out += &line.delete(-1);
        out += &line.insert(")");
        let (rows, cursor) = screen(&out, 80);
        assert_eq!(rows, ["1> lists:seq(1,5))"]);
        assert_eq!(cursor, (0, 18));
        assert_eq!(line.chars.iter().collect::<String>(), "1> lists:seq(1,5))");
    }

    #[test]
    fn a_line_wider_than_the_terminal_wraps_and_moves_cross_rows() {
        let mut line = Line::new(10);
        let mut out = line.put("> ");
        out += &line.insert("abcdefghijklmno");
        out += &line.move_by(-12);
        out += &line.insert("X");
        let (rows, cursor) = screen(&out, 10);
        assert_eq!(rows, ["> abcXdefg", "hijklmno"]);
        assert_eq!(cursor, (0, 6));
        out += &line.delete(3);
        out += &line.move_by(8);
        let (rows, cursor) = screen(&out, 10);
        assert_eq!(rows, ["> abcXghij", "klmno"]);
        assert_eq!(cursor, (1, 4));
    }

    #[test]
    fn a_newline_starts_a_fresh_line_and_tabs_stop_at_eight() {
        let mut line = Line::new(80);
        let mut out = line.put("ab\tc\nxy");
        out += &line.move_by(-5);
        let (rows, cursor) = screen(&out, 80);
        assert_eq!(rows, ["ab      c", "xy"]);
        assert_eq!(cursor, (1, 0));
    }

    #[test]
    fn deleting_past_either_end_stops_there() {
        let mut line = Line::new(80);
        let mut out = line.put("abc");
        out += &line.delete(5);
        out += &line.delete(-10);
        let (rows, cursor) = screen(&out, 80);
        assert_eq!(rows, [""]);
        assert_eq!(cursor, (0, 0));
    }
}
