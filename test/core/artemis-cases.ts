/**
 * The Artemis Sheets forms the converter is tested on (test/core/artemis.test.ts)
 * and whose MD formulas are evaluated through the built bundle
 * (test/bundle/artemis-conversions.test.ts): every form Artemis's docs give,
 * each argument, the forms refused and why, and calls inside larger formulas.
 */
import { catalogResolver, metricCatalogResolver } from "../../src/core/artemis";
import type { AssetRecord, MetricDescriptor } from "../../src/core/domain";
import { suggestMetrics, suggestSymbols } from "../../src/core/suggest";

const asset = (symbol: string, platform_id: string, aggregator_id: string | null, title: string): AssetRecord => ({
  symbol,
  platform_id,
  aggregator_id,
  title,
  color: "#000000",
});

export const ASSETS = [
  asset("btc", "bitcoin", "bitcoin", "Bitcoin"),
  asset("eth", "ethereum", "ethereum", "Ethereum"),
  asset("sol", "solana", "solana", "Solana"),
  asset("usdc", "usd_coin", "usd-coin", "USD Coin"),
  asset("eq-coin", "coinbase", null, "Coinbase Global"),
];
export const resolve = catalogResolver(ASSETS, (symbol) => suggestSymbols(symbol, ASSETS));

export type Case = [artemis: string, md: string];
export type Refusal = [artemis: string, reason: RegExp];

export const CONVERTED: Case[] = [
  // The latest value, a value on a date, a table over a range (the docs' own examples).
  ['=ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=ART("BTC","PRICE","2022-10-10")', '=MD.LATEST("btc","PRICE","2022-10-10")'],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01")', '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01")'],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01", , TRUE)', '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01")'],
  // order, showDates, hideWeekends, alone and together, with empty positional arguments.
  [
    '=ART("BTC","PRICE","2024-01-01","2024-02-01","DESC")',
    '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01",,"order=desc")',
  ],
  [
    '=ART("BTC","PRICE","2024-01-01","2024-02-01","asc",FALSE)',
    '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01",,"dates=false")',
  ],
  [
    '=ART("BTC","PRICE","2024-01-01","2024-02-01",,,TRUE)',
    '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01",,"days=weekdays")',
  ],
  [
    '=ART("BTC","PRICE","2024-01-01","2024-02-01","DESC",FALSE,TRUE)',
    '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01",,"order=desc; dates=false; days=weekdays")',
  ],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01",,TRUE,FALSE)', '=MD.SERIES("btc","PRICE","2024-01-01","2024-02-01")'],
  // ARTRANGE: the same arguments.
  [
    '=ARTRANGE("ETH","FEES","2023-01-01","2024-01-01","DESC")',
    '=MD.SERIES("eth","FEES","2023-01-01","2024-01-01",,"order=desc")',
  ],
  ['=ARTRANGE("ETH","FEES")', '=MD.LATEST("eth","FEES")'],
  // Symbols and metrics as array literals and ranges.
  ['=ART({"BTC","ETH"},"PRICE","2024-01-01","2024-02-01")', '=MD.SERIES("btc,eth","PRICE","2024-01-01","2024-02-01")'],
  [
    '=ART("SOL",{"PRICE","FEES"},"2024-01-01","2024-02-01")',
    '=MD.SERIES("sol","PRICE,FEES","2024-01-01","2024-02-01")',
  ],
  [
    '=ART({"BTC";"ETH"},{"price";"fees"},"2024-01-01","2024-02-01")',
    '=MD.SERIES("btc,eth","PRICE,FEES","2024-01-01","2024-02-01")',
  ],
  ['=ART(A2:A5,B1:C1,"2024-01-01","2024-02-01")', '=MD.SERIES(A2:A5,B1:C1,"2024-01-01","2024-02-01")'],
  ["=ART($A2,B$1)", "=MD.LATEST($A2,B$1)"],
  ["=ART('Asset list'!A2,\"PRICE\",D1)", "=MD.LATEST('Asset list'!A2,\"PRICE\",D1)"],
  // Dates from cells and formulas pass through: MD reads Excel dates.
  ['=ART("ETH","PRICE",DATE(2024,1,31))', '=MD.LATEST("eth","PRICE",DATE(2024,1,31))'],
  ['=ART("ETH","PRICE",$E$1,$E$2)', '=MD.SERIES("eth","PRICE",$E$1,$E$2)'],
  // Window prefixes, each one.
  ['=ART("ETH","L7_REVENUE")', '=MD.LATEST("eth","L7_REVENUE")'],
  ['=ART("ETH","L30_FEES")', '=MD.LATEST("eth","L30_FEES")'],
  ['=ART("ETH","L90_FEES")', '=MD.LATEST("eth","L90_FEES")'],
  ['=ART("ETH","CM_FEES")', '=MD.LATEST("eth","CM_FEES")'],
  ['=ART("ETH","CQ_FEES")', '=MD.LATEST("eth","CQ_FEES")'],
  ['=ART("ETH","LTM_REVENUE")', '=MD.LATEST("eth","LTM_REVENUE")'],
  ['=ART("ETH","YTD_REVENUE")', '=MD.LATEST("eth","YTD_REVENUE")'],
  // Symbol case and the catalog's other ids.
  ['=ART("btc","price")', '=MD.LATEST("btc","PRICE")'],
  ['=ART("Bitcoin","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=ART("USD-COIN","PRICE")', '=MD.LATEST("usdc","PRICE")'],
  ['=ART("EQ-COIN","PRICE")', '=MD.LATEST("eq-coin","PRICE")'],
  ['=ART("USDC-ETH","STABLECOIN_SUPPLY_TOTAL")', '=MD.LATEST("usdc-eth","STABLECOIN_SUPPLY_TOTAL")'],
  // Function names in any case, spaces around arguments.
  ['=art( "BTC" , "PRICE" )', '=MD.LATEST("btc","PRICE")'],
  // ARTINFO forms with a source.
  ['=ARTINFO("ALL","SYMBOLS")', "=MD.ASSETS()"],
  ['=ARTINFO("BTC","ASSET-NAME")', '=MD.ASSET("btc")'],
  ['=ARTINFO("ETH","SUPPORTED-METRICS")', '=MD.METRICS("eth")'],
  ['=ARTINFO("BTC","COINGECKO-ID")', '=LET(t,MD.ASSETS("btc"),XLOOKUP("btc",INDEX(t,,2),INDEX(t,,4)))'],
  ['=ARTINFO("eth","asset-name")', '=MD.ASSET("eth")'],
  // Calls inside larger formulas are converted in place; the rest is kept as written.
  ['=ART("BTC","PRICE")*2', '=MD.LATEST("btc","PRICE")*2'],
  ['=IFERROR(ART("BTC","PRICE"),"n/a")', '=IFERROR(MD.LATEST("btc","PRICE"),"n/a")'],
  ['=ART("ETH","L30_FEES")/ART("ETH","L30_REVENUE")', '=MD.LATEST("eth","L30_FEES")/MD.LATEST("eth","L30_REVENUE")'],
  ['="ART(" & ART("SOL","PRICE")', '="ART(" & MD.LATEST("sol","PRICE")'],
  [
    '=SUM(ARTRANGE("ETH","FEES","2024-01-01","2024-01-31",,FALSE))',
    '=SUM(MD.SERIES("eth","FEES","2024-01-01","2024-01-31",,"dates=false"))',
  ],
];

/**
 * The same calls as Excel saves them: Artemis for Excel is an Office add-in,
 * so its functions carry a namespace (`ARTEMIS.ART`, any `NS.`), read
 * `_xldudf_NS_ART` while the add-in is not loaded (Excel-Custom-Functions
 * #108, office-js #3558), and may follow a link or workbook prefix (`[2]!`,
 * office-js #2568; a function of another workbook, `'Book.xlsm'!`). The whole
 * token, prefixes included, is replaced.
 */
export const SAVED: Case[] = [
  ['=ARTEMIS.ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=artemis.art("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=CONTOSO.DATA.ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=_xldudf_ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=_xldudf_ARTEMIS_ART("ETH","L30_FEES")*2', '=MD.LATEST("eth","L30_FEES")*2'],
  [
    '=_XLDUDF_ARTEMIS_ARTRANGE("ETH","FEES","2024-01-01","2024-01-31")',
    '=MD.SERIES("eth","FEES","2024-01-01","2024-01-31")',
  ],
  ['=_xldudf_ARTEMIS_ARTINFO("BTC","ASSET-NAME")', '=MD.ASSET("btc")'],
  ['=[2]!_xldudf_ARTEMIS_ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=[1]!ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=\'Artemis Book.xlsm\'!ART("BTC","PRICE")', '=MD.LATEST("btc","PRICE")'],
  ['=Artemis.xlam!ARTRANGE("ETH","FEES")', '=MD.LATEST("eth","FEES")'],
  [
    '=IFERROR(ARTEMIS.ART("ETH","FEES")/_xldudf_ARTEMIS_ART("ETH","REVENUE"),"n/a")',
    '=IFERROR(MD.LATEST("eth","FEES")/MD.LATEST("eth","REVENUE"),"n/a")',
  ],
  ['="ARTEMIS.ART(" & ARTEMIS.ART("SOL","PRICE")', '="ARTEMIS.ART(" & MD.LATEST("sol","PRICE")'],
];

/** Metric catalogs by symbol, as `/supported-metrics/` lists them (names only are read). */
export const METRIC_CATALOGS: Record<string, string[]> = {
  btc: ["PRICE", "MC", "FEES"],
  eth: ["PRICE", "MC", "FEES", "REVENUE", "TVL", "DAU"],
  sol: ["PRICE", "FEES", "REVENUE"],
};

const descriptor = (name: string) => ({ name, label: name, description: "", base_metric: null }) as MetricDescriptor;

/** Metrics checked against METRIC_CATALOGS, suggestions as the pane makes them (core/suggest.ts). */
export const resolveMetric = metricCatalogResolver(
  (symbol) => (METRIC_CATALOGS[symbol] ? { names: METRIC_CATALOGS[symbol] } : undefined),
  (metric, symbol) => suggestMetrics(metric, (METRIC_CATALOGS[symbol] ?? []).map(descriptor)),
);

/** Refused once metrics are checked (`resolveMetric`); converted silently without the check. */
export const UNKNOWN_METRICS: Refusal[] = [
  ['=ART("ETH","FEEZ")', /^metric FEEZ is not in the metric catalog of eth\. Did you mean FEES\?$/],
  [
    '=_xldudf_ARTEMIS_ART("ETH","L30_FEEZ")',
    /metric L30_FEEZ is not in the metric catalog of eth\. Did you mean L30_FEES\?$/,
  ],
  [
    '=ARTEMIS.ARTRANGE({"ETH","SOL"},"REVENU","2024-01-01","2024-01-31")',
    /catalog of eth, sol\. Did you mean REVENUE\?$/,
  ],
  [
    '=ART("BTC","XYZZY")',
    /metric XYZZY is not in the metric catalog of btc\. MD\.METRICS\("btc"\) lists what btc offers\.$/,
  ],
  [
    '=ART("USDC","PRICE")',
    /metric PRICE could not be checked against the metric catalog of usdc: the metric catalog of usdc was not read$/,
  ],
];

export const REFUSED: Refusal[] = [
  ['=ARTINFO("BTC","MC-RANK")', /MC-RANK: the service has no market-cap rank/],
  ['=ARTINFO("ALL","TOP10-SYMBOLS")', /TOP10-SYMBOLS: the service has no market-cap ranking/],
  ['=ARTINFO("BTC","CATEGORIES")', /CATEGORIES: the service's catalog has no categories/],
  ['=ARTINFO("BTC","SUB-CATEGORIES")', /SUB-CATEGORIES: .* no sub-categories/],
  ['=ARTINFO("ALL","METRICS")', /metrics per symbol only/],
  ["=ARTINFO()", /do not say what it returns without arguments/],
  ['=ARTINFO("BTC","WEBSITE")', /field "WEBSITE" is not one Artemis's docs describe/],
  ['=ARTINFO(A1,"ASSET-NAME")', /must be written as text/],
  ['=ART("ETH","TT_SOCIAL_VOLUME")', /TT_SOCIAL_VOLUME is a third party's data/],
  ['=ART("ETH",{"PRICE","TT_X"},"2024-01-01","2024-02-01")', /TT_X is a third party's data/],
  ['=ART("BTCC","PRICE")', /symbol "BTCC" is not in the asset catalog\. Did you mean btc\?/],
  ['=ART("XYZZY","PRICE")', /symbol "XYZZY" is not in the asset catalog\.$/],
  ['=ART({"BTC","ETH"},"PRICE")', /several symbols or metrics .* MD\.SNAPSHOT/],
  ['=ART("BTC",{"PRICE","FEES"},"2024-01-01")', /several symbols or metrics/],
  ['=ART(A2:A3,"PRICE")', /several symbols or metrics/],
  ['=ART("BTC","PRICE",,"2024-02-01")', /an end date without a start date/],
  ['=ART("BTC","PRICE","2024-13-01")', /startDate: "2024-13-01" is not a date written YYYY-MM-DD/],
  ['=ART("BTC","PRICE","2024-01-01","01/02/2024")', /endDate: "01\/02\/2024" is not a date/],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01","NEWEST")', /order: "NEWEST" is not "ASC" or "DESC"/],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01",B1)', /order: B1 is not "ASC" or "DESC"/],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01",,"yes")', /showDates: "yes" is not TRUE or FALSE/],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01",,,C1)', /hideWeekends: C1 is not TRUE or FALSE/],
  ['=ART("BTC","PRICE",,,,TRUE)', /showDates TRUE on a single value/],
  ['=ART("BTC","PRICE",,,,,TRUE)', /hideWeekends TRUE on a single value/],
  ['=ART("ETH","L7_FEES","2024-01-01")', /L7_FEES with a date/],
  ['=ART("ETH","L30_FEES","2024-01-01","2024-02-01")', /L30_FEES over a date range/],
  ['=ART("BTC")', /needs symbols and metrics/],
  ['=ART("BTC","PRICE","2024-01-01","2024-02-01","ASC",TRUE,TRUE,1)', /at most 7 arguments/],
  ['=ART("BTC,ETH","PRICE","2024-01-01","2024-02-01")', /holds commas/],
  ['=ART(A1&"","PRICE")', /symbols: A1&"" is not a symbol text/],
  ['=ART(,"PRICE")', /symbols: the argument is empty/],
  ['=ART("BTC","PRICE-USD")', /"PRICE-USD" is not a metric name/],
  ['=ART(ARTINFO("ALL","SYMBOLS"),"PRICE")', /another Artemis call inside its arguments/],
  ['=ART("BTC","PRICE")+ARTINFO("BTC","MC-RANK")', /^ARTINFO\("BTC","MC-RANK"\): MC-RANK/],
  ['=MD.LATEST("btc","PRICE")', /no ART, ARTRANGE or ARTINFO call/],
  ['="=ART(""BTC"",""PRICE"")"', /no ART, ARTRANGE or ARTINFO call/],
];
