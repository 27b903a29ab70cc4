/**
 * A caller's window answered from what the persistent store holds
 * (read-through.ts decides when): the held points of a series version made
 * once and shared, the answer where the stored part holds no point, the
 * stored and fetched points merged by date, and their size as the service
 * sends them (the bytes-saved figure).
 */
import type { DataPoint, SeriesResult } from "../../core/domain";
import { lowerBound, upperBound } from "./series-data";
import type { SeriesData, StoredPoint } from "./types";
import type { WindowPlan } from "./window-plan";

/** A point's bytes besides its value's digits. */
const POINT_BYTES = 29;

/** About what the service sends for one point: {"date":"2025-06-15","val":123.45}, */
export function pointBytes(points: readonly StoredPoint[]): number {
  let bytes = 0;
  for (const point of points) bytes += POINT_BYTES + String(point.val).length;
  return bytes;
}

/**
 * A series as the store holds it, its points made once: the store replaces a
 * series' data on every change and never alters it, so the points of one
 * version are built on first use (only the days asked) and shared by every
 * window answered from it, with their sizes for the bytes-saved figure.
 */
interface HeldPoints {
  points: DataPoint[];
  bytes: number[];
}

const heldPoints = new WeakMap<SeriesData, HeldPoints>();

/** The points of `data` from `start` to `end`, a new array each time, and their bytes as the service sends them. */
export function heldWindow(data: SeriesData, start: string, end: string): { points: DataPoint[]; bytes: number } {
  let held = heldPoints.get(data);
  if (!held) heldPoints.set(data, (held = { points: [], bytes: [] }));
  const from = lowerBound(data.dates, start);
  const to = upperBound(data.dates, end);
  const points: DataPoint[] = [];
  let bytes = 0;
  for (let i = from; i < to; i++) {
    let point = held.points[i];
    if (point === undefined) {
      point = held.points[i] = { date: data.dates[i]!, val: data.vals[i]! } as DataPoint;
      held.bytes[i] = POINT_BYTES + String(point.val).length;
    }
    points.push(point);
    bytes += held.bytes[i]!;
  }
  return { points, bytes };
}

/** Stored points as the domain's points. A null is kept only where the service answered null. */
export function asPoints(points: readonly StoredPoint[]): DataPoint[] {
  return points as DataPoint[];
}

/**
 * The answer for a window whose stored part holds no point, from what the
 * store answered (`plan`) and what was fetched for the rest (`fetched`):
 *
 * - every day known carries the same message (the stored days' and the
 *   fetched parts'): that message, as the service answers the window;
 * - no message anywhere: the points (none stored; the fetched ones);
 * - a message beside points fetched now (the pair has data again: the
 *   stored message may be out of date for the days it covers), beside days
 *   known without one, or two different messages: "ask", the whole window
 *   is asked again.
 */
export function storedAnswer(plan: WindowPlan, fetched: readonly SeriesResult[]): SeriesResult | "ask" {
  const messages = new Set(plan.messages);
  let plain = plan.plainServed || plan.stored.length > 0;
  for (const result of fetched) {
    if (result.kind === "message") messages.add(result.message);
    else plain = true;
  }
  if (messages.size === 0) return { kind: "points", points: asPoints(plan.stored) };
  if (plan.stored.length > 0) return { kind: "points", points: asPoints(plan.stored) };
  if (messages.size === 1 && !plain) return { kind: "message", message: [...messages][0]! };
  return "ask";
}

/** Two date-ordered lists as one, a date present in both taken once (the later list wins). */
export function mergeByDate(a: readonly DataPoint[], b: readonly DataPoint[]): DataPoint[] {
  if (a.length === 0) return [...b];
  if (b.length === 0) return [...a];
  const out: DataPoint[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.date < y.date)) {
      out.push(x!);
      i++;
    } else if (x !== undefined && x.date === y.date) {
      out.push(y);
      i++;
      j++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}
