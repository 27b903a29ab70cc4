/**
 * The `options` argument: `key=value` pairs in one text (`"headers=false;
 * order=desc"`) or a two-column range of keys and values. Each function
 * declares the keys it accepts; an unknown key or value is refused with the
 * accepted ones listed, because a silently ignored typo (`heders=false`) would
 * look like a bug in the add-in.
 */
import { ArgumentError } from "./errors";
import { blankIfZero, describeValue, isOmitted } from "./arguments";

export interface BooleanOption {
  kind: "boolean";
  default: boolean;
}

export interface ChoiceOption<V extends string = string> {
  kind: "choice";
  values: readonly V[];
  default: V;
}

/** A whole number from 1 to `max`; null when not given and there is no default. */
export interface CountOption {
  kind: "count";
  max: number;
  default: number | null;
}

export type OptionSpec = Record<string, BooleanOption | ChoiceOption | CountOption>;

export type OptionValues<S extends OptionSpec> = {
  [K in keyof S]: S[K] extends BooleanOption ? boolean : S[K] extends ChoiceOption<infer V> ? V : number | null;
};

/** Rows an options range may have: every option once, with room for blank rows and notes. */
export const MAX_OPTION_ROWS = 1_000;

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

export function parseOptions<S extends OptionSpec>(value: unknown, spec: S, argument = "options"): OptionValues<S> {
  const result: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(spec)) result[key] = option.default;
  const keys = Object.keys(spec);
  const given = new Set<string>();
  for (const [rawKey, rawValue] of optionPairs(value, argument)) {
    const key = rawKey.trim().toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(spec, key)) {
      throw new ArgumentError(
        argument,
        `${JSON.stringify(rawKey.trim())} is not an option here. Use ${listWords(keys)}, written as "key=value; key=value".`,
      );
    }
    if (given.has(key)) throw new ArgumentError(argument, `${key} is given twice.`);
    given.add(key);
    result[key] = optionValue(spec[key], key, rawValue, argument);
  }
  return result as OptionValues<S>;
}

/** Whether `key` is written in the options (any case), for a check that depends on what was given rather than defaulted. */
export function optionGiven(value: unknown, key: string, argument = "options"): boolean {
  return optionPairs(value, argument).some(([rawKey]) => rawKey.trim().toLowerCase() === key);
}

function optionValue(
  option: BooleanOption | ChoiceOption | CountOption,
  key: string,
  raw: unknown,
  argument: string,
): unknown {
  if (isOmitted(raw)) throw new ArgumentError(argument, `${key} has no value. ${accepted(option, key)}`);
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
  switch (option.kind) {
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === 1 || raw === 0) return raw === 1;
      if (text !== undefined && TRUE_WORDS.has(text)) return true;
      if (text !== undefined && FALSE_WORDS.has(text)) return false;
      break;
    case "choice": {
      const match = option.values.find((v) => v === text);
      if (match !== undefined) return match;
      break;
    }
    case "count": {
      const number = typeof raw === "number" ? raw : text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
      if (Number.isInteger(number) && number >= 1 && number <= option.max) return number;
      break;
    }
  }
  throw new ArgumentError(
    argument,
    `${key}=${describeValue(typeof raw === "string" ? raw.trim() : raw)} is not accepted. ${accepted(option, key)}`,
  );
}

function accepted(option: BooleanOption | ChoiceOption | CountOption, key: string): string {
  switch (option.kind) {
    case "boolean":
      return `Use ${key}=true or ${key}=false (also yes/no, 1/0).`;
    case "choice":
      return `Use ${listWords(option.values.map((v) => `${key}=${v}`))}.`;
    case "count":
      return `Use a whole number from 1 to ${option.max}, e.g. ${key}=10.`;
  }
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** The (key, value) pairs of the text or range forms, in order. */
function optionPairs(value: unknown, argument: string): [string, unknown][] {
  if (isOmitted(blankIfZero(value))) return [];
  if (typeof value === "string") return textPairs(value, argument);
  if (!Array.isArray(value)) {
    throw new ArgumentError(
      argument,
      `${describeValue(value)} is not options text. Use "key=value; key=value" or a two-column range of keys and values.`,
    );
  }
  // A whole-column range (1,048,576 rows) is a selection mistake, not options.
  if (value.length > MAX_OPTION_ROWS) {
    throw new ArgumentError(
      argument,
      `a range of ${value.length.toLocaleString("en-US")} rows is too large for options. Select only the cells that hold them (at most ${MAX_OPTION_ROWS.toLocaleString("en-US")} rows), or write "key=value; key=value".`,
    );
  }
  const rows = value.map((row) => (Array.isArray(row) ? row : [row]));
  let width = 0;
  for (const row of rows) if (row.length > width) width = row.length;
  const pairs: [string, unknown][] = [];
  for (const row of rows) {
    // A key is never 0: a 0 there is a blank cell from an older Excel, and so is a 0 beside a blank key.
    const key = blankIfZero(row[0]);
    if (isOmitted(row) || (isOmitted(key) && row.slice(1).every((cell) => isOmitted(blankIfZero(cell))))) continue;
    if (width === 1) {
      const cell = key;
      if (typeof cell !== "string") {
        throw new ArgumentError(
          argument,
          `${describeValue(cell)} is not options text. Use "key=value" in each cell, or a two-column range of keys and values.`,
        );
      }
      pairs.push(...textPairs(cell, argument));
      continue;
    }
    if (row.slice(2).some((cell) => !isOmitted(blankIfZero(cell)))) {
      throw new ArgumentError(argument, `a range of options has two columns: keys, then values.`);
    }
    const cellValue = row[1];
    if (typeof key !== "string" || key.trim() === "") {
      throw new ArgumentError(
        argument,
        `the key column holds ${isOmitted(key) ? "a blank" : describeValue(key)} beside ${describeValue(cellValue)}; keys are option names such as headers.`,
      );
    }
    pairs.push([key, cellValue]);
  }
  return pairs;
}

/** `;` separates pairs (`,` too, since no option value contains a comma). */
function textPairs(text: string, argument: string): [string, unknown][] {
  const pairs: [string, unknown][] = [];
  for (const part of text.split(/[;,\n]/)) {
    if (!part.trim()) continue;
    const equals = part.indexOf("=");
    if (equals < 0)
      throw new ArgumentError(
        argument,
        `${JSON.stringify(part.trim())} is not key=value. Write options as "key=value; key=value".`,
      );
    pairs.push([part.slice(0, equals), part.slice(equals + 1)]);
  }
  return pairs;
}
