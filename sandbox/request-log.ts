/**
 * Counters and a bounded request log that tests (and the CLI's console) read.
 * The API key never enters either: queries are stored with `APIKey=***`.
 */
import type { FaultKind } from "./faults";

export interface RequestLogEntry {
  at: string; // ISO timestamp of arrival
  method: string;
  path: string;
  /** The query string with the key redacted, without the leading "?". */
  query: string;
  /** HTTP status, or "dropped" when the connection was destroyed without a response. */
  status: number | "dropped";
  /** Data points in a `/data/api/` response. */
  points: number;
  fault: FaultKind | null;
  /** A realistic-mode behaviour or a failure switch that shaped this answer ("empty-body", "poison", "redirect", …). */
  quirk?: string;
  ms: number;
}

export interface SandboxStats {
  requests: number;
  /** Per exact path, e.g. "/data/api/PRICE/". */
  byPath: Record<string, number>;
  /** Per endpoint: "/data/api/", "/flows/top/", "/supported-metrics/", "/asset/symbols/", "/insights/<feed>/", or "other". */
  byEndpoint: Record<string, number>;
  byStatus: Record<string, number>;
  pointsReturned: number;
  faultsInjected: Record<FaultKind, number> & { total: number };
  /** How many times an insight feed was computed (cache misses). */
  insightComputations: number;
  /** Answers shaped by a realistic-mode behaviour or a failure switch, per kind. */
  quirks: Record<string, number>;
}

const LOG_LIMIT = 10_000;
const KEY_PARAM = /^apikey$/i;

/** Replaces the value of every `APIKey` parameter (any case) with `***`, leaving the rest as sent. */
export function redactQuery(query: string): string {
  if (!query) return "";
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed escape is kept as sent: it cannot spell the key's name.
      }
      return KEY_PARAM.test(decoded) ? `${name}=***` : pair;
    })
    .join("&");
}

/** The entry as the CLI's console shows it: `GET /path?query → 200 (12 ms) [fault: drop]`. */
export function consoleLine(entry: RequestLogEntry): string {
  const query = entry.query ? `?${entry.query}` : "";
  const fault = entry.fault ? ` [fault: ${entry.fault}]` : "";
  return `${entry.method} ${entry.path}${query} → ${entry.status} (${entry.ms} ms)${fault}`;
}

export function endpointOf(path: string): string {
  if (path.startsWith("/data/api/")) return "/data/api/";
  for (const prefix of ["/flows/top/", "/supported-metrics/", "/asset/symbols/"]) if (path === prefix) return prefix;
  if (/^\/insights\/[^/]+\/$/.test(path)) return path;
  return "other";
}

/** Someone waiting for a request the sandbox has not answered yet (RequestLog.next). */
interface Waiter {
  matches(entry: RequestLogEntry): boolean;
  resolve(entry: RequestLogEntry): void;
}

export class RequestLog {
  private counters = RequestLog.empty();
  private entries: RequestLogEntry[] = [];
  private waiters = new Set<Waiter>();

  private static empty(): SandboxStats {
    return {
      requests: 0,
      byPath: {},
      byEndpoint: {},
      byStatus: {},
      pointsReturned: 0,
      faultsInjected: { drop: 0, "server-error": 0, "rate-limit": 0, "bad-json": 0, total: 0 },
      insightComputations: 0,
      quirks: {},
    };
  }

  record(entry: RequestLogEntry): void {
    const c = this.counters;
    c.requests++;
    c.byPath[entry.path] = (c.byPath[entry.path] ?? 0) + 1;
    const endpoint = endpointOf(entry.path);
    c.byEndpoint[endpoint] = (c.byEndpoint[endpoint] ?? 0) + 1;
    c.byStatus[String(entry.status)] = (c.byStatus[String(entry.status)] ?? 0) + 1;
    c.pointsReturned += entry.points;
    if (entry.fault) {
      c.faultsInjected[entry.fault]++;
      c.faultsInjected.total++;
    }
    if (entry.quirk) c.quirks[entry.quirk] = (c.quirks[entry.quirk] ?? 0) + 1;
    this.entries.push(entry);
    if (this.entries.length > LOG_LIMIT) this.entries.splice(0, this.entries.length - LOG_LIMIT);
    for (const waiter of [...this.waiters]) {
      if (!waiter.matches(entry)) continue;
      this.waiters.delete(waiter);
      waiter.resolve({ ...entry });
    }
  }

  /**
   * The next request answered that matches, once it is logged: a test that
   * checks what reached the sandbox in the background (a gateway's cache
   * refresh, say) waits for that event instead of a fixed time. Rejects after
   * `timeoutMs` with what it waited for, so a test never hangs.
   */
  next(matches: (entry: RequestLogEntry) => boolean, what: string, timeoutMs: number): Promise<RequestLogEntry> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`The sandbox saw no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        matches,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      };
      this.waiters.add(waiter);
    });
  }

  countInsightComputation(): void {
    this.counters.insightComputations++;
  }

  stats(): SandboxStats {
    return structuredClone(this.counters);
  }

  log(): RequestLogEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.counters = RequestLog.empty();
    this.entries = [];
  }
}
