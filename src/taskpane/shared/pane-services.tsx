/**
 * Everything a view needs from outside React, handed down once. `mountApp`
 * fills it from the shared runtime (the same client, cache and settings the
 * custom functions use); component tests fill it with stand-ins.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { MarketDataClient } from "../../api";
import type { DateSystem } from "../../core/excel-date";
import type { PaneTrace } from "../../office/cell-trace";
import type { MigrationWorkbook } from "../../office/workbook/formula-migration";
import type { WorkbookActions } from "../../office/workbook/pane-workbook";
import type { StoredSettings } from "../../office/settings";
import type { GatewaySignIn } from "../../office/sign-in/gateway";
import type { SignInState } from "../../office/sign-in/sign-in";
import type { PaneRefreshActions } from "../../refresh/pane-actions";

/**
 * The part of SettingsStore the pane uses: views only write. What follows a write (the client's cache cleared, the
 * refresh feature reading the key again) is the runtime's, wired to the store (src/office/settings-changes.ts).
 */
export interface PaneSettings {
  read(): Promise<StoredSettings>;
  setApiKey(value: string): Promise<void>;
  setBaseUrl(value: string): Promise<void>;
}

/** A note about a result the cell cannot show itself (the runtime's call tracker, src/office/call-tracker.ts). */
export interface ResultNote {
  /** Milliseconds since the epoch. */
  at: number;
  text: string;
}

/** The pane's sign-in for a gateway that asks for one (src/office/sign-in/sign-in.ts); tests hand a stand-in. */
export interface PaneSignIn {
  state(): SignInState;
  subscribe(listener: () => void): () => void;
  /** The gateway's sign-in settings as last read (undefined: none asked); the same again changes nothing. */
  configure(config: GatewaySignIn | undefined): Promise<void>;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
}

export interface PaneServices {
  client: MarketDataClient;
  settings: PaneSettings;
  /** The build's defaults: the sandbox demo key (empty in production) and service address. */
  defaults: { apiKey: string; baseUrl: string };
  workbook: WorkbookActions;
  /** The Artemis view's reach into the workbook: its formulas scanned and replaced (src/office/formula-migration.ts); absent: there is no workbook to scan. */
  migration?: MigrationWorkbook;
  copyText(text: string): Promise<boolean>;
  /** Workbook refresh controls (src/refresh/pane-actions.ts); outside Excel they have no workbook and the section says so. */
  refresh: PaneRefreshActions;
  /** The user's calendar date, YYYY-MM-DD (what TODAY means in a formula). */
  today(): string;
  /** The workbook's date system, as the functions read it (previews turn date serials into dates with it); absent: 1900. */
  dateSystem?(): Promise<DateSystem>;
  /**
   * Whether the host shows the number formats the functions give their cells
   * (`$`, `%`: Excel data types, src/office/cells/cell-values.ts); a preview shows
   * the numbers as the cells will. Absent: it does.
   */
  cellFormats?(): boolean;
  /** Locale whose numeric date order (01/15/2025 or 15/01/2025 …) typed dates follow; undefined: the browser's. */
  dateLocale?: string;
  /** The runtime's recent notes about results, oldest first; absent: none are kept. */
  resultNotes?(): readonly ResultNote[];
  /** The Trace: the selected cell followed, and what the runtime recorded of its MD calls (src/office/cell-trace.ts); absent: no workbook. */
  trace?: PaneTrace;
  /** Sign-in for a gateway that lets in only signed-in people; absent: the pane never shows it. */
  signIn?: PaneSignIn;
  /** Office host, or null in a plain browser. */
  host: string | null;
  version: string;
}

const ServicesContext = createContext<PaneServices | null>(null);

export function ServicesProvider({ services, children }: { services: PaneServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): PaneServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices() outside <ServicesProvider>");
  return services;
}
