/**
 * The gallery's templates: every ./data/*.json, found by webpack at build time
 * (`require.context`), so adding a template is adding a file. The files are
 * bundled into the pane's own chunk (this module is reached only from the
 * pane UI), never into functions.js.
 */
import { readTemplates, type TemplateCatalog } from "./template";

/** What `require.context` returns: the file keys ("./stablecoin-supply.json") and a loader per key. */
export interface TemplateFiles {
  keys(): string[];
  (key: string): unknown;
}

/** Reads the files a context lists (a bad one is reported, the others load). */
export function catalogFrom(files: TemplateFiles): TemplateCatalog {
  return readTemplates(files.keys().map((key) => ({ file: key.replace(/^\.\//, ""), data: files(key) })));
}

let built: TemplateCatalog | undefined;

/**
 * The bundled templates, read once. Only a webpack build has `require.context`; code run from source (the
 * component tests under jest) has no bundled files and hands the gallery its catalog itself.
 */
export function bundledTemplates(): TemplateCatalog {
  built ??= catalogFrom(bundledFiles());
  return built;
}

function bundledFiles(): TemplateFiles {
  try {
    return require.context("./data", false, /\.json$/);
  } catch {
    // Not a webpack build (`require.context` is undefined): no bundled files.
    return Object.assign(() => undefined, { keys: () => [] });
  }
}
