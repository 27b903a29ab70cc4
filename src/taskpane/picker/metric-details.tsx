/**
 * A metric's descriptor (2.5). Every field is service text and is rendered as
 * text; the source link becomes an anchor only for an http(s) URL.
 */
import { Body1, Caption1, Link, makeStyles, Subtitle2, tokens } from "@fluentui/react-components";
import type { ReactNode } from "react";
import type { MetricDescriptor } from "../../core/domain";
import { isFinancial } from "../../core/metric-knowledge";
import { httpUrl } from "./safe-url";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  heading: { margin: 0, overflowWrap: "anywhere" },
  name: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3, overflowWrap: "anywhere" },
  // Service text may hold words longer than the pane is wide.
  text: { overflowWrap: "anywhere" },
  list: {
    display: "grid",
    gridTemplateColumns: "max-content 1fr",
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, fontSize: tokens.fontSizeBase200, overflowWrap: "anywhere", whiteSpace: "pre-line" },
});

const AGGREGATION_TEXT: Record<string, string> = {
  SUM: "Sum (a flow: values add up over time)",
  LAST: "Last (a level: the latest value stands)",
  AVERAGE: "Average",
};

const UNIT_TEXT: Record<string, string> = { CURRENCY: "Currency", NOMINAL: "Count / nominal" };

export function MetricDetails({ metric }: { metric: MetricDescriptor }) {
  const styles = useStyles();
  const link = httpUrl(metric.source_link);
  const rows: [string, ReactNode][] = [];
  if (metric.unit)
    rows.push([
      "Unit",
      `${UNIT_TEXT[metric.unit] ?? metric.unit}${metric.currency_type ? ` (${metric.currency_type})` : ""}`,
    ]);
  if (metric.aggregation_type)
    rows.push(["Aggregation", AGGREGATION_TEXT[metric.aggregation_type] ?? metric.aggregation_type]);
  if (metric.source || link) {
    rows.push([
      "Source",
      link ? (
        <Link href={link} target="_blank" rel="noopener noreferrer" inline>
          {metric.source || link}
        </Link>
      ) : (
        metric.source
      ),
    ]);
  }
  if (metric.methodology) rows.push(["Methodology", metric.methodology]);
  if (isFinancial(metric.name)) rows.push(["Cadence", "Fiscal quarters (QUARTER granularity only)"]);
  if (metric.earliest_fiscal_period || metric.latest_fiscal_period) {
    rows.push(["Fiscal periods", `${metric.earliest_fiscal_period ?? "…"} to ${metric.latest_fiscal_period ?? "…"}`]);
  }
  if (metric.tags.length > 0) rows.push(["Tags", metric.tags.map((t) => t.label || t.value).join(", ")]);

  return (
    <section className={styles.root} aria-labelledby="metric-details-heading" data-testid="metric-details">
      <Subtitle2 as="h3" id="metric-details-heading" className={styles.heading}>
        {metric.label || metric.name}
      </Subtitle2>
      <Caption1 className={styles.name}>{metric.name}</Caption1>
      {metric.description && (
        <Body1 as="p" className={styles.text}>
          {metric.description}
        </Body1>
      )}
      {rows.length > 0 && (
        <dl className={styles.list}>
          {rows.map(([term, value]) => (
            <div key={term} style={{ display: "contents" }}>
              <dt className={styles.term}>{term}</dt>
              <dd className={styles.value}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
