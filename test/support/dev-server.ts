/**
 * The dev server world: webpack-dev-server with webpack.config.js's own
 * devServer settings and middleware, run as a child process
 * (run-dev-server.js) serving the built dist/ over http on a random port.
 * `useDevServer()` starts it before the suite (or describe block) and stops
 * it after.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { lateBound } from "./late-bound";

export interface DevServer {
  /** http://localhost:<port>, as a browser opening `npm start`'s address sees it. */
  origin: string;
  /** The host webpack.config.js's devServer names. */
  configuredHost: string;
  /** The address the server really bound. */
  boundAddress: string;
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
  return { origin: `http://localhost:${port}`, configuredHost, boundAddress };
}

/**
 * The dev server for the suite or describe block this is called in: started
 * in a beforeAll (webpack starting can outlast jest's default timeout on a
 * loaded machine, hence `timeoutMs`), stopped in an afterAll — even when it
 * never said it was listening.
 */
export function useDevServer(timeoutMs = 60_000): DevServer {
  let child: ChildProcess | undefined;
  let server: DevServer | undefined;
  beforeAll(async () => {
    child = spawn(process.execPath, [path.resolve(__dirname, "run-dev-server.js")], {
      stdio: ["ignore", "pipe", "pipe"],
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
