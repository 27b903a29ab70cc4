/**
 * The function reference's checked examples: code blocks fenced as
 * ```` ```sandbox ```` in docs/functions.md hold formulas with the result the
 * sandbox gives them. Each formula line `=MD.X(…)` is followed either by
 * `→ value` on the same line, or by the spilled table (cells separated by two
 * or more spaces, a row `…` meaning "more rows follow"). The doc test calls
 * the built bundle with the formula's arguments and compares:
 * - numbers as shown (rounded to the decimals written),
 * - `YYYY-MM-DD` as the Excel date serial of that day,
 * - `#N/A` / `#VALUE!` as that error, `#N/A (text)` also with the text in its message,
 * - anything else as text.
 */

export interface DocExample {
  /** The `## MD.<ID>` section it appears in. */
  section: string;
  formula: string;
  expected: { kind: "value"; text: string } | { kind: "table"; rows: string[][]; more: boolean };
}

export interface ParsedFormula {
  id: string;
  args: unknown[];
}

export function parseExamples(markdown: string): DocExample[] {
  const examples: DocExample[] = [];
  let section = "";
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## MD\.([A-Z]+)$/.exec(lines[i]);
    if (heading) section = heading[1];
    if (lines[i].trim() !== "```sandbox") continue;
    const block: string[] = [];
    for (i++; i < lines.length && lines[i].trim() !== "```"; i++) block.push(lines[i]);
    let current: DocExample | undefined;
    for (const line of block) {
      if (line.startsWith("=MD.")) {
        const arrow = line.indexOf("→");
        if (arrow >= 0) {
          const text = line
            .slice(arrow + 1)
            .trim()
            .split(/\s{2,}/)[0];
          examples.push({ section, formula: line.slice(0, arrow).trim(), expected: { kind: "value", text } });
          current = undefined;
        } else {
          current = { section, formula: line.trim(), expected: { kind: "table", rows: [], more: false } };
          examples.push(current);
        }
      } else if (current && current.expected.kind === "table" && line.trim() !== "") {
        if (line.trim() === "…") current.expected.more = true;
        else current.expected.rows.push(line.trim().split(/\s{2,}/));
      }
    }
  }
  return examples;
}

/** `=MD.SERIES("eth", "PRICE", , "2024-01-31", TRUE, 3)` → { id: "SERIES", args: ["eth", "PRICE", null, "2024-01-31", true, 3] } */
export function parseFormula(formula: string): ParsedFormula {
  const match = /^=MD\.([A-Z]+)\((.*)\)$/.exec(formula.trim());
  if (!match) throw new Error(`not an MD formula: ${formula}`);
  const args: unknown[] = [];
  const text = match[2];
  let i = 0;
  while (i <= text.length) {
    while (text[i] === " ") i++;
    let value: unknown;
    if (text[i] === '"') {
      let s = "";
      for (i++; i < text.length; i++) {
        if (text[i] === '"' && text[i + 1] === '"') {
          s += '"';
          i++;
        } else if (text[i] === '"') break;
        else s += text[i];
      }
      i++;
      value = s;
    } else {
      const end = text.indexOf(",", i);
      const token = text.slice(i, end < 0 ? text.length : end).trim();
      i = end < 0 ? text.length : end;
      if (token === "") value = null;
      else if (/^-?\d+(\.\d+)?$/.test(token)) value = Number(token);
      else if (/^(TRUE|FALSE)$/i.test(token)) value = token.toUpperCase() === "TRUE";
      else throw new Error(`unsupported argument ${token} in ${formula}`);
    }
    args.push(value);
    while (text[i] === " ") i++;
    if (i >= text.length) break;
    if (text[i] !== ",") throw new Error(`expected a comma at ${i} in ${formula}`);
    i++;
  }
  if (text.trim() === "") args.length = 0;
  while (args.length > 0 && args[args.length - 1] === null) args.pop();
  return { id: match[1], args };
}

function serialOf(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** Why a cell does not match its documented text, or null when it does. */
export function cellMismatch(actual: unknown, expected: string): string | null {
  const value =
    typeof actual === "object" && actual !== null && "basicValue" in actual
      ? (actual as { basicValue: unknown }).basicValue
      : actual;
  const error = /^(#N\/A|#VALUE!|#DIV\/0!|#NUM!)(?: \((.*)\))?$/.exec(expected);
  if (error) {
    const code = (value as { code?: unknown } | null)?.code;
    if (code !== error[1]) return `expected ${error[1]}, got ${describe(value)}`;
    const message = String((value as { message?: unknown }).message ?? "");
    return error[2] && !message.includes(error[2]) ? `expected a message with "${error[2]}", got "${message}"` : null;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(expected))
    return value === serialOf(expected) ? null : `expected the date ${expected}, got ${describe(value)}`;
  const number = /^-?\d+(?:\.(\d+))?(%?)$/.exec(expected);
  if (number) {
    if (typeof value !== "number") return `expected ${expected}, got ${describe(value)}`;
    const decimals = number[1]?.length ?? 0;
    const shown = (number[2] ? value * 100 : value).toFixed(decimals);
    return shown === expected.replace("%", "") ? null : `expected ${expected}, got ${value}`;
  }
  return value === expected ? null : `expected "${expected}", got ${describe(value)}`;
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${(value as { code?: string }).code ?? value.name} (${value.message})`;
  return JSON.stringify(value);
}
