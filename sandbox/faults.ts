/**
 * Fault injection for reliability tests. Each request draws the same number of
 * values from one seeded generator, in arrival order, so a run with the same
 * seed, settings and request order injects the same faults.
 */
import { errorBody } from "./http-error";
import { mulberry32 } from "./rng";

export interface SandboxFaults {
  /** Share of requests answered 500 or 503 (JSON error body). */
  serverErrorRate: number;
  /** Share of requests answered 429 with a `Retry-After` header. */
  rateLimitRate: number;
  /** The `Retry-After` value in whole seconds. */
  retryAfterSeconds: number;
  /** Share of requests whose socket is destroyed without a response. */
  dropRate: number;
  /** Share of successful responses sent as 200 with a truncated JSON body. */
  badJsonRate: number;
}

export type FaultKind = "drop" | "server-error" | "rate-limit" | "bad-json";

export const NO_FAULTS: SandboxFaults = {
  serverErrorRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  dropRate: 0,
  badJsonRate: 0,
};

export function validFaults(faults: SandboxFaults): SandboxFaults {
  for (const key of ["serverErrorRate", "rateLimitRate", "dropRate", "badJsonRate"] as const) {
    const rate = faults[key];
    if (typeof rate !== "number" || !(rate >= 0 && rate <= 1))
      throw new RangeError(`faults.${key} must be a number from 0 to 1, got ${rate}`);
  }
  const retryAfter = faults.retryAfterSeconds;
  if (!Number.isInteger(retryAfter) || retryAfter < 0)
    throw new RangeError(`faults.retryAfterSeconds must be a whole number ≥ 0, got ${retryAfter}`);
  return { ...faults };
}

export interface FaultDraw {
  drop: boolean;
  serverError: 500 | 503 | null;
  rateLimit: boolean;
  badJson: boolean;
}

export class FaultInjector {
  private random: () => number;
  private current: SandboxFaults;

  constructor(
    private readonly seed: number,
    faults: Partial<SandboxFaults> = {},
  ) {
    this.current = validFaults({ ...NO_FAULTS, ...faults });
    this.random = mulberry32(seed ^ 0x5eed_fa17);
  }

  get settings(): SandboxFaults {
    return { ...this.current };
  }

  set(partial: Partial<SandboxFaults>): void {
    this.current = validFaults({ ...this.current, ...partial });
  }

  /** Back to the given settings and the start of the random sequence. */
  reset(faults: Partial<SandboxFaults>): void {
    this.current = validFaults({ ...NO_FAULTS, ...faults });
    this.random = mulberry32(this.seed ^ 0x5eed_fa17);
  }

  draw(): FaultDraw {
    const [drop, server, which, rateLimit, badJson] = [
      this.random(),
      this.random(),
      this.random(),
      this.random(),
      this.random(),
    ];
    return {
      drop: drop < this.current.dropRate,
      serverError: server < this.current.serverErrorRate ? (which < 0.5 ? 500 : 503) : null,
      rateLimit: rateLimit < this.current.rateLimitRate,
      badJson: badJson < this.current.badJsonRate,
    };
  }
}

/** What a drawn fault answers in place of the endpoint: no answer at all (a dropped socket) or an error. */
export type FaultAnswer =
  | { fault: "drop" }
  | { fault: "server-error" | "rate-limit"; status: number; body: string; headers: Record<string, string> };

/** The answer of the draw's fault, or null when it injects none before the endpoint (bad JSON cuts the endpoint's own answer). */
export function faultAnswer(draw: FaultDraw, retryAfterSeconds: number): FaultAnswer | null {
  if (draw.drop) return { fault: "drop" };
  if (draw.serverError) {
    const text =
      draw.serverError === 500
        ? "Internal server error (injected sandbox fault)"
        : "Service unavailable (injected sandbox fault)";
    return { fault: "server-error", status: draw.serverError, body: errorBody(draw.serverError, text), headers: {} };
  }
  if (draw.rateLimit) {
    const message = `Rate limit exceeded (injected sandbox fault): retry after ${retryAfterSeconds} s`;
    return {
      fault: "rate-limit",
      status: 429,
      body: errorBody(429, message),
      headers: { "Retry-After": String(retryAfterSeconds) },
    };
  }
  return null;
}
