/**
 * Direct HTTP reads of the sandbox, bypassing the add-in: the independent
 * source the bundle tests compute their expectations from.
 */
import { DEMO_API_KEY, type SandboxHandle } from "../../sandbox/server";

export interface RawPoint {
  date: string;
  val: number;
}

export async function rawGet<T>(sandbox: SandboxHandle, path: string, params: Record<string, string> = {}): Promise<T> {
  const query = new URLSearchParams({ ...params, APIKey: DEMO_API_KEY });
  const response = await fetch(`${sandbox.url}${path}?${query}`);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** symbol → metric → points or the service's message. */
export async function rawSeries(
  sandbox: SandboxHandle,
  symbols: string[],
  metrics: string[],
  params: Record<string, string>,
): Promise<Record<string, Record<string, RawPoint[] | string>>> {
  const body = await rawGet<{ data: { symbols: Record<string, Record<string, RawPoint[] | string>> } }>(
    sandbox,
    `/data/api/${metrics.join(",")}/`,
    { symbols: symbols.join(","), ...params },
  );
  return body.data.symbols;
}

export async function rawPoints(
  sandbox: SandboxHandle,
  symbol: string,
  metric: string,
  params: Record<string, string>,
): Promise<RawPoint[]> {
  const answer = (await rawSeries(sandbox, [symbol], [metric], params))[symbol][metric];
  if (!Array.isArray(answer)) throw new Error(`${symbol} ${metric}: ${answer}`);
  return answer;
}

/** Excel 1900-system serial of a date after 1900-02-28, computed from JavaScript's UTC calendar. */
export function serial(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** Requests the sandbox received for an endpoint ("/data/api/", "/flows/top/", …) so far. */
export function requestsTo(sandbox: SandboxHandle, endpoint: string): number {
  return sandbox.stats().byEndpoint[endpoint] ?? 0;
}

export function isoDaysAgo(days: number, from = new Date()): string {
  const base = Date.UTC(from.getFullYear(), from.getMonth(), from.getDate());
  return new Date(base - days * 86_400_000).toISOString().slice(0, 10);
}
