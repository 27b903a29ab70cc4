/**
 * Other programs keeping the computer busy: `n` child `node -e` processes,
 * each a busy loop on one core, as an analyst's laptop runs a build, a video
 * call and a browser beside Excel. Each child also ends on its own when its
 * parent has gone or after `maxMs` (so a crashed run leaves nothing
 * spinning); `stop()` kills them and resolves once each has exited. Used by
 * the busy reopen bench (bench/reopen.ts --busy N) and its test
 * (test/api/store/busy-reopen.test.ts, through test/support/busy-cpu.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";

/** The loop: spin, and every few million turns check that the parent is alive and the time is not up. */
const LOOP = `
const parent = process.ppid;
const end = Date.now() + Number(process.argv[1]);
for (let n = 1; ; n++) {
  if ((n & 0xfffff) === 0) {
    if (Date.now() > end) process.exit(0);
    try { process.kill(parent, 0); } catch { process.exit(0); }
  }
}`;

export interface BusyCpu {
  /** How many children are spinning. */
  readonly count: number;
  /** Kills every child; resolves once all have exited. */
  stop(): Promise<void>;
}

export function busyCpu(n: number, maxMs = 10 * 60_000): BusyCpu {
  const children: ChildProcess[] = [];
  for (let i = 0; i < n; i++) {
    children.push(spawn(process.execPath, ["-e", LOOP, String(maxMs)], { stdio: "ignore" }));
  }
  return {
    count: n,
    stop: () =>
      Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGKILL");
            }),
        ),
      ).then(() => undefined),
  };
}
