/**
 * Whose stored data (DESIGN "Persistent cache", "Whose stored data"): the
 * store keeps each person's answers apart (its keys carry who asked: the
 * signed-in account or the pass-through key, as a hash, settings' `who`), and
 * this gate lets a stored answer out only once the gateway or the service has
 * accepted that account or key in this session: a 2xx answered to a request
 * that carried it. An account the gateway now refuses (403: its group
 * removed) or a key the service revoked (401) gets the refusal, not what it
 * fetched while it was allowed.
 *
 * No request budget is spent on it where the workbook asks the network
 * anyway: the first answer to any request under the credential opens the
 * gate (a reopened workbook fetches its newest days; their 2xx is the
 * acceptance), and stored answers wait for it. Only where nothing else goes
 * out — every cell answered from the store — does the gate send one request
 * itself, the connection test's (one day of one PRICE), once the client has
 * been quiet for `waitMs` (no store read under way, no load pending, no
 * request of the credential's own out): one request a session, for the
 * same person reopening the same workbook.
 *
 * Every wait is bounded: the quiet wait, the requests it waits for (their own
 * deadlines) and the probe's, and the whole wait by ACCEPTANCE_VERDICT_MS (a
 * gateway or service that takes requests and never answers would otherwise
 * hold stored answers until the call's deadline ended the cell with a
 * timeout). A request that fails without a refusal (the service unreachable,
 * a 5xx) says nothing of the credential, nor does silence: the stored answer
 * is served then, as the store serves stored data offline (read-through.ts);
 * a refusal that comes later holds for every later read. A refusal stays until a later
 * 2xx under the credential or a refresh (`forgetRefusals`: Refresh all, after
 * signing in again). Nothing here is logged: `who` names a person.
 */
import type { CredentialOutcomes } from "../http/executor";
import type { Timers } from "../http/timers";

/**
 * How long stored answers wait for a verdict at most, from the first that waits: a gateway or service that takes
 * requests and never answers says nothing of the credential, as one that cannot be reached says nothing.
 */
export const ACCEPTANCE_VERDICT_MS = 10_000;

export interface AcceptanceOptions {
  timers: Timers;
  /** How long the client must have been quiet before the gate asks itself. */
  waitMs: number;
  /** How long stored answers wait for a verdict at most (ACCEPTANCE_VERDICT_MS). */
  verdictMs?: number;
  /** Whether the client is still at work (a store read under way, a load pending): a request may yet go out. */
  busy: () => boolean;
  /** Sends the connection test's request under the current settings (its outcome comes back through `answered`). */
  probe: () => Promise<unknown>;
}

/**
 * What a request's end says of the credential it carried (http/executor.ts): a 2xx; an authorisation error (401,
 * 403, no usable sign-in); or neither.
 */
export type RequestOutcome = "accepted" | "failed" | { refused: unknown };

interface Check {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  timer: unknown;
  /** Ends the wait without a verdict: the network said nothing of the credential in time. */
  bound: unknown;
  /** The quiet wait has passed at least once: the next request to end without a verdict lets the gate ask. */
  waited: boolean;
  probed: boolean;
}

export class CredentialAcceptance implements CredentialOutcomes {
  private readonly accepted = new Set<string>();
  private readonly refusals = new Map<string, unknown>();
  private readonly inFlight = new Map<string, number>();
  private readonly checks = new Map<string, Check>();

  constructor(private readonly o: AcceptanceOptions) {}

  /** Whether stored answers may go out for `who` now (no credential of a person's: always). */
  isOpen(who: string | null | undefined): boolean {
    return !who || this.accepted.has(who);
  }

  /**
   * Null when stored answers may go out for `who` now; else a promise that resolves once they may (or once the
   * network said nothing of the credential), or rejects with the refusal.
   */
  pass(who: string | null | undefined): Promise<void> | null {
    if (!who || this.accepted.has(who)) return null;
    if (this.refusals.has(who)) return Promise.reject(this.refusals.get(who));
    return (this.checks.get(who) ?? this.start(who)).promise;
  }

  /** A request carrying `who`'s credential is about to go out (the executor). */
  sending(who: string): void {
    this.inFlight.set(who, (this.inFlight.get(who) ?? 0) + 1);
  }

  /** It ended: a 2xx, a refusal, or neither. */
  answered(who: string, outcome: RequestOutcome): void {
    const left = (this.inFlight.get(who) ?? 1) - 1;
    if (left > 0) this.inFlight.set(who, left);
    else this.inFlight.delete(who);
    const check = this.checks.get(who);
    if (outcome === "accepted") {
      this.accepted.add(who);
      this.refusals.delete(who);
      if (check) this.end(who, check);
    } else if (outcome !== "failed") {
      this.accepted.delete(who);
      this.refusals.set(who, outcome.refused);
      if (check) this.end(who, check, outcome.refused);
    } else if (check?.waited) {
      this.askOrServe(who, check);
    }
  }

  /** Refusals are asked again (a refresh: the person may have signed in again, or been given access). */
  forgetRefusals(): void {
    this.refusals.clear();
  }

  private start(who: string): Check {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // Each caller handles its own copy; the check's own is never left unhandled.
    promise.catch(() => undefined);
    const check: Check = { promise, resolve, reject, timer: undefined, bound: undefined, waited: false, probed: false };
    this.checks.set(who, check);
    check.bound = this.o.timers.setTimeout(() => {
      check.bound = undefined;
      if (this.checks.get(who) === check) this.end(who, check);
    }, this.o.verdictMs ?? ACCEPTANCE_VERDICT_MS);
    this.wait(who, check);
    return check;
  }

  private wait(who: string, check: Check): void {
    check.timer = this.o.timers.setTimeout(() => {
      check.timer = undefined;
      check.waited = true;
      if (this.o.busy()) this.wait(who, check);
      else this.askOrServe(who, check);
    }, this.o.waitMs);
  }

  /** Nothing of the credential's own is out: ask once; asked already and still no verdict, serve. */
  private askOrServe(who: string, check: Check): void {
    if (this.checks.get(who) !== check || (this.inFlight.get(who) ?? 0) > 0) return;
    if (check.probed) return this.end(who, check);
    check.probed = true;
    // Its outcome comes back through `answered`; if it never names `who` (the settings changed meanwhile), serve.
    void this.o
      .probe()
      .catch(() => undefined)
      .then(() => {
        if (this.checks.get(who) === check) this.end(who, check);
      });
  }

  private end(who: string, check: Check, refusal?: unknown): void {
    if (check.timer !== undefined) this.o.timers.clearTimeout(check.timer);
    if (check.bound !== undefined) this.o.timers.clearTimeout(check.bound);
    this.checks.delete(who);
    if (refusal === undefined) check.resolve();
    else check.reject(refusal);
  }
}
