/**
 * docs/recipes.md is executed: every recipe's formula, parsed from the
 * document, is called by id on the built dist/functions.js against the
 * sandbox `npm start` serves (realistic: its newest two days unsettled), on the day the document names, and the table the
 * document shows must be what the function returns — so a recipe that stops
 * working, or a table that drifts, fails the build. The metric glossary must
 * be what the sandbox's metric catalog says. `npx tsx scripts/recipes.ts`
 * rewrites the generated parts.
 *
 * The tables must also reproduce on a later day: every recipe is run again
 * with the sandbox's day and the bundle's clock a week on (as `--today` would
 * move them) — a recipe whose formula counts back from today in its pinned
 * variant, the formula its note tells the reader to pin — and must return the
 * table shown, exactly.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { AssetCatalog } from "../../sandbox/asset-catalog";
import { addDays } from "../../src/core/calendar";
import { isoToSerial } from "../../src/core/excel-date";
import { glossaryMarkdown } from "../../scripts/lib/glossary";
import {
  type Evaluated,
  parseRecipes,
  recipesToday,
  resultInDocument,
  sectionText,
  withToday,
} from "../../scripts/lib/recipes";
import { evaluateRecipes, PINNING_ADVICE, RECIPES_DOC, REPRODUCED_AFTER_DAYS } from "../../scripts/recipes";

const doc = readFileSync(RECIPES_DOC, "utf8");
const recipes = parseRecipes(doc);
const REGENERATE =
  "Run `npx tsx scripts/recipes.ts` (after `npx webpack --mode production --env target=test`) to rewrite docs/recipes.md's tables.";

type Results = Map<string, Evaluated & { result: string }>;
let results: Results;
/** The pinned variants on the document's day, and every recipe (pinned where it has a variant) a week on. */
let pinned: Results;
let later: Results;
const today = recipesToday(doc);
const laterDay = today ? addDays(today, REPRODUCED_AFTER_DAYS) : "";

beforeAll(async () => {
  if (!today) throw new Error("docs/recipes.md names no day (<!-- recipes-today: YYYY-MM-DD -->)");
  const byId = (evaluated: Array<Evaluated & { result: string }>): Results =>
    new Map(evaluated.map((r) => [r.recipe.id, r]));
  results = byId(await evaluateRecipes(doc, today));
  pinned = byId(await evaluateRecipes(doc, today, "pinned"));
  later = byId(await evaluateRecipes(doc, laterDay, "pinned"));
}, 240_000);

describe("docs/recipes.md", () => {
  it("has the recipes a new user asks for first, each with a result block", () => {
    expect(recipes.map((r) => r.id)).toEqual([
      "usdc-weekly",
      "coinbase-revenue",
      "chain-comps",
      "chain-fees",
      "net-flows",
      "usdc-supply",
      "insights-uniswap",
      "declines-uniswap",
      "chains-rebased",
      "equity-cards",
      "names-avalanche",
    ]);
    for (const recipe of recipes) expect(resultInDocument(doc, recipe.id)).not.toBeNull();
    const resultBlocks = [...doc.matchAll(/<!-- result: ([a-z0-9-]+) -->/g)].map((m) => m[1]);
    expect(resultBlocks).toEqual(recipes.map((r) => r.id));
  });

  it.each(recipes.map((recipe) => [recipe.id, recipe.formulas.map((f) => f.text).join("  ")] as const))(
    "%s: %s returns values, not errors, and the table shown is what it returns",
    (id) => {
      const evaluated = results.get(id)!;
      expect(evaluated.errors).toEqual([]);
      // A header and at least one row of data.
      expect(evaluated.table.length).toBeGreaterThan(1);
      const shown = resultInDocument(doc, id);
      if (shown !== evaluated.result)
        console.error(`recipe ${id} differs from what the functions return. ${REGENERATE}`);
      expect(shown).toBe(evaluated.result);
    },
  );

  it.each(recipes.filter((recipe) => recipe.pinned).map((recipe) => [recipe.id] as const))(
    "%s: its pinned variant returns the table shown on the document's day",
    (id) => {
      expect(pinned.get(id)!.errors).toEqual([]);
      expect(pinned.get(id)!.result).toBe(resultInDocument(doc, id));
    },
  );

  it.each(
    recipes.map(
      (recipe) => [recipe.id, (recipe.pinned ?? recipe.formulas).map((f) => f.text).join("  "), laterDay] as const,
    ),
  )("%s: %s returns the table shown on a later day, %s", (id) => {
    const evaluated = later.get(id)!;
    expect(evaluated.errors).toEqual([]);
    if (evaluated.result !== resultInDocument(doc, id))
      console.error(`recipe ${id} returns another table on ${laterDay}. ${PINNING_ADVICE}`);
    expect(evaluated.result).toBe(resultInDocument(doc, id));
  });

  it("moving the document's day (--today) moves the dates its formulas write in by as many days", () => {
    const moved = withToday(doc, laterDay);
    expect(recipesToday(moved)).toBe(laterDay);
    expect(moved).toContain(`The tables below were computed on ${laterDay}`);
    const formulas = (id: string) => {
      const recipe = parseRecipes(moved).find((r) => r.id === id)!;
      return (recipe.pinned ?? recipe.formulas).map((f) => f.text);
    };
    // A window ending on the document's day, and an as_of on its latest day with data, two days before.
    expect(formulas("net-flows")[0]).toContain(`"-1M", "${laterDay}")`);
    expect(formulas("chain-fees")[0]).toBe(`=MD.AGG($A2, "FEES", "30D", , "${addDays(laterDay, -2)}")`);
    expect(formulas("names-avalanche")).toEqual(['=MD.ASSETS("avalanche")']);
  });

  it("the comps tables agree: MD.SNAPSHOT's L30_FEES, MD.AGG over 30 days and MD.LATEST's L30_FEES, chain by chain", () => {
    const snapshot = results.get("chain-comps")!.table;
    expect(snapshot[0].slice(0, 2)).toEqual(["Symbol", "L30_FEES"]);
    const sheet = results.get("chain-fees")!.table.slice(1);
    expect(sheet).toHaveLength(10);
    expect(snapshot.slice(1).map((row) => row[0])).toEqual(sheet.map((row) => row[0]));
    sheet.forEach(([, agg, latest], i) => {
      expect(agg as number).toBeCloseTo(latest as number, 2);
      expect(snapshot[i + 1][1] as number).toBeCloseTo(latest as number, 2);
    });
  });

  it("the tables are computed against a sandbox whose two newest days are unsettled: 30-day windows end on the latest data", () => {
    // Column D is MD.AGG's show=date: the window's last day, two days before the document's day.
    const latestData = isoToSerial(addDays(today!, -2));
    const sheet = results.get("chain-fees")!.table;
    expect(sheet[0][3]).toBe("Dated");
    expect(sheet.slice(1).map((row) => row[3])).toEqual(sheet.slice(1).map(() => latestData));
  });

  it("the metric glossary is the sandbox's metric catalog", () => {
    const shown = sectionText(doc, "glossary");
    if (shown !== glossaryMarkdown()) console.error(`The glossary differs from the metric catalog. ${REGENERATE}`);
    expect(shown).toBe(glossaryMarkdown());
  });

  it("the chain names note lists every chain's symbol and platform_id", () => {
    const chains = new AssetCatalog(1).entries
      .filter((e) => e.kind === "chain")
      .map((e) => `${e.record.symbol}/${e.record.platform_id}`);
    const note = /The chains' pairs: ([^.]+)\./.exec(doc.replace(/\s+/g, " "))?.[1] ?? "";
    expect(note.split(", ")).toEqual(chains);
  });

  it("the README links the recipes first", () => {
    const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
    const firstLink = /\]\(([^)]+)\)/.exec(readme)?.[1];
    expect(firstLink).toBe("docs/recipes.md");
  });
});
