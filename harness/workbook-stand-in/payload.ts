/**
 * Excel on the web's limit on one request and one response, counted per
 * `context.sync()`.
 *
 * "Excel on the web limits requests and responses to 5 MB. The API returns a
 * `RichAPI.Error` error if this limit is exceeded." "The payload size of a
 * request combines: the number of API calls; the number of objects, such as
 * `Range` objects; the length of the value to set or get." "If you get
 * `RequestPayloadSizeLimitExceeded`, apply the following strategies"; and of
 * a loop setting `values` on 10,000 one-cell ranges before one sync: it
 * "would likely exceed the 5MB payload size limit in a real-world situation",
 * while the same loop split into two syncs of 5,000 does not (Microsoft Learn,
 * "Performance optimization using the Excel JavaScript API", Payload size
 * limit best practices,
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/performance;
 * the limit also in "Resource limits and performance optimization for Office
 * Add-ins", https://learn.microsoft.com/en-us/office/dev/add-ins/concepts/resource-limits-and-performance-optimization).
 * Excel.ErrorCodes in @types/office-js also has ResponsePayloadSizeLimitExceeded.
 *
 * The model. Microsoft gives no bytes per call; Office.js sends each object
 * as an object path (its parent, the method, its arguments such as the
 * address) and each call or property write as an action naming it, a few
 * hundred bytes of JSON each. BYTES_PER_OPERATION = 300 makes Microsoft's
 * example come out as documented: 10,000 ranges and 10,000 writes are 20,000
 * operations, 6,000,000 bytes, over 5 MB; 5,000 of each are 3,000,000 bytes,
 * under it. A written value adds the length of its JSON; a loaded property
 * adds the length of its JSON to the response. The limit is applied on every
 * platform the stand-in plays (the web is where Excel enforces it, and an
 * add-in must work there).
 */
import { officeError } from "./addresses";

export const PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
export const BYTES_PER_OPERATION = 300;

/** What one sync's request and response carry, as the stand-in counts them. */
export interface Payload {
  /** Objects made (ranges, worksheets by name, range areas). */
  objects: number;
  /** Bytes of the values written (their JSON). */
  valueBytes: number;
}

export const emptyPayload = (): Payload => ({ objects: 0, valueBytes: 0 });

/** The JSON length of a value written or read. */
export function jsonBytes(value: unknown): number {
  return JSON.stringify(value ?? null).length;
}

/** The request's estimated size: every object and every queued call, and the values written. */
export function requestBytes(payload: Payload, calls: number): number {
  return (payload.objects + calls) * BYTES_PER_OPERATION + payload.valueBytes;
}

/** Throws as Excel on the web does for a request over the limit (nothing of it is applied). */
export function refuseOversizedRequest(payload: Payload, calls: number): void {
  const bytes = requestBytes(payload, calls);
  if (bytes > PAYLOAD_LIMIT_BYTES)
    throw officeError(
      "RequestPayloadSizeLimitExceeded",
      `The request payload size has exceeded the limit (${bytes} bytes estimated: ${payload.objects} objects, ${calls} calls, ${payload.valueBytes} bytes of values).`,
    );
}

/** Throws as Excel on the web does for a response over the limit. */
export function refuseOversizedResponse(responseBytes: number): void {
  if (responseBytes > PAYLOAD_LIMIT_BYTES)
    throw officeError(
      "ResponsePayloadSizeLimitExceeded",
      `The response payload size has exceeded the limit (${responseBytes} bytes of loaded properties).`,
    );
}
