/**
 * The gateway's configuration as text (scripts/lib/gateway/ filling
 * deploy/nginx/): the settled-date calendar, the pane's CSP, the key include,
 * the upstream address. `nginx -t` checks a rendered HTTPS-upstream
 * configuration when nginx is installed (the other gateway suites run it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import {
  beforeDatePattern,
  gatewayCsp,
  paneFrameRewrite,
  signInOrigin,
  keyInclude,
  parseUpstream,
  renderGatewayConfig,
  seriesCalendar,
  serverNamesFor,
  SETTLED_AFTER_DAYS,
} from "../../scripts/lib/gateway";
import { NGINX, NJS_MODULE } from "../support/gateway";

const isoDate = fc
  .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe("the settled-date calendar", () => {
  it("beforeDatePattern(c) matches exactly the dates that sort before c", () => {
    fc.assert(
      fc.property(isoDate, isoDate, (date, cutoff) => {
        const matches = new RegExp(`^${beforeDatePattern(cutoff)}$`).test(date);
        return matches === date < cutoff;
      }),
      { numRuns: 3000 },
    );
    expect(new RegExp(`^${beforeDatePattern("2026-01-01")}$`).test("2025-12-31")).toBe(true);
    expect(new RegExp(`^${beforeDatePattern("2026-01-01")}$`).test("2026-01-01")).toBe(false);
    expect(new RegExp(`^${beforeDatePattern("2026-01-01")}$`).test("garbage")).toBe(false);
  });

  it("has one line per day from yesterday on; on day D the cutoff is D − 3 days", () => {
    const lines = seriesCalendar(new Date(2026, 2, 1), 30)
      .split("\n")
      .filter((l) => l.startsWith('"'));
    expect(lines).toHaveLength(31);
    const line = lines.find((l) => l.startsWith('"~^2026-03-02T'))!;
    // nginx tests "$time_iso8601|$arg_endDate"; the pattern is a PCRE that JavaScript reads the same way.
    const pattern = new RegExp(line.slice(2, line.lastIndexOf('"')));
    expect(SETTLED_AFTER_DAYS).toBe(3);
    expect(pattern.test("2026-03-02T09:15:00+01:00|2026-02-26")).toBe(true);
    expect(pattern.test("2026-03-02T09:15:00+01:00|2026-02-27")).toBe(false);
    expect(pattern.test("2026-03-02T09:15:00+01:00|")).toBe(false);
    expect(pattern.test("2026-03-03T09:15:00+01:00|2020-01-01")).toBe(false);
  });
});

describe("the pane's CSP for the gateway", () => {
  it("is the page's own policy with connect-src narrowed to the gateway's origin", () => {
    const meta =
      "default-src 'self'; script-src 'self' https://appsforoffice.microsoft.com; connect-src 'self' https: http://127.0.0.1:*; frame-src 'self'";
    expect(gatewayCsp(meta)).toBe(
      "default-src 'self'; script-src 'self' https://appsforoffice.microsoft.com; connect-src 'self'; frame-src 'self'",
    );
    expect(gatewayCsp("default-src 'self'")).toBe("default-src 'self'; connect-src 'self'");
  });

  it("with sign-in, lets the pane reach the identity provider too (MSAL's discovery and token requests)", () => {
    const meta = "default-src 'self'; connect-src 'self' https:";
    const entra = {
      issuer: "https://login.microsoftonline.com/tid/v2.0",
      authority: "https://login.microsoftonline.com/tid",
    };
    expect(gatewayCsp(meta, [signInOrigin(entra)])).toBe(
      "default-src 'self'; connect-src 'self' https://login.microsoftonline.com",
    );
    expect(signInOrigin({ issuer: "https://id.example.com/realms/firm" })).toBe("https://id.example.com");
  });

  it("with sign-in, lets the pane frame the identity provider (MSAL's silent renewal in a hidden frame), in the header and the page's own <meta>", () => {
    const meta = "default-src 'self'; connect-src 'self' https:; frame-src 'self'";
    const idp = "https://id.example.com";
    expect(gatewayCsp(meta, [idp], [idp])).toBe(
      "default-src 'self'; connect-src 'self' https://id.example.com; frame-src 'self' https://id.example.com",
    );
    expect(paneFrameRewrite(meta, { issuer: `${idp}/realms/firm` })).toEqual({
      from: "frame-src 'self'",
      to: "frame-src 'self' https://id.example.com",
    });
    expect(paneFrameRewrite(meta, null)).toEqual({ from: "frame-src 'self'", to: "frame-src 'self'" });
  });
});

describe("the key include", () => {
  it("holds the key URL-encoded for the query and as text for redaction", () => {
    expect(keyInclude("  abc123-XYZ_~.\n")).toContain('set $md_firm_key "abc123-XYZ_~.";');
    const special = keyInclude("a+b/c=");
    expect(special).toContain('set $md_firm_key "a%2Bb%2Fc%3D";');
    expect(special).toContain('set $md_firm_key_text "a+b/c=";');
    // Characters nginx would read as syntax never appear raw.
    expect(keyInclude('k"$x')).toContain('set $md_firm_key_text "k%22%24x";');
  });

  it.each([
    ["an empty file", "", /empty/],
    ["two words", "two words", /more than one word/],
    ["a control character", "a\u0001b", /more than one word/],
    ["2,000 characters", "x".repeat(2000), /1,024/],
  ])("refuses %s", (_label, raw, message) => {
    expect(() => keyInclude(raw)).toThrow(message);
  });
});

describe("the upstream address", () => {
  it("splits scheme, server, Host and base path", () => {
    expect(parseUpstream("https://api.example.com/v1/")).toEqual({
      scheme: "https",
      server: "api.example.com:443",
      host: "api.example.com",
      hostname: "api.example.com",
      path: "/v1",
    });
    expect(parseUpstream("http://127.0.0.1:3001")).toMatchObject({
      scheme: "http",
      server: "127.0.0.1:3001",
      path: "",
    });
  });

  it.each(["ftp://x.example.com", "https://x.example.com/?APIKey=k", "https://user:pw@x.example.com", "not a url"])(
    "refuses %s",
    (raw) => {
      expect(() => parseUpstream(raw)).toThrow();
    },
  );
});

describe("the rendered configuration", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "md-gateway-conf-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function render(upstream: string) {
    return renderGatewayConfig({
      upstream,
      listen: "127.0.0.1:18080",
      distDir: path.join(dir, "dist"),
      confDir: path.join(dir, "conf"),
      stateDir: path.join(dir, "state"),
      keyInclude: path.join(dir, "conf", "key-pass-through.conf"),
      jsModule: NJS_MODULE,
      serverNames: serverNamesFor("127.0.0.1"),
      paneCsp: "default-src 'self'; connect-src 'self'",
    });
  }

  it("fills every placeholder and sends the base path and Host of the service", () => {
    const files = render("https://api.example.com/v1");
    for (const [name, text] of Object.entries(files))
      expect([name, /\$\{MD_[A-Z_]+\}/.test(text)]).toEqual([name, false]);
    // The service tier (service-tier.conf) asks the service; the cache locations (api-proxy.conf) ask the service tier.
    expect(files["api-proxy.conf"]).toContain(
      "proxy_pass http://md_service_tier/_md_fetch$md_api_path?$md_upstream_query;",
    );
    expect(files["service-tier.conf"]).toContain("proxy_pass https://md_service/v1$md_service_path$is_args$args;");
    expect(files["service-tier.conf"]).toContain('proxy_set_header Host "api.example.com";');
    expect(files["service-tier.conf"]).toContain("proxy_ssl_server_name on;");
    expect(files["service-tier.conf"]).toContain("server api.example.com:443;");
  });

  (NGINX && NJS_MODULE ? it : it.skip)("passes nginx -t (with an HTTPS upstream)", () => {
    const files = render("https://localhost:8443/v1");
    mkdirSync(path.join(dir, "conf"), { recursive: true });
    for (const sub of ["logs", "cache", "temp"]) mkdirSync(path.join(dir, "state", sub), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, "conf", name), text);
    const result = spawnSync(
      NGINX!,
      ["-t", "-p", `${path.join(dir, "state")}/`, "-c", path.join(dir, "conf", "nginx.conf")],
      { encoding: "utf8" },
    );
    expect(result.stderr).toMatch(/syntax is ok/);
    expect(result.status).toBe(0);
  });
});
