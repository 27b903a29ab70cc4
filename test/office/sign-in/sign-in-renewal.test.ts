/**
 * Sessions that last: after the dialog's sign-in the token is renewed silently while the provider allows it (its
 * session answers MSAL's ssoSilent with the user's name as the login hint); when it no longer does (a single-page
 * app's refresh token lasts 24 hours, the provider's session ended: interaction_required), the pane says "Your
 * sign-in expired — sign in again" at once, and cells say the same, whether they would be sent or answered from
 * what this computer holds.
 */
import { SignInRequiredError } from "../../../src/api/errors";
import { Credentials } from "../../../src/office/credentials";
import { rig, SIGNED_IN } from "../../support/office-sign-in/rig";

const HOUR = 3_600_000;

/** The clock (Date.now) alone is moved: the dialog stand-in's tasks run on real timers. */
let now = Date.parse("2026-03-02T09:00:00Z");
beforeEach(() => jest.spyOn(Date, "now").mockImplementation(() => now));
afterEach(() => jest.restoreAllMocks());

async function signedInThroughDialog() {
  const r = rig("Keycloak", "no NAA (older Office)");
  await r.controller.configure(r.config);
  await r.controller.signIn();
  expect(r.controller.state().status).toBe("signed-in");
  expect((await r.auth.beforeRequest(SIGNED_IN)).token).toBe("Keycloak-dialog-token");
  return r;
}

it("renews silently an hour later, where the provider's session allows it", async () => {
  const r = await signedInThroughDialog();
  now += HOUR;
  expect((await r.auth.beforeRequest(SIGNED_IN)).token).toBe("Keycloak-token-1");
  expect(r.client.calls).toContain("ssoSilent ada@firm.example");
  expect(r.controller.state().status).toBe("signed-in");
});

it("the next day, renewal needs the user: the pane and the cells say the sign-in expired", async () => {
  const r = await signedInThroughDialog();
  const states: string[] = [];
  r.controller.subscribe((state) =>
    states.push(state.status === "signed-out" ? `signed-out: ${state.error}` : state.status),
  );
  r.client.expire();
  now += 25 * HOUR;

  const refused = r.auth.beforeRequest(SIGNED_IN);
  await expect(refused).rejects.toBeInstanceOf(SignInRequiredError);
  await expect(refused).rejects.toThrow("Your sign-in expired — sign in again (pane ▸ Settings)");
  // The pane changed as the renewal failed, not at the next click.
  expect(states).toEqual(["signed-out: Your sign-in expired — sign in again."]);
  // A stored answer is not served either, and the refusal says the same.
  expect(await r.auth.refusal(SIGNED_IN)).toMatchObject({
    message: "Your sign-in expired — sign in again (pane ▸ Settings)",
  });

  // Signing in again brings the tokens back and drops the message.
  await r.controller.signIn();
  expect(r.controller.state().status).toBe("signed-in");
  expect((await r.auth.beforeRequest(SIGNED_IN)).token).toBe("Keycloak-dialog-token");
});

it("the credentials say the sign-in expired, for Refresh on open to say why it did not run", async () => {
  const r = await signedInThroughDialog();
  const settings = { read: async () => ({}) as never, onChange: () => () => undefined };
  const credentials = new Credentials(settings, r.tokens);
  r.client.expire();
  now += 25 * HOUR;
  expect(await credentials.hasToken()).toBe(false);
  expect(credentials.signInExpired()).toBe(true);
});
