/**
 * The task pane: six views (Settings, Picker, Insights, Templates, Artemis, Trace) under one tab list
 * (in a navigation landmark).
 * Every view stays mounted while hidden, so a search, a chosen metric or a
 * loaded feed survives switching tabs; `active` tells a view when it is on
 * screen (to start its first request, or to poll).
 */
import {
  Caption1,
  FluentProvider,
  makeStaticStyles,
  makeStyles,
  Title3,
  tokens,
  webDarkTheme,
  webLightTheme,
} from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { localToday } from "../core/calendar";
import { BUILD_INFO } from "../office/build-info";
import { dataTypeSupport } from "../office/cells/cell-values";
import { getRefreshActions } from "../office/commands";
import { credentialsOf } from "../office/credentials";
import { migrationWorkbookForHost } from "../office/workbook/formula-migration";
import { readOfficeTheme, type OfficeTheme } from "../office/host";
import { workbookForHost } from "../office/workbook/pane-workbook";
import { paneTraceForHost } from "../office/cell-trace";
import { sharedRuntime } from "../office/runtime-registry";
import { paneSignIn } from "../office/sign-in/sign-in";
import { copyText } from "./shared/clipboard";
import { InsightsView } from "./insights/insights-view";
import { MigrateView } from "./migrate/migrate-view";
import { ViewTabs } from "./shared/view-tabs";
import { useThemeMode } from "./shared/office-theme";
import { ServicesProvider, useServices, type PaneServices } from "./shared/pane-services";
import { PickerView } from "./picker/picker-view";
import { SettingsView } from "./settings/settings-view";
import { StoredDataNotice } from "./shared/stored-data-notice";
import { TemplatesView } from "./templates/templates-view";
import { TraceView } from "./trace/trace-view";
import type { DemoWorkbook } from "./demo/demo-types";

export interface PaneContext {
  /** Office host ("Excel"), or null in a plain browser. */
  host: string | null;
  /** The demo workbook the pane works on outside Office (development and test builds; src/taskpane/demo/). */
  demo?: DemoWorkbook | null;
}

export type ViewId = "settings" | "picker" | "insights" | "templates" | "trace" | "migrate";
const VIEWS: readonly { id: ViewId; label: string }[] = [
  { id: "settings", label: "Settings" },
  { id: "picker", label: "Picker" },
  { id: "insights", label: "Insights" },
  { id: "templates", label: "Templates" },
  // Switching from Artemis Sheets.
  { id: "migrate", label: "Artemis" },
  // Where the selected cell's number came from.
  { id: "trace", label: "Trace" },
];

// Through Griffel rather than a <style> block in taskpane.html: the page's CSP allows no inline style text.
const useStaticStyles = makeStaticStyles({
  "html, body": { margin: 0, padding: 0 },
});

const useStyles = makeStyles({
  provider: { minHeight: "100vh", backgroundColor: tokens.colorNeutralBackground1 },
  page: { display: "flex", flexDirection: "column", maxWidth: "720px", margin: "0 auto" },
  header: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL} ${tokens.spacingVerticalS}`,
  },
  title: { margin: 0 },
  host: { color: tokens.colorNeutralForeground3, margin: 0 },
  tabs: { padding: `0 ${tokens.spacingHorizontalS}`, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  panel: { padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL} ${tokens.spacingVerticalXXL}` },
});

/**
 * Message bars show the service's own words (errors quote it), which may hold
 * long unbroken text; a single-line bar does not wrap and would push the pane
 * sideways. Every bar wraps, anywhere if it must.
 */
const useMessageBarWrapping = makeStaticStyles({
  ".fui-MessageBar": { whiteSpace: "normal" },
  ".fui-MessageBarBody": { overflowWrap: "anywhere" },
});

export interface AppProps {
  services: PaneServices;
  officeTheme?: OfficeTheme | null;
  initialView?: ViewId;
  demo?: DemoWorkbook | null;
}

export function App({ services, officeTheme = null, initialView = "picker", demo = null }: AppProps) {
  useStaticStyles();
  const mode = useThemeMode(officeTheme);
  useMessageBarWrapping();
  // Off until the user turns it on: outside Office the pane otherwise copies formulas, as a production build does.
  const [demoOn, setDemoOn] = useState(false);
  const shown = useMemo(
    () => (demo && demoOn ? { ...services, ...demo.services } : services),
    [services, demo, demoOn],
  );
  return (
    <FluentProvider theme={mode === "dark" ? webDarkTheme : webLightTheme} data-theme={mode}>
      <ServicesProvider services={shown}>
        <Pane initialView={initialView} demo={demo && { workbook: demo, on: demoOn, turn: setDemoOn }} />
      </ServicesProvider>
    </FluentProvider>
  );
}

interface DemoSwitch {
  workbook: DemoWorkbook;
  on: boolean;
  turn(on: boolean): void;
}

function Pane({ initialView, demo }: { initialView: ViewId; demo: DemoSwitch | null }) {
  const styles = useStyles();
  const [view, setView] = useState<ViewId>(initialView);
  return (
    <div className={styles.provider}>
      <div className={styles.page}>
        <header className={styles.header}>
          <Title3 as="h1" className={styles.title}>
            Market Data
          </Title3>
          <HostLine className={styles.host} />
          <StoredDataNotice />
        </header>
        {demo && <demo.workbook.Panel demo={demo.workbook} on={demo.on} turn={demo.turn} />}
        <nav aria-label="Market Data views" className={styles.tabs}>
          <ViewTabs<ViewId> views={VIEWS} selected={view} onSelect={setView} label="Market Data views" />
        </nav>
        <main>
          {VIEWS.map((v) => (
            <div
              key={v.id}
              id={`panel-${v.id}`}
              role="tabpanel"
              aria-labelledby={`tab-${v.id}`}
              hidden={view !== v.id}
              className={styles.panel}
            >
              {v.id === "settings" && <SettingsView active={view === "settings"} />}
              {v.id === "picker" && <PickerView active={view === "picker"} />}
              {v.id === "insights" && <InsightsView active={view === "insights"} />}
              {v.id === "templates" && <TemplatesView />}
              {v.id === "trace" && <TraceView active={view === "trace"} />}
              {v.id === "migrate" && <MigrateView active={view === "migrate"} />}
            </div>
          ))}
        </main>
      </div>
    </div>
  );
}

function HostLine({ className }: { className: string }) {
  const { host, version } = useServices();
  return (
    <Caption1 as="p" className={className} data-testid="host">
      {host ? `Running in ${host}` : "Running outside Office"} · version {version}
    </Caption1>
  );
}

/**
 * Builds the pane's services from the shared runtime — the client, cache and
 * settings functions.js created — and renders. Opens on Settings when there is
 * no key to use, on the Picker otherwise.
 */
export async function mountApp(element: HTMLElement, context: PaneContext): Promise<void> {
  const runtime = sharedRuntime();
  const credentials = credentialsOf(runtime);
  const host = context.host;
  const services: PaneServices = {
    client: runtime.client,
    settings: runtime.settings,
    defaults: { apiKey: BUILD_INFO.defaultApiKey, baseUrl: BUILD_INFO.defaultBaseUrl },
    workbook: workbookForHost(host),
    migration: migrationWorkbookForHost(host),
    copyText: (text) => copyText(text),
    refresh: getRefreshActions(),
    today: () => localToday(),
    dateSystem: () => runtime.dateSystem(),
    cellFormats: () => dataTypeSupport() !== "none",
    resultNotes: () => runtime.calls.notes(),
    trace: paneTraceForHost(host, () => runtime.records),
    signIn: paneSignIn(credentials, runtime.settings),
    host,
    version: runtime.version,
  };
  let initialView: ViewId = "picker";
  try {
    if (!(await credentials.now()).usable) initialView = "settings";
  } catch {
    initialView = "settings";
  }
  createRoot(element).render(
    <App services={services} officeTheme={readOfficeTheme()} initialView={initialView} demo={context.demo} />,
  );
}
