/**
 * Excel's data types as they arrive in an argument, read down to the plain
 * value every parser of the add-in understands. Pure: the shapes are Excel's
 * JSON (the `Excel.CellValue` union of @types/office-js), never Office itself.
 *
 * Why: functions.json sets `allowCustomDataForDataTypeAny`, so a parameter
 * typed `any` receives a cell's data type rather than its plain value —
 * "custom functions accept data types as both input and output values … this
 * schema is maintained throughout the calculations" (Microsoft Learn, "Use data
 * types with custom functions in Excel"). A date another MD function spilled
 * arrives as `{ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" }`,
 * a Stocks cell as an entity. Every MD function passes its arguments through
 * `plainArguments` once, as they enter (src/functions/functions.ts), ranges
 * cell by cell, so any MD result can feed any MD argument.
 *
 * What becomes what (the typings' `basicValue` is "the value that would be
 * returned by `Range.values`"):
 * - Double, FormattedNumber (ExcelApi 1.16, deprecated since 1.19), String,
 *   Boolean, and a value type the host cannot show (`NotAvailable`) → basicValue;
 * - an MD.ASSET entity (a `Symbol` property; `provider`, where it arrives, the
 *   add-in's ASSET_PROVIDER) → the symbol it carries, not its display text:
 *   the cell shows "Ethereum", and `=MD.LATEST(A2,"FEES")` must ask for `eth`;
 *   another provider's card, or a Symbol that is not text, is refused (readEntity);
 * - any other Entity, LinkedEntity → its `text` ("the text shown when a cell
 *   with this value is rendered"); its basicValue is "#VALUE!", so never that;
 * - Empty → blank (null);
 * - Error (`errorType`, basicValue "#N/A" …) → the call fails with that error
 *   (ErrorArgumentError); so does an error that arrives as a CustomFunctions.Error
 *   object (`code` "#N/A" …) rather than as a data type: the runtime's shape for
 *   errors inside ranges is not documented, so both are read;
 * - Array → its `elements`, read the same way;
 * - anything else (a WebImage, a Reference, a Function …) stays as it is, and
 *   the parser's message names it (`describeValue`: "a WebImage value").
 */
import { ASSET_PROVIDER, SYMBOL_PROPERTY } from "./asset-card";
import type { ErrorCellCode } from "./cell";
import { ArgumentError, ErrorArgumentError } from "./errors";

/** The error codes an Excel error value shows, by `errorType` (Excel.ErrorCellValueType). */
const ERROR_TEXT: Readonly<Record<string, string>> = {
  Blocked: "#BLOCKED!",
  Busy: "#BUSY!",
  Calc: "#CALC!",
  Connect: "#CONNECT!",
  Div0: "#DIV/0!",
  External: "#EXTERNAL!",
  Field: "#FIELD!",
  GettingData: "#GETTING_DATA",
  NotAvailable: "#N/A",
  Name: "#NAME?",
  Null: "#NULL!",
  Num: "#NUM!",
  Ref: "#REF!",
  Spill: "#SPILL!",
  Value: "#VALUE!",
};

/**
 * The error a function can return for an error passed in. Microsoft Learn,
 * "Handle and return errors from your custom function": #NAME? and #REF! are
 * "supported as a custom function input error, but not as a custom function
 * output error", and the newer codes (#SPILL!, #CALC!, #BUSY! …) are not in
 * CustomFunctions.ErrorCode at all; those fail as #VALUE! (or #N/A for "not
 * ready yet"), with a message naming the code passed in.
 */
const RETURNED_AS: Readonly<Record<string, ErrorCellCode>> = {
  "#N/A": "#N/A",
  "#VALUE!": "#VALUE!",
  "#DIV/0!": "#DIV/0!",
  "#NUM!": "#NUM!",
  "#NULL!": "#NULL!",
  "#BUSY!": "#N/A",
  "#GETTING_DATA": "#N/A",
};

const PLAIN_TYPES = new Set(["Double", "FormattedNumber", "String", "Boolean", "NotAvailable"]);
const ENTITY_TYPES = new Set(["Entity", "LinkedEntity"]);

type Shape = Record<string, unknown>;

function isShape(value: unknown): value is Shape {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The error code an error value or a CustomFunctions.Error-shaped object shows, or undefined for anything else. */
function errorTextOf(value: Shape): string | undefined {
  if (value.type === "Error") {
    const basic = typeof value.basicValue === "string" && value.basicValue.startsWith("#") ? value.basicValue : null;
    return basic ?? ERROR_TEXT[String(value.errorType)] ?? "an error";
  }
  if (value.type === undefined && typeof value.code === "string" && value.code.startsWith("#")) return value.code;
  return undefined;
}

function refuseError(shown: string, argument: string): never {
  const code = RETURNED_AS[shown] ?? "#VALUE!";
  throw new ErrorArgumentError(
    argument,
    code,
    `${argument}: the value passed in is ${shown}, an error, so there is nothing to read. Fix the cell it comes from, or wrap it in IFERROR.`,
  );
}

/** What an entity argument says it carries: an MD.ASSET card's symbol, or nothing of ours. */
type EntityRead = { kind: "symbol"; symbol: string } | { kind: "not-a-card" };

const TYPE_IT = 'Type the symbol as text (such as "eth" or "eq-aapl"), or point at an MD.ASSET cell.';

/**
 * The symbol an MD.ASSET card carries, read as Microsoft documents an entity
 * argument (Microsoft Learn, "Use data types with custom functions in Excel",
 * Input an entity value: `value.properties[attribute].basicValue`): its
 * `Symbol` property, a String data type as the add-in returned it or, from a
 * host that flattens it, plain text. Nothing documents that `provider` comes
 * along into an argument, so a card without one is read by its Symbol; a card
 * that names another provider is refused (its Symbol, a ticker such as "COIN",
 * is that service's, not necessarily this one's), as is a Symbol that is not text.
 * An entity without a Symbol (a Stocks cell) is not a card: its text is read.
 */
function readEntity(entity: Shape, argument: string): EntityRead {
  const properties = entity.properties;
  if (!isShape(properties) || !(SYMBOL_PROPERTY in properties)) return { kind: "not-a-card" };
  const held = properties[SYMBOL_PROPERTY];
  const symbol = typeof held === "string" ? held : isShape(held) ? held.basicValue : undefined;
  const shown = JSON.stringify(typeof entity.text === "string" ? entity.text : "");
  const provider = isShape(entity.provider) ? entity.provider.description : undefined;
  if (typeof provider === "string" && provider !== ASSET_PROVIDER) {
    const named =
      typeof symbol === "string" ? ` its Symbol ${JSON.stringify(symbol)} may not be a symbol of this service.` : "";
    throw new ArgumentError(argument, `${shown} is a card from ${provider}, not an MD.ASSET card:${named} ${TYPE_IT}`);
  }
  if (typeof symbol !== "string")
    throw new ArgumentError(argument, `${shown} is a card whose Symbol is not text, so it names no symbol. ${TYPE_IT}`);
  return { kind: "symbol", symbol };
}

/** One argument (a value, or a range as a 2-D array) with its data types read down to plain values. */
export function plainArgument(value: unknown, argument: string): unknown {
  if (Array.isArray(value)) return value.map((cell) => plainArgument(cell, argument));
  if (!isShape(value)) return value;
  const error = errorTextOf(value);
  if (error !== undefined) refuseError(error, argument);
  const type = value.type;
  if (typeof type !== "string") return value;
  if (PLAIN_TYPES.has(type) && value.basicValue !== undefined) return value.basicValue;
  if (ENTITY_TYPES.has(type)) {
    const read = readEntity(value, argument);
    if (read.kind === "symbol") return read.symbol;
    if (typeof value.text === "string") return value.text;
    const basic = value.basicValue;
    if (typeof basic === "string" && !basic.startsWith("#")) return basic;
    return value;
  }
  if (type === "Empty") return null;
  if (type === "Array" && Array.isArray(value.elements)) return plainArgument(value.elements, argument);
  return value;
}

/** Every argument of one call, by the parameter's name (which error messages use). */
export function plainArguments<A extends Record<string, unknown>>(args: A): A {
  const plain: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) plain[name] = plainArgument(value, name);
  return plain as A;
}
