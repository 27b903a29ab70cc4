/** One sentence per result, for the pane and for the ribbon command's log. */
import type { RefreshReport } from "./refresh-all";

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export function refreshSummary(report: RefreshReport): string {
  const parts: string[] = [];
  if (report.cells === 0 && report.skipped.length === 0) {
    parts.push(`No MD formulas in this workbook (checked in ${formatDuration(report.ms)}).`);
  } else if (report.cells > 0) {
    parts.push(
      `Refreshed ${plural(report.cells, "MD cell")} on ${plural(report.sheets.length, "sheet")} in ${formatDuration(report.ms)}.`,
    );
  }
  if (report.failed.length > 0) parts.push(`${plural(report.failed.length, "cell")} failed.`);
  if (report.pending.length > 0) parts.push(`${plural(report.pending.length, "cell")} still calculating.`);
  if (report.running > 0)
    parts.push(`${plural(report.running, "MD call")} still running; their cells fill in when they finish.`);
  for (const skipped of report.skipped) parts.push(skipped.message);
  parts.push(...report.notes);
  return parts.join(" ");
}
