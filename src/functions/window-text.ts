import type { DateWindow } from "../core/domain";

/** "from 2024-01-01 to 2024-03-31" for messages; "" when the window is open on both ends. */
export function describeWindow(window: DateWindow): string {
  if (window.start && window.end) return `from ${window.start} to ${window.end}`;
  if (window.start) return `from ${window.start}`;
  if (window.end) return `up to ${window.end}`;
  return "";
}
