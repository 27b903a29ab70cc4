/**
 * Sends one logical request: waits for a concurrency slot, makes attempts
 * through the transport, retries what is worth retrying, and keeps the
 * counters and the log. Knows nothing of batching or caching.
 */
import {
  AuthError,
  CancelledError,
  MarketDataError,
  noteRetries,
  redact,
  SIGN_IN_MESSAGE,
  SignInRequiredError,
} from "../errors";
import { displayUrl, requestUrl, type ApiRequest } from "./requests";
import { decideRetry, type RetryDecision, type RetryPolicy } from "./retry";
import type { Semaphore } from "./semaphore";
import type { CancelSignal } from "../cancel-signal";
import { sleep, type Timers } from "./timers";
import { attempt, isAttemptFailure, type FetchLike } from "./transport";
import type { AccessTokenSource, ClientCounters } from "../types";

export interface ResolvedSettings {
  baseUrl: string;
  apiKey: string;
  /** The base URL is a gateway that asks for an access token on every request (ClientSettings.signInRequired). */
  signInRequired?: boolean;
  /** Counts changes of key or base URL (settings-reader.ts): an answer is used only under the generation that asked for it. */
  generation?: number;
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
  /** Access tokens for a gateway that asks for sign-in (ClientOptions.accessToken). */
  accessToken?: AccessTokenSource;
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
}

export async function sendWithRetries(
  deps: ExecutorDeps,
  request: ApiRequest,
  settings: ResolvedSettings,
  options: SendOptions,
): Promise<{ json: unknown; bytes: number }> {
  const { signal } = options;
  const policy = options.retries === undefined ? deps.retry : { ...deps.retry, retries: options.retries };
  const url = requestUrl(settings.baseUrl, request, settings.apiKey);
  const shown = redact(requestUrl(settings.baseUrl, request), settings.apiKey);
  const display = redact(displayUrl(settings.baseUrl, request), settings.apiKey);

  // A gateway that asks for sign-in gets a token on every request, before anything is sent: without one, nothing is.
  let token = settings.signInRequired ? await accessToken(deps) : null;
  let renewedAfter401 = false;

  let serverErrors = 0;
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
        ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
        ...(deps.maxResponseBytes !== undefined ? { maxBytes: deps.maxResponseBytes } : {}),
        ...(signal ? { signal } : {}),
      });
      deps.counters.bytes += result.bytes;
      deps.log(`GET ${shown} → ${result.status}, ${formatBytes(result.bytes)}, ${deps.now() - started} ms`);
      return { json: result.json, bytes: result.bytes };
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
      // The gateway may quote what it was sent; no token reaches a message, a log line or a cell.
      if (token) error.message = error.message.split(token).join("***");
      deps.log(
        redact(
          `GET ${shown} → ${error.status ?? error.kind}, ${deps.now() - started} ms: ${error.message}`,
          settings.apiKey,
        ),
      );
    } finally {
      release();
    }

    if (token) {
      if (error.status === 401) {
        // One silent renewal and one more attempt, never a loop: a second 401 means the sign-in itself is refused.
        if (renewedAfter401) {
          deps.counters.failures += 1;
          throw new SignInRequiredError(
            `The gateway did not accept your sign-in (HTTP 401). ${SIGN_IN_MESSAGE}, then use Refresh all.`,
            { status: 401 },
          );
        }
        renewedAfter401 = true;
        deps.log(`GET ${shown} → 401: renewing the sign-in and asking once more`);
        token = await accessToken(deps, token);
        retryIndex -= 1; // not one of the policy's retries: the request was refused, not lost
        continue;
      }
      if (error.status === 403) {
        deps.counters.failures += 1;
        throw new AuthError(
          "The gateway refused your account (HTTP 403): you are signed in, but not allowed to use Market Data. Ask your administrator for access.",
          { status: 403 },
        );
      }
    }

    if (error instanceof CancelledError) throw error;
    if (error.kind === "server") serverErrors += 1;
    const decision: RetryDecision =
      error.kind === "server" && options.serverErrorRetries !== undefined && serverErrors > options.serverErrorRetries
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

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * A token from the injected source (a renewed one when the gateway `rejected` the last), or a SignInRequiredError: none given, nobody signed in, or the source failed
 * (its own words stay out of the cell: they may describe the identity provider, not what to do).
 */
async function accessToken(deps: ExecutorDeps, rejected?: string): Promise<string> {
  let token: string | null = null;
  try {
    const options = rejected === undefined ? { forceRefresh: false } : { forceRefresh: true, rejected };
    token = deps.accessToken ? await deps.accessToken(options) : null;
  } catch (cause) {
    deps.log(`access token not available: ${cause instanceof Error ? cause.name : "error"}`);
  }
  if (!token) throw new SignInRequiredError();
  return token;
}
