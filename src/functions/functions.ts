import { BUILD_INFO } from "../office/build-info";

/**
 * The version of the Market Data add-in that is running.
 * @customfunction VERSION
 * @helpurl https://localhost:3000/taskpane.html
 * @returns The add-in version, e.g. 0.1.0.
 */
export function version(): string {
  return BUILD_INFO.version;
}
