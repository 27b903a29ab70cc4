/**
 * The errors the pure core raises. Each carries the text the user reads in the
 * cell's error tooltip; the Office layer maps them to Excel error codes
 * (ArgumentError and ResultTooLargeError → #VALUE!, NoDataError → #N/A,
 * ErrorArgumentError → the code it carries).
 */
import type { ErrorCellCode } from "./cell";

/** A bad argument. The message starts with the argument's name and lists the accepted forms. */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
  constructor(
    readonly argument: string,
    detail: string,
  ) {
    super(`${argument}: ${detail}`);
  }
}

/** The request was fine but the service has nothing to show for it. */
export class NoDataError extends Error {
  override readonly name = "NoDataError";
}

/** The result would not fit in what Excel accepts from one function call. */
export class ResultTooLargeError extends Error {
  override readonly name = "ResultTooLargeError";
}

/** The service answered a message in place of the series (an unsupported pair): "no data", with the service's words. */
export class MessageSeriesError extends NoDataError {
  constructor(
    message: string,
    readonly serviceMessage: string,
  ) {
    super(message);
  }
}

/** A symbol or metric the service's catalogs do not know: the formula must change (#VALUE!), the message says what exists. */
export class UnknownNameError extends ArgumentError {}

/**
 * An argument that holds an Excel error value (a #N/A passed in): the call
 * fails with the matching error (`code`), the message naming what came in.
 */
export class ErrorArgumentError extends Error {
  override readonly name = "ErrorArgumentError";
  constructor(
    readonly argument: string,
    readonly code: ErrorCellCode,
    message: string,
  ) {
    super(message);
  }
}
