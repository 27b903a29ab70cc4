import { FluentProvider, Title2, Body1, webLightTheme } from "@fluentui/react-components";
import { createRoot } from "react-dom/client";
import { BUILD_INFO } from "../office/build-info";

export interface PaneContext {
  /** Office host, or null in a plain browser. */
  host: Office.HostType | null;
}

function App({ context }: { context: PaneContext }) {
  const { version } = BUILD_INFO;
  return (
    <FluentProvider theme={webLightTheme}>
      <main style={{ padding: 16 }}>
        <Title2 as="h1">Market Data</Title2>
        <Body1 as="p" data-testid="host">
          {context.host ? `Running in ${context.host}` : "Running outside Office"} · version {version}
        </Body1>
      </main>
    </FluentProvider>
  );
}

export function mountApp(element: HTMLElement, context: PaneContext): void {
  createRoot(element).render(<App context={context} />);
}
