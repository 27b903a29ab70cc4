/**
 * The two-tier layout's settings (scripts/lib/gateway/tier.ts), without
 * nginx: the cache nodes' addresses, the hop secret file (whose errors never
 * quote a secret), and the include that holds the secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCacheNode, readHopSecrets } from "../../scripts/lib/gateway";
import { hopSecretInclude, tierTemplateValues } from "../../scripts/lib/gateway/tier";

const SECRET = "a".repeat(20) + "B".repeat(20);
const NEXT = "0123456789abcdef0123456789abcdef";
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "md-tier-settings-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(text: string): string {
  const file = path.join(dir, `hop-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe("cache node addresses", () => {
  it.each([
    ["cache-1.internal:8081", "cache-1.internal:8081"],
    [" 10.0.0.7:80 ", "10.0.0.7:80"],
    ["[fd00::7]:8081", "[fd00::7]:8081"],
  ])("%j is %j", (given, parsed) => expect(parseCacheNode(given)).toBe(parsed));

  it.each(["cache-1", "cache-1:0", "cache-1:70000", "http://cache-1:8081", "cache 1:8081", "cache-1:80;"])(
    "%j is refused",
    (given) => expect(() => parseCacheNode(given)).toThrow(/not a cache node's address/),
  );

  it("an edge lists each node once, and at least one", () => {
    expect(() => tierTemplateValues({ role: "edge", cacheNodes: [], hopSecretFile: "x" })).toThrow(/at least one/);
    expect(() => tierTemplateValues({ role: "edge", cacheNodes: ["a:1", "a:1"], hopSecretFile: "x" })).toThrow(/twice/);
  });
});

describe("the hop secret file", () => {
  it.each([
    [`${SECRET}\n`, [SECRET]],
    [`\n${SECRET}\r\n${NEXT}\n\n`, [SECRET, NEXT]],
  ])("%j holds %j", (text, secrets) => expect(readHopSecrets(secretFile(text))).toEqual(secrets));

  it.each([
    ["", /is empty/],
    [`${SECRET.slice(0, 31)}\n`, /Line 1 .* not a secret/],
    [`${SECRET}\n${SECRET}"; evil\n`, /Line 2 .* not a secret/],
    [`${SECRET} ${NEXT}\n`, /Line 1 .* not a secret/],
  ])("%j is refused, without quoting it", (text, message) => {
    const attempt = () => readHopSecrets(secretFile(text));
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect(String(error)).not.toContain(SECRET.slice(0, 31));
    }
  });

  it("a missing file is named, with the reason", () => {
    expect(() => readHopSecrets(path.join(dir, "absent"))).toThrow(/cannot be read \(ENOENT\)/);
  });

  it("an edge sends the first secret; a cache node admits each, case-sensitively", () => {
    expect(hopSecretInclude({ role: "edge", cacheNodes: ["a:1"], hopSecretFile: "x" }, [SECRET, NEXT])).toContain(
      `default "${SECRET}";`,
    );
    const cache = hopSecretInclude({ role: "cache", hopSecretFile: "x" }, [SECRET, NEXT]);
    expect(cache).toContain(`"~^(?:${SECRET}|${NEXT})$" "";`);
    expect(cache).toContain("default 1;");
  });
});
