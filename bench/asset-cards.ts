/**
 * 500 MD.ASSET cards in one burst (a column of cells calculated together)
 * beside the MD.LATEST / MD.AGG cells of the same pairs (every property a card
 * of the symbol's family asks for), each through src/functions with its own
 * fresh client: the series requests the sandbox received for each. The cards
 * must cost no more than the cells (DESIGN's functions table, MD.ASSET).
 */
import { createClient } from "../src/api/client";
import { assetPropertySpecs } from "../src/core/asset-card";
import type { CallContext } from "../src/functions/call-context";
import { aggregateValue } from "../src/functions/agg";
import { assetCard } from "../src/functions/asset";
import { latestValue } from "../src/functions/latest";
import { DEMO_API_KEY, type SandboxHandle } from "../sandbox/server";

export const ASSET_CARDS = 500;

export interface AssetCardsRun {
  cards: number;
  pairs: number;
  /** Series requests (/data/api/) for the cards, and for the cells of the same pairs. */
  cardRequests: number;
  cellRequests: number;
  cardMs: number;
  cellMs: number;
}

function context(sandbox: SandboxHandle, today: string): CallContext {
  const client = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
  return { client, today, call: {} };
}

function seriesRequests(sandbox: SandboxHandle): number {
  return sandbox.stats().byEndpoint["/data/api/"] ?? 0;
}

export async function runAssetCards(sandbox: SandboxHandle, symbols: string[], today: string): Promise<AssetCardsRun> {
  const cardsCtx = context(sandbox, today);
  let before = seriesRequests(sandbox);
  let started = performance.now();
  await Promise.allSettled(symbols.map((symbol) => assetCard(cardsCtx, { symbol })));
  const cardMs = performance.now() - started;
  const cardRequests = seriesRequests(sandbox) - before;

  const cellsCtx = context(sandbox, today);
  const cells = symbols.flatMap((symbol) => assetPropertySpecs(symbol).map((spec) => ({ symbol, read: spec.read })));
  before = seriesRequests(sandbox);
  started = performance.now();
  await Promise.allSettled(
    cells.map(({ symbol, read }) =>
      read.kind === "latest"
        ? latestValue(cellsCtx, { symbol, metric: read.metric })
        : aggregateValue(cellsCtx, { symbol, metric: read.metric, window: read.window, stat: read.stat }),
    ),
  );
  const cellMs = performance.now() - started;
  return {
    cards: symbols.length,
    pairs: cells.length,
    cardRequests,
    cellRequests: seriesRequests(sandbox) - before,
    cardMs,
    cellMs,
  };
}

export function assetCardsText(run: AssetCardsRun, latencyMs: number): string {
  return [
    `\n### ${run.cards} MD.ASSET cards beside the ${run.pairs.toLocaleString("en-US")} MD.LATEST / MD.AGG cells of the same pairs, sandbox latency ${latencyMs} ms\n`,
    "| run | series requests | wall ms |",
    "|---|---:|---:|",
    `| ${run.cards} MD.ASSET cards (one burst) | ${run.cardRequests} | ${Math.round(run.cardMs)} |`,
    `| ${run.pairs.toLocaleString("en-US")} MD.LATEST / MD.AGG cells (one burst) | ${run.cellRequests} | ${Math.round(run.cellMs)} |`,
  ].join("\n");
}
