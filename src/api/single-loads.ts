/**
 * Single-request loads: catalogs, insight feeds and flows, each answer one
 * request. It owns how such an answer is found — the cache, a pending load
 * under the same settings to join, the store's persisted answers (fresh on
 * reopen, stale offline), or a request sent on the series or catalog lane —
 * and the retry when the key or base URL changed while it was out. It is
 * handed what it works with (settings reader, cache, pending-loads registry,
 * store, lanes) and reaches into nothing else.
 */
import { CancelledError, NotCachedError } from "./errors";
import { sendWithRetries, type ExecutorDeps, type ResolvedSettings } from "./http/executor";
import { cacheKey, type Load, type PendingLoads } from "./pending-loads";
import type { ApiRequest } from "./http/requests";
import type { SeriesReadThrough } from "./store/read-through";
import { answerStoreKey } from "./store/types";
import type { CallOptions, ClientCounters } from "./types";

export interface SingleLoadsDeps {
  settings: {
    read(): Promise<ResolvedSettings>;
    /** Reads again: the new settings when the key or base URL changed since `used`, else undefined. */
    changedSince(used: ResolvedSettings): Promise<ResolvedSettings | undefined>;
  };
  cache: {
    get(key: string): unknown;
    set(key: string, value: unknown, ttlMs: number, bytes: number): void;
  };
  pending: PendingLoads;
  /** The persistent store, if any: answers asked with "persist" are kept in it. */
  stored: SeriesReadThrough | null;
  /** The series lane (normal requests) and the catalog lane (slow ones). */
  lanes: { normal: ExecutorDeps; slow: ExecutorDeps };
  limits: { timeoutMs: number; slowTimeoutMs: number };
  counters: ClientCounters;
  now: () => number;
  log: (line: string) => void;
}

export class SingleLoads {
  /** Loads waiting at the store's gate (store/acceptance.ts): pending, but no request of theirs is coming. */
  private gated = 0;

  constructor(private readonly deps: SingleLoadsDeps) {}

  /** How many pending loads wait at the store's gate. */
  waitingAtGate(): number {
    return this.gated;
  }

  /**
   * One answer of one request: from the cache, by joining the same answer
   * pending under the same settings, or sent. An answer that arrives after the
   * key or base URL changed belongs to the old settings: it is neither cached
   * nor shown (a refusal of the old key included), and its callers ask again
   * under the new ones, joining a request already sent with them.
   */
  async load<T>(
    key: string,
    request: ApiRequest,
    ttlMs: number,
    parse: (json: unknown) => T,
    opts: CallOptions,
    persist?: "persist",
  ): Promise<T> {
    for (;;) {
      try {
        return await this.loadOnce(key, request, ttlMs, parse, opts, persist);
      } catch (error) {
        if (error !== SETTINGS_CHANGED) throw error;
      }
    }
  }

  private async loadOnce<T>(
    key: string,
    request: ApiRequest,
    ttlMs: number,
    parse: (json: unknown) => T,
    opts: CallOptions,
    persist?: "persist",
  ): Promise<T> {
    if (opts.signal?.aborted) throw new CancelledError();
    const settings = await this.deps.settings.read();
    const cached = cacheKey(settings.baseUrl, key);
    // Catalogs and insight feeds persist: read offline, and fresh from the store on reopen.
    const stored = persist ? this.deps.stored : null;
    const hit = this.deps.cache.get(cached) as T | undefined;
    if (hit !== undefined) {
      this.deps.counters.cacheHits += 1;
      return hit;
    }
    // Loads are told apart by the settings that sent them: a caller under a new key never joins the old key's request.
    const service = `${settings.generation ?? 0} ${settings.baseUrl}`;
    const existing = this.deps.pending.find<T>(key, service);
    if (existing) {
      this.deps.counters.cacheHits += 1;
      return this.deps.pending.join(existing, opts.signal);
    }
    // Kept in the store under who asked (store/acceptance.ts), and served once that credential was accepted.
    const storeKey = answerStoreKey(cached, settings.who);
    if (opts.cacheOnly) {
      // Value preview may answer from the store.
      const kept = await stored?.readAnswer(storeKey);
      if (kept && stored!.isOpen(settings.who)) return kept.value as T;
      throw new NotCachedError();
    }
    const load: Load<T> = { key, state: "in-flight", waiters: new Set(), service };
    this.deps.pending.add(load);
    const signal = this.deps.pending.fly([load as Load<unknown>]);
    const promise = this.deps.pending.join(load, opts.signal);
    const slow = request.timeoutClass === "slow";
    const timeoutMs = slow ? this.deps.limits.slowTimeoutMs : this.deps.limits.timeoutMs;
    const lane = slow ? this.deps.lanes.slow : this.deps.lanes.normal;
    void (async () => {
      // Catalogs and insight feeds: fresh from the store on reopen, and read from it offline.
      const kept = await stored?.readAnswer(storeKey);
      const freshFor = kept ? stored!.freshFor(kept, ttlMs) : 0;
      const gate = kept && freshFor > 0 ? stored!.pass(settings.who) : null;
      let refused: { error: unknown } | null = null;
      if (gate) {
        this.gated += 1;
        refused = await gate.then(noRefusal, (error: unknown) => ({ error }));
        this.gated -= 1;
      }
      if (refused) {
        this.deps.pending.settle(load, refused);
        return;
      }
      if (kept && freshFor > 0) {
        this.deps.counters.cacheHits += 1;
        this.deps.cache.set(cached, kept.value, freshFor, kept.bytes * 2 + 256);
        this.deps.pending.settle(load, { value: kept.value as T });
        return;
      }
      let outcome: { value: T } | { error: unknown };
      let bytes = 0;
      let offline = false;
      const fetchedAt = this.deps.now();
      try {
        const answer = await sendWithRetries(lane, request, settings, {
          signal,
          timeoutMs,
          ...(opts.networkRetries === undefined ? {} : { networkRetries: opts.networkRetries }),
        });
        bytes = answer.bytes;
        outcome = { value: parse(answer.json) };
      } catch (error) {
        const stale = stored?.offlineAnswer(kept, error);
        offline = stale !== undefined;
        outcome = stale ? { value: stale.value as T } : { error };
      }
      if (!("error" in outcome && outcome.error instanceof CancelledError)) {
        try {
          if (await this.deps.settings.changedSince(settings)) {
            this.deps.log(`settings changed while a request was out: its answer is dropped and asked again`);
            outcome = { error: SETTINGS_CHANGED };
          }
        } catch (settingsError) {
          outcome = { error: settingsError };
        }
      }
      if ("value" in outcome && !offline) {
        // Parsed objects take roughly twice their JSON text in memory.
        this.deps.cache.set(cached, outcome.value, ttlMs, bytes * 2 + 256);
        stored?.keepAnswer(storeKey, outcome.value, fetchedAt, bytes);
      }
      this.deps.pending.settle(load, outcome);
    })();
    return promise;
  }
}

/**
 * What a load settles with when its answer came under a key or base URL that
 * has changed since: its callers ask again. A plain object, not an Error
 * subclass, so the module stays free of side effects and the pane's bundles,
 * which import api/ only for its helpers, do not take in the client.
 */
const SETTINGS_CHANGED = { settingsChanged: true } as const;

const noRefusal = (): null => null;
