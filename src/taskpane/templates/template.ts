/**
 * A template is data: one JSON file in ./data per ready-made sheet. This is
 * its shape and the check that reads one, naming every problem it finds (the
 * file, the field, what was expected), so a mistyped template is reported
 * plainly in the gallery instead of failing when someone inserts it.
 */
import {
  CHART_TYPES,
  cellAddress,
  isColumnRange,
  parseCellAddress,
  rangeSize,
  sheetNameProblem,
  type CellEntry,
  type SheetPlan,
} from "../../office/workbook/sheet-insert";

/** What a template file holds: the sheet it writes (SheetPlan) and what the gallery shows about it. */
export interface SheetTemplate extends SheetPlan {
  /** The file's name without ".json": stable, used in test ids. */
  id: string;
  title: string;
  description: string;
}

export class TemplateError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: ${problems.join("; ")}`);
    this.name = "TemplateError";
  }
}

const TOP_KEYS = ["title", "description", "sheetName", "cells", "numberFormats", "bold", "columnWidths", "chart"];
const CHART_KEYS = ["type", "source", "categories", "seriesBy", "title", "position"];
const SERIES_BY = ["Auto", "Columns", "Rows"];
/** Excel's widest column is 255 characters, about 1,790 points in the default font. */
const MAX_COLUMN_WIDTH = 1790;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
const isEntry = (value: unknown): value is CellEntry =>
  typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));

/** The template in `file` ("stablecoin-supply.json"), or a TemplateError listing everything wrong with it. */
export function readTemplate(file: string, data: unknown): SheetTemplate {
  const problems: string[] = [];
  const id = file.replace(/^.*\//, "").replace(/\.json$/, "");
  if (!isObject(data)) throw new TemplateError(file, ["the file must hold one JSON object"]);
  for (const key of Object.keys(data)) if (!TOP_KEYS.includes(key)) problems.push(`unknown field "${key}"`);
  for (const key of ["title", "description", "sheetName"])
    if (!isText(data[key])) problems.push(`"${key}" must be non-empty text`);
  if (isText(data.sheetName)) {
    const problem = sheetNameProblem(data.sheetName);
    if (problem) problems.push(`"sheetName" ${JSON.stringify(data.sheetName)}: ${problem}`);
  }
  const range = (where: string, value: unknown) => {
    if (typeof value !== "string" || !rangeSize(value))
      problems.push(`${where} must be a range in A1 notation ("B4:D9"), not ${JSON.stringify(value)}`);
  };

  if (!Array.isArray(data.cells) || data.cells.length === 0)
    problems.push(`"cells" must be a non-empty list of blocks`);
  else
    data.cells.forEach((block: unknown, i) => {
      const where = `cells[${i}]`;
      if (!isObject(block)) return void problems.push(`${where} must be an object { "at", "rows" }`);
      if (typeof block.at !== "string" || !parseCellAddress(block.at))
        problems.push(`${where}.at must be one cell in A1 notation ("A3"), not ${JSON.stringify(block.at)}`);
      const rows = block.rows;
      if (!Array.isArray(rows) || rows.length === 0 || !rows.every((row) => Array.isArray(row) && row.length > 0))
        return void problems.push(`${where}.rows must be a non-empty list of non-empty rows`);
      rows.forEach((row: unknown[], r) =>
        row.forEach((entry, c) => {
          if (!isEntry(entry))
            problems.push(
              `${where}.rows[${r}][${c}] must be text, a number or a boolean, not ${JSON.stringify(entry)}`,
            );
          else if (typeof entry === "string" && entry.startsWith("=") && !balanced(entry))
            problems.push(`${where}.rows[${r}][${c}] ${entry}: unbalanced quotes or parentheses`);
        }),
      );
    });

  if (data.numberFormats !== undefined) {
    if (!Array.isArray(data.numberFormats)) problems.push(`"numberFormats" must be a list of { "range", "format" }`);
    else
      data.numberFormats.forEach((entry: unknown, i) => {
        if (!isObject(entry)) return void problems.push(`numberFormats[${i}] must be an object { "range", "format" }`);
        range(`numberFormats[${i}].range`, entry.range);
        if (!isText(entry.format)) problems.push(`numberFormats[${i}].format must be non-empty text`);
      });
  }
  if (data.bold !== undefined) {
    if (!Array.isArray(data.bold)) problems.push(`"bold" must be a list of ranges`);
    else data.bold.forEach((entry: unknown, i) => range(`bold[${i}]`, entry));
  }
  if (data.columnWidths !== undefined) {
    if (!Array.isArray(data.columnWidths)) problems.push(`"columnWidths" must be a list of { "columns", "width" }`);
    else
      data.columnWidths.forEach((entry: unknown, i) => {
        if (!isObject(entry)) return void problems.push(`columnWidths[${i}] must be an object { "columns", "width" }`);
        if (typeof entry.columns !== "string" || !isColumnRange(entry.columns))
          problems.push(
            `columnWidths[${i}].columns must be columns such as "A:A" or "B:H", not ${JSON.stringify(entry.columns)}`,
          );
        if (typeof entry.width !== "number" || !(entry.width > 0 && entry.width <= MAX_COLUMN_WIDTH))
          problems.push(`columnWidths[${i}].width must be a number of points, 1 to ${MAX_COLUMN_WIDTH}`);
      });
  }
  if (data.chart !== undefined) {
    const chart = data.chart;
    if (!isObject(chart)) problems.push(`"chart" must be an object { "type", "source", "title", "position" }`);
    else {
      for (const key of Object.keys(chart))
        if (!CHART_KEYS.includes(key)) problems.push(`unknown field "chart.${key}"`);
      if (!(CHART_TYPES as readonly unknown[]).includes(chart.type))
        problems.push(`"chart.type" must be one of ${CHART_TYPES.join(", ")}, not ${JSON.stringify(chart.type)}`);
      range(`"chart.source"`, chart.source);
      if (chart.categories !== undefined) range(`"chart.categories"`, chart.categories);
      if (chart.seriesBy !== undefined && !SERIES_BY.includes(chart.seriesBy as string))
        problems.push(`"chart.seriesBy" must be one of ${SERIES_BY.join(", ")}`);
      if (!isText(chart.title)) problems.push(`"chart.title" must be non-empty text`);
      range(`"chart.position"`, chart.position);
    }
  }
  if (problems.length > 0) throw new TemplateError(file, problems);
  return { id, ...(data as unknown as SheetPlan & { title: string; description: string }) };
}

/** Quotes closed (Excel doubles a quote inside text) and parentheses outside text balanced. */
function balanced(formula: string): boolean {
  let depth = 0;
  let inText = false;
  for (const ch of formula) {
    if (ch === '"') inText = !inText;
    else if (!inText && ch === "(") depth += 1;
    else if (!inText && ch === ")" && --depth < 0) return false;
  }
  return !inText && depth === 0;
}

/** The MD functions a template's formulas call, in order of first use ("MD.LATEST", "MD.AGG"). */
export function functionsUsed(template: SheetPlan): string[] {
  const found = new Set<string>();
  for (const block of template.cells)
    for (const row of block.rows)
      for (const entry of row)
        if (typeof entry === "string" && entry.startsWith("="))
          for (const match of entry.matchAll(/\bMD\.([A-Z]+)\(/gi)) found.add(`MD.${match[1].toUpperCase()}`);
  return [...found];
}

/** Every formula of the template with the cell it goes in ("B4"). */
export function templateFormulas(template: SheetPlan): { address: string; formula: string }[] {
  const out: { address: string; formula: string }[] = [];
  for (const block of template.cells) {
    const start = parseCellAddress(block.at)!;
    block.rows.forEach((row, r) =>
      row.forEach((entry, c) => {
        if (typeof entry === "string" && entry.startsWith("="))
          out.push({ address: cellAddress(start.row + r, start.column + c), formula: entry });
      }),
    );
  }
  return out;
}

export interface TemplateCatalog {
  templates: SheetTemplate[];
  /** Files that could not be read, each with what is wrong. */
  problems: TemplateError[];
}

/** Reads every file (name → parsed JSON), sorted by name; a bad file is reported, the others still load. */
export function readTemplates(files: readonly { file: string; data: unknown }[]): TemplateCatalog {
  const catalog: TemplateCatalog = { templates: [], problems: [] };
  for (const { file, data } of [...files].sort((a, b) => a.file.localeCompare(b.file))) {
    try {
      catalog.templates.push(readTemplate(file, data));
    } catch (error) {
      catalog.problems.push(error instanceof TemplateError ? error : new TemplateError(file, [String(error)]));
    }
  }
  return catalog;
}
