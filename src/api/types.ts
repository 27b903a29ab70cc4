/**
 * The shared client's public contract: what custom functions and the task pane
 * may ask of it (requests, call options, settings, counters, the client
 * interface). The domain vocabulary the answers are made of lives in
 * core/domain.ts.
 */
import type {
  AssetRecord,
  DateWindow,
  FlowType,
  FlowsResult,
  Granularity,
  InsightCard,
  MetricDescriptor,
  SeriesResult,
  SeriesWindow,
} from "../core/domain";
import type { CancelSignal } from "./cancel-signal";
import type { AnswerLogView } from "./answer-log";

export type { CancelSignal } from "./cancel-signal";

/** One caller's question: a single symbol × metric over a window (dates YYYY-MM-DD; no granularity: none sent). */
export interface SeriesRequest extends SeriesWindow {
  symbol: string; // lowercase, as sent
  metric: string; // uppercase, as sent
}

export interface CallOptions {
  /** Excel's cancellation, or the pane's. Drops the caller; a shared request is aborted once nobody waits. */
  signal?: CancelSignal;
  /**
   * Answer only from the cache or a request already in flight; never start a
   * new request (formula value preview). Rejects with a NotCachedError otherwise.
   */
  cacheOnly?: boolean;
  /**
   * Series only: when the client widens a window the service answers sparsely
   * (the free-cash-flow ratios, see series/fcf-widening.ts), hand back the wider
   * answer whole instead of cut back to the window asked for. The requests
   * sent and the answers cached are the same either way.
   */
  keepWidened?: boolean;
  /** Longest this call waits, in ms, before it fails with a TimeoutError; default the client's `callDeadlineMs`. */
  deadlineMs?: number;
  /**
   * Catalogs, insight feeds, flows and the connection test: retries of a network failure (a refused or
   * unreachable address) for a request this call sends, at most; default the client's `retries`. The pane passes
   * 1, one quick retry (its first backoff is at most `retryBaseMs`), so a refused address is said in under 2 s;
   * cells keep the whole policy, which rides out a network blip. A call that joins a request already out gets
   * that request's policy. Series calls are batched with the cells' and keep theirs.
   */
  networkRetries?: number;
}

export interface FlowsRequest extends DateWindow {
  sourceChains: string[];
  granularity?: Granularity;
  flowTypes: FlowType[]; // one request per flow type; the service answers one key per flowType
}

/** Where the client gets its key and base URL; read before every request so a change applies on the next calculation. */
export interface ClientSettings {
  apiKey: string;
  baseUrl: string;
  /** The base URL is a gateway that adds the firm's key: send none, ask for none. */
  keyManagedByGateway?: boolean;
  /**
   * The base URL is a gateway that lets in only signed-in users: every request to it carries an access token
   * (`Authorization: Bearer`) from the credentials' `accessToken` source (http/request-auth.ts). Set only for a
   * gateway on the add-in's own host (src/office/sign-in/gateway.ts), so the token never goes to another host.
   */
  signedInUsersOnly?: boolean;
  /**
   * Who the requests are made for, stable and not secret (src/office/credentials.ts `who`: `user:<hash>` of the
   * signed-in account, `key:<hash>` of a pass-through key), or null. The persistent store keeps each one's answers
   * apart and serves them only once the network accepted that credential in this session (store/acceptance.ts); a
   * change empties the memory cache. Absent: null (one partition, no gate: the gateway's key for anyone).
   */
  who?: string | null;
}
export type SettingsSource = () => Promise<ClientSettings>;

/**
 * Where the client gets an access token for a gateway that asks for one: injected (src/office wires it), so the
 * client knows nothing of how people sign in. Answers null when nobody is signed in (the call fails with a
 * SignInRequiredError, and nothing is sent); `forceRefresh` asks for a new token, not the one held, after the
 * gateway refused `rejected` with a 401 (a source that already holds a newer token may answer that one: a burst of
 * cells refused together renews once). It must never open a window: cells call it.
 */
export type AccessTokenSource = (options: { forceRefresh: boolean; rejected?: string }) => Promise<string | null>;

/**
 * The client's one channel for credentials: where requests go and how they are authorised (`settings`: the key, the
 * base URL and the gateway's modes, read before every flush and every catalog call), and the signed-in user's token
 * when the gateway asks for one (`accessToken`). The add-in gives both from one place (src/office/credentials.ts);
 * http/request-auth.ts turns them into each request's headers.
 */
export interface ClientCredentials {
  settings: SettingsSource;
  /** Default none: a gateway for signed-in users gets no request (its calls fail with a SignInRequiredError). */
  accessToken?: AccessTokenSource;
}

export interface ClientCounters {
  requests: number; // HTTP requests sent (each attempt counts)
  cacheHits: number; // answered from cache or an in-flight request
  retries: number;
  failures: number; // requests that finally failed
  bytes: number; // response bytes received
  /** Points dropped from series answers for breaking a rule (outside the window, a date sent again, not a number or not a date: http/responses.ts `soundPoints`); never shown, never stored. */
  dropped: number;
}

/** The persistent store behind warm workbooks, as the pane shows it (store/read-through.ts). */
export interface StoreStatus {
  /**
   * "indexeddb": kept on this machine across sessions; "opening": not open
   * yet (answers come from memory meanwhile); "memory": this session only
   * (IndexedDB missing or failing, see `reason`); "off": no store.
   */
  backend: "indexeddb" | "opening" | "memory" | "off";
  /** Why the store is memory only, when it is. */
  reason?: string;
  series: number;
  bytes: number;
  maxBytes: number;
  /** Series calls answered wholly from the store (no request). */
  hits: number;
  /** Estimated response bytes the store answered instead of the service. */
  bytesSaved: number;
  /** While cells show stored data because the service could not be reached: the (UTC) date it was fetched. */
  offlineSince: string | null;
}

export interface ClearOptions {
  /** Settled days in the store are asked again on their next use, whatever their trust period. Default false. */
  recheckHistory?: boolean;
}

export interface MarketDataClient {
  getSeries(req: SeriesRequest, opts?: CallOptions): Promise<SeriesResult>;
  getFlows(req: FlowsRequest, opts?: CallOptions): Promise<FlowsResult>;
  getAssets(opts?: CallOptions): Promise<AssetRecord[]>;
  getMetrics(symbol: string, opts?: CallOptions): Promise<MetricDescriptor[]>;
  /** `feed` is the path segment: "streaks", "decline-streaks", or another feed name. */
  getInsights(feed: string, opts?: CallOptions): Promise<InsightCard[]>;
  /** A cheap authenticated request that proves the key and base URL work. */
  testConnection(opts?: CallOptions): Promise<{ ok: true; ms: number }>;
  /**
   * Drop every cached answer (refresh): the in-memory cache, and the
   * freshness of stored days that may still change. Settled stored days stay,
   * unless `recheckHistory`: then they too are asked again on their next use
   * (the service may have revised history). In-flight requests are left to finish.
   */
  clear(options?: ClearOptions): void;
  /** Drop the persistent store too ("Reload everything", "Clear stored data"). Never rejects. */
  clearStored(): Promise<void>;
  counters(): ClientCounters;
  storage(): StoreStatus;
  /** What answered each series pair (answer-log.ts); absent in stand-ins. Read only: it sends nothing. */
  readonly answers?: AnswerLogView;
}
