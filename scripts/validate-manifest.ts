/**
 * `npm run validate`: checks manifest.xml (and dist/manifest.xml when a build
 * exists) offline. Exit code 1 on any error.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkManifest, SCHEMA_DIR } from "./lib/manifest-check";

const root = path.resolve(__dirname, "..");
const DEV_HOST = "https://localhost:3000";

async function main(): Promise<number> {
  const dist = path.join(root, "dist");
  const targets: { file: string; host: string; distDir?: string }[] = [
    { file: path.join(root, "manifest.xml"), host: DEV_HOST, distDir: existsSync(dist) ? dist : undefined },
  ];
  const built = path.join(dist, "manifest.xml");
  if (existsSync(built)) {
    targets.push({ file: built, host: (process.env.MD_ADDIN_URL || DEV_HOST).replace(/\/+$/, ""), distDir: dist });
  }
  let failed = 0;
  for (const target of targets) {
    const report = await checkManifest(readFileSync(target.file, "utf8"), target);
    const name = path.relative(root, target.file);
    const schema = report.schemaChecked ? "schemas" : `structure only (no schemas at ${SCHEMA_DIR})`;
    if (report.errors.length === 0) {
      console.log(`${name}: valid (${schema}${target.distDir ? ", URLs checked against dist/" : ""})`);
    } else {
      failed++;
      console.error(`${name}: ${report.errors.length} error(s)`);
      for (const error of report.errors) console.error(`  - ${error}`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
