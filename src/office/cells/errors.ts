/**
 * Turns the add-in's errors into what Excel shows in a cell: a
 * CustomFunctions.Error with a code and, where Excel allows one, a message the
 * user reads in the cell's error tooltip.
 *
 * Excel keeps custom messages only with #VALUE! and #N/A, so everything the
 * user must read maps to one of those two:
 * - #VALUE!: the formula must change (bad argument, a request the service
 *   refused, a result too large for Excel);
 * - #N/A: there is nothing to show right now (no data, a message series, the
 *   service unreachable, a rate limit, a missing or rejected key, value preview).
 * #DIV/0! (PCT_CHANGE from zero) carries no message. #BUSY! cannot be set by an
 * add-in; a pending promise is what shows it, so every path here settles.
 */
import { isMarketDataError, type MarketDataError, redact } from "../../api";
import {
  type CellValue,
  type ErrorCell,
  errorCell,
  type ErrorCellCode,
  isErrorCell,
  numberCell,
} from "../../core/cell";
import { ArgumentError, ErrorArgumentError, NoDataError, ResultTooLargeError } from "../../core/errors";

export type ExcelCell = number | string | boolean | CustomFunctions.Error;

export const PREVIEW_MESSAGE = "Preview: press Enter to load.";

/**
 * What makes an MD cell ask again. Not "recalculate": F9 (Calculate Now) does
 * not re-run custom functions whose arguments did not change (office-js #1462).
 * Refresh all (src/refresh) and re-entering the formula do.
 */
export const TRY_AGAIN = "To try again, use Refresh all (Data tab ▸ Market Data) or re-enter the formula.";

/** Long enough for every message the add-in writes; a bound so a pathological one cannot flood the tooltip. */
const MAX_MESSAGE_LENGTH = 500;

function errorCode(code: ErrorCellCode): CustomFunctions.ErrorCode {
  switch (code) {
    case "#VALUE!":
      return CustomFunctions.ErrorCode.invalidValue;
    case "#N/A":
      return CustomFunctions.ErrorCode.notAvailable;
    case "#DIV/0!":
      return CustomFunctions.ErrorCode.divisionByZero;
    case "#NUM!":
      return CustomFunctions.ErrorCode.invalidNumber;
    case "#NULL!":
      return CustomFunctions.ErrorCode.nullReference;
  }
}

export function excelError(code: ErrorCellCode, message: string): CustomFunctions.Error {
  if (code !== "#VALUE!" && code !== "#N/A") return new CustomFunctions.Error(errorCode(code));
  const text = redact(message);
  return new CustomFunctions.Error(
    errorCode(code),
    text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text,
  );
}

export function toExcelCell(cell: CellValue): ExcelCell {
  // A scalar result computed outside core's shapers (MD.LATEST's prefixed sums) gets the same guard.
  if (typeof cell === "number") cell = numberCell(cell, "The result");
  return isErrorCell(cell) ? excelError(cell.error, cell.message) : cell;
}

export function toExcelTable(table: readonly (readonly CellValue[])[]): ExcelCell[][] {
  return table.map((row) => (row.some(isErrorCell) ? row.map(toExcelCell) : (row as ExcelCell[])));
}

/** True for a cell Excel shows as an error (a single-value function throws it rather than returning it). */
export function isExcelError(cell: unknown): cell is CustomFunctions.Error {
  return cell instanceof CustomFunctions.Error;
}

/** What one failed call shows. Never throws. */
export function toCustomFunctionsError(error: unknown): CustomFunctions.Error {
  if (error instanceof CustomFunctions.Error) return error;
  const cell = failureCell(error);
  return excelError(cell.error, cell.message);
}

/**
 * The error cell a failed call shows, as plain data (no Office globals): what
 * the cell will read, for the task pane's preview as for the cell itself.
 */
export function failureCell(error: unknown): ErrorCell {
  if (error instanceof ErrorArgumentError) return errorCell(error.code, error.message);
  if (error instanceof ArgumentError || error instanceof ResultTooLargeError)
    return errorCell("#VALUE!", error.message);
  if (error instanceof NoDataError) return errorCell("#N/A", error.message);
  if (isMarketDataError(error)) return serviceError(error);
  const message = error instanceof Error ? error.message : String(error);
  return errorCell("#VALUE!", `Unexpected error in the Market Data add-in: ${message}`);
}

function serviceError(error: MarketDataError): ErrorCell {
  switch (error.kind) {
    case "bad-request":
      return errorCell("#VALUE!", error.message);
    case "not-cached":
      return errorCell("#N/A", PREVIEW_MESSAGE);
    case "rate-limit":
      return errorCell(
        "#N/A",
        `${error.message} Wait a moment, then use Refresh all (Data tab ▸ Market Data) or re-enter the formula.`,
      );
    case "network":
    case "timeout":
    case "server":
    case "bad-response":
      return errorCell("#N/A", `${error.message} ${TRY_AGAIN}`);
    default:
      // auth, config, not-found, cancelled: the client's message already says what to do.
      return errorCell("#N/A", error.message);
  }
}
