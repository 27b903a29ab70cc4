/**
 * How the pane shows numbers from the service. Compact figures fit a narrow
 * pane; the unit (2.5: CURRENCY or NOMINAL) decides whether a currency sign is
 * shown. The exact value is always one hover away in the preview table.
 */
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 2 });
const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
const percent = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1, signDisplay: "exceptZero" });

export function formatValue(value: number, unit?: string | null): string {
  if (!Number.isFinite(value)) return "–";
  const text = Math.abs(value) >= 10_000 ? compact.format(value) : plain.format(value);
  if (unit?.toUpperCase() === "CURRENCY") return value < 0 ? `-$${text.slice(1)}` : `$${text}`;
  return text;
}

/** The exact value, grouped: for the preview table and tooltips. */
export function formatExact(value: number): string {
  return Number.isFinite(value) ? plain.format(value) : "–";
}

export function formatPercent(value: number | null): string {
  return value === null ? "–" : `${percent.format(value)}%`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A number as Excel shows it under one of the number formats the functions
 * give their cells (src/core/number-format.ts): a currency sign or a quoted
 * unit, grouping, fixed and optional decimals (`0.00####`), a percentage
 * (`0.00%`, the value × 100). Negative numbers lead with "-", as a format
 * without a negative section does in Excel. Null for a format of another
 * shape (dates are formatted apart), so the caller shows the exact value.
 */
export function formatWithNumberFormat(value: number, format: string): string | null {
  if (!Number.isFinite(value)) return null;
  const match = /^([^#0.,"%]*)([#,]*0[#,0]*)(?:\.(0*)(#*))?(%?)(?:\s?"([^"]*)")?$/.exec(format);
  if (!match) return null;
  const [, prefix, whole, fixed = "", optional = "", percentSign, suffix] = match;
  const shown = percentSign ? value * 100 : value;
  const digits = new Intl.NumberFormat("en-US", {
    useGrouping: whole.includes(","),
    minimumFractionDigits: fixed.length,
    maximumFractionDigits: fixed.length + optional.length,
  }).format(Math.abs(shown));
  const unit = suffix === undefined ? "" : /^[%x]$/.test(suffix) ? suffix : ` ${suffix}`;
  return `${shown < 0 ? "-" : ""}${prefix}${digits}${percentSign}${unit}`;
}
