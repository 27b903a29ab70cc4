import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkManifest, checkStructure, SCHEMA_DIR } from "../../scripts/lib/manifest-check";

const root = path.resolve(__dirname, "../..");
const HOST = "https://localhost:3000";
const manifest = readFileSync(path.join(root, "manifest.xml"), "utf8");
const dist = path.join(root, "dist");
const haveSchemas = existsSync(path.join(SCHEMA_DIR, "OfficeAppManifestV1_1.xsd"));
const itWithSchemas = haveSchemas ? it : it.skip;

describe("manifest.xml", () => {
  itWithSchemas("is valid against the Office add-in schemas", async () => {
    const report = await checkManifest(manifest, { host: HOST });
    expect(report.schemaChecked).toBe(true);
    expect(report.errors).toEqual([]);
  });

  it("resolves every resid, runs one long-lived shared runtime, and names the MD namespace", () => {
    expect(checkStructure(manifest, { host: HOST })).toEqual([]);
  });

  it("points every add-in URL at a file the build emits", () => {
    expect(existsSync(path.join(dist, "functions.js"))).toBe(true);
    expect(checkStructure(manifest, { host: HOST, distDir: dist })).toEqual([]);
  });

  it("points SupportUrl and the ribbon's LearnMoreUrl at the help page the build emits, not the task pane", () => {
    const support = /<SupportUrl DefaultValue="([^"]+)"/.exec(manifest)?.[1];
    const learnMore = /<bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="([^"]+)"/.exec(manifest)?.[1];
    expect([support, learnMore]).toEqual([`${HOST}/docs/help.html`, `${HOST}/docs/help.html`]);
    const page = readFileSync(path.join(dist, "docs", "help.html"), "utf8");
    expect(page).toContain("<title>Market Data for Excel: help</title>");
    expect(page).toMatch(/<a href="?functions\.html"?>/); // minified: quotes may go
  });

  it("the help page names the ribbon as the manifest builds it: its tab, group and buttons", () => {
    const help = readFileSync(path.join(root, "docs", "help.md"), "utf8");
    const label = (id: string) => new RegExp(`<bt:String id="${id}" DefaultValue="([^"]+)"`).exec(manifest)?.[1];
    const labels = [...manifest.matchAll(/<Label resid="([^"]+)"/g)].map((match) => label(match[1]));
    const paths = [...help.matchAll(/\*\*([^*]+)\*\* tab → \*\*([^*]+)\*\* group → \*\*([^*]+)\*\*/g)];
    expect(paths.length).toBeGreaterThan(0);
    expect(manifest).toContain('<OfficeTab id="TabData">');
    for (const [, tab, group, button] of paths) {
      expect(tab).toBe("Data");
      expect(group).toBe(label("Group.Label"));
      expect(labels).toContain(button);
    }
  });

  it("is emitted into dist/ with the add-in host substituted", () => {
    const built = readFileSync(path.join(dist, "manifest.xml"), "utf8");
    const host = (process.env.MD_ADDIN_URL || HOST).replace(/\/+$/, "");
    expect(built).toContain(`${host}/functions.json`);
    expect(checkStructure(built, { host, distDir: dist })).toEqual([]);
  });
});

describe("manifest checks catch broken manifests", () => {
  it.each([
    [
      "an unresolved resid",
      manifest.replace('resid="Functions.Script.Url"', 'resid="Missing.Url"'),
      /Missing\.Url.*does not resolve/,
    ],
    ["a short-lived runtime", manifest.replace('lifetime="long"', 'lifetime="short"'), /lifetime="long"/],
    [
      "another namespace",
      manifest.replace('id="Functions.Namespace" DefaultValue="MD"', 'id="Functions.Namespace" DefaultValue="XX"'),
      /namespace is "XX"/,
    ],
    [
      "no SharedRuntime requirement",
      manifest.replace('<Set Name="SharedRuntime" MinVersion="1.1" />', ""),
      /SharedRuntime/,
    ],
    [
      "an http URL",
      manifest.replace("https://localhost:3000/functions.json", "http://localhost:3000/functions.json"),
      /not https/,
    ],
    [
      "a URL to a file the build does not emit",
      manifest.replace("/functions.json", "/nowhere.json"),
      /nowhere\.json.*does not emit/,
    ],
    [
      "a duplicate resource id",
      manifest.replace('<bt:Image id="Icon.32x32"', '<bt:Image id="Icon.16x16"'),
      /defined twice/,
    ],
  ])("structure: %s", (_name, broken, message) => {
    expect(checkStructure(broken, { host: HOST, distDir: dist }).join("\n")).toMatch(message);
  });

  itWithSchemas.each([
    ["an unknown element", manifest.replace("<Permissions>", "<Bogus/><Permissions>")],
    ["a bad permission", manifest.replace("ReadWriteDocument", "Everything")],
    ["a missing Id", manifest.replace(/<Id>[^<]+<\/Id>/, "")],
  ])("schema: %s", async (_name, broken) => {
    const report = await checkManifest(broken, { host: HOST });
    expect(report.errors.some((e) => e.startsWith("schema:"))).toBe(true);
  });
});
