/**
 * The pane's template files as the tests read them: every JSON file in
 * src/taskpane/templates/data, read from disk (the build bundles the same
 * files into the pane's chunk).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readTemplates, type TemplateCatalog } from "../../src/taskpane/templates/template";

export const TEMPLATE_DIR = path.resolve(__dirname, "../../src/taskpane/templates/data");

/** The file names in the templates folder. */
export function templateFileNames(): string[] {
  return readdirSync(TEMPLATE_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort();
}

export function templatesOnDisk(): TemplateCatalog {
  return readTemplates(
    templateFileNames().map((file) => ({
      file,
      data: JSON.parse(readFileSync(path.join(TEMPLATE_DIR, file), "utf8")),
    })),
  );
}
