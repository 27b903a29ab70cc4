/**
 * `npm run gateway -- usage <access.log>`: who used the gateway, per user and
 * day, from the access log's JSON lines (log_format md_gateway,
 * deploy/nginx/README.md "The access log"): requests, bytes sent, the cache
 * hit rate of the answers that went through the cache, and refusals (401,
 * 403 and 429: the gateway's sign-in, group and rate rules). Lines that are
 * not the gateway's JSON are skipped and counted, never guessed at.
 */

export interface UsageRow {
  /** The signed-in user (oid or sub); "(not signed in)" for a request that named none. */
  user: string;
  /** The day (UTC), YYYY-MM-DD. */
  day: string;
  requests: number;
  bytes: number;
  /** Answers the cache served. */
  cacheHits: number;
  /** Answers that went through the cache (any cache status). */
  cacheable: number;
  /** 401, 403 and 429 answers. */
  refusals: number;
}

export interface UsageReport {
  rows: UsageRow[];
  /** Lines that were not an access log entry. */
  skipped: number;
  /** The rows as a plain table. */
  table: string;
}

const NOT_SIGNED_IN = "(not signed in)";
const REFUSALS = new Set(["401", "403", "429"]);

interface Entry {
  time: string;
  user: string;
  status: string;
  cache: string;
  bytes: string;
}

function entryOf(line: string): Entry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const entry = value as Record<string, unknown>;
  const fields = ["time", "user", "status", "cache", "bytes"] as const;
  if (!fields.every((field) => typeof entry[field] === "string")) return null;
  if (Number.isNaN(Date.parse(entry.time as string))) return null;
  return entry as unknown as Entry;
}

export function usageReport(log: string): UsageReport {
  const rows = new Map<string, UsageRow>();
  let skipped = 0;
  for (const line of log.split("\n")) {
    if (!line.trim()) continue;
    const entry = entryOf(line);
    if (!entry) {
      skipped++;
      continue;
    }
    const user = entry.user && entry.user !== "-" ? entry.user : NOT_SIGNED_IN;
    const day = new Date(entry.time).toISOString().slice(0, 10);
    const key = `${user}\u0000${day}`;
    const row = rows.get(key) ?? { user, day, requests: 0, bytes: 0, cacheHits: 0, cacheable: 0, refusals: 0 };
    row.requests++;
    row.bytes += Number(entry.bytes) || 0;
    if (entry.cache) row.cacheable++;
    if (entry.cache === "HIT" || entry.cache === "STALE" || entry.cache === "UPDATING" || entry.cache === "REVALIDATED")
      row.cacheHits++;
    if (REFUSALS.has(entry.status)) row.refusals++;
    rows.set(key, row);
  }
  const sorted = [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.user.localeCompare(b.user));
  return { rows: sorted, skipped, table: tableOf(sorted, skipped) };
}

function tableOf(rows: UsageRow[], skipped: number): string {
  const header = ["day", "user", "requests", "bytes", "cache hit rate", "refusals"];
  const body = rows.map((r) => [
    r.day,
    r.user,
    String(r.requests),
    String(r.bytes),
    r.cacheable ? `${Math.round((100 * r.cacheHits) / r.cacheable)}% of ${r.cacheable}` : "-",
    String(r.refusals),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ");
  const out = [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)];
  if (skipped) out.push(`(${skipped} line${skipped === 1 ? "" : "s"} skipped: not the gateway's JSON access log)`);
  return out.join("\n");
}
