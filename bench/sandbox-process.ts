/**
 * The sandbox in a process of its own, for a benchmark that measures the
 * add-in's thread: the service's own work (building, serialising and sending
 * its answers) then runs beside the cells, not on their thread, as the real
 * service's does. Driven over Node's IPC channel with the few switches a
 * benchmark needs; the process ends with its parent.
 *
 *   const sandbox = await startSandboxProcess({ latencyMs: 100 });
 *   await sandbox.reset(); … (await sandbox.stats()).requests … await sandbox.close();
 */
import { fork } from "node:child_process";
import { startSandbox, type SandboxOptions, type SandboxStats } from "../sandbox/server";

export interface SandboxProcess {
  /** `http://<host>:<port>`, no trailing slash. */
  url: string;
  reset(): Promise<void>;
  setLatency(ms: number): Promise<void>;
  stats(): Promise<SandboxStats>;
  /** Stops the sandbox and its process. */
  close(): Promise<void>;
}

type Op = { op: "reset" } | { op: "setLatency"; ms: number } | { op: "stats" };
type Request = { id: number } & Op;
type Reply = { id: number; result?: unknown; error?: string };

const SERVE = "--serve-sandbox";

export function startSandboxProcess(options: SandboxOptions): Promise<SandboxProcess> {
  const child = fork(__filename, [SERVE, JSON.stringify(options)], {
    execArgv: process.execArgv,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  child.on("exit", (code) => failAll(new Error(`sandbox process exited with ${code}`)));
  const ask = (request: Op): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`sandbox process exited with ${code} before listening`)));
    child.on("message", (message: Reply | { url: string }) => {
      if ("url" in message) {
        resolve({
          url: message.url,
          reset: async () => void (await ask({ op: "reset" })),
          setLatency: async (ms) => void (await ask({ op: "setLatency", ms })),
          stats: async () => (await ask({ op: "stats" })) as SandboxStats,
          close: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.disconnect();
            }),
        });
        return;
      }
      const w = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) w?.reject(new Error(message.error));
      else w?.resolve(message.result);
    });
  });
}

/** The child: the sandbox, answering the parent's requests until the parent lets go. */
async function serve(options: SandboxOptions): Promise<void> {
  const sandbox = await startSandbox(options);
  const send = (message: Reply | { url: string }) => process.send?.(message);
  process.on("message", (request: Request) => {
    try {
      if (request.op === "reset") sandbox.reset();
      else if (request.op === "setLatency") sandbox.setLatency(request.ms);
      send({ id: request.id, result: request.op === "stats" ? sandbox.stats() : null });
    } catch (error) {
      send({ id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  process.once("disconnect", () => void sandbox.close().finally(() => process.exit(0)));
  send({ url: sandbox.url });
}

if (process.argv[2] === SERVE) {
  serve(JSON.parse(process.argv[3] ?? "{}") as SandboxOptions).catch((error: unknown) => {
    console.error("sandbox process:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
