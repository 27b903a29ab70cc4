/**
 * Stored data follows the credential (DESIGN "Persistent cache", "Whose
 * stored data"): the store and the memory cache are kept apart by who asks —
 * the signed-in account, or the pass-through key — and a stored answer is
 * served only once the gateway or the service has accepted that account or
 * key in this session. Each person is a runtime as the add-in makes it (the
 * credentials of src/office/credentials.ts over a settings store, the client
 * over a store on IndexedDB); one IndexedDB factory is one computer. Real HTTP
 * to the sandbox through a gateway stand-in that refuses whom the test says
 * (test/support/credential-gateway.ts), on a fake clock.
 */
import { createHash } from "node:crypto";
import { createClient } from "../../src/api/client";
import { CLIENT_DEFAULTS } from "../../src/api/client-options";
import { AuthError, type MarketDataError, NotCachedError } from "../../src/api/errors";
import { ACCEPTANCE_VERDICT_MS } from "../../src/api/store/acceptance";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import type { SeriesResult } from "../../src/core/domain";
import { addDays } from "../../src/core/calendar";
import { Credentials } from "../../src/office/credentials";
import { SettingsStore, type KeyValueStorage } from "../../src/office/settings";
import { AccessTokens, type TokenProvider } from "../../src/office/sign-in/access-tokens";
import { tokenFor, useCredentialGateway } from "../support/credential-gateway";
import { freshIndexedDb } from "../support/fake-idb";
import { FakeClock } from "../support/fake-clock";
import { DEMO_API_KEY, useSandbox } from "../support/sandbox";
import { drive, points } from "../support/store-runtimes";
import { TEST_TODAY } from "../support/today";

const DAY = 86_400_000;
const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
/** Settled days only: the store answers all of it on reopening. */
const SETTLED = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-03-31" };
/** Up to today: its newest days are fetched again on reopening. */
const RECENT = { symbol: "btc", metric: "PRICE", start: addDays(TEST_TODAY, -90) };
const ISSUER = "https://idp.firm.example/realms/md";
const AUTH = { authority: ISSUER, clientId: "md-addin", scopes: ["md"] };
const ADA = { sub: "ada-sub", token: tokenFor({ iss: ISSUER, sub: "ada-sub", aud: "md-addin" }) };
const BOB = { sub: "bob-sub", token: tokenFor({ iss: ISSUER, sub: "bob-sub", aud: "md-addin" }) };
const OTHER_KEY = "md-other-analyst-key";

const sandbox = useSandbox({ today: addDays(TEST_TODAY, 30), insightFirstCallDelayMs: 0 });
const gateway = useCredentialGateway(sandbox);
beforeEach(() => {
  sandbox.reset();
  gateway.refused.clear();
  gateway.requests.length = 0;
  gateway.down = false;
  gateway.silent = false;
  gateway.release();
});

function memoryStorage(initial: Record<string, string>): KeyValueStorage {
  const data = new Map(Object.entries(initial));
  return {
    getItem: async (key) => data.get(key) ?? null,
    setItem: async (key, value) => void data.set(key, value),
    removeItem: async (key) => void data.delete(key),
  };
}

const opened: { flush(): Promise<void>; close(): void }[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) {
    await store.flush();
    store.close();
  }
});

/** Everything said to the person: log lines and error messages (checked for identities, keys and tokens). */
const said: string[] = [];
beforeEach(() => void (said.length = 0));

function providerOf(token: string): TokenProvider {
  return { acquireSilent: async () => ({ accessToken: token, expiresOn: Date.now() + 3_600_000 }) };
}

/**
 * One person's runtime on the computer `factory`: signed in with `token` to a firm gateway that asks for sign-in,
 * or with their own `key` passing through.
 */
function runtime(factory: IDBFactory, clock: FakeClock, as: { token: string } | { key: string }) {
  const signedIn = "token" in as;
  const storage = memoryStorage(
    signedIn ? { "md.baseUrl": gateway.url } : { "md.baseUrl": gateway.url, "md.apiKey": as.key },
  );
  const settings = new SettingsStore(storage, { apiKey: "", baseUrl: "" }, async () =>
    signedIn ? { keyMode: "firm", signIn: AUTH } : null,
  );
  const credentials = new Credentials(settings, new AccessTokens());
  const signIn = (token: string, name: string) => {
    credentials.use(providerOf(token));
    credentials.signInChanged({ status: "signed-in", user: { name, username: `${name}@firm.example` }, nested: false });
  };
  if (signedIn) signIn(as.token, "someone");
  const log = (line: string) => void said.push(line);
  const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1, log });
  opened.push(store);
  const client = createClient({
    credentials: credentials.forClient(),
    store,
    now: clock.now,
    timers: clock,
    logger: log,
  });
  const get = (req: typeof SETTLED | typeof RECENT): Promise<SeriesResult | MarketDataError> =>
    drive(
      clock,
      client.getSeries(req).catch((error: MarketDataError) => {
        said.push(error.message, String(error.stack));
        return error;
      }),
    );
  return { client, store, credentials, get, signIn };
}

/** `as` fills the settled window on a new computer (its store flushed): what they got, the computer, the clock. */
async function filled(as: { token: string } | { key: string }) {
  const computer = freshIndexedDb();
  const clock = new FakeClock(NOON);
  const first = runtime(computer, clock, as);
  const settled = points((await first.get(SETTLED)) as SeriesResult);
  await first.store.flush();
  return { computer, clock, first, settled };
}

function seriesRequests(): { who: string; status: number }[] {
  return gateway.requests.filter((r) => r.path.startsWith("/data/api/")).map(({ who, status }) => ({ who, status }));
}

/** Nothing said names who asked (the store's partition), the key or the token. */
function expectNothingSecretSaid(secrets: string[]): void {
  expect(said.length).toBeGreaterThan(0);
  const text = said.join("\n");
  for (const secret of secrets) expect(text).not.toContain(secret);
}

function expectRefused(answer: SeriesResult | MarketDataError, status: number): void {
  expect(answer).toBeInstanceOf(AuthError);
  expect((answer as AuthError).status).toBe(status);
}

describe("signed-in accounts on one computer", () => {
  it("account B, refused by the gateway (403), gets the refusal, not A's stored values", async () => {
    const { computer, clock, first: ada, settled } = await filled(ADA);
    expect(settled.length).toBeGreaterThan(50);

    gateway.refused.add(BOB.sub);
    const bob = runtime(computer, clock, BOB);
    expectRefused(await bob.get(SETTLED), 403);
    expect(seriesRequests().filter((r) => r.who === BOB.sub)).toEqual([{ who: BOB.sub, status: 403 }]);
    const who = [await ada.credentials.who(), await bob.credentials.who()];
    expect(who[0]).toMatch(/^user:[0-9a-f]{64}$/);
    expectNothingSecretSaid([ADA.token, BOB.token, ...who.map((w) => w!.slice(5))]);
  });

  it("in one session, A signs out and B signs in: B gets the refusal, not A's answers from memory", async () => {
    const clock = new FakeClock(NOON);
    const shared = runtime(freshIndexedDb(), clock, ADA);
    points((await shared.get(SETTLED)) as SeriesResult);
    gateway.refused.add(BOB.sub);
    shared.credentials.use(null);
    shared.credentials.signInChanged({ status: "signed-out" });
    shared.signIn(BOB.token, "bob");
    expectRefused(await shared.get(SETTLED), 403);
  });

  it("A, whose group was removed overnight, reopening gets the refusal, not the stored values", async () => {
    const { computer, clock } = await filled(ADA);

    clock.time += DAY;
    gateway.refused.add(ADA.sub);
    gateway.requests.length = 0;
    const reopened = runtime(computer, clock, ADA);
    expectRefused(await reopened.get(SETTLED), 403);
    expect(seriesRequests()).toEqual([{ who: ADA.sub, status: 403 }]);
  });

  it("A reopening the next day reads the store: no request beyond the one that shows the gateway accepts A", async () => {
    const computer = freshIndexedDb();
    const clock = new FakeClock(NOON);
    const ada = runtime(computer, clock, ADA);
    const settled = points((await ada.get(SETTLED)) as SeriesResult);
    const recent = points((await ada.get(RECENT)) as SeriesResult);
    await ada.store.flush();

    // A workbook whose cells fetch their newest days anyway: that fetch's answer is the acceptance, nothing more.
    clock.time += DAY;
    gateway.requests.length = 0;
    const withRecent = runtime(computer, clock, ADA);
    const [again, newer] = await Promise.all([withRecent.get(SETTLED), withRecent.get(RECENT)]);
    expect(points(again as SeriesResult)).toEqual(settled);
    expect(points(newer as SeriesResult).slice(0, recent.length - 2)).toEqual(recent.slice(0, recent.length - 2));
    expect(seriesRequests()).toEqual([{ who: ADA.sub, status: 200 }]);
    expect(withRecent.client.storage().hits).toBeGreaterThanOrEqual(1);

    // A workbook of settled days only: one cheap request, then everything from the store.
    gateway.requests.length = 0;
    const settledOnly = runtime(computer, clock, ADA);
    expect(points((await settledOnly.get(SETTLED)) as SeriesResult)).toEqual(settled);
    expect(seriesRequests()).toEqual([{ who: ADA.sub, status: 200 }]);
    expect(settledOnly.client.storage().hits).toBe(1);
  });
});

describe("offline: a request that fails without a refusal says nothing of the credential", () => {
  it("A reopening with the gateway unreachable sees the stored values, as offline always did", async () => {
    const { computer, clock, settled } = await filled(ADA);

    clock.time += DAY;
    gateway.down = true;
    const reopened = runtime(computer, clock, ADA);
    expect(points((await reopened.get(SETTLED)) as SeriesResult)).toEqual(settled);
  });

  it("A reopening with a gateway that takes requests and never answers sees the stored values within the gate's bound", async () => {
    const { computer, clock, settled } = await filled(ADA);

    clock.time += DAY;
    gateway.silent = true;
    const reopened = runtime(computer, clock, ADA);
    const began = clock.time;
    let answer: SeriesResult | Error | undefined;
    void reopened.client.getSeries(SETTLED).then(
      (a) => void (answer = a),
      (e: Error) => void (answer = e),
    );
    // Fake time, 100 ms a step: the stored values must come out well before a request's own deadline (30 s) and
    // the call's (50 s), which would otherwise end the cell with a timeout while its values sit in the store.
    // IndexedDB (fake-indexeddb) runs on real macrotasks: each step lets them run before the clock moves.
    while (answer === undefined && clock.time - began < 60_000) {
      await new Promise((resolve) => setImmediate(resolve));
      await clock.advance(100);
    }
    expect(points(answer as SeriesResult)).toEqual(settled);
    // The gate's bound (10 s) and the store's reads before it; never a request's deadline.
    expect(clock.time - began).toBeGreaterThanOrEqual(ACCEPTANCE_VERDICT_MS);
    expect(clock.time - began).toBeLessThan(CLIENT_DEFAULTS.timeoutMs);
  });
});

describe("the account changes while stored answers wait at the gate", () => {
  it("A's waiting cells, after A signs out and B (refused) signs in, get B's refusal, not A's stored values", async () => {
    const { computer, clock } = await filled(ADA);

    clock.time += DAY;
    gateway.requests.length = 0;
    gateway.silent = true;
    const shared = runtime(computer, clock, ADA);
    let answer: SeriesResult | Error | undefined;
    void shared.client.getSeries(SETTLED).then(
      (a) => void (answer = a),
      (e: Error) => void (answer = e),
    );
    // A's stored values wait for the gate's own request (the connection test's), which the silent gateway holds.
    const held = () => gateway.heldCount();
    while (held() === 0 && answer === undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      await clock.advance(100);
    }
    expect(held()).toBe(1);
    gateway.refused.add(BOB.sub);
    shared.credentials.use(null);
    shared.credentials.signInChanged({ status: "signed-out" });
    shared.signIn(BOB.token, "bob");
    gateway.silent = false;
    gateway.release();
    const began = clock.time;
    while (answer === undefined && clock.time - began < 60_000) {
      await new Promise((resolve) => setImmediate(resolve));
      await clock.advance(100);
    }
    expectRefused(answer as SeriesResult | MarketDataError, 403);
    expect(seriesRequests().filter((r) => r.who === BOB.sub)).toEqual([{ who: BOB.sub, status: 403 }]);
  });
});

describe("value preview (cache only) never sends a request, the gate's own neither", () => {
  it("before the gateway accepted A this session: not loaded, nothing sent; once accepted: the stored values", async () => {
    const { computer, clock, settled } = await filled(ADA);

    clock.time += DAY;
    gateway.requests.length = 0;
    const reopened = runtime(computer, clock, ADA);
    const preview = await drive(
      clock,
      reopened.client.getSeries(SETTLED, { cacheOnly: true }).catch((e: Error) => e),
    );
    expect(preview).toBeInstanceOf(NotCachedError);
    await clock.advance(1000);
    expect(gateway.requests).toEqual([]);

    expect((await reopened.client.testConnection()).ok).toBe(true);
    expect(points(await drive(clock, reopened.client.getSeries(SETTLED, { cacheOnly: true })))).toEqual(settled);
    expect(seriesRequests()).toEqual([{ who: ADA.sub, status: 200 }]);
  });
});

describe("pass-through keys on one computer", () => {
  const keyHash = (key: string) => createHash("sha256").update(key).digest("hex");

  it("a second key, which the service refuses (401), gets the refusal, not the first key's stored values", async () => {
    const { computer, clock } = await filled({ key: DEMO_API_KEY });

    const second = runtime(computer, clock, { key: OTHER_KEY });
    expectRefused(await second.get(SETTLED), 401);
    expect(seriesRequests().map((r) => r.status)).toEqual([200, 401]);
    expectNothingSecretSaid([OTHER_KEY, keyHash(OTHER_KEY), keyHash(DEMO_API_KEY)]);
  });

  it("a key revoked overnight: reopening gets the refusal, not the stored values", async () => {
    const { computer, clock } = await filled({ key: DEMO_API_KEY });

    clock.time += DAY;
    gateway.refused.add(DEMO_API_KEY);
    const reopened = runtime(computer, clock, { key: DEMO_API_KEY });
    expectRefused(await reopened.get(SETTLED), 401);
  });

  it("the same key reopening the next day reads the store after one accepted request", async () => {
    const { computer, clock, settled } = await filled({ key: DEMO_API_KEY });

    clock.time += DAY;
    gateway.requests.length = 0;
    const reopened = runtime(computer, clock, { key: DEMO_API_KEY });
    expect(points((await reopened.get(SETTLED)) as SeriesResult)).toEqual(settled);
    expect(seriesRequests().map((r) => r.status)).toEqual([200]);
    expect(reopened.client.storage().hits).toBe(1);
  });
});
