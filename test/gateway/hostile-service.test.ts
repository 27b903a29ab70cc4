/**
 * The team gateway against a service that leaks the firm's key or varies its
 * answers (sandbox/hostile.ts's switches), and against clients that probe it:
 * nothing of the key reaches a browser or the cache directory (in headers,
 * in any case or text encoding, or inside a body that is not UTF-8 text,
 * which is refused), one analyst's headers cannot poison the shared cache,
 * only complete JSON answers within the size cap are cached, and only the
 * service's endpoints, for the gateway's own host names, are forwarded.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { ENCODED_KEY_FORMS, type EncodedKeyForm, KEY_HEADERS } from "../../sandbox/encoded-key";
import { jsonEscapedKey, NOT_HOSTILE } from "../../sandbox/hostile";
import type { HostileOptions } from "../../sandbox/server";
import { describeGateway, filesContaining, filesUnder, useGatewayRig, type GatewayRig } from "../support/gateway";

let rig: GatewayRig;
let day = 0;

/** A series URL no other test asks for, so each case starts with a cold cache entry. */
function freshSeries(): string {
  day++;
  const d = String(day).padStart(2, "0");
  return `/api/data/api/PRICE/?symbols=eth&startDate=2023-01-${d}&endDate=2023-01-${d}`;
}

async function get(pathAndQuery: string, headers: Record<string, string> = {}, on = rig) {
  const response = await fetch(`${on.gateway.url}${pathAndQuery}`, { headers });
  const body = await response.text();
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  return { status: response.status, headers: response.headers, headerText, body };
}

/** Every form of the key a leak could take. */
function keyForms(key: string): string[] {
  return [key, encodeURIComponent(key), jsonEscapedKey(key), key.replace(/\//g, "\\/")];
}

function leaks(text: string): string[] {
  return keyForms(rig.key).filter((form) => text.includes(form));
}

async function withHostile<T>(options: Partial<HostileOptions>, run: () => Promise<T>, on = rig): Promise<T> {
  on.sandbox.setHostile(options);
  try {
    return await run();
  } finally {
    on.sandbox.setHostile(NOT_HOSTILE);
  }
}

/** A request with a Host header of our choosing (fetch does not let one set Host). */
function getWithHost(pathAndQuery: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(rig.gateway.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: pathAndQuery, headers: { Host: host } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describeGateway("gateway against a leaking service and probing clients (nginx + njs + sandbox)", () => {
  // A key with "/" and "+", so JSON's \/ escape and URL encoding both change how it looks.
  rig = useGatewayRig({ firm: true, key: `md-firm/${Date.now()}+k3y` });

  it.each<[string, Partial<HostileOptions>]>([
    ["a Location carrying the key on a 201", { locationKey: true }],
    ["an echo header (x-request-url) carrying the key", { echoRequestUrl: true }],
    ["a gzip body quoting the key, whatever Accept-Encoding said", { gzipBody: true, echoKey: true }],
    ["the key written with JSON \\/ and \\uXXXX escapes", { escapedKey: true }],
  ])("%s: no form of the key reaches the browser or the cache", async (_label, options) => {
    const url = freshSeries();
    const first = await withHostile(options, () => get(url, { "Accept-Encoding": "gzip" }));
    expect(leaks(first.headerText)).toEqual([]);
    expect(leaks(first.body)).toEqual([]);
    expect(first.headers.get("location")).toBeNull();
    expect(first.headers.get("x-request-url")).toBeNull();
    expect(first.status).toBeLessThan(300);
    expect(JSON.parse(first.body)).toHaveProperty("data");
    expect(filesContaining([rig.gateway.cacheDir, rig.gateway.stateDir], rig.key)).toEqual([]);
    for (const form of keyForms(rig.key)) {
      const inCache = filesUnder(rig.gateway.cacheDir).filter((file) => readFileSync(file).includes(Buffer.from(form)));
      expect([form, inCache]).toEqual([form, []]);
    }
  });

  it("the echoed key is redacted in the body itself, and that cleaned answer is what the cache serves next", async () => {
    const url = freshSeries();
    const first = await withHostile({ escapedKey: true }, () => get(url));
    expect(JSON.parse(first.body).note).toBe("requested with [redacted]");
    const second = await get(url);
    expect(second.headers.get("x-cache-status")).toBe("HIT");
    expect(second.body).toBe(first.body);
  });

  it("two analysts with different variant headers get the same cached answer, and none of their headers reached the service", async () => {
    const url = freshSeries();
    const reflect = ["x-forwarded-host", "x-forwarded-for", "x-original-url", "accept", "cookie", "authorization"];
    const first = await withHostile({ reflectHeaders: reflect }, () =>
      get(url, {
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-For": "10.6.6.6",
        "X-Original-URL": "/api/account/keys/",
        Accept: "text/html",
        Cookie: "session=analyst-a",
        Authorization: "Basic YTpi",
      }),
    );
    const reflected = JSON.parse(first.body).reflected as Record<string, string>;
    // Only what the gateway itself sends: the service could not vary on anything of the analyst's.
    expect(reflected).toEqual({ accept: "application/json" });
    const second = await get(url, { Accept: "application/json" });
    expect(second.headers.get("x-cache-status")).toBe("HIT");
    expect(second.body).toBe(first.body);
  });

  it("an empty chunked 200 is passed on but never cached: the next request goes to the service again", async () => {
    const url = freshSeries();
    await withHostile({ chunkedEmpty: true }, async () => {
      const firstAsked = rig.sandbox.nextRequest((e) => e.quirk === "chunked-empty", "empty chunked answer");
      const first = await get(url);
      await firstAsked;
      expect([first.status, first.body]).toEqual([200, ""]);
      const againAsked = rig.sandbox.nextRequest((e) => e.quirk === "chunked-empty", "second empty chunked answer");
      const again = await get(url);
      expect(await againAsked).toMatchObject({ path: "/data/api/PRICE/", status: 200 });
      expect([again.status, again.body, again.headers.get("x-cache-status")]).toEqual([200, "", "MISS"]);
    });
    const filled = await get(url);
    expect(filled.headers.get("x-cache-status")).toBe("MISS");
    expect(JSON.parse(filled.body)).toHaveProperty("data");
  });

  it("a 64 MB 200 is refused (502) and never cached: the next request goes to the service again", async () => {
    const url = freshSeries();
    await withHostile({ hugeBodyBytes: 64 * 1024 * 1024 }, async () => {
      const asked = rig.sandbox.nextRequest((e) => e.quirk === "huge-body", "64 MB answer", 30_000);
      const first = await get(url);
      await asked;
      expect(first.status).toBe(502);
      expect(JSON.parse(first.body).message).toMatch(/larger than the gateway passes on/);
      const askedAgain = rig.sandbox.nextRequest((e) => e.quirk === "huge-body", "second 64 MB answer", 30_000);
      const again = await get(url);
      await askedAgain;
      expect(again.status).toBe(502);
    });
    const largest = Math.max(0, ...filesUnder(rig.gateway.cacheDir).map((f) => statSync(f).size));
    expect(largest).toBeLessThan(17 * 1024 * 1024);
  }, 60_000);

  // Sent as written: fetch's URL parser resolves ".." and "%2e%2e" before sending, so the gateway
  // would never see them. Resolved, the encoded traversal lands back under /api/ (/api/account/keys/).
  it.each([
    "/api/account/keys/",
    "/api/",
    "/api/data/api/",
    "/api/insights/",
    "/api/asset/symbols/extra/",
    "/api/data/api/PRICE/../../account/keys/",
    "/api/data/api/%2e%2e/%2e%2e/account/keys/",
  ])("%s is answered by the gateway (404) without a request to the service", async (path) => {
    const before = rig.sandbox.stats().requests;
    const refused = await getWithHost(path, new URL(rig.gateway.url).host);
    expect(refused.status).toBe(404);
    // The next request the service sees is the next legitimate one, not the refused one.
    const next = rig.sandbox.nextRequest(() => true, "the next request");
    await get("/api/supported-metrics/");
    expect((await next).path).toBe("/supported-metrics/");
    expect(rig.sandbox.stats().requests).toBeLessThanOrEqual(before + 1);
  });

  it("a request for an unknown Host name (a DNS-rebinding page) is refused (421) without a request to the service", async () => {
    const before = rig.sandbox.stats().requests;
    const evil = await getWithHost("/api/asset/symbols/", "evil.example:80");
    expect(evil.status).toBe(421);
    expect((await getWithHost("/taskpane.html", "evil.example")).status).toBe(421);
    expect(rig.sandbox.stats().requests).toBe(before);
    expect((await getWithHost("/api/_gateway", `localhost:${rig.gateway.port}`)).status).toBe(200);
  });
});

/**
 * The key in a form a search for the text misses: base64 (standard and
 * URL-safe) starting at any byte of the encoded stream, hex, another case,
 * HTML character references, double %-encoding, UTF-16. Base64 leaves the
 * key's first and last few bits mixed with its neighbours', so what is
 * searched for is the run of characters the key's bytes alone decide.
 */
function encodedNeedles(key: string): { caseless: string[]; exact: string[] } {
  const bytes = Buffer.from(key);
  const each = (write: (byte: number) => string) => [...bytes].map(write).join("");
  const base64 = (["base64", "base64url"] as const).flatMap((alphabet) =>
    [0, 1, 2].map((lead) => {
      const stream = Buffer.concat([Buffer.alloc(lead), bytes]);
      return stream.toString(alphabet).slice(lead === 0 ? 0 : lead + 1, Math.floor((stream.length * 8) / 6));
    }),
  );
  return {
    caseless: [
      key,
      encodeURIComponent(key),
      bytes.toString("hex"),
      each((b) => `&#${b};`),
      each((b) => `&#x${b.toString(16)};`),
      each((b) => `%25${b.toString(16).padStart(2, "0")}`),
    ].map((form) => form.toLowerCase()),
    exact: [
      ...base64,
      Buffer.from(key, "utf16le").toString("latin1"),
      Buffer.from(key, "utf16le").swap16().toString("latin1"),
    ],
  };
}

/** The needles of `encodedNeedles` found in `text` (bytes read as latin1). */
function encodedLeaks(key: string, text: string): string[] {
  const { caseless, exact } = encodedNeedles(key);
  const lower = text.toLowerCase();
  return [...caseless.filter((n) => lower.includes(n)), ...exact.filter((n) => text.includes(n))];
}

/** Each cache file holding the key in any encoded form, with the forms found. */
function encodedLeaksInCache(on: GatewayRig): string[][] {
  return filesUnder(on.gateway.cacheDir)
    .map((file) => [file, ...encodedLeaks(on.key, readFileSync(file).toString("latin1"))])
    .filter((found) => found.length > 1);
}

describeGateway("gateway against a service echoing a letters-and-digits key in headers and encoded bodies", () => {
  // The project's own key form without its dashes (so it even fits Retry-After's pattern), in mixed case.
  const alnum = useGatewayRig(() => ({ firm: true, key: `MdFirm${randomUUID().replace(/-/g, "")}` }));

  it.each(KEY_HEADERS)("the key echoed in %s reaches neither the browser nor the cache", async (header) => {
    const url = freshSeries();
    const first = await withHostile({ keyInHeaders: [header] }, () => get(url, {}, alnum), alnum);
    expect(encodedLeaks(alnum.key, first.headerText)).toEqual([]);
    expect(first.status).toBe(200);
    // Content-Type falls back to JSON; the service's own (charset=utf-8) passes when it holds no key.
    expect(first.headers.get("content-type")).toMatch(/^application\/json(?:; charset=utf-8)?$/);
    if (header !== "Content-Type") expect(first.headers.get(header)).toBeNull();
    expect(JSON.parse(first.body)).toHaveProperty("data");
    expect(encodedLeaksInCache(alnum)).toEqual([]);
  });

  const refused: EncodedKeyForm[] = ["utf-16", "gzip-as-identity", "deflate-as-identity", "brotli-as-identity"];
  const redacted = ENCODED_KEY_FORMS.filter((form) => !refused.includes(form));
  it.each(redacted)(
    "the key echoed as %s in a JSON body is redacted before the browser and the cache",
    async (form) => {
      const url = freshSeries();
      const first = await withHostile({ encodedKey: form }, () => get(url, {}, alnum), alnum);
      expect(encodedLeaks(alnum.key, first.body)).toEqual([]);
      expect(encodedLeaks(alnum.key, first.headerText)).toEqual([]);
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body).note).toMatch(/\[redacted\]/);
      expect(encodedLeaksInCache(alnum)).toEqual([]);
      const second = await get(url, {}, alnum);
      expect([second.headers.get("x-cache-status"), second.body]).toEqual(["HIT", first.body]);
    },
  );

  it.each(refused)(
    "a body sent as %s (not UTF-8 text) is refused (502) and never cached: the next request goes to the service again",
    async (form) => {
      const url = freshSeries();
      await withHostile(
        { encodedKey: form },
        async () => {
          for (const attempt of ["first", "second"]) {
            const asked = alnum.sandbox.nextRequest((e) => e.quirk === "encoded-key", `${attempt} ${form} answer`);
            const answer = await get(url, {}, alnum);
            await asked;
            expect([attempt, answer.status]).toEqual([attempt, 502]);
            expect(encodedLeaks(alnum.key, answer.body)).toEqual([]);
            expect(JSON.parse(answer.body).message).toMatch(/not UTF-8 text/);
          }
        },
        alnum,
      );
      expect(encodedLeaksInCache(alnum)).toEqual([]);
    },
  );
});
