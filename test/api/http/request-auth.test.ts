/**
 * The credentials seam's decisions as a table: which headers a request gets
 * (beforeRequest), what a failed attempt means (afterResponse), and whether a
 * call is answered at all (admits), for each way a request is authorised.
 */
import {
  createRequestAuth,
  PASS_THROUGH_KEY,
  withoutToken,
  type AuthGrant,
  type Authorisation,
} from "../../../src/api/http/request-auth";
import { AuthError, SignInRequiredError } from "../../../src/api/errors";
import type { AccessTokenSource } from "../../../src/api/types";
import { tokens } from "../token-source";

const GATEWAY_KEY: Authorisation = { key: "gateway", user: "anyone" };
const SIGNED_IN: Authorisation = { key: "gateway", user: "signed-in" };
const SIGNED_IN_OWN_KEY: Authorisation = { key: "pass-through", user: "signed-in" };

const failing: AccessTokenSource = async () => {
  throw new Error("interaction_required");
};

describe("beforeRequest: the headers of a request's first attempt", () => {
  it.each([
    ["the user's key", PASS_THROUGH_KEY, tokens("t1"), { token: null, renewed: false }, 0],
    ["the firm's gateway key", GATEWAY_KEY, tokens("t1"), { token: null, renewed: false }, 0],
    [
      "a signed-in user",
      SIGNED_IN,
      tokens("t1"),
      { headers: { Authorization: "Bearer t1" }, token: "t1", renewed: false },
      1,
    ],
    [
      "a signed-in user with their own key",
      SIGNED_IN_OWN_KEY,
      tokens("t1"),
      { headers: { Authorization: "Bearer t1" }, token: "t1", renewed: false },
      1,
    ],
  ])("%s", async (_who, auth, t, grant, asks) => {
    expect(await createRequestAuth(t.source, () => undefined).beforeRequest(auth)).toEqual(grant);
    expect(t.asked).toHaveLength(asks);
  });

  it.each([
    ["no token source", undefined, []],
    ["nobody signed in", tokens(null).source, []],
    ["a failing source (logged by name, never its words)", failing, ["access token not available: Error"]],
  ])("a signed-in user, %s: a SignInRequiredError, nothing sent", async (_what, source, logged) => {
    const logs: string[] = [];
    const auth = createRequestAuth(source, (line) => logs.push(line));
    await expect(auth.beforeRequest(SIGNED_IN)).rejects.toBeInstanceOf(SignInRequiredError);
    expect(logs).toEqual(logged);
  });
});

describe("afterResponse: what a failed attempt means", () => {
  const first: AuthGrant = { headers: { Authorization: "Bearer t1" }, token: "t1", renewed: false };
  const renewed: AuthGrant = { headers: { Authorization: "Bearer t2" }, token: "t2", renewed: true };
  const none: AuthGrant = { token: null, renewed: false };

  it.each([
    ["no token sent, a 401", none, 401, "retry-policy"],
    ["no token sent, a 403", none, 403, "retry-policy"],
    ["a token, a 500", first, 500, "retry-policy"],
    ["a token, no answer at all", first, undefined, "retry-policy"],
    ["a first token, a 401", first, 401, "renew"],
    ["a renewed token, a 401", renewed, 401, "fail: SignInRequiredError 401"],
    ["a first token, a 403", first, 403, "fail: AuthError 403"],
    ["a renewed token, a 403", renewed, 403, "fail: AuthError 403"],
  ])("%s", (_what, grant, status, expected) => {
    const verdict = createRequestAuth(tokens("t1", "t2").source, () => undefined).afterResponse(grant, status);
    const said = verdict.then === "fail" ? `fail: ${verdict.error.name} ${verdict.error.status}` : verdict.then;
    expect(said).toBe(expected);
  });

  it("a renewal asks the source to force a new token in place of the refused one, once", async () => {
    const t = tokens("t1", "t2");
    const verdict = createRequestAuth(t.source, () => undefined).afterResponse(
      { headers: { Authorization: "Bearer t1" }, token: "t1", renewed: false },
      401,
    );
    if (verdict.then !== "renew") throw new Error(`expected a renewal, got ${verdict.then}`);
    expect(await verdict.renew()).toEqual({ headers: { Authorization: "Bearer t2" }, token: "t2", renewed: true });
    expect(t.asked).toEqual([{ forceRefresh: true, rejected: "t1" }]);
  });

  it("a renewal that finds nobody signed in is the sign-in error", async () => {
    const verdict = createRequestAuth(tokens("t1", null).source, () => undefined).afterResponse(
      { headers: { Authorization: "Bearer t1" }, token: "t1", renewed: false },
      401,
    );
    if (verdict.then !== "renew") throw new Error(`expected a renewal, got ${verdict.then}`);
    await expect(verdict.renew()).rejects.toBeInstanceOf(SignInRequiredError);
  });

  it("the messages say what to do", () => {
    const auth = createRequestAuth(tokens("t1").source, () => undefined);
    const refused = auth.afterResponse({ token: "t2", renewed: true, headers: {} }, 401);
    const forbidden = auth.afterResponse({ token: "t1", renewed: false, headers: {} }, 403);
    expect(refused.then === "fail" && refused.error.message).toBe(
      "The gateway did not accept your sign-in (HTTP 401). Sign in to Market Data (pane ▸ Settings), then use Refresh all.",
    );
    expect(forbidden.then === "fail" && forbidden.error).toBeInstanceOf(AuthError);
  });
});

describe("admits: whether a call is answered at all", () => {
  it.each([
    ["the user's key, no source", PASS_THROUGH_KEY, undefined, true],
    ["the firm's gateway key, nobody signed in", GATEWAY_KEY, tokens(null).source, true],
    ["a signed-in user with a token", SIGNED_IN, tokens("t1").source, true],
    ["a signed-in user, nobody signed in", SIGNED_IN, tokens(null).source, false],
    ["a signed-in user, no source", SIGNED_IN, undefined, false],
    ["a signed-in user, a failing source", SIGNED_IN, failing, false],
  ])("%s", async (_what, auth, source, admitted) => {
    const logs: string[] = [];
    expect(await createRequestAuth(source, (line) => logs.push(line)).admits(auth)).toBe(admitted);
    expect(logs).toEqual([]); // silent: the request's own ask says why a token is missing
  });
});

it.each([
  ["a message quoting the token", { token: "s3cret", renewed: false }, "bad s3cret here", "bad *** here"],
  ["no token sent", { token: null, renewed: false }, "bad s3cret here", "bad s3cret here"],
])("withoutToken: %s", (_what, grant, text, shown) => {
  expect(withoutToken(grant, text)).toBe(shown);
});
