/*
 * The gateway's service tier, run by nginx's own module (njs, Debian's
 * libnginx-mod-http-js; written for njs 0.7.9, Debian 12's). njs is not Node:
 * no classes, no destructuring, no optional chaining; a fresh VM per request.
 *
 * fetchService       (the service tier, /_md_fetch/, service-tier.conf.template):
 *   asks the service, then hands nginx's cache only what may be shared —
 *   allowlisted headers, a body with no key in it, and "do not store" unless
 *   the body is a complete JSON object within the size cap. The variables it
 *   reads are declared in variables.json.
 */
/* eslint-disable @typescript-eslint/no-unused-vars -- njs 0.7.9 has no "catch {" without a binding */

// ------------------------------------------------------------------ the service tier

/** Headers of the service's answer that reach nginx's cache and browsers; nothing else does. */
const CONTENT_TYPE = /^(?:application\/json|text\/plain)(?:; *charset=[A-Za-z0-9_-]+)?$/i;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Every form of a secret that could stand for it in a body: as written, %-encoded either case. */
function secretForms(secrets) {
  const forms = [];
  secrets.forEach((secret) => {
    if (!secret) return;
    const encoded = encodeURIComponent(secret);
    [secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())].forEach((form) => {
      if (forms.indexOf(form) < 0) forms.push(form);
    });
  });
  return forms;
}

function redactText(text, forms) {
  let out = text;
  forms.forEach((form) => {
    out = out.split(form).join("[redacted]");
  });
  return out;
}

/**
 * The body with every secret replaced. A JSON body is read, so `\/` and
 * `\uXXXX` escapes are decoded before looking, and written back only when a
 * secret was found; any other body is searched for each character either as
 * written or as a JSON escape.
 */
function redact(body, forms) {
  if (forms.length === 0 || body === "") return body;
  let json;
  try {
    json = JSON.parse(body);
  } catch (e) {
    json = undefined;
  }
  if (json !== undefined) {
    let found = false;
    const clean = (value) => {
      if (typeof value === "string") {
        const out = redactText(value, forms);
        if (out !== value) found = true;
        return out;
      }
      if (Array.isArray(value)) return value.map(clean);
      if (value && typeof value === "object") {
        const copy = {};
        Object.keys(value).forEach((k) => {
          copy[clean(k)] = clean(value[k]);
        });
        return copy;
      }
      return value;
    };
    const cleaned = clean(json);
    return found ? JSON.stringify(cleaned) : body;
  }
  let out = body;
  forms.forEach((form) => {
    const pattern = form
      .split("")
      .map((c) => {
        const hex = `000${c.charCodeAt(0).toString(16)}`.slice(-4);
        return `(?:${escapeRegExp(c)}${c === "/" ? "|\\\\/" : ""}|\\\\u${hex.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)})`;
      })
      .join("");
    out = out.replace(new RegExp(pattern, "g"), "[redacted]");
  });
  return out;
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
  const body = reply.responseText || "";
  if (body.length > maxBytes)
    return gatewayMessage(r, 502, "The market-data service's answer is larger than the gateway passes on.");
  const headers = {};
  headers["Content-Type"] = typed ? type : "application/json";
  const retryAfter = reply.headersOut["Retry-After"];
  if (retryAfter && /^[0-9A-Za-z ,:]{1,40}$/.test(retryAfter)) headers["Retry-After"] = retryAfter;
  const cacheControl = reply.headersOut["Cache-Control"];
  if (cacheControl && /^[A-Za-z0-9=, -]{1,80}$/.test(cacheControl)) headers["Cache-Control"] = cacheControl;

  const clean = redact(body, secretForms(secretsOf(r)));
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
