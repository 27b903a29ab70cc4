/**
 * Every way signing in fails says, in one sentence, what happened and what to do — never MSAL's raw code or its
 * aka.ms link — and within 15 s where the identity provider does not answer. Over the stand-ins of Office's
 * sign-in surfaces (test/support/office-sign-in) and MSAL's errors as MSAL makes them.
 */
import { BrowserAuthError, ClientAuthError, InteractionRequiredAuthError, ServerError } from "@azure/msal-browser";
import { createRequestAuth } from "../../../src/api/http/request-auth";
import { AccessTokens } from "../../../src/office/sign-in/access-tokens";
import { SignInController, type SignInSession } from "../../../src/office/sign-in/sign-in";
import { dialogSignedIn, rig } from "../../support/office-sign-in/rig";

const AUTH = { authority: "https://idp.firm.example/realms/md", clientId: "md-addin-client", scopes: ["s"] };

/** One sentence that says what to do: no MSAL code, no link, ends with a full stop. */
function expectActionable(text: string | undefined): void {
  expect(text).toBeDefined();
  expect(text).not.toMatch(/aka\.ms|https?:\/\/|[a-z]+_[a-z_]+|AADSTS|See /);
  expect(text).toMatch(/^[A-Z][^]*\.$/);
  expect(text!.split(/\.\s+(?=[A-Z])/)).toHaveLength(1);
}

function failingWith(error: unknown): SignInSession {
  return {
    nested: false,
    provider: { acquireSilent: async () => null },
    trySilent: async () => null,
    signInInteractive: async () => Promise.reject(error),
    signOut: async () => undefined,
  };
}

describe.each([
  {
    what: "the provider unreachable (MSAL times out)",
    error: new BrowserAuthError("timed_out", "c"),
    says: /did not answer/,
  },
  {
    what: "no network",
    error: new BrowserAuthError("no_network_connectivity", "c"),
    says: /did not answer/,
  },
  {
    what: "a redirect URI the provider does not know",
    error: new ServerError(
      "invalid_request",
      "c",
      "AADSTS50011: The redirect URI 'https://x/auth-redirect.html' does not match",
    ),
    says: /administrator.*auth-redirect\.html|auth-redirect\.html.*administrator/,
  },
  {
    what: "a Keycloak redirect mismatch",
    error: new ServerError("invalid_redirect_uri", "c", "Invalid parameter: redirect_uri"),
    says: /administrator/,
  },
  {
    what: "consent needed",
    error: new InteractionRequiredAuthError(
      "consent_required",
      "c",
      "AADSTS65001: The user or administrator has not consented",
    ),
    says: /approve|consent/i,
  },
  {
    what: "a user of another tenant",
    error: new ServerError(
      "invalid_request",
      "c",
      "AADSTS50020: User account from identity provider does not exist in tenant",
    ),
    says: /organisation/,
  },
  { what: "cancelled under NAA (user_canceled)", error: new ClientAuthError("user_canceled", "c"), says: /cancelled/ },
  {
    what: "cancelled in a popup (user_cancelled)",
    error: new BrowserAuthError("user_cancelled", "c"),
    says: /cancelled/,
  },
  {
    what: "an error MSAL does not name",
    error: new ServerError("server_error", "c", "Something odd. See https://aka.ms/msaljs/errors"),
    says: /try again/,
  },
])("$what", ({ error, says }) => {
  it("says what happened and what to do, in one sentence", async () => {
    const controller = new SignInController(new AccessTokens(), async () => failingWith(error));
    await controller.configure(AUTH);
    await controller.signIn();
    const state = controller.state();
    const text = state.status === "signed-out" ? state.error : undefined;
    expectActionable(text);
    expect(text).toMatch(says);
  });
});

describe.each([
  { what: "the dialog closed by the user (12006)", step: { event: 12006 as const }, says: /closed/ },
  { what: "the dialog blocked on the web (12009)", step: { open: 12009 as const }, says: /allow/ },
  { what: "the browser's pop-up blocker (12011)", step: { open: 12011 as const }, says: /allow/ },
  { what: "a dialog already open (12007)", step: { open: 12007 as const }, says: /already open/ },
])("Office dialog: $what", ({ step, says }) => {
  it("says what happened and what to do, in one sentence", async () => {
    const r = rig("Keycloak", "no NAA (older Office)", () => step);
    await r.controller.configure(r.config);
    await r.controller.signIn();
    const state = r.controller.state();
    const text = state.status === "signed-out" ? state.error : undefined;
    expectActionable(text);
    expect(text).toMatch(says);
  });
});

it("a message from another origin is not the dialog's answer: the sign-in goes on until the dialog closes", async () => {
  const r = rig("Keycloak", "no NAA (older Office)", () => [
    dialogSignedIn("stolen", "https://evil.example"),
    { event: 12006 },
  ]);
  await r.controller.configure(r.config);
  await r.controller.signIn();
  const state = r.controller.state();
  expect(state.status === "signed-out" && state.error).toMatch(/closed/);
  expect(await r.tokens.get()).toBeNull();
});

describe("a provider that does not answer: the pane says so within 15 s, not after MSAL's 60", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("the silent attempt as the pane starts", async () => {
    const never = new Promise<never>(() => undefined);
    const controller = new SignInController(new AccessTokens(), async () => ({
      ...failingWith(null),
      trySilent: () => never,
    }));
    const started = controller.configure(AUTH);
    await jest.advanceTimersByTimeAsync(15_000);
    await started;
    const state = controller.state();
    expect(state.status === "signed-out" && state.error).toMatch(/did not answer/);
    expectActionable(state.status === "signed-out" ? state.error : undefined);
  });

  it.each([["the Office dialog", "no NAA (older Office)"] as const, ["a popup", "plain browser"] as const])(
    "Sign in through %s",
    async (_what, host) => {
      const r = rig("Keycloak", host, undefined, () => new Promise(() => undefined));
      await r.controller.configure(r.config);
      const clicked = r.controller.signIn();
      await jest.advanceTimersByTimeAsync(15_000);
      await clicked;
      const state = r.controller.state();
      expect(state.status === "signed-out" && state.error).toMatch(/did not answer/);
      expect(r.office.dialogs.record.opened).toEqual([]);
      expect(r.client.calls).not.toContain("loginPopup");
    },
  );
});

it("a 403 from the gateway's group rule says what to do", () => {
  const auth = createRequestAuth(
    async () => "t",
    () => undefined,
  );
  const verdict = auth.afterResponse({ token: "t", renewed: false }, 403);
  expect(verdict.then).toBe("fail");
  const message = verdict.then === "fail" ? verdict.error.message : "";
  expect(message).toMatch(/administrator/);
  expect(message).not.toMatch(/aka\.ms/);
});
