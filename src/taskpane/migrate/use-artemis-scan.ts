/**
 * What the Artemis view found: every sheet's ART, ARTRANGE and ARTINFO
 * formulas, each converted (symbols resolved against the asset catalog,
 * metrics against the symbols' metric catalogs: use-metric-catalogs.ts) or
 * refused with the reason, and which of the convertible ones are chosen.
 * Nothing is read until the view is first shown.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { catalogResolver, convertArtemisFormula, hasArtemisCall, type SymbolResolver } from "../../core/artemis";
import type { AssetRecord } from "../../core/domain";
import { suggestSymbols } from "../../core/suggest";
import type { MigrationWorkbook, WorkbookFormula } from "../../office/workbook/formula-migration";
import { WORKBOOK_READ_WAIT } from "../shared/bounded-wait";
import { useServices } from "../shared/pane-services";
import { useBoundedAction, useBoundedWait } from "../shared/use-bounded-wait";
import { cellName } from "./cell-name";
import { useMetricCatalogs } from "./use-metric-catalogs";

/** A scanned formula with what the converter made of it. */
export interface Row extends WorkbookFormula {
  key: string;
  converted: { formula: string; notes: string[] } | null;
  reason: string | null;
}

export type Scan =
  { status: "idle" | "loading" } | { status: "ready"; found: WorkbookFormula[] } | { status: "error"; message: string };

export function useArtemisScan(book: MigrationWorkbook, opened: boolean) {
  const { client } = useServices();
  const wanted = opened && book.available;
  const catalog = useBoundedWait(wanted ? (call) => client.getAssets(call) : null, [wanted, client]);
  const [scan, setScan] = useState<Scan>({ status: "idle" });
  // Every convertible formula is chosen unless unticked; a new scan chooses them all again.
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());

  // Bounded (shared/bounded-wait.ts): a busy Excel gets a Cancel and a message, not a scan that never ends.
  const scanWait = useBoundedAction(WORKBOOK_READ_WAIT);
  const runScanWait = scanWait.run;
  const runScan = useCallback(async () => {
    setScan({ status: "loading" });
    setUnticked(new Set());
    const ended = await runScanWait(() => book.findFormulas(hasArtemisCall));
    if (!ended) return;
    setScan(
      ended.status === "ready" ? { status: "ready", found: ended.data } : { status: "error", message: ended.message },
    );
  }, [book, runScanWait]);

  useEffect(() => {
    if (opened && book.available) void runScan();
  }, [opened, book, runScan]);

  // The request state is a new object on every render: the resolver follows what it holds.
  const assets: AssetRecord[] | null = catalog.status === "ready" ? catalog.data : null;
  const catalogError = catalog.status === "error" ? catalog.message : null;
  const resolver = useMemo<SymbolResolver | null>(() => {
    if (assets) return catalogResolver(assets, (symbol) => suggestSymbols(symbol, assets));
    if (catalogError !== null) return () => ({ known: false, suggestions: [], reason: catalogError });
    return null;
  }, [assets, catalogError]);

  const { resolveMetric, catalogs } = useMetricCatalogs(scan.status === "ready" ? scan.found : null, resolver);

  const rows = useMemo<Row[] | null>(() => {
    if (scan.status !== "ready" || !resolver || !resolveMetric) return null;
    return scan.found.map((found) => {
      const conversion = convertArtemisFormula(found.formula, resolver, resolveMetric);
      return {
        ...found,
        key: cellName(found.sheet, found.address),
        converted: conversion.ok ? { formula: conversion.formula, notes: conversion.notes } : null,
        reason: conversion.ok ? null : conversion.reason,
      };
    });
  }, [scan, resolver, resolveMetric]);

  const convertible = useMemo(() => rows?.filter((row) => row.converted) ?? [], [rows]);
  const refused = useMemo(() => rows?.filter((row) => !row.converted) ?? [], [rows]);
  const chosen = convertible.filter((row) => !unticked.has(row.key));
  // Reading the symbols' metric catalogs: the rows wait for them.
  const checking = scan.status === "ready" && resolver !== null && resolveMetric === null;
  // The waits besides the asset catalog's, each shown with its Cancel (shared/waiting.tsx).
  const waits = { metricCatalogs: catalogs, scan: scanWait };
  return { catalog, waits, scan, runScan, rows, checking, convertible, refused, chosen, unticked, setUnticked };
}
