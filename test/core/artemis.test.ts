/**
 * The Artemis Sheets converter, case by case (the table is
 * test/core/artemis-cases.ts; the forms are summarised in docs/migrating.md).
 */
import { convertArtemisFormula, hasArtemisCall } from "../../src/core/artemis";
import { CONVERTED, REFUSED, resolve, resolveMetric, SAVED, UNKNOWN_METRICS } from "./artemis-cases";

describe("convertArtemisFormula", () => {
  test.each(CONVERTED)("%s → %s", (artemis, md) => {
    const result = convertArtemisFormula(artemis, resolve);
    expect(result).toMatchObject({ ok: true, formula: md });
  });

  test.each(SAVED)("as Excel saves it: %s → %s", (artemis, md) => {
    const result = convertArtemisFormula(artemis, resolve);
    expect(result).toMatchObject({ ok: true, formula: md });
  });

  test.each(REFUSED)("%s is refused: %s", (artemis, reason) => {
    expect(convertArtemisFormula(artemis, resolve)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  test.each(UNKNOWN_METRICS)("%s: the metric is checked against the catalogs: %s", (artemis, reason) => {
    expect(convertArtemisFormula(artemis, resolve, resolveMetric)).toEqual({
      ok: false,
      reason: expect.stringMatching(reason),
    });
  });

  test.each([
    ['=ART("ETH","FEES")', '=MD.LATEST("eth","FEES")'],
    ['=_xldudf_ARTEMIS_ART("eth","l30_revenue")', '=MD.LATEST("eth","L30_REVENUE")'],
    // Known to one symbol's catalog: the other's column is a gap, not a typo.
    ['=ART({"SOL","ETH"},"TVL","2024-01-01","2024-01-31")', '=MD.SERIES("sol,eth","TVL","2024-01-01","2024-01-31")'],
    // Metrics in cells, or symbols in cells: nothing to check here.
    ['=ART("ETH",B1)', '=MD.LATEST("eth",B1)'],
    ['=ART(A1,"FEEZ")', '=MD.LATEST(A1,"FEEZ")'],
  ])("%s is converted with its metrics checked → %s", (artemis, md) => {
    expect(convertArtemisFormula(artemis, resolve, resolveMetric)).toMatchObject({ ok: true, formula: md });
  });

  test("each converted call is listed with its replacement", () => {
    const result = convertArtemisFormula('=ART("ETH","L30_FEES")/ART("ETH","L30_REVENUE")', resolve);
    expect(result.ok && result.calls).toEqual([
      { original: 'ART("ETH","L30_FEES")', converted: 'MD.LATEST("eth","L30_FEES")' },
      { original: 'ART("ETH","L30_REVENUE")', converted: 'MD.LATEST("eth","L30_REVENUE")' },
    ]);
  });

  test("a table says what Artemis's docs leave open about its shape", () => {
    const result = convertArtemisFormula('=ART("BTC","PRICE","2024-01-01","2024-02-01")', resolve);
    expect(result.ok && result.notes.join(" ")).toMatch(
      /default for showDates nor whether its tables have a header row/,
    );
  });

  test("a symbol found under another id says so; symbols in cells are not checked", () => {
    const viaPlatform = convertArtemisFormula('=ART("Bitcoin","PRICE")', resolve);
    expect(viaPlatform.ok && viaPlatform.notes).toEqual(['"Bitcoin" is the catalog\'s platform id of btc.']);
    const fromCells = convertArtemisFormula("=ART($A2,B$1)", resolve);
    expect(fromCells.ok && fromCells.notes.join(" ")).toMatch(/symbols in \$A2 are read as they are/);
  });
});

describe("hasArtemisCall", () => {
  test.each([
    ['=ART("BTC","PRICE")', true],
    ['=1+artrange("BTC","PRICE")', true],
    ["=ARTINFO()", true],
    ['=MD.LATEST("btc","PRICE")', false],
    ['="ART(""BTC"")"', false],
    ["=PART(1)", false],
    ["=ART", false],
    ["=ARTICLE(1)", false],
    ['=ARTEMIS.ART("BTC","PRICE")', true],
    ['=_xldudf_ARTEMIS_ARTINFO("ALL","SYMBOLS")', true],
    ['=[2]!_xldudf_ARTEMIS_ART("BTC","PRICE")', true],
    ["='Book.xlsm'!ARTRANGE(A1,B1)", true],
    ['=MY_ART("BTC","PRICE")', false],
    ['=ARTEMIS.PRICE("BTC")', false],
    ['=_xldudf_ARTEMIS_PRICE("BTC")', false],
    ["='Sheet ART'!A1", false],
    ['ART("BTC","PRICE")', false],
  ])("%s → %s", (formula, expected) => {
    expect(hasArtemisCall(formula as string)).toBe(expected);
  });
});
