/**
 * The stand-in as one self-contained function's source, for the browser
 * suites to hand to `page.addInitScript` (test/support/pane-page.ts): the
 * page cannot import this folder's modules, so each is transpiled by
 * TypeScript to a CommonJS body and the function carries them with a
 * `require` of its own, then calls install.ts's `installWorkbookStandIn`.
 * The page and Node thus run the same modules. They may import only each
 * other (and types from anywhere); this file and index.ts are not sent.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const NOT_SENT = new Set(["index.ts", "page-source.ts"]);

let source: string | undefined;

/** `function installWorkbookStandIn(target, recording, hooks) { … }`, made once per process. */
export function workbookStandInSource(): string {
  source ??= build();
  return source;
}

function build(): string {
  const modules = readdirSync(__dirname)
    .filter((file) => file.endsWith(".ts") && !NOT_SENT.has(file))
    .map((file) => {
      const { outputText } = ts.transpileModule(readFileSync(path.join(__dirname, file), "utf8"), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
      });
      return `${JSON.stringify(`./${file.replace(/\.ts$/, "")}`)}: function (exports, require) {\n${outputText}\n}`;
    });
  return `function installWorkbookStandIn(target, recording, hooks) {
  const modules = {\n${modules.join(",\n")}\n};
  const loaded = {};
  const require = (name) => {
    if (!(name in modules)) throw new Error("The workbook stand-in imports " + name + ", which the page does not have.");
    if (!(name in loaded)) {
      loaded[name] = {};
      modules[name](loaded[name], require);
    }
    return loaded[name];
  };
  return require("./install").installWorkbookStandIn(target, recording, hooks);
}`;
}
