/**
 * Switching from Artemis Sheets: scans every sheet for ART, ARTRANGE and
 * ARTINFO formulas, shows each beside its MD equivalent (symbols resolved
 * against the asset catalog), converts the chosen ones in one batch, and
 * undoes that conversion; formulas it cannot convert are listed with the
 * reason. The conversion itself is src/core/artemis.ts; the workbook is
 * reached through the pane's services (`PaneServices.migration`).
 *
 * One part per file, its state beside it: what was found and chosen
 * (use-artemis-scan.ts), Convert and Undo (use-conversion.ts), the lists
 * (convertible-section.tsx, refused-section.tsx).
 */
import { Button, MessageBar, MessageBarActions, MessageBarBody, Spinner } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { NO_MIGRATION_WORKBOOK } from "../../office/workbook/formula-migration";
import { useServices } from "../shared/pane-services";
import { Waiting } from "../shared/waiting";
import { plural } from "./cell-name";
import { ConvertibleSection } from "./convertible-section";
import { MigrateIntro } from "./migrate-intro";
import { useMigrateStyles } from "./migrate-styles";
import { RefusedSection } from "./refused-section";
import { useArtemisScan } from "./use-artemis-scan";
import { useConversion } from "./use-conversion";

export function MigrateView({ active }: { active: boolean }) {
  const styles = useMigrateStyles();
  const { migration: book = NO_MIGRATION_WORKBOOK } = useServices();
  // Scans and the catalog wait until the view is first shown.
  const [opened, setOpened] = useState(active);
  useEffect(() => {
    if (active) setOpened(true);
  }, [active]);
  const { catalog, waits, scan, runScan, rows, checking, convertible, refused, chosen, unticked, setUnticked } =
    useArtemisScan(book, opened);
  const { busy, undo, result, convert, undoConversion } = useConversion(book, runScan);

  if (!book.available) {
    return (
      <div className={styles.root}>
        <MigrateIntro />
        <MessageBar intent="info">
          <MessageBarBody>Running outside Excel: open this pane in Excel to scan a workbook.</MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const loading = scan.status === "loading" || scan.status === "idle" || catalog.status === "loading" || checking;
  return (
    <div className={styles.root}>
      <MigrateIntro />
      <div className={styles.actions}>
        <Button onClick={() => void runScan()} disabled={busy !== null || scan.status === "loading"}>
          Scan again
        </Button>
        {undo && (
          <Button onClick={() => void undoConversion()} disabled={busy !== null}>
            {busy === "undo" ? "Restoring…" : `Undo conversion (${plural(undo.cells.length, "formula")})`}
          </Button>
        )}
      </div>
      <div role="status" aria-live="polite" data-testid="migrate-result">
        {result && (
          <MessageBar intent={result.intent}>
            <MessageBarBody>{result.text}</MessageBarBody>
          </MessageBar>
        )}
      </div>
      {catalog.status === "error" && (
        <MessageBar intent="error">
          <MessageBarBody>
            The asset catalog could not be read, so no symbol can be checked: {catalog.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={catalog.retry}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {scan.status === "error" && (
        <MessageBar intent="error">
          <MessageBarBody>The workbook could not be scanned: {scan.message}</MessageBarBody>
        </MessageBar>
      )}
      {loading && scan.status !== "error" && catalog.status === "loading" ? (
        <Waiting
          what="Scanning the workbook and reading the asset catalog"
          since={catalog.since}
          onCancel={catalog.cancel}
        />
      ) : loading && scan.status !== "error" && waits.metricCatalogs.status === "loading" ? (
        <Waiting
          what="Reading the metric catalogs"
          since={waits.metricCatalogs.since}
          onCancel={waits.metricCatalogs.cancel}
        />
      ) : loading && scan.status !== "error" && waits.scan.since !== null ? (
        <Waiting what="Scanning the workbook" since={waits.scan.since} onCancel={waits.scan.cancel} />
      ) : loading && scan.status !== "error" ? (
        <Spinner size="small" label="Scanning the workbook and reading the asset catalog…" />
      ) : rows ? (
        <>
          <ConvertibleSection
            rows={rows}
            convertible={convertible}
            unticked={unticked}
            setUnticked={setUnticked}
            chosen={chosen.length}
            busy={busy}
            onConvert={() => void convert(chosen)}
          />
          {refused.length > 0 && <RefusedSection refused={refused} />}
        </>
      ) : null}
    </div>
  );
}
