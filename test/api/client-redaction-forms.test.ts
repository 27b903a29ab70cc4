/**
 * A hostile gateway (or service) quotes the credential back, not as sent but
 * in pieces or encoded: the access token's signature, payload or header
 * segment, the token in base64 or base64url (also inside a longer encoded
 * text, at any alignment), the API key the same ways. None of it reaches a
 * cell's message, an error or a log line (errors.ts `redact`, request-auth.ts
 * `withoutToken`). A table over bodies × where they come back (an error, a
 * series answer's message).
 */
import { createClient } from "../../src/api/client";
import type { MarketDataError } from "../../src/api/errors";
import type { FetchLike } from "../../src/api/http/transport";
import type { ClientSettings } from "../../src/api/types";
import { tokenFor } from "../support/credential-gateway";

const TOKEN = tokenFor({ iss: "https://idp.firm.example", sub: "ada", aud: "md", exp: 2_000_000_000 });
const [HEADER, PAYLOAD, SIGNATURE] = TOKEN.split(".") as [string, string, string];
const KEY = "md-analyst-key-7Qx9";
const b64 = (text: string) => Buffer.from(text).toString("base64");
const b64url = (text: string) => Buffer.from(text).toString("base64url");

const signedIn: ClientSettings = {
  apiKey: "",
  baseUrl: "https://gateway.example.com/api",
  keyManagedByGateway: true,
  signedInUsersOnly: true,
};
const ownKey: ClientSettings = { apiKey: KEY, baseUrl: "https://service.example.com" };

type Quote = [what: string, quoted: string];

const TOKEN_QUOTES: Quote[] = [
  ["the signature segment", SIGNATURE],
  ["the payload segment", PAYLOAD],
  ["the header segment", HEADER],
  ["the token in base64", b64(TOKEN)],
  ["the token in base64url", b64url(TOKEN)],
  ["the Authorization header in base64 (the token one byte in)", b64(`Bearer ${TOKEN}`)],
  ["the token in base64 two bytes in", b64(`=:${TOKEN}`)],
];
const KEY_QUOTES: Quote[] = [
  ["the key in base64", b64(KEY)],
  ["the key in base64url", b64url(KEY)],
  ["the query in base64 (the key seven bytes in)", b64(`APIKey=${KEY}`)],
  ["the key in base64 after one byte", b64(`&${KEY}&`)],
];

/** A gateway or service answering every request with `answer(quoted)`. */
function client(settings: ClientSettings, answer: () => Response, logs: string[]) {
  const fetch: FetchLike = async () => answer();
  return createClient({
    settings: async () => settings,
    accessToken: async () => TOKEN,
    fetch,
    retries: 0,
    logger: (line) => logs.push(line),
  });
}

const REQ = { symbol: "eth", metric: "PRICE", start: "2024-06-01", end: "2024-06-10" };

/** What the person sees of one call: the error's message, or the series answer's message. */
async function shown(settings: ClientSettings, answer: () => Response, logs: string[]): Promise<string> {
  try {
    const result = await client(settings, answer, logs).getSeries(REQ);
    return result.kind === "message" ? result.message : JSON.stringify(result);
  } catch (error) {
    return `${(error as MarketDataError).message}\n${String(error)}`;
  }
}

const asError = (quoted: string) => () =>
  new Response(JSON.stringify({ error: { message: `rejected credential ${quoted} here` } }), { status: 400 });
const asSeriesMessage = (quoted: string) => () =>
  new Response(JSON.stringify({ data: { symbols: { eth: { PRICE: `no data for ${quoted} here` } } } }), {
    status: 200,
  });

describe.each([
  ["a signed-in user's token", signedIn, TOKEN_QUOTES],
  ["a pass-through API key", ownKey, KEY_QUOTES],
] as const)("%s quoted in pieces or encoded never reaches a cell, an error or a log", (_, settings, quotes) => {
  it.each(
    quotes.flatMap(([what, quoted]) => [
      [`${what}, in an error body`, quoted, asError(quoted)],
      [`${what}, in a series answer's message`, quoted, asSeriesMessage(quoted)],
    ]),
  )("%s", async (_what, quoted, answer) => {
    const logs: string[] = [];
    const text = await shown(settings, answer, logs);
    expect(text).toContain(" here");
    expect(text).not.toContain(quoted);
    expect(text).toContain("***");
    for (const line of logs) expect(line).not.toContain(quoted);
  });
});

describe("what is left alone", () => {
  it("a short word that happens to be inside a segment or an encoding stays", async () => {
    const logs: string[] = [];
    const text = await shown(signedIn, asError("eyJ is how JSON starts in base64, and so is ey"), logs);
    expect(text).toContain("eyJ is how JSON starts in base64, and so is ey");
  });
});
