/**
 * The dev server world: webpack-dev-server with webpack.config.js's own
 * devServer settings and middleware, run as a child process
 * (run-dev-server.js) serving the built dist/ over http on a random port.
 * `useDevServer()` starts it before the suite (or describe block) and stops
 * it after; `useDevServer(timeout, { movedPort: true })` starts it as
 * `npm start` does with MD_DEV_SERVER_PORT set, on a free port other than 3000.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { lateBound } from "./late-bound";

export interface DevServer {
  /** http://localhost:<port>, as a browser opening `npm start`'s address sees it. */
  origin: string;
  /** The host webpack.config.js's devServer names. */
  configuredHost: string;
  /** The address the server really bound. */
  boundAddress: string;
  /** The port it listens on. */
  port: number;
}

export interface DevServerOptions {
  /** Run it on a free port other than 3000, named by MD_DEV_SERVER_PORT (as `npm start` passes a moved port). */
  movedPort?: boolean;
}

/** A port nothing listens on now (the probe is closed at once), never the default 3000. */
async function freeLocalPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(0, "localhost", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    if (port !== 3000) return port;
  }
}

/** Waits for the child's `listening <port> host=<host> address=<address>` line. */
async function listening(child: ChildProcess): Promise<DevServer> {
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening .+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.on("exit", (code) => reject(new Error(`the dev server exited (${code}): ${output}`)));
  });
  const [, port, configuredHost, boundAddress] = /listening (\d+) host=(\S+) address=(\S+)/.exec(line)!;
  return { origin: `http://localhost:${port}`, configuredHost, boundAddress, port: Number(port) };
}

/**
 * The dev server for the suite or describe block this is called in: started
 * in a beforeAll (webpack starting can outlast jest's default timeout on a
 * loaded machine, hence `timeoutMs`), stopped in an afterAll — even when it
 * never said it was listening.
 */
export function useDevServer(timeoutMs = 60_000, options: DevServerOptions = {}): DevServer {
  let child: ChildProcess | undefined;
  let server: DevServer | undefined;
  beforeAll(async () => {
    const env = { ...process.env };
    delete env.MD_DEV_SERVER_PORT;
    if (options.movedPort) env.MD_DEV_SERVER_PORT = String(await freeLocalPort());
    child = spawn(process.execPath, [path.resolve(__dirname, "run-dev-server.js")], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    server = await listening(child);
  }, timeoutMs);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const running = child;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await exited;
    }
    child = undefined;
    server = undefined;
  });
  return lateBound("the dev server (useDevServer)", () => server);
}
