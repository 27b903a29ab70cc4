/**
 * Helpers for the client's tests over real HTTP against the sandbox: settle
 * every promise within a bound (none may stay pending), and look for the key
 * in every form a text could carry it.
 */
import { createServer, type Server } from "node:http";
import { listenLocal } from "./local-server";

/** Waits for every promise to settle, failing the test if any is still pending after `ms`. */
export async function settleWithin<T>(promises: Promise<T>[], ms: number): Promise<PromiseSettledResult<T>[]> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set(promises.map((_, i) => i));
  promises.forEach((p, i) =>
    p.then(
      () => pending.delete(i),
      () => pending.delete(i),
    ),
  );
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${pending.size} of ${promises.length} promises still pending after ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([Promise.allSettled(promises), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The key as text, URL-encoded and form-encoded. */
export function keyForms(key: string): string[] {
  return [...new Set([key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2)])];
}

/** Every string inside a value (keys of objects included), for searching results for the key. */
export function allText(value: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") parts.push(v);
    else if (v instanceof Error) parts.push(v.message, v.stack ?? "");
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v instanceof Map)
      for (const [k, item] of v) {
        walk(k);
        walk(item);
      }
    else if (typeof v === "object" && v !== null)
      for (const [k, item] of Object.entries(v)) {
        parts.push(k);
        walk(item);
      }
  };
  walk(value);
  return parts.join("\n");
}

export function expectNoKey(value: unknown, key: string): void {
  const text = allText(value);
  for (const form of keyForms(key)) expect(text).not.toContain(form);
}

/** A plain HTTP server standing for a host the user never configured: it counts what reaches it. */
export interface ForeignHost {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function foreignHost(): Promise<ForeignHost> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ data: { symbols: { eth: { PRICE: [{ date: "2024-06-01", val: 666 }] } } } }));
  });
  const { url, close } = await listenLocal(server);
  return { origin: url, requests, close };
}
