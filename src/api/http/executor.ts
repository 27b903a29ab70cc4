/**
 * Sends one logical request: waits for a concurrency slot, makes attempts
 * through the transport, retries what is worth retrying, and keeps the
 * counters and the log. Knows nothing of batching or caching.
 */
import { CancelledError, isMarketDataError, MarketDataError, noteRetries, redact } from "../errors";
import { type Authorisation, PASS_THROUGH_KEY, type RequestAuth, withoutToken } from "./request-auth";
import { displayUrl, requestUrl, type ApiRequest } from "./requests";
import { decideRetry, type RetryDecision, type RetryPolicy } from "./retry";
import type { Semaphore } from "./semaphore";
import type { CancelSignal } from "../cancel-signal";
import { sleep, type Timers } from "./timers";
import { attempt, isAttemptFailure, type FetchLike } from "./transport";
import type { ClientCounters } from "../types";

export interface ResolvedSettings {
  baseUrl: string;
  apiKey: string;
  /** How requests are authorised (request-auth.ts); absent: the key as given, no sign-in. */
  auth?: Authorisation;
  /** Counts changes of key, base URL or who asks (settings-reader.ts): an answer is used only under the generation that asked for it. */
  generation?: number;
  /**
   * Who the requests are made for (the signed-in account or the pass-through key, as a hash: src/office/credentials.ts
   * `who`), or null (the gateway's key for anyone, or not said): the store keeps each one's answers apart.
   */
  who?: string | null;
}

/** Hears how each request carrying a person's credential ended (store/acceptance.ts). */
export interface CredentialOutcomes {
  sending(who: string): void;
  answered(who: string, outcome: "accepted" | "failed" | { refused: unknown }): void;
}

export interface ExecutorDeps {
  fetch: FetchLike;
  timers: Timers;
  now: () => number;
  random: () => number;
  semaphore: Semaphore;
  retry: RetryPolicy;
  counters: ClientCounters;
  log: (line: string) => void;
  /** Largest response body read (transport.ts MAX_RESPONSE_BYTES when absent). */
  maxResponseBytes?: number;
  /** Headers for each request and what a 401 or 403 means (request-auth.ts, over ClientOptions.credentials). */
  auth: RequestAuth;
  /** Told of every request under a person's credential: whether it was accepted (a 2xx), refused, or neither. */
  outcomes?: CredentialOutcomes;
}

export interface SendOptions {
  signal?: CancelSignal;
  timeoutMs: number;
  /** Overrides the policy's retry count (the connection test retries less: the user is watching). */
  retries?: number;
  /**
   * Retries of a 5xx, at most (within `retries`). A multi-symbol series request
   * gets one: the real service fails a whole batch for one unsupported symbol,
   * every time, and the batcher isolates the symbol instead (series/batcher.ts).
   */
  serverErrorRetries?: number;
  /**
   * Retries of a network failure (connection refused, reset, host not found), at most (within `retries`). The
   * pane's requests pass 1 (CallOptions.networkRetries): a person is watching, and a refused address should be
   * said in under 2 s, where the full policy's backoff can take 4.5 s to conclude the same.
   */
  networkRetries?: number;
}

/** A request's answer: its body, and for the record (answer-log.ts) its address without key or token, time and source. */
export interface SentAnswer {
  json: unknown;
  bytes: number;
  address: string;
  /** The answering attempt's time, ms. */
  ms: number;
  /** The firm gateway's `X-Cache-Status`, when sent. */
  cacheStatus?: string;
}

export async function sendWithRetries(
  deps: ExecutorDeps,
  request: ApiRequest,
  settings: ResolvedSettings,
  options: SendOptions,
): Promise<SentAnswer> {
  const who = settings.who;
  const outcomes = deps.outcomes;
  if (!who || !outcomes) return send(deps, request, settings, options);
  outcomes.sending(who);
  try {
    const answer = await send(deps, request, settings, options);
    outcomes.answered(who, "accepted");
    return answer;
  } catch (error) {
    outcomes.answered(who, isMarketDataError(error) && error.kind === "auth" ? { refused: error } : "failed");
    throw error;
  }
}

async function send(
  deps: ExecutorDeps,
  request: ApiRequest,
  settings: ResolvedSettings,
  options: SendOptions,
): Promise<SentAnswer> {
  const { signal } = options;
  const policy = options.retries === undefined ? deps.retry : { ...deps.retry, retries: options.retries };
  const url = requestUrl(settings.baseUrl, request, settings.apiKey);
  const shown = redact(requestUrl(settings.baseUrl, request), settings.apiKey);
  const display = redact(displayUrl(settings.baseUrl, request), settings.apiKey);

  // Authorised before anything is sent: without the credentials the settings ask for, nothing is.
  let grant = await deps.auth.beforeRequest(settings.auth ?? PASS_THROUGH_KEY);

  let serverErrors = 0;
  let networkErrors = 0;
  for (let retryIndex = 0; ; retryIndex += 1) {
    const release = await deps.semaphore.acquire(signal);
    let error: MarketDataError;
    const started = deps.now();
    try {
      deps.counters.requests += 1;
      const result = await attempt(url, {
        fetch: deps.fetch,
        timers: deps.timers,
        now: deps.now,
        timeoutMs: options.timeoutMs,
        display,
        apiKey: settings.apiKey,
        ...(grant.headers ? { headers: grant.headers, token: grant.token } : {}),
        ...(deps.maxResponseBytes !== undefined ? { maxBytes: deps.maxResponseBytes } : {}),
        ...(signal ? { signal } : {}),
      });
      deps.counters.bytes += result.bytes;
      deps.log(`GET ${shown} → ${result.status}, ${formatBytes(result.bytes)}, ${deps.now() - started} ms`);
      const answer: SentAnswer = { json: result.json, bytes: result.bytes, address: shown, ms: deps.now() - started };
      if (result.cacheStatus !== undefined) answer.cacheStatus = result.cacheStatus;
      return answer;
    } catch (thrown) {
      if (isAttemptFailure(thrown)) {
        deps.counters.bytes += thrown.bytes;
        error = thrown.error;
      } else {
        // A bug below the transport must still end as a typed, settled error.
        error = new MarketDataError(
          "network",
          redact(`Unexpected failure calling ${display}: ${String(thrown)}`, settings.apiKey),
          false,
        );
      }
      error.message = withoutToken(grant, error.message);
      deps.log(
        redact(
          `GET ${shown} → ${error.status ?? error.kind}, ${deps.now() - started} ms: ${error.message}`,
          settings.apiKey,
        ),
      );
    } finally {
      release();
    }

    const verdict = deps.auth.afterResponse(grant, error.status);
    if (verdict.then === "fail") {
      deps.counters.failures += 1;
      throw verdict.error;
    }
    if (verdict.then === "renew") {
      deps.log(`GET ${shown} → 401: renewing the sign-in and asking once more`);
      grant = await verdict.renew();
      retryIndex -= 1; // not one of the policy's retries: the request was refused, not lost
      continue;
    }

    if (error instanceof CancelledError) throw error;
    if (error.kind === "server") serverErrors += 1;
    if (error.kind === "network") networkErrors += 1;
    const decision: RetryDecision =
      (error.kind === "server" && overLimit(serverErrors, options.serverErrorRetries)) ||
      (error.kind === "network" && overLimit(networkErrors, options.networkRetries))
        ? { retry: false }
        : decideRetry(error, retryIndex, policy, deps.random);
    if (!decision.retry) {
      deps.counters.failures += 1;
      noteRetries(error, retryIndex);
      if (decision.reason) error.message = `${error.message.replace(/\.$/, "")}; ${decision.reason}.`;
      throw error;
    }
    deps.counters.retries += 1;
    deps.log(
      `retry ${retryIndex + 1}/${policy.retries} of ${shown} in ${decision.delayMs} ms (${error.status ?? error.kind})`,
    );
    await sleep(deps.timers, decision.delayMs, signal);
  }
}

/** Whether the `count`-th failure of a kind is past the retries allowed for it (undefined: the policy's). */
function overLimit(count: number, retries: number | undefined): boolean {
  return retries !== undefined && count > retries;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}
