import { createClient } from "./src/api/client";
import { formattedSeriesTable } from "./src/functions/series";
import { latestValue } from "./src/functions/latest";
import { DEMO_API_KEY, startSandbox } from "./sandbox/server";
(async () => {
  const sandbox = await startSandbox({ today: "2025-06-15", insightFirstCallDelayMs: 0, assetCount: 2000 });
  const pre = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
  const symbols = (await pre.getAssets()).filter((a) => !a.symbol.startsWith("eq-")).slice(0, 200).map((a) => a.symbol);
  sandbox.setHostile({ endlessBody: ["/data/api/"] });
  const logs: string[] = [];
  const [tm, dl] = process.argv.slice(2).map(Number);
  const c = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }), callDeadlineMs: dl, timeoutMs: tm, retryBaseMs: 300, logger: (l) => logs.push(l) });
  const ctx = { client: c, today: "2025-06-15", call: {} };
  const t = Date.now();
  const cells = [];
  for (const s of symbols) for (const m of ["PRICE","FEES","DAU","TXNS","TVL"]) cells.push(latestValue(ctx, { symbol: s, metric: m }));
  for (const s of symbols.slice(0, 10)) cells.push(formattedSeriesTable(ctx, { symbols: s, metrics: "PRICE" }));
  const r = await Promise.allSettled(cells);
  const counts = new Map();
  for (const x of r) { const k = x.status === "rejected" ? (x.reason as Error).message.replace(/\(.*\)/, "") : "ok"; counts.set(k, (counts.get(k) ?? 0) + 1); }
  console.log(Date.now() - t, counts);
  console.log(logs.filter(l => !l.startsWith("GET") && !l.startsWith("retry")).slice(0, 20).join("\n"));
  await sandbox.close();
})();
