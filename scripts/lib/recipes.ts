/**
 * docs/recipes.md's machinery, shared by the script that writes its tables
 * (scripts/recipes.ts) and the test that checks them (test/bundle/recipes.test.ts).
 *
 * A recipe in the markdown is an HTML comment naming it, a fenced `excel`
 * block with its formula(s), and a generated result between markers:
 *
 *     <!-- recipe: usdc-weekly -->
 *     ```excel
 *     =MD.SERIES("usdc", "STABLECOIN_SUPPLY_CIRCULATING", "-1Y", "TODAY", "WEEK")
 *     ```
 *     <!-- result: usdc-weekly -->
 *     | Date | usdc STABLECOIN_SUPPLY_CIRCULATING |
 *     …
 *     <!-- /result -->
 *
 * A one-formula block spills: the result is the table the function returns.
 * A sheet recipe puts formulas in cells and fills them down over the values
 * in column A: `<!-- recipe: id; rows: eth, sol; header: Chain, Fees -->`
 * with lines `B2: =MD.AGG($A2, "FEES", "30D")`; `$A2` (or `A2`) is the row's
 * value. The result is the sheet, with its row numbers and column letters.
 *
 * A recipe whose formula counts back from today (`"-1M", "TODAY"`, a window
 * without `as_of`) may have a pinned variant after its table — the same
 * formulas with the document's day written in, which return the same table on
 * any later day — that the note under the table shows the reader:
 *
 *     <!-- pinned: net-flows -->
 *     ```excel
 *     =MD.FLOWS("ethereum, solana", "-1M", "2026-11-24")
 *     ```
 *
 * Formulas are evaluated by calling the built bundle's functions by id with
 * the arguments parsed from the formula text: text in double quotes, numbers,
 * empty arguments (omitted), and references to column A. A sheet recipe may
 * also read a property of an entity an earlier column of its row holds
 * (`C2: =B2.Price`, `=B2.[EV/EBITDA]`, as Excel's dot notation does): the
 * entity's property value, `#FIELD!` when it has none.
 */
import { addDays } from "../../src/core/calendar";
import { isoToSerial, serialToIso } from "../../src/core/excel-date";

/** Calls a custom function of the built bundle by id (SERIES, AGG, …) with Excel's argument conventions. */
export type CallFunction = (id: string, args: unknown[]) => Promise<unknown>;

export interface FormulaCall {
  /** "SERIES" for `=MD.SERIES(…)`. */
  id: string;
  /** Each argument as written: a string literal's text, a number, null when omitted, or a cell reference. */
  args: Array<string | number | null | { ref: string }>;
}

/** A formula as the document writes it: in a cell (`B2: =…`) or alone (it spills). */
export interface RecipeFormula {
  cell: string | null;
  text: string;
}

export interface Recipe {
  id: string;
  /** Sheet recipes: the values down column A from row 2, and the header row. */
  rows?: string[];
  header?: string[];
  /** One formula (spilled), or cell → formula for a sheet recipe. */
  formulas: RecipeFormula[];
  /** The formulas with the document's day written in, when the shown ones count back from today. */
  pinned?: RecipeFormula[];
}

const RECIPE = /<!-- recipe: ([a-z0-9-]+)((?:;[^>]*)?) -->\s*```excel\n([\s\S]*?)```/g;
const PINNED = /<!-- pinned: ([a-z0-9-]+) -->\s*```excel\n([\s\S]*?)```/g;

/** The formula lines of an ```excel block. */
function formulaLines(id: string, block: string): RecipeFormula[] {
  const formulas: RecipeFormula[] = [];
  for (const line of block
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const cell = /^([A-Z]+\d+):\s*(=.*)$/.exec(line);
    if (cell) formulas.push({ cell: cell[1], text: cell[2] });
    else if (line.startsWith("=")) formulas.push({ cell: null, text: line });
    else throw new Error(`recipe ${id}: "${line}" is neither a formula nor a cell: formula line`);
  }
  return formulas;
}

/** Every recipe in the document, in order. */
export function parseRecipes(markdown: string): Recipe[] {
  const recipes: Recipe[] = [];
  for (const match of markdown.matchAll(RECIPE)) {
    const [, id, attributes, block] = match;
    const recipe: Recipe = { id, formulas: [] };
    for (const attribute of attributes
      .split(";")
      .map((a) => a.trim())
      .filter(Boolean)) {
      const [name, value] = attribute.split(/:\s*/, 2);
      const list = value.split(",").map((v) => v.trim());
      if (name === "rows") recipe.rows = list;
      else if (name === "header") recipe.header = list;
      else throw new Error(`recipe ${id}: unknown attribute "${name}"`);
    }
    recipe.formulas = formulaLines(id, block);
    if (recipe.formulas.length === 0) throw new Error(`recipe ${id}: no formula`);
    if (!recipe.rows && (recipe.formulas.length !== 1 || recipe.formulas[0].cell !== null))
      throw new Error(`recipe ${id}: several formulas need "rows:" (a sheet recipe)`);
    recipes.push(recipe);
  }
  for (const [, id, block] of markdown.matchAll(PINNED)) {
    const recipe = recipes.find((r) => r.id === id);
    if (!recipe) throw new Error(`pinned variant of ${id}: no recipe ${id} before it`);
    if (recipe.pinned) throw new Error(`recipe ${id}: two pinned variants`);
    recipe.pinned = formulaLines(id, block);
    const cells = (formulas: RecipeFormula[]) => formulas.map((f) => f.cell ?? "").join(",");
    if (cells(recipe.pinned) !== cells(recipe.formulas))
      throw new Error(`recipe ${id}: the pinned variant must fill the same cells as the recipe`);
  }
  return recipes;
}

/** The recipe as it reproduces on any day: its pinned variant's formulas, or its own when it has none. */
export function pinnedRecipe(recipe: Recipe): Recipe {
  return recipe.pinned ? { ...recipe, formulas: recipe.pinned } : recipe;
}

/** `=MD.AGG($A2, "FEES", "30D")` → { id: "AGG", args: [{ref: "$A2"}, "FEES", "30D"] }. */
export function parseFormula(text: string): FormulaCall {
  const head = /^=MD\.([A-Z]+)\(/.exec(text.trim());
  if (!head || !text.trim().endsWith(")")) throw new Error(`not an =MD.<FUNCTION>(…) formula: ${text}`);
  const body = text.trim().slice(head[0].length, -1);
  const args: FormulaCall["args"] = [];
  let i = 0;
  const skipSpaces = () => {
    while (body[i] === " ") i++;
  };
  for (;;) {
    skipSpaces();
    if (body[i] === '"') {
      let value = "";
      for (i++; ; i++) {
        if (i >= body.length) throw new Error(`unclosed text in ${text}`);
        if (body[i] === '"') {
          if (body[i + 1] === '"') {
            value += '"';
            i++;
          } else break;
        } else value += body[i];
      }
      i++;
      args.push(value);
    } else {
      const token = /^[^,]*/.exec(body.slice(i))![0];
      i += token.length;
      const bare = token.trim();
      if (bare === "") args.push(null);
      else if (/^-?\d+(\.\d+)?$/.test(bare)) args.push(Number(bare));
      else if (/^\$?[A-Z]+\$?\d+$/.test(bare)) args.push({ ref: bare });
      else
        throw new Error(
          `argument "${bare}" of ${text}: recipes use text in quotes, numbers, empty arguments or column A references`,
        );
    }
    skipSpaces();
    if (i >= body.length) break;
    if (body[i] !== ",") throw new Error(`expected a comma at "${body.slice(i)}" in ${text}`);
    i++;
  }
  if (body.trim() === "") args.length = 0;
  return { id: head[1], args };
}

/** Excel error values the bundle returns (CustomFunctions.Error). */
function errorCode(value: unknown): string | null {
  const code: unknown = value instanceof Error ? (value as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : null;
}

export interface Evaluated {
  recipe: Recipe;
  /** Spilled recipes: the returned table. Sheet recipes: the sheet (header row, then one row per value of column A). */
  table: unknown[][];
  /** Excel errors in the result, with their messages. */
  errors: string[];
}

async function callCell(call: CallFunction, formula: FormulaCall, row: number, value: string): Promise<unknown> {
  const args = formula.args.map((arg) => {
    if (arg === null || typeof arg !== "object") return arg;
    const ref = /^\$?([A-Z]+)\$?(\d+)$/.exec(arg.ref)!;
    if (ref[1] !== "A" || Number(ref[2]) !== 2)
      throw new Error(`recipes refer only to column A of their own row ($A2 or A2), not ${arg.ref}`);
    return row >= 0 ? value : null;
  });
  try {
    return await call(formula.id, args);
  } catch (error) {
    return error;
  }
}

export async function evaluateRecipe(recipe: Recipe, call: CallFunction): Promise<Evaluated> {
  const errors: string[] = [];
  const note = (value: unknown) => {
    const code = errorCode(value);
    if (code) errors.push(`${code} ${(value as Error).message}`);
    return value;
  };
  if (!recipe.rows) {
    const value = note(await callCell(call, parseFormula(recipe.formulas[0].text), -1, ""));
    const table = Array.isArray(value) ? (value as unknown[][]) : [[value]];
    table.forEach((row) => row.forEach(note));
    return { recipe, table, errors };
  }
  const columns = recipe.formulas.map((f) => {
    const read = parsePropertyRead(f.text);
    return { column: /^[A-Z]+/.exec(f.cell ?? "")?.[0] ?? "", read, call: read ? null : parseFormula(f.text) };
  });
  const width = 1 + columns.length;
  const header = recipe.header ?? [];
  const table: unknown[][] = [Array.from({ length: width }, (_, i) => header[i] ?? "")];
  for (const [r, value] of recipe.rows.entries()) {
    const cells = await Promise.all(columns.map((c) => (c.call ? callCell(call, c.call, r, value) : undefined)));
    const row: unknown[] = [value, ...cells];
    columns.forEach((c, i) => {
      if (c.read) row[i + 1] = propertyOf(row[c.read.column.charCodeAt(0) - 65], c.read.property);
    });
    table.push(row.map((cell, i) => (i === 0 ? cell : note(cell))));
  }
  return { recipe, table, errors };
}

/** `=B2.Price` or `=B2.[EV/EBITDA]` → the column and the property; null for anything else. */
export function parsePropertyRead(text: string): { column: string; property: string } | null {
  const match = /^=\$?([A-Z])\$?2\.(?:\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_]*))$/.exec(text.trim());
  return match ? { column: match[1], property: match[2] ?? match[3] } : null;
}

/** An Excel error as the bundle's stand-in makes them, for a property read that finds nothing. */
class FieldError extends Error {
  readonly code = "#FIELD!";
}

/** A property of the entity in a cell (a 1×1 result holds it), read as Excel's dot notation reads it. */
function propertyOf(cell: unknown, property: string): unknown {
  const entity = Array.isArray(cell) && cell.length === 1 && Array.isArray(cell[0]) ? (cell[0] as unknown[])[0] : cell;
  const properties = (entity as { type?: string; properties?: Record<string, unknown> } | null)?.properties;
  const value = properties?.[property];
  if (value === undefined) return new FieldError(`The cell has no property ${property}.`);
  return plainOf(value);
}

/** A data type's plain value (a formatted number's number); an entity stays itself. */
function plainOf(value: unknown): unknown {
  if (
    typeof value === "object" &&
    value !== null &&
    "basicValue" in value &&
    (value as { type?: string }).type !== "Entity"
  )
    return (value as { basicValue: unknown }).basicValue;
  return value;
}

// ——— rendering ———

function isoOfSerial(serial: number): string {
  return serialToIso(Math.round(serial));
}

/** How a number reads in the docs: whole numbers grouped, 2 decimals from 1,000 up, 4 below, 6 under 1. */
export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  const digits = Number.isInteger(value) || magnitude >= 1000 ? 2 : magnitude >= 1 ? 4 : 6;
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: digits }).format(value);
}

function cellText(value: unknown, dateColumn: boolean): string {
  const code = errorCode(value);
  if (code) return code;
  // A 1×1 result (MD.ASSET's entity) is its one cell; an entity shows its text, as the cell does.
  if (Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) && value[0].length === 1)
    return cellText(value[0][0], dateColumn);
  if (typeof value === "object" && value !== null && (value as { type?: string }).type === "Entity")
    return String((value as { text?: string }).text ?? "").replace(/\|/g, "\\|");
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "number")
    return dateColumn && Number.isInteger(value) ? isoOfSerial(value) : formatNumber(value);
  return String(value).replace(/\|/g, "\\|");
}

/** Rows shown of a long table: the first HEAD and the last TAIL, with a "…" row between. */
const HEAD = 6;
const TAIL = 3;

function markdownTable(header: string[], rows: string[][], numeric: boolean[]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(numeric.map((n) => (n ? "---:" : "---"))), ...rows.map(line)].join("\n");
}

/** The markdown between `<!-- result: id -->` and `<!-- /result -->`. */
export function renderResult(evaluated: Evaluated): string {
  const { recipe, table } = evaluated;
  if (recipe.rows) {
    const width = table[0].length;
    const letters = Array.from({ length: width }, (_, i) => String.fromCharCode(65 + i));
    // A column whose header (row 1) names a date shows its serials as dates, as its cells' date format would.
    const dated = table[0].map((cell) => typeof cell === "string" && /date/i.test(cell));
    const rows = table.map((row, r) => [String(r + 1), ...row.map((value, c) => cellText(value, r > 0 && dated[c]))]);
    return markdownTable(["", ...letters], rows, [true, false, ...letters.slice(1).map(() => true)]);
  }
  const [first, ...body] = table;
  const hasHeader = first.every((cell) => typeof cell === "string");
  const header = hasHeader ? (first as string[]) : first.map((_, i) => `(${i + 1})`);
  const data = hasHeader ? body : table;
  const dateColumns = header.map((h) => /date/i.test(h));
  const numeric = header.map(
    (_, c) => data.length > 0 && data.every((row) => typeof row[c] === "number" || row[c] === null),
  );
  const shown = data.length > HEAD + TAIL + 1 ? [...data.slice(0, HEAD), null, ...data.slice(-TAIL)] : data;
  const rows = shown.map((row) =>
    row === null ? header.map(() => "…") : row.map((value, c) => cellText(value, dateColumns[c])),
  );
  const text = markdownTable(
    header.map((h) => h.replace(/\|/g, "\\|")),
    rows,
    numeric,
  );
  return data.length > HEAD + TAIL + 1
    ? `${text}\n\n*${data.length} rows: the first ${HEAD} and the last ${TAIL} are shown.*`
    : text;
}

/** Where a recipe's result sits: the text between `<!-- result: id -->\n` and `<!-- /result -->`. */
function resultSpan(markdown: string, id: string): { from: number; to: number } | null {
  const marker = `<!-- result: ${id} -->\n`;
  const start = markdown.indexOf(marker);
  if (start < 0) return null;
  const from = start + marker.length;
  const to = markdown.indexOf("<!-- /result -->", from);
  return to < 0 ? null : { from, to };
}

/** The result text currently in the document for a recipe (no trailing newline), or null when it has no result markers. */
export function resultInDocument(markdown: string, id: string): string | null {
  const span = resultSpan(markdown, id);
  return span ? markdown.slice(span.from, span.to).replace(/\n$/, "") : null;
}

/** The document with a recipe's result replaced (the markers must exist). */
export function withResult(markdown: string, id: string, result: string): string {
  const span = resultSpan(markdown, id);
  if (!span) throw new Error(`docs/recipes.md has no <!-- result: ${id} --> … <!-- /result --> block`);
  return `${markdown.slice(0, span.from)}${result}\n${markdown.slice(span.to)}`;
}

/** The day the document's tables were computed for: `<!-- recipes-today: YYYY-MM-DD -->`. */
export function recipesToday(markdown: string): string | null {
  return /<!-- recipes-today: (\d{4}-\d{2}-\d{2}) -->/.exec(markdown)?.[1] ?? null;
}

/**
 * The document moved to another day: its marker and the sentence naming the
 * day, and every date written in a recipe's or a pinned variant's formulas
 * moved by as many days (a pinned window ends on the document's day, or two
 * days before it: the latest day with settled data).
 */
export function withToday(markdown: string, today: string): string {
  const before = recipesToday(markdown);
  if (!before) throw new Error("docs/recipes.md names no day (<!-- recipes-today: YYYY-MM-DD -->)");
  const shift = isoToSerial(today) - isoToSerial(before);
  return markdown
    .replace(`<!-- recipes-today: ${before} -->`, `<!-- recipes-today: ${today} -->`)
    .replace(/(The tables below were computed on )\d{4}-\d{2}-\d{2}/, `$1${today}`)
    .replace(
      /(<!-- (?:recipe|pinned): [^>]*-->\s*```excel\n)([\s\S]*?```)/g,
      (_, head: string, block: string) =>
        head + block.replace(/"(\d{4}-\d{2}-\d{2})"/g, (_date, iso: string) => `"${addDays(iso, shift)}"`),
    );
}

/** Replaces the text between `<!-- <name>:start -->` and `<!-- <name>:end -->`. */
export function withSection(markdown: string, name: string, text: string): string {
  const open = `<!-- ${name}:start -->\n`;
  const close = `<!-- ${name}:end -->`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open.trim()} … ${close} section`);
  return markdown.slice(0, start + open.length) + text + markdown.slice(end);
}

export function sectionText(markdown: string, name: string): string | null {
  const open = `<!-- ${name}:start -->\n`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(`<!-- ${name}:end -->`);
  return start < 0 || end < start ? null : markdown.slice(start + open.length, end);
}
