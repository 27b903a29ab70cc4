/*
 * The gateway's sign-in check, run by nginx's own module (njs, Debian's
 * libnginx-mod-http-js; written for njs 0.7.9, Debian 12's). njs is not Node:
 * no classes, no destructuring, no optional chaining; a fresh VM per request,
 * so nothing is kept between requests here: nginx's cache keeps the verdicts
 * and the identity provider's keys instead (sign-in-tier.conf.template).
 *
 * tokenHash          (js_set $md_token_hash): the sign-in cache's key, a hash
 *   of the Authorization header, so no token reaches a cache file.
 * verifyAccessToken  (the tier's /_md_verify, behind the main server's
 *   auth_request /_md_auth): the OpenID Connect access token of a /api/
 *   request, checked against the issuer's published keys and the identity
 *   settings that location sets ($md_oidc_rules, declared in
 *   variables.json: base64 of a JSON object, oidcRules in
 *   scripts/lib/gateway/identity-settings.ts); says with
 *   X-Accel-Expires how long the verdict may be kept.
 * checkKeySet        (the tier's /_md_jwks_check): the provider's key set,
 *   passed on to nginx's cache only if it parses.
 */
/* global Buffer, crypto */
/* eslint-disable @typescript-eslint/no-unused-vars -- njs 0.7.9 has no "catch {" without a binding */
import nodeCrypto from "crypto";

// ------------------------------------------------------------------ access tokens

/*
 * Accepted signature algorithms. Never "none", never HMAC (HS256 signed with
 * the public key as a shared secret is the classic forgery). njs 0.7.9 imports
 * public keys as "spki" only ("jwk" is 0.7.10+), so each JWK is turned into an
 * SPKI DER structure below.
 */
const ALGORITHMS = {
  RS256: { kty: "RSA", hash: "SHA-256" },
  RS384: { kty: "RSA", hash: "SHA-384" },
  RS512: { kty: "RSA", hash: "SHA-512" },
  ES256: { kty: "EC", hash: "SHA-256", crv: "P-256", size: 32 },
  ES384: { kty: "EC", hash: "SHA-384", crv: "P-384", size: 48 },
};

const CURVE_OIDS = { "P-256": "06082a8648ce3d030107", "P-384": "06052b81040022" };
const RSA_ALGORITHM_ID = "300d06092a864886f70d0101010500";
const EC_PUBLIC_KEY_OID = "06072a8648ce3d0201";

function derLength(n) {
  if (n < 0x80) return Buffer.from([n]);
  const bytes = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n = n >> 8;
  }
  return Buffer.from([0x80 | bytes.length].concat(bytes));
}

function der(tag, content) {
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
}

function derInteger(bytes) {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  let value = bytes.slice(i);
  if (value[0] & 0x80) value = Buffer.concat([Buffer.from([0]), value]);
  return der(0x02, value);
}

function base64url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  return Buffer.from(text, "base64url");
}

/** A JWK public key as SubjectPublicKeyInfo DER (RFC 5280), the form njs 0.7.9 imports. */
function spkiOf(jwk) {
  if (jwk.kty === "RSA") {
    const rsaKey = der(0x30, Buffer.concat([derInteger(base64url(jwk.n)), derInteger(base64url(jwk.e))]));
    const bits = der(0x03, Buffer.concat([Buffer.from([0]), rsaKey]));
    return der(0x30, Buffer.concat([Buffer.from(RSA_ALGORITHM_ID, "hex"), bits]));
  }
  const curve = CURVE_OIDS[jwk.crv];
  if (jwk.kty !== "EC" || !curve) throw new Error("unsupported key type");
  const algorithm = der(0x30, Buffer.from(EC_PUBLIC_KEY_OID + curve, "hex"));
  const point = Buffer.concat([Buffer.from([0, 4]), base64url(jwk.x), base64url(jwk.y)]);
  return der(0x30, Buffer.concat([algorithm, der(0x03, point)]));
}

function importParams(spec) {
  return spec.kty === "RSA" ? { name: "RSASSA-PKCS1-v1_5", hash: spec.hash } : { name: "ECDSA", namedCurve: spec.crv };
}

function verifyParams(spec) {
  return spec.kty === "RSA" ? { name: "RSASSA-PKCS1-v1_5" } : { name: "ECDSA", hash: spec.hash };
}

/** How long a refusal is kept by the sign-in cache: a retry with the same token is answered from it meanwhile. */
const REFUSAL_SECONDS = 5;

function refuse(r, reason) {
  // auth_request answers the client 401; the description goes in WWW-Authenticate (see gateway.conf.template).
  r.headersOut["X-MD-Auth-Error"] = reason;
  r.headersOut["X-Accel-Expires"] = String(REFUSAL_SECONDS);
  r.return(401);
}

/** The sign-in cache's key: never the token itself (nginx writes the key into the cache file). */
function tokenHash(r) {
  const authorization = r.variables.http_authorization || "";
  return authorization ? nodeCrypto.createHash("sha256").update(authorization).digest("hex") : "none";
}

// ------------------------------------------------------------------ the issuer's keys

/** The signing keys of a key set's JSON text; throws unless it is a set with at least one usable key. */
function signingKeys(text) {
  const set = JSON.parse(text);
  if (!set || typeof set !== "object" || !Array.isArray(set.keys)) throw new Error("not a key set");
  const keys = set.keys.filter(
    (k) => k && typeof k === "object" && typeof k.kid === "string" && (k.use === undefined || k.use === "sig"),
  );
  const usable = keys.filter((k) => {
    try {
      spkiOf(k);
      return true;
    } catch (e) {
      return false;
    }
  });
  if (usable.length === 0) throw new Error("no usable signing key");
  return usable;
}

/**
 * The provider's key set for nginx's cache (/_md_jwks_check): a set that
 * parses, with when it was fetched, kept for its lifetime; when the provider
 * fails or sends something else, the last good set while it is younger than
 * its lifetime plus the grace (kept briefly, so it is asked again soon), else
 * 502 "no-store" (never taken as the set).
 */
async function checkKeySet(r) {
  const v = r.variables;
  const lifetime = Number(v.md_jwks_seconds);
  const now = Math.floor(Date.now() / 1000);
  r.headersOut["Content-Type"] = "application/json";
  const reply = await r.subrequest("/_md_jwks_fetch", { method: "GET" });
  try {
    if (reply.status !== 200) throw new Error(`HTTP ${reply.status}`);
    const keys = signingKeys(reply.responseText);
    r.headersOut["Cache-Control"] = `max-age=${lifetime}`;
    r.return(200, JSON.stringify({ fetchedAt: now, keys }));
    return;
  } catch (e) {
    // The last good set, below.
  }
  const last = await r.subrequest("/_md_jwks_last", { method: "GET" });
  try {
    if (last.status !== 200) throw new Error(`HTTP ${last.status}`);
    const set = JSON.parse(last.responseText);
    const left = set.fetchedAt + lifetime + Number(v.md_jwks_grace_seconds) - now;
    if (typeof set.fetchedAt !== "number" || left <= 0) throw new Error("too old");
    signingKeys(last.responseText);
    r.headersOut["Cache-Control"] = `max-age=${Math.min(left, 10)}`;
    r.return(200, last.responseText);
  } catch (e) {
    r.headersOut["Cache-Control"] = "no-store";
    r.return(502, "{}");
  }
}

/** The issuer's keys for `kid`: nginx's cache first; on an unknown kid once more from the issuer (rate-bounded there). */
async function keysFor(r, kid, refresh) {
  const reply = await r.subrequest("/_md_jwks", { method: "GET", args: refresh ? "refresh=1" : "" });
  if (reply.status !== 200) throw new Error(`the issuer's keys answered HTTP ${reply.status}`);
  return JSON.parse(reply.responseText).keys.filter((k) => k.kid === kid);
}

// ------------------------------------------------------------------ claims

function audienceMatches(aud, expected) {
  return Array.isArray(aud) ? aud.indexOf(expected) >= 0 : aud === expected;
}

/** What names the user in the access log and keys the rate limit: printable, short, no spaces. */
function label(value) {
  return typeof value === "string" ? value.replace(/[^A-Za-z0-9@._:+-]/g, "_").slice(0, 128) : "";
}

/** The identity settings tokens are checked against (oidcRules in scripts/lib/gateway/identity-settings.ts). */
function oidcRules(r) {
  return JSON.parse(Buffer.from(r.variables.md_oidc_rules, "base64").toString());
}

function claimsProblem(r, claims) {
  const rules = oidcRules(r);
  const now = Date.now() / 1000;
  const skew = Number(rules.clockSkew);
  if (typeof claims.exp !== "number") return "the token has no expiry";
  if (claims.exp + skew < now) return "the token has expired";
  if (typeof claims.nbf === "number" && claims.nbf - skew > now) return "the token is not valid yet";
  if (claims.iss !== rules.issuer) return "the token is from another issuer";
  if (!audienceMatches(claims.aud, rules.audience)) return "the token is for another audience";
  if (rules.tenant && claims.tid !== rules.tenant) return "the token is from another tenant";
  const group = rules.group;
  if (group) {
    const groups = Array.isArray(claims.groups) ? claims.groups : [];
    const roles = Array.isArray(claims.roles) ? claims.roles : [];
    if (groups.indexOf(group) < 0 && roles.indexOf(group) < 0) return "the user lacks the required group or role";
  }
  const azp = rules.authorizedParty;
  if (azp && claims.azp !== azp && claims.appid !== azp) return "the token was issued to another application";
  const scopeProblem = scopesProblem(claims, rules.scopes);
  if (scopeProblem) return scopeProblem;
  if (!label(claims.oid) && !label(claims.sub)) return "the token names no user";
  return null;
}

/** A claim that is a space-separated string (Entra's scp, RFC 9068's scope) or a list (Okta's scp). */
function words(value) {
  if (typeof value === "string") return value.split(" ").filter((w) => w);
  return Array.isArray(value) ? value.filter((w) => typeof w === "string") : [];
}

/**
 * An access token for this gateway holds one of the scopes the add-in asks
 * for (as configured, or its last segment: Entra writes "access_as_user" for
 * api://<host>/<id>/access_as_user); with none configured but .default, some
 * scope. An ID token has none.
 */
function scopesProblem(claims, configured) {
  const held = words(claims.scp).concat(words(claims.scope));
  if (held.length === 0) return "the token is not an access token (it has no scope)";
  const wanted = words(configured);
  if (wanted.length === 0) return null;
  const names = wanted.concat(wanted.map((w) => w.slice(w.lastIndexOf("/") + 1)));
  if (!held.some((h) => names.indexOf(h) >= 0)) return "the token lacks the gateway's scope";
  return null;
}

/** The JOSE header's own refusals: the type of token and extensions the gateway does not know. */
function headerProblem(header) {
  if (header.typ !== undefined) {
    const typ = typeof header.typ === "string" ? header.typ.toLowerCase().replace(/^application\//, "") : "";
    if (typ !== "at+jwt" && typ !== "jwt") return "the token is not an access token (typ)";
  }
  // RFC 7515, 4.1.11: a recipient that does not understand a listed extension must refuse; this one knows none.
  if (header.crit !== undefined) return "the token has critical header parameters the gateway does not know";
  return null;
}

async function verifyAccessToken(r) {
  const authorization = r.headersIn.Authorization || "";
  // RFC 7235, 2.1: the scheme is case-insensitive.
  const match = /^bearer +([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/i.exec(authorization);
  if (!match) return refuse(r, authorization ? "the token is malformed" : "sign-in required");
  let header;
  let claims;
  try {
    header = JSON.parse(base64url(match[1]).toString());
    claims = JSON.parse(base64url(match[2]).toString());
  } catch (e) {
    return refuse(r, "the token is malformed");
  }
  if (!header || typeof header !== "object" || !claims || typeof claims !== "object")
    return refuse(r, "the token is malformed");
  const spec = Object.prototype.hasOwnProperty.call(ALGORITHMS, header.alg) ? ALGORITHMS[header.alg] : null;
  if (!spec) return refuse(r, "the token's algorithm is not accepted");
  if (typeof header.kid !== "string" || !header.kid) return refuse(r, "the token names no key");
  const problemInHeader = headerProblem(header);
  if (problemInHeader) return refuse(r, problemInHeader);

  let candidates;
  try {
    candidates = await keysFor(r, header.kid, false);
  } catch (e) {
    r.error(`identity provider keys unavailable: ${e.message}`);
    r.return(503);
    return;
  }
  if (candidates.length === 0) {
    try {
      candidates = await keysFor(r, header.kid, true);
    } catch (e) {
      // The provider cannot be asked again now: as far as the gateway knows, the kid is unknown.
      candidates = [];
    }
  }
  candidates = candidates.filter((k) => k.kty === spec.kty && (k.alg === undefined || k.alg === header.alg));
  if (candidates.length === 0) return refuse(r, "the token is signed with an unknown key");

  let signature = base64url(match[3]);
  if (spec.kty === "EC" && signature.length !== 2 * spec.size) return refuse(r, "the token's signature is invalid");
  const signed = Buffer.from(`${match[1]}.${match[2]}`);
  let valid;
  try {
    const key = await crypto.subtle.importKey("spki", spkiOf(candidates[0]), importParams(spec), false, ["verify"]);
    valid = await crypto.subtle.verify(verifyParams(spec), key, signature, signed);
  } catch (e) {
    valid = false;
  }
  if (!valid) return refuse(r, "the token's signature is invalid");

  const problem = claimsProblem(r, claims);
  if (problem) return refuse(r, problem);
  r.headersOut["X-MD-User"] = label(claims.oid) || label(claims.sub);
  r.headersOut["X-MD-User-Name"] = label(claims.preferred_username) || label(claims.upn) || "-";
  // The tenant for the audit trail: Entra's tid, else the issuer (another provider has one tenant per issuer).
  r.headersOut["X-MD-User-Tenant"] = label(claims.tid) || label(claims.iss) || "-";
  // Kept no longer than the token is valid, and at most $md_signed_in_seconds (a removed key stops within it).
  const keep = Math.min(Math.floor(claims.exp - Date.now() / 1000), Number(r.variables.md_signed_in_seconds));
  r.headersOut["X-Accel-Expires"] = String(Math.max(keep, 0));
  r.return(204);
}

export default { verifyAccessToken, checkKeySet, tokenHash, spkiOf };
