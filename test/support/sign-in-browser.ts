/**
 * What the browser sign-in suites share (gateway-signin.test.ts, the popup; gateway-signin-dialog.test.ts, the
 * Office dialog): every exchange the browser makes, and MD.LATEST called as Excel would call it.
 */
import type { BrowserContext, Page, Request, Response } from "playwright-core";
import { CHROMIUM_PATH, useBrowserSession } from "./browser";
import { NGINX, NJS_MODULE, useGatewayRig } from "./gateway";
import { NO_HTTPS_ISSUER, TEST_AUDIENCE, TEST_TENANT, useIdentityProvider } from "./identity";

/** Why the sign-in world cannot run here, or null. */
export const SIGN_IN_WORLD_SKIPPED: string | null = !CHROMIUM_PATH
  ? "no Chromium found (set CHROMIUM_PATH or install Debian's chromium)"
  : !NGINX || !NJS_MODULE
    ? "no nginx with its JavaScript module (njs) found (npm test installs Debian's nginx libnginx-mod-http-js when it runs as root)"
    : NO_HTTPS_ISSUER;

/** The add-in's client at the test provider (harness/oidc-issuer.ts). */
export const ADDIN_CLIENT_ID = "md-addin-client";

/**
 * For the describe block this is called in: the provider over https (MSAL takes only https authorities), nginx in
 * firm mode asking for sign-in with it (the keys fetched over plain http on loopback: nginx would not trust the
 * test certificate), the add-in's client registered with auth-redirect.html, and a browser that accepts the test
 * certificate.
 */
export function useSignInWorld() {
  const idp = useIdentityProvider(60_000, { https: true });
  const rig = useGatewayRig(() => ({
    firm: true,
    gateway: {
      identity: {
        issuer: idp.issuer,
        audience: TEST_AUDIENCE,
        clientId: ADDIN_CLIENT_ID,
        tenant: TEST_TENANT,
        scopes: [`${TEST_AUDIENCE}/access_as_user`],
        jwksUri: idp.keysUrl,
      },
    },
  }));
  beforeAll(() => idp.registerAddin(`${rig.gateway.url}/auth-redirect.html`));
  const browser = useBrowserSession(60_000, { ignoreHTTPSErrors: true });
  return { idp, rig, browser };
}

/** Everything the browser sent and received, the sign-in popup's pages included. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}

/** Records every exchange; `settled()` waits until the headers and bodies of those seen so far are read. */
export function record(context: BrowserContext): { seen: Exchange[]; settled(): Promise<void> } {
  const seen: Exchange[] = [];
  const reads: Promise<unknown>[] = [];
  const byRequest = new Map<Request, Exchange>();
  // A page already gone (the closed popup), or a redirect, has nothing more to read.
  const read = <T>(promise: Promise<T>, use: (value: T) => void) =>
    reads.push(promise.then(use).catch(() => undefined));
  context.on("request", (request) => {
    const exchange: Exchange = { method: request.method(), url: request.url(), requestHeaders: {}, requestBody: "" };
    byRequest.set(request, exchange);
    seen.push(exchange);
    exchange.requestBody = request.postData() ?? "";
    read(request.allHeaders(), (headers) => (exchange.requestHeaders = headers));
  });
  context.on("response", (response: Response) => {
    const exchange = byRequest.get(response.request());
    if (!exchange) return;
    exchange.status = response.status();
    read(response.allHeaders(), (headers) => (exchange.responseHeaders = headers));
    read(response.body(), (body) => (exchange.responseBody = body.toString("utf8")));
  });
  return {
    seen,
    async settled() {
      while (reads.length) await Promise.all(reads.splice(0));
    },
  };
}

/** Calls the registered MD.LATEST as Excel would; an error reads "<code> <message>", as the cell would show. */
export function latest(page: Page, symbol: string, metric: string, day: string): Promise<unknown> {
  return page.evaluate(
    async ([symbol, metric, day]) => {
      const fns = (window as unknown as { __mdFunctions: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .__mdFunctions;
      try {
        // Excel passes every declared argument, null for an omitted one (here: options), then the invocation.
        const value = await fns.LATEST!(symbol, metric, day, null, {
          address: "Sheet1!B2",
          isInValuePreview: false,
          onCanceled: null,
        });
        return typeof value === "object" && value !== null && "basicValue" in value
          ? (value as { basicValue: unknown }).basicValue
          : value;
      } catch (error) {
        const e = error as { code?: string; message: string };
        return `${e.code ?? "error"} ${e.message}`;
      }
    },
    [symbol, metric, day] as const,
  );
}
