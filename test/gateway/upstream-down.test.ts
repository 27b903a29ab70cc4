/**
 * The service unreachable behind the gateway (firm mode, a real nginx): the
 * analyst gets a 502 and the ops log says so, while the error log — where
 * nginx would write the upstream URL, firm key included — stays free of it.
 */
import { randomUUID } from "node:crypto";
import { freePort } from "../../scripts/lib/gateway";
import { accessEntries, accessLogWith, describeGateway, filesContaining, useGateway } from "../support/gateway";

const KEY = `md-firm-${randomUUID()}`;

describeGateway("gateway with its service down", () => {
  // A port nothing listens on.
  const rig = useGateway(async () => `http://127.0.0.1:${await freePort()}`, { key: KEY });

  it("answers 502, logs the failure in the access log, and writes the key nowhere", async () => {
    const response = await fetch(
      `${rig.gateway.url}/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-02`,
    );
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain(KEY);
    // The add-in itself is still served.
    expect((await fetch(`${rig.gateway.url}/taskpane.html`)).status).toBe(200);
    const log = await accessLogWith(rig.gateway, /\/api\/data\/api\/PRICE\//, "the series request");
    const line = log.find((l) => l.includes("/api/data/api/PRICE/"));
    expect(accessEntries([line!])[0]).toMatchObject({
      status: "502",
      bytes: expect.stringMatching(/^\d+$/),
      cache: "MISS",
      request_time: expect.stringMatching(/^[\d.]+$/),
      upstream_status: "502",
    });
    expect(filesContaining([rig.gateway.stateDir, rig.gateway.confDir], KEY)).toEqual([]);
  });
});
