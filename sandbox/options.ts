/**
 * The sandbox's start-up options, their defaults and their checks: a bad
 * option fails start-up with a RangeError naming it.
 */
import { dayOfDate, parseIsoDay } from "./dates";
import type { SandboxFaults } from "./faults";
import type { HostileOptions } from "./hostile";
import type { RealisticOptions } from "./realistic";

/** The documented demo key the sandbox accepts unless told otherwise. */
export const DEMO_API_KEY = "md-sandbox-demo";

export interface SandboxOptions {
  /** 0 (the default) picks a free port. The CLI's default is 3001. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The key `/data/api/` and `/flows/top/` require. Default DEMO_API_KEY. */
  apiKey?: string;
  /** Delay before every GET is answered, ms. Default 0. */
  latencyMs?: number;
  /** Delay of the first uncached call of an insight feed, ms. Default 200 (the CLI uses 3000). */
  insightFirstCallDelayMs?: number;
  /** Size of the asset catalog: filler tokens are added to reach it. Default: the named set only (no filler); it is always present. */
  assetCount?: number;
  /** Add the tokens with markup-like titles (`<img src=x onerror=…>`, `<b>Bold</b> Token`, …) that rendering tests need. Default false. */
  hostileFixtures?: boolean;
  faults?: Partial<SandboxFaults>;
  /** Seeds the data and the fault sequence. Default 1. */
  seed?: number;
  /** Revises history: every series value is scaled by 1 + revision, as a methodology change would. Default 0. */
  revision?: number;
  /**
   * Revises one day only: that day's value of every daily series is scaled by
   * 1 + `by` (a single wrong value corrected), before any WEEK/MONTH/QUARTER/YEAR
   * roll-up, so the periods holding it change too. Default none.
   */
  reviseDay?: ReviseDay | null;
  /** Last day with data, `YYYY-MM-DD` or a Date. Default: the current UTC date, read per request. */
  today?: string | Date;
  /** No console output. Default true (the CLI passes false). */
  quiet?: boolean;
  /** Play the real service's behaviours (sandbox/realistic.ts): `true` for all of them, or some. Default off. */
  realistic?: boolean | Partial<RealisticOptions>;
  /** Failure switches of a broken or hostile service (sandbox/hostile.ts). Default none. */
  hostile?: Partial<HostileOptions>;
}

/** The options every start-up needs, checked and with their defaults; the others are read where they are used. */
export interface ResolvedOptions {
  host: string;
  apiKey: string;
  seed: number;
  /** The fixed last day with data; null: the current UTC date, read per request. */
  today: number | null;
  quiet: boolean;
  latencyMs: number;
  insightFirstCallDelayMs: number;
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const host = options.host ?? "127.0.0.1";
  const apiKey = options.apiKey ?? DEMO_API_KEY;
  if (apiKey === "") throw new RangeError("apiKey must not be empty");
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const today = todayOption(options.today);
  const quiet = options.quiet ?? true;
  const latencyMs = nonNegative("latencyMs", options.latencyMs ?? 0);
  const insightFirstCallDelayMs = nonNegative("insightFirstCallDelayMs", options.insightFirstCallDelayMs ?? 200);
  return { host, apiKey, seed, today, quiet, latencyMs, insightFirstCallDelayMs };
}

export function nonNegative(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number ≥ 0, got ${value}`);
  return value;
}

export function todayOption(today: string | Date | undefined): number | null {
  if (today === undefined) return null;
  const day = typeof today === "string" ? parseIsoDay(today) : dayOfDate(today);
  if (day === null || Number.isNaN(day))
    throw new RangeError(`today must be a YYYY-MM-DD date or a Date, got ${String(today)}`);
  return day;
}

/** One day's correction (SandboxOptions.reviseDay). */
export interface ReviseDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** The day's values are scaled by 1 + by. */
  by: number;
}

/** A one-day correction as the data reads it: the day number and the factor; null for none. */
export function reviseDayOption(revise: ReviseDay | null | undefined): { day: number; scale: number } | null {
  if (!revise) return null;
  const day = parseIsoDay(revise.date);
  if (day === null) throw new RangeError(`reviseDay.date must be a YYYY-MM-DD date, got ${String(revise.date)}`);
  if (typeof revise.by !== "number" || !Number.isFinite(revise.by))
    throw new RangeError(`reviseDay.by must be a finite number, got ${String(revise.by)}`);
  return { day, scale: 1 + revise.by };
}
