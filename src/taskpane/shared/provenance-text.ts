/** How the Trace and the What changed list word what the records hold. */
import type { AnswerSource, PairAnswer } from "../../api";
import { SOURCE_NAMES } from "../../core/provenance";

/** A time as the user's clock shows it: YYYY-MM-DD hh:mm:ss. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Who answered: the service, the firm gateway's cache (with what it said), or this computer's store. */
export function sourceText(answer: Pick<PairAnswer, "source" | "request">): string {
  const name = SOURCE_NAMES[answer.source as AnswerSource];
  const status = answer.request?.cacheStatus;
  return status ? `${name} (${status})` : name;
}

/** The days an answer covered, and up to which day they had settled. */
export function daysText(answer: Pick<PairAnswer, "from" | "to" | "settledThrough">): string {
  const covered = `${answer.from ?? "the first day"} to ${answer.to ?? "the latest day"}`;
  return answer.settledThrough ? `${covered}, settled through ${answer.settledThrough}` : `${covered}, not yet settled`;
}

/** Points the answer checks dropped, by reason: "2 outside the window, 1 not a number". */
export function droppedText(dropped: Readonly<Record<string, number>> | undefined): string | null {
  const parts = Object.entries(dropped ?? {}).map(([reason, count]) => `${count} ${reason}`);
  return parts.length > 0 ? parts.join(", ") : null;
}

/** A value as a cell shows it, roughly: numbers with up to 6 decimals, text as it is. */
export function valueText(value: unknown): string {
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 6 });
  if (value === null || value === undefined || value === "") return "(empty)";
  return String(value);
}

/** By how much a number moved: "+10 (+10%)". */
export function changeText(was: number, by: number): string {
  const sign = by >= 0 ? "+" : "−";
  const amount = `${sign}${valueText(Math.abs(by))}`;
  if (was === 0) return amount;
  const pct = (by / Math.abs(was)) * 100;
  return `${amount} (${sign}${Math.abs(pct).toLocaleString("en-US", { maximumFractionDigits: 2 })}%)`;
}
