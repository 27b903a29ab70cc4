/**
 * End to end, once the gateway verifies tokens (branch gateway-auth): the
 * built pane in headless Chromium behind a real nginx in firm mode with
 * sign-in, a real OpenID Connect provider issuing signed tokens. A cell
 * evaluated before signing in reads the sign-in message; the pane signs in
 * through the popup; Refresh all fills the cell through the gateway; no key
 * and no token appears in the page's text, the URLs it requested, or the
 * gateway's access log.
 *
 * SKIPPED, never passed: test/support/gateway.ts has no `auth` option yet (the
 * gateway-auth branch adds token verification to nginx, the test provider and
 * the option). Until it lands there is no gateway that asks for sign-in to run
 * this against; the add-in's side is covered by test/bundle/sign-in.test.ts
 * (the built functions.js) and the component and unit tests.
 */
import { startGatewayRig } from "../support/gateway";

/** Whether startGatewayRig can start a gateway that asks for sign-in (its options say so once gateway-auth lands). */
const GATEWAY_TAKES_AUTH = false;
const REASON =
  "test/support/gateway.ts has no `auth` option yet: the gateway that verifies tokens comes with branch gateway-auth";

const suite = GATEWAY_TAKES_AUTH ? describe : describe.skip;
if (!GATEWAY_TAKES_AUTH) console.warn(`SKIPPED "pane sign-in through the gateway": ${REASON}.`);

suite("pane sign-in through the gateway (headless Chromium, nginx, an OpenID Connect provider)", () => {
  it("a cell waits with the sign-in message; after Sign in, Refresh all fills it; no key or token in the page", async () => {
    const rig = await startGatewayRig({ firm: true, gateway: { auth: true } as never });
    try {
      throw new Error(`not written yet: ${REASON}`);
    } finally {
      await rig.close();
    }
  });
});
