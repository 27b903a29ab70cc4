import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import type { ClientSettings } from "../../src/api/types";
import { FakeClock } from "./fake-clock";
import { fakeService, seriesHandler, type FakeService, type Handler } from "./fake-service";

export const TEST_KEY = "k3y-Secret/+=value";
export const BASE = "https://md.example.test/api";

export interface Harness {
  client: Client;
  clock: FakeClock;
  service: FakeService;
  logs: string[];
  settings: ClientSettings;
}

/** A client on a fake clock and a fake service; retries fast and deterministic (random() = 0.5). */
export function harness(handler: Handler = seriesHandler(), options: Partial<ClientOptions> = {}): Harness {
  const clock = new FakeClock();
  const service = fakeService(clock, handler);
  const logs: string[] = [];
  const settings: ClientSettings = { apiKey: TEST_KEY, baseUrl: BASE };
  const client = createClient({
    settings: async () => ({ ...settings }),
    fetch: service.fetch,
    now: clock.now,
    timers: clock,
    random: () => 0.5,
    logger: (line) => logs.push(line),
    retryBaseMs: 100,
    retryMaxMs: 1000,
    ...options,
  });
  return { client, clock, service, logs, settings };
}

export type Tracked<T> = Promise<T> & { state: () => "pending" | "fulfilled" | "rejected"; value?: T; error?: unknown };

/** Wraps a promise so a test can see whether it has settled, without awaiting it. */
export function track<T>(promise: Promise<T>): Tracked<T> {
  let state: "pending" | "fulfilled" | "rejected" = "pending";
  const tracked = promise.then(
    (value) => {
      state = "fulfilled";
      tracked.value = value;
      return value;
    },
    (error: unknown) => {
      state = "rejected";
      tracked.error = error;
      throw error;
    },
  ) as Tracked<T>;
  tracked.catch(() => undefined);
  tracked.state = () => state;
  return tracked;
}

/** Symbols and metrics of each series request the fake service saw. */
export function seriesCalls(service: FakeService): { symbols: string[]; metrics: string[]; params: URLSearchParams }[] {
  return service.calls
    .filter((c) => c.path.includes("/data/api/"))
    .map((c) => ({
      symbols: (c.params.get("symbols") ?? "").split(","),
      metrics: decodeURIComponent(/\/data\/api\/([^/]+)\//.exec(c.path)![1]!).split(","),
      params: c.params,
    }));
}
