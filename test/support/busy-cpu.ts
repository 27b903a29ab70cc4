/**
 * Other programs keeping the computer busy while a test runs: `useBusyCpu(n)`
 * starts `n` CPU-bound child processes (harness/busy-cpu.ts) in a beforeAll
 * and kills them in the afterAll of the block it is called in.
 */
import { busyCpu, type BusyCpu } from "../../harness/busy-cpu";

export function useBusyCpu(n: number): void {
  let spinning: BusyCpu | undefined;
  beforeAll(() => {
    spinning = busyCpu(n);
  });
  afterAll(async () => {
    await spinning?.stop();
  });
}
