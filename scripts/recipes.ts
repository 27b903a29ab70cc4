/**
 * Writes docs/recipes.md's generated parts: each recipe's result table —
 * its formula evaluated by the built dist/functions.js against the sandbox
 * `npm start` serves (its realistic mode: the two newest days of a daily
 * series unsettled, as the real service's are), on the day the document
 * names — and the metric
 * glossary from the sandbox's metric catalog. Also recomputes the results of
 * docs/functions.md's checked examples (```sandbox blocks) the same way.
 *
 *   npx webpack --mode production --env target=test   (once: the bundle)
 *   npx tsx scripts/recipes.ts                         (same day as the document)
 *   npx tsx scripts/recipes.ts --today 2027-01-15      (move the document's day)
 *
 * test/bundle/recipes.test.ts runs the same evaluation and fails when the
 * document differs, so a recipe that stops working, or a table that no longer
 * matches what the functions return, fails the build (and
 * test/bundle/function-docs.test.ts does so for the reference's examples).
 * It also runs every recipe — its pinned variant, when it has one — with the
 * day moved a week on (REPRODUCED_AFTER_DAYS), and fails unless each table is
 * the same: a reader must get the tables shown on any later day. This script
 * runs that check too, after writing, and names the recipes that fail it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { addDays } from "../src/core/calendar";
import { DEMO_API_KEY, startSandbox } from "../sandbox/server";
import { loadFunctionsBundle } from "../harness/bundle";
import { glossaryMarkdown } from "./lib/glossary";
import { withReferenceResults } from "./lib/reference-examples";
import {
  type CallFunction,
  type Evaluated,
  evaluateRecipe,
  parseRecipes,
  pinnedRecipe,
  recipesToday,
  renderResult,
  withResult,
  withSection,
  withToday,
} from "./lib/recipes";

export const RECIPES_DOC = path.resolve(__dirname, "../docs/recipes.md");
const REFERENCE_DOC = path.resolve(__dirname, "../docs/functions.md");

/**
 * Runs `work` with the built bundle's functions on `today` (the sandbox's last
 * day and the bundle's clock): against npm start's sandbox (`realistic`: its
 * newest two days unsettled, its sentences and empty answers), or the
 * contract's, which docs/functions.md's checked examples are written for.
 */
async function withFunctions<T>(
  today: string,
  work: (call: CallFunction) => Promise<T>,
  { entities = false, realistic = false }: { entities?: boolean; realistic?: boolean } = {},
): Promise<T> {
  const sandbox = await startSandbox({ today, quiet: true, insightFirstCallDelayMs: 0, realistic });
  try {
    // Noon UTC: the same calendar day in every time zone from UTC−11 to UTC+11.
    const bundle = loadFunctionsBundle({
      storage: { "md.baseUrl": sandbox.url, "md.apiKey": DEMO_API_KEY },
      now: Date.parse(`${today}T12:00:00Z`),
    });
    // `entities`: MD.ASSET's cards from a host with entities (Excel with data types in custom functions), for
    // the recipes; the rest, and the reference's examples, as an Excel without data types returns them.
    const withEntities = loadFunctionsBundle({
      storage: { "md.baseUrl": sandbox.url, "md.apiKey": DEMO_API_KEY },
      now: Date.parse(`${today}T12:00:00Z`),
      requirements: { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" },
    });
    return await work((id, args) => (entities && id === "ASSET" ? withEntities : bundle).call(id, args));
  } finally {
    await sandbox.close();
  }
}

/** How many days after the document's day its tables must still be what its (pinned) formulas return. */
export const REPRODUCED_AFTER_DAYS = 7;

/** What to do about a recipe whose table differs on a later day. */
export const PINNING_ADVICE =
  "Write its dates in (a fixed end date or an as_of), or give it a <!-- pinned: id --> variant and a note under its table " +
  "(docs/recipes.md's top explains both). An insight feed has no as_of: its quarterly cards change when a quarter ends, " +
  "so give the document a day more than a week before a quarter's end.";

/**
 * Every recipe of the document evaluated on `today`: the formulas shown, or
 * (`pinned`) each recipe's pinned variant where it has one.
 */
export function evaluateRecipes(
  markdown: string,
  today: string,
  variant: "shown" | "pinned" = "shown",
): Promise<Array<Evaluated & { result: string }>> {
  return withFunctions(
    today,
    async (call) => {
      const out: Array<Evaluated & { result: string }> = [];
      for (const recipe of parseRecipes(markdown)) {
        const evaluated = await evaluateRecipe(variant === "pinned" ? pinnedRecipe(recipe) : recipe, call);
        out.push({ ...evaluated, result: renderResult(evaluated) });
      }
      return out;
    },
    { entities: true, realistic: true },
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = args.indexOf("--today");
  let markdown = readFileSync(RECIPES_DOC, "utf8");
  const today = flag >= 0 ? args[flag + 1] : (recipesToday(markdown) ?? new Date().toISOString().slice(0, 10));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today ?? "")) throw new Error("--today takes a date written YYYY-MM-DD");
  markdown = withToday(markdown, today);
  const results = await evaluateRecipes(markdown, today);
  const broken = results.filter((r) => r.errors.length > 0);
  for (const r of broken) console.error(`recipe ${r.recipe.id}: ${r.errors.slice(0, 3).join("; ")}`);
  if (broken.length > 0) throw new Error(`${broken.length} recipe(s) returned errors; docs/recipes.md left unchanged`);
  for (const r of results) markdown = withResult(markdown, r.recipe.id, r.result);
  markdown = withSection(markdown, "glossary", glossaryMarkdown());
  writeFileSync(RECIPES_DOC, markdown);
  console.log(`docs/recipes.md: ${results.length} recipes computed for ${today}, glossary from the metric catalog.`);
  const reference = await withFunctions(today, (call) =>
    withReferenceResults(readFileSync(REFERENCE_DOC, "utf8"), call),
  );
  writeFileSync(REFERENCE_DOC, reference);
  console.log("docs/functions.md: checked examples recomputed.");
  const later = addDays(today, REPRODUCED_AFTER_DAYS);
  const moved = (await evaluateRecipes(markdown, later, "pinned")).filter(
    (r, i) => r.result !== results[i].result || r.errors.length > 0,
  );
  if (moved.length > 0)
    throw new Error(
      `on ${later} these recipes' tables differ: ${moved.map((r) => r.recipe.id).join(", ")}. ${PINNING_ADVICE}`,
    );
}

if (require.main === module) {
  // Exits explicitly: the bundle's client may keep timers alive.
  main().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`recipes: ${error.message}`);
      process.exit(1);
    },
  );
}
