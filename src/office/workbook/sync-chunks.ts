/**
 * How much goes into one `context.sync()`: a payload budget every batch asks.
 *
 * "Excel on the web limits requests and responses to 5 MB", and "the payload
 * size of a request combines: the number of API calls; the number of
 * objects, such as `Range` objects; the length of the value to set or get";
 * 10,000 one-cell writes in one sync "would likely exceed the 5MB payload
 * size limit" (Microsoft Learn, "Performance optimization using the Excel
 * JavaScript API", https://learn.microsoft.com/en-us/office/dev/add-ins/excel/performance).
 * Microsoft gives no bytes per call, so the estimate is: each object made
 * and each call queued BYTES_PER_OPERATION (Office.js sends each as an object
 * path or an action of JSON, with its arguments: 300 makes Microsoft's
 * example over 5 MB, and half of it under), plus the length of the values
 * written, plus what a read is expected to return (the formula text known
 * beforehand, BYTES_PER_CELL_READ a cell for what is not). A sync is planned
 * to carry at most PAYLOAD_BUDGET_BYTES, half the limit, since the estimate
 * can be wrong by a factor (long sheet names, long text values); and at most
 * MAX_CELLS_PER_SYNC cells, the rule before the budget.
 *
 * Where one item is too big for the budget (a spill of 100,000 cells), the
 * caller splits it into bands of rows (`bandsOf`).
 */
import { cellCount, parseRange, rectAddress, rowBands } from "../../refresh/a1";

/** Cells per sync at most: a sheet with a few thousand MD cells still goes in one sync. */
export const MAX_CELLS_PER_SYNC = 20_000;
/** Excel on the web's limit on one request and on one response. */
export const PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
/** What one sync is planned to carry at most, by the estimate below. */
export const PAYLOAD_BUDGET_BYTES = PAYLOAD_LIMIT_BYTES / 2;
/** One object (a range, a sheet by name) or one call (a load, a write, a method). */
export const BYTES_PER_OPERATION = 300;
/** What reading one property of one cell is assumed to return where its text is not known beforehand. */
export const BYTES_PER_CELL_READ = 64;
/** Cells read in one piece at most: a piece's response stays well inside the budget. */
export const MAX_CELLS_PER_PIECE = 5_000;

/** What one item adds to a sync: objects and calls, and bytes of values written or expected back. */
export interface PayloadCost {
  operations: number;
  bytes: number;
}

/** The estimated size of `cost` in bytes. */
export function payloadBytes(cost: PayloadCost): number {
  return cost.operations * BYTES_PER_OPERATION + cost.bytes;
}

/** The cost of a range made and read or written once: two operations, and each cell's read or the values' length. */
export function rangeCost(address: string, valueBytes?: number): PayloadCost {
  const cells = cellCount(parseRange(address));
  return { operations: 2, bytes: valueBytes ?? cells * BYTES_PER_CELL_READ };
}

/** The JSON length of values written (an estimate of what they add to the request). */
export function valueBytes(values: unknown): number {
  return JSON.stringify(values ?? null).length;
}

/** Splits a range into bands of whole rows of at most `maxCells` cells, for a read or a write that would be too big. */
export function bandsOf(address: string, maxCells = MAX_CELLS_PER_PIECE): string[] {
  return rowBands(parseRange(address), maxCells).map(rectAddress);
}

/** A block split into bands of rows as `bandsOf` does, each band with its rows of the block's arrays (`slice`). */
export function blockBands<T extends { address: string }>(
  block: T,
  slice: (block: T, address: string, from: number, to: number) => T,
  maxCells = MAX_CELLS_PER_PIECE,
): T[] {
  const top = parseRange(block.address).top;
  return rowBands(parseRange(block.address), maxCells).map((band) =>
    slice(block, rectAddress(band), band.top - top, band.bottom - top + 1),
  );
}

/** A block of formulas in bands of rows (`blockBands`). */
export function formulaBands(block: {
  address: string;
  formulas: string[][];
}): { address: string; formulas: string[][] }[] {
  return blockBands(block, (b, address, from, to) => ({ address, formulas: b.formulas.slice(from, to) }));
}

/**
 * Queues per-item work, syncing before an item would take the pending sync
 * over the payload budget or MAX_CELLS_PER_SYNC cells. `cost` says what an
 * item adds (default: one range read, as `rangeCost`).
 */
export async function inChunks<T extends { address: string }>(
  context: Excel.RequestContext,
  items: readonly T[],
  queue: (item: T) => void,
  cost: (item: T) => PayloadCost = (item) => rangeCost(item.address),
): Promise<void> {
  let bytes = 0;
  let cells = 0;
  for (const item of items) {
    const itemBytes = payloadBytes(cost(item));
    const itemCells = cellCount(parseRange(item.address));
    if (cells > 0 && (bytes + itemBytes > PAYLOAD_BUDGET_BYTES || cells + itemCells > MAX_CELLS_PER_SYNC)) {
      await context.sync();
      bytes = 0;
      cells = 0;
    }
    queue(item);
    bytes += itemBytes;
    cells += Math.max(1, itemCells);
  }
  if (cells > 0) await context.sync();
}

/** `inChunks` over bare addresses. */
export function inAddressChunks(
  context: Excel.RequestContext,
  addresses: readonly string[],
  queue: (address: string) => void,
  cost?: (address: string) => PayloadCost,
): Promise<void> {
  return inChunks(
    context,
    addresses.map((address) => ({ address })),
    ({ address }) => queue(address),
    cost && (({ address }) => cost(address)),
  );
}

/** How a write that Excel may refuse in part is done: the item's write, its cost, how to split one item, and a refusal. */
export interface RefusableWrites<T> {
  write(item: T): void;
  cost(item: T): PayloadCost;
  /** The smaller items one refused item is made of (a block's cells); none when it is already the smallest. */
  split(item: T): T[];
  refused(item: T, reason: string): void;
}

/**
 * Writes the items in chunks within the budget. One refused cell fails its
 * whole sync, so a failed chunk is halved and each half tried again, down to
 * the smallest items (`split`): a refusal costs a few syncs each within the
 * limit, not one sync per cell. Writing again what a failed sync had already
 * applied only enters the same formula or value once more.
 */
export async function writeRefusable<T extends { address: string }>(
  context: Excel.RequestContext,
  items: readonly T[],
  writes: RefusableWrites<T>,
): Promise<void> {
  const chunks: T[][] = [[]];
  let bytes = 0;
  for (const item of items) {
    const itemBytes = payloadBytes(writes.cost(item));
    if (chunks[chunks.length - 1].length > 0 && bytes + itemBytes > PAYLOAD_BUDGET_BYTES) {
      chunks.push([]);
      bytes = 0;
    }
    chunks[chunks.length - 1].push(item);
    bytes += itemBytes;
  }
  for (const chunk of chunks) if (chunk.length > 0) await tryChunk(context, chunk, writes);
}

async function tryChunk<T extends { address: string }>(
  context: Excel.RequestContext,
  chunk: readonly T[],
  writes: RefusableWrites<T>,
): Promise<void> {
  try {
    chunk.forEach((item) => writes.write(item));
    await context.sync();
    return;
  } catch (error) {
    if (chunk.length > 1) {
      const half = Math.ceil(chunk.length / 2);
      await tryChunk(context, chunk.slice(0, half), writes);
      await tryChunk(context, chunk.slice(half), writes);
      return;
    }
    const parts = writes.split(chunk[0]);
    if (parts.length > 1) await writeRefusable(context, parts, writes);
    else writes.refused(chunk[0], error instanceof Error ? error.message : String(error));
  }
}

/**
 * Loads `properties` of each range in bands of rows (`bandsOf`), in syncs the
 * budget sizes at `bytesPerCell` a cell; each band with the index of the
 * address it is part of, in order (join a range's bands by rows).
 */
export async function loadInBands(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  properties: string,
  bytesPerCell: number,
): Promise<{ address: string; owner: number; range: Excel.Range }[]> {
  const pieces = addresses.flatMap((address, owner) => bandsOf(address).map((band) => ({ address: band, owner })));
  const loaded: { address: string; owner: number; range: Excel.Range }[] = [];
  await inChunks(
    context,
    pieces,
    (piece) => {
      const range = sheet.getRange(piece.address);
      range.load(properties);
      loaded.push({ ...piece, range });
    },
    ({ address }) => rangeCost(address, bytesPerCell * cellCount(parseRange(address))),
  );
  return loaded;
}

/** Each block's formulas and values as they are now, in bands of rows (`formulaBands`), the formulas expected back counted at their length. */
export async function loadFormulaBlocks<T extends { address: string; formulas: string[][] }>(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly T[],
): Promise<{ block: { address: string; formulas: string[][] }; range: Excel.Range }[]> {
  const reads: { block: { address: string; formulas: string[][] }; range: Excel.Range }[] = [];
  await inChunks(
    context,
    blocks.flatMap(formulaBands),
    (block) => {
      const range = sheet.getRange(block.address);
      range.load("formulas,values");
      reads.push({ block, range });
    },
    (block) => {
      const read = rangeCost(block.address);
      return { operations: read.operations, bytes: read.bytes + valueBytes(block.formulas) };
    },
  );
  return reads;
}
