/*
 * The gateway's service tier, run by nginx's own module (njs, Debian's
 * libnginx-mod-http-js; written for njs 0.7.9, Debian 12's). njs is not Node:
 * no classes, no destructuring, no optional chaining; a fresh VM per request.
 *
 * fetchService       (the service tier, /_md_fetch/, service-tier.conf.template):
 *   asks the service, then hands nginx's cache only what may be shared —
 *   allowlisted headers without the key, a UTF-8 body with no form of the key
 *   in it (else 502), and "do not store" unless the body is a complete JSON
 *   object within the size cap. The variables it
 *   reads are declared in variables.json.
 */
/* global Buffer, TextDecoder */
/* eslint-disable @typescript-eslint/no-unused-vars -- njs 0.7.9 has no "catch {" without a binding */

// ------------------------------------------------------------------ the service tier

/** Headers of the service's answer that reach nginx's cache and browsers; nothing else does. */
const CONTENT_TYPE = /^(?:application\/json|text\/plain)(?:; *charset=[A-Za-z0-9_-]+)?$/i;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * One character of a secret in every way a text can write it: as itself, as a
 * JSON escape (\uXXXX, and \/ for "/"), as an HTML character reference
 * (&#109; or &#x6d;, leading zeros and the ";" optional), and %-encoded once
 * or twice (%6D, %256D). The pattern is matched without regard to case. Built
 * with plain concatenation: njs runs this for every character of the key on
 * every answer.
 */
function characterPattern(c) {
  const code = c.charCodeAt(0);
  const hex = code.toString(16);
  const plain = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  let forms = `${plain ? c : escapeRegExp(c)}|\\\\u${`000${hex}`.slice(-4)}|&#(?:0*${code}|x0*${hex});?`;
  if (c === "/" || c === '"' || c === "\\") forms += `|\\\\${escapeRegExp(c)}`;
  if (code < 0x80) forms += `|%(?:25)?${code < 16 ? "0" : ""}${hex}`;
  else if (code < 0xd800 || code > 0xdfff) forms += `|${encodeURIComponent(c).replace(/%/g, "%(?:25)?")}`;
  return `(?:${forms})`;
}

/**
 * The runs of a base64 text that the secret's bytes alone decide, for each of
 * the three places the secret can start in the encoded stream (after 0, 1 or 2
 * bytes of something else): the characters that also carry a neighbour's bits
 * are left out.
 */
function base64Runs(secret) {
  const runs = [];
  [0, 1, 2].forEach((lead) => {
    const stream = Buffer.concat([Buffer.alloc(lead), Buffer.from(secret)]);
    const end = Math.floor((stream.length * 8) / 6);
    ["base64", "base64url"].forEach((alphabet) => {
      const run = stream.toString(alphabet).slice(lead === 0 ? 0 : lead + 1, end);
      if (run.length >= 4 && runs.indexOf(run) < 0) runs.push(run);
    });
  });
  return runs;
}

/**
 * Every form of the secrets a body or header could carry, as one pattern
 * (case-insensitive, so upper case and upper-case hex or %-escapes too): each
 * character as itself or escaped (characterPattern), the UTF-8 bytes in hex,
 * and base64 of them (standard and URL-safe, each alignment). Built once per
 * answer: a fraction of a millisecond. null when there is no secret.
 */
function secretPattern(secrets) {
  const alternatives = [];
  const characters = {};
  const character = (c) => {
    if (!characters[c]) characters[c] = characterPattern(c);
    return characters[c];
  };
  secrets.forEach((secret, i) => {
    // The firm's key comes twice (as written, %-decoded) and a third time as the query's APIKey.
    if (!secret || secrets.indexOf(secret) < i) return;
    alternatives.push(secret.split("").map(character).join(""));
    alternatives.push(Buffer.from(secret).toString("hex"));
    base64Runs(secret).forEach((run) => alternatives.push(escapeRegExp(run)));
  });
  return alternatives.length === 0 ? null : new RegExp(alternatives.join("|"), "gi");
}

/** The body with every form of a secret replaced by "[redacted]" (JSON stays JSON: no form holds a quote unless the key does). */
function redact(body, pattern) {
  if (!pattern || body === "") return body;
  return body.replace(pattern, "[redacted]");
}

/** Whether a header value holds a secret in any form. */
function holdsSecret(value, pattern) {
  return Boolean(pattern && value.search(pattern) >= 0);
}

/**
 * The body as text, or null when it is not UTF-8 text: bytes that are not
 * UTF-8 (what gzip, zlib, zstd and brotli streams are, whatever the
 * Content-Encoding said: gzip starts 1f 8b, zstd 28 b5 2f fd, neither of them
 * UTF-8), or control characters other than tab, line feed and carriage return
 * (UTF-16's and UTF-32's NULs). Text in those forms would carry the key past a
 * search of the text.
 */
function utf8Text(bytes) {
  if (!bytes || bytes.length === 0) return "";
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
  return /[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(text) ? null : text;
}

function answer(r, status, headers, body) {
  Object.keys(headers).forEach((name) => {
    r.headersOut[name] = headers[name];
  });
  r.return(status, body);
}

function gatewayMessage(r, status, message) {
  answer(r, status, { "Content-Type": "application/json", "X-MD-No-Store": "1" }, `${JSON.stringify({ message })}\n`);
}

/** The keys in this request: the firm's (firm mode) or the analyst's (pass-through mode). */
function secretsOf(r) {
  const secrets = [r.variables.md_firm_key_text, decodeURIComponent(r.variables.md_firm_key || "")];
  const args = r.args;
  Object.keys(args).forEach((name) => {
    if (!/^apikey$/i.test(name)) return;
    const values = Array.isArray(args[name]) ? args[name] : [args[name]];
    values.forEach((v) => secrets.push(String(v)));
  });
  return secrets.filter((s) => s && s.length >= 4);
}

async function fetchService(r) {
  const maxBytes = Number(r.variables.md_max_body_bytes);
  const reply = await r.subrequest("/_md_service", { args: r.variables.args, method: "GET" });
  const type = reply.headersOut["Content-Type"];
  const typed = Boolean(type && CONTENT_TYPE.test(type));
  if ((reply.status === 502 || reply.status === 504) && !typed) {
    // nginx's own page: the service refused the connection (502) or did not answer in time (504).
    const what = reply.status === 504 ? "did not answer in time" : "could not be reached";
    return gatewayMessage(r, reply.status, `The market-data service ${what} (HTTP ${reply.status}).`);
  }
  if (reply.status >= 300 && reply.status < 400) {
    // Its Location may carry the query, key included: neither it nor the status goes on.
    return gatewayMessage(
      r,
      502,
      "The market-data service answered with a redirect, which the gateway does not follow: its upstream address needs updating.",
    );
  }
  const encoding = reply.headersOut["Content-Encoding"];
  if (encoding && encoding !== "identity")
    return gatewayMessage(r, 502, "The market-data service answered in an encoding the gateway does not read.");
  const bytes = reply.responseBuffer;
  if (bytes && bytes.length > maxBytes)
    return gatewayMessage(r, 502, "The market-data service's answer is larger than the gateway passes on.");
  const body = utf8Text(bytes);
  if (body === null)
    return gatewayMessage(r, 502, "The market-data service's answer is not UTF-8 text (compressed, UTF-16 or binary).");
  const pattern = secretPattern(secretsOf(r));
  // Of the allowed headers, one holding the key in any form is dropped (Content-Type falls back to JSON).
  const headers = {};
  headers["Content-Type"] = typed && !holdsSecret(type, pattern) ? type : "application/json";
  const retryAfter = reply.headersOut["Retry-After"];
  if (retryAfter && /^[0-9A-Za-z ,:]{1,40}$/.test(retryAfter) && !holdsSecret(retryAfter, pattern))
    headers["Retry-After"] = retryAfter;
  const cacheControl = reply.headersOut["Cache-Control"];
  if (cacheControl && /^[A-Za-z0-9=, -]{1,80}$/.test(cacheControl) && !holdsSecret(cacheControl, pattern))
    headers["Cache-Control"] = cacheControl;

  const clean = redact(body, pattern);
  let shareable = false;
  if (reply.status === 200 && clean.length > 0) {
    try {
      const json = JSON.parse(clean);
      shareable = json !== null && typeof json === "object" && !Array.isArray(json);
    } catch (e) {
      shareable = false;
    }
  }
  if (!shareable) headers["X-MD-No-Store"] = "1";
  answer(r, reply.status, headers, clean);
}

export default { fetchService, redact };
