/**
 * Text helpers for the file tools: telling binary from text, naming a binary's type, sizes, and
 * cutting long lines.
 *
 * @module
 */

/** How many leading bytes decide whether a file is binary. */
export const SNIFF_BYTES = 8192;

/**
 * True when `head` (a file's first bytes) looks binary: a NUL byte, or bytes that are not UTF-8.
 * A multi-byte character cut at the end of `head` does not count against it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { looksBinary } from "./text.ts";
 * assert.deepEqual(looksBinary(new TextEncoder().encode("héllo\n")), false);
 * assert.deepEqual(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1])), true);
 * ```
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "PNG image"],
  [[0xff, 0xd8, 0xff], "JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "GIF image"],
  [[0x25, 0x50, 0x44, 0x46], "PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "ZIP archive (or jar/docx/xlsx)"],
  [[0x1f, 0x8b], "gzip data"],
  [[0x42, 0x5a, 0x68], "bzip2 data"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "xz data"],
  [[0x28, 0xb5, 0x2f, 0xfd], "zstd data"],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "7-zip archive"],
  [[0x7f, 0x45, 0x4c, 0x46], "ELF executable or library"],
  [[0x00, 0x61, 0x73, 0x6d], "WebAssembly module"],
  [[0xca, 0xfe, 0xba, 0xbe], "Java class or Mach-O fat binary"],
  [[0xcf, 0xfa, 0xed, 0xfe], "Mach-O binary"],
  [[0x4d, 0x5a], "Windows executable (PE)"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], "SQLite database"],
  [[0x49, 0x44, 0x33], "MP3 audio"],
  [[0x4f, 0x67, 0x67, 0x53], "Ogg media"],
  [[0x1a, 0x45, 0xdf, 0xa3], "Matroska/WebM video"],
  [[0x00, 0x00, 0x01, 0x00], "ICO icon"],
  [[0x77, 0x4f, 0x46, 0x32], "WOFF2 font"],
  [[0x77, 0x4f, 0x46, 0x46], "WOFF font"],
];

/**
 * A short guess at a binary file's type from its first bytes (and its name as a fallback).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guessBinaryType } from "./text.ts";
 * assert.deepEqual(guessBinaryType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d]), "logo.png"), "PNG image");
 * ```
 */
export function guessBinaryType(head: Uint8Array, name: string): string {
  for (const [sig, what] of MAGIC) {
    if (sig.every((b, i) => head[i] === b)) return what;
  }
  const ascii = new TextDecoder("latin1").decode(head.subarray(0, 12));
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "WebP image";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WAVE") return "WAV audio";
  if (ascii.slice(4, 8) === "ftyp") return "MP4/QuickTime media";
  if (head.length > 262 && new TextDecoder("latin1").decode(head.subarray(257, 262)) === "ustar") {
    return "tar archive";
  }
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  return ext ? `binary data (.${ext})` : "binary data";
}

/**
 * A byte count for people: `512 B`, `12.3 KB`, `4.0 MB`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSize } from "./text.ts";
 * assert.deepEqual(formatSize(12_600), "12.3 KB");
 * ```
 */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/**
 * Cuts a line to `max` characters, saying how long it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clipLine } from "./text.ts";
 * assert.deepEqual(clipLine("abcdef", 3), "abc… [line cut: 6 chars]");
 * ```
 */
export function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line cut: ${line.length} chars]`;
}
