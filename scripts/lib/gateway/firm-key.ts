/**
 * The firm's key: checked with the service at start (what /healthz reports)
 * and written as the key include nginx reads once.
 */
import { parseUpstream } from "./upstream";

/**
 * What the service said of the firm key when the gateway started: "accepted"
 * (a series request with it answered 2xx), "refused" (401 or 403),
 * "unchecked" (no answer either way: unreachable, 5xx, 429, a redirect; or a
 * configuration written for a system nginx, which nothing checks), "none"
 * (pass-through mode: the gateway holds no key). Never the key itself.
 */
export interface FirmKeyCheck {
  firmKey: "accepted" | "refused" | "unchecked" | "none";
  /** When the service was asked (ISO 8601, UTC); null when it was not. */
  checkedAt: string | null;
  /** Why it is refused or unchecked, in words ("the service answered HTTP 401"). */
  detail?: string;
}

/** The fields /healthz adds for the firm key: JSON members inside nginx's single-quoted `return` text. */
export function keyCheckJson(check: FirmKeyCheck | null): string {
  const fields: FirmKeyCheck = check ?? { firmKey: "unchecked", checkedAt: null, detail: "not checked" };
  // Characters nginx's quoted string or the JSON would take as syntax are dropped from the words.
  const detail = fields.detail?.replace(/['"\\$\n\r{}]/g, "");
  const json = JSON.stringify({
    firmKey: fields.firmKey,
    checkedAt: fields.checkedAt,
    ...(detail ? { firmKeyDetail: detail } : {}),
  });
  return json.slice(1, -1);
}

/** A settled day's date, UTC: what the key check asks the service for. */
function settledDay(now: Date): string {
  return new Date(now.getTime() - 10 * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Asks the service for one settled day of one series with the firm key, as the
 * gateway will (the key in APIKey; a redirect not followed, so the key goes
 * nowhere else). The answer's status says whether the key is accepted.
 */
export async function checkFirmKey(
  upstream: string,
  rawKey: string,
  options: { timeoutMs?: number; now?: Date } = {},
): Promise<FirmKeyCheck> {
  const base = parseUpstream(upstream);
  const now = options.now ?? new Date();
  const day = settledDay(now);
  const url =
    `${base.scheme}://${base.host}${base.path}/data/api/PRICE/?symbols=btc&startDate=${day}&endDate=${day}` +
    `&APIKey=${encodeURIComponent(rawKey.trim())}`;
  const checkedAt = now.toISOString();
  try {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { Accept: "application/json", "User-Agent": "market-data-gateway" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { firmKey: "accepted", checkedAt };
    if (response.status === 401 || response.status === 403)
      return { firmKey: "refused", checkedAt, detail: `the service answered HTTP ${response.status}` };
    if (response.status >= 300 && response.status < 400)
      return {
        firmKey: "unchecked",
        checkedAt,
        detail: `the service answered with a redirect (HTTP ${response.status}): its upstream address needs updating`,
      };
    return { firmKey: "unchecked", checkedAt, detail: `the service answered HTTP ${response.status}` };
  } catch (error) {
    // The reason only (a code or the timeout), never fetch's message, which could quote the address and its key.
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const reason =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `no answer within ${(options.timeoutMs ?? 8000) / 1000} s`
        : typeof cause?.code === "string"
          ? cause.code
          : "no connection";
    return { firmKey: "unchecked", checkedAt, detail: `the service could not be reached (${reason})` };
  }
}

/** A key file's content as nginx variables: the query form and, for redaction, the text form. */
export function keyInclude(rawKey: string): string {
  const key = rawKey.trim();
  if (!key) throw new Error("The key file is empty.");
  if (/\s/.test(key) || [...key].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new Error("The key file holds more than one word (spaces or control characters inside the key).");
  if (key.length > 1024) throw new Error("The key file holds more than 1,024 characters: is it the key?");
  const encoded = encodeURIComponent(key);
  // The text form is used only to blank echoes of the key in bodies; it must be safe inside "…".
  const text = /["\\$]/.test(key) ? encoded : key;
  return [
    "# The firm's market-data API key (written by npm run gateway; deleted once nginx has read it).",
    `set $md_firm_key "${encoded}";`,
    `set $md_firm_key_text "${text}";`,
    "",
  ].join("\n");
}
