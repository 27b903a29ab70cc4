/**
 * docs/recipes.md's metric glossary, generated from the sandbox's metric
 * catalog (sandbox/metric-catalog.ts) and from which metrics each kind of
 * symbol lists (sandbox/symbols.ts), so it cannot drift from what the service
 * serves: test/bundle/recipes.test.ts fails when the document differs.
 */
import { AssetCatalog } from "../../sandbox/asset-catalog";
import { CRYPTO_METRICS, EQUITY_METRICS, type MetricSpec } from "../../sandbox/metric-catalog";
import { resolveSymbol } from "../../sandbox/symbols";

/** One symbol of each kind, with how the glossary names the kind. */
const KINDS: ReadonlyArray<readonly [string, string]> = [
  ["eth", "chains"],
  ["uni", "tokens"],
  ["usdc", "stablecoins"],
  ["defi", "categories"],
  ["uni-arb", "token on a chain"],
  ["usdc-eth", "stablecoin on a chain"],
  ["defi-eth", "category on a chain"],
  ["eq-aapl", "equities"],
];

const UNIT: Record<string, string> = { CURRENCY: "USD", NOMINAL: "number" };

const AGGREGATION: Record<string, string> = {
  SUM: "SUM: a week's, month's … value is the total of its days",
  LAST: "LAST: the period's last value",
  AVERAGE: "AVERAGE: the mean of the period's days",
};

function offeredFor(metric: string, equity: boolean): string {
  const catalog = new AssetCatalog(1);
  return KINDS.filter(([symbol]) => symbol.startsWith("eq-") === equity)
    .filter(([symbol]) => resolveSymbol(catalog, 1, symbol)?.metrics.includes(metric))
    .map(([, kind]) => kind)
    .join(", ");
}

function row(spec: MetricSpec, equity: boolean): string {
  const cadence =
    spec.cadence === "fiscal"
      ? "per fiscal quarter (QUARTER only)"
      : spec.cadence === "trading"
        ? "trading days"
        : "daily";
  const about = equity
    ? spec.about.replace("{title} shares", "the company's shares").replace("{title}", "the company")
    : spec.about.replace("{title}", "the asset");
  const meaning = `${about} ${spec.methodology}`.replace(/\|/g, "\\|");
  return `| \`${spec.name}\` | ${spec.label} | ${meaning} | ${UNIT[spec.unit] ?? spec.unit} | ${spec.aggregation} | ${cadence} | ${offeredFor(spec.name, equity)} |`;
}

/** The glossary's markdown: a table for crypto metrics, one for equity metrics, and what the columns mean. */
export function glossaryMarkdown(): string {
  const head =
    "| metric | label | what it means | unit | aggregation | data points | offered for |\n|---|---|---|---|---|---|---|";
  return [
    `${CRYPTO_METRICS.size + EQUITY_METRICS.size} metrics: every one the sandbox's metric catalog offers (\`MD.METRICS(symbol)\` lists a symbol's own, with the catalog's full descriptions).`,
    "",
    "**Unit**: USD (the catalog's `CURRENCY`) or a plain number (`NOMINAL`: counts, shares, ratios, percent).",
    "",
    `**Aggregation** — what one point of a WEEK, MONTH, QUARTER or YEAR series is: ${Object.values(AGGREGATION).join("; ")}. (\`MD.AGG\` without a \`stat\` sums SUM metrics and takes the last value of the others.)`,
    "",
    "### Crypto metrics",
    "",
    head,
    ...[...CRYPTO_METRICS.values()].map((spec) => row(spec, false)),
    "",
    "### Equity metrics",
    "",
    head,
    ...[...EQUITY_METRICS.values()].map((spec) => row(spec, true)),
    "",
  ].join("\n");
}
