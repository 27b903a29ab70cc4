/** The in-process handle: ports, close(), counters, the redacted request log, options, and the CLI. */
import { spawn } from "node:child_process";
import { Agent, get } from "node:http";
import path from "node:path";
import { DEMO_API_KEY, startSandbox } from "../../sandbox/server";
import { getJson, type SeriesBody, startTestSandbox } from "../support/sandbox";

describe("startSandbox", () => {
  it("listens on an ephemeral port and reports its URL without a trailing slash", async () => {
    const [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
    try {
      expect(a.port).toBeGreaterThan(0);
      expect(a.port).not.toBe(b.port);
      expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(DEMO_API_KEY).toBe("md-sandbox-demo");
  });

  it("close() ends keep-alive connections too, and the port stops answering", async () => {
    const sandbox = await startTestSandbox();
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const fetchWithAgent = () =>
      new Promise<number>((resolve, reject) => {
        get(`${sandbox.url}/asset/symbols/`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        }).on("error", reject);
      });
    try {
      expect(await fetchWithAgent()).toBe(200);
      expect(agent.freeSockets[Object.keys(agent.freeSockets)[0]]?.length).toBe(1);
      // Resolves without waiting for the keep-alive socket to time out.
      await sandbox.close();
      await sandbox.close(); // idempotent
      await expect(fetch(`${sandbox.url}/asset/symbols/`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it.each([
    [{ latencyMs: -5 }, "latencyMs"],
    [{ insightFirstCallDelayMs: Number.NaN }, "insightFirstCallDelayMs"],
    [{ today: "2024-02-31" }, "today"],
    [{ assetCount: 1.5 }, "assetCount"],
    [{ apiKey: "" }, "apiKey"],
    [{ seed: 0.5 }, "seed"],
    [{ faults: { rateLimitRate: 2 } }, "rateLimitRate"],
  ])("rejects %j naming the option", async (options, name) => {
    await expect(startSandbox({ quiet: true, ...options })).rejects.toThrow(name);
  });
});

describe("counters and the request log", () => {
  it("count requests per path, endpoint and status, and the points returned", async () => {
    const sandbox = await startTestSandbox();
    try {
      const a = await getJson<SeriesBody>(sandbox, "/data/api/PRICE,FEES/", {
        symbols: "eth,sol,eq-aapl",
        startDate: "2024-05-01",
      });
      const b = await getJson<SeriesBody>(sandbox, "/data/api/DAU/", {
        symbols: "base",
        granularity: "WEEK",
        startDate: "2024-01-01",
      });
      await getJson(sandbox, "/flows/top/", {});
      await getJson(sandbox, "/data/api/PRICE/", { symbols: "eth", APIKey: null });
      const points = [a, b]
        .flatMap((reply) => Object.values(reply.body.data.symbols).flatMap((bySymbol) => Object.values(bySymbol)))
        .reduce((sum, answer) => sum + (Array.isArray(answer) ? answer.length : 0), 0);
      const stats = sandbox.stats();
      expect(stats).toMatchObject({
        requests: 4,
        pointsReturned: points,
        byPath: { "/data/api/PRICE,FEES/": 1, "/data/api/DAU/": 1, "/flows/top/": 1, "/data/api/PRICE/": 1 },
        byEndpoint: { "/data/api/": 3, "/flows/top/": 1 },
        byStatus: { "200": 3, "401": 1 },
      });
      expect(stats.faultsInjected.total).toBe(0);
      expect(sandbox.requestLog().map((entry) => entry.points)).toEqual([
        points - (b.body.data.symbols.base.DAU as unknown[]).length,
        (b.body.data.symbols.base.DAU as unknown[]).length,
        0,
        0,
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it("never records or prints the key: the logged query says APIKey=***", async () => {
    const secret = "s3cret-key-value";
    const lines: string[] = [];
    const spy = jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.join(" "));
    });
    const sandbox = await startTestSandbox({ apiKey: secret, quiet: false });
    try {
      await fetch(`${sandbox.url}/data/api/PRICE/?symbols=eth&APIKey=${secret}&limit=5`);
      await fetch(`${sandbox.url}/data/api/PRICE/?apikey=${secret}&symbols=eth`);
      await fetch(`${sandbox.url}/flows/top/?APIKey=wrong-${secret}`);
      const log = sandbox.requestLog();
      expect(log.map((entry) => entry.query)).toEqual([
        "symbols=eth&APIKey=***&limit=5",
        "apikey=***&symbols=eth",
        "APIKey=***",
      ]);
      // The parameter name is case-sensitive: `apikey` is not the key, but it is redacted all the same.
      expect(log.map((entry) => entry.status)).toEqual([200, 401, 401]);
      expect(JSON.stringify(log) + JSON.stringify(sandbox.stats())).not.toContain(secret);
      expect(lines).toHaveLength(3);
      expect(lines.join("\n")).not.toContain(secret);
      expect(lines[0]).toContain("APIKey=***");
    } finally {
      spy.mockRestore();
      await sandbox.close();
    }
  });

  it("nextRequest resolves with the next matching request once it is logged, never an earlier one", async () => {
    const sandbox = await startTestSandbox();
    try {
      await getJson(sandbox, "/flows/top/", {});
      const flows = sandbox.nextRequest((e) => e.path === "/flows/top/", "flows request");
      const catalog = sandbox.nextRequest((e) => e.path === "/asset/symbols/", "catalog request");
      await getJson(sandbox, "/asset/symbols/", {});
      expect(await catalog).toMatchObject({ path: "/asset/symbols/", status: 200 });
      await getJson(sandbox, "/flows/top/", {});
      expect(sandbox.requestLog().filter((e) => e.path === "/flows/top/")).toHaveLength(2);
      expect(await flows).toMatchObject({ path: "/flows/top/", status: 200 });
      await expect(sandbox.nextRequest(() => false, "request that never comes", 50)).rejects.toThrow(
        "The sandbox saw no request that never comes within 50 ms",
      );
    } finally {
      await sandbox.close();
    }
  });

  it("prints nothing when quiet (the default)", async () => {
    const spy = jest.spyOn(console, "log");
    const sandbox = await startSandbox({ today: "2024-06-30" });
    try {
      await (await fetch(`${sandbox.url}/asset/symbols/`)).arrayBuffer();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
      await sandbox.close();
    }
  });
});

describe("npm run sandbox (sandbox/cli.ts)", () => {
  const root = path.resolve(__dirname, "../..");
  const run = (args: string[]) =>
    spawn(path.join(root, "node_modules/.bin/tsx"), ["sandbox/cli.ts", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("prints its address when ready, serves with the flags given, and never prints a custom key", async () => {
    const child = run([
      "--port",
      "0",
      "--key",
      "cli-secret-key",
      "--error-rate",
      "1",
      "--insight-delay",
      "0",
      "--quiet",
    ]);
    let output = "";
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Sandbox market-data API on (http:\/\/127\.0\.0\.1:\d+) \(key from --key\)/.exec(output);
          if (match) resolve(match[1]);
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      const response = await fetch(`${url}/data/api/PRICE/?symbols=eth&APIKey=cli-secret-key`);
      expect([500, 503]).toContain(response.status);
      expect(output).toMatch(/synthetic/i);
      expect(output).not.toContain("cli-secret-key");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it.each([
    [["--port", "http"], "--port"],
    [["--drop-rate", "3"], "--drop-rate"],
    [["--colour", "red"], "colour"],
  ])("refuses %j with exit code 2 and a message naming the flag", async (args, flag) => {
    const child = run(args);
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(errors).toContain(flag);
  });
});
