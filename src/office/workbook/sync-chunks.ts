/**
 * How much goes into one `context.sync()`. Excel on the web caps a request or
 * response at 5 MB, so work on many ranges is queued and synced in chunks
 * rather than all at once or one range per sync.
 */
import { cellCount, parseRange } from "../../refresh/a1";

/**
 * Cells per sync. Excel on the web caps a request or response at 5 MB; 20,000
 * cells of formula text or values stays well below it, and a sheet with a few
 * thousand MD cells still goes in one sync.
 */
export const MAX_CELLS_PER_SYNC = 20_000;

/** Queues per-block work, syncing whenever MAX_CELLS_PER_SYNC cells are pending. */
export async function inChunks<T extends { address: string }>(
  context: Excel.RequestContext,
  items: readonly T[],
  queue: (item: T) => void,
): Promise<void> {
  let pending = 0;
  for (const item of items) {
    queue(item);
    pending += cellCount(parseRange(item.address));
    if (pending >= MAX_CELLS_PER_SYNC) {
      await context.sync();
      pending = 0;
    }
  }
  if (pending > 0) await context.sync();
}

/** `inChunks` over bare addresses. */
export function inAddressChunks(
  context: Excel.RequestContext,
  addresses: readonly string[],
  queue: (address: string) => void,
): Promise<void> {
  return inChunks(
    context,
    addresses.map((address) => ({ address })),
    ({ address }) => queue(address),
  );
}
