/**
 * A service that echoes the key in the forms a text search for it misses (the
 * team gateway's redaction tests), switched by `keyInHeaders` and `encodedKey`
 * (hostile.ts):
 *
 * - `keyInHeaders`: the key written into the listed response headers —
 *   `Content-Type: application/json; charset=<key>`, `Cache-Control:
 *   max-age=60, <key>`, `Retry-After: <key>`;
 * - `encodedKey`: every JSON answer gains a `note` holding the key as
 *   `base64` or `base64url` (three times, after 0, 1 and 2 bytes of prefix,
 *   so each alignment of the key in the encoded stream is sent), `hex`,
 *   `hex-upper`, `upper-case`, `html-decimal` (`&#109;`), `html-hex`
 *   (`&#x6d;`) or `double-percent` (each byte `%25XX`); or the whole body,
 *   quoting the key, is sent as `utf-16` (little-endian, no byte-order mark)
 *   or compressed but labelled `Content-Encoding: identity`:
 *   `gzip-as-identity`, `deflate-as-identity` (zlib), `brotli-as-identity`.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";

export const KEY_HEADERS = ["Content-Type", "Cache-Control", "Retry-After"] as const;
export type KeyHeader = (typeof KEY_HEADERS)[number];

export const ENCODED_KEY_FORMS = [
  "base64",
  "base64url",
  "hex",
  "hex-upper",
  "upper-case",
  "html-decimal",
  "html-hex",
  "double-percent",
  "utf-16",
  "gzip-as-identity",
  "deflate-as-identity",
  "brotli-as-identity",
] as const;
export type EncodedKeyForm = (typeof ENCODED_KEY_FORMS)[number];

/** The headers `keyInHeaders` adds, each carrying the key. */
export function keyHeaders(names: readonly KeyHeader[], key: string): Record<string, string> {
  const values: Record<KeyHeader, string> = {
    "Content-Type": `application/json; charset=${key}`,
    "Cache-Control": `max-age=60, ${key}`,
    "Retry-After": key,
  };
  return Object.fromEntries(names.map((name) => [name, values[name]]));
}

/** The key written in `form`, for a JSON string (the body-wide forms write it plainly: the body is encoded after). */
export function encodeKey(form: EncodedKeyForm, key: string): string {
  const bytes = Buffer.from(key);
  const each = (write: (byte: number) => string) => [...bytes].map(write).join("");
  switch (form) {
    case "base64":
    case "base64url":
      return ["", "a", "ab"].map((prefix) => Buffer.from(prefix + key).toString(form)).join(" ");
    case "hex":
      return bytes.toString("hex");
    case "hex-upper":
      return bytes.toString("hex").toUpperCase();
    case "upper-case":
      return key.toUpperCase();
    case "html-decimal":
      return each((b) => `&#${b};`);
    case "html-hex":
      return each((b) => `&#x${b.toString(16)};`);
    case "double-percent":
      return each((b) => `%25${b.toString(16).toUpperCase().padStart(2, "0")}`);
    default:
      return key;
  }
}

/** A JSON answer with the key in `form` (see the header): the body as sent, and the headers that say how. */
export function encodedKeyReply(
  form: EncodedKeyForm,
  key: string,
  body: string,
): { bytes: Buffer; headers: Record<string, string> } {
  const noted = body.startsWith("{") ? `{"note":"requested with ${encodeKey(form, key)}",${body.slice(1)}` : body;
  if (form === "utf-16") return { bytes: Buffer.from(noted, "utf16le"), headers: {} };
  const compress = {
    "gzip-as-identity": gzipSync,
    "deflate-as-identity": deflateSync,
    "brotli-as-identity": brotliCompressSync,
  };
  if (form in compress)
    return { bytes: compress[form as keyof typeof compress](noted), headers: { "Content-Encoding": "identity" } };
  return { bytes: Buffer.from(noted), headers: {} };
}
