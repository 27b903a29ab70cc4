/** What the pane holds of the demo workbook (demo-workbook.ts makes it; demo-panel.tsx shows it). */
import type { ComponentType } from "react";
import type { WorkbookStandIn } from "../../../harness/workbook-stand-in";
import type { PaneServices } from "../shared/pane-services";

export interface DemoWorkbook {
  standIn: WorkbookStandIn;
  services: Pick<PaneServices, "workbook" | "migration" | "refresh" | "trace">;
  /** Calls `listener` whenever the workbook may have changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** The switch that turns it on, and (when on) the banner and the grid, rendered above the views. */
  Panel: ComponentType<{ demo: DemoWorkbook; on: boolean; turn(on: boolean): void }>;
}
