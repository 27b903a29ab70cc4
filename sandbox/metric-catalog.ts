/**
 * What each metric is: unit, aggregation type, cadence and the descriptive
 * text the metric catalog (interface 2.5) serves. Crypto and equity metrics
 * are separate tables because a name can mean different things per asset type
 * (VOLUME is USD traded for a token but shares traded for an equity).
 */
import type { AggregationType } from "./aggregate";

export type Unit = "CURRENCY" | "NOMINAL";
/** daily: every calendar day; trading: Monday to Friday; fiscal: fiscal quarter ends. */
export type Cadence = "daily" | "trading" | "fiscal";

export interface MetricSpec {
  name: string;
  label: string;
  unit: Unit;
  aggregation: AggregationType;
  cadence: Cadence;
  group: "market" | "activity" | "fundamentals" | "valuation" | "stablecoins";
  /** What the metric measures, with `{title}` standing for the asset's title. */
  about: string;
  methodology: string;
  baseMetric: string | null;
}

const crypto = (
  name: string,
  label: string,
  unit: Unit,
  aggregation: AggregationType,
  group: MetricSpec["group"],
  about: string,
  methodology: string,
  baseMetric: string | null = null,
): MetricSpec => ({ name, label, unit, aggregation, cadence: "daily", group, about, methodology, baseMetric });

const STABLECOIN_LIST: MetricSpec[] = [
  crypto(
    "STABLECOIN_SUPPLY_TOTAL",
    "Stablecoin Supply (Total)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Total minted stablecoin supply of {title}, before removing any locked bucket.",
    "End-of-day total supply in USD. Sandbox rule: total = circulating + bridged + premint + peg stability + other locked, exactly, on every date.",
  ),
  crypto(
    "STABLECOIN_SUPPLY",
    "Stablecoin Supply (legacy)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Legacy name for the circulating stablecoin supply of {title}; identical in value to STABLECOIN_SUPPLY_CIRCULATING.",
    "Same values as STABLECOIN_SUPPLY_CIRCULATING.",
    "STABLECOIN_SUPPLY_CIRCULATING",
  ),
  crypto(
    "STABLECOIN_SUPPLY_CIRCULATING",
    "Stablecoin Supply (Circulating)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Circulating stablecoin supply of {title}: total supply minus every locked bucket.",
    "Total minus bridged, premint, peg-stability and other locked supply (whole USD, so the identity holds exactly).",
    "STABLECOIN_SUPPLY_TOTAL",
  ),
  crypto(
    "STABLECOIN_SUPPLY_BRIDGED",
    "Stablecoin Supply (Bridged)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Stablecoin supply of {title} locked in bridge contracts.",
    "End-of-day balance of bridge escrow contracts in USD.",
    "STABLECOIN_SUPPLY_TOTAL",
  ),
  crypto(
    "STABLECOIN_SUPPLY_PREMINT",
    "Stablecoin Supply (Premint)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Stablecoin supply of {title} minted but not yet issued into circulation.",
    "End-of-day balance of issuer treasury addresses in USD.",
    "STABLECOIN_SUPPLY_TOTAL",
  ),
  crypto(
    "STABLECOIN_SUPPLY_PEG_STABILITY",
    "Stablecoin Supply (Peg Stability)",
    "CURRENCY",
    "LAST",
    "stablecoins",
    "Stablecoin supply of {title} held by peg-stability modules.",
    "End-of-day balance of peg-stability modules in USD.",
    "STABLECOIN_SUPPLY_TOTAL",
  ),
  crypto(
    "STABLECOIN_TRANSFER_VOLUME",
    "Stablecoin Transfer Volume",
    "CURRENCY",
    "SUM",
    "stablecoins",
    "Daily stablecoin transfer volume of {title} (unfiltered activity).",
    "Sum of the USD value of all transfers in the day, unfiltered.",
  ),
  crypto(
    "STABLECOIN_DAILY_TXNS",
    "Stablecoin Transactions",
    "NOMINAL",
    "SUM",
    "stablecoins",
    "Daily stablecoin transaction count of {title} (unfiltered activity).",
    "Count of transfer transactions in the day, unfiltered.",
  ),
  crypto(
    "STABLECOIN_DAU",
    "Stablecoin Daily Active Users",
    "NOMINAL",
    "AVERAGE",
    "stablecoins",
    "Daily active stablecoin users of {title} (unfiltered activity).",
    "Distinct sending addresses per day; coarser granularities average the daily counts.",
  ),
];

const CRYPTO_LIST: MetricSpec[] = [
  crypto(
    "PRICE",
    "Price",
    "CURRENCY",
    "LAST",
    "market",
    "Daily closing price of {title} in USD.",
    "Last trade of the UTC day.",
  ),
  crypto(
    "MC",
    "Market Cap",
    "CURRENCY",
    "LAST",
    "market",
    "Circulating market capitalisation of {title} in USD.",
    "Closing price times circulating supply.",
    "PRICE",
  ),
  crypto(
    "VOLUME",
    "Trading Volume",
    "CURRENCY",
    "SUM",
    "market",
    "Daily spot trading volume of {title} in USD.",
    "Sum of spot trade notional in the UTC day.",
  ),
  crypto(
    "FEES",
    "Fees",
    "CURRENCY",
    "SUM",
    "activity",
    "Daily fees paid by users of {title} in USD.",
    "Sum of fees paid in the UTC day, converted at the day's price.",
  ),
  crypto(
    "REVENUE",
    "Revenue",
    "CURRENCY",
    "SUM",
    "activity",
    "Daily revenue of {title}: the share of fees kept by the protocol or its token holders.",
    "Fees times the protocol's take rate for the day.",
    "FEES",
  ),
  crypto(
    "DAU",
    "Daily Active Users",
    "NOMINAL",
    "AVERAGE",
    "activity",
    "Daily active addresses of {title}.",
    "Distinct addresses that sent a transaction in the UTC day; coarser granularities average the daily counts.",
  ),
  crypto(
    "TXNS",
    "Transactions",
    "NOMINAL",
    "SUM",
    "activity",
    "Daily transaction count of {title}.",
    "Count of successful transactions in the UTC day.",
  ),
  crypto(
    "AVG_TXN_FEE",
    "Average Transaction Fee",
    "CURRENCY",
    "AVERAGE",
    "activity",
    "Average fee per transaction on {title} in USD.",
    "Fees divided by transactions for the day; coarser granularities average the daily values.",
    "FEES",
  ),
  crypto(
    "TVL",
    "Total Value Locked",
    "CURRENCY",
    "LAST",
    "activity",
    "Total value locked in {title} in USD.",
    "End-of-day USD value of assets deposited in contracts.",
  ),
  crypto(
    "DEX_VOLUMES",
    "DEX Volume",
    "CURRENCY",
    "SUM",
    "activity",
    "Daily decentralised-exchange volume on {title} in USD.",
    "Sum of swap notional on decentralised exchanges in the UTC day.",
  ),
  ...STABLECOIN_LIST,
];

const equity = (
  name: string,
  label: string,
  unit: Unit,
  aggregation: AggregationType,
  cadence: Cadence,
  group: MetricSpec["group"],
  about: string,
  methodology: string,
  baseMetric: string | null = null,
): MetricSpec => ({ name, label, unit, aggregation, cadence, group, about, methodology, baseMetric });

export const FINANCIAL_METRICS = [
  "TOTAL_REVENUE",
  "NET_INCOME",
  "EBITDA",
  "OPERATING_INCOME",
  "FREE_CASH_FLOW",
  "BASIC_EPS",
  "DILUTED_EPS",
] as const;
export const FCF_RATIO_METRICS = [
  "ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW",
  "MARKET_CAP_DIVIDE_FREE_CASH_FLOW",
  "FCF_YIELD",
] as const;

const financial = (name: string, label: string, about: string): MetricSpec =>
  equity(
    name,
    label,
    "CURRENCY",
    "SUM",
    "fiscal",
    "fundamentals",
    about,
    "Reported per fiscal quarter and dated on the company's fiscal period end. Only granularity QUARTER is accepted.",
  );
const ratio = (name: string, label: string, about: string, baseMetric: string, percent = false): MetricSpec =>
  equity(
    name,
    label,
    "NOMINAL",
    "LAST",
    "trading",
    "valuation",
    about,
    `Daily, on trading days, from the closing price and the trailing four fiscal quarters${percent ? "; in percent" : ""}. Enterprise value = market cap + net debt.`,
    baseMetric,
  );

const EQUITY_LIST: MetricSpec[] = [
  equity(
    "PRICE",
    "Price",
    "CURRENCY",
    "LAST",
    "trading",
    "market",
    "Daily closing share price of {title} in USD.",
    "Official close on trading days (Monday to Friday; the sandbox has no exchange holidays).",
  ),
  equity(
    "VOLUME",
    "Volume",
    "NOMINAL",
    "SUM",
    "trading",
    "market",
    "Daily number of {title} shares traded.",
    "Shares traded on trading days.",
  ),
  equity(
    "MC",
    "Market Cap",
    "CURRENCY",
    "LAST",
    "trading",
    "market",
    "Market capitalisation of {title} in USD.",
    "Closing price times shares outstanding.",
    "PRICE",
  ),
  financial("TOTAL_REVENUE", "Total Revenue", "Total revenue of {title} per fiscal quarter, in USD."),
  financial("NET_INCOME", "Net Income", "Net income of {title} per fiscal quarter, in USD."),
  financial("EBITDA", "EBITDA", "EBITDA of {title} per fiscal quarter, in USD."),
  financial("OPERATING_INCOME", "Operating Income", "Operating income of {title} per fiscal quarter, in USD."),
  financial("FREE_CASH_FLOW", "Free Cash Flow", "Free cash flow of {title} per fiscal quarter, in USD."),
  financial("BASIC_EPS", "Basic EPS", "Basic earnings per share of {title} per fiscal quarter, in USD."),
  financial("DILUTED_EPS", "Diluted EPS", "Diluted earnings per share of {title} per fiscal quarter, in USD."),
  ratio(
    "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE",
    "EV / Revenue",
    "Enterprise value of {title} divided by trailing-twelve-month revenue.",
    "TOTAL_REVENUE",
  ),
  ratio(
    "ENTERPRISE_VALUE_DIVIDE_NET_INCOME",
    "EV / Earnings",
    "Enterprise value of {title} divided by trailing-twelve-month net income.",
    "NET_INCOME",
  ),
  ratio(
    "ENTERPRISE_VALUE_DIVIDE_EBITDA",
    "EV / EBITDA",
    "Enterprise value of {title} divided by trailing-twelve-month EBITDA.",
    "EBITDA",
  ),
  ratio(
    "ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW",
    "EV / FCF",
    "Enterprise value of {title} divided by trailing-twelve-month free cash flow. Sparse or empty in windows that contain no fiscal period end.",
    "FREE_CASH_FLOW",
  ),
  ratio(
    "MARKET_CAP_DIVIDE_FREE_CASH_FLOW",
    "Price / FCF",
    "Market cap of {title} divided by trailing-twelve-month free cash flow. Sparse or empty in windows that contain no fiscal period end.",
    "FREE_CASH_FLOW",
  ),
  ratio(
    "EARNINGS_YIELD",
    "Earnings Yield",
    "Trailing-twelve-month net income of {title} divided by market cap (1 / P/E), in percent.",
    "NET_INCOME",
    true,
  ),
  ratio(
    "FCF_YIELD",
    "FCF Yield",
    "Trailing-twelve-month free cash flow of {title} divided by market cap, in percent. Sparse or empty in windows that contain no fiscal period end.",
    "FREE_CASH_FLOW",
    true,
  ),
];

export const CRYPTO_METRICS: ReadonlyMap<string, MetricSpec> = new Map(CRYPTO_LIST.map((spec) => [spec.name, spec]));
export const EQUITY_METRICS: ReadonlyMap<string, MetricSpec> = new Map(EQUITY_LIST.map((spec) => [spec.name, spec]));
export const STABLECOIN_METRIC_NAMES: readonly string[] = STABLECOIN_LIST.map((spec) => spec.name);

export function isFinancialMetric(name: string): boolean {
  return (FINANCIAL_METRICS as readonly string[]).includes(name);
}

export function isFcfRatioMetric(name: string): boolean {
  return (FCF_RATIO_METRICS as readonly string[]).includes(name);
}
