/**
 * What the gateway checks when it starts, and how it says so: the firm key
 * asked of the service once (accepted, refused, or not checked when the
 * service cannot be reached) and reported in /healthz, never the key itself;
 * a port that is taken said once, as `npm start` says it (which port, what
 * holds it, how to move); nginx named by its process id in the banner. And
 * the access log's line for a refused key: the request as sent, the key's
 * value redacted. Real nginx, the sandbox, `npm run gateway` itself.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startSandbox, type SandboxHandle } from "../../sandbox/server";
import { freePort, startGateway } from "../../scripts/lib/gateway";
import { DIST } from "../../harness/bundle";
import { accessLogWith, describeGateway, NGINX, useGateway, useGatewayRig } from "../support/gateway";

const ROOT = path.resolve(__dirname, "../..");

async function health(url: string): Promise<{ text: string; json: Record<string, unknown> }> {
  const text = await (await fetch(`${url}/healthz`)).text();
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

describeGateway("the firm key, checked against the service at start (/healthz)", () => {
  describe("a key the service accepts", () => {
    const rig = useGatewayRig();
    it('says "accepted" and when, and never the key', async () => {
      const { text, json } = await health(rig.gateway.url);
      expect(json).toEqual({ status: "ok", keyMode: "firm", firmKey: "accepted", checkedAt: expect.any(String) });
      expect(Date.now() - Date.parse(json.checkedAt as string)).toBeLessThan(10 * 60_000);
      expect(text).not.toContain(rig.key);
      expect(rig.gateway.keyCheck.firmKey).toBe("accepted");
    });
  });

  describe("a key the service refuses", () => {
    // The sandbox accepts another key than the one in the gateway's key file.
    const rig = useGatewayRig({ sandbox: { apiKey: `md-firm-${randomUUID()}` } });
    it('starts, and says "refused" with the service\'s status, never the key', async () => {
      const { text, json } = await health(rig.gateway.url);
      expect(json).toEqual({
        status: "ok",
        keyMode: "firm",
        firmKey: "refused",
        checkedAt: expect.any(String),
        firmKeyDetail: "the service answered HTTP 401",
      });
      expect(text).not.toContain(rig.key);
      // The service was asked with the key: the request it refused is in its log.
      expect(rig.sandbox.requestLog().some((e) => e.path === "/data/api/PRICE/" && e.status === 401)).toBe(true);
    });
  });

  describe("a service that cannot be reached", () => {
    const rig = useGateway(async () => `http://127.0.0.1:${await freePort()}`);
    it('starts, and says "unchecked" and why', async () => {
      const { text, json } = await health(rig.gateway.url);
      expect(json).toMatchObject({ status: "ok", keyMode: "firm", firmKey: "unchecked" });
      expect(json.firmKeyDetail).toBe("the service could not be reached (ECONNREFUSED)");
      expect(text).not.toContain(rig.key);
    });
  });

  describe("pass-through mode", () => {
    const rig = useGatewayRig({ firm: false });
    it('holds no key: "none"', async () => {
      expect((await health(rig.gateway.url)).json).toEqual({
        status: "ok",
        keyMode: "pass-through",
        firmKey: "none",
        checkedAt: null,
      });
    });

    it("logs a refused key's request as sent, the key's value redacted in place", async () => {
      const bad = `md-bad-${randomUUID()}`;
      const sent = `/api/data/api/FEES/?symbols=btc&APIKey=${bad}&startDate=2024-02-01&endDate=2024-02-05`;
      expect((await fetch(`${rig.gateway.url}${sent}`)).status).toBe(401);
      const shown = "/api/data/api/FEES/?symbols=btc&APIKey=[redacted]&startDate=2024-02-01&endDate=2024-02-05";
      const line = `"request":"GET ${shown}"`;
      const log = await accessLogWith(
        rig.gateway,
        { test: (l: string) => l.includes(line) && l.includes('"status":"401"') } as RegExp,
        "the 401",
      );
      expect(log.join("\n")).not.toContain(bad);
      // A query that was only the key keeps its "?" and says a key was sent.
      expect((await fetch(`${rig.gateway.url}/api/data/api/FEES/?APIKey=${bad}`)).status).toBe(401);
      const only = await accessLogWith(
        rig.gateway,
        {
          test: (l: string) =>
            l.includes('"request":"GET /api/data/api/FEES/?APIKey=[redacted]"') && l.includes('"status":"401"'),
        } as RegExp,
        "the key-only 401",
      );
      expect(only.join("\n")).not.toContain(bad);
    });
  });
});

function listen(host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ port: 0, host }, () => resolve(server));
  });
}
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

interface Cli {
  stdout: string;
  stderr: string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once stdout (or stderr) holds `text`; rejects if the program exits first. */
  printed(text: string, stream?: "stdout" | "stderr"): Promise<void>;
  stop(): Promise<number | null>;
}

/** `npm run gateway -- <args>` (scripts/gateway.ts) as a child process. */
function runGatewayCli(args: string[]): Cli {
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/gateway.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, MD_NGINX: NGINX ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const cli: Cli = {
    stdout: "",
    stderr: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    printed: (text, stream = "stdout") =>
      new Promise((resolve, reject) => {
        const source = child[stream];
        const check = () => {
          if (!cli[stream].includes(text)) return;
          source.off("data", check);
          resolve();
        };
        source.on("data", check);
        void cli.exited.then(() =>
          cli[stream].includes(text) ? resolve() : reject(new Error(`exited without "${text}":\n${cli.stderr}`)),
        );
        check();
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      return cli.exited;
    },
  };
  child.stdout.on("data", (chunk: Buffer) => (cli.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (cli.stderr += chunk.toString()));
  return cli;
}

describeGateway("npm run gateway at start", () => {
  let sandbox: SandboxHandle;
  let work: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true, apiKey: `md-firm-${randomUUID()}` });
    work = mkdtempSync(path.join(os.tmpdir(), "md-gateway-cli-"));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("a port that is taken: said once, with what holds it and how to move; exit 1, no nginx error", async () => {
    const occupied = await listen("127.0.0.1");
    const port = portOf(occupied);
    try {
      const cli = runGatewayCli(["--upstream", sandbox.url, "--port", String(port), "--dist", DIST]);
      expect(await cli.exited).toBe(1);
      const owner = process.platform === "linux" ? ` by process ${process.pid} (` : "";
      expect(cli.stderr).toContain("npm run gateway cannot start: a port it needs is taken.");
      expect(cli.stderr).toContain(
        `Port ${port}, for the gateway (http://127.0.0.1:${port}), is already in use${owner}`,
      );
      expect(cli.stderr).toContain("Is another npm run gateway running?");
      expect(cli.stderr).toContain(`npm run gateway -- <the same options> --port ${port + 100}`);
      expect(cli.stderr.match(/is already in use/g)).toHaveLength(1);
      expect(cli.stderr).not.toContain("bind()");
      expect(cli.stderr + cli.stdout).not.toMatch(/^\s+at /m);
    } finally {
      await close(occupied);
    }
  }, 60_000);

  it("the library says the same when asked for a taken port (tests, the benchmark)", async () => {
    const occupied = await listen("127.0.0.1");
    try {
      await expect(startGateway({ upstream: sandbox.url, port: portOf(occupied), distDir: DIST })).rejects.toThrow(
        `npm run gateway cannot start: a port it needs is taken.\n  Port ${portOf(occupied)}, for the gateway`,
      );
    } finally {
      await close(occupied);
    }
  });

  it("a refused firm key: starts with a warning that says what to do; the banner names nginx's process id", async () => {
    const keyFile = path.join(work, "firm.key");
    const key = `md-firm-${randomUUID()}`;
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const port = await freePort();
    const cli = runGatewayCli([
      "--upstream",
      sandbox.url,
      "--port",
      String(port),
      "--dist",
      DIST,
      "--key-file",
      keyFile,
      "--state-dir",
      path.join(work, "state"),
    ]);
    try {
      await cli.printed("Press Ctrl+C to stop.");
      const pid = /Market Data gateway \(nginx pid (\d+)\) on http:\/\/127\.0\.0\.1:(\d+)/.exec(cli.stdout);
      expect(pid?.[2]).toBe(String(port));
      expect(cli.stdout).not.toMatch(/nginx \d+/);
      expect(cli.stdout).toContain("• firm key:     REFUSED by the service (the service answered HTTP 401");
      await cli.printed(`WARNING: the market-data service refused the firm key in ${keyFile}`, "stderr");
      expect(cli.stderr).toContain("put the right key in the file and restart the gateway");
      expect((await health(`http://127.0.0.1:${port}`)).json.firmKey).toBe("refused");
      expect(cli.stdout + cli.stderr).not.toContain(key);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  }, 60_000);
});
