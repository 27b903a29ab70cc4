/**
 * Rewrites the results of docs/functions.md's checked examples (```` ```sandbox ````
 * blocks, see harness/doc-examples.ts) from what the built bundle returns,
 * keeping each block's formulas, shape and comments: a `→ value` keeps its
 * trailing comment and percent style; a table keeps its number of shown rows
 * (and its `…`), each cell the style of the cell it replaces (a date stays a
 * date, a percentage a percentage). test/bundle/function-docs.test.ts checks
 * the result.
 */
import { cellMismatch, parseFormula } from "../../harness/doc-examples";
import type { CallFunction } from "./recipes";
import { serialToIso } from "../../src/core/excel-date";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PERCENT = /^-?\d+(?:\.(\d+))?%$/;

function plain(value: unknown): unknown {
  return typeof value === "object" && value !== null && "basicValue" in value
    ? (value as { basicValue: unknown }).basicValue
    : value;
}

function errorText(value: unknown): string | null {
  if (!(value instanceof Error)) return null;
  const code = (value as Error & { code?: unknown }).code;
  return typeof code === "string" ? `${code} (${value.message})` : null;
}

/** A number as the examples write it: up to 2 decimals from 1 up, 4 below. */
function numberText(value: number): string {
  const decimals = Math.abs(value) >= 1 ? 2 : 4;
  return String(Number(value.toFixed(decimals)));
}

/** The text for a cell: the text it replaces while that still matches, else new text in its style. */
function cellText(raw: unknown, style: string | undefined): string {
  if (style !== undefined && cellMismatch(raw, style) === null) return style;
  const value = plain(raw);
  const error = errorText(value);
  if (error) return error;
  if (typeof value === "number") {
    if (style && DATE.test(style) && Number.isInteger(value)) return serialToIso(value);
    const percent = style ? PERCENT.exec(style) : null;
    if (percent) return `${(value * 100).toFixed(percent[1]?.length ?? 0)}%`;
    return numberText(value);
  }
  return value === null || value === undefined ? "" : String(value);
}

/** Cells separated by at least two spaces, columns aligned (errors and long headers are not measured). */
function layoutRows(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, c) => {
      if (!cell.startsWith("#") && cell.length <= 24) widths[c] = Math.max(widths[c] ?? 0, cell.length);
    });
  return rows.map((row) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : `${cell.padEnd(widths[c] ?? 0)}  `))
      .join("")
      .replace(/\s+$/, ""),
  );
}

/** docs/functions.md with every ```sandbox example's result recomputed. */
export async function withReferenceResults(markdown: string, call: CallFunction): Promise<string> {
  const lines = markdown.split("\n");
  const out: string[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inBlock) {
      out.push(line);
      inBlock = line.trim() === "```sandbox";
      continue;
    }
    if (line.trim() === "```") {
      inBlock = false;
      out.push(line);
      continue;
    }
    if (!line.startsWith("=MD.")) {
      out.push(line); // a blank line between examples
      continue;
    }
    const arrow = line.indexOf("→");
    const formula = (arrow >= 0 ? line.slice(0, arrow) : line).trim();
    const { id, args } = parseFormula(formula);
    let result: unknown;
    try {
      result = await call(id, args);
    } catch (error) {
      result = error;
    }
    if (arrow >= 0) {
      const [old, ...comment] = line
        .slice(arrow + 1)
        .trim()
        .split(/(\s{2,})/);
      const value = cellText(result, old);
      const rest = comment.join("");
      // Keep the comment's column when the new value fits.
      const gap = rest ? " ".repeat(Math.max(2, old.length + (comment[0]?.length ?? 0) - value.length)) : "";
      out.push(`${line.slice(0, arrow + 1)} ${value}${gap}${comment.slice(1).join("")}`.replace(/\s+$/, ""));
      continue;
    }
    // A table: the old rows up to a blank line, the next formula or the end of the block.
    const oldRows: string[][] = [];
    const oldLines: string[] = [];
    let more = false;
    while (
      i + 1 < lines.length &&
      lines[i + 1].trim() !== "" &&
      !lines[i + 1].startsWith("=MD.") &&
      lines[i + 1].trim() !== "```"
    ) {
      i++;
      oldLines.push(lines[i]);
      if (lines[i].trim() === "…") more = true;
      else oldRows.push(lines[i].trim().split(/\s{2,}/));
    }
    if (!Array.isArray(result))
      throw new Error(`${formula}: expected a table, got ${errorText(plain(result)) ?? JSON.stringify(result)}`);
    const table = result as unknown[][];
    const shown = more ? table.slice(0, oldRows.length) : table;
    const rows = shown.map((row, r) =>
      row.map((cell, c) => cellText(cell, (oldRows[r] ?? oldRows[oldRows.length - 1])?.[c])),
    );
    const unchanged =
      rows.length === oldRows.length &&
      rows.every((row, r) => row.length === oldRows[r].length && row.every((cell, c) => cell === oldRows[r][c]));
    out.push(line, ...(unchanged ? oldLines : layoutRows(rows)), ...(more && !unchanged ? ["…"] : []));
  }
  return out.join("\n");
}
