/**
 * The nginx variables the gateway's njs reads (deploy/nginx/*.js,
 * `r.variables.X`) against their one declaration, deploy/nginx/variables.json:
 * each one read is declared, each one declared is read where it says, and
 * each of ours is set (`set $X`, a map or js_var) by the configuration the
 * gateway writes, with sign-in and in either key mode.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { keyInclude, renderGatewayConfig, serverNamesFor, TEMPLATE_DIR } from "../../scripts/lib/gateway";

interface Declared {
  "read by": string;
  "set in"?: string;
  what: string;
}
const declaration = JSON.parse(readFileSync(path.join(TEMPLATE_DIR, "variables.json"), "utf8")) as {
  "njs reads": Record<string, Declared>;
  "nginx's own": Record<string, Declared>;
};
const ours = declaration["njs reads"];
const nginxOwn = declaration["nginx's own"];

/** The variables a njs file reads: `r.variables.X`, and `v.X` where `const v = r.variables`. */
function variablesRead(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\br\.variables\.([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]);
  for (const alias of source.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*r\.variables\s*;/g)) {
    for (const m of source.matchAll(new RegExp(`\\b${alias[1]}\\.([A-Za-z_][A-Za-z0-9_]*)`, "g"))) names.add(m[1]);
  }
  return [...names].sort();
}

const njsFiles = readdirSync(TEMPLATE_DIR).filter((f) => f.endsWith(".js"));
const reads = Object.fromEntries(
  njsFiles.map((f) => [f, variablesRead(readFileSync(path.join(TEMPLATE_DIR, f), "utf8"))]),
);

/** Every file of a configuration with sign-in, in each key mode, as one text. */
function writtenConfiguration(): string {
  const dir = "/tmp/md-gateway-variables";
  const files = renderGatewayConfig({
    upstream: "https://api.example.com",
    listen: "127.0.0.1:18080",
    distDir: `${dir}/dist`,
    confDir: `${dir}/conf`,
    stateDir: `${dir}/state`,
    keyInclude: `${dir}/conf/key-pass-through.conf`,
    jsModule: null,
    serverNames: serverNamesFor("127.0.0.1"),
    paneCsp: "default-src 'self'",
    identity: {
      issuer: "https://id.example.com/realm",
      audience: "aud",
      clientId: "client",
      jwksUri: "https://id.example.com/realm/keys",
    },
    calendarDays: 1,
  });
  return [...Object.values(files), keyInclude("firm-key")].join("\n");
}

/** Whether the configuration sets `$name`: a `set`, a map's result, or a js_var. */
function setsVariable(config: string, name: string): boolean {
  return new RegExp(String.raw`(?:^|\n)\s*(?:set|js_var)\s+\$${name}\b|\bmap\s+\S+\s+\$${name}\s*\{`).test(config);
}

describe("the variables njs reads (deploy/nginx/variables.json)", () => {
  it("finds the njs files and what they read", () => {
    expect(njsFiles.sort()).toEqual(["service-tier.js", "sign-in.js"]);
    expect(Object.values(reads).flat().length).toBeGreaterThan(5);
  });

  it.each(njsFiles)("every variable %s reads is declared, as read by it", (file) => {
    const undeclared = reads[file].filter((name) => (ours[name] ?? nginxOwn[name])?.["read by"] !== file);
    expect(undeclared).toEqual([]);
  });

  it.each(Object.entries({ ...ours, ...nginxOwn }))("%s is read where it is declared to be", (name, declared) => {
    expect(reads[declared["read by"]] ?? []).toContain(name);
  });

  const config = writtenConfiguration();
  it.each(Object.keys(ours))("$%s is set by the written configuration", (name) => {
    expect(setsVariable(config, name)).toBe(true);
  });

  it.each(Object.keys(nginxOwn))("$%s is nginx's own: the configuration does not set it", (name) => {
    expect(setsVariable(config, name)).toBe(false);
  });

  it("the check itself: a variable nothing sets is found missing", () => {
    expect(setsVariable(config, "md_not_a_variable")).toBe(false);
    expect(setsVariable("map $a $md_x {\n}", "md_x")).toBe(true);
    expect(variablesRead("const v = r.variables;\nv.md_a; r.variables.md_b;")).toEqual(["md_a", "md_b"]);
  });
});
