/**
 * The service unreachable behind the gateway (firm mode, a real nginx): the
 * analyst gets a 502 and the ops log says so, while the error log — where
 * nginx would write the upstream URL, firm key included — stays free of it.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startGateway, type GatewayHandle } from "../../scripts/lib/gateway";
import { DIST } from "../../harness/bundle";
import { accessLog, describeGateway, filesContaining, NGINX } from "../support/gateway";

const KEY = `md-firm-${randomUUID()}`;
let gateway: GatewayHandle;
let secrets: string;

describeGateway("gateway with its service down", () => {
  beforeAll(async () => {
    secrets = mkdtempSync(path.join(os.tmpdir(), "md-gateway-key-"));
    writeFileSync(path.join(secrets, "firm.key"), KEY, { mode: 0o600 });
    // A port nothing listens on.
    const closedPort = await freePort();
    gateway = await startGateway({
      upstream: `http://127.0.0.1:${closedPort}`,
      port: 0,
      distDir: DIST,
      nginx: NGINX ?? undefined,
      keyFile: path.join(secrets, "firm.key"),
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    rmSync(secrets, { recursive: true, force: true });
  });

  it("answers 502, logs the failure in the access log, and writes the key nowhere", async () => {
    const response = await fetch(
      `${gateway.url}/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-02`,
    );
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain(KEY);
    // The add-in itself is still served.
    expect((await fetch(`${gateway.url}/taskpane.html`)).status).toBe(200);
    const line = accessLog(gateway).find((l) => l.includes("/api/data/api/PRICE/"));
    expect(line).toMatch(/" 502 \d+ cache=MISS rt=[\d.]+ upstream=502 /);
    expect(filesContaining([gateway.stateDir, gateway.confDir], KEY)).toEqual([]);
  });
});
