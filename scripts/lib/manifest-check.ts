/**
 * Offline manifest validation. `office-addin-manifest validate` posts the file
 * to a Microsoft service; here we check it against the published XSDs (read
 * from ../shared/office-manifest-xsd/, never copied) and add the structural
 * checks the schemas cannot express: every resid resolves, every URL on the
 * add-in's host points at a file the build emits, the runtime is long-lived.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { validateXML } from "xmllint-wasm";

export const SCHEMA_DIR = path.resolve(__dirname, "../../../shared/office-manifest-xsd");
const ROOT_SCHEMA = "OfficeAppManifestV1_1.xsd";

export interface ManifestReport {
  errors: string[];
  schemaChecked: boolean;
}

export async function validateAgainstSchemas(xml: string, schemaDir = SCHEMA_DIR): Promise<string[] | null> {
  if (!existsSync(path.join(schemaDir, ROOT_SCHEMA))) return null;
  const files = readdirSync(schemaDir).filter((f) => f.endsWith(".xsd"));
  const result = await validateXML({
    xml: [{ fileName: "manifest.xml", contents: xml }],
    schema: [{ fileName: ROOT_SCHEMA, contents: readFileSync(path.join(schemaDir, ROOT_SCHEMA), "utf8") }],
    preload: files
      .filter((f) => f !== ROOT_SCHEMA)
      .map((f) => ({ fileName: f, contents: readFileSync(path.join(schemaDir, f), "utf8") })),
  });
  return result.errors.map((e) => `schema: ${e.rawMessage}`);
}

type Node = Record<string, unknown>;

/** Walks the parsed tree, yielding every element as [name, attributes-and-children]. */
function* elements(node: unknown, name = "#root"): Generator<[string, Node]> {
  if (Array.isArray(node)) {
    for (const item of node) yield* elements(item, name);
    return;
  }
  if (node && typeof node === "object") {
    yield [name, node as Node];
    for (const [key, value] of Object.entries(node)) {
      if (!key.startsWith("@_")) yield* elements(value, key);
    }
  }
}

const localName = (name: string) => name.replace(/^.*:/, "");

export interface StructureOptions {
  /** The host the manifest's URLs use (dev: https://localhost:3000). */
  host: string;
  /** When given, each URL on `host` must name a file in this folder. */
  distDir?: string;
}

export function checkStructure(xml: string, options: StructureOptions): string[] {
  const errors: string[] = [];
  const tree = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" }).parse(xml);
  const resources = new Map<string, string>();
  const references: { resid: string; element: string }[] = [];
  const runtimes: Node[] = [];
  let sharedRuntimeSet = false;

  for (const [name, node] of elements(tree)) {
    const element = localName(name);
    const id = node["@_id"];
    const value = node["@_DefaultValue"];
    if (typeof id === "string" && typeof value === "string" && ["Image", "Url", "String"].includes(element)) {
      if (resources.has(id)) errors.push(`resource id "${id}" is defined twice`);
      resources.set(id, value);
    }
    if (typeof node["@_resid"] === "string") references.push({ resid: node["@_resid"] as string, element });
    if (element === "Runtime") runtimes.push(node);
    if (element === "Set" && node["@_Name"] === "SharedRuntime" && node["@_MinVersion"] === "1.1")
      sharedRuntimeSet = true;
  }

  for (const ref of references) {
    if (!resources.has(ref.resid)) errors.push(`<${ref.element} resid="${ref.resid}"> does not resolve to a resource`);
  }
  const namespaceRef = references.find((r) => r.element === "Namespace");
  const namespace = namespaceRef ? resources.get(namespaceRef.resid) : undefined;
  if (namespace !== "MD") errors.push(`custom functions namespace is "${namespace}", expected "MD"`);
  if (!sharedRuntimeSet) errors.push('requirement <Set Name="SharedRuntime" MinVersion="1.1"> is missing');
  if (runtimes.length !== 1) errors.push(`expected one <Runtime>, found ${runtimes.length}`);
  for (const runtime of runtimes) {
    if (runtime["@_lifetime"] !== "long") errors.push('<Runtime> must have lifetime="long" (shared runtime)');
  }

  // Every URL the manifest carries, from resources and from DefaultValue attributes elsewhere.
  const urls = new Set<string>(resources.values());
  for (const [, node] of elements(tree)) {
    const value = node["@_DefaultValue"];
    if (typeof value === "string" && /^https?:/.test(value)) urls.add(value);
  }
  for (const url of urls) {
    if (!/^https?:/.test(url)) continue;
    if (!url.startsWith("https://")) errors.push(`URL is not https: ${url}`);
    if (options.distDir && url.startsWith(options.host + "/")) {
      const file = new URL(url).pathname.replace(/^\//, "");
      if (!existsSync(path.join(options.distDir, file)))
        errors.push(`URL ${url} points at ${file}, which the build does not emit`);
    }
  }
  return errors;
}

export async function checkManifest(
  xml: string,
  options: StructureOptions,
  schemaDir = SCHEMA_DIR,
): Promise<ManifestReport> {
  const schemaErrors = await validateAgainstSchemas(xml, schemaDir);
  return {
    errors: [...(schemaErrors ?? []), ...checkStructure(xml, options)],
    schemaChecked: schemaErrors !== null,
  };
}
